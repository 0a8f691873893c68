"""The events of a Slobberhannes deal and what one seat observes of it.

They live apart from :mod:`kartentisch.games.slobberhannes.deal`, which the build
may compile (docs/performance.md): these dataclasses stay Python classes, whatever
runs the engine. ``deal`` re-exports them, so both names work.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kartentisch.cards import Card
from kartentisch.engine import Event, event_type
from kartentisch.games.slobberhannes.options import SlobberhannesOptions
from kartentisch.tricks import PlayedTrick

__all__ = [
    "CardPlayed",
    "DealEnded",
    "DealStarted",
    "PenaltyCharged",
    "SlobberhannesObservation",
    "TrickWon",
]


@event_type("deal_started")
class DealStarted(Event):
    dealer: int
    leader: int
    hand_sizes: tuple[int, ...]
    packets: tuple[int, ...]


@event_type("card_played")
class CardPlayed(Event):
    seat: int
    card: Card
    trick: int
    revoke: bool = False


@event_type("trick_won")
class TrickWon(Event):
    trick: int
    seat: int
    cards: tuple[Card, ...]


@event_type("penalty")
class PenaltyCharged(Event):
    """A chip paid into the middle: ``reason`` is one of :data:`REASONS`."""

    seat: int
    reason: str
    chips: int
    trick: int | None


@event_type("deal_ended")
class DealEnded(Event):
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SlobberhannesObservation:
    """What one seat knows: its own hand and everything played in the open."""

    seat: int
    players: int
    dealer: int
    hand: tuple[Card, ...]
    to_move: int | None
    legal_actions: tuple[Card, ...]
    trick: PlayedTrick
    tricks: tuple[PlayedTrick, ...]
    hand_sizes: tuple[int, ...]
    penalties: tuple[int, ...]
    tricks_per_deal: int
    options: SlobberhannesOptions

    @property
    def trick_number(self) -> int:
        """1-based number of the trick being played."""
        return len(self.tricks) + 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "hand": [str(c) for c in self.hand],
            "to_move": self.to_move,
            "legal_actions": [str(c) for c in self.legal_actions],
            "trick": self.trick.to_dict(),
            "tricks": [t.to_dict() for t in self.tricks],
            "hand_sizes": list(self.hand_sizes),
            "penalties": list(self.penalties),
            "options": self.options.to_dict(),
        }
