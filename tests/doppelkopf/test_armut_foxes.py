"""An Armut with a single Fuchs not counted (option ``armut_count_foxes`` off).

Seat 1 holds three trumps and one Fuchs: four trumps, too many for an Armut
when the Fuchs counts (the sheet), poor when it does not. Then all four trumps
are given and the partner returns four cards. Two Füchse count (a rich hand).
"""

from __future__ import annotations

import random

import pytest

from kartentisch.bots.doppelkopf import HeuristicDoppelkopfBot
from kartentisch.cards import Card, parse_cards
from kartentisch.errors import IllegalActionError
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions
from kartentisch.games.doppelkopf.armut import exchange_size
from kartentisch.games.doppelkopf.events import ArmutCardsPassed, ArmutOffered
from kartentisch.interop.encoding import DoppelkopfTable, doppelkopf_action_id

from .helpers import greedy, hands_with

POOR = "AD QS JH 10D AC KC AS KS 10C KH"
RICH = "AD AD QS JH AC KC AS KS 10C KH"
FOXES_FREE = DoppelkopfOptions(armut_count_foxes=False)


def _deal(options: DoppelkopfOptions, hand: str = POOR) -> DoppelkopfDeal:
    deal = DoppelkopfDeal(hands_with({1: hand}, options=options, seed=5), dealer=3, options=options)
    for seat in (0, 2, 3):  # nobody else poor, no Hochzeit: seat 1 is the only Armut
        assert deal.trumps_in(deal.hand(seat)) > 4
        assert deal.hand(seat).count(Card("QC")) < 2
    return deal


def _to_marriage_round(deal: DoppelkopfDeal) -> None:
    while deal.rounds[deal.round_index] != "marriage" or deal.to_move != 1:
        deal.apply(Call("pass"))


@pytest.mark.parametrize(
    ("options", "hand"), [(DoppelkopfOptions(), POOR), (FOXES_FREE, RICH)], ids=["sheet", "two"]
)
def test_the_fuchs_counts_by_default_and_two_always(options: DoppelkopfOptions, hand: str) -> None:
    deal = _deal(options, hand)
    _to_marriage_round(deal)
    assert Call("armut") not in deal.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("armut"), 1)
    assert err.value.rule == "armut_too_many_trumps"


def test_four_trumps_given_and_four_cards_returned() -> None:
    deal = _deal(FOXES_FREE)
    _to_marriage_round(deal)
    assert Call("armut") in deal.legal_actions()
    deal.apply(Call("armut"), 1)
    while deal.phase == "declare":
        deal.apply(Call("pass"))
    offer = next(e for e in deal.events if isinstance(e, ArmutOffered))
    assert offer.trumps == 4 and exchange_size(deal) == 4
    deal.apply(Call("accept"))
    assert deal.phase == "armut_give"
    # Three cards are not enough now; all four trumps go.
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("give", cards=tuple(parse_cards("AD QS JH"))), 1)
    assert err.value.rule == "armut_three_cards" and err.value.params == {"k": 4}
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("give", cards=tuple(parse_cards("AD QS JH AC"))), 1)
    assert err.value.rule == "armut_all_trumps"
    options = deal.legal_actions(1)
    assert options and all(len(c.cards) == 4 for c in options if isinstance(c, Call))
    deal.apply(Call("give", cards=tuple(sorted(parse_cards("AD QS JH 10D")))), 1)
    partner = deal.armut_partner
    assert partner is not None and len(deal.hand(partner)) == 14
    back = deal.legal_actions(partner)
    assert back and all(isinstance(c, Call) and len(c.cards) == 4 for c in back)
    deal.apply(back[0], partner)
    passed = [e for e in deal.events if isinstance(e, ArmutCardsPassed)]
    assert [e.count for e in passed] == [4, 4]
    assert all(len(deal.hand(s)) == 10 for s in deal.playing)
    assert deal.phase == "play"
    greedy(deal)
    assert deal.score is not None and sum(deal.score.augen.values()) == 240


def test_the_card_by_card_table_passes_four_and_the_bot_returns_four() -> None:
    deal = _deal(FOXES_FREE)
    table = DoppelkopfTable(deal)
    bot = HeuristicDoppelkopfBot(random.Random(3))
    picks = 0
    while not deal.is_over:
        seat = table.to_move
        assert seat is not None
        if deal.phase == "armut_give":
            ids = table.legal_ids()
            table.apply_id(ids[0])
            picks += 1
            continue
        if deal.phase == "declare":
            poor = seat == 1 and Call("armut") in deal.legal_actions(1)
            action: Card | Call = Call("armut") if poor else Call("pass")
        elif deal.phase == "armut_answer":
            action = Call("accept")
        else:
            action = bot.choose(deal.observation(seat))
        if deal.phase == "armut_return":
            assert isinstance(action, Call) and len(action.cards) == 4
        action_id = doppelkopf_action_id(action)
        if action_id is None or deal.phase == "armut_return":
            for card in sorted(action.cards, key=doppelkopf_action_id):  # type: ignore[union-attr]
                table.apply_id(doppelkopf_action_id(card))  # type: ignore[arg-type]
                picks += 1
            continue
        table.apply_id(action_id)
    assert deal.game_type == "armut" and picks == 8  # four each way, one id at a time
    assert deal.score is not None and sum(deal.score.augen.values()) == 240
