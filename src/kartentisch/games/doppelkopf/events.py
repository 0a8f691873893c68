"""What happens in a Doppelkopf deal, named for what happened.

Events form the public log of a deal: they never name a hidden card. The
cards passed in an Armut are counted here ("2 Trumpf nach oben"); only the
two players involved see them, in their observations.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from kartentisch.cards import Card
from kartentisch.engine import Event

__all__ = [
    "Announced",
    "AnnouncementTakenBack",
    "ArmutAnswered",
    "ArmutCardsPassed",
    "ArmutOffered",
    "CardPlayed",
    "CardTakenBack",
    "DealEnded",
    "DealStarted",
    "Declared",
    "HochzeitAlone",
    "HochzeitPartnerFound",
    "PigsShown",
    "PlayStarted",
    "Redeal",
    "TrickWon",
]


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    type: ClassVar[str] = "deal_started"
    dealer: int
    playing: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    packets: tuple[int, ...]
    bock_multiplier: int


@dataclass(frozen=True, slots=True)
class Declared(Event):
    """A declaration, reservation or pass, spoken in turn before the first card."""

    type: ClassVar[str] = "declared"
    seat: int
    call: str


@dataclass(frozen=True, slots=True)
class Redeal(Event):
    """The deal is void and dealt again: ``reason`` is ``kings`` or ``armut_refused``."""

    type: ClassVar[str] = "redeal"
    reason: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class ArmutOffered(Event):
    """ "X Trumpf nach oben/unten": ``direction`` is ``up`` (with an Alte) or ``down``;
    ``round`` when the players are asked in turn (option ``armut_ask``), ``partner``
    the first asked."""

    type: ClassVar[str] = "armut_offered"
    seat: int
    trumps: int
    direction: str
    partner: int


@dataclass(frozen=True, slots=True)
class ArmutAnswered(Event):
    type: ClassVar[str] = "armut_answered"
    seat: int
    accepted: bool


@dataclass(frozen=True, slots=True)
class ArmutCardsPassed(Event):
    """Three cards passed face down: ``kind`` is ``give`` or ``return``."""

    type: ClassVar[str] = "armut_cards_passed"
    seat: int
    to: int
    kind: str
    count: int
    trumps: int


@dataclass(frozen=True, slots=True)
class PlayStarted(Event):
    """The game as the table knows it: a silent solo shows as ``normal``."""

    type: ClassVar[str] = "play_started"
    game_type: str
    soloist: int | None
    ouvert: bool
    leader: int
    scharfe_aces: bool
    scharfe_kings: bool
    open_hand: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class PigsShown(Event):
    """The table is told that ``seat`` holds a pig (``schweinchen``,
    ``superschweinchen`` or ``hyperschweinchen``): as play begins or as the first
    of its two cards is played, by the option ``schweinchen``."""

    type: ClassVar[str] = "pigs_shown"
    seat: int
    kind: str


@dataclass(frozen=True, slots=True)
class Announced(Event):
    """An announcement; ``implied`` lists the lower ones it made at the same time."""

    type: ClassVar[str] = "announced"
    seat: int
    party: str
    word: str
    implied: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class AnnouncementTakenBack(Event):
    type: ClassVar[str] = "announcement_taken_back"
    seat: int
    word: str


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    type: ClassVar[str] = "card_played"
    seat: int
    card: Card
    trick: int


@dataclass(frozen=True, slots=True)
class CardTakenBack(Event):
    """Kulanzregel: a player took back his last card before the next was played."""

    type: ClassVar[str] = "card_taken_back"
    seat: int
    card: Card
    trick: int


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    type: ClassVar[str] = "trick_won"
    trick: int
    seat: int
    cards: tuple[Card, ...]
    augen: int


@dataclass(frozen=True, slots=True)
class HochzeitPartnerFound(Event):
    type: ClassVar[str] = "hochzeit_partner_found"
    holder: int
    partner: int
    trick: int


@dataclass(frozen=True, slots=True)
class HochzeitAlone(Event):
    """No partner within the tricks allowed: the holder plays alone (a solo)."""

    type: ClassVar[str] = "hochzeit_alone"
    holder: int
    trick: int


@dataclass(frozen=True, slots=True)
class DealEnded(Event):
    """The deal was played out: the true game and the score."""

    type: ClassVar[str] = "deal_ended"
    game_type: str
    solo: bool
    re_party: tuple[int, ...]
    augen: dict[str, int]
    winner: str
    points: tuple[int, ...]
    offenders: tuple[int, ...]
    score: Any = None
