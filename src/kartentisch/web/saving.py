"""What a live table does while a change is stored, and when the store cannot take it.

A change is made in memory, then stored; until it is, the table's state
messages are held back (:class:`TableSaving`). If the store failed for a
reason that passes (the database is down, locked, its disk full), the table
waits for storage to come back, telling everyone ``storage_wait``; if the
change cannot be stored for good, it did not happen: the table is rebuilt from
the store, or withdrawn if the store cannot be read either (docs/web.md, "When
the server cannot save").
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kartentisch.storage import passing
from kartentisch.web.i18n import translate
from kartentisch.web.moments import now as _now
from kartentisch.web.seats import Connection

if TYPE_CHECKING:
    from kartentisch.web.livetable import LiveTable

log = logging.getLogger("kartentisch.web")

__all__ = ["StorageFailure", "TableSaving", "first_line", "notice"]


class StorageFailure(Exception):
    """An action was not stored (the table was rebuilt from the store, or withdrawn)."""


def first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"


def notice(lang: str, code: str) -> dict[str, Any]:
    """A ``notice`` message: what the table does meanwhile (``storage_wait``, ``storage_back``)."""
    return {"type": "notice", "code": code, "message": translate(lang, f"notice.{code}")}


class TableSaving:
    """A table's changes being stored: what it holds back and how it waits."""

    def __init__(self) -> None:
        #: A change is being committed: state messages wait until it is stored.
        self.pending = False
        self.held_back = False
        #: Since when (monotonic) a change waits for storage to come back; None: it does not.
        self.wait_since: float | None = None
        #: The connections told that the table waits for storage.
        self.told: set[Connection] = set()

    async def stored(
        self,
        table: LiveTable,
        saving: asyncio.Future[None],
        again: Callable[[], asyncio.Future[None]] | None = None,
    ) -> None:
        """Wait until a change already made in memory is stored; meanwhile send nothing.

        If the store failed for a reason that passes (:func:`passing`: the
        database is down, locked, its disk full) and ``again`` makes the write
        anew, the table waits for storage to come back (:meth:`wait_for_storage`).
        Otherwise, if it cannot be stored, it did not happen: the table is
        rebuilt from the store, everyone is sent that, and the error is raised
        (if the store cannot be read either, the table is withdrawn). If the
        waiting task is cancelled (the server stops), the write still
        completes, and its outcome is handled then.
        """
        self.pending = True
        try:
            try:
                await self.written(table, saving)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if again is None or not passing(exc):
                    raise
                await self.wait_for_storage(table, exc, again)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.pending = False
            self.not_stored(table, exc)
            raise
        finally:
            self.pending = False

    async def written(self, table: LiveTable, saving: asyncio.Future[None]) -> None:
        """Wait until the write ``saving`` is done; if the waiting task is cancelled (the
        server stops), the write still completes and its outcome is handled then."""
        try:
            await asyncio.shield(saving)
        except asyncio.CancelledError:
            saving.add_done_callback(functools.partial(self.stored_late, table))
            raise

    async def wait_for_storage(
        self, table: LiveTable, error: BaseException, again: Callable[[], asyncio.Future[None]]
    ) -> None:
        """Hold the table until the change it holds in memory is stored.

        The write failed for a reason that passes (``error``). Everyone at the
        table is told ``storage_wait`` (a ``notice``; whoever comes meanwhile
        too); nothing is played, shown or stored meanwhile (a real-time
        table's game time stands still); the write is tried again after each
        delay of :attr:`ServerSettings.storage_retry` until it is stored. Then
        everyone is told ``storage_back`` and the caller sends the new state.
        Raises what a try raised if it failed for a reason that does not pass
        (the caller rebuilds the table from the store). Call with
        :attr:`pending` set.
        """
        self.wait_since = _now()
        self.told = set()
        log.error(
            "table %s: cannot store a change (%s); waiting for storage to come back",
            table.id,
            first_line(error),
        )
        if table.runner is not None:
            table.runner.pause("storage")
        self.tell_wait(table)
        tries = 0
        try:
            for delay in table.manager.settings.storage_retry.delays():
                await asyncio.sleep(delay)
                tries += 1
                try:
                    await self.written(table, again())
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    if not passing(exc):
                        raise
                    if tries % 20 == 0:
                        log.warning(
                            "table %s: still cannot store (%d tries): %s",
                            table.id,
                            tries,
                            first_line(exc),
                        )
                    continue
                log.info(
                    "table %s: stored after %.1f s (%d tries); play goes on",
                    table.id,
                    _now() - self.wait_since,
                    tries,
                )
                return
        finally:
            self.wait_since = None
            told, self.told = self.told, set()
            for conn in told:
                if conn in table.connections:
                    conn.send(notice(conn.lang, "storage_back"))
            if table.runner is not None:
                table.runner.resume("storage")

    def tell_wait(self, table: LiveTable) -> None:
        """Tell every connection not yet told that the table waits for storage."""
        for conn in table.connections:
            if conn.joined and conn not in self.told:
                self.told.add(conn)
                conn.send(notice(conn.lang, "storage_wait"))

    def stored_late(self, table: LiveTable, saving: asyncio.Future[None]) -> None:
        error = None if saving.cancelled() else saving.exception()
        if error is not None:
            self.not_stored(table, error)
        elif self.held_back:
            table.sender.broadcast(table)

    def not_stored(self, table: LiveTable, error: BaseException) -> None:
        """A change could not be stored, for good: what is not stored did not happen.

        The table is rebuilt from the store (a real-time table gets a new
        runner: the old one's referee, clock and bots knew of the change)
        and everyone is sent its state; if the store cannot be read, the
        table is withdrawn.
        """
        log.error("table %s: cannot store a change", table.id, exc_info=error)
        try:
            table.reload()
        except Exception:
            log.exception("table %s: cannot be read back from the store", table.id)
            table.withdraw()
            return
        if table.runner is not None:
            table.runner.halt()
            table.runner = None
            if table.status == "playing":
                table.start_driver()
        table.sender.broadcast(table)
