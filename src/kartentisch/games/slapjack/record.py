"""Slapjack records: replay, and the JSON summary of ``kartentisch replay --json``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kartentisch.games.slapjack.engine import (
    CardGiven,
    PileSplit,
    PileWon,
    PlayerOut,
    SlapjackGame,
    SlapjackOptions,
)
from kartentisch.realtime.records import replay_timed, summarize_timed

__all__ = ["replay", "summarize"]


def replay(record: Mapping[str, Any]) -> SlapjackGame:
    """Check a Slapjack record and return the replayed game."""
    return replay_timed(record, SlapjackOptions, SlapjackGame)


def summarize(game: SlapjackGame) -> dict[str, Any]:
    """``points``: the cards each seat holds; ``winner``: the single winner or null."""
    winners = list(game.winners)
    outcome = {
        "winner": winners[0] if len(winners) == 1 else None,
        "winners": winners,
        "reason": game.end_reason,
    }
    details = {
        "piles_won": [
            {"t": e.t, "seat": e.seat, "cards": len(e.cards), "comeback": e.comeback}
            for e in game.events
            if isinstance(e, PileWon)
        ],
        "false_slaps": [
            {"t": e.t, "seat": e.seat, "to": e.to} for e in game.events if isinstance(e, CardGiven)
        ],
        "splits": [
            {"t": e.t, "seat": e.seat, "reason": e.reason, "shares": list(e.shares)}
            for e in game.events
            if isinstance(e, PileSplit)
        ],
        "out": [
            {"t": e.t, "seat": e.seat, "reason": e.reason}
            for e in game.events
            if isinstance(e, PlayerOut)
        ],
    }
    return summarize_timed(game, outcome, details)
