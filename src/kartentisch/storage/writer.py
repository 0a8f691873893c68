"""The store's writer: every write queued on the event loop, many per transaction.

Writes are queued as :class:`Write` items. On an event loop, :meth:`StoreWriter.submit`
queues a write and returns a future; the first write of a turn of the loop
schedules a flush for the next turn, which commits everything queued until
then in one transaction (group commit) and then settles the futures. Under
load one commit carries the actions of many tables; a lone action on an idle
server is committed on the next turn of the loop (nothing waits for a batch
to fill). :meth:`StoreWriter.run` writes at once and blocks (for callers that
are not coroutines); it first commits what its own event loop has queued, so
writes are stored in the order they were made.

The flush runs on the event loop's thread: on SQLite (WAL,
``synchronous=NORMAL``: nothing is synced to disk at commit) a transaction of
a few actions takes a few tenths of a millisecond, about what handing it to
a thread and back costs. A writer thread was measured too (benchmarks/
web_load.py, 200 tables): no better on a quiet machine, and under heavy load
its commits waited for the interpreter lock and a CPU like everything else
(median 100 ms), with a thread switch more per commit. On PostgreSQL the
flush waits on the loop for the server's round trips and its commit.

If a transaction fails, each of its writes is tried again alone, so only the
writes that are themselves at fault fail. A transaction that fails for a
reason that may pass (the store says which: a lost database connection, a
locked or unreachable database) is first tried again as it was, on a fresh
connection, after each of :data:`RETRY_DELAYS`; if it still fails, every
write in it fails with that error (none of them is at fault). Either way a
write that fails was not stored, and its caller hears so: nothing is
acknowledged that is not stored. The waits block the event loop (the flush
runs on it), which is why they are short, and why they are made only while
storage works: once a transaction has failed that way, the writer is
:attr:`StoreWriter.failing` and tries each transaction once, without
waiting, until one commits. A table whose write failed for a
passing reason waits longer, without blocking the loop: it tries again after
each delay of its :class:`Backoff` until the write is stored
(:mod:`kartentisch.web.saving`, docs/web.md "When the server cannot save").
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

__all__ = ["MAX_BATCH", "RETRY_DELAYS", "Backoff", "StoreWriter", "Write"]

log = logging.getLogger("kartentisch.storage")

#: The most writes one transaction carries.
MAX_BATCH: Final = 500
#: Seconds to wait before each new try of a transaction that failed for a passing reason.
RETRY_DELAYS: Final = (0.0, 0.05, 0.25)

WriteKind = Literal["create", "update", "action", "expire"]


@dataclass(frozen=True)
class Backoff:
    """Delays between the tries of a write that waits for storage to come back.

    ``first`` seconds, then each delay ``factor`` times the one before, at most
    ``most``; the tries go on until the write is stored (no jitter: the delays
    are the same every time).

    >>> delays = Backoff(0.5, 2.0, 3.0).delays()
    >>> [next(delays) for _ in range(5)]
    [0.5, 1.0, 2.0, 3.0, 3.0]
    """

    first: float = 0.25
    factor: float = 2.0
    most: float = 5.0

    def __post_init__(self) -> None:
        if self.first <= 0 or self.factor < 1 or self.most < self.first:
            raise ValueError("a backoff needs 0 < first <= most and a factor of at least 1")

    def delays(self) -> Iterator[float]:
        delay = self.first
        while True:
            yield delay
            delay = min(self.most, delay * self.factor)


@dataclass
class Write:
    """One write: a new table, a change of a table's row, one action (with the row's
    change), or the end of a waiting table (``expire``: only if it still waits)."""

    kind: WriteKind
    table_id: str
    #: ``create``: the row's columns; ``update``: the columns to set; ``action``: seq, seat, action.
    values: dict[str, Any]
    #: ``action`` only: columns of the table's row to set in the same transaction (``status``).
    table_values: dict[str, Any] = field(default_factory=dict)
    #: ``action`` and ``update``: the moves now due at a correspondence table (rows of
    #: ``turns``: seat, account_id, game, since, deadline), replacing the table's
    #: earlier ones in the same transaction; None leaves them as they are.
    turns: list[dict[str, Any]] | None = None


#: Applies writes in one transaction, raising if any of them fails.
ApplyBatch = Callable[[Sequence[Write]], None]
#: Whether an error of :data:`ApplyBatch` may pass if the transaction is tried again.
IsTransient = Callable[[BaseException], bool]


class StoreWriter:
    """Queues writes and commits them in batches (see the module's description)."""

    def __init__(
        self,
        apply: ApplyBatch,
        transient: IsTransient | None = None,
        retry_delays: Sequence[float] = RETRY_DELAYS,
    ) -> None:
        self._apply_batch = apply
        self._transient: IsTransient = transient or (lambda _error: False)
        self._retry_delays = tuple(retry_delays)
        #: Writes queued on each event loop, with their futures, in order.
        self._pending: dict[
            asyncio.AbstractEventLoop, list[tuple[Write, asyncio.Future[None]]]
        ] = {}
        #: One transaction at a time (blocking callers may use other threads).
        self._lock = threading.Lock()
        self._closed = False
        #: Transactions committed and the writes they carried (for tests and measurements).
        self.transactions = 0
        self.writes = 0
        #: Transactions tried again after a passing failure.
        self.retries = 0
        #: A transaction failed for a passing reason after its tries, and none has
        #: committed since: each is tried once (the loop is not held while storage is down).
        self.failing = False

    def submit(self, write: Write) -> asyncio.Future[None]:
        """Queue ``write``; the future is done when it has committed (call on an event loop)."""
        if self._closed:
            raise RuntimeError("the store is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        queued = self._pending.get(loop)
        if queued is None:
            queued = self._pending[loop] = []
            loop.call_soon(self._flush, loop)
        queued.append((write, future))
        return future

    def run(self, write: Write) -> None:
        """Commit ``write`` now, after what this thread's event loop has queued; raise its error."""
        if self._closed:
            raise RuntimeError("the store is closed")
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None and loop in self._pending:
            self._flush(loop)
        self._apply([write])

    def close(self) -> None:
        """Commit what is queued on this thread's event loop; later writes raise."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            if loop in self._pending:
                self._flush(loop)
        self._closed = True

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        queued = self._pending.pop(loop, None)
        while queued:
            batch, queued = queued[:MAX_BATCH], queued[MAX_BATCH:]
            self._commit(batch)

    def _commit(self, batch: list[tuple[Write, asyncio.Future[None]]]) -> None:
        try:
            self._apply([write for write, _ in batch])
        except Exception as exc:
            if len(batch) == 1 or self._transient(exc):
                # Alone, or not the writes' fault (tried again already): all fail.
                for _, future in batch:
                    _settle(future, exc)
                return
            # One bad write must not sink the others: each alone, in order.
            for write, future in batch:
                try:
                    self._apply([write])
                except Exception as alone:
                    _settle(future, alone)
                else:
                    _settle(future, None)
        else:
            for _, future in batch:
                _settle(future, None)

    def _apply(self, writes: Sequence[Write]) -> None:
        delays = iter(() if self.failing else self._retry_delays)
        while True:
            try:
                with self._lock:
                    self._apply_batch(writes)
                    self.transactions += 1
                    self.writes += len(writes)
                self.failing = False
                return
            except Exception as exc:
                transient = self._transient(exc)
                delay = next(delays, None) if transient else None
                if delay is None:
                    if transient:
                        self.failing = True
                    raise
                self.retries += 1
                log.warning(
                    "a transaction of %d write(s) failed (%s); trying again in %.2f s",
                    len(writes),
                    _first_line(exc),
                    delay,
                )
                time.sleep(delay)


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():  # nobody waits any more (cancelled)
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)
