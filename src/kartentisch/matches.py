"""What the matches of the trick-taking games share: seating and the match record.

A Slobberhannes match and a Doppelkopf session both seat named players,
check a given first dealer and write their deals as one record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol

from kartentisch.engine import RECORD_FORMAT

__all__ = ["check_first_dealer", "match_record", "seat_names"]


def seat_names(seats: Sequence[str] | None, players: int) -> tuple[str, ...]:
    """The names given, one per seat, or ``Seat 0``, ``Seat 1`` … if none are.

    >>> seat_names(None, 3)
    ('Seat 0', 'Seat 1', 'Seat 2')
    >>> seat_names(["Ann"], 3)
    Traceback (most recent call last):
    ...
    ValueError: 1 seat names given for 3 players
    """
    names = tuple(seats) if seats is not None else tuple(f"Seat {i}" for i in range(players))
    if len(names) != players:
        raise ValueError(f"{len(names)} seat names given for {players} players")
    return names


def check_first_dealer(first_dealer: int, players: int) -> None:
    """A ValueError unless ``first_dealer`` is one of the ``players`` seats."""
    if not 0 <= first_dealer < players:
        raise ValueError(f"first dealer must be a seat from 0 to {players - 1}")


class _Options(Protocol):
    def to_record(self) -> dict[str, Any]: ...


class _Match(Protocol):
    game: ClassVar[str]
    seat_names: tuple[str, ...]
    seed: int | None

    @property
    def options(self) -> _Options: ...


def match_record(match: _Match, deals: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A match record: header, the match's options, seats and seed (if any), then ``deals``."""
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "game": match.game,
        "options": match.options.to_record(),
        "seats": list(match.seat_names),
    }
    if match.seed is not None:
        record["seed"] = match.seed
    record["deals"] = list(deals)
    return record
