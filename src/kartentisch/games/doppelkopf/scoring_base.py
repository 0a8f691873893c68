"""What the two Doppelkopf score formulas share: the facts of a finished game.

The facts (:class:`GameFacts`, :class:`ScoringTrick`, :class:`Announcement`)
and the score (:class:`GameScore`, :class:`ExtraPoint`), the constants, the
checks of the facts, the counts derived from them (Augen, tricks won,
announced levels) and the extra points. The house rules
(:mod:`kartentisch.games.doppelkopf.scoring_house`) and the DDV rules
(:mod:`kartentisch.games.doppelkopf.scoring_ddv`) score from these;
:mod:`kartentisch.games.doppelkopf.scoring` is the public entry point.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from operator import contains
from typing import Any, Final, Literal

from kartentisch.cards import CARDS, Card, Rank, Suit, doppelkopf_deck
from kartentisch.errors import KartentischError

__all__ = [
    "AUGEN",
    "BOCK_TRIGGERS",
    "DDV_SONDERPUNKTE",
    "EXTRA_NAMES",
    "GAME_TYPES",
    "HOUSE_BOCK_TRIGGERS",
    "HOUSE_SONDERPUNKTE",
    "NORMAL_GAME_TYPES",
    "PARTIES",
    "SOLO_GAME_TYPES",
    "SONDERPUNKTE",
    "STAGES",
    "WORDS",
    "Announcement",
    "AnnouncementValue",
    "CheckedGame",
    "Counting",
    "ExtraPoint",
    "GameFacts",
    "GameScore",
    "Party",
    "RotGehtRum",
    "Rules",
    "ScoringError",
    "ScoringTrick",
    "Word",
    "augen_of",
    "count_extras",
    "extra_points",
    "extras_line",
    "is_below",
    "is_power",
    "other_party",
    "plural",
    "prepare_game",
    "prepare_outcome",
    "seat_list",
    "signed",
    "stages_below",
    "term",
    "trick_augen",
]

Party = Literal["re", "kontra"]
Word = Literal["re", "kontra", "no90", "no60", "no30", "schwarz"]
Rules = Literal["house", "ddv"]
RotGehtRum = Literal["extra_point", "bock", "off"]
#: What an announcement does to the game's value: doubles it (the sheet) or adds to it
#: (TSR 7.2.3: Re and Kontra 2 each, every stage announced 1; ×10 under house scoring),
#: or ``re_doubles``: Re and Kontra double while each stage adds (FreeDoko's way).
AnnouncementValue = Literal["double", "add", "re_doubles"]
Counting = Literal["scoring", "zero_sum", "winners", "losers"]

PARTIES: Final[tuple[Party, Party]] = ("re", "kontra")
WORDS: Final[tuple[Word, ...]] = ("re", "kontra", "no90", "no60", "no30", "schwarz")
#: Stages (Gewinnstufen) in order: level 1 … 4; level 0 is the plain Re/Kontra.
STAGES: Final[tuple[str, ...]] = ("no90", "no60", "no30", "schwarz")
#: Seed 003 § Augen (and TSR 2.2 for the nine): A 11, 10 10, K 4, Q 3, J 2, 9 0.
AUGEN: Final[Mapping[Rank, int]] = {
    Rank.ACE: 11,
    Rank.TEN: 10,
    Rank.KING: 4,
    Rank.QUEEN: 3,
    Rank.JACK: 2,
    Rank.NINE: 0,
}
NORMAL_GAME_TYPES: Final = ("normal", "hochzeit", "armut")
SOLO_GAME_TYPES: Final = (
    "trump",
    "queens",
    "jacks",
    "clubs",
    "spades",
    "hearts",
    "diamonds",
    "no_trump",
    "null",
    "fleischlos",
    # Combined picture soli and the kings solo (FreeDoko's list), after the others
    # so that the ids of the kinds before them stay as they were.
    "kings",
    "queens_jacks",
    "kings_queens",
    "kings_jacks",
    "koehler",
)
GAME_TYPES: Final = NORMAL_GAME_TYPES + SOLO_GAME_TYPES
EXTRA_NAMES: Final = (
    "fuchs_gefangen",
    "fuchs_letzter_stich",
    "dulle_gefangen",
    "karlchen",
    "karlchen_gefangen",
    "voller_stich",
    "rot_geht_rum",
    "doppelkopf",
    "gegen_die_alten",
)
#: The extra points a table may count, each on or off (the option ``sonderpunkte``):
#: a trick of 40 Augen or more is ``doppelkopf`` (the house sheet calls it a
#: "voller Stich"); Rot geht rum has an option of its own.
SONDERPUNKTE: Final = (
    "fuchs_gefangen",
    "fuchs_letzter_stich",
    "karlchen",
    "karlchen_gefangen",
    "doppelkopf",
    "dulle_gefangen",
    "gegen_die_alten",
)
#: Seed 003 § Sonderpunkte: Fuchs gefangen, Karlchen, voller Stich, Dulle gefangen.
HOUSE_SONDERPUNKTE: Final = ("fuchs_gefangen", "karlchen", "doppelkopf", "dulle_gefangen")
#: TSR 6.1 (Sonderpunkte): gegen die Alten, Doppelkopf, Fuchs gefangen, Karlchen.
DDV_SONDERPUNKTE: Final = ("fuchs_gefangen", "karlchen", "doppelkopf", "gegen_die_alten")
#: What may start Bock games (the option ``bock_triggers``; house scoring only): a lost
#: or missed announcement, a lost solo, 120:120, a party without a trick. Rot geht rum
#: has an option of its own (``rot_geht_rum = "bock"``).
BOCK_TRIGGERS: Final = ("lost_announcement", "lost_solo", "tie", "schwarz")
#: Seed 003 § Böcke: a lost announcement (a solo's implied Re too), 120:120.
HOUSE_BOCK_TRIGGERS: Final = ("lost_announcement", "lost_solo", "tie")

_PRESET_EXTRAS: Final[Mapping[str, frozenset[str]]] = {
    "house": frozenset(HOUSE_SONDERPUNKTE),
    "ddv": frozenset(DDV_SONDERPUNKTE),
}
_HOUSE_TRIGGERS: Final = frozenset(HOUSE_BOCK_TRIGGERS)
_FOX: Final = Card("AD")
_DULLE: Final = Card("10H")
_KARLCHEN: Final = Card("JC")
_LEVEL: Final[Mapping[str, int]] = {
    "re": 0,
    "kontra": 0,
    "no90": 1,
    "no60": 2,
    "no30": 3,
    "schwarz": 4,
}
_STAGE_LIMIT: Final[Mapping[int, int]] = {1: 90, 2: 60, 3: 30}
#: The cards of the 48-card deck (A 10 K Q J 9 of each suit) and the nines among them.
_DECK_CARDS: Final = frozenset(c for c in CARDS if c.rank in AUGEN)
_NINES: Final = frozenset(c for c in _DECK_CARDS if c.rank == Rank.NINE)
_HEARTS: Final = frozenset(c for c in _DECK_CARDS if c.suit == Suit.HEARTS)
#: Augen by card index, for cards already checked to be in the deck.
_CARD_AUGEN: Final = tuple(AUGEN.get(c.rank, 0) for c in CARDS)
#: How often each card index occurs in the whole deck, without and with the nines.
_FULL_COUNTS: Final = {
    nines: [doppelkopf_deck(nines=nines).count(c) for c in CARDS] for nines in (False, True)
}
_FOUR: Final = frozenset({4})
#: The whole deck, sorted (a complete game played exactly these cards).
_SORTED_DECK: Final = {nines: sorted(doppelkopf_deck(nines=nines)) for nines in (False, True)}


class ScoringError(KartentischError):
    """Game facts that cannot be scored: inconsistent, incomplete or against the rules."""


@dataclass(frozen=True, slots=True, init=False)
class ScoringTrick:
    """One played trick: the seats in play order, their cards, and the seat that won it."""

    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    winner: int

    # Written out (``init=False``), the generated one's signature: compiled, a
    # dataclass's generated ``__init__`` would run as Python (the engine makes many).
    def __init__(
        self,
        seats: tuple[int, ...],
        cards: tuple[Card, ...],
        winner: int,
    ) -> None:
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "winner", winner)

    @property
    def augen(self) -> int:
        return trick_augen(self.cards)

    @property
    def winning_card(self) -> Card:
        return self.cards[self.seats.index(self.winner)]


@dataclass(frozen=True, slots=True, init=False)
class Announcement:
    """An announcement (Ansage/Absage) made by ``seat`` for ``party``."""

    seat: int
    party: Party
    word: Word

    # Written out (``init=False``), the generated one's signature: compiled, a
    # dataclass's generated ``__init__`` would run as Python (the engine makes many).
    def __init__(
        self,
        seat: int,
        party: Party,
        word: Word,
    ) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "party", party)
        object.__setattr__(self, "word", word)


@dataclass(frozen=True, slots=True, init=False)
class GameFacts:
    """Everything the score depends on, as the engine saw the game end.

    ``seats`` are the four playing seats; with five at the table the dealer
    sits out and gets 0. ``re_party`` is the soloist alone in a solo. A
    solo's implicit Re is not listed in ``announcements``. ``trumps`` are the
    trump cards of this game (for Fuchs, Dulle and Rot geht rum).
    ``offenders`` (table mode) are the seats that revoked or announced
    wrongly; they must all belong to one party (the first offence decides).
    ``bock_multiplier`` is ``2 ** active Böcke`` from the score sheet.
    """

    rules: Rules
    seats: tuple[int, ...]
    table_size: int
    re_party: frozenset[int]
    game_type: str
    solo: bool
    ouvert: bool
    announcements: tuple[Announcement, ...]
    tricks: tuple[ScoringTrick, ...]
    trumps: frozenset[Card]
    scharfe_aces: bool
    offenders: frozenset[int] = frozenset()
    bock_multiplier: int = 1
    rot_geht_rum: RotGehtRum = "extra_point"
    #: The extra points counted (:data:`SONDERPUNKTE`); None: those of ``rules``' preset.
    sonderpunkte: frozenset[str] | None = None
    #: DDV scoring: a point for reaching a level against each of the other party's
    #: announced stages (``each``, TSR 7.2.2) or against its highest only.
    against_points: Literal["each", "highest"] = "each"
    #: What starts Bock games (:data:`BOCK_TRIGGERS`); None: the sheet's.
    bock_triggers: frozenset[str] | None = None
    #: What announcements do to the value; None: what ``rules`` does (house doubles).
    announcement_value: AnnouncementValue | None = None
    #: Both ♦A were Schweinchen (option ``schweinchen``): then they are no Füchse.
    schweinchen: bool = False
    #: How the value is written to the seats (option ``counting``): as ``rules``
    #: writes it, ``zero_sum``, to the ``winners`` only, or as the ``losers``' debt.
    counting: Counting = "scoring"
    #: Winners-only and losers-pay counting: the soloist's figure in units of one
    #: opponent's (option ``solo_factor``; zero-sum counting always takes 3).
    solo_factor: int = 3
    #: Extra points in a solo too (option ``solo_sonderpunkte``; never in a Nullsolo).
    solo_extras: bool = False
    #: A Hochzeit: the trick that found the partner (None: none, or not a Hochzeit),
    #: and whether the extra points of the tricks before it count (``all``) or not.
    hochzeit_trick: int | None = None
    hochzeit_extras: Literal["all", "after_found"] = "all"

    # Written out (``init=False``), the generated one's signature: compiled, a
    # dataclass's generated ``__init__`` would run as Python (the engine makes many).
    def __init__(
        self,
        rules: Rules,
        seats: tuple[int, ...],
        table_size: int,
        re_party: frozenset[int],
        game_type: str,
        solo: bool,
        ouvert: bool,
        announcements: tuple[Announcement, ...],
        tricks: tuple[ScoringTrick, ...],
        trumps: frozenset[Card],
        scharfe_aces: bool,
        offenders: frozenset[int] = frozenset(),
        bock_multiplier: int = 1,
        rot_geht_rum: RotGehtRum = "extra_point",
        sonderpunkte: frozenset[str] | None = None,
        against_points: Literal["each", "highest"] = "each",
        bock_triggers: frozenset[str] | None = None,
        announcement_value: AnnouncementValue | None = None,
        schweinchen: bool = False,
        counting: Counting = "scoring",
        solo_factor: int = 3,
        solo_extras: bool = False,
        hochzeit_trick: int | None = None,
        hochzeit_extras: Literal["all", "after_found"] = "all",
    ) -> None:
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "table_size", table_size)
        object.__setattr__(self, "re_party", re_party)
        object.__setattr__(self, "game_type", game_type)
        object.__setattr__(self, "solo", solo)
        object.__setattr__(self, "ouvert", ouvert)
        object.__setattr__(self, "announcements", announcements)
        object.__setattr__(self, "tricks", tricks)
        object.__setattr__(self, "trumps", trumps)
        object.__setattr__(self, "scharfe_aces", scharfe_aces)
        object.__setattr__(self, "offenders", offenders)
        object.__setattr__(self, "bock_multiplier", bock_multiplier)
        object.__setattr__(self, "rot_geht_rum", rot_geht_rum)
        object.__setattr__(self, "sonderpunkte", sonderpunkte)
        object.__setattr__(self, "against_points", against_points)
        object.__setattr__(self, "bock_triggers", bock_triggers)
        object.__setattr__(self, "announcement_value", announcement_value)
        object.__setattr__(self, "schweinchen", schweinchen)
        object.__setattr__(self, "counting", counting)
        object.__setattr__(self, "solo_factor", solo_factor)
        object.__setattr__(self, "solo_extras", solo_extras)
        object.__setattr__(self, "hochzeit_trick", hochzeit_trick)
        object.__setattr__(self, "hochzeit_extras", hochzeit_extras)

    @property
    def counted_bock_triggers(self) -> frozenset[str]:
        """What starts Bock games in this game."""
        if self.bock_triggers is not None:
            return self.bock_triggers
        return _HOUSE_TRIGGERS

    @property
    def value_rule(self) -> AnnouncementValue:
        """What announcements do to the value in this game (``announcement_value``)."""
        if self.announcement_value is not None:
            return self.announcement_value
        return "double" if self.rules == "house" else "add"

    @property
    def doubling(self) -> bool:
        """Whether Re and Kontra double the value (else every word adds points)."""
        return self.value_rule != "add"

    def doubles(self, level: int) -> bool:
        """Whether an announced ``level`` (0 Re/Kontra, 1–4 the stages) doubles the value;
        a level that does not adds points."""
        rule = self.value_rule
        return rule == "double" or (rule == "re_doubles" and level == 0)

    @property
    def counted_extras(self) -> frozenset[str]:
        """The extra points this game counts."""
        if self.sonderpunkte is not None:
            return self.sonderpunkte
        return _PRESET_EXTRAS[self.rules]

    def party_of(self, seat: int) -> Party:
        return "re" if seat in self.re_party else "kontra"


@dataclass(frozen=True, slots=True, init=False)
class ExtraPoint:
    """An extra point (Sonderpunkt) won by ``party``; ``trick`` is 1-based (None: the game)."""

    party: Party
    name: str
    trick: int | None

    # Written out (``init=False``), the generated one's signature: compiled, a
    # dataclass's generated ``__init__`` would run as Python (the engine makes many).
    def __init__(
        self,
        party: Party,
        name: str,
        trick: int | None,
    ) -> None:
        object.__setattr__(self, "party", party)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "trick", trick)

    def to_dict(self) -> dict[str, Any]:
        return {"party": self.party, "name": self.name, "trick": self.trick}


@dataclass(frozen=True, slots=True, init=False)
class GameScore:
    """The scored game. ``points`` has one entry per table seat, as written on the sheet.

    ``winner`` is the winning party. Under DDV scoring a game in which both
    parties missed their announced targets has no winner (TSR 7.1.4); then
    ``winner`` is the party with more Augen (Kontra on a tie) and the lines
    say that nobody won.
    """

    augen: Mapping[Party, int]
    winner: Party
    stages: tuple[str, ...]
    extras: tuple[ExtraPoint, ...]
    multiplier: int
    base: int
    points: tuple[int, ...]
    bock_trigger: bool
    lines: tuple[str, ...]

    # Written out (``init=False``), the generated one's signature: compiled, a
    # dataclass's generated ``__init__`` would run as Python (the engine makes many).
    def __init__(
        self,
        augen: Mapping[Party, int],
        winner: Party,
        stages: tuple[str, ...],
        extras: tuple[ExtraPoint, ...],
        multiplier: int,
        base: int,
        points: tuple[int, ...],
        bock_trigger: bool,
        lines: tuple[str, ...],
    ) -> None:
        object.__setattr__(self, "augen", augen)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "stages", stages)
        object.__setattr__(self, "extras", extras)
        object.__setattr__(self, "multiplier", multiplier)
        object.__setattr__(self, "base", base)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "bock_trigger", bock_trigger)
        object.__setattr__(self, "lines", lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "augen": {p: self.augen[p] for p in PARTIES},
            "winner": self.winner,
            "stages": list(self.stages),
            "extras": [e.to_dict() for e in self.extras],
            "multiplier": self.multiplier,
            "base": self.base,
            "points": list(self.points),
            "bock_trigger": self.bock_trigger,
            "lines": list(self.lines),
        }


# -- small helpers ------------------------------------------------------------


def augen_of(card: Card) -> int:
    """The card's Augen (seed 003 § Augen; nines 0)."""
    try:
        return AUGEN[card.rank]
    except KeyError:
        raise ScoringError(f"{card} is not a Doppelkopf card (A 10 K Q J 9)") from None


def trick_augen(cards: Iterable[Card]) -> int:
    """The Augen of a trick."""
    return sum(augen_of(c) for c in cards)


def other_party(party: Party) -> Party:
    return "kontra" if party == "re" else "re"


def stages_below(augen: int, tricks: int) -> tuple[str, ...]:
    """The stages a party with ``augen`` Augen in ``tricks`` tricks is below.

    U9 below 90, U6 below 60, U3 below 30, Schwarz: no trick (seed 003
    § Gewinnstufen, TSR 7.2.2 a).
    """
    out = [STAGES[level - 1] for level, limit in _STAGE_LIMIT.items() if augen < limit]
    if tricks == 0:
        out.append("schwarz")
    return tuple(out)


def is_below(level: int, augen: int, tricks: int) -> bool:
    """Whether a party with ``augen`` in ``tricks`` tricks is below stage ``level``."""
    if level == 4:
        return tricks == 0
    return augen < _STAGE_LIMIT[level]


def is_power(m: int, base: int) -> bool:
    """Whether ``m`` is ``base`` to a whole power (1 included): a Bock multiplier.

    >>> is_power(9, 3), is_power(8, 4), is_power(1, 2)
    (True, False, True)
    """
    if m < 1:
        return False
    while m > 1 and m % base == 0:
        m //= base
    return m == 1


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def term(n: int) -> str:
    return f"+ {n}" if n >= 0 else f"− {-n}"


def seat_list(seats: Iterable[int]) -> str:
    items = sorted(seats)
    return ("seat " if len(items) == 1 else "seats ") + ", ".join(str(s) for s in items)


# -- checking the facts ---------------------------------------------------------


@dataclass(slots=True, init=False)
class CheckedGame:
    """The checked facts and the counts derived from them."""

    facts: GameFacts
    augen: Mapping[Party, int]
    tricks_won: Mapping[Party, int]
    complete: bool
    offending: Party | None
    #: Announced levels per party, each word implying the lower ones (0 = Re/Kontra).
    announced: Mapping[Party, frozenset[int]]
    #: How many announcements count as doublings — explicit and implied (with
    #: ``announcement_value="re_doubles"`` only Re and Kontra).
    doublings: int
    #: The party of each playing seat.
    parties: Mapping[int, Party]
    #: The Augen of each trick, in order.
    trick_augen: tuple[int, ...]

    # Written out (``init=False``), the generated one's signature: compiled, a
    # dataclass's generated ``__init__`` would run as Python (the engine makes many).
    def __init__(
        self,
        facts: GameFacts,
        augen: Mapping[Party, int],
        tricks_won: Mapping[Party, int],
        complete: bool,
        offending: Party | None,
        announced: Mapping[Party, frozenset[int]],
        doublings: int,
        parties: Mapping[int, Party],
        trick_augen: tuple[int, ...],
    ) -> None:
        self.facts = facts
        self.augen = augen
        self.tricks_won = tricks_won
        self.complete = complete
        self.offending = offending
        self.announced = announced
        self.doublings = doublings
        self.parties = parties
        self.trick_augen = trick_augen

    @property
    def house(self) -> bool:
        return self.facts.rules == "house"

    @property
    def null(self) -> bool:
        return self.facts.game_type == "null"


def _check_layout(f: GameFacts) -> None:
    if f.rules not in ("house", "ddv"):
        raise ScoringError(f"rules must be 'house' or 'ddv', not {f.rules!r}")
    if type(f.table_size) is not int or f.table_size not in (4, 5):
        raise ScoringError(f"table_size must be 4 or 5, not {f.table_size!r}")
    seats = f.seats
    if len(seats) != 4 or len(set(seats)) != 4:
        raise ScoringError(f"seats must name 4 different playing seats, not {seats!r}")
    for s in seats:
        if type(s) is not int or not 0 <= s < f.table_size:
            raise ScoringError(f"seat {s!r} is not a seat of a table of {f.table_size}")
    if f.game_type not in GAME_TYPES:
        raise ScoringError(
            f"unknown game type {f.game_type!r}: choose one of {', '.join(GAME_TYPES)}"
        )
    if f.solo != (f.game_type in SOLO_GAME_TYPES):
        kind = "a solo" if f.game_type in SOLO_GAME_TYPES else "not a solo"
        raise ScoringError(f"game type {f.game_type!r} is {kind}, but solo={f.solo}")
    if not f.re_party <= set(seats):
        raise ScoringError(f"re_party {sorted(f.re_party)} is not among the seats {seats}")
    need = 1 if f.solo else 2
    if len(f.re_party) != need:
        what = "a solo has one soloist" if f.solo else "Re has two players in a non-solo game"
        raise ScoringError(f"{what}; re_party is {sorted(f.re_party)}")
    if f.ouvert and not f.solo:
        raise ScoringError("only a solo can be played ouvert")
    if not f.offenders <= set(seats):
        raise ScoringError(f"offenders {sorted(f.offenders)} are not among the seats {seats}")
    if f.rot_geht_rum not in ("extra_point", "bock", "off"):
        raise ScoringError(
            f"rot_geht_rum must be 'extra_point', 'bock' or 'off', not {f.rot_geht_rum!r}"
        )
    m = f.bock_multiplier
    if type(m) is not int or m < 1 or not any(is_power(m, b) for b in (2, 3)):
        raise ScoringError(
            f"bock_multiplier must be a power of the Bock factor (1, 2, 3, 4 …), not {m!r}"
        )


def _check_tricks(f: GameFacts) -> bool:
    """Check every trick; return whether they make up a whole game."""
    playing = set(f.seats)
    tricks = f.tricks
    seats = [t.seats for t in tricks]
    in_tricks = [t.cards for t in tricks]
    cards = list(chain.from_iterable(in_tricks))
    sound = (
        {*map(len, seats), *map(len, in_tricks)} <= _FOUR
        and all(map(playing.__eq__, map(set, seats)))
        and all(map(contains, seats, [t.winner for t in tricks]))
        and all(map(isinstance, cards, repeat(Card)))
        and _DECK_CARDS.issuperset(cards)
    )
    if not sound:
        _raise_trick_error(f, playing)
    cards.sort()
    if cards == _SORTED_DECK[False] or cards == _SORTED_DECK[True]:
        return True  # the whole deck, each card twice
    counts = [0] * 52
    for card in cards:
        counts[card] += 1
    if max(counts) > 2:
        doubled = next(c for t in f.tricks for c in t.cards if counts[c] > 2)
        raise ScoringError(f"{doubled} was played {counts[doubled]} times; there are two")
    nines = any(counts[c] for c in _NINES)
    complete = counts == _FULL_COUNTS[nines]
    if not complete and not f.offenders:
        size = 48 if nines else 40
        raise ScoringError(
            f"the tricks hold {sum(counts)} cards, not the whole {size}-card deck "
            "(only a game with offenders in table mode may end early)"
        )
    return complete


def _raise_trick_error(f: GameFacts, playing: set[int]) -> None:
    """Name the first thing wrong with the tricks, trick by trick."""
    for i, t in enumerate(f.tricks, start=1):
        if len(t.seats) != 4 or len(t.cards) != 4 or set(t.seats) != playing:
            raise ScoringError(
                f"trick {i} must have one card from each of the seats {sorted(playing)}"
            )
        if t.winner not in t.seats:
            raise ScoringError(f"trick {i}: the winner {t.winner!r} did not play in it")
        for card in t.cards:
            if not isinstance(card, Card) or card not in _DECK_CARDS:
                raise ScoringError(f"trick {i}: {card!r} is not a Doppelkopf card")


def _check_announcements(f: GameFacts) -> None:
    seen: set[tuple[str, str]] = set()
    for a in f.announcements:
        if a.seat not in f.seats:
            raise ScoringError(f"announcement {a.word!r} by seat {a.seat}, who does not play")
        if a.party not in PARTIES or a.word not in WORDS:
            raise ScoringError(f"unknown announcement {a.party!r}/{a.word!r}")
        if a.seat in f.offenders:
            continue  # table mode: a wrong announcement counts as it was made
        own = f.party_of(a.seat)
        if a.party != own:
            raise ScoringError(f"seat {a.seat} plays {own}, but announced for {a.party}")
        if a.word in ("re", "kontra") and a.word != a.party:
            raise ScoringError(f"the {a.party} party cannot say {a.word!r}")
        if (a.party, a.word) in seen:
            raise ScoringError(f"{a.party} announced {a.word!r} twice")
        seen.add((a.party, a.word))
        if f.solo and f.rules == "house" and a.word != "kontra":
            raise ScoringError(
                f"in a solo only the opponents' Kontra may be announced (seed 003 § Soli), "
                f"not {a.word!r} by seat {a.seat}"
            )


def prepare_game(f: GameFacts, complete: bool | None = None) -> CheckedGame:
    if complete is None:
        _check_layout(f)
        complete = _check_tricks(f)
        _check_announcements(f)
    offending_parties = {f.party_of(s) for s in f.offenders}
    if len(offending_parties) > 1:
        raise ScoringError(
            "offenders from both parties: pass only the party that offended first "
            "(its game is lost as schwarz; later offences change nothing)"
        )
    offending: Party | None = offending_parties.pop() if offending_parties else None
    re = f.re_party
    parties: dict[int, Party] = {s: "re" if s in re else "kontra" for s in f.seats}
    v = _CARD_AUGEN  # every trick holds four checked cards
    trick_augen = tuple([v[w] + v[x] + v[y] + v[z] for w, x, y, z in [t.cards for t in f.tricks]])
    by_re = [value for t, value in zip(f.tricks, trick_augen, strict=True) if t.winner in re]
    augen: dict[Party, int] = {"re": sum(by_re), "kontra": sum(trick_augen) - sum(by_re)}
    won: dict[Party, int] = {"re": len(by_re), "kontra": len(trick_augen) - len(by_re)}
    announced, doublings = _announced(f)
    return CheckedGame(
        f, augen, won, complete, offending, announced, doublings, parties, trick_augen
    )


def prepare_outcome(f: GameFacts, re_augen: int, re_tricks: int, kontra_tricks: int) -> CheckedGame:
    """The game ``f`` as it would end with these totals: ``f.tricks`` are the tricks
    played so far (their extra points count), the Augen and tricks of each party those
    given (a search's outcome). Not checked; never complete (no last-trick extras)."""
    re = f.re_party
    parties: dict[int, Party] = {s: "re" if s in re else "kontra" for s in f.seats}
    v = _CARD_AUGEN
    trick_augen = tuple([v[w] + v[x] + v[y] + v[z] for w, x, y, z in [t.cards for t in f.tricks]])
    augen: dict[Party, int] = {"re": re_augen, "kontra": 240 - re_augen}
    won: dict[Party, int] = {"re": re_tricks, "kontra": kontra_tricks}
    announced, doublings = _announced(f)
    return CheckedGame(f, augen, won, False, None, announced, doublings, parties, trick_augen)


def _announced(f: GameFacts) -> tuple[dict[Party, frozenset[int]], int]:
    """The announced levels of each party (a word implies the lower ones) and how many
    of them double the value."""
    explicit: dict[Party, set[int]] = {"re": set(), "kontra": set()}
    for a in f.announcements:
        explicit[a.party].add(_LEVEL[a.word])
    announced = {
        p: frozenset(range(max(explicit[p]) + 1)) if explicit[p] else frozenset() for p in PARTIES
    }
    if f.value_rule == "re_doubles":
        doublings = (0 in announced["re"]) + (0 in announced["kontra"])
    else:
        doublings = len(announced["re"]) + len(announced["kontra"])
    if f.solo and f.rules == "house" and 0 in announced["re"]:
        doublings -= 1  # the solo's Re is already in its value (seed 003 § Solo)
    if f.solo and f.rules == "ddv" and f.ouvert and f.game_type != "null":
        # Seed 003 § Soli: an ouvert solo includes "schwarz" against the opponents.
        announced["re"] = frozenset(range(5))
    return announced, doublings


# -- extra points -------------------------------------------------------------------


def extra_points(g: CheckedGame) -> tuple[list[ExtraPoint], int]:
    """The extra points of a non-solo game, and the number of Rot-geht-rum tricks.

    Only those the game counts (:attr:`GameFacts.counted_extras`); Gegen die
    Alten depends on the winner and is added by the scoring.
    """
    f = g.facts
    out: list[ExtraPoint] = []
    red_tricks = 0
    if f.solo and (not f.solo_extras or f.game_type == "null"):
        return out, 0
    house = g.house
    # A Hochzeit decided late: only the tricks from the deciding one on (option).
    first = f.hochzeit_trick if f.hochzeit_extras == "after_found" and f.hochzeit_trick else 1
    counted = f.counted_extras
    fox = "fuchs_gefangen" in counted and not f.schweinchen
    dulle = "dulle_gefangen" in counted and not f.scharfe_aces
    full = "doppelkopf" in counted
    last = len(f.tricks)
    parties, trumps = g.parties, f.trumps
    for i, t in enumerate(f.tricks, start=1):
        if i < first:
            continue
        wp = parties[t.winner]
        for seat, card in zip(t.seats, t.cards, strict=True):
            if parties[seat] == wp or card not in trumps:
                continue
            if card == _FOX and fox:
                out.append(ExtraPoint(wp, "fuchs_gefangen", i))
            elif card == _DULLE and dulle:
                out.append(ExtraPoint(wp, "dulle_gefangen", i))
        if full and g.trick_augen[i - 1] >= 40:
            out.append(ExtraPoint(wp, "voller_stich" if house else "doppelkopf", i))
        if house and all(c in _HEARTS and c not in trumps for c in t.cards):
            red_tricks += 1
            if f.rot_geht_rum == "extra_point":
                out.append(ExtraPoint(wp, "rot_geht_rum", i))
        if g.complete and i == last:
            out.extend(_last_trick_extras(g, t, wp, counted))
    return out, red_tricks


def _last_trick_extras(
    g: CheckedGame, t: ScoringTrick, wp: Party, counted: frozenset[str]
) -> list[ExtraPoint]:
    """Karlchen and the Fuchs winning the last trick, and either caught in it."""
    out: list[ExtraPoint] = []
    trick = len(g.facts.tricks)
    won_by = t.winning_card
    if won_by == _KARLCHEN and "karlchen" in counted:
        out.append(ExtraPoint(wp, "karlchen", trick))
    if (
        won_by == _FOX
        and _FOX in g.facts.trumps
        and not g.facts.schweinchen
        and "fuchs_letzter_stich" in counted
    ):
        out.append(ExtraPoint(wp, "fuchs_letzter_stich", trick))
    if "karlchen_gefangen" in counted:
        for seat, card in zip(t.seats, t.cards, strict=True):
            if card == _KARLCHEN and g.parties[seat] != wp:
                out.append(ExtraPoint(wp, "karlchen_gefangen", trick))
    return out


def extras_line(extras: Sequence[ExtraPoint], unit: int) -> str:
    if not extras:
        return "Extra points: none."
    parts = []
    for e in extras:
        where = f" (trick {e.trick})" if e.trick is not None else ""
        parts.append(f"{e.party.capitalize()} {e.name}{where}")
    return f"Extra points ({unit} each): " + ", ".join(parts) + "."


def count_extras(extras: Iterable[ExtraPoint], party: Party) -> int:
    return sum(1 for e in extras if e.party == party)
