"""Scharfe Sachen, and the table of five where the dealer sits out."""

from __future__ import annotations

import random

import pytest

from kartentisch.cards import Card, parse_cards
from kartentisch.errors import DealError, IllegalActionError
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions

from .helpers import declare, greedy, hands_with


def test_scharfe_aces_and_kings_rank_around_the_dulle() -> None:
    hands = hands_with({0: "AH AH KH KH QC JC AC AS 10S KS"}, seed=3)
    deal = DoppelkopfDeal(hands, dealer=3)
    assert [str(a) for a in deal.legal_actions()] == [
        "scharfe aces",
        "scharfe kings",
        "scharfe aces kings",
        "pass",
    ]
    deal.apply(Call("scharfe"))  # all that seat 0 holds
    assert deal.declarations[0] == (0, Call("scharfe", "aces kings"))
    declare(deal, {})
    assert deal.game_type == "normal"
    order = deal.order
    assert order.winner(parse_cards("10H AH")) == 1  # scharfes Herz-As above the Dulle
    assert order.winner(parse_cards("KH 10H")) == 1  # scharfer König below it
    assert order.winner(parse_cards("KH QC")) == 0  # … and above the Alte
    assert order.is_trump(Card("AH")) and order.is_trump(Card("KH"))
    greedy(deal)
    facts = deal.facts()
    assert facts.scharfe_aces and Card("AH") in facts.trumps


def test_scharfe_needs_both_cards() -> None:
    hands = hands_with({0: "AH QC JC AC AS 10S KS KC 10C QS"}, seed=3)
    deal = DoppelkopfDeal(hands, dealer=3)
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("scharfe", "aces"))
    assert err.value.rule == "scharfe_needs_pair"


def test_scharfe_only_in_games_with_the_normal_order() -> None:
    hands = hands_with({0: "AH AH QC QC QS QS QH QH QD QD"}, seed=3)
    deal = DoppelkopfDeal(hands, dealer=3)
    deal.apply(Call("scharfe", "aces"))
    declare(deal, {0: "solo queens"})
    assert deal.game_type == "queens"
    assert not deal.order.is_trump(Card("AH"))
    greedy(deal)
    assert not deal.facts().scharfe_aces
    assert deal.points() == (250, 0, 0, 0)


def test_scharfe_option_off() -> None:
    options = DoppelkopfOptions(scharfe=False)
    hands = hands_with({0: "AH AH KH KH QC JC AC AS 10S KS"}, options=options, seed=3)
    deal = DoppelkopfDeal(hands, dealer=3, options=options)
    assert Call("scharfe", "aces") not in deal.legal_actions()
    assert Call("solo", "trump") in deal.legal_actions()  # the first round is the soli


def test_five_players_dealer_sits_out_and_scores_zero() -> None:
    options = DoppelkopfOptions(players=5)
    deal = DoppelkopfDeal.from_seed(11, dealer=2, options=options)
    assert deal.playing == (0, 1, 3, 4)
    assert deal.ask_order == (3, 4, 0, 1)
    assert deal.initial_hands[2] == ()
    assert deal.to_move == 3
    assert deal.legal_actions(2) == []
    rng = random.Random(2)
    while deal.phase == "declare":
        deal.apply(Call("pass"))
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("re"), 2)
    assert err.value.rule == "sits_out"
    while not deal.is_over:
        deal.apply(rng.choice([a for a in deal.legal_actions() if isinstance(a, Card)]))
    assert deal.points()[2] == 0
    assert all(len(t.cards) == 4 and 2 not in t.seats for t in deal.tricks)
    assert sum(deal.score.augen.values()) == 240  # type: ignore[union-attr]


def test_five_players_no_cut_and_dealer_hand_must_be_empty() -> None:
    options = DoppelkopfOptions(players=5)
    with pytest.raises(DealError):
        DoppelkopfDeal.from_seed(1, dealer=0, options=options, cut=5)
    hands = [list(h) for h in DoppelkopfDeal.from_seed(1, dealer=0, options=options).initial_hands]
    hands[0], hands[1] = hands[1], hands[0]
    with pytest.raises(DealError, match="sits this deal out"):
        DoppelkopfDeal(hands, dealer=0, options=options)


def test_wrong_deals_are_refused() -> None:
    hands = [list(h) for h in DoppelkopfDeal.from_seed(1, dealer=0).initial_hands]
    hands[0].append(hands[1].pop())
    with pytest.raises(DealError, match="holds 11 cards"):
        DoppelkopfDeal(hands, dealer=0)
    hands = [list(h) for h in DoppelkopfDeal.from_seed(1, dealer=0).initial_hands]
    hands[0][0] = Card("9C")
    with pytest.raises(DealError, match="not in the 40-card"):
        DoppelkopfDeal(hands, dealer=0)


def test_cut_and_deal_packets() -> None:
    a = DoppelkopfDeal.from_seed(5, dealer=0)
    b = DoppelkopfDeal.from_seed(5, dealer=0, cut=7)
    assert a.initial_hands != b.initial_hands
    assert sorted(c for h in a.initial_hands for c in h) == sorted(
        c for h in b.initial_hands for c in h
    )
    assert DoppelkopfOptions().packets == (3, 4, 3)


def test_five_kings_redeal() -> None:
    hands = hands_with({1: "KC KC KS KS KH AC AS 10C QD JD"}, seed=1)
    deal = DoppelkopfDeal(hands, dealer=0)
    assert deal.to_move == 1
    assert Call("redeal") in deal.legal_actions()
    deal.apply(Call("redeal"))
    assert deal.outcome == "redeal" and deal.redeal_reason == "kings"
    other = DoppelkopfDeal(hands, dealer=3)
    assert Call("redeal") not in other.legal_actions()  # seat 0 has fewer kings
    with pytest.raises(IllegalActionError) as err:
        other.apply(Call("redeal"))
    assert err.value.rule == "kings_redeal"
