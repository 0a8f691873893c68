"""The vector environments: the same deals as the scalar PettingZoo environment per
index and seed, same-step autoreset, legal masks, rewards, and the compiled
Slobberhannes games equal to the Python reference."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the vector environments are tested with the 'rl' extra")

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmark_scripts import load_benchmark
from kartentisch.interop.pettingzoo import TrickGameEnv, raw_env
from kartentisch.interop.vector import (
    DoppelkopfVectorEnv,
    SlobberhannesVectorEnv,
    VectorEnv,
    compiled_available,
)

from .compiled import (
    SLOBBERHANNES_OPTIONS,
    needs_compiled_doppelkopf,
    needs_compiled_slobberhannes,
    step_alike,
)

BACKENDS = ["python", pytest.param("c", marks=needs_compiled_slobberhannes)]


def make(game: str, num: int, options: Any, backend: str, **kwargs: Any) -> VectorEnv:
    if game == "slobberhannes":
        return SlobberhannesVectorEnv(num, options, backend=backend, **kwargs)  # type: ignore[arg-type]
    return DoppelkopfVectorEnv(num, options, backend=backend, **kwargs)  # type: ignore[arg-type]


def play_against_scalar(envs: VectorEnv, game: str, options: Any, seed: int, steps: int) -> int:
    """Step ``envs`` with random legal actions beside one scalar environment per index
    (seeded ``seed + i``, later deals by plain ``reset()``); compare every step.
    Returns the number of deals that ended."""
    dealer = envs.dealer
    scalars: list[TrickGameEnv] = []
    for i in range(envs.num_envs):
        scalar = raw_env(game, options, dealer=dealer)
        scalar.reset(seed=seed + i)
        scalars.append(scalar)
    obs, _ = envs.reset(seed=seed)
    ended = 0
    for step in range(steps + 1):
        for i, scalar in enumerate(scalars):
            agent = scalar.agent_selection
            seat = int(agent.split("_")[1])
            assert obs["to_move"][i] == seat, (step, i)
            own = scalar.observe(agent)
            np.testing.assert_array_equal(obs["observation"][i], own["observation"])
            np.testing.assert_array_equal(obs["action_mask"][i], own["action_mask"])
        if step == steps:
            break
        actions = envs.sample_actions()
        obs, rewards, terminations, truncations, _ = envs.step(actions)
        assert not truncations.any()
        for i, scalar in enumerate(scalars):
            scalar.step(int(actions[i]))
            expected = [scalar.rewards[a] for a in scalar.possible_agents]
            np.testing.assert_allclose(rewards[i], expected)
            over = all(scalar.terminations.values())
            assert bool(terminations[i]) == over, (step, i)
            if over:
                ended += 1
                scalar.reset()
    return ended


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("options", SLOBBERHANNES_OPTIONS)
def test_slobberhannes_plays_the_scalar_environments_deals(
    backend: str, options: dict[str, Any] | None
) -> None:
    envs = make("slobberhannes", 6, options, backend)
    # 80 steps: two deals and more in every game (32 cards or fewer a deal).
    assert play_against_scalar(envs, "slobberhannes", options, seed=11, steps=80) >= 12


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_fixed_dealer_as_the_scalar_environments(backend: str) -> None:
    envs = make("slobberhannes", 3, None, backend, dealer=2)
    assert play_against_scalar(envs, "slobberhannes", None, seed=5, steps=40) >= 3
    assert envs.reset(seed=1)[0]["to_move"].tolist() == [3, 3, 3]


@pytest.mark.parametrize(
    ("backend", "options"),
    [
        ("python", None),
        ("python", {"preset": "ddv"}),
        ("python", {"players": 5}),
        pytest.param("c", None, marks=needs_compiled_doppelkopf),
        pytest.param("c", {"preset": "ddv"}, marks=needs_compiled_doppelkopf),
    ],
)
def test_doppelkopf_plays_the_scalar_environments_deals(
    backend: str, options: dict[str, Any] | None
) -> None:
    envs = make("doppelkopf", 3, options, backend)
    assert play_against_scalar(envs, "doppelkopf", options, seed=3, steps=70) >= 3


@needs_compiled_slobberhannes
@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=-(2**70), max_value=2**70),
    options=st.sampled_from(SLOBBERHANNES_OPTIONS),
    dealer=st.sampled_from([None, 0, 2]),
    sampler=st.integers(min_value=0, max_value=2**32),
)
def test_compiled_games_equal_the_reference(
    seed: int, options: dict[str, Any] | None, dealer: int | None, sampler: int
) -> None:
    compiled = SlobberhannesVectorEnv(5, options, dealer=dealer, backend="c")
    reference = SlobberhannesVectorEnv(5, options, dealer=dealer, backend="python")
    first, _ = compiled.reset(seed=seed)
    again, _ = reference.reset(seed=seed)
    for key in first:
        np.testing.assert_array_equal(first[key], again[key])
    rng = np.random.default_rng(sampler)
    for _ in range(70):
        mask = first["action_mask"]
        actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
        one = compiled.step(actions)
        two = reference.step(actions)
        for key in one[0]:
            np.testing.assert_array_equal(one[0][key], two[0][key])
        for a, b in zip(one[1:4], two[1:4], strict=True):
            np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(compiled.scores(), reference.scores())
        first = one[0]


@needs_compiled_slobberhannes
def test_threads_change_nothing() -> None:
    one = SlobberhannesVectorEnv(300, backend="c", threads=1)
    two = SlobberhannesVectorEnv(300, backend="c", threads=2)
    one.reset(seed=9)
    two.reset(seed=9)
    for _ in range(50):
        step_alike(one, two)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("options", [None, {"players": 5, "revokes": "penalty"}])
def test_same_step_autoreset_and_rewards(backend: str, options: dict[str, Any] | None) -> None:
    envs = SlobberhannesVectorEnv(4, options, backend=backend)  # type: ignore[arg-type]
    layout = envs.layout
    hand_size = envs.options.hand_size
    obs, _ = envs.reset(seed=21)
    totals = np.zeros((4, envs.num_players))
    decisions = np.zeros(4, dtype=int)
    deals = 0
    for _ in range(200):
        actions = envs.sample_actions()
        assert (obs["action_mask"][np.arange(4), actions] == 1).all()
        obs, rewards, terminations, _, _ = envs.step(actions)
        assert (rewards <= 0).all()
        totals += rewards
        decisions += 1
        np.testing.assert_array_equal(envs.scores(), np.where(terminations[:, None], 0, totals))
        for i in np.flatnonzero(terminations):
            deals += 1
            # Every card was played; the chips: first trick, Q♣, last trick, maybe the
            # bonus, and a chip a revoke.
            assert decisions[i] == hand_size * envs.num_players
            assert totals[i].sum() <= -3
            if options is None:
                assert totals[i].sum() >= -4
            # The observation is already the next deal's first.
            row = obs["observation"][i]
            start = layout.offsets["tricks_done"]
            assert row[start] == 1
            assert row[: envs.num_actions].sum() == hand_size
            assert row[layout.offsets["penalties"] : start].sum() == 0
            totals[i] = 0
            decisions[i] = 0
        # Masks: only cards of the mover's hand.
        hands = obs["observation"][:, : envs.num_actions]
        assert (obs["action_mask"] <= hands).all()
        assert (obs["action_mask"].sum(axis=1) >= 1).all()
    assert deals >= 16


def test_doppelkopf_rewards_add_up_to_the_deals_points() -> None:
    envs = DoppelkopfVectorEnv(4, backend="python")
    obs, _ = envs.reset(seed=2)
    totals = np.zeros((4, 4))
    ended = 0
    for _ in range(150):
        actions = envs.sample_actions()
        assert (obs["action_mask"][np.arange(4), actions] == 1).all()
        tables = list(envs.tables)
        obs, rewards, terminations, _, _ = envs.step(actions)
        totals += rewards
        for i in np.flatnonzero(terminations):
            # (not always zero-sum: in the house rules a lost ouvert solo costs the
            # soloist alone)
            np.testing.assert_allclose(totals[i], tables[i].deal.points())
            assert envs.tables[i] is not tables[i]
            totals[i] = 0
            ended += 1
        np.testing.assert_allclose(envs.scores(), totals)
    assert ended >= 4


@pytest.mark.parametrize("backend", BACKENDS)
def test_illegal_actions_are_refused_before_any_game_moves(backend: str) -> None:
    envs = SlobberhannesVectorEnv(3, backend=backend)  # type: ignore[arg-type]
    obs, _ = envs.reset(seed=4)
    legal = envs.sample_actions()
    illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    for bad in (illegal, -1, 32):
        actions = legal.copy()
        actions[1] = bad
        with pytest.raises(ValueError, match="game 1"):
            envs.step(actions)
    with pytest.raises(ValueError, match="shape"):
        envs.step(legal[:2])
    after, *_ = envs.step(legal)
    again = SlobberhannesVectorEnv(3, backend=backend)  # type: ignore[arg-type]
    again.reset(seed=4)
    np.testing.assert_array_equal(after["observation"], again.step(legal)[0]["observation"])


@pytest.mark.parametrize("backend", BACKENDS)
def test_copies_and_buffers(backend: str) -> None:
    owned = SlobberhannesVectorEnv(2, backend=backend)  # type: ignore[arg-type]
    first, _ = owned.reset(seed=1)
    second, *_ = owned.step(owned.sample_actions())
    assert not np.array_equal(first["observation"], second["observation"])
    shared = SlobberhannesVectorEnv(2, backend=backend, copy=False)  # type: ignore[arg-type]
    first, _ = shared.reset(seed=1)
    second, *_ = shared.step(shared.sample_actions())
    assert first["observation"] is second["observation"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_seeds_reproduce_and_differ(backend: str) -> None:
    a = SlobberhannesVectorEnv(4, backend=backend)  # type: ignore[arg-type]
    b = SlobberhannesVectorEnv(4, backend=backend)  # type: ignore[arg-type]
    x, _ = a.reset(seed=77)
    y, _ = b.reset(seed=77)
    np.testing.assert_array_equal(x["observation"], y["observation"])
    np.testing.assert_array_equal(a.sample_actions(), b.sample_actions())
    # Game i of seed s is game 0 of seed s + i.
    c = SlobberhannesVectorEnv(1, backend=backend)  # type: ignore[arg-type]
    z, _ = c.reset(seed=79)
    np.testing.assert_array_equal(z["observation"][0], x["observation"][2])
    unseeded, _ = a.reset()
    assert a.seed is not None
    assert unseeded["observation"].shape == (4, 313)


def test_one_seed_a_game_and_the_spaces() -> None:
    envs = SlobberhannesVectorEnv(3, copy=False)
    obs, _ = envs.reset(seed=[5, -4, 2**80])
    assert envs.seeds == [5, -4, 2**80]
    single = SlobberhannesVectorEnv(1)
    for i, seed in enumerate(envs.seeds):
        one, _ = single.reset(seed=seed)
        np.testing.assert_array_equal(one["observation"][0], obs["observation"][i])
    with pytest.raises(ValueError, match="2 seeds"):
        envs.reset(seed=[1, 2])
    assert envs.single_observation_space.contains({key: value[0] for key, value in obs.items()})
    assert envs.observation_space.contains(obs)
    assert envs.single_action_space.n == 32
    assert envs.action_space.contains(envs.sample_actions())
    assert envs.action_space.shape == (3,)


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        SlobberhannesVectorEnv(0)
    with pytest.raises(ValueError, match="dealer"):
        DoppelkopfVectorEnv(1, dealer=4)
    with pytest.raises(ValueError, match="backend"):
        SlobberhannesVectorEnv(1, backend="gpu")  # type: ignore[arg-type]
    envs = SlobberhannesVectorEnv(1)
    with pytest.raises(RuntimeError, match="reset"):
        envs.step([0])
    with pytest.raises(TypeError, match="seed"):
        envs.reset(seed=1.5)  # type: ignore[arg-type]


def test_pure_python_refuses_the_compiled_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KARTENTISCH_PURE_PYTHON", "1")
    assert not compiled_available()
    assert not compiled_available("doppelkopf")
    assert SlobberhannesVectorEnv(1).backend == "python"
    assert DoppelkopfVectorEnv(1).backend == "python"
    # Asked for by name, the compiled games refuse, as the PettingZoo environments do.
    with pytest.raises(RuntimeError, match="KARTENTISCH_PURE_PYTHON is set"):
        SlobberhannesVectorEnv(1, backend="c")
    with pytest.raises(RuntimeError, match="KARTENTISCH_PURE_PYTHON is set"):
        DoppelkopfVectorEnv(1, backend="c")


def test_without_the_build_the_python_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    import kartentisch.interop.vector as module

    monkeypatch.setattr(module, "_vecslob", None)
    monkeypatch.setattr(module, "_vecdoko", None)
    assert not compiled_available()
    assert not compiled_available("doppelkopf")
    assert SlobberhannesVectorEnv(1).backend == "python"
    assert DoppelkopfVectorEnv(1).backend == "python"
    with pytest.raises(RuntimeError, match="not built"):
        SlobberhannesVectorEnv(1, backend="c")
    with pytest.raises(RuntimeError, match="not built"):
        DoppelkopfVectorEnv(1, backend="c")


def test_the_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark("vector_env")
    argv = ["--sizes", "1", "4", "--decisions", "40", "--rounds", "1", "--presets", "house", "ddv"]
    assert bench.main(argv) == 0
    text = capsys.readouterr().out
    assert "| slobberhannes |" in text
    assert "| doppelkopf (house) |" in text
    assert "| doppelkopf (ddv) |" in text
