"""The Doppelkopf bots: always legal, seeded, and the heuristic one plays sensibly."""

from __future__ import annotations

import random

import pytest

from kartentisch.bots import make_bot
from kartentisch.bots.doppelkopf import HeuristicDoppelkopfBot, solo_strength
from kartentisch.cards import Card, parse_cards
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfMatch, DoppelkopfOptions

from .helpers import hands_with


class PassingRandom:
    """Passes every declaration, refuses an Armut, plays random legal cards."""

    name = "passing"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs):  # type: ignore[no-untyped-def]
        legal = list(obs.legal_actions)
        if Call("pass") in legal:
            return Call("pass")
        if obs.phase == "armut_answer":
            return Call("refuse")
        cards = [a for a in legal if isinstance(a, Card)]
        return self.rng.choice(cards or legal)


def play_session(
    options: DoppelkopfOptions, seed: int, bots: dict[int, object], games: int
) -> DoppelkopfMatch:
    match = DoppelkopfMatch(options, seed=seed, first_dealer=0)
    for _ in range(games):
        deal = match.deal
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            action = bots[seat].choose(deal.observation(seat))  # type: ignore[attr-defined]
            assert action in deal.legal_actions(seat)
            match.apply(action, seat)
        match.start_deal()
    return match


@pytest.mark.parametrize("preset", ["house", "ddv"])
def test_heuristic_beats_random_card_play(preset: str) -> None:
    options = DoppelkopfOptions.preset_named(preset)
    ours = theirs = 0
    for seed in range(12):
        bots = {
            s: make_bot("doppelkopf", "heuristic", seed * 10 + s)
            if s % 2 == 0
            else PassingRandom(s)
            for s in range(4)
        }
        totals = play_session(options, seed, bots, 6).totals()
        ours += totals[0] + totals[2]
        theirs += totals[1] + totals[3]
    assert ours > theirs


def test_random_bots_play_whole_sessions_in_every_mode() -> None:
    for options in (
        DoppelkopfOptions(players=5, table_mode=True),
        DoppelkopfOptions.preset_named("ddv", players=5),
    ):
        bots = {s: make_bot("doppelkopf", "random", s) for s in range(5)}
        match = play_session(options, 3, bots, 4)
        assert len(match.sheet.rows) >= 1 or match.sheet.failed_deals


def test_bots_are_seeded() -> None:
    def run() -> tuple[int, ...]:
        bots = {s: make_bot("doppelkopf", "heuristic", s) for s in range(4)}
        return play_session(DoppelkopfOptions(), 5, bots, 3).totals()

    assert run() == run()


def until_asked(deal: DoppelkopfDeal, round_name: str) -> None:
    """Everyone passes until seat 0 is asked in the declaration round ``round_name``."""
    while not (deal.to_move == 0 and deal.declaration_round == round_name):
        deal.apply(Call("pass"))


def test_heuristic_declares_hochzeit_armut_and_strong_soli() -> None:
    bot = HeuristicDoppelkopfBot(1)
    married = DoppelkopfDeal(hands_with({0: "QC QC AS KS 10S AH KH KC"}, seed=2), dealer=3)
    until_asked(married, "solo")
    assert bot.choose(married.observation(0)) == Call("pass")
    until_asked(married, "marriage")
    assert bot.choose(married.observation(0)) == Call("hochzeit", "first_trick")
    poor = DoppelkopfDeal(hands_with({0: "JD AS AS 10S KS AC AC KC KH AH"}, seed=2), dealer=3)
    until_asked(poor, "marriage")
    assert bot.choose(poor.observation(0)) == Call("armut")
    hand = "10H 10H QC QC QS QS QH QH QD QD"
    strong = DoppelkopfDeal(hands_with({0: hand}, seed=2), dealer=3)
    until_asked(strong, "solo")
    choice = bot.choose(strong.observation(0))
    assert isinstance(choice, Call) and choice.word == "solo"
    assert solo_strength(parse_cards(hand), "trump", strong.observation(0)) >= 9


def test_heuristic_announces_with_a_strong_hand() -> None:
    bot = HeuristicDoppelkopfBot(1)
    hand = "10H 10H QC QS QS QH JC JS AC AS"
    deal = DoppelkopfDeal(hands_with({0: hand}, seed=4), dealer=3)
    while deal.phase == "declare":
        deal.apply(Call("pass"))
    action = bot.choose(deal.observation(0))
    assert action == Call("re")
