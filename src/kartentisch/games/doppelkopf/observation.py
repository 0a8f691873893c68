"""What one seat of a Doppelkopf deal may know (never another hand's hidden cards).

A seat sees its own hand, everything said and played in the open, the open
hand of an ouvert soloist, and — only if it took part in an Armut — the
cards passed. Until the deal ends it does not see a silent solo for what it
is, nor which seat revoked in table mode.

An observation is made of two parts: :func:`public_part`, what every seat and
a spectator see alike, made once per state of the deal; and
:func:`seat_part`, what only ``seat`` knows (its hand and legal actions, the
game as it knows it: a silent solo, the pigs it holds, the Armut cards if it
took part, its party). :func:`observe` puts the two together; every rule
about what a seat may know is in this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from kartentisch.cards import Card
from kartentisch.games.doppelkopf.actions import Action
from kartentisch.games.doppelkopf.options import DoppelkopfOptions
from kartentisch.games.doppelkopf.state import DealState
from kartentisch.games.doppelkopf.trumps import sort_hand
from kartentisch.tricks import PlayedTrick, TrickOrder

if TYPE_CHECKING:
    from kartentisch.games.doppelkopf.scoring import Announcement, GameScore

__all__ = [
    "NOBODY",
    "DoppelkopfObservation",
    "PublicObservation",
    "SeatObservation",
    "observe",
    "public_part",
    "revealed_parties",
    "seat_part",
]

#: The viewer of the public part: no seat (it holds no card, no pig, no secret).
NOBODY: Final = -1


@dataclass(frozen=True, slots=True)
class DoppelkopfObservation:
    """One seat's view of the deal.

    ``game_type`` is the game as the table knows it (a silent solo shows as
    ``normal`` to everyone but the soloist); ``party`` is the seat's own party
    as it knows it (None while an open Hochzeit leaves it undecided);
    ``revealed`` maps seats to the party they have shown (by a declaration, an
    announcement, a Kreuz-Dame played, or the end of the deal). ``pigs`` are the
    pigs (option ``schweinchen``) the seat knows of, highest first, as
    ``(seat, kind)``: its own and those the table was told of; the hands and the
    trumps are ordered as the seat knows the trumps.
    """

    seat: int
    players: int
    dealer: int
    playing: tuple[int, ...]
    phase: str
    declaration_round: str | None
    hand: tuple[Card, ...]
    to_move: int | None
    legal_actions: tuple[Action, ...]
    declarations: tuple[tuple[int, str], ...]
    game_type: str
    soloist: int | None
    ouvert: bool
    open_hand: tuple[Card, ...]
    hochzeit: int | None
    hochzeit_rule: str
    hochzeit_partner: int | None
    armut: int | None
    armut_partner: int | None
    armut_direction: str
    armut_trumps: int
    armut_returned_trumps: int
    armut_cards: tuple[Card, ...]
    armut_returned: tuple[Card, ...]
    scharfe_aces: int | None
    scharfe_kings: int | None
    #: The seat vorgeführt in this deal (option ``vorfuehrung``), public; None: nobody.
    vorfuehrung: int | None
    trumps: tuple[Card, ...]
    pigs: tuple[tuple[int, str], ...]
    trick: PlayedTrick
    tricks: tuple[PlayedTrick, ...]
    hand_sizes: tuple[int, ...]
    announcements: tuple[Announcement, ...]
    party: str | None
    revealed: dict[int, str]
    bock_multiplier: int
    options: DoppelkopfOptions
    outcome: str | None = None
    score: GameScore | None = None
    points: tuple[int, ...] = field(default=())
    #: The trick (1-based) that found the Hochzeit's partner, public; None: not (yet).
    hochzeit_trick: int | None = None

    @property
    def trick_number(self) -> int:
        """1-based number of the trick being played."""
        return len(self.tricks) + 1

    def to_dict(self) -> dict[str, Any]:
        from kartentisch.engine import jsonable

        out: dict[str, Any] = {}
        for name in self.__slots__:
            value = getattr(self, name)
            if name == "legal_actions":
                out[name] = [str(a) for a in value]
            elif name == "options":
                out[name] = value.to_dict()
            elif name == "declarations":
                out[name] = [{"seat": s, "call": c} for s, c in value]
            elif name == "announcements":
                out[name] = [{"seat": a.seat, "party": a.party, "word": a.word} for a in value]
            elif name == "pigs":
                out[name] = [{"seat": s, "kind": k} for s, k in value]
            elif name == "revealed":
                out[name] = {str(k): v for k, v in value.items()}
            else:
                out[name] = jsonable(value)
        return out


@dataclass(frozen=True, slots=True)
class PublicObservation:
    """What every seat and a spectator see of the deal alike (:func:`public_part`).

    The game is as the table knows it: a silent solo shows as ``normal`` with no
    soloist, ``pigs`` are those the table was told of, and ``order`` (the trick
    order), ``trumps`` and ``open_hand`` are as a viewer knows them who holds no
    pig of its own. The other fields are those of :class:`DoppelkopfObservation`.
    """

    players: int
    dealer: int
    playing: tuple[int, ...]
    phase: str
    declaration_round: str | None
    to_move: int | None
    declarations: tuple[tuple[int, str], ...]
    game_type: str
    soloist: int | None
    ouvert: bool
    open_hand: tuple[Card, ...]
    hochzeit: int | None
    hochzeit_rule: str
    hochzeit_partner: int | None
    armut: int | None
    armut_partner: int | None
    armut_direction: str
    armut_trumps: int
    armut_returned_trumps: int
    scharfe_aces: int | None
    scharfe_kings: int | None
    vorfuehrung: int | None
    order: TrickOrder
    trumps: tuple[Card, ...]
    pigs: tuple[tuple[int, str], ...]
    trick: PlayedTrick
    tricks: tuple[PlayedTrick, ...]
    hand_sizes: tuple[int, ...]
    announcements: tuple[Announcement, ...]
    revealed: dict[int, str]
    bock_multiplier: int
    options: DoppelkopfOptions
    outcome: str | None
    score: GameScore | None
    points: tuple[int, ...]
    hochzeit_trick: int | None


@dataclass(frozen=True, slots=True)
class SeatObservation:
    """What only ``seat`` knows of the deal, or knows otherwise than the table (:func:`seat_part`).

    Where the seat knows no more than the table (no silent solo of its own, no pig
    the table was not told of), ``game_type``, ``soloist``, ``trumps``, ``open_hand``
    and ``pigs`` are the very objects of the public part.
    """

    seat: int
    hand: tuple[Card, ...]
    legal_actions: tuple[Action, ...]
    game_type: str
    soloist: int | None
    open_hand: tuple[Card, ...]
    trumps: tuple[Card, ...]
    pigs: tuple[tuple[int, str], ...]
    armut_cards: tuple[Card, ...]
    armut_returned: tuple[Card, ...]
    party: str | None


def _started(deal: DealState) -> bool:
    return deal.phase in ("play", "done")


def _game_as_known(deal: DealState, *, knows_silent: bool) -> tuple[str, int | None]:
    """The game type and the soloist as a viewer knows them (``knows_silent``: the
    viewer is the silent soloist, or the deal is over)."""
    silent_hidden = deal.silent and not knows_silent
    game_type = "normal" if silent_hidden else deal.game_type
    if deal.phase == "declare" or deal.phase.startswith("armut"):
        game_type = "undecided"
    started = _started(deal)
    soloist = deal.soloist if (deal.solo and not silent_hidden and started) else None
    return game_type, soloist


def _trumps(deal: DealState, order: TrickOrder) -> tuple[Card, ...]:
    """The trumps of ``order``, in the deck's order."""
    suit_of = order.suit_of
    return tuple(c for c in dict.fromkeys(deal.options.deck()) if suit_of[c] == 4)


def _open_hand(deal: DealState, viewer: int) -> tuple[Card, ...]:
    """The ouvert soloist's hand, in the order ``viewer`` knows the trumps."""
    if deal.ouvert and _started(deal) and deal.soloist is not None:
        return deal.hand(deal.soloist, viewer)
    return ()


def _shared(deal: DealState) -> dict[str, Any]:
    """The fields every viewer sees alike, by name (of both the public part and an
    observation)."""
    play = deal.trick_play
    held = play.hands if play is not None else deal.hands  # (counted, not sorted)
    return {
        "players": deal.num_seats,
        "dealer": deal.dealer,
        "playing": deal.playing,
        "phase": deal.phase,
        "declaration_round": deal.declaration_round,
        "to_move": deal.to_move,
        "declarations": tuple((s, str(c)) for s, c in deal.declarations),
        "ouvert": deal.ouvert and _started(deal),
        "hochzeit": deal.hochzeit_by,
        "hochzeit_rule": deal.hochzeit_rule if deal.hochzeit_by is not None else "",
        "hochzeit_partner": deal.hochzeit_partner,
        "armut": deal.armut_by,
        "armut_partner": deal.armut_partner,
        "armut_direction": deal.armut_direction,
        "armut_trumps": deal.armut_trumps,
        "armut_returned_trumps": deal.armut_returned_trumps,
        "scharfe_aces": deal.scharfe_aces_by,
        "scharfe_kings": deal.scharfe_kings_by,
        "vorfuehrung": deal.vorfuehrung,
        "trick": (
            play.trick.freeze() if play is not None else PlayedTrick(deal.leader, (), (), None)
        ),
        "tricks": deal.tricks,
        "hand_sizes": tuple(len(held[s]) for s in range(deal.num_seats)),
        "announcements": tuple(deal.announcements),
        "revealed": revealed_parties(deal),
        "bock_multiplier": deal.bock_multiplier,
        "options": deal.options,
        "outcome": deal.outcome,
        "score": deal.score,
        "points": deal.points(),
        "hochzeit_trick": deal.hochzeit_trick if deal.hochzeit_partner is not None else None,
    }


def public_part(deal: DealState) -> PublicObservation:
    """What every seat and a spectator see of ``deal`` alike: made once per state."""
    order = deal.order_known_to(NOBODY)
    game_type, soloist = _game_as_known(deal, knows_silent=deal.outcome is not None)
    return PublicObservation(
        game_type=game_type,
        soloist=soloist,
        open_hand=_open_hand(deal, NOBODY),
        order=order,
        trumps=_trumps(deal, order),
        pigs=deal.pigs_known_to(NOBODY),
        **_shared(deal),
    )


def seat_part(
    deal: DealState, seat: int, public: PublicObservation | None = None
) -> SeatObservation:
    """What only ``seat`` knows of ``deal`` (``public``: its :func:`public_part`, made
    already; raises ValueError for a seat not at the table)."""
    if not 0 <= seat < deal.num_seats:
        raise ValueError(f"no seat {seat} at a {deal.num_seats}-player table")
    if public is None:
        public = public_part(deal)
    over = deal.outcome is not None
    silent_soloist = deal.silent and not over and seat == deal.soloist
    if silent_soloist:
        game_type, soloist = _game_as_known(deal, knows_silent=True)
    else:
        game_type, soloist = public.game_type, public.soloist
    pigs = deal.pigs_known_to(seat)
    if pigs == public.pigs:
        # It knows of no pig the table does not: it knows the trumps as the table does.
        order, pigs = public.order, public.pigs
        trumps, open_hand = public.trumps, public.open_hand
    else:
        order = deal.order_known_to(seat)
        trumps, open_hand = _trumps(deal, order), _open_hand(deal, seat)
    armut_cards, armut_returned = _armut_seen(deal, seat, order)
    return SeatObservation(
        seat=seat,
        hand=deal.hand(seat, seat),
        legal_actions=tuple(deal.legal_actions(seat)),
        game_type=game_type,
        soloist=soloist,
        open_hand=open_hand,
        trumps=trumps,
        pigs=pigs,
        armut_cards=armut_cards,
        armut_returned=armut_returned,
        party=_party(deal, seat),
    )


def _party(deal: DealState, seat: int) -> str | None:
    """``seat``'s party as it knows it: none before the play; in a silent solo that is
    not its own, Kontra (as everyone else believes the game normal)."""
    party = deal.party_of(seat) if _started(deal) else None
    if party is None and deal.silent and deal.outcome is None and seat != deal.soloist:
        party = "kontra"
    return party


def _armut_seen(
    deal: DealState, seat: int, order: TrickOrder
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The Armut's cards given and returned, for the two seats that exchanged them."""
    if seat in (deal.armut_by, deal.armut_partner):
        return sort_hand(deal.armut_given, order), sort_hand(deal.armut_returned, order)
    return (), ()


def observe(
    deal: DealState, seat: int, public: PublicObservation | None = None
) -> DoppelkopfObservation:
    """The observation of ``seat``: the public part (``public``, if made already) and
    the seat's own (raises ValueError for a seat not at the table).

    Without ``public`` (a bot's turn, a playout: one seat's view of a state) the
    two parts are made in one pass, by the same rules, without the public part's
    objects; a test holds both ways equal on every state of random deals.
    """
    if public is None:
        return _observe_one(deal, seat)
    own = seat_part(deal, seat, public)
    return DoppelkopfObservation(
        seat=seat,
        players=public.players,
        dealer=public.dealer,
        playing=public.playing,
        phase=public.phase,
        declaration_round=public.declaration_round,
        hand=own.hand,
        to_move=public.to_move,
        legal_actions=own.legal_actions,
        declarations=public.declarations,
        game_type=own.game_type,
        soloist=own.soloist,
        ouvert=public.ouvert,
        open_hand=own.open_hand,
        hochzeit=public.hochzeit,
        hochzeit_rule=public.hochzeit_rule,
        hochzeit_partner=public.hochzeit_partner,
        armut=public.armut,
        armut_partner=public.armut_partner,
        armut_direction=public.armut_direction,
        armut_trumps=public.armut_trumps,
        armut_returned_trumps=public.armut_returned_trumps,
        armut_cards=own.armut_cards,
        armut_returned=own.armut_returned,
        scharfe_aces=public.scharfe_aces,
        scharfe_kings=public.scharfe_kings,
        vorfuehrung=public.vorfuehrung,
        trumps=own.trumps,
        pigs=own.pigs,
        trick=public.trick,
        tricks=public.tricks,
        hand_sizes=public.hand_sizes,
        announcements=public.announcements,
        party=own.party,
        revealed=dict(public.revealed),
        bock_multiplier=public.bock_multiplier,
        options=public.options,
        outcome=public.outcome,
        score=public.score,
        points=public.points,
        hochzeit_trick=public.hochzeit_trick,
    )


def _observe_one(deal: DealState, seat: int) -> DoppelkopfObservation:
    """:func:`observe` without a public part made already: one pass."""
    if not 0 <= seat < deal.num_seats:
        raise ValueError(f"no seat {seat} at a {deal.num_seats}-player table")
    order = deal.order_known_to(seat)
    knows_silent = deal.outcome is not None or seat == deal.soloist
    game_type, soloist = _game_as_known(deal, knows_silent=knows_silent)
    armut_cards, armut_returned = _armut_seen(deal, seat, order)
    return DoppelkopfObservation(
        seat=seat,
        hand=deal.hand(seat, seat),
        legal_actions=tuple(deal.legal_actions(seat)),
        game_type=game_type,
        soloist=soloist,
        open_hand=_open_hand(deal, seat),
        armut_cards=armut_cards,
        armut_returned=armut_returned,
        trumps=_trumps(deal, order),
        pigs=deal.pigs_known_to(seat),
        party=_party(deal, seat),
        **_shared(deal),
    )


def revealed_parties(deal: DealState) -> dict[int, str]:
    """The parties the table has seen (claimed ones: a wrong announcement misleads)."""
    out: dict[int, str] = {}
    if deal.outcome == "played":
        return {s: deal.party_of(s) or "kontra" for s in deal.playing}
    if deal.phase not in ("play", "done"):
        return out
    known_all = (
        (deal.solo and not deal.silent)
        or deal.game_type == "armut"
        or (deal.game_type == "hochzeit" and deal.re_party is not None)
    )
    if known_all:
        return {s: deal.party_of(s) or "kontra" for s in deal.playing}
    if deal.game_type == "hochzeit" and deal.hochzeit_by is not None:
        out[deal.hochzeit_by] = "re"
    for a in deal.announcements:
        if a.word in ("re", "kontra"):
            out[a.seat] = a.word
        else:
            out.setdefault(a.seat, a.party)
    play = deal.trick_play
    if play is not None:
        for trick in (*play.tricks, play.trick):
            for s, c in zip(trick.seats, trick.cards, strict=True):
                if c == Card("QC"):
                    out[s] = "re"
    return out
