"""The declarations before the first card: what a seat may say, and why not.

Seed 003 § Spielansage (Scharfe, soli, Hochzeit / mangelnder Trumpf, in this
order), § Soli (the ranking), § Hochzeit, § Mangelnder Trumpf, § Einmischen
(five kings); TSR 4 for the DDV order (gesund / Vorbehalt, then Pflichtsolo,
Lustsolo, Hochzeit). The ``*_options`` and ``check_*`` functions read a
:class:`DoppelkopfDeal`; :func:`declare` changes it only after they accepted
an action, and moves on from round to round until the declarations end.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from kartentisch.cards import Card, Rank, Suit
from kartentisch.engine import Event
from kartentisch.errors import IllegalActionError
from kartentisch.games.doppelkopf.actions import HOCHZEIT_RULES, Action, Call
from kartentisch.games.doppelkopf.events import Declared, Redeal
from kartentisch.games.doppelkopf.options import ALL_SOLI

if TYPE_CHECKING:
    from kartentisch.games.doppelkopf.deal import DoppelkopfDeal

__all__ = [
    "ACE_OF_HEARTS",
    "AUGEN",
    "KING_OF_HEARTS",
    "QUEEN_OF_CLUBS",
    "SoloClaim",
    "augen_of",
    "check_declaration",
    "declaration_options",
    "declare",
    "kings_held",
    "scharfe_parts",
    "solo_options",
    "solo_outranks",
    "trumps_in",
]

QUEEN_OF_CLUBS: Final = Card("QC")
ACE_OF_HEARTS: Final = Card("AH")
KING_OF_HEARTS: Final = Card("KH")
#: Card points (Augen): A 11, 10 10, K 4, Q 3, J 2, 9 0.
AUGEN: Final = tuple(
    {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}.get(Card(i).rank, 0)
    for i in range(52)
)
_KINGS: Final = frozenset(Card.of(Rank.KING, s) for s in Suit)
_PASS: Final = Call("pass")
_VORBEHALT: Final = Call("vorbehalt")
_REDEAL: Final = Call("redeal")
_SOLO_RANK: Final = {
    kind: -ALL_SOLI.index("no_trump" if kind == "fleischlos" else kind) for kind in ALL_SOLI
}
_ROUND_NAMES: Final = {
    "scharfe": "Scharfe",
    "solo": "soli",
    "marriage": "Hochzeit or Armut",
    "vorbehalt": "gesund or Vorbehalt",
    "reservation": "naming the reservation",
}


@dataclass(slots=True)
class SoloClaim:
    """The best solo declared so far."""

    seat: int
    kind: str
    ouvert: bool
    pflicht: bool


def augen_of(cards: Sequence[Card]) -> int:
    """The card points in ``cards``."""
    return sum(map(AUGEN.__getitem__, cards))


def solo_rank(kind: str, ouvert: bool) -> int:
    """Seed 003 § Soli: ouvert above all others; then the sheet's order."""
    return _SOLO_RANK[kind] + (100 if ouvert else 0)


def scharfe_parts(hand: Sequence[Card], detail: str) -> list[str]:
    """What a ``scharfe`` call declares: the parts named, or all pairs held."""
    return detail.split() or [
        p for p, c in (("aces", ACE_OF_HEARTS), ("kings", KING_OF_HEARTS)) if hand.count(c) == 2
    ]


def declaration_options(deal: DoppelkopfDeal, seat: int) -> list[Action]:
    name = deal._rounds[deal._round]
    options = deal.options
    hand = deal._hands[seat]
    out: list[Action] = []
    if name == "scharfe":
        aces = hand.count(ACE_OF_HEARTS) == 2
        kings = hand.count(KING_OF_HEARTS) == 2
        if aces:
            out.append(Call("scharfe", "aces"))
        if kings:
            out.append(Call("scharfe", "kings"))
        if aces and kings:
            out.append(Call("scharfe", "aces kings"))
        out.append(_PASS)
    elif name == "solo":
        out.append(_PASS)
        out.extend(solo_options(deal, seat))
    elif name == "marriage":
        out.append(_PASS)
        if hand.count(QUEEN_OF_CLUBS) == 2:
            if options.hochzeit == "choice":
                out.extend(Call("hochzeit", r) for r in HOCHZEIT_RULES)
            else:
                out.append(Call("hochzeit"))
        elif may_declare_armut(deal, seat):
            out.append(Call("armut"))
    elif name == "vorbehalt":
        out.extend((_PASS, _VORBEHALT))
    elif name == "reservation":
        if deal._solo is not None or deal.hochzeit_by is not None:
            out.append(_PASS)
        out.extend(solo_options(deal, seat))
        if deal._solo is None and hand.count(QUEEN_OF_CLUBS) == 2:
            out.append(Call("hochzeit"))
    if options.kings_redeal and kings_held(deal, seat) >= options.kings_redeal:
        out.append(_REDEAL)
    return out


def kings_held(deal: DoppelkopfDeal, seat: int) -> int:
    """The kings in the hand dealt to ``seat`` (counted once per deal, for every seat)."""
    kings = deal._kings
    if kings is None:
        kings = deal._kings = tuple(sum(map(_KINGS.__contains__, h)) for h in deal._initial)
    return kings[seat]


@functools.cache
def _solo_calls(soli: tuple[str, ...], ouvert: bool, floor: float) -> tuple[Call, ...]:
    """The soli these rules allow that rank above ``floor``, in the order offered."""
    return tuple(
        Call("solo", kind, o)
        for kind in soli
        for o in ((False, True) if ouvert else (False,))
        if solo_rank(kind, o) > floor
    )


def solo_options(deal: DoppelkopfDeal, seat: int) -> list[Call]:
    options = deal.options
    return list(_solo_calls(options.soli, options.ouvert, _solo_floor(deal, seat)))


def _may_claim_solo(deal: DoppelkopfDeal, seat: int) -> bool:
    """Whether ``seat`` has any solo left to declare (:func:`solo_options` is not empty)."""
    options = deal.options
    return bool(_solo_calls(options.soli, options.ouvert, _solo_floor(deal, seat)))


def _solo_floor(deal: DoppelkopfDeal, seat: int) -> float:
    """The rank a solo by ``seat`` must exceed to beat the best so far.

    Ties go to the earlier seat; under DDV priority only a Pflichtsolo due
    beats a Lustsolo, whatever the kinds.
    """
    best = deal._solo
    if best is None:
        return -math.inf
    if deal.options.solo_priority == "ddv":
        return -math.inf if seat in deal.pflicht_due and not best.pflicht else math.inf
    return solo_rank(best.kind, best.ouvert)


def solo_outranks(deal: DoppelkopfDeal, seat: int, kind: str, ouvert: bool) -> bool:
    """Whether a claim by ``seat`` beats the best so far (ties go to the earlier seat)."""
    return solo_rank(kind, ouvert) > _solo_floor(deal, seat)


def trumps_in(deal: DoppelkopfDeal, cards: Sequence[Card]) -> int:
    suit_of = deal._order.suit_of
    return sum(1 for c in cards if suit_of[c] == 4)


def may_declare_armut(deal: DoppelkopfDeal, seat: int) -> bool:
    return (
        deal.options.armut
        and deal.armut_by is None
        and deal._hands[seat].count(QUEEN_OF_CLUBS) < 2
        and trumps_in(deal, deal._hands[seat]) <= deal.options.armut_max_trumps
    )


def check_declaration(deal: DoppelkopfDeal, call: Call, seat: int) -> None:
    name = deal._rounds[deal._round]
    if call.word == "redeal":
        need = deal.options.kings_redeal
        if not need:
            raise IllegalActionError(
                "no_kings_redeal",
                "these rules have no redeal for kings",
                seat=seat,
                action=call,
            )
        if kings_held(deal, seat) < need:
            raise IllegalActionError(
                "kings_redeal",
                f"a redeal needs {need} kings in the dealt hand; seat {seat} holds "
                f"{kings_held(deal, seat)}",
                seat=seat,
                action=call,
            )
        return
    if call.word == "scharfe" and name == "scharfe":
        hand = deal._hands[seat]
        parts = scharfe_parts(hand, call.detail)
        if not parts:
            raise IllegalActionError(
                "scharfe_needs_pair",
                "Scharfe needs both Herz-Asse or both Herz-Könige in the dealt hand",
                seat=seat,
                action=call,
            )
        for part in parts:
            card = ACE_OF_HEARTS if part == "aces" else KING_OF_HEARTS
            if hand.count(card) != 2:
                raise IllegalActionError(
                    "scharfe_needs_pair",
                    f"scharfe {part} needs both {card.symbol} in the dealt hand",
                    seat=seat,
                    action=call,
                )
        return
    if call.word == "solo" and name in ("solo", "reservation"):
        if call.detail not in deal.options.soli:
            raise IllegalActionError(
                "solo_not_played",
                f"these rules have no {call.detail} solo: {', '.join(deal.options.soli)}",
                seat=seat,
                action=call,
            )
        if call.ouvert and not deal.options.ouvert:
            raise IllegalActionError(
                "no_ouvert", "these rules have no ouvert soli", seat=seat, action=call
            )
        if not solo_outranks(deal, seat, call.detail, call.ouvert):
            best = deal._solo
            assert best is not None
            raise IllegalActionError(
                "solo_outranked",
                f"seat {best.seat}'s {best.kind} solo{' ouvert' if best.ouvert else ''} "
                "already ranks higher",
                seat=seat,
                action=call,
            )
        return
    if call.word == "hochzeit" and name in ("marriage", "reservation"):
        if deal._hands[seat].count(QUEEN_OF_CLUBS) != 2:
            raise IllegalActionError(
                "hochzeit_needs_both",
                "a Hochzeit needs both Kreuz-Damen (Alten) in one hand",
                seat=seat,
                action=call,
            )
        if name == "reservation" and deal._solo is not None:
            raise IllegalActionError(
                "solo_outranked",
                "a solo has been declared; a Hochzeit ranks below it",
                seat=seat,
                action=call,
            )
        if call.detail and call.detail != "first_trick" and deal.options.hochzeit != "choice":
            raise IllegalActionError(
                "hochzeit_first_trick",
                "under these rules the first trick won by another player finds the partner",
                seat=seat,
                action=call,
            )
        return
    if call.word == "armut" and name == "marriage":
        if not deal.options.armut:
            raise IllegalActionError(
                "no_armut", "these rules have no Armut", seat=seat, action=call
            )
        if deal.armut_by is not None:
            raise IllegalActionError(
                "armut_taken",
                f"seat {deal.armut_by} has already declared an Armut",
                seat=seat,
                action=call,
            )
        if deal._hands[seat].count(QUEEN_OF_CLUBS) == 2:
            raise IllegalActionError(
                "armut_with_hochzeit",
                "with both Alten in hand it is a Hochzeit, not an Armut",
                seat=seat,
                action=call,
            )
        trumps = trumps_in(deal, deal._hands[seat])
        limit = deal.options.armut_max_trumps
        if trumps > limit:
            raise IllegalActionError(
                "armut_too_many_trumps",
                f"an Armut is at most {limit} trumps; seat {seat} holds {trumps}",
                seat=seat,
                action=call,
            )
        return
    if call.word == "pass":
        if name == "reservation" and deal._solo is None and deal.hochzeit_by is None:
            raise IllegalActionError(
                "name_reservation",
                "you said Vorbehalt: name it (a solo or a Hochzeit)",
                seat=seat,
                action=call,
            )
        return
    if call.word == "vorbehalt" and name == "vorbehalt":
        return
    raise IllegalActionError(
        "not_now",
        f"{call} is not a declaration of this round ({_ROUND_NAMES[name]})",
        seat=seat,
        action=call,
    )


# -- the declaration phase ---------------------------------------------------------


def declare(deal: DoppelkopfDeal, call: Call, seat: int) -> list[Event]:
    """Carry out a declaration (already checked); move on to the next round or phase."""
    name = deal._rounds[deal._round]
    word = call.word
    if word == "redeal":
        return _void(deal, "kings", seat, call)
    shown = call
    if word == "pass":
        pass
    elif word == "scharfe":
        hand = deal._hands[seat]
        parts = scharfe_parts(hand, call.detail)
        if "aces" in parts:
            deal.scharfe_aces_by = seat
        if "kings" in parts:
            deal.scharfe_kings_by = seat
        shown = Call("scharfe", " ".join(sorted(parts)))
        deal._reorder()
    elif word == "solo":
        deal._solo = SoloClaim(seat, call.detail, call.ouvert, seat in deal.pflicht_due)
    elif word == "hochzeit":
        deal.hochzeit_by = seat
        deal.hochzeit_rule = call.detail or "first_trick"
    elif word == "armut":
        deal.armut_by = seat
    elif word == "vorbehalt":
        deal._vorbehalt.append(seat)
    deal.declarations.append((seat, shown))
    new: list[Event] = [Declared(seat, str(shown))]
    deal._queue.pop(0)
    if name == "reservation":
        deal._queue = [s for s in deal._queue if _may_outrank(deal, s)]
    elif name == "solo" and deal._queue and not _may_claim_solo(deal, deal._queue[0]):
        # Nothing can outrank the solo declared (public knowledge): the round ends.
        deal._queue = []
    while not deal._queue:
        deal._round += 1
        new.extend(_next_round(deal))
        if deal.phase != "declare":
            break
    return new


def _may_outrank(deal: DoppelkopfDeal, seat: int) -> bool:
    """DDV reservations: whether ``seat`` still needs to be asked."""
    if deal._solo is None:
        return True
    return (
        deal.options.solo_priority == "ddv" and seat in deal.pflicht_due and not deal._solo.pflicht
    )


def _next_round(deal: DoppelkopfDeal) -> list[Event]:
    """Start the next declaration round, or leave the declarations."""
    if deal._round < len(deal._rounds):
        name = deal._rounds[deal._round]
        if name == "marriage" and deal._solo is not None:
            deal._round = len(deal._rounds)
            return deal._end_declarations()
        if name == "reservation":
            deal._queue = [s for s in deal.ask_order if s in deal._vorbehalt]
        else:
            deal._queue = list(deal.ask_order)
        return []
    return deal._end_declarations()


def _void(deal: DoppelkopfDeal, reason: str, seat: int, call: Call) -> list[Event]:
    """A redeal asked for at the table (five kings): the deal is void."""
    deal.declarations.append((seat, call))
    deal.redeal_reason = reason
    deal._end("redeal")
    return [Declared(seat, str(call)), Redeal(reason, seat)]
