"""The PIMC bot, its samples and the duplicate tournament."""

from __future__ import annotations

import random

import pytest

from kartentisch.bots import make_bot
from kartentisch.bots.slobberhannes_strong import StrongSlobberhannesBot
from kartentisch.errors import KartentischError
from kartentisch.games.slobberhannes.deal import SlobberhannesDeal
from kartentisch.search.determinize import InfoSet
from kartentisch.tournament import run_tournament


def test_samples_respect_sizes_voids_and_what_was_seen() -> None:
    rng = random.Random(2)
    for seed in range(30):
        deal = SlobberhannesDeal.from_seed(seed, dealer=0)
        for _ in range(rng.randrange(4, 24)):
            deal.apply(rng.choice(deal.legal_actions()))
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        info = InfoSet(obs)
        played = {c for t in (*obs.tricks, obs.trick) for c in t.cards}
        for _ in range(5):
            hands = info.sample_hands(rng)
            assert hands[seat] == obs.hand
            assert [len(h) for h in hands] == list(obs.hand_sizes)
            dealt = [c for h in hands for c in h]
            assert len(set(dealt)) == len(dealt)
            assert set(dealt) | played == set(obs.options.deck())
            for other, hand in enumerate(hands):
                assert not {c.suit for c in hand} & info.voids[other]


def test_strong_bot_plays_legal_cards_and_is_seeded() -> None:
    def play(seed: int) -> list[str]:
        deal = SlobberhannesDeal.from_seed(seed, dealer=1)
        bots = [StrongSlobberhannesBot(seed * 10 + s, samples=8, min_samples=2) for s in range(4)]
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            card = bots[seat].choose(obs)
            assert card in obs.legal_actions
            deal.apply(card)
        return [str(a) for a in deal.actions]

    assert play(3) == play(3)


def test_strong_bot_never_revokes_when_revokes_are_merely_penalised() -> None:
    deal = SlobberhannesDeal.from_seed(8, dealer=0, options={"revokes": "penalty"})
    bot = make_bot("slobberhannes", "strong", 1)
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        deal.apply(bot.choose(deal.observation(seat)))
    assert not any(e.reason == "revoke" for e in deal.penalties())


def test_tournament_is_the_same_with_one_or_two_processes() -> None:
    bots = ["heuristic", "random", "random", "random"]
    one = run_tournament("slobberhannes", bots, deals=12, seed=5, jobs=1)
    two = run_tournament("slobberhannes", bots, deals=12, seed=5, jobs=2)
    assert one.to_dict() == two.to_dict()
    assert one.row("heuristic").samples == 12 and one.row("random").seats == 3


def test_strong_beats_heuristic_in_a_small_duplicate_match() -> None:
    result = run_tournament(
        "slobberhannes", ["strong", "heuristic", "heuristic", "heuristic"], deals=8, seed=3
    )
    assert result.row("strong").mean < result.row("heuristic").mean


def test_tournament_refuses_unknown_bots_and_games() -> None:
    with pytest.raises(KartentischError, match="unknown bot level 'genius'"):
        run_tournament("slobberhannes", ["genius"] * 4, deals=1)
    with pytest.raises(KartentischError, match="tournaments are available for"):
        run_tournament("chess", ["random"] * 2, deals=1)
