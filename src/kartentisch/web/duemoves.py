"""The moves due at a correspondence table.

At a correspondence table each move has its deadline on the wall clock (kept
across restarts, in the store's ``turns``). When a move becomes due, the
manager's :attr:`TableManager.on_turn` is told whose move it is while they are
not at the table, for the mail to them (:mod:`kartentisch.web.correspondence`).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kartentisch.web.livetable import LiveTable

log = logging.getLogger("kartentisch.web")

__all__ = ["DueMoves"]


class DueMoves:
    """A correspondence table's moves due, and the seats told of theirs."""

    def __init__(self) -> None:
        #: The seats whose due move was told (:meth:`tell`).
        self.told: set[int] = set()

    def due(self, table: LiveTable, since: float) -> list[dict[str, Any]] | None:
        """A correspondence table's moves due now (rows of the store's ``turns``: the
        acting seats with an account); None at any other table."""
        move = table.move_seconds
        game = table.game
        if move is None or game is None:
            return None
        if game.is_over:
            return []
        start = datetime.fromtimestamp(since, UTC)
        end = datetime.fromtimestamp(since + move, UTC)
        return [
            {
                "seat": seat,
                "account_id": table.seats[seat].account,
                "game": table.kind.name,
                "since": start,
                "deadline": end,
            }
            for seat in sorted(set(game.acting))
            if table.seats[seat].kind == "human" and table.seats[seat].account is not None
        ]

    def tell(self, table: LiveTable, turns: list[dict[str, Any]] | None) -> None:
        """Tell the manager's :attr:`TableManager.on_turn` whose move is newly due while
        they are not at the table (no connection to their seat now), for the mail to them.

        A seat is told once while its moves follow each other (a declaration and the
        next): it counts as told until its move is no longer due. A move the table
        answers for the person at once (a forced one) is not told.
        """
        if turns is None:
            return
        due = {int(row["seat"]) for row in turns}
        forced = table.driver.forced(table)
        self.told &= due
        new = sorted(s for s in due - self.told if forced is None or forced[1] != s)
        self.told.update(new)
        away = [seat for seat in new if not table.connected(seat)]
        if away and table.manager.on_turn is not None:
            table.manager._spawn(table.manager.on_turn(table, away), f"turn-{table.id}")
