"""Answers computed once: the replays and records of tables, kept in a bounded cache.

Replaying a long session through its engine takes a while, and the answer
at one version of a table never changes. :class:`AnswerCache` keeps the
encoded answers (the bytes sent) under their key (table, version, finished,
language) in a least-recently-used cache of at most ``max_bytes``; an answer
asked for again is sent from it, and one asked for by several requests at
once is computed once, the others waiting for it. A finished table's key is
noted by its id alone (:meth:`AnswerCache.note_finished`), so that its
answers are found without reading the table at all.

>>> import asyncio
>>> made = []
>>> async def make() -> bytes:
...     made.append(1)
...     return b"replayed"
>>> async def twice() -> list[bytes]:
...     cache = AnswerCache()
...     return [await cache.get(("replay", "t1", 7, True, "en"), make) for _ in range(2)]
>>> asyncio.run(twice()), len(made)
([b'replayed', b'replayed'], 1)
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Final

__all__ = ["DEFAULT_MAX_BYTES", "AnswerCache"]

#: What the answers kept may take together (a long session's replay is some hundreds of KiB).
DEFAULT_MAX_BYTES: Final = 32 * 1024 * 1024
#: Finished tables whose final version is remembered (a few dozen bytes each).
MAX_FINISHED: Final = 10_000


class AnswerCache:
    """A bounded LRU of encoded answers, each computed once (see the module's text)."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._answers: OrderedDict[Hashable, bytes] = OrderedDict()
        self._size = 0
        self._pending: dict[Hashable, asyncio.Task[bytes]] = {}
        self._finished: OrderedDict[str, tuple[int, str]] = OrderedDict()
        #: Answers computed (not found in the cache), for the figures and the tests.
        self.made = 0

    def __len__(self) -> int:
        return len(self._answers)

    @property
    def size(self) -> int:
        """The bytes of the answers kept."""
        return self._size

    def finished(self, table_id: str) -> tuple[int, str] | None:
        """The final version and the game of finished ``table_id``, if noted."""
        return self._finished.get(table_id)

    def note_finished(self, table_id: str, version: int, game: str) -> None:
        """``table_id`` is finished at ``version``: its answers are found by its id alone."""
        self._finished[table_id] = (version, game)
        self._finished.move_to_end(table_id)
        while len(self._finished) > MAX_FINISHED:
            self._finished.popitem(last=False)

    def peek(self, key: Hashable) -> bytes | None:
        """The answer kept under ``key``, if any (it counts as used)."""
        answer = self._answers.get(key)
        if answer is not None:
            self._answers.move_to_end(key)
        return answer

    async def get(self, key: Hashable, make: Callable[[], Awaitable[bytes]]) -> bytes:
        """The answer of ``key``: kept, being made by another request, or made now.

        An exception of ``make`` reaches every request waiting for it, and
        nothing is kept.
        """
        answer = self.peek(key)
        if answer is not None:
            return answer
        pending = self._pending.get(key)
        if pending is None:
            # A task of its own: a request that goes away does not cancel the others' answer.
            pending = asyncio.get_running_loop().create_task(self._make(key, make))
            pending.add_done_callback(_retrieved)
            self._pending[key] = pending
        return await asyncio.shield(pending)

    async def _make(self, key: Hashable, make: Callable[[], Awaitable[bytes]]) -> bytes:
        try:
            answer = await make()
        finally:
            del self._pending[key]
        self.made += 1
        self._keep(key, answer)
        return answer

    def _keep(self, key: Hashable, answer: bytes) -> None:
        if len(answer) > self.max_bytes:
            return
        old = self._answers.pop(key, None)
        if old is not None:
            self._size -= len(old)
        self._answers[key] = answer
        self._size += len(answer)
        while self._size > self.max_bytes:
            _, dropped = self._answers.popitem(last=False)
            self._size -= len(dropped)


def _retrieved(task: asyncio.Task[bytes]) -> None:
    """Mark the outcome of ``task`` seen (its requests may all have gone)."""
    if not task.cancelled():
        task.exception()
