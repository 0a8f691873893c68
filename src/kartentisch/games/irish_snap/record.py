"""Irish Snap records: replay, and the JSON summary of ``kartentisch replay --json``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kartentisch.games.irish_snap.engine import IrishSnapGame, IrishSnapOptions, PileTaken
from kartentisch.realtime.records import replay_timed, summarize_timed

__all__ = ["replay", "summarize"]


def replay(record: Mapping[str, Any]) -> IrishSnapGame:
    """Check an Irish Snap record and return the replayed game."""
    return replay_timed(record, IrishSnapOptions, IrishSnapGame)


def summarize(game: IrishSnapGame) -> dict[str, Any]:
    """``points``: the cards each seat holds; ``winner``: the first to get rid of all cards."""
    safe = list(game.safe_order)
    outcome = {
        "winner": safe[0] if safe and game.is_over else None,
        "winners": list(game.winners),
        "loser": game.loser,
        "safe": safe,
    }
    pickups = [
        {"t": e.t, "seat": e.seat, "reason": e.reason, "cards": len(e.cards)}
        for e in game.events
        if isinstance(e, PileTaken)
    ]
    return summarize_timed(game, outcome, {"pickups": pickups})
