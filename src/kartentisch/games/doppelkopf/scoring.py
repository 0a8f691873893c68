"""The result of one Doppelkopf game: Augen, winner, stages, extra points, score.

Two score formulas (see docs/rules/doppelkopf-scoring.md for every rule and
its source):

* ``house`` — seed 003 § Punkte zählen, § Solo, § Böcke, § Zusätzliche
  Einnahmen, § Falsch bedient, with RULINGS.md § Doppelkopf: the winners of a
  normal game get (10 or 20 + 10 per stage ± 10 per extra point) × 2 per
  announcement × 2 per Bock; a solo is worth 250/500 (won) or −500/−1000
  (lost) to the soloist, × 2 ouvert, × 2 Kontra, × 2 per Bock. Losers get 0.
* ``ddv`` — the DDV Turnierspielregeln (TSR 7): plus/minus game points, the
  same value for every player of a party with opposite signs, a soloist
  three times (zero-sum).

:func:`score_game` takes the facts of a finished game (who played which card
in which trick, who is Re, what was announced) and returns a
:class:`GameScore` with the points per seat and an explanation.

>>> from kartentisch.cards import Card, parse_cards
>>> augen_of(Card("AD")), augen_of(Card("9H")), trick_augen(parse_cards("AC 10C KC QC"))
(11, 0, 28)
>>> stages_below(89, 1), stages_below(0, 0), stages_below(120, 3)
(('no90',), ('no90', 'no60', 'no30', 'schwarz'), ())
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any, Final, Literal

from kartentisch.cards import CARDS, Card, Rank, Suit, doppelkopf_deck
from kartentisch.errors import KartentischError

__all__ = [
    "AUGEN",
    "EXTRA_NAMES",
    "GAME_TYPES",
    "NORMAL_GAME_TYPES",
    "SOLO_GAME_TYPES",
    "STAGES",
    "WORDS",
    "Announcement",
    "ExtraPoint",
    "GameFacts",
    "GameScore",
    "Party",
    "ScoringError",
    "ScoringTrick",
    "Word",
    "augen_of",
    "other_party",
    "score_game",
    "stages_below",
    "trick_augen",
]

Party = Literal["re", "kontra"]
Word = Literal["re", "kontra", "no90", "no60", "no30", "schwarz"]
Rules = Literal["house", "ddv"]
RotGehtRum = Literal["extra_point", "bock", "off"]

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
)
GAME_TYPES: Final = NORMAL_GAME_TYPES + SOLO_GAME_TYPES
EXTRA_NAMES: Final = (
    "fuchs_gefangen",
    "dulle_gefangen",
    "karlchen",
    "voller_stich",
    "rot_geht_rum",
    "doppelkopf",
    "gegen_die_alten",
)

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
#: Augen a party needs to win after announcing a stage (TSR 7.1.2/7.1.3 Nr. 5–7).
_TARGET: Final[Mapping[int, int]] = {1: 151, 2: 181, 3: 211}
#: Augen that defeat the opponents' announced stage (TSR 7.1.2/7.1.3 Nr. 9–11).
_DEFENCE: Final[Mapping[int, int]] = {1: 90, 2: 60, 3: 30}
#: Augen reached "against" an announced stage for a point (TSR 7.2.2 e/f).
_AGAINST: Final[Mapping[int, int]] = {1: 120, 2: 90, 3: 60, 4: 30}
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
#: The whole deck, sorted (a complete game played exactly these cards).
_SORTED_DECK: Final = {nines: sorted(doppelkopf_deck(nines=nines)) for nines in (False, True)}


class ScoringError(KartentischError):
    """Game facts that cannot be scored: inconsistent, incomplete or against the rules."""


@dataclass(frozen=True, slots=True)
class ScoringTrick:
    """One played trick: the seats in play order, their cards, and the seat that won it."""

    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    winner: int

    @property
    def augen(self) -> int:
        return trick_augen(self.cards)

    @property
    def winning_card(self) -> Card:
        return self.cards[self.seats.index(self.winner)]


@dataclass(frozen=True, slots=True)
class Announcement:
    """An announcement (Ansage/Absage) made by ``seat`` for ``party``."""

    seat: int
    party: Party
    word: Word


@dataclass(frozen=True, slots=True)
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

    def party_of(self, seat: int) -> Party:
        return "re" if seat in self.re_party else "kontra"


@dataclass(frozen=True, slots=True)
class ExtraPoint:
    """An extra point (Sonderpunkt) won by ``party``; ``trick`` is 1-based (None: the game)."""

    party: Party
    name: str
    trick: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"party": self.party, "name": self.name, "trick": self.trick}


@dataclass(frozen=True, slots=True)
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


def _below(level: int, augen: int, tricks: int) -> bool:
    """Whether a party with ``augen`` in ``tricks`` tricks is below stage ``level``."""
    if level == 4:
        return tricks == 0
    return augen < _STAGE_LIMIT[level]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def _term(n: int) -> str:
    return f"+ {n}" if n >= 0 else f"− {-n}"


def _seat_list(seats: Iterable[int]) -> str:
    items = sorted(seats)
    return ("seat " if len(items) == 1 else "seats ") + ", ".join(str(s) for s in items)


# -- checking the facts ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Game:
    """The checked facts and the counts derived from them."""

    facts: GameFacts
    augen: Mapping[Party, int]
    tricks_won: Mapping[Party, int]
    complete: bool
    offending: Party | None
    #: Announced levels per party, each word implying the lower ones (0 = Re/Kontra).
    announced: Mapping[Party, frozenset[int]]
    #: How many announcements count as doublings (house) — explicit and implied.
    doublings: int
    #: The party of each playing seat.
    parties: Mapping[int, Party]
    #: The Augen of each trick, in order.
    trick_augen: tuple[int, ...]

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
    if type(m) is not int or m < 1 or m & (m - 1):
        raise ScoringError(f"bock_multiplier must be a power of two (1, 2, 4 …), not {m!r}")
    if f.rules == "ddv" and m != 1:
        raise ScoringError("DDV scoring has no Böcke: bock_multiplier must be 1")


def _check_tricks(f: GameFacts) -> bool:
    """Check every trick; return whether they make up a whole game."""
    playing = set(f.seats)
    cards = [c for t in f.tricks for c in t.cards]
    sound = all(map(isinstance, cards, repeat(Card))) and _DECK_CARDS.issuperset(cards)
    for t in f.tricks:
        if not sound:
            break
        seats = t.seats
        sound = len(seats) == 4 and len(t.cards) == 4 and set(seats) == playing
        sound = sound and t.winner in seats
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


def _prepare(f: GameFacts) -> _Game:
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
    parties = {s: f.party_of(s) for s in f.seats}
    augen: dict[Party, int] = {"re": 0, "kontra": 0}
    won: dict[Party, int] = {"re": 0, "kontra": 0}
    v = _CARD_AUGEN  # every trick holds four checked cards
    trick_augen = tuple([v[w] + v[x] + v[y] + v[z] for w, x, y, z in [t.cards for t in f.tricks]])
    for t, trick_value in zip(f.tricks, trick_augen, strict=True):
        p = parties[t.winner]
        augen[p] += trick_value
        won[p] += 1
    explicit: dict[Party, set[int]] = {"re": set(), "kontra": set()}
    for a in f.announcements:
        explicit[a.party].add(_LEVEL[a.word])
    announced = {
        p: frozenset(range(max(explicit[p]) + 1)) if explicit[p] else frozenset() for p in PARTIES
    }
    doublings = len(announced["re"]) + len(announced["kontra"])
    if f.solo and f.rules == "house" and 0 in announced["re"]:
        doublings -= 1  # the solo's Re is already in its value (seed 003 § Solo)
    if f.solo and f.rules == "ddv" and f.ouvert and f.game_type != "null":
        # Seed 003 § Soli: an ouvert solo includes "schwarz" against the opponents.
        announced["re"] = frozenset(range(5))
    return _Game(f, augen, won, complete, offending, announced, doublings, parties, trick_augen)


# -- extra points -------------------------------------------------------------------


def _extras(g: _Game) -> tuple[list[ExtraPoint], int]:
    """The extra points of a non-solo game, and the number of Rot-geht-rum tricks."""
    f = g.facts
    out: list[ExtraPoint] = []
    red_tricks = 0
    if f.solo:
        return out, 0
    house = g.house
    last = len(f.tricks)
    parties, trumps = g.parties, f.trumps
    for i, t in enumerate(f.tricks, start=1):
        wp = parties[t.winner]
        for seat, card in zip(t.seats, t.cards, strict=True):
            if parties[seat] == wp or card not in trumps:
                continue
            if card == _FOX:
                out.append(ExtraPoint(wp, "fuchs_gefangen", i))
            elif card == _DULLE and house and not f.scharfe_aces:
                out.append(ExtraPoint(wp, "dulle_gefangen", i))
        if g.trick_augen[i - 1] >= 40:
            out.append(ExtraPoint(wp, "voller_stich" if house else "doppelkopf", i))
        if house and all(c in _HEARTS and c not in trumps for c in t.cards):
            red_tricks += 1
            if f.rot_geht_rum == "extra_point":
                out.append(ExtraPoint(wp, "rot_geht_rum", i))
        if g.complete and i == last and t.winning_card == _KARLCHEN:
            out.append(ExtraPoint(wp, "karlchen", i))
    return out, red_tricks


def _extras_line(extras: Sequence[ExtraPoint], unit: int) -> str:
    if not extras:
        return "Extra points: none."
    parts = []
    for e in extras:
        where = f" (trick {e.trick})" if e.trick is not None else ""
        parts.append(f"{e.party.capitalize()} {e.name}{where}")
    return f"Extra points ({unit} each): " + ", ".join(parts) + "."


def _count(extras: Iterable[ExtraPoint], party: Party) -> int:
    return sum(1 for e in extras if e.party == party)


# -- house rules ---------------------------------------------------------------------


def _house_normal_winner(g: _Game, lines: list[str]) -> Party:
    a = g.augen
    missed = {p: _missed(g, p) for p in PARTIES}
    basic: Party = "re" if a["re"] >= 121 else "kontra"
    for p in PARTIES:
        if missed[p]:
            top = STAGES[max(g.announced[p]) - 1]
            lines.append(f"{p.capitalize()} announced {top} and missed it.")
    if missed["re"] != missed["kontra"]:
        winner: Party = "kontra" if missed["re"] else "re"
        lines.append(
            f"{winner.capitalize()} wins: a party that misses a stage it announced loses "
            "(RULINGS: Gewinnansagen)."
        )
        return winner
    if a["re"] == 120:
        lines.append("120:120 (geteilter Arsch): Kontra wins (seed 003 § Wer hats gewonnen?).")
    else:
        lines.append(f"{basic.capitalize()} wins (Re needs 121 Augen).")
    return basic


def _missed(g: _Game, party: Party) -> bool:
    levels = g.announced[party]
    top = max(levels, default=0)
    if top == 0:
        return False
    o = other_party(party)
    return not _below(top, g.augen[o], g.tricks_won[o])


def _house_solo_winner(g: _Game, lines: list[str]) -> Party:
    f = g.facts
    a, n = g.augen, g.tricks_won
    if g.null:
        won = n["re"] == 0
        lines.append(
            "Nullsolo: the soloist "
            + ("took no trick and wins." if won else f"took {_plural(n['re'], 'trick')} and loses.")
        )
    elif f.ouvert:
        won = n["kontra"] == 0
        lines.append(
            "Ouvert includes Schwarz: the opponents "
            + ("took no trick, the soloist wins." if won else "took a trick, the soloist loses.")
        )
    else:
        won = a["re"] >= 121
        lines.append(
            "The soloist "
            + ("wins" if won else "loses")
            + " (121 Augen needed; at 120:120 the opponents win)."
        )
    return "re" if won else "kontra"


def _score_house(g: _Game) -> GameScore:
    f = g.facts
    lines = [f"Augen: Re {g.augen['re']}, Kontra {g.augen['kontra']}."]
    if g.offending is not None:
        winner = other_party(g.offending)
        lines.append(
            f"{g.offending.capitalize()} offended ({_seat_list(f.offenders)}: falsch bedient / "
            f"falsche Ansage): it is schwarz and loses its extra points; "
            f"{winner.capitalize()} wins (seed 003 § Falsch bedient)."
        )
    elif f.solo:
        winner = _house_solo_winner(g, lines)
    else:
        winner = _house_normal_winner(g, lines)
    loser = other_party(winner)
    if f.solo:
        return _house_solo_value(g, winner, lines)

    if g.offending is not None:
        stages: tuple[str, ...] = STAGES
    else:
        stages = stages_below(g.augen[loser], g.tricks_won[loser])
    found, red_tricks = _extras(g)
    extras = tuple(e for e in found if e.party != g.offending)
    lines.append(
        f"Stages reached by {winner.capitalize()}: "
        + (", ".join(stages) + f" (+{10 * len(stages)})." if stages else "none.")
    )
    lines.append(_extras_line(extras, 10))
    own, their = _count(extras, winner), _count(extras, loser)
    game = 10 if winner == "re" else 20
    base = game + 10 * len(stages) + 10 * (own - their)
    lines.append(
        f"Base: {game} ({winner.capitalize()} wins) {_term(10 * len(stages))} (stages) "
        f"{_term(10 * (own - their))} (extra points {own}:{their}) = {base}."
    )
    multiplier = (1 << g.doublings) * f.bock_multiplier
    lines.append(_announcement_line(g))
    if f.bock_multiplier > 1:
        lines.append(f"Böcke: ×{f.bock_multiplier}.")
    value = base * multiplier
    points = [0] * f.table_size
    winners = [s for s in f.seats if f.party_of(s) == winner]
    for s in winners:
        points[s] = value
    lines.append(f"Value: {base} × {multiplier} = {value} to {_seat_list(winners)}; losers 0.")
    bock, why = _house_bock(g, winner, red_tricks)
    if bock:
        lines.append("Bock: " + why + ".")
    return GameScore(
        augen=dict(g.augen),
        winner=winner,
        stages=stages,
        extras=extras,
        multiplier=multiplier,
        base=base,
        points=tuple(points),
        bock_trigger=bock,
        lines=tuple(lines),
    )


def _announcement_line(g: _Game) -> str:
    parts = []
    for p in PARTIES:
        levels = sorted(g.announced[p])
        if g.facts.solo and p == "re":
            levels = [lv for lv in levels if lv > 0]
        if levels:
            words = [p if lv == 0 else STAGES[lv - 1] for lv in levels]
            parts.append(f"{p.capitalize()} " + ", ".join(words))
    if not parts:
        return "Announcements: none (×1)."
    return f"Announcements: {'; '.join(parts)}: ×2 each, ×{(1 << g.doublings)}."


def _house_solo_value(g: _Game, winner: Party, lines: list[str]) -> GameScore:
    f = g.facts
    trump = f.game_type == "trump"
    name = "Trumpfsolo" if trump else "solo"
    base = (500 if trump else 250) if winner == "re" else (-1000 if trump else -500)
    lines.append(f"{name.capitalize()} {'won' if winner == 're' else 'lost'}: {base}.")
    multiplier = (2 if f.ouvert else 1) * (1 << g.doublings) * f.bock_multiplier
    if f.ouvert:
        lines.append("Ouvert: ×2.")
    if g.doublings:
        lines.append(_announcement_line(g))
    if f.bock_multiplier > 1:
        lines.append(f"Böcke: ×{f.bock_multiplier}.")
    value = base * multiplier
    points = [0] * f.table_size
    (soloist,) = f.re_party
    points[soloist] = value
    lines.append(f"Value: {base} × {multiplier} = {value} to the soloist (seat {soloist}).")
    bock, why = _house_bock(g, winner, 0)
    if bock:
        lines.append("Bock: " + why + ".")
    return GameScore(
        augen=dict(g.augen),
        winner=winner,
        stages=(),
        extras=(),
        multiplier=multiplier,
        base=base,
        points=tuple(points),
        bock_trigger=bock,
        lines=tuple(lines),
    )


def _house_bock(g: _Game, winner: Party, red_tricks: int) -> tuple[bool, str]:
    """Seed 003 § Böcke: a lost announcement, 120:120; option: Rot geht rum."""
    f = g.facts
    loser = other_party(winner)
    reasons = []
    if g.announced[loser] or (f.solo and loser == "re"):
        reasons.append(
            "a lost announcement" + (" (the solo's Re)" if f.solo and loser == "re" else "")
        )
    elif g.offending is None and _missed(g, winner):
        reasons.append(f"{winner.capitalize()} missed its announced stage")
    if g.offending is None and g.complete and g.augen["re"] == 120:
        reasons.append("120:120")
    if red_tricks and f.rot_geht_rum == "bock" and not f.solo:
        reasons.append("Rot geht rum")
    return bool(reasons), ", ".join(reasons)


# -- DDV (TSR 7) -------------------------------------------------------------------------


def _ddv_wins(g: _Game, party: Party, augen: Mapping[Party, int], won: Mapping[Party, int]) -> bool:
    """TSR 7.1.2 (Re) / 7.1.3 (Kontra): whether ``party`` reached its goal."""
    o = other_party(party)
    own_top = max(g.announced[party], default=0)
    their_top = max(g.announced[o], default=0)
    if own_top == 4:
        return won[o] == 0
    if own_top > 0:
        return augen[party] >= _TARGET[own_top]
    if their_top == 4:
        return won[party] > 0
    if their_top > 0:
        return augen[party] >= _DEFENCE[their_top]
    said_own = 0 in g.announced[party]
    said_their = 0 in g.announced[o]
    if party == "re":
        need = 120 if said_their and not said_own else 121
    else:
        need = 121 if said_own and not said_their else 120
    return augen[party] >= need


def _score_ddv(g: _Game) -> GameScore:
    f = g.facts
    lines = [f"Augen: Re {g.augen['re']}, Kontra {g.augen['kontra']}."]
    # The Augen and tricks the result is judged on (an offending party counts as schwarz).
    augen: dict[Party, int] = dict(g.augen)
    won: dict[Party, int] = dict(g.tricks_won)
    winner: Party | None
    if g.offending is not None:
        winner = other_party(g.offending)
        augen = {winner: 240, g.offending: 0}
        won = {winner: len(f.tricks) or 1, g.offending: 0}
        lines.append(
            f"{g.offending.capitalize()} offended ({_seat_list(f.offenders)}): it is scored as "
            f"schwarz and loses its extra points; {winner.capitalize()} wins "
            "(seed 003 § Falsch bedient, table mode)."
        )
    elif g.null:
        winner = "re" if won["re"] == 0 else "kontra"
        lines.append(
            "Nullsolo: the soloist "
            + ("took no trick and wins." if winner == "re" else "took a trick and loses.")
        )
    else:
        re_wins = _ddv_wins(g, "re", augen, won)
        kontra_wins = _ddv_wins(g, "kontra", augen, won)
        winner = "re" if re_wins else "kontra" if kontra_wins else None
        if winner is None:
            lines.append("Both parties missed their announced targets: nobody wins (TSR 7.1.4).")
        else:
            lines.append(f"{winner.capitalize()} wins (TSR 7.1.{2 if winner == 're' else 3}).")

    items: list[tuple[Party, int, str]] = []  # (party, points, what)
    stages: tuple[str, ...] = ()
    if winner is not None:
        loser = other_party(winner)
        items.append((winner, 1, "won"))
        if not g.null:
            stages = stages_below(augen[loser], won[loser])
        for stage in stages:
            items.append((winner, 1, f"stage {stage}"))
        for p in PARTIES:
            for level in sorted(g.announced[p]):
                word = p if level == 0 else STAGES[level - 1]
                items.append((winner, 2 if level == 0 else 1, f"{p.capitalize()} announced {word}"))
    elif not g.null:
        for p in PARTIES:
            o = other_party(p)
            for stage in stages_below(augen[o], won[o]):
                items.append((p, 1, f"stage {stage}"))
        leader: Party = "re" if augen["re"] > augen["kontra"] else "kontra"
        stages = stages_below(augen[other_party(leader)], won[other_party(leader)])
    if not g.null:
        for p in PARTIES:
            o = other_party(p)
            for level in sorted(g.announced[o]):
                if level and augen[p] >= _AGAINST[level]:
                    items.append((p, 1, f"{_AGAINST[level]} Augen against {STAGES[level - 1]}"))

    found, _ = _extras(g)
    extras = [e for e in found if e.party != g.offending]
    if not f.solo and winner == "kontra":
        extras.append(ExtraPoint("kontra", "gegen_die_alten", None))
    if winner is None:
        winner = "re" if augen["re"] > augen["kontra"] else "kontra"
    for p, pts, what in items:
        lines.append(f"{what[0].upper()}{what[1:]}: {_signed(pts)} for {p.capitalize()}.")
    if not f.solo:
        lines.append(_extras_line(extras, 1))

    re_value = sum(pts if p == "re" else -pts for p, pts, _ in items)
    re_value += _count(extras, "re") - _count(extras, "kontra")
    multiplier = 2 if f.ouvert and g.null else 1
    if multiplier == 2:
        lines.append("Ouvert Nullsolo: ×2 (seed 003 § Solo).")
    base = re_value if winner == "re" else -re_value
    re_value *= multiplier
    points = [0] * f.table_size
    for s in f.seats:
        points[s] = re_value if f.party_of(s) == "re" else -re_value
    if f.solo:
        (soloist,) = f.re_party
        points[soloist] = 3 * re_value
        lines.append(
            f"Solo: the soloist (seat {soloist}) scores 3 × {_signed(re_value)}, "
            f"each opponent {_signed(-re_value)} (TSR 7.2.4)."
        )
    else:
        lines.append(f"Re {_signed(re_value)} each, Kontra {_signed(-re_value)} each.")
    return GameScore(
        augen=dict(g.augen),
        winner=winner,
        stages=stages,
        extras=tuple(extras),
        multiplier=multiplier,
        base=base,
        points=tuple(points),
        bock_trigger=False,
        lines=tuple(lines),
    )


def score_game(facts: GameFacts) -> GameScore:
    """Score a finished game by the house sheet or the DDV rules (``facts.rules``).

    Raises :class:`ScoringError` naming what is wrong when the facts are
    inconsistent (a card played three times, a trick without a seat, an
    announcement the rules do not have …).
    """
    game = _prepare(facts)
    return _score_house(game) if game.house else _score_ddv(game)
