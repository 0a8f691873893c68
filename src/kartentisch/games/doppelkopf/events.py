"""What happens in a Doppelkopf deal, named for what happened.

Events form the public log of a deal: they never name a hidden card. The
cards passed in an Armut are counted here ("2 Trumpf nach oben"); only the
two players involved see them, in their observations.
"""

from __future__ import annotations

from typing import Any

from kartentisch.cards import Card
from kartentisch.engine import Event, event_type

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


@event_type("deal_started")
class DealStarted(Event):
    dealer: int
    playing: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    packets: tuple[int, ...]
    bock_multiplier: int


@event_type("declared")
class Declared(Event):
    """A declaration, reservation or pass, spoken in turn before the first card."""

    seat: int
    call: str


@event_type("redeal")
class Redeal(Event):
    """The deal is void and dealt again: ``reason`` is ``kings`` or ``armut_refused``."""

    reason: str
    seat: int | None


@event_type("armut_offered")
class ArmutOffered(Event):
    """ "X Trumpf nach oben/unten": ``direction`` is ``up`` (with an Alte) or ``down``;
    ``round`` when the players are asked in turn (option ``armut_ask``), ``partner``
    the first asked."""

    seat: int
    trumps: int
    direction: str
    partner: int


@event_type("armut_answered")
class ArmutAnswered(Event):
    seat: int
    accepted: bool


@event_type("armut_cards_passed")
class ArmutCardsPassed(Event):
    """Three cards passed face down: ``kind`` is ``give`` or ``return``."""

    seat: int
    to: int
    kind: str
    count: int
    trumps: int


@event_type("play_started")
class PlayStarted(Event):
    """The game as the table knows it: a silent solo shows as ``normal``."""

    game_type: str
    soloist: int | None
    ouvert: bool
    leader: int
    scharfe_aces: bool
    scharfe_kings: bool
    open_hand: tuple[Card, ...] = ()


@event_type("pigs_shown")
class PigsShown(Event):
    """The table is told that ``seat`` holds a pig (``schweinchen``,
    ``superschweinchen`` or ``hyperschweinchen``): as play begins or as the first
    of its two cards is played, by the option ``schweinchen``."""

    seat: int
    kind: str


@event_type("announced")
class Announced(Event):
    """An announcement; ``implied`` lists the lower ones it made at the same time."""

    seat: int
    party: str
    word: str
    implied: tuple[str, ...] = ()


@event_type("announcement_taken_back")
class AnnouncementTakenBack(Event):
    seat: int
    word: str


@event_type("card_played")
class CardPlayed(Event):
    seat: int
    card: Card
    trick: int


@event_type("card_taken_back")
class CardTakenBack(Event):
    """Kulanzregel: a player took back his last card before the next was played."""

    seat: int
    card: Card
    trick: int


@event_type("trick_won")
class TrickWon(Event):
    trick: int
    seat: int
    cards: tuple[Card, ...]
    augen: int


@event_type("hochzeit_partner_found")
class HochzeitPartnerFound(Event):
    holder: int
    partner: int
    trick: int


@event_type("hochzeit_alone")
class HochzeitAlone(Event):
    """No partner within the tricks allowed: the holder plays alone (a solo)."""

    holder: int
    trick: int


@event_type("deal_ended")
class DealEnded(Event):
    """The deal was played out: the true game and the score."""

    game_type: str
    solo: bool
    re_party: tuple[int, ...]
    augen: dict[str, int]
    winner: str
    points: tuple[int, ...]
    offenders: tuple[int, ...]
    score: Any = None
