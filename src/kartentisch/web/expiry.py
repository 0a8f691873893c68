"""The expiry of a table that waits for players.

A table **waiting for players** expires when it has not started within
:attr:`ServerSettings.waiting_expiry`: it is marked ``expired`` in the store
(its row is kept; a restart does not bring it back), leaves the lobby, and
its connections are told ``table_expired`` and closed; a join or start is
answered ``410``.

A table that no person has come to yet (:attr:`LiveTable.unseen`: no seated
person's hello since it was created, such as one of "you" and bots whose
creator's page never connected) counts as waiting too, even once it plays:
its row keeps its ``creator`` until the first person's hello, and it expires
as a waiting table would. A table of bots alone has no creator: neither.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import TYPE_CHECKING, Final

from kartentisch.storage import TableNotWaiting
from kartentisch.web.i18n import translate
from kartentisch.web.moments import now as _now

if TYPE_CHECKING:
    from kartentisch.web.livetable import LiveTable

log = logging.getLogger("kartentisch.web")

__all__ = ["EXPIRY_RETRY", "TableExpiry"]

#: Seconds before a table's expiry is tried again when the store could not take it.
EXPIRY_RETRY: Final = 5.0


class TableExpiry:
    """A table's expiry: its timer, and the table expired when it is due."""

    def __init__(self) -> None:
        self.handle: asyncio.TimerHandle | None = None
        #: Its expiry is being stored: a person coming now does not keep it.
        self.expiring = False

    def watch(self, table: LiveTable, due: float) -> None:
        """Expire the table at ``due`` (monotonic) unless it has started by then."""
        self.cancel()
        table.expires_at = due
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # (a table read outside the server's loop: nothing to watch)
            return
        self.handle = loop.call_later(max(0.0, due - _now()), self.due, table)

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None

    def due(self, table: LiveTable) -> None:
        self.handle = None
        table.manager._spawn(self.expire(table), f"expire-{table.id}")

    def came(self, table: LiveTable) -> None:
        """A seated person said hello: the table is no longer :attr:`unseen`.

        A playing table stops counting as waiting (the store forgets its creator) and
        no longer expires; a waiting one still does both until it starts.
        """
        if not table.unseen or self.expiring:
            return
        table.unseen = False
        if table.status != "playing":
            return  # (its start forgets the creator)
        self.cancel()
        table.expires_at = None
        table.store.save_seen(table.id).add_done_callback(
            functools.partial(self.seen_stored, table)
        )

    def seen_stored(self, table: LiveTable, saving: asyncio.Future[None]) -> None:
        if saving.cancelled():
            return
        error = saving.exception()
        if error is not None:
            # It plays on; the store still counts it as waiting (a restart would expire
            # it if nobody comes back within its time).
            log.warning("table %s: cannot store that a person came (%s)", table.id, error)

    async def expire(self, table: LiveTable) -> bool:
        """The table waited too long for players (or, playing, for its people to come at
        all): stored ``expired`` (its row is kept), out of the lobby and of memory; every
        connection is told ``table_expired`` and closed, its drivers stop.

        False if it started (or a person came) meanwhile, or is no longer run here. If the
        store cannot take the change, it is tried again after :data:`EXPIRY_RETRY` seconds.
        """
        async with table.lock:
            if (
                not table.expirable
                or table.withdrawn
                or table.manager.tables.get(table.id) is not table
            ):
                return False
            self.expiring = True
            try:
                await table.store.save_expired(table.id)
            except TableNotWaiting:
                # Another process started it (it lost this one its lease): read it again.
                log.warning("table %s: does not wait in the store any more", table.id)
                table.withdraw()
                return False
            except Exception:
                log.exception("table %s: cannot store that it expired; trying again", table.id)
                self.watch(table, _now() + EXPIRY_RETRY)
                return False
            finally:
                self.expiring = False
            unstarted = table.status == "waiting"
            table.status = "expired"
            self.cancel()
            table.expires_at = None
            del table.manager.tables[table.id]
            for conn in list(table.connections):
                conn.error("table_expired", translate(conn.lang, "error.table_expired"))
                conn.close()
            table.connections.clear()
            table.gamelog.wanted.clear()
            if table.driver.task is not None:
                table.driver.task.cancel()
                table.driver.task = None
            if table.runner is not None:
                table.runner.halt()
                table.runner = None
            why = "nobody started it" if unstarted else "no person came to it"
            log.info("table %s: expired, %s", table.id, why)
        if table.manager.release is not None:
            await table.manager.release(table.id)
        return True
