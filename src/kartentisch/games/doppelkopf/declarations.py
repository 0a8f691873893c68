"""The declarations before the first card: what a seat may say, and why not.

Seed 003 § Spielansage (Scharfe, soli, Hochzeit / mangelnder Trumpf, in this
order), § Soli (the ranking), § Hochzeit, § Mangelnder Trumpf, § Einmischen
(five kings); TSR 4 for the DDV order (gesund / Vorbehalt, then Pflichtsolo,
Lustsolo, Hochzeit). The ``*_options`` and ``check_*`` functions read a
:class:`DealState`; :func:`declare` changes it only after they accepted
an action, and moves on from round to round until the declarations end.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Final

from kartentisch.cards import Card, Rank, Suit
from kartentisch.engine import Event
from kartentisch.errors import IllegalActionError
from kartentisch.games.doppelkopf.actions import HOCHZEIT_RULES, Action, Call
from kartentisch.games.doppelkopf.armut import armut_trumps, offer_armut
from kartentisch.games.doppelkopf.events import Declared, Redeal
from kartentisch.games.doppelkopf.options import ALL_SOLI
from kartentisch.games.doppelkopf.play import start_play
from kartentisch.games.doppelkopf.state import DealState, SoloClaim
from kartentisch.games.doppelkopf.trumps import QUEEN_OF_CLUBS, augen_of
from kartentisch.tricks import TRUMP

__all__ = [
    "ACE_OF_HEARTS",
    "KING_OF_HEARTS",
    "check_declaration",
    "declaration_options",
    "declare",
    "end_declarations",
    "kings_held",
    "must_declare_solo",
    "must_name_hochzeit",
    "redeal_reason",
    "scharfe_parts",
    "solo_options",
    "solo_outranks",
]

ACE_OF_HEARTS: Final = Card("AH")
KING_OF_HEARTS: Final = Card("KH")
_KINGS: Final = frozenset(Card.of(Rank.KING, s) for s in Suit)
_FOX: Final = Card("AD")
_PASS: Final = Call("pass")
_VORBEHALT: Final = Call("vorbehalt")
_REDEAL: Final = Call("redeal")
#: The sheet's order of the soli, highest first (seed 003 § Soli); the kinds the sheet
#: does not have stand by their trumps (**Decision**, docs/rules/doppelkopf.md): the
#: combined picture soli below the Trumpfsolo, the kings solo below the jacks solo,
#: the Fleischlose with the solo without trumps.
SOLO_RANKING: Final = (
    "trump",
    "koehler",
    "queens_jacks",
    "kings_queens",
    "kings_jacks",
    "queens",
    "jacks",
    "kings",
    "clubs",
    "spades",
    "hearts",
    "diamonds",
    "no_trump",
    "null",
)
_SOLO_RANK: Final = {
    kind: -SOLO_RANKING.index("no_trump" if kind == "fleischlos" else kind) for kind in ALL_SOLI
}
_ROUND_NAMES: Final = {
    "scharfe": "Scharfe",
    "solo": "soli",
    "marriage": "Hochzeit or Armut",
    "vorbehalt": "gesund or Vorbehalt",
    "reservation": "naming the reservation",
}


def solo_rank(kind: str, ouvert: bool) -> int:
    """Seed 003 § Soli: ouvert above all others; then the sheet's order."""
    return _SOLO_RANK[kind] + (100 if ouvert else 0)


def scharfe_parts(hand: Sequence[Card], detail: str) -> list[str]:
    """What a ``scharfe`` call declares: the parts named, or all pairs held."""
    return detail.split() or [
        p for p, c in (("aces", ACE_OF_HEARTS), ("kings", KING_OF_HEARTS)) if hand.count(c) == 2
    ]


def declaration_options(deal: DealState, seat: int) -> list[Action]:
    name = deal.rounds[deal.round_index]
    options = deal.options
    hand = deal.hands[seat]
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
        if not must_declare_solo(deal, seat):
            out.append(_PASS)
        out.extend(solo_options(deal, seat))
    elif name == "marriage":
        if not must_name_hochzeit(deal, seat):
            out.append(_PASS)
        if hand.count(QUEEN_OF_CLUBS) == 2:
            if options.hochzeit == "choice":
                out.extend(Call("hochzeit", r) for r in HOCHZEIT_RULES)
            else:
                out.append(Call("hochzeit"))
        elif may_declare_armut(deal, seat):
            out.append(Call("armut"))
    elif name == "vorbehalt":
        if not must_name_hochzeit(deal, seat) and not must_declare_solo(deal, seat):
            out.append(_PASS)
        # A Vorbehalt needs a reservation to name: a solo these rules allow, or a Hochzeit.
        if _may_claim_solo(deal, seat) or hand.count(QUEEN_OF_CLUBS) == 2:
            out.append(_VORBEHALT)
    elif name == "reservation":
        forced = must_declare_solo(deal, seat)
        if (deal.solo_claim is not None or deal.hochzeit_by is not None) and not forced:
            out.append(_PASS)
        out.extend(solo_options(deal, seat))
        if deal.solo_claim is None and hand.count(QUEEN_OF_CLUBS) == 2 and not forced:
            out.append(Call("hochzeit"))
    if options.schmeissen and redeal_reason(deal, seat) is not None:
        out.append(_REDEAL)
    return out


def must_declare_solo(deal: DealState, seat: int) -> bool:
    """Whether ``seat`` is vorgeführt (option ``vorfuehrung``) and may still declare a
    solo that stands: then it may not pass the solo's round, nor name a Hochzeit."""
    return deal.vorfuehrung == seat and _may_claim_solo(deal, seat)


def must_name_hochzeit(deal: DealState, seat: int) -> bool:
    """Whether ``seat`` holds both Alten under rules without a stille Hochzeit: then it
    may not pass the Hochzeit's round (``marriage``, or the DDV ``vorbehalt``)."""
    return not deal.options.stille_hochzeit and deal.hands[seat].count(QUEEN_OF_CLUBS) == 2


def redeal_reason(deal: DealState, seat: int) -> str | None:
    """Why the hand dealt to ``seat`` may be thrown in (Schmeißen), or None.

    The first of the rules' reasons it meets: ``kings`` (at least ``kings_redeal``),
    ``nines``, ``nines_kings`` (together), ``few_trumps`` (fewer than
    ``few_trumps_redeal``, in the normal order), ``low_augen`` (fewer Augen than
    ``low_augen_redeal``), ``fox_highest`` (the ♦A is its highest trump).
    """
    options = deal.options
    hand = deal.initial_hands[seat]
    # (Asked every declaration round: each count only where its option asks for it.)
    kings = kings_held(deal, seat) if options.kings_redeal or options.nines_kings_redeal else 0
    if options.kings_redeal and kings >= options.kings_redeal:
        return "kings"
    if options.nines_redeal or options.nines_kings_redeal:
        nines = sum(1 for c in hand if c.rank == Rank.NINE)
        if options.nines_redeal and nines >= options.nines_redeal:
            return "nines"
        if options.nines_kings_redeal and nines + kings >= options.nines_kings_redeal:
            return "nines_kings"
    if not (options.few_trumps_redeal or options.low_augen_redeal or options.fox_redeal):
        return None
    order = deal.order
    trumps = [c for c in hand if order.suit_of[c] == TRUMP]
    if options.few_trumps_redeal and len(trumps) < options.few_trumps_redeal:
        return "few_trumps"
    if options.low_augen_redeal and augen_of(hand) < options.low_augen_redeal:
        return "low_augen"
    power = order.power
    if options.fox_redeal and _FOX in trumps and max(map(power.__getitem__, trumps)) == power[_FOX]:
        return "fox_highest"
    return None


def kings_held(deal: DealState, seat: int) -> int:
    """The kings in the hand dealt to ``seat`` (counted once per deal, for every seat)."""
    kings = deal.kings
    if kings is None:
        kings = deal.kings = tuple(sum(map(_KINGS.__contains__, h)) for h in deal.initial_hands)
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


def solo_options(deal: DealState, seat: int) -> list[Call]:
    options = deal.options
    return list(_solo_calls(options.soli, options.ouvert, _solo_floor(deal, seat)))


def _may_claim_solo(deal: DealState, seat: int) -> bool:
    """Whether ``seat`` has any solo left to declare (:func:`solo_options` is not empty)."""
    options = deal.options
    return bool(_solo_calls(options.soli, options.ouvert, _solo_floor(deal, seat)))


def _solo_floor(deal: DealState, seat: int) -> float:
    """The rank a solo by ``seat`` must exceed to beat the best so far.

    Ties go to the earlier seat; under DDV priority only a Pflichtsolo due
    beats a Lustsolo, whatever the kinds.
    """
    best = deal.solo_claim
    if best is None:
        return -math.inf
    if deal.options.solo_priority == "ddv":
        return -math.inf if seat in deal.pflicht_due and not best.pflicht else math.inf
    return solo_rank(best.kind, best.ouvert)


def solo_outranks(deal: DealState, seat: int, kind: str, ouvert: bool) -> bool:
    """Whether a claim by ``seat`` beats the best so far (ties go to the earlier seat)."""
    return solo_rank(kind, ouvert) > _solo_floor(deal, seat)


def may_declare_armut(deal: DealState, seat: int) -> bool:
    return (
        deal.options.armut
        and deal.armut_by is None
        and deal.hands[seat].count(QUEEN_OF_CLUBS) < 2
        and armut_trumps(deal, deal.hands[seat]) <= deal.options.armut_max_trumps
    )


def check_declaration(deal: DealState, call: Call, seat: int) -> None:
    name = deal.rounds[deal.round_index]
    if (
        call.word in ("pass", "hochzeit")
        and name in ("solo", "vorbehalt", "reservation")
        and must_declare_solo(deal, seat)
    ):
        raise IllegalActionError(
            "vorfuehrung",
            f"seat {seat} owes its Pflichtsolo and the session is ending (Vorführung): "
            "it must declare a solo",
            seat=seat,
            action=call,
        )
    if call.word == "redeal":
        if not deal.options.schmeissen:
            raise IllegalActionError(
                "no_kings_redeal",
                "these rules have no throwing in (Schmeißen)",
                seat=seat,
                action=call,
            )
        if redeal_reason(deal, seat) is None:
            raise IllegalActionError(
                "kings_redeal",
                f"seat {seat}'s dealt hand meets none of these rules' reasons to throw in "
                f"(it holds {kings_held(deal, seat)} kings)",
                seat=seat,
                action=call,
            )
        return
    if call.word == "scharfe" and name == "scharfe":
        hand = deal.hands[seat]
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
            best = deal.solo_claim
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
        if deal.hands[seat].count(QUEEN_OF_CLUBS) != 2:
            raise IllegalActionError(
                "hochzeit_needs_both",
                "a Hochzeit needs both Kreuz-Damen (Alten) in one hand",
                seat=seat,
                action=call,
            )
        if name == "reservation" and deal.solo_claim is not None:
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
        if deal.hands[seat].count(QUEEN_OF_CLUBS) == 2:
            raise IllegalActionError(
                "armut_with_hochzeit",
                "with both Alten in hand it is a Hochzeit, not an Armut",
                seat=seat,
                action=call,
            )
        trumps = armut_trumps(deal, deal.hands[seat])
        limit = deal.options.armut_max_trumps
        if trumps > limit:
            counted = "" if deal.options.armut_count_foxes else " besides the Füchse"
            raise IllegalActionError(
                "armut_too_many_trumps",
                f"an Armut is at most {limit} trumps{counted}; seat {seat} holds {trumps}",
                seat=seat,
                action=call,
            )
        return
    if call.word == "pass":
        if name in ("marriage", "vorbehalt") and must_name_hochzeit(deal, seat):
            raise IllegalActionError(
                "hochzeit_not_silent",
                "these rules have no stille Hochzeit: with both Alten, declare the Hochzeit "
                "(or a solo)",
                seat=seat,
                action=call,
            )
        if name == "reservation" and deal.solo_claim is None and deal.hochzeit_by is None:
            raise IllegalActionError(
                "name_reservation",
                "you said Vorbehalt: name it (a solo or a Hochzeit)",
                seat=seat,
                action=call,
            )
        return
    if call.word == "vorbehalt" and name == "vorbehalt":
        if not _may_claim_solo(deal, seat) and deal.hands[seat].count(QUEEN_OF_CLUBS) != 2:
            raise IllegalActionError(
                "nothing_reserved",
                "a Vorbehalt needs a reservation to name: these rules allow no solo and "
                f"seat {seat} holds no Hochzeit",
                seat=seat,
                action=call,
            )
        return
    raise IllegalActionError(
        "not_now",
        f"{call} is not a declaration of this round ({_ROUND_NAMES[name]})",
        seat=seat,
        action=call,
    )


# -- the declaration phase ---------------------------------------------------------


def declare(deal: DealState, call: Call, seat: int) -> list[Event]:
    """Carry out a declaration (already checked); move on to the next round or phase."""
    name = deal.rounds[deal.round_index]
    word = call.word
    if word == "redeal":
        reason = redeal_reason(deal, seat)
        assert reason is not None  # checked
        return _void(deal, reason, seat, call)
    shown = call
    if word == "pass":
        pass
    elif word == "scharfe":
        hand = deal.hands[seat]
        parts = scharfe_parts(hand, call.detail)
        if "aces" in parts:
            deal.scharfe_aces_by = seat
        if "kings" in parts:
            deal.scharfe_kings_by = seat
        shown = Call("scharfe", " ".join(sorted(parts)))
        deal.reorder()
    elif word == "solo":
        deal.solo_claim = SoloClaim(seat, call.detail, call.ouvert, seat in deal.pflicht_due)
    elif word == "hochzeit":
        deal.hochzeit_by = seat
        deal.hochzeit_rule = call.detail or "first_trick"
    elif word == "armut":
        deal.armut_by = seat
    elif word == "vorbehalt":
        deal.vorbehalt.append(seat)
    deal.declarations.append((seat, shown))
    new: list[Event] = [_declared(seat, str(shown))]
    deal.asking.pop(0)
    if name == "reservation":
        deal.asking = [s for s in deal.asking if _may_outrank(deal, s)]
    elif name == "solo" and deal.asking and not _may_claim_solo(deal, deal.asking[0]):
        # Nothing can outrank the solo declared (public knowledge): the round ends.
        deal.asking = []
    while not deal.asking:
        deal.round_index += 1
        new.extend(_next_round(deal))
        if deal.phase != "declare":
            break
    return new


#: The events of declarations are values: one shared instance per seat and text.
_DECLARED: Final[dict[tuple[int, str], Declared]] = {}


def _declared(seat: int, text: str) -> Declared:
    key = (seat, text)
    event = _DECLARED.get(key)
    if event is None:
        event = _DECLARED[key] = Declared(seat, text)
    return event


def _may_outrank(deal: DealState, seat: int) -> bool:
    """DDV reservations: whether ``seat`` still needs to be asked."""
    if deal.solo_claim is None:
        return True
    return (
        deal.options.solo_priority == "ddv"
        and seat in deal.pflicht_due
        and not deal.solo_claim.pflicht
    )


def _next_round(deal: DealState) -> list[Event]:
    """Start the next declaration round, or leave the declarations."""
    if deal.round_index < len(deal.rounds):
        name = deal.rounds[deal.round_index]
        if name == "marriage" and deal.solo_claim is not None:
            deal.round_index = len(deal.rounds)
            return end_declarations(deal)
        if name == "reservation":
            deal.asking = [s for s in deal.ask_order if s in deal.vorbehalt]
        else:
            deal.asking = list(deal.ask_order)
        return []
    return end_declarations(deal)


def _void(deal: DealState, reason: str, seat: int, call: Call) -> list[Event]:
    """A redeal asked for at the table (five kings): the deal is void."""
    deal.declarations.append((seat, call))
    deal.redeal_reason = reason
    deal.redeal_by = seat
    deal.end("redeal")
    return [Declared(seat, str(call)), Redeal(reason, seat)]


def end_declarations(deal: DealState) -> list[Event]:
    """After the last declaration round: the Armut's exchange (if no solo), else play."""
    if deal.solo_claim is None and deal.armut_by is not None:
        return offer_armut(deal)
    return start_play(deal)
