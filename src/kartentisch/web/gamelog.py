"""A turn-based table's game log.

Every action is stored with who made it (``by``: ``person``, ``bot``,
``standin``, ``timer``, ``auto``). A turn-based table keeps the **game log**:
one public entry per action (from the adapter's ``log_entries``) with its
version and ``by``, and notes of what happened between actions
(:meth:`GameLog.note`). State messages carry only the entries a connection
lacks (docs/web-protocol.md, "The game log").
"""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING, Any

from kartentisch.web.seats import Connection

if TYPE_CHECKING:
    from kartentisch.web.livetable import LiveTable

log = logging.getLogger("kartentisch.web")

__all__ = ["GameLog"]


class GameLog:
    """The log of one table's game: entries of actions and notes, in order."""

    def __init__(self) -> None:
        #: The entries of actions and notes, in order.
        self.entries: list[dict[str, Any]] = []
        #: Names this log; a new one (after a restart or a rebuild) starts again from 0.
        self.epoch = secrets.token_urlsafe(6)
        #: How many entries of the log every connection has been sent.
        self.sent = 0
        #: Actions of the game already in the log.
        self.logged = 0
        #: Connections that said hello and wait for the log: (epoch, entries they hold).
        self.wanted: dict[Connection, tuple[str | None, int]] = {}

    def kept(self, table: LiveTable) -> bool:
        """Whether this table keeps a game log (a turn-based game under way)."""
        return table.game is not None and hasattr(table.game, "log_entries")

    def part(self, start: int) -> dict[str, Any]:
        """The log from entry ``start`` on, as a state message carries it."""
        return {"epoch": self.epoch, "from": start, "entries": self.entries[start:]}

    def note(self, table: LiveTable, kind: str, seat: int | None, **fields: Any) -> None:
        """Note in the log what happened between actions (``standin_on``, ``standin_off``,
        ``paused``, ``resumed`` …) for ``seat``; the next broadcast sends it.

        Notes live in memory: after a restart the log holds the actions only.
        """
        if self.kept(table):
            self.entries.append({"v": table.version, "seat": seat, "note": kind, **fields})

    def extend(self, table: LiveTable) -> None:
        """Add the actions applied since the last call to the log."""
        game = table.game
        entries = getattr(game, "log_entries", None)
        if game is None or entries is None:
            return
        start = self.logged
        for i, entry in enumerate(entries(start), start=start):
            by = table.by[i] if i < len(table.by) else "person"
            self.entries.append({"v": i + 1, **entry, "by": by})
        self.logged = game.version

    def renew(self, table: LiveTable) -> None:
        """Start the log again from the game's actions (a new game, a restore, a rebuild)."""
        self.entries = []
        self.epoch = secrets.token_urlsafe(6)
        self.sent = 0
        self.logged = 0
        self.extend(table)
