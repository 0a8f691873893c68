"""Records of the real-time games: replay them exactly from their timed actions.

A record holds the stacks as dealt (top card first), the actions with their
game times, and ``clock``, the game time when the record was written, so that
windows that closed by time alone close again on replay (docs/notation-realtime.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from kartentisch.errors import (
    DealError,
    IllegalActionError,
    NotationError,
    OptionError,
    RecordError,
)
from kartentisch.realtime.actions import TimedAction
from kartentisch.realtime.base import TimedGame, TimedOptions
from kartentisch.records import ReplayError, check_by, require

__all__ = ["replay_timed", "seat_label", "summarize_timed"]

G = TypeVar("G", bound=TimedGame[Any])
Op = TypeVar("Op", bound=TimedOptions)


def seat_label(seat: int, names: Sequence[str] | None) -> str:
    return names[seat] if names is not None else f"#{seat}"


def summarize_timed(
    game: TimedGame[Any], outcome: Mapping[str, Any], details: Mapping[str, Any]
) -> dict[str, Any]:
    """The JSON summary of ``kartentisch replay --json`` that every timed game shares.

    ``outcome`` (who won, and how) follows ``points``; ``details`` (the
    game's own lists of events) come last.
    """
    return {
        "game": game.game,
        "players": game.num_seats,
        "dealer": game.dealer,
        "options": game.options.to_dict(),
        "points": list(game.points()),
        **outcome,
        "finished": game.is_over,
        "clock": game.clock,
        "turns": game.turned,
        "pile": len(game.pile),
        **details,
    }


def replay_timed(
    record: Mapping[str, Any],
    options_type: type[Op],
    build: Callable[..., G],
) -> G:
    """Check a record field by field, then apply its actions one by one."""
    raw = record.get("options", {})
    if not isinstance(raw, dict):
        raise RecordError('field "options" must be an object')
    try:
        options = options_type.from_dict(raw)
    except OptionError as exc:
        raise RecordError(f"options: {exc}") from None
    seats: tuple[str, ...] | None = None
    if "seats" in record:
        names = require(record, "seats", list)
        if len(names) != options.players or not all(isinstance(s, str) for s in names):
            raise RecordError(f'field "seats" must list {options.players} names, one per seat')
        seats = tuple(names)
    dealer = require(record, "dealer", int)
    hands = require(record, "hands", list)
    actions = require(record, "actions", list)
    check_by(record, actions)
    clock = require(record, "clock", int) if "clock" in record else None
    try:
        game = build(hands, dealer=dealer, options=options, seats=seats)
    except DealError as exc:
        raise RecordError(f"hands: {exc}") from None
    for i, item in enumerate(actions, start=1):
        try:
            action = TimedAction.from_json(item)
        except NotationError as exc:
            raise ReplayError(
                IllegalActionError("bad_notation", str(exc)),
                position=i,
                seat=None,
                action=str(item),
            ) from None
        try:
            game.apply(action)
        except IllegalActionError as exc:
            seat = action.seat
            name = seats[seat] if seats is not None and seat < len(seats) else None
            raise ReplayError(
                exc, position=i, seat=seat, action=str(action), seat_name=name
            ) from None
    if clock is not None:
        if clock < game.clock:
            raise RecordError(
                f'field "clock" ({clock} ms) is before the last action ({game.clock} ms)'
            )
        game.advance(clock)
    return game
