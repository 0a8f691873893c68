"""Trump options: the Dullen as trumps or not (``dullen``), in the trick order and in
constructed deals whose last trick changes hands with it."""

from __future__ import annotations

import dataclasses

from kartentisch.cards import Card, parse_cards
from kartentisch.games.doppelkopf import DoppelkopfOptions
from kartentisch.games.doppelkopf.trumps import trick_order, trump_cards

from .scripted import pass_all, play_cards, script
from .test_normal import BASE

WITHOUT = DoppelkopfOptions(dullen=False)


def test_the_trump_order_without_dullen() -> None:
    with_dullen = trump_cards("normal")
    without = trump_cards("normal", dullen=False)
    assert with_dullen[0] == Card("10H") and without == with_dullen[1:]
    order = trick_order("normal", dullen=False)
    assert not order.is_trump(Card("10H"))
    # A ♥10 led is a heart: the ace beats it, any trump takes it.
    assert order.winner(parse_cards("10H AH KH KH")) == 1
    assert order.winner(parse_cards("10H AH KD KH")) == 2
    assert trick_order("normal").winner(parse_cards("10H AH KD KH")) == 0
    # Scharfe Herz-Asse head the trumps themselves; a DDV hearts solo keeps its ♥10.
    assert trump_cards("normal", scharfe_aces=True, dullen=False)[:2] == tuple(parse_cards("AH QC"))
    hearts = trump_cards("hearts", style="ddv", dullen=False)
    assert hearts[0] == Card("QC") and hearts[-3:] == tuple(parse_cards("AH 10H KH"))


def test_both_presets_play_with_dullen() -> None:
    assert DoppelkopfOptions().dullen and DoppelkopfOptions.preset_named("ddv").dullen


def test_the_last_trick_changes_hands_without_dullen() -> None:
    tricks = list(BASE)
    tricks[4] = "10D JS JD JH"  # ♦10s where the Dullen were
    tricks[5] = "KD 10D JC QD"
    tricks[9] = "10H 10H JS QS"  # both Dullen in the last trick, one leads it
    sc = script(tricks)
    deal = sc.deal()
    pass_all(deal)
    play_cards(deal, sc.plays)
    assert deal.trick_play is not None
    last = deal.trick_play.tricks[-1]
    assert last.winner == last.seats[0]  # the Dulle: the highest trump
    # The same hands and cards without Dullen: the ♥10 led is a heart, the ♠Q trumps it.
    plain = dataclasses.replace(sc, options=WITHOUT).deal()
    pass_all(plain)
    play_cards(plain, sc.plays)
    assert plain.trick_play is not None
    again = plain.trick_play.tricks[-1]
    assert again.seats == last.seats and again.winner == again.seats[3]
    assert [t.winner for t in plain.trick_play.tricks[:-1]] == [
        t.winner for t in deal.trick_play.tricks[:-1]
    ]
    # 10 + 10 + 2 + 3 = 25 Augen change sides.
    assert deal.score is not None and plain.score is not None
    moved = deal.score.augen["re"] - plain.score.augen["re"]
    assert abs(moved) == 25
    assert deal.points() != plain.points()


def last_trick_winner(dulle_order: str) -> tuple[int, tuple[int, ...]]:
    """The last trick's winner (its position) when both Dullen meet in it."""
    tricks = list(BASE)
    tricks[4] = "10D JS JD JH"
    tricks[5] = "KD 10D JC QD"
    tricks[9] = "10H 10H JS QS"
    sc = script(tricks)
    options = DoppelkopfOptions(dulle_order=dulle_order)
    deal = dataclasses.replace(sc, options=options).deal()
    pass_all(deal)
    play_cards(deal, sc.plays)
    assert deal.trick_play is not None
    last = deal.trick_play.tricks[-1]
    return last.seats.index(last.winner), deal.points()


def test_the_dulle_order_in_the_last_trick() -> None:
    first, first_points = last_trick_winner("first")
    second, second_points = last_trick_winner("second")
    except_last, except_points = last_trick_winner("second_except_last")
    assert (first, second, except_last) == (0, 1, 0)
    assert first_points == except_points != second_points


def test_the_second_dulle_wins_a_trick_before_the_last() -> None:
    tricks = list(BASE)
    tricks[4] = "10H 10H JD JH"  # both Dullen in trick 5
    tricks[5] = "KD JS JC QD"
    for dulle_order, position in (("second", 1), ("second_except_last", 1), ("first", 0)):
        options = DoppelkopfOptions(dulle_order=dulle_order)
        sc = script(tricks, options=options)
        deal = sc.deal()
        pass_all(deal)
        play_cards(deal, sc.plays)
        assert deal.trick_play is not None
        trick = deal.trick_play.tricks[4]
        assert trick.winner == trick.seats[position], dulle_order
        assert deal.score is not None and sum(deal.score.augen.values()) == 240


def test_no_dulle_order_without_dullen_or_in_a_suit_solo() -> None:
    assert trick_order("normal", dullen=False, dulle_order="second").later_wins == frozenset()
    assert trick_order("hearts", dulle_order="second").later_wins == frozenset()
    assert trick_order("hearts", style="ddv", dulle_order="second").later_wins == {Card("10H")}
    assert trick_order("queens", dulle_order="second").later_wins == frozenset()
