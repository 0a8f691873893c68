"""The PettingZoo environments pass PettingZoo's own checks (API, seeds, rendering,
parallel API and seeds, state, performance benchmark)."""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo environments need the 'rl' extra")

import numpy as np
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    performance_benchmark,
    render_test,
    seed_test,
)
from pettingzoo.test.state_test import state_test
from pettingzoo.utils import wrappers

from kartentisch.interop.encoding import view_layout
from kartentisch.interop.pettingzoo import (
    DoppelkopfEnv,
    SlobberhannesEnv,
    doppelkopf_env,
    env,
    parallel_env,
    raw_env,
    slobberhannes_env,
)

#: The module (``pettingzoo.test`` shadows its name with the function).
benchmark_module = importlib.import_module("pettingzoo.test.performance_benchmark")

#: Dict observations with an action mask, as PettingZoo's own card games have.
_EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent")


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    with warnings.catch_warnings():
        for message in _EXPECTED_WARNINGS:
            warnings.filterwarnings("ignore", message=message)
        yield


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
    api_test(make(), num_cycles=200)
    seed_test(make, num_cycles=200)


GAME_OPTIONS = [
    ("slobberhannes", None),
    ("slobberhannes", {"players": 5, "revokes": "penalty"}),
    ("doppelkopf", None),
    ("doppelkopf", {"preset": "ddv", "players": 5}),
]


def _seeded(made: Any, seed: int) -> Any:
    """``made`` with its deals and its action spaces' samples drawn from ``seed``."""
    made.reset(seed=seed)
    for i, agent in enumerate(made.possible_agents):
        made.action_space(agent).seed(seed + i)
    return made


@pytest.mark.parametrize(("game", "options"), GAME_OPTIONS)
def test_render_test(game: str, options: Any, capsys: pytest.CaptureFixture[str]) -> None:
    def make(render_mode: str | None = None) -> Any:
        return _seeded(env(game, options, render_mode=render_mode), 4)

    render_test(make)
    printed = capsys.readouterr().out  # "human": five renders printed, None returned
    assert printed.count("\n") >= 5
    made = make("ansi")
    assert made.render() == made.unwrapped._render_text()
    assert made.metadata["render_modes"] == ["human", "ansi"]


@pytest.mark.parametrize(("game", "options"), GAME_OPTIONS)
def test_parallel_api_and_seed_tests(game: str, options: Any) -> None:
    parallel_api_test(_seeded(parallel_env(game, options), 5), num_cycles=400)
    # Unmasked random actions: an illegal one ends the deal (TerminateIllegalWrapper).
    parallel_seed_test(lambda: parallel_env(game, options), num_cycles=400)


@pytest.mark.parametrize(("game", "options"), GAME_OPTIONS)
def test_state_test(game: str, options: Any) -> None:
    made = _seeded(env(game, options), 6)
    state_test(made, _seeded(parallel_env(game, options), 6))
    made.reset(seed=6)
    state = made.state()
    raw = made.unwrapped
    assert made.state_space.contains(state)
    table = raw.table
    n = raw.num_seats
    layout = view_layout(table.layout, n, public=True, private="all")
    assert state.shape == raw.state_space.shape == (layout.size,)
    views = layout.views(state)
    # Every seat's hand (absolute rows), and the public blocks as seat 0 sees them.
    for seat in range(n):
        own = table.layout.views(table.encode(seat))
        assert np.array_equal(views["hand"][seat], own["hand"])
        assert np.array_equal(views["dealer"], np.roll(own["dealer"], seat))
    assert views["hand"].sum() == sum(len(h) for h in table.deal.initial_hands)


def test_performance_benchmark(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """PettingZoo's benchmark, its clock replaced by one that ticks per call, its random
    source seeded: it plays 300 cycles (whole deals, with resets) whatever the machine."""
    ticks = iter(range(10**6))

    class Clock:
        @staticmethod
        def time() -> float:
            return next(ticks) / 60  # 5 s after 300 calls

    monkeypatch.setattr(benchmark_module, "time", Clock)
    monkeypatch.setattr(benchmark_module, "random", random.Random(8))
    for game in ("slobberhannes", "doppelkopf"):
        made = _seeded(env(game), 8)
        resets = 0
        original = made.reset

        def counted(*args: Any, _original: Any = original, **kwargs: Any) -> None:
            nonlocal resets
            resets += 1
            _original(*args, **kwargs)

        made.reset = counted
        performance_benchmark(made)
        assert resets >= 2  # several whole deals were played
    out = capsys.readouterr().out
    assert out.count("turns per second") == 2 and "Finished performance benchmark" in out


def test_entry_points_and_illegal_actions() -> None:
    bare = raw_env("doppelkopf", {"preset": "ddv"})
    assert isinstance(bare, DoppelkopfEnv) and bare.options.scoring == "ddv"
    with pytest.raises(ValueError, match="game must be one of"):
        raw_env("skat")
    wrapped = env("slobberhannes", dealer=3)
    assert isinstance(wrapped, wrappers.OrderEnforcingWrapper)
    assert isinstance(wrapped.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(wrapped.env.env, wrappers.TerminateIllegalWrapper)
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    mask = wrapped.observe(agent)["action_mask"]
    wrapped.step(int(np.flatnonzero(mask == 0)[0]))  # illegal: the deal ends
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[agent] == -4.0  # the lowest score of a deal
    assert all(r == 0 for a, r in wrapped.rewards.items() if a != agent)
    for _ in wrapped.agent_iter():
        wrapped.step(None)
    assert wrapped.agents == []
    legal_run = env("doppelkopf")
    legal_run.reset(seed=1)
    before = legal_run.unwrapped.table.history[:]
    legal_run.step(
        int(np.flatnonzero(legal_run.observe(legal_run.agent_selection)["action_mask"])[0])
    )
    assert len(legal_run.unwrapped.table.history) == len(before) + 1


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [
        ("kartentisch.interop.pettingzoo", "pettingzoo", "rl"),
        ("kartentisch.interop.pettingzoo", "gymnasium", "rl"),
        ("kartentisch.interop.openspiel", "pyspiel", "openspiel"),
    ],
)
def test_missing_extra_is_named(module: str, blocked: str, extra: str) -> None:
    code = (
        "import sys\n"
        f"sys.modules[{blocked!r}] = None\n"
        "try:\n"
        f"    import {module}\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
        "else:\n"
        "    raise SystemExit('imported')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"pip install 'kartentisch[{extra}]'" in done.stdout


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
    with pytest.raises(ValueError, match="not legal"):  # the bare class raises
        env.step(illegal)
    with pytest.raises(ValueError):
        SlobberhannesEnv(dealer=4)
    wrapped = slobberhannes_env(render_mode="ansi")
    wrapped.reset(seed=2)
    assert "Q" in wrapped.render() or wrapped.render()
