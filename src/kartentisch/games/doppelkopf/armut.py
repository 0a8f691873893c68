"""The Armut (mangelnder Trumpf): the offer, the answer and the exchange.

Seed 003 § Mangelnder Trumpf: a player with few trumps declares an Armut in
the last declaration round. The partner asked is a Hochzeit at the table,
else the holder of the other Alte ("nach oben"), else the next seat without
one ("nach unten"). He accepts or refuses (a refusal voids the deal); the
poor player gives three cards holding all his trumps, the partner returns
three, trumps only when he lacks other cards. Then play starts.

With ``armut_count_foxes`` off a single Fuchs (♦A) does not count towards the
Armut's limit (both Füchse do: they make a rich hand): a hand of three trumps
and one Fuchs is poor, and the poor player gives all four trumps; the partner
returns as many cards (:func:`exchange_size`: three, or the poor player's
trumps if more).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from kartentisch.cards import Card
from kartentisch.engine import Event
from kartentisch.errors import IllegalActionError
from kartentisch.games.doppelkopf.actions import Action, Call
from kartentisch.games.doppelkopf.events import (
    ArmutAnswered,
    ArmutCardsPassed,
    ArmutOffered,
    Redeal,
)
from kartentisch.games.doppelkopf.play import start_play
from kartentisch.games.doppelkopf.state import DealState
from kartentisch.games.doppelkopf.trumps import AUGEN, QUEEN_OF_CLUBS
from kartentisch.tricks import TRUMP

#: The Fuchs (♦A).
FOX: Final = Card("AD")

__all__ = [
    "answer_armut",
    "armut_trumps",
    "check_exchange",
    "exchange",
    "exchange_options",
    "exchange_size",
    "offer_armut",
]


def armut_trumps(deal: DealState, cards: Sequence[Card]) -> int:
    """The trumps of ``cards`` that count towards the Armut's limit: all of them, or
    all but a single Fuchs (option ``armut_count_foxes`` off; two Füchse count)."""
    trumps = deal.trumps_in(cards)
    alone = cards.count(FOX) == 1 and FOX in deal.order.suit_cards[TRUMP]
    if alone and not deal.options.armut_count_foxes:
        trumps -= 1
    return trumps


def exchange_size(deal: DealState) -> int:
    """How many cards each way in the Armut: three, or all the poor player's trumps
    where they are more (a Fuchs not counted for the limit, but given)."""
    return max(3, deal.armut_trumps)


def offer_armut(deal: DealState) -> list[Event]:
    poor = deal.armut_by
    assert poor is not None
    if deal.options.armut_ask == "in_turn":
        # From the poor player's left, round the table (the playing seats' order).
        start = deal.playing.index(poor)
        order = [deal.playing[(start + i) % len(deal.playing)] for i in range(1, 4)]
        deal.armut_partner, deal.armut_asking = order[0], order[1:]
        deal.armut_direction = "round"
        deal.armut_trumps = deal.trumps_in(deal.hands[poor])
        deal.phase = "armut_answer"
        return [ArmutOffered(poor, deal.armut_trumps, "round", order[0])]
    holders = [s for s in deal.playing for c in deal.hands[s] if c == QUEEN_OF_CLUBS]
    if len(set(holders)) == 1:
        partner = holders[0]  # a Hochzeit at the table is asked
        direction = "down"
    elif poor in holders:
        partner = next(s for s in holders if s != poor)
        direction = "up"
    else:
        partner = next(s for s in deal.ask_order if s != poor and s not in holders)
        direction = "down"
    deal.armut_partner = partner
    deal.armut_direction = direction
    deal.armut_trumps = deal.trumps_in(deal.hands[poor])
    deal.phase = "armut_answer"
    return [ArmutOffered(poor, deal.armut_trumps, direction, partner)]


def answer_armut(deal: DealState, call: Call, seat: int) -> list[Event]:
    new: list[Event] = [ArmutAnswered(seat, call.word == "accept")]
    if call.word == "refuse":
        if deal.armut_asking:  # in turn: the next player is asked
            deal.armut_partner = deal.armut_asking.pop(0)
            return new
        if deal.options.armut_refused == "play":
            # Nobody takes it: the hands are played as dealt, a normal game.
            deal.armut_by = deal.armut_partner = None
            deal.armut_direction = ""
            deal.armut_trumps = 0
            new.extend(start_play(deal))
            return new
        deal.redeal_reason = "armut_refused"
        deal.redeal_by = seat
        deal.end("redeal")
        new.append(Redeal("armut_refused", seat))
        return new
    # The two may no longer play Scharfe (seed 003 § Mangelnder Trumpf).
    pair = (deal.armut_by, deal.armut_partner)
    if deal.scharfe_aces_by in pair:
        deal.scharfe_aces_by = None
    if deal.scharfe_kings_by in pair:
        deal.scharfe_kings_by = None
    deal.reorder()
    deal.phase = "armut_give"
    return new


def exchange_options(deal: DealState, seat: int) -> list[Action]:
    """Armut: a few sensible exchanges (any valid set of :func:`exchange_size` cards
    is accepted). Only exchanges :func:`check_exchange` accepts are offered.
    """
    hand = deal.hands[seat]
    suit_of = deal.order.suit_of
    trumps = [c for c in hand if suit_of[c] == 4]
    plain = sorted((c for c in hand if suit_of[c] != 4), key=lambda c: (AUGEN[c], c))
    word = "give" if deal.phase == "armut_give" else "return"
    size = exchange_size(deal)
    if word == "give":
        need = size - len(trumps)
        choices = [
            tuple(trumps) + tuple(plain[:need]),
            tuple(trumps) + tuple(plain[-need:] if need else ()),
        ]
    else:
        if len(plain) >= size:
            choices = [tuple(plain[:size]), tuple(plain[-size:])]
        else:
            low_trumps = sorted(trumps, key=lambda c: deal.order.power[c])
            choices = [tuple(plain) + tuple(low_trumps[: size - len(plain)])]
    out: list[Action] = []
    for cards in choices:
        call = Call(word, cards=tuple(sorted(cards)))
        if call not in out and _accepted(deal, call, seat):
            out.append(call)
    return out


def _accepted(deal: DealState, call: Call, seat: int) -> bool:
    try:
        check_exchange(deal, call, seat)
    except IllegalActionError:
        return False
    return True


def check_exchange(deal: DealState, call: Call, seat: int) -> None:
    word = "give" if deal.phase == "armut_give" else "return"
    size = exchange_size(deal)
    if call.word != word:
        raise IllegalActionError(
            "armut_exchange",
            f"seat {seat} must {word} {size} cards now ('{word} " + "C " * (size - 1) + "C')",
            seat=seat,
            action=call,
            k=size,
        )
    cards = list(call.cards)
    hand = list(deal.hands[seat])
    if len(cards) != size:
        raise IllegalActionError(
            "armut_three_cards",
            f"exactly {size} cards are passed, not {len(cards)}",
            seat=seat,
            action=call,
            k=size,
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
    suit_of = deal.order.suit_of
    if word == "give":
        left = [c for c in hand if suit_of[c] == 4]
        if left:
            raise IllegalActionError(
                "armut_all_trumps",
                f"the cards given must hold all trumps: {left[0].symbol} is still in hand",
                seat=seat,
                action=call,
            )
    elif deal.options.armut_return == "plain_first":
        trumps = sum(1 for c in cards if suit_of[c] == 4)
        plain_in_hand = sum(1 for c in deal.hands[seat] if suit_of[c] != 4)
        if trumps > max(0, size - plain_in_hand):
            raise IllegalActionError(
                "armut_return_plain",
                "trumps go back only when there are not enough other cards",
                seat=seat,
                action=call,
            )


def exchange(deal: DealState, call: Call, seat: int) -> list[Event]:
    to = deal.armut_partner if deal.phase == "armut_give" else deal.armut_by
    assert to is not None
    for card in call.cards:
        deal.hands[seat].remove(card)
    deal.hands[to].extend(call.cards)
    trumps = deal.trumps_in(call.cards)
    new: list[Event] = [ArmutCardsPassed(seat, to, call.word, len(call.cards), trumps)]
    if deal.phase == "armut_give":
        deal.armut_given = call.cards
        deal.phase = "armut_return"
    else:
        deal.armut_returned = call.cards
        deal.armut_returned_trumps = trumps
        new.extend(start_play(deal))
    return new
