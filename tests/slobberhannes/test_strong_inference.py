"""The strong bot's inference from play, its expert level, and what it may see."""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kartentisch.bots import LEVELS, make_bot
from kartentisch.bots.slobberhannes import HeuristicSlobberhannesBot, _Reckoner
from kartentisch.bots.slobberhannes_strong import StrongSlobberhannesBot
from kartentisch.games.slobberhannes.deal import SlobberhannesDeal, SlobberhannesObservation
from kartentisch.search.determinize import InfoSet
from kartentisch.search.slobberhannes_inference import PlayModel, weighted_draws
from kartentisch.search.slobberhannes_solver import Position, solve, solve_moves_counted
from kartentisch.search.slobberhannes_trick_model import TrickModel


def _small(seed: int, *, inference: bool = True) -> StrongSlobberhannesBot:
    """A cheap strong bot for tests: few samples and candidates."""
    return StrongSlobberhannesBot(
        seed, samples=8, min_samples=2, candidates=24, inference=inference
    )


def _random_point(seed: int, players: int, plays: int) -> SlobberhannesDeal:
    """A deal with ``plays`` random cards played (fewer if it ends first)."""
    rng = random.Random(seed)
    deal = SlobberhannesDeal.from_seed(seed, dealer=seed % players, options={"players": players})
    for _ in range(plays):
        if deal.is_over:
            break
        actions = deal.legal_actions()
        if deal.to_move is not None and len(deal.hand(deal.to_move)) <= 1:
            break
        deal.apply(rng.choice(actions))
    return deal


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(3, 7),
    plays=st.integers(1, 40),
)
def test_the_model_scores_past_plays_as_the_heuristic_bot_does(
    seed: int, players: int, plays: int
) -> None:
    """Every past decision, rebuilt from the public tricks, scores as the bot scored it then."""
    rng = random.Random(seed)
    deal = SlobberhannesDeal.from_seed(seed, dealer=seed % players, options={"players": players})
    seen: list[tuple[SlobberhannesObservation, int]] = []
    for _ in range(plays):
        if deal.is_over:
            break
        seat = deal.to_move
        assert seat is not None
        seen.append((deal.observation(seat), seat))
        deal.apply(rng.choice(deal.legal_actions()))
    if deal.is_over or deal.to_move is None:
        return
    watcher = deal.to_move
    model = PlayModel(deal.observation(watcher))
    others = [(obs, seat) for obs, seat in seen if seat != watcher]
    assert len(model.decisions) == len(others)
    for decision, (obs, seat) in zip(model.decisions, others, strict=True):
        assert decision.seat == seat
        reckoner = _Reckoner(obs)
        for card in obs.hand:
            assert decision.score(card, obs.hand) == reckoner.score(card)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(3, 7), plays=st.integers(1, 40))
def test_weighted_samples_keep_to_the_observation(seed: int, players: int, plays: int) -> None:
    """The deals the bot solves have the right sizes, keep the voids and the cards seen."""
    deal = _random_point(seed, players, plays)
    if deal.is_over:
        return
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    info = InfoSet(obs)
    bot = StrongSlobberhannesBot(seed, samples=6, candidates=20)
    played = {c for t in (*obs.tricks, obs.trick) for c in t.cards}
    draws = list(bot._draws(info, obs))
    assert len(draws) == 6
    for hands in draws:
        assert hands[seat] == obs.hand
        assert [len(h) for h in hands] == list(obs.hand_sizes)
        dealt = [c for h in hands for c in h]
        assert len(set(dealt)) == len(dealt)
        assert set(dealt) | played == set(obs.options.deck())
        for other, hand in enumerate(hands):
            assert not {c.suit for c in hand} & info.voids[other]


def test_the_true_deal_is_likely_when_the_others_play_the_heuristic() -> None:
    """Heuristic opponents' plays make the true hands more likely than most samples."""
    better = 0
    trials = 0
    for seed in range(12):
        deal = SlobberhannesDeal.from_seed(seed, dealer=0)
        bots = [HeuristicSlobberhannesBot(seed * 4 + s) for s in range(4)]
        for _ in range(14):
            seat = deal.to_move
            assert seat is not None
            deal.apply(bots[seat].choose(deal.observation(seat)))
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        model = PlayModel(obs)
        truth = model.log_weight([deal.hand(s) for s in range(4)])
        info = InfoSet(obs)
        rng = random.Random(seed)
        sampled = sorted(model.log_weight(info.sample_hands(rng)) for _ in range(40))
        trials += 1
        better += truth >= sampled[len(sampled) // 2]
        assert math.isfinite(truth)
    assert better >= trials * 3 // 4


def test_weighted_draws_follow_the_weights() -> None:
    rng = random.Random(1)
    draws = weighted_draws([0.0, math.log(3.0), -1e9], 4000, rng)
    assert 2 not in draws
    assert 0.7 < draws.count(1) / len(draws) < 0.8
    assert weighted_draws([-5000.0, -5001.0], 3, random.Random(2))  # no underflow


def _choices(bot_of: dict[int, StrongSlobberhannesBot], seed: int) -> list[str]:
    deal = SlobberhannesDeal.from_seed(seed, dealer=seed % 4)
    heuristic = HeuristicSlobberhannesBot(seed)
    out = []
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        bot = bot_of.get(seat)
        card = bot.choose(obs) if bot is not None else heuristic.choose(obs)
        assert card in obs.legal_actions
        if bot is not None:
            out.append(str(card))
        deal.apply(card)
    return out


def test_inference_and_uniform_bots_are_seeded() -> None:
    for inference in (True, False):
        first = _choices({0: _small(5, inference=inference)}, 3)
        again = _choices({0: _small(5, inference=inference)}, 3)
        assert first == again


def test_the_bot_decides_from_its_observation_only() -> None:
    """Two deals that differ only in cards the seat cannot see give the same choice.

    Seats 1 and 2 swap two cards of one suit that neither has played yet, and
    the same cards are played up to a decision of seat 0: its observation is
    the same, and so is its choice.
    """
    compared = 0
    for seed in range(6):
        base = SlobberhannesDeal.from_seed(seed, dealer=seed % 4)
        heuristic = HeuristicSlobberhannesBot(seed)
        rng = random.Random(seed)
        stop = rng.randrange(4, 20)
        while len(base.actions) < stop or base.to_move != 0:
            seat = base.to_move
            assert seat is not None
            base.apply(heuristic.choose(base.observation(seat)))
        hands = [list(base.hand(s)) for s in range(4)]
        pairs = [(a, b) for a in hands[1] for b in hands[2] if a.suit == b.suit]
        if not pairs:
            continue
        a, b = pairs[0]
        initial = [list(h) for h in base.deal_record()["hands"]]
        initial[1][initial[1].index(str(a))] = str(b)
        initial[2][initial[2].index(str(b))] = str(a)
        other = SlobberhannesDeal(initial, dealer=base.dealer)
        for action in base.actions:
            other.apply(action)
        obs = base.observation(0)
        assert other.observation(0) == obs
        assert other.hand(1) != base.hand(1)
        one = _small(seed).choose(obs)
        two = _small(seed).choose(other.observation(0))
        assert one == two
        compared += 1
    assert compared >= 3


def test_the_expert_level_exists_and_plays_legal_cards() -> None:
    assert "expert" in LEVELS["slobberhannes"]
    bot = make_bot("slobberhannes", "expert", 7)
    assert isinstance(bot, StrongSlobberhannesBot) and bot.name == "expert"
    strong = StrongSlobberhannesBot(7)
    assert bot.node_budget > strong.node_budget and bot.samples > strong.samples
    deal = SlobberhannesDeal.from_seed(2, dealer=1)
    # The cheap late decisions: the last four tricks, after heuristic play.
    heuristic = HeuristicSlobberhannesBot(2)
    while len(deal.hand(deal.to_move or 0)) > 4:
        seat = deal.to_move
        assert seat is not None
        deal.apply(heuristic.choose(deal.observation(seat)))
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        card = bot.choose(obs)
        assert card in obs.legal_actions
        deal.apply(card)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), plays=st.integers(0, 26))
def test_the_trick_model_plays_the_heuristic_to_the_end_of_the_trick(seed: int, plays: int) -> None:
    """With every hand known, each card's value is the engine's: heuristic cards to the
    end of the trick (where the bot's choice is unique), then the exact solution."""
    deal = _random_point(seed, 4, plays)
    if deal.is_over:
        return
    seat = deal.to_move
    assert seat is not None
    position = Position.of(deal)
    model = TrickModel(deal.observation(seat))
    values, _ = model.values(position)
    if len(deal.observation(seat).trick.cards) == 3:
        moves, _ = solve_moves_counted(position)
        assert values == {card: value[seat] for card, value in moves.items()}
        return
    assert set(values) == set(position.following())
    for card, value in values.items():
        line = deal.copy()
        line.apply(card)
        unique = True
        while line.to_move is not None and line.observation(line.to_move).trick.cards:
            mover = line.to_move
            obs = line.observation(mover)
            led = obs.trick.cards[0].suit
            options = [c for c in obs.legal_actions if c.suit == led] or list(obs.legal_actions)
            reckoner = _Reckoner(obs)
            scores = sorted((reckoner.score(c), c) for c in options)
            if len(scores) > 1 and scores[0][0] == scores[1][0]:
                unique = False  # the bot would break the tie at random
            line.apply(scores[0][1])
        if not unique:
            continue
        paid = line.points()[seat] - deal.points()[seat]
        rest = solve(line).values[seat] if not line.is_over else 0
        assert value == paid + rest
