"""Announcement deadlines counted by tricks (option ``announcement_count``).

A deadline "with n cards in hand" (TSR 6: Re with 11 of 12 cards …) counts the
announcer's own cards by default. Counted by tricks it ends for every player at
the same moment: the first card of trick size − n + 1 ("Re until the first card
of the second trick").
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from kartentisch.cards import Card
from kartentisch.errors import IllegalActionError
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfMatch, DoppelkopfOptions

from .scripted import act, pass_all, play_cards, script
from .test_ddv import RE_WINS

DDV = DoppelkopfOptions.preset_named("ddv")
BY_TRICKS = dataclasses.replace(DDV, announcement_count="tricks")


def _after(options: DoppelkopfOptions, cards: int) -> tuple[DoppelkopfDeal, list[tuple[int, Card]]]:
    sc = script(RE_WINS, options=options)
    deal = sc.deal()
    pass_all(deal)
    play_cards(deal, sc.plays, until=cards)
    return deal, sc.plays


def test_re_until_the_first_card_of_the_second_trick() -> None:
    # After the first trick every seat may still say Re or Kontra.
    deal, _ = _after(BY_TRICKS, 4)
    for seat in range(4):
        word = "re" if seat in (1, 2) else "kontra"
        assert Call(word) in deal.legal_actions(seat)
    # One card into the second trick nobody may, though three seats still hold 11 cards.
    deal, _ = _after(BY_TRICKS, 5)
    assert sorted(len(deal.hand(s)) for s in range(4)) == [10, 11, 11, 11]
    for seat in range(4):
        assert not any(isinstance(a, Call) for a in deal.legal_actions(seat))
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("re"), 1)
    assert err.value.rule == "announcement_deadline_trick"
    assert "first card of trick 2" in str(err.value)
    # Counted by own cards, the three who have not played in trick 2 still may.
    deal, _ = _after(DDV, 5)
    holding_11 = [s for s in range(4) if len(deal.hand(s)) == 11]
    assert len(holding_11) == 3
    for seat in holding_11:
        word = "re" if seat in (1, 2) else "kontra"
        assert Call(word) in deal.legal_actions(seat)


def test_a_reply_one_trick_later() -> None:
    deal, plays = _after(BY_TRICKS, 4)
    act(deal, "1:re")
    play_cards(deal, plays[4:], until=4)  # the second trick is complete
    assert Call("kontra") in deal.legal_actions(0)  # a reply: until trick 3's first card
    assert Call("no90") not in deal.legal_actions(0)  # keine 90 needs the missed Kontra
    play_cards(deal, plays[8:], until=1)
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Call("kontra"), 0)
    assert err.value.rule == "announcement_deadline_trick"
    assert "trick 3" in str(err.value)


def test_house_timing_by_tricks_ends_with_the_first_card() -> None:
    house = DoppelkopfOptions(announcement_count="tricks")
    deal = DoppelkopfDeal.from_seed(4, dealer=3, options=house)
    while deal.phase != "play":
        deal.apply(next(a for a in deal.legal_actions() if str(a) == "pass"))
    leader = deal.to_move
    assert leader is not None
    assert any(isinstance(a, Call) for a in deal.legal_actions((leader + 1) % 4))
    deal.apply(deal.legal_actions(leader)[0], leader)
    # The next seat still holds all 10 cards, but the first card has been played.
    nxt = (leader + 1) % 4
    assert len(deal.hand(nxt)) == 10
    assert not any(isinstance(a, Call) for a in deal.legal_actions(nxt))
    # Counted by own cards it may still announce.
    own = DoppelkopfDeal.from_seed(4, dealer=3, options=DoppelkopfOptions())
    while own.phase != "play":
        own.apply(next(a for a in own.legal_actions() if str(a) == "pass"))
    own.apply(own.legal_actions(leader)[0], leader)
    assert any(isinstance(a, Call) for a in own.legal_actions(nxt))


def test_random_games_trick_counting_is_own_cards_at_each_trick_boundary() -> None:
    """Random games, the same actions under both countings: counted by tricks a seat
    may say no word it could not say counting its own cards, and between tricks
    (every hand as long as the tricks left) both allow the same words."""
    rng = random.Random(5)
    for options in (BY_TRICKS, DoppelkopfOptions(announcement_count="tricks")):
        tricks = DoppelkopfMatch(options, seed=5)
        cards = DoppelkopfMatch(dataclasses.replace(options, announcement_count="cards"), seed=5)
        boundaries = 0
        for _ in range(10):
            a, b = tricks.deal, cards.deal
            while not a.is_over:
                for seat in a.playing:
                    by_tricks = {x for x in a.legal_actions(seat) if isinstance(x, Call)}
                    by_cards = {x for x in b.legal_actions(seat) if isinstance(x, Call)}
                    assert by_tricks <= by_cards
                    if a.phase == "play" and a.cards_played % 4 == 0:
                        assert by_tricks == by_cards
                        boundaries += by_cards != set()
                legal = tricks.legal_actions()
                calls = [x for x in legal if isinstance(x, Call)]
                action = rng.choice(calls) if calls and rng.random() < 0.3 else rng.choice(legal)
                tricks.apply(action)
                cards.apply(action)
            assert a.points() == b.points()
            tricks.start_deal()
            cards.start_deal()
        assert boundaries > 0
