"""The strong Doppelkopf bot's declarations and announcements, estimated over sampled deals."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kartentisch.bots import LEVELS, make_bot
from kartentisch.bots.doppelkopf import HeuristicDoppelkopfBot
from kartentisch.bots.doppelkopf_bidding import (
    answer_candidates,
    choose_announcement,
    choose_answer,
    choose_declaration,
    declaration_candidates,
)
from kartentisch.bots.doppelkopf_strong import StrongDoppelkopfBot
from kartentisch.cards import Card
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions
from kartentisch.games.doppelkopf.observation import DoppelkopfObservation
from kartentisch.games.doppelkopf.question import Answer, Answers

from .helpers import hands_with

SOLO_HAND = "10H 10H QC QC QS QS QH QH QD QD"
WEAK_HAND = "JH JD KD 10C 10C KC 10S 10S KH KH"
SURE_RE = "QC 10H 10H QS QS QH QH QD JC JC"
HOPELESS = "AS KS KS 10S AH KH KH 10C KC KC"


def _to_round(deal: DoppelkopfDeal, seat: int, round_: str) -> DoppelkopfObservation:
    """Everyone passes until ``seat`` is asked in declaration round ``round_``."""
    while True:
        obs = deal.observation(deal.to_move or 0)
        if deal.to_move == seat and obs.declaration_round == round_:
            return obs
        assert deal.phase == "declare"
        deal.apply(Call("pass"), deal.to_move)


def _first_lead(hand: str, seed: int, options: DoppelkopfOptions | None = None) -> DoppelkopfDeal:
    """A deal in which seat 0 holds ``hand`` and is about to lead (everyone passed)."""
    deal = DoppelkopfDeal(hands_with({0: hand}, seed=seed, options=options), dealer=3)
    while deal.phase == "declare":
        deal.apply(Call("pass"), deal.to_move)
    assert deal.to_move == 0
    return deal


def test_a_sure_solo_hand_plays_a_solo_and_a_weak_hand_passes() -> None:
    deal = DoppelkopfDeal(hands_with({0: SOLO_HAND}, seed=4), dealer=3)
    obs = _to_round(deal, 0, "solo")
    choice, means = choose_declaration(obs, random.Random(1), Call("pass"), samples=6)
    assert isinstance(choice, Call) and choice.word == "solo", means
    assert means[str(choice)] > means["pass"] + 100
    deal = DoppelkopfDeal(hands_with({0: WEAK_HAND}, seed=4), dealer=3)
    obs = _to_round(deal, 0, "solo")
    bot = StrongDoppelkopfBot(1, declare_samples=6)
    assert bot.choose(obs) == Call("pass")


def test_a_borderline_solo_is_decided_by_its_estimate() -> None:
    """A hand the screen lets through is estimated against passing."""
    hand = "10H QC QS QS QH QD JC AD AC AS"
    deal = DoppelkopfDeal(hands_with({0: hand}, seed=2), dealer=3)
    obs = _to_round(deal, 0, "solo")
    candidates = declaration_candidates(obs, Call("pass"))
    assert Call("pass") in candidates and any(c.word == "solo" for c in candidates)
    choice, means = choose_declaration(obs, random.Random(5), Call("pass"), samples=6)
    assert set(means) == {str(c) for c in candidates}
    assert choice == max(candidates, key=lambda c: means[str(c)])


def test_a_sure_game_announces_and_a_hopeless_one_does_not() -> None:
    deal = _first_lead(SURE_RE, seed=3)
    said, means = choose_announcement(deal.observation(0), random.Random(2), samples=12)
    assert said is not None and said.word in ("re", "no90", "no60", "no30", "schwarz"), means
    deal = _first_lead(HOPELESS, seed=3)
    said, means = choose_announcement(deal.observation(0), random.Random(2), samples=12)
    assert said is None, means
    assert means[""] <= 0


def test_the_bot_answers_the_other_side_when_it_pays() -> None:
    """After the other side's Re, Kontra is said with a sure hand, not with a hopeless one."""
    for hand, answers in (("10H 10H QS QS QH QH QD QD JC JC", True), (HOPELESS, False)):
        deal = _first_lead(hand, seed=6)
        re_seat = next(s for s in (1, 2, 3) if Card("QC") in deal.hand(s))
        deal.apply(Call("re"), re_seat)
        obs = deal.observation(0)
        assert Call("kontra") in obs.legal_actions
        said, means = choose_announcement(obs, random.Random(3), samples=12)
        assert (said is not None) == answers, means
        if answers:
            assert said is not None and said.word in ("kontra", "no90", "no60", "no30", "schwarz")


def test_decisions_use_only_the_observation() -> None:
    """Two deals that look the same from seat 0 (other hands differ) get the same choice."""
    for hand in (SOLO_HAND, "10H QC QS QS QH QD JC AD AC AS"):
        choices = []
        for rest in (11, 12):
            deal = DoppelkopfDeal(hands_with({0: hand}, seed=rest), dealer=3)
            obs = _to_round(deal, 0, "solo")
            bot = StrongDoppelkopfBot(7, declare_samples=5)
            choices.append((bot.choose(obs), bot.last_estimates))
        assert choices[0] == choices[1]
    seen = []
    for rest in (21, 22):
        deal = _first_lead(SURE_RE, seed=rest)
        bot = StrongDoppelkopfBot(7, announce_samples=6)
        seen.append((bot.choose(deal.observation(0)), bot.last_estimates))
    assert seen[0] == seen[1]


def test_the_same_seed_decides_the_same() -> None:
    deal = DoppelkopfDeal(hands_with({0: "10H QC QS QS QH QD JC AD AC AS"}, seed=9), dealer=3)
    obs = _to_round(deal, 0, "solo")
    runs = []
    for _ in range(2):
        bot = StrongDoppelkopfBot(13, declare_samples=5)
        runs.append((bot.choose(obs), bot.last_estimates))
    assert runs[0] == runs[1]
    obs = _first_lead(SURE_RE, seed=5).observation(0)
    a = choose_announcement(obs, random.Random(4), samples=6)
    b = choose_announcement(obs, random.Random(4), samples=6)
    assert a == b


def test_the_old_declarations_stay_reachable() -> None:
    deal = DoppelkopfDeal(hands_with({0: "10H QC QS QS QH QD JC AD AC AS"}, seed=2), dealer=3)
    obs = _to_round(deal, 0, "solo")
    old = StrongDoppelkopfBot(1, bidding=False)
    assert old.choose(obs) == HeuristicDoppelkopfBot(1).choose(obs)


def test_the_expert_level_exists() -> None:
    assert LEVELS["doppelkopf"] == ("random", "heuristic", "strong", "expert")
    bot = make_bot("doppelkopf", "expert", 1)
    assert bot.name == "expert" and isinstance(bot, StrongDoppelkopfBot)
    assert bot.declare_samples > StrongDoppelkopfBot().declare_samples


def test_the_strong_bot_plays_ddv_deals_legally() -> None:
    options = DoppelkopfOptions.preset_named("ddv")
    deal = DoppelkopfDeal.from_seed(3, dealer=0, options=options)
    bots = [StrongDoppelkopfBot(s, declare_samples=3, announce_samples=3) for s in range(4)]
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        action = bots[seat].choose(deal.observation(seat))
        assert action in deal.legal_actions(seat)
        deal.apply(action, seat)


def test_the_armut_answer_is_estimated() -> None:
    from kartentisch.bots.doppelkopf_bidding import choose_armut_answer

    heuristic = HeuristicDoppelkopfBot(1)
    deal = DoppelkopfDeal.from_seed(27, dealer=0)
    while deal.phase != "armut_answer":
        seat = deal.to_move
        assert seat is not None
        deal.apply(heuristic.choose(deal.observation(seat)), seat)
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    choice, means = choose_armut_answer(obs, random.Random(2), Call("refuse"), samples=6)
    assert choice in obs.legal_actions
    assert set(means) == {"accept", "refuse"}
    assert choice == max((Call("accept"), Call("refuse")), key=lambda c: means[str(c)])


def test_the_armut_exchange_is_estimated_among_valid_sets() -> None:
    from kartentisch.bots.doppelkopf_bidding import choose_exchange, exchange_candidates

    from .test_hochzeit_armut import ARMUT_UP, act, armut

    deal, _sc, _give, _back = armut(ARMUT_UP)  # Ben (1) is poor, Carla (2) takes it
    act(deal, "accept")
    for phase, seat, word in (("armut_give", 1, "give"), ("armut_return", 2, "return")):
        assert (deal.phase, deal.to_move) == (phase, seat)
        obs = deal.observation(seat)
        candidates = exchange_candidates(obs)
        # The engine's offers and more: every one a valid exchange of this table.
        assert set(obs.legal_actions) <= set(candidates) and len(candidates) >= 2
        for call in candidates:
            assert call.word == word
            deal.check(call, seat)
        choice, means = choose_exchange(obs, random.Random(2), obs.legal_actions[0], samples=6)
        # Every candidate played out on the same six deals drawn for what the seat
        # knows (the partner: the cards given came from the poor player).
        assert means.deals == 6 and set(means) == {str(c) for c in candidates}
        assert means[str(choice)] == max(means.values())
        assert choose_exchange(obs, random.Random(2), obs.legal_actions[0], samples=6) == (
            choice,
            means,
        )
        bot = StrongDoppelkopfBot(5, declare_samples=4)
        action = bot.choose(obs)
        assert isinstance(action, Call) and action in candidates and bot.last_estimates.deals == 4
        deal.apply(action, seat)
    assert deal.phase == "play" and deal.re_party == {1, 2}


@pytest.mark.parametrize("seed", [0, 27, 48, 61])
def test_strong_bots_play_armut_deals_to_the_end(seed: int) -> None:
    # Seeds whose deal the strong bots turn into an Armut (house rules): every answer,
    # exchange, word and card the bots choose is one the engine accepts.
    deal = DoppelkopfDeal.from_seed(seed, dealer=0)
    bots = [StrongDoppelkopfBot(s, declare_samples=2, announce_samples=2) for s in range(4)]
    phases = set()
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        phases.add(deal.phase)
        deal.apply(bots[seat].choose(deal.observation(seat)), seat)
    assert "armut_answer" in phases
    assert deal.outcome in ("played", "redeal")


# -- the one declaration question (a hint for a person) ---------------------------------

MARRIAGE_HAND = "QC QC 10H JD AD AC 10C KS AS KH"


def test_the_question_is_answered_for_the_rounds_still_to_come() -> None:
    # Both Q♣, asked in the solo round: the Hochzeit is said a round later, and "gesund"
    # would be a silent Hochzeit. The estimates weigh them all at once.
    deal = DoppelkopfDeal(hands_with({0: MARRIAGE_HAND}, seed=3), dealer=3)
    obs = _to_round(deal, 0, "solo")
    answers = Answers()
    question = answers.question(deal, 0)
    assert question is not None and question.gesund
    candidates = answer_candidates(obs, question)
    assert candidates[0] == Answer()
    hochzeit = [a for a in candidates if a.reservation and a.reservation.word == "hochzeit"]
    assert [a.reservation for a in hochzeit] == [
        c for c in question.reservations if c.word == "hochzeit"
    ]
    assert not any(a.reservation and a.reservation.word == "solo" for a in candidates)
    answer, means = choose_answer(obs, random.Random(2), question, samples=8)
    assert set(means) == {str(a) for a in candidates} and means.deals == 8
    assert answer == max(candidates, key=lambda a: means[str(a)])
    assert answer.reservation is not None and answer.reservation.word == "hochzeit"
    assert means[str(answer)] > means["gesund"]
    # The table takes it: pass now, the Hochzeit in its round.
    answer, action = answers.check(deal, 0, answer)
    assert action == Call("pass")


def test_a_scharfe_goes_with_each_reservation_worth_weighing() -> None:
    options = DoppelkopfOptions(scharfe=True)
    hand = "AH AH QC QS QS QH QH QD QD JC"
    deal = DoppelkopfDeal(hands_with({0: hand}, seed=1, options=options), dealer=3)
    obs = _to_round(deal, 0, "scharfe")
    question = Answers().question(deal, 0)
    assert question is not None and question.scharfe
    candidates = answer_candidates(obs, question)
    solos = [a.reservation for a in candidates if a.scharfe is None and a.reservation]
    assert solos and all(c.word == "solo" for c in solos)
    for scharfe in question.scharfe:
        assert Answer(scharfe) in candidates
        assert all(Answer(scharfe, c) in candidates for c in solos)
    assert len(candidates) == 1 + len(solos) + len(question.scharfe) * (1 + len(solos))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), ddv=st.booleans())
@example(seed=220, ddv=False)  # a Scharfe declared before: the draws give it both ♥A
def test_every_answer_the_bot_gives_is_one_the_table_takes(seed: int, ddv: bool) -> None:
    options = DoppelkopfOptions.preset_named("ddv") if ddv else DoppelkopfOptions()
    deal = DoppelkopfDeal.from_seed(seed, dealer=seed % 4, options=options)
    answers = Answers()
    while deal.phase == "declare":
        seat = deal.to_move
        assert seat is not None
        question = answers.question(deal, seat)
        if question is None:
            action = answers.forced(deal, seat) or Call("pass")
            deal.apply(action, seat)
            continue
        bot = StrongDoppelkopfBot(seed + seat, declare_samples=3)
        answer = bot.answer(deal.observation(seat), question)
        again = StrongDoppelkopfBot(seed + seat, declare_samples=3)
        assert again.answer(deal.observation(seat), question) == answer  # the seed decides
        if len(answer_candidates(deal.observation(seat), question)) > 1:
            assert str(answer) in bot.last_estimates
        answer, action = answers.check(deal, seat, answer)
        deal.apply(action, seat)
        answers.keep(deal, seat, answer)
