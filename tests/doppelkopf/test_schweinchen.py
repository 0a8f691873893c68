"""Schweinchen (option ``schweinchen``): both ♦A in one hand head the trumps.

The order with Super- and Hyperschweinchen, which games have pigs, a
constructed deal whose last trick changes hands with them, and what each seat
is told (``announced``, ``first_played``, ``silent``) without a hidden pig
leaking through an observation.
"""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kartentisch.cards import Card, parse_cards
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions
from kartentisch.games.doppelkopf.events import PigsShown
from kartentisch.games.doppelkopf.trumps import (
    find_pigs,
    pig_card,
    sort_hand,
    trick_order,
    trump_cards,
)

from .helpers import declare, greedy, hands_with
from .scripted import Script, pass_all, play_cards, script
from .test_normal import BASE

# Seat 1 (Re with a ♣Q) holds both ♦A: it wins trick 6 with the first and, with
# the second, the last trick, which the Dulle of seat 0 wins without them.
TRICKS = [
    *BASE[:4],
    "QD JH JH QS",
    "KD 10D AD KD",
    "QC JS 10D QD",
    "10H JC JD JD",
    "JS QC QH JC",
    "QH QS 10H AD",
]


def played(sc: Script, **options: object) -> DoppelkopfDeal:
    deal = dataclasses.replace(sc, options=DoppelkopfOptions(**options)).deal()  # type: ignore[arg-type]
    pass_all(deal)
    play_cards(deal, sc.plays)
    return deal


def test_the_pigs_head_the_trumps() -> None:
    pigs = (Card("KD"), Card("10D"), Card("AD"))
    order = trump_cards("normal", pigs=pigs)
    assert order[:4] == (*pigs, Card("10H"))
    assert len(order) == len(trump_cards("normal"))
    assert order[3:] == tuple(c for c in trump_cards("normal") if c not in pigs)
    # Above scharfe Herz-Asse too; the second Dulle rule is untouched by them.
    scharf = trump_cards("normal", scharfe_aces=True, pigs=(Card("AD"),))
    assert scharf[:3] == tuple(parse_cards("AD AH 10H"))
    t = trick_order("normal", pigs=(Card("AD"),))
    assert t.winner(parse_cards("10H AD 10H QC")) == 1
    assert trick_order("normal").winner(parse_cards("10H AD 10H QC")) == 0
    # Only a trump can be a pig.
    try:
        trick_order("no_trump", pigs=(Card("AD"),))
    except ValueError as error:
        assert "AD" in str(error) or "trump" in str(error)
    else:  # pragma: no cover - the order must refuse
        raise AssertionError("a non-trump pig was accepted")


def test_which_cards_are_pigs() -> None:
    assert pig_card("schweinchen", nines=False) == Card("AD")
    assert pig_card("superschweinchen", nines=True) == Card("10D")
    assert pig_card("hyperschweinchen", nines=True) == Card("9D")
    assert pig_card("hyperschweinchen", nines=False) == Card("KD")


def test_who_holds_the_pigs() -> None:
    hands = [
        parse_cards("AD AD QC"),
        parse_cards("10D 10D QS"),
        parse_cards("KD KD QH"),
        parse_cards("JD JD QD"),
    ]
    assert find_pigs(hands, superschweinchen=False, hyperschweinchen=False, nines=False) == (
        (0, "schweinchen"),
    )
    assert find_pigs(hands, superschweinchen=True, hyperschweinchen=True, nines=False) == (
        (2, "hyperschweinchen"),
        (1, "superschweinchen"),
        (0, "schweinchen"),
    )
    # With the nines the Hyperschweinchen are the ♦9: nobody here holds both.
    assert find_pigs(hands, superschweinchen=True, hyperschweinchen=True, nines=True) == (
        (1, "superschweinchen"),
        (0, "schweinchen"),
    )
    # Split ♦A: no Schweinchen, and without it neither of the others.
    split = [parse_cards("AD 10D 10D"), parse_cards("AD KD KD"), [], []]
    assert find_pigs(split, superschweinchen=True, hyperschweinchen=True, nines=False) == ()


def test_the_last_trick_changes_hands_with_the_schweinchen() -> None:
    sc = script(TRICKS)
    off = played(sc)
    on = played(script(TRICKS, pigs="AD AD"), schweinchen="announced")
    assert off.trick_play is not None and on.trick_play is not None
    assert [t.winner for t in off.trick_play.tricks] == [0, 0, 0, 0, 3, 1, 1, 1, 2, 0]
    assert [t.winner for t in on.trick_play.tricks] == [0, 0, 0, 0, 3, 1, 1, 1, 2, 1]
    assert off.score is not None and on.score is not None
    # ♦A 11 + ♥10 10 + ♥Q 3 + ♠Q 3 = 27 Augen go over to Re (seats 1 and 2).
    assert off.score.augen == {"re": 73, "kontra": 167}
    assert on.score.augen == {"re": 100, "kontra": 140}
    # Without the pigs Kontra catches the Fuchs; with them the ♦A are no Füchse,
    # and it is Re that catches the Dulle.
    assert [(e.party, e.name) for e in off.score.extras] == [("kontra", "fuchs_gefangen")]
    assert [(e.party, e.name) for e in on.score.extras] == [("re", "dulle_gefangen")]
    assert off.points() == (40, 0, 0, 40)
    assert on.points() == (10, 0, 0, 10)


def test_a_schweinchen_winning_the_last_trick_is_no_fuchs() -> None:
    extras = ("fuchs_gefangen", "fuchs_letzter_stich")
    on = played(script(TRICKS, pigs="AD AD"), schweinchen="silent", sonderpunkte=extras)
    assert on.score is not None and on.score.extras == ()
    assert on.trick_play is not None
    last = on.trick_play.tricks[-1]
    assert last.winner is not None
    assert last.cards[last.seats.index(last.winner)] == Card("AD")
    # The same cards without Schweinchen: Kontra's Dulle catches the Fuchs.
    off = played(script(TRICKS), sonderpunkte=extras)
    assert off.score is not None
    assert [(e.name, e.trick) for e in off.score.extras] == [("fuchs_gefangen", 10)]


def test_announced_tells_everyone_as_play_begins() -> None:
    sc = script(TRICKS, pigs="AD AD")
    deal = dataclasses.replace(sc, options=DoppelkopfOptions(schweinchen="announced")).deal()
    events: list[object] = []
    while deal.phase == "declare":
        events += deal.apply(Call("pass"))
    assert [e for e in events if isinstance(e, PigsShown)] == [PigsShown(1, "schweinchen")]
    for seat in range(4):
        obs = deal.observation(seat)
        assert obs.pigs == ((1, "schweinchen"),)
        assert obs.to_dict()["pigs"] == [{"seat": 1, "kind": "schweinchen"}]
    # The holder's hand shows the ♦A above its Dulle.
    assert deal.observation(1).hand[:3] == tuple(parse_cards("AD AD 10H"))
    play_cards(deal, sc.plays)
    assert sum(isinstance(e, PigsShown) for e in deal.events) == 1


def test_first_played_tells_the_table_with_the_first_card() -> None:
    sc = script(TRICKS, pigs="AD AD")
    deal = dataclasses.replace(sc, options=DoppelkopfOptions(schweinchen="first_played")).deal()
    pass_all(deal)
    first = next(i for i, (seat, card) in enumerate(sc.plays) if card == Card("AD"))
    assert sc.plays[first][0] == 1
    play_cards(deal, sc.plays, until=first)
    assert deal.observation(1).pigs == ((1, "schweinchen"),)
    for seat in (0, 2, 3):
        assert deal.observation(seat).pigs == ()
        # Nothing leaks: the seat's hand is in the order without pigs.
        hand = deal.observation(seat).hand
        assert hand == sort_hand(hand, trick_order("normal"))
    events = deal.apply(Card("AD"), 1)
    assert PigsShown(1, "schweinchen") in events
    for seat in range(4):
        assert deal.observation(seat).pigs == ((1, "schweinchen"),)
    play_cards(deal, sc.plays[first + 1 :])
    assert sum(isinstance(e, PigsShown) for e in deal.events) == 1


def test_silent_pigs_are_known_to_their_holder_alone_until_the_end() -> None:
    sc = script(TRICKS, pigs="AD AD")
    deal = dataclasses.replace(sc, options=DoppelkopfOptions(schweinchen="silent")).deal()
    pass_all(deal)
    for seat, card in sc.plays:
        for viewer in (0, 2, 3):
            assert deal.observation(viewer).pigs == ()
        assert deal.observation(1).pigs == ((1, "schweinchen"),)
        assert deal.observation(1).hand[:1] == (Card("AD"),) or Card("AD") not in deal.hands[1]
        deal.apply(card, seat)
    assert not any(isinstance(e, PigsShown) for e in deal.events)
    assert deal.is_over
    assert deal.observation(0).pigs == ((1, "schweinchen"),)


def test_the_schweinchen_in_a_trumpfsolo_only_with_the_option() -> None:
    hand = "AD AD 10H 10H QC QC QS QS QH QH"
    for flag, expected in ((False, ()), (True, ((0, "schweinchen"),))):
        options = DoppelkopfOptions(schweinchen="announced", schweinchen_solo=flag)
        deal = DoppelkopfDeal(
            hands_with({0: hand}, options=options, seed=3), dealer=3, options=options
        )
        declare(deal, {0: "solo trump"})
        assert deal.solo and deal.soloist == 0
        assert deal.observation(1).pigs == expected
        greedy(deal)
        assert deal.score is not None
    # A colour or a picture solo has no pigs: its ♦A are no trumps of the normal order.
    options = DoppelkopfOptions(schweinchen="announced", schweinchen_solo=True)
    deal = DoppelkopfDeal(
        hands_with({0: "AD AD JC JC JS JS JH JH JD JD"}, options=options, seed=3),
        dealer=3,
        options=options,
    )
    declare(deal, {0: "solo jacks"})
    assert deal.observation(0).pigs == ()


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    mode=st.sampled_from(["announced", "first_played", "silent"]),
    nines=st.booleans(),
)
def test_random_games_with_every_pig(seed: int, mode: str, nines: bool) -> None:
    options = DoppelkopfOptions(
        schweinchen=mode,  # type: ignore[arg-type]
        superschweinchen=True,
        hyperschweinchen=True,
        nines=nines,
    )
    rng = random.Random(seed)
    deck = list(options.deck())
    rng.shuffle(deck)
    # Seat 0 gets both ♦A, seat 1 both ♦10, seat 2 both of the Hyperschweinchen card.
    hyper = pig_card("hyperschweinchen", nines=nines)
    fixed = [Card("AD"), Card("AD"), Card("10D"), Card("10D"), hyper, hyper]
    for card in fixed:
        deck.remove(card)
    size = options.hand_size
    rest = deck
    hands = []
    for s in range(4):
        own = fixed[2 * s : 2 * s + 2] if s < 3 else []
        take, rest = rest[: size - len(own)], rest[size - len(own) :]
        hands.append(own + take)
    deal = DoppelkopfDeal(hands, dealer=3, options=options)
    pass_all(deal)
    assert deal.pigs == ((2, "hyperschweinchen"), (1, "superschweinchen"), (0, "schweinchen"))
    while not deal.is_over:
        for viewer in range(4):
            known = deal.observation(viewer).pigs
            if mode == "silent":
                assert known == tuple(p for p in deal.pigs if p[0] == viewer)
            elif mode == "announced":
                assert known == deal.pigs
            else:  # first_played: a pig is known once its holder has played one card of it
                played_by = {
                    (s, c) for t in deal.tricks for s, c in zip(t.seats, t.cards, strict=True)
                }
                if deal.trick_play is not None:
                    trick = deal.trick_play.trick
                    played_by |= set(zip(trick.seats, trick.cards, strict=True))
                told = tuple(
                    (s, k)
                    for s, k in deal.pigs
                    if s == viewer or (s, pig_card(k, nines=nines)) in played_by
                )
                assert known == told
        seat = deal.to_move
        assert seat is not None
        deal.apply(rng.choice(deal.legal_actions()), seat)
    assert deal.score is not None
    assert sum(deal.score.augen.values()) == 240
    # Every pig card that was led or followed won against all other trumps of its trick.
    assert deal.trick_play is not None
    rank = {pig_card(k, nines=nines): i for i, (_, k) in enumerate(deal.pigs)}
    for t in deal.trick_play.tricks:
        pigs_in = [(rank[c], s) for s, c in zip(t.seats, t.cards, strict=True) if c in rank]
        if pigs_in:
            assert t.winner == min(pigs_in)[1]
