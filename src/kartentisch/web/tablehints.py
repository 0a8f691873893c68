"""Hints at a table: the strong bot's suggestion to a seat whose turn it is.

Only where the host allowed hints (never at a rated table); worked out by the
manager's :attr:`TableManager.on_hint` in a worker while the table plays on,
one at a time for each connection.
"""

from __future__ import annotations

import logging
import weakref
from typing import TYPE_CHECKING

from kartentisch.web.adapter import TableGame
from kartentisch.web.i18n import translate
from kartentisch.web.protocol import Hint
from kartentisch.web.seats import Connection, TableError

if TYPE_CHECKING:
    from kartentisch.web.livetable import LiveTable

log = logging.getLogger("kartentisch.web")

__all__ = ["TableHints"]


class TableHints:
    """The hints a table's connections asked for and wait for."""

    def __init__(self) -> None:
        #: Connections whose hint is being worked out (one at a time each).
        self.pending: weakref.WeakSet[Connection] = weakref.WeakSet()

    def ask(self, table: LiveTable, conn: Connection, message: Hint) -> None:
        """Answer a seat's ``hint`` with the strong bot's suggestion (computed by the
        manager's :attr:`TableManager.on_hint`, in a worker: the table plays on)."""
        lang = conn.lang
        game = table.game
        if not table.hints or table.manager.on_hint is None:
            conn.error("hints_off", translate(lang, "error.hints_off"))
        elif conn.seat is None:
            conn.error("not_seated", translate(lang, "error.not_seated"))
        elif message.version != table.version:
            table.refuse_stale(conn, table.version)
        elif (
            game is None
            or game.is_over
            or conn.seat not in game.acting
            or table.paused
            or table.attendance.between_deals(table) is not None
        ):
            conn.error("hint_not_your_turn", translate(lang, "error.hint_not_your_turn"))
        elif conn in self.pending:
            conn.error("hint_pending", translate(lang, "error.hint_pending"))
        else:
            self.pending.add(conn)
            table.manager._spawn(self.answer(table, conn, conn.seat, game), f"hint-{table.id}")

    async def answer(self, table: LiveTable, conn: Connection, seat: int, game: TableGame) -> None:
        version = game.version
        asked = table.manager.on_hint
        assert asked is not None
        try:
            answer = await asked(table, seat, conn.lang)
        except TableError as exc:
            conn.error(exc.code, exc.message(conn.lang))
            return
        finally:
            self.pending.discard(conn)
        conn.send({"type": "hint", "version": version, **answer})
