"""The PettingZoo AEC environments pass PettingZoo's own API and seed tests."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo environments need the 'rl' extra")

import numpy as np
from pettingzoo.test import api_test, seed_test

from kartentisch.interop.pettingzoo import (
    DoppelkopfEnv,
    SlobberhannesEnv,
    doppelkopf_env,
    slobberhannes_env,
)

ENVS: dict[str, Callable[[], Any]] = {
    "slobberhannes": lambda: slobberhannes_env(),
    "slobberhannes-3-revokes": lambda: slobberhannes_env({"players": 3, "revokes": "penalty"}),
    "slobberhannes-russian": lambda: slobberhannes_env({"preset": "russian"}),
    "doppelkopf-house": lambda: doppelkopf_env(),
    "doppelkopf-ddv": lambda: doppelkopf_env({"preset": "ddv"}),
    "doppelkopf-5": lambda: doppelkopf_env({"players": 5}),
}


@pytest.mark.parametrize("name", ENVS)
def test_pettingzoo_api_and_seed_tests(name: str) -> None:
    make = ENVS[name]
    with warnings.catch_warnings():
        # Dict observations with an action mask, as PettingZoo's own card games have.
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(make(), num_cycles=200)
        seed_test(make, num_cycles=200)


def _episode(env: Any, seed: int | None, rng: random.Random) -> tuple[list[int], dict[str, float]]:
    env.reset(seed=seed)
    actions: list[int] = []
    totals = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        mask = observation["action_mask"]
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        action = rng.choice(np.flatnonzero(mask).tolist())
        actions.append(action)
        env.step(action)
    return actions, totals


@pytest.mark.parametrize("make", [SlobberhannesEnv, DoppelkopfEnv])
def test_seeded_resets_repeat_the_deal(make: Callable[..., Any]) -> None:
    env = make()
    first = _episode(env, 11, random.Random(0))
    again = _episode(env, 11, random.Random(0))
    assert first == again
    env.reset(seed=11)
    dealt = env.table.deal.initial_hands
    env.reset()  # continues the seeded sequence: another deal
    assert env.table.deal.initial_hands != dealt
    other = make()
    other.reset(seed=11)
    other.reset()
    assert other.table.deal.initial_hands == env.table.deal.initial_hands


def test_rewards_add_up_to_the_scores() -> None:
    env = SlobberhannesEnv()
    _, totals = _episode(env, 3, random.Random(3))
    chips = env.table.deal.points()
    assert [totals[f"player_{s}"] for s in range(4)] == [-c for c in chips]
    assert sum(chips) >= 3  # first trick, Q♣, last trick: a chip each
    env = DoppelkopfEnv({"preset": "ddv"})
    _, totals = _episode(env, 3, random.Random(3))
    assert [totals[f"player_{s}"] for s in range(4)] == list(env.table.deal.points())


def test_five_players_dealer_sits_out() -> None:
    env = DoppelkopfEnv({"players": 5}, dealer=2)
    actions, totals = _episode(env, 5, random.Random(5))
    assert actions and totals["player_2"] == 0.0
    assert env.table.deal.playing == (0, 1, 3, 4)


def test_dealer_and_errors() -> None:
    env = SlobberhannesEnv(dealer=1)
    env.reset(seed=1)
    assert env.table.deal.dealer == 1 and env.agent_selection == "player_2"
    env.reset(seed=1, options={"dealer": 3})
    assert env.table.deal.dealer == 3 and env.agent_selection == "player_0"
    observation = env.observe("player_0")
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    with pytest.raises(ValueError):
        SlobberhannesEnv(dealer=4)
    wrapped = slobberhannes_env(render_mode="ansi")
    wrapped.reset(seed=2)
    assert "Q" in wrapped.render() or wrapped.render()
