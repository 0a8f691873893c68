"""The declarations before the first card: what a seat may say, and why not.

Seed 003 § Spielansage (Scharfe, soli, Hochzeit / mangelnder Trumpf, in this
order), § Soli (the ranking), § Hochzeit, § Mangelnder Trumpf, § Einmischen
(five kings); TSR 4 for the DDV order (gesund / Vorbehalt, then Pflichtsolo,
Lustsolo, Hochzeit). These functions read a :class:`DoppelkopfDeal`; the
deal changes its state only after they accepted an action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from kartentisch.cards import Card, Rank
from kartentisch.errors import IllegalActionError
from kartentisch.games.doppelkopf.actions import HOCHZEIT_RULES, Action, Call
from kartentisch.games.doppelkopf.options import ALL_SOLI

if TYPE_CHECKING:
    from kartentisch.games.doppelkopf.deal import DoppelkopfDeal

__all__ = [
    "ACE_OF_HEARTS",
    "KING_OF_HEARTS",
    "QUEEN_OF_CLUBS",
    "check_declaration",
    "check_exchange",
    "declaration_options",
    "exchange_options",
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
_PASS: Final = Call("pass")
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
        out.extend((_PASS, Call("vorbehalt")))
    elif name == "reservation":
        if deal._solo is not None or deal.hochzeit_by is not None:
            out.append(_PASS)
        out.extend(solo_options(deal, seat))
        if deal._solo is None and hand.count(QUEEN_OF_CLUBS) == 2:
            out.append(Call("hochzeit"))
    if options.kings_redeal and kings_held(deal, seat) >= options.kings_redeal:
        out.append(Call("redeal"))
    return out


def kings_held(deal: DoppelkopfDeal, seat: int) -> int:
    return sum(1 for c in deal._initial[seat] if c.rank == Rank.KING)


def solo_options(deal: DoppelkopfDeal, seat: int) -> list[Call]:
    options = deal.options
    return [
        Call("solo", kind, ouvert)
        for kind in options.soli
        for ouvert in ((False, True) if options.ouvert else (False,))
        if solo_outranks(deal, seat, kind, ouvert)
    ]


def solo_outranks(deal: DoppelkopfDeal, seat: int, kind: str, ouvert: bool) -> bool:
    """Whether a claim by ``seat`` beats the best so far (ties go to the earlier seat)."""
    best = deal._solo
    if best is None:
        return True
    if deal.options.solo_priority == "ddv":
        return seat in deal.pflicht_due and not best.pflicht
    return solo_rank(kind, ouvert) > solo_rank(best.kind, best.ouvert)


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


def exchange_options(deal: DoppelkopfDeal, seat: int) -> list[Action]:
    """Armut: a few sensible exchanges (any valid three cards are accepted)."""
    hand = deal._hands[seat]
    suit_of = deal._order.suit_of
    trumps = [c for c in hand if suit_of[c] == 4]
    plain = sorted((c for c in hand if suit_of[c] != 4), key=lambda c: (AUGEN[c], c))
    word = "give" if deal.phase == "armut_give" else "return"
    if word == "give":
        need = 3 - len(trumps)
        choices = [
            tuple(trumps) + tuple(plain[:need]),
            tuple(trumps) + tuple(plain[-need:] if need else ()),
        ]
    else:
        if len(plain) >= 3:
            choices = [tuple(plain[:3]), tuple(plain[-3:])]
        else:
            low_trumps = sorted(trumps, key=lambda c: deal._order.power[c])
            choices = [tuple(plain) + tuple(low_trumps[: 3 - len(plain)])]
    out: list[Action] = []
    for cards in choices:
        call = Call(word, cards=tuple(sorted(cards)))
        if call not in out:
            out.append(call)
    return out


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


def check_exchange(deal: DoppelkopfDeal, call: Call, seat: int) -> None:
    word = "give" if deal.phase == "armut_give" else "return"
    if call.word != word:
        raise IllegalActionError(
            "armut_exchange",
            f"seat {seat} must {word} three cards now ('{word} C C C')",
            seat=seat,
            action=call,
        )
    cards = list(call.cards)
    hand = list(deal._hands[seat])
    if len(cards) != 3:
        raise IllegalActionError(
            "armut_three_cards",
            f"exactly three cards are passed, not {len(cards)}",
            seat=seat,
            action=call,
        )
    for card in cards:
        if card not in hand:
            raise IllegalActionError(
                "not_in_hand",
                f"{card.symbol} is not in seat {seat}'s hand",
                seat=seat,
                action=call,
            )
        hand.remove(card)
    suit_of = deal._order.suit_of
    if word == "give":
        left = [c for c in hand if suit_of[c] == 4]
        if left:
            raise IllegalActionError(
                "armut_all_trumps",
                f"the three cards must hold all trumps: {left[0].symbol} is still in hand",
                seat=seat,
                action=call,
            )
    else:
        trumps = sum(1 for c in cards if suit_of[c] == 4)
        plain_in_hand = sum(1 for c in deal._hands[seat] if suit_of[c] != 4)
        if trumps > max(0, 3 - plain_in_hand):
            raise IllegalActionError(
                "armut_return_plain",
                "trumps go back only when there are not enough other cards",
                seat=seat,
                action=call,
            )
