"""The PettingZoo environments' short ways give what the long ways give.

The Slobberhannes environment keeps its observation vectors up to date card by
card (``interop/incremental.py``) and the wrapped environments take a short
way through PettingZoo's three wrappers: seeded random deals compare them step
by step with ``encode_slobberhannes`` and with PettingZoo's own wrappers. The
benchmark ``benchmarks/pettingzoo_speed.py`` runs (no timing is asserted).
"""

from __future__ import annotations

import json
import random
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo environments need the 'rl' extra")

import numpy as np
from pettingzoo.utils import wrappers

from benchmark_scripts import load_benchmark
from kartentisch.interop.encoding import encode_doppelkopf, encode_slobberhannes
from kartentisch.interop.pettingzoo import SlobberhannesEnv, env, raw_env


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Dict observations; illegal moves
        yield


SLOBBERHANNES_OPTIONS: list[dict[str, Any] | None] = [
    None,
    {"players": 3, "revokes": "penalty"},
    {"players": 5},
    {"players": 6, "revokes": "penalty"},
    {"players": 7},
    {"preset": "russian"},
]


def _reference(bare: Any, seat: int) -> tuple[np.ndarray, np.ndarray]:
    table = bare.table
    if bare.metadata["name"].startswith("kartentisch_slobberhannes"):
        vector = encode_slobberhannes(table.deal.observation(seat))
    else:
        vector = encode_doppelkopf(table.deal.observation(seat), table.own_selection(seat))
    mask = table.mask() if seat == table.to_move else np.zeros(table.num_actions, np.int8)
    return vector, mask


def _check_every_seat(bare: Any) -> None:
    for seat, agent in enumerate(bare.possible_agents):
        observation = bare.observe(agent)
        vector, mask = _reference(bare, seat)
        assert observation["observation"].dtype == np.float32
        assert observation["action_mask"].dtype == np.int8
        assert np.array_equal(observation["observation"], vector), (agent, bare.table.history)
        assert np.array_equal(observation["action_mask"], mask), agent


@pytest.mark.parametrize("options", SLOBBERHANNES_OPTIONS)
def test_slobberhannes_vectors_equal_the_encoder_at_every_step(
    options: dict[str, Any] | None,
) -> None:
    bare = raw_env("slobberhannes", options)
    rng = random.Random(41)
    bare.reset(seed=41)
    for _ in range(12):
        bare.reset()
        while True:
            _check_every_seat(bare)
            observation, _, termination, _, _ = bare.last()
            if termination:
                break
            bare.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))


DOPPELKOPF_OPTIONS: list[dict[str, Any] | None] = [
    None,
    {"preset": "ddv"},
    {"players": 5},
    {"preset": "ddv", "schweinchen": "first_played", "nines": False},
]


@pytest.mark.parametrize("options", DOPPELKOPF_OPTIONS)
def test_doppelkopf_vectors_equal_the_encoder_at_every_step(
    options: dict[str, Any] | None,
) -> None:
    bare = raw_env("doppelkopf", options)
    rng = random.Random(43)
    bare.reset(seed=43)
    phases: set[str] = set()
    for _ in range(6):
        bare.reset()
        while True:
            _check_every_seat(bare)
            phases.add(bare.table.deal.phase)
            observation, _, termination, _, _ = bare.last()
            if termination:
                break
            bare.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    assert {"declare", "play"} <= phases


def test_doppelkopf_vectors_in_an_armut() -> None:
    """Seeds whose deals reach an Armut exchange, and its picks, compared too."""
    seen = 0
    for seed in range(400):
        bare = raw_env("doppelkopf")  # (the house rules have the Armut)
        bare.reset(seed=seed)
        rng = random.Random(seed)
        exchanged = False
        while not bare.table.is_over:
            _check_every_seat(bare)
            exchanged |= bare.table.deal.phase in ("armut_give", "armut_return")
            mask = bare.observe(bare.agent_selection)["action_mask"]
            ids = np.flatnonzero(mask).tolist()
            # An Armut and its acceptance if offered; else passes through the
            # declarations; the cards at random.
            names = [bare.table.action_name(i) for i in ids]
            wanted = [i for i, name in zip(ids, names, strict=True) if name in ("armut", "accept")]
            if not wanted and "pass" in names:
                wanted = [ids[names.index("pass")]]
            bare.step(wanted[0] if wanted else rng.choice(ids))
        seen += exchanged
        if seen >= 2:
            break
    assert seen >= 2


def test_vectors_follow_a_table_played_without_step() -> None:
    bare = SlobberhannesEnv()
    bare.reset(seed=5)
    rng = random.Random(5)
    for _ in range(11):  # the middle of the third trick, outside the environment
        bare.table.apply_id(rng.choice(bare.table.legal_ids()))
    _check_every_seat(bare)
    bare.step(bare.table.legal_ids()[0])
    _check_every_seat(bare)


def _plain_wrapped(game: str, options: dict[str, Any] | None) -> Any:
    """The bare environment in PettingZoo's own three wrappers, as env() stacked them."""
    bare = raw_env(game, options)
    inner = wrappers.TerminateIllegalWrapper(bare, illegal_reward=bare.lowest_score)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(inner))


def _trace(made: Any, seed: int, episodes: int) -> list[Any]:
    """Seeded random agents that now and then play an illegal id, a None or an id
    out of bounds; everything the environment shows, step by step."""
    rng = random.Random(seed)
    out: list[Any] = []
    made.reset(seed=seed)
    for _ in range(episodes):
        for agent in made.agent_iter():
            observation, reward, termination, truncation, info = made.last()
            out.append(
                (
                    agent,
                    observation["observation"].tolist(),
                    observation["action_mask"].tolist(),
                    reward,
                    termination,
                    truncation,
                    info,
                    dict(made.rewards),
                    dict(made._cumulative_rewards),
                    list(made.agents),
                )
            )
            if termination or truncation:
                made.step(None)
                continue
            mask = observation["action_mask"]
            roll = rng.random()
            action: Any
            if roll < 0.01:
                action = int(np.flatnonzero(mask == 0)[0])  # illegal: the episode ends
            elif roll < 0.02:
                action = np.int64(rng.choice(np.flatnonzero(mask).tolist()))  # not an int
            else:
                action = rng.choice(np.flatnonzero(mask).tolist())
            made.step(action)
        out.append(("over", list(made.agents), dict(made.rewards)))
        made.reset()
    for bad in (-1, len(mask), None):  # out of bounds, or None for a live agent
        with pytest.raises((AssertionError, ValueError)) as refused:
            made.step(bad)
        out.append(("refused", bad, type(refused.value).__name__))
    return out


@pytest.mark.parametrize(
    ("game", "options"),
    [("slobberhannes", None), ("slobberhannes", {"players": 5}), ("doppelkopf", None)],
)
def test_wrapped_env_behaves_as_pettingzoos_wrappers(
    game: str, options: dict[str, Any] | None
) -> None:
    episodes = 6 if game == "slobberhannes" else 2
    fast = env(game, options)
    assert str(fast) == str(_plain_wrapped(game, options))
    assert _trace(fast, 9, episodes) == _trace(_plain_wrapped(game, options), 9, episodes)


@pytest.mark.parametrize("game", ["slobberhannes", "doppelkopf"])
@pytest.mark.parametrize("make", [raw_env, env, _plain_wrapped])
def test_observations_are_new_arrays(game: str, make: Any) -> None:
    """Every observation (``last`` and ``observe``) is arrays of its own: kept ones stay
    as they were while the deal goes on."""
    made = make(game, None)
    made.reset(seed=4)
    rng = random.Random(4)
    kept: list[tuple[dict[str, Any], dict[str, np.ndarray]]] = []
    for _ in range(12):
        observation = made.last()[0]
        other = made.observe(made.possible_agents[0])
        for got in (observation, other):
            kept.append((got, {key: value.copy() for key, value in got.items()}))
        made.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    arrays = [value for got, _ in kept for value in got.values()]
    for i, first in enumerate(arrays):
        assert all(not np.shares_memory(first, second) for second in arrays[i + 1 :])
    for got, copy in kept:
        for key, value in copy.items():
            np.testing.assert_array_equal(got[key], value)


def _edited_mask_trace(made: Any, flip: str) -> list[Any]:
    """The agent edits the mask it was given before stepping: ``drop`` clears a legal
    action and plays it, ``add`` sets an illegal one and plays that."""
    made.reset(seed=6)
    out: list[Any] = []
    observation = made.last()[0]
    for _ in range(5):
        made.step(int(np.flatnonzero(observation["action_mask"])[0]))
        observation = made.last()[0]
    mask = observation["action_mask"]
    if flip == "drop":
        action = int(np.flatnonzero(mask)[0])
        mask[action] = 0
    elif flip == "bool":  # another dtype: a legal action dropped from a bool mask
        action = int(np.flatnonzero(mask)[0])
        observation["action_mask"] = mask != 0
        observation["action_mask"][action] = False
    else:
        action = int(np.flatnonzero(mask == 0)[0])
        mask[action] = 1
    agent = made.agent_selection
    try:
        made.step(action)
    except ValueError as error:  # IllegalActionError
        out.append(("raised", type(error).__name__))
    out.append((agent, made.agent_selection, dict(made.rewards), dict(made.terminations)))
    out.append((dict(made.truncations), dict(made._cumulative_rewards), list(made.agents)))
    return out


@pytest.mark.parametrize("game", ["slobberhannes", "doppelkopf"])
@pytest.mark.parametrize("flip", ["drop", "add", "bool"])
def test_wrapped_env_judges_by_the_mask_given(game: str, flip: str) -> None:
    """The short way judges an action by the mask the agent was given, as
    TerminateIllegalWrapper does (not by the game): a legal action cleared from the
    mask (or from a bool mask put in its place) ends the deal as illegal; an illegal
    one set in it reaches the game, which refuses it."""
    fast = _edited_mask_trace(env(game), flip)
    assert fast == _edited_mask_trace(_plain_wrapped(game, None), flip)
    if flip in ("drop", "bool"):
        assert all(fast[-2][3].values())  # terminated, as for an illegal action
    else:
        assert fast[0] == ("raised", "IllegalActionError")


class _CountingEnv(SlobberhannesEnv):
    """Overrides observe and step: ``last`` and the wrappers' short way call them."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = {"observe": 0, "step": 0}

    def observe(self, agent: str) -> dict[str, Any]:
        self.calls["observe"] += 1
        return super().observe(agent)

    def step(self, action: int | None) -> None:
        self.calls["step"] += 1
        super().step(action)


def test_overridden_observe_and_step_are_called() -> None:
    from kartentisch.interop.pettingzoo import _wrap

    bare = _CountingEnv()
    wrapped = _wrap(bare)
    for made in (bare, wrapped):
        bare.calls = {"observe": 0, "step": 0}
        made.reset(seed=8)
        for _ in range(6):
            observation = made.last()[0]
            made.step(int(np.flatnonzero(observation["action_mask"])[0]))
        assert bare.calls == {"observe": 6, "step": 6}


def test_the_short_way_in_c_is_taken_where_it_may() -> None:
    """The compiled game built with NumPy's headers takes ``last`` and ``step`` in C
    (``_short``); not where a subclass overrides ``observe``, ``step`` or
    ``_accumulate_rewards``, nor once the deal plays on a table."""

    class Accumulating(SlobberhannesEnv):
        def _accumulate_rewards(self) -> None:
            super()._accumulate_rewards()

    bare = raw_env("slobberhannes")
    if not hasattr(bare._batch, "aec_step"):
        pytest.skip("the compiled games were built without NumPy's headers")
    bare.reset(seed=1)
    assert bare._short
    _ = bare.table
    assert not bare._short  # the rest of the deal plays on the table
    bare.reset()
    assert bare._short
    for made in (_CountingEnv(), Accumulating()):
        made.reset(seed=1)
        assert made._fast and not made._short
    bare.close()
    assert not bare._short


def _last_trace(made: Any, seed: int, deals: int) -> list[Any]:
    """Random masked agents through ``last``: every tuple it gives, the dead steps too."""
    rng = random.Random(seed)
    made.reset(seed=seed)
    out: list[Any] = []
    for _ in range(deals):
        for _agent in made.agent_iter():
            observation, reward, termination, truncation, info = made.last()
            out.append(
                (
                    made.agent_selection,
                    observation["observation"].tolist(),
                    observation["action_mask"].tolist(),
                    reward,
                    termination,
                    truncation,
                    info,
                    dict(made.rewards),
                )
            )
            if termination or truncation:
                made.step(None)
            else:
                made.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
        made.reset()
    return out


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("slobberhannes", None),
        ("slobberhannes", {"players": 7, "revokes": "penalty"}),
        ("doppelkopf", None),
        ("doppelkopf", {"preset": "ddv"}),
    ],
)
def test_last_in_c_equals_the_engines(game: str, options: dict[str, Any] | None) -> None:
    """The bare environment's ``last`` and ``step`` in C give what they give on the
    engine's tables (``backend="python"``), deal after deal."""
    deals = 4 if game == "slobberhannes" else 2
    fast = raw_env(game, options)
    assert fast.backend == "c"
    reference = raw_env(game, options, backend="python")
    assert _last_trace(fast, 12, deals) == _last_trace(reference, 12, deals)


@pytest.mark.parametrize("game", ["slobberhannes", "doppelkopf"])
@pytest.mark.parametrize("make", [raw_env, env])
def test_dropped_observations_only_are_written_again(game: str, make: Any) -> None:
    """``last`` in C writes an earlier observation's arrays again only where no one holds
    them: not while the dict, one of its arrays, a view of one or a weak reference to
    one is kept, nor where the dict or an array was changed; every observation equals
    ``observe`` at its step."""
    import weakref

    made = make(game, None)
    made.reset(seed=5)
    rng = random.Random(5)
    kept: list[tuple[Any, np.ndarray]] = []
    weak: list[tuple[Any, np.ndarray]] = []
    for step in range(40):
        observation = made.last()[0]
        agent = made.agent_selection
        expected = made.observe(agent)
        for key in expected:
            np.testing.assert_array_equal(observation[key], expected[key])
            assert observation[key].shape == expected[key].shape
        action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        kind = step % 8
        if kind == 1:
            kept.append((observation, observation["observation"].copy()))
        elif kind == 2:
            kept.append((observation["action_mask"], observation["action_mask"].copy()))
        elif kind == 3:
            view = observation["observation"][5:40]
            kept.append((view, view.copy()))
        elif kind == 4:
            ref = weakref.ref(observation["observation"])
            weak.append((ref, observation["observation"].copy()))
        elif kind == 5:
            observation["observation"].shape = (1, -1)  # changed, then dropped
        elif kind == 6:
            observation["action_mask"] = observation["action_mask"].astype(np.int64)
        del observation, expected
        made.step(action)
        if made.terminations[made.agent_selection]:
            made.reset()
    for held, copy in kept:
        got = held["observation"] if isinstance(held, dict) else held
        np.testing.assert_array_equal(got, copy)
    for ref, copy in weak:
        array = ref()
        assert array is None or np.array_equal(array, copy)


@pytest.mark.parametrize("make", [raw_env, env])
def test_last_and_step_arguments(make: Any) -> None:
    """``last`` and ``step`` take their argument by position or by name, as AECEnv's;
    ``last(observe=False)`` gives no observation."""
    made = make("slobberhannes", None)
    made.reset(seed=3)
    observation, reward, termination, truncation, info = made.last(False)
    assert observation is None
    assert (reward, termination, truncation, info) == (0.0, False, False, {})
    assert made.last(observe=False)[0] is None
    mask = made.last(observe=True)[0]["action_mask"]
    agent = made.agent_selection
    made.step(action=int(np.flatnonzero(mask)[0]))
    assert made.agent_selection != agent
    with pytest.raises(TypeError):
        made.last(True, True)
    with pytest.raises(TypeError):
        made.last(observed=True)
    with pytest.raises(TypeError):
        made.step()
    with pytest.raises(TypeError):
        made.step(act=1)


def test_pure_python_takes_the_python_bases() -> None:
    """With ``KARTENTISCH_PURE_PYTHON`` the environments' ``last`` and ``step`` are the
    Python methods (nothing compiled is used), and they play the same deal."""
    import os
    import subprocess

    script = (
        "import warnings; warnings.simplefilter('ignore')\n"
        "from kartentisch.interop import pettingzoo as pz\n"
        "e = pz.env('slobberhannes'); e.reset(seed=2)\n"
        "out = [pz.TrickGameEnv.__mro__[1].__name__, e.unwrapped.backend]\n"
        "while not e.terminations[e.agent_selection]:\n"
        "    o = e.last()[0]; e.step(int(o['action_mask'].nonzero()[0][-1]))\n"
        "print(out, e._cumulative_rewards)\n"
    )
    runs = []
    for pure in ("1", ""):
        environ = dict(os.environ, KARTENTISCH_PURE_PYTHON=pure)
        done = subprocess.run(
            [sys.executable, "-c", script], env=environ, capture_output=True, text=True, check=True
        )
        runs.append(done.stdout)
    assert runs[0].startswith("['_PythonEnvBase', 'python']")
    if hasattr(raw_env("slobberhannes")._batch, "aec_step"):
        assert runs[1].startswith("['EnvBase', 'c']")
    assert runs[0].split("]", 1)[1] == runs[1].split("]", 1)[1]  # the same rewards


@pytest.mark.parametrize("make", [raw_env, env])
def test_rewards_of_a_step_are_fresh(make: Any) -> None:
    """A step's ``rewards`` is a dict of zeros that no one held before (a step that
    scored nothing): a dict kept from an earlier step, or one edited in place, is not
    the next step's."""
    made = make("slobberhannes", None)
    made.reset(seed=7)

    def play() -> None:
        made.step(int(np.flatnonzero(made.last()[0]["action_mask"])[0]))

    play()
    kept = made.rewards
    play()  # the second card of the first trick: nobody scores
    assert made.rewards is not kept and kept == dict.fromkeys(made.agents, 0.0)
    del kept
    made.rewards[made.agents[0]] = 5.0  # edited in place, nobody holds it
    play()
    assert made.rewards == dict.fromkeys(made.agents, 0.0)


def test_hot_attributes_in_c_fields_are_collected() -> None:
    """Where the C bases are in use the attributes a step touches live in their fields
    (not in the instance dict) and read and write as attributes; an environment or a
    wrapper in a reference cycle through them is collected; an attribute deleted is an
    AttributeError, also on the short way."""
    import gc
    import weakref

    from kartentisch.interop import pettingzoo

    if pettingzoo._EnvBase is pettingzoo._PythonEnvBase:
        pytest.skip("the C bases are not built")
    made = env("slobberhannes")
    made.reset(seed=4)
    bare = made.unwrapped
    assert "agent_selection" not in vars(bare) and "_bare" not in vars(made)
    assert bare.agent_selection in bare.possible_agents
    bare.infos[bare.agent_selection]["env"] = bare  # a cycle through a C field
    ref_bare, ref_made = weakref.ref(bare), weakref.ref(made)
    del bare, made
    gc.collect()
    assert ref_bare() is None and ref_made() is None
    lone = raw_env("slobberhannes")
    lone.reset(seed=4)
    del lone.agent_selection
    with pytest.raises(AttributeError, match="agent_selection"):
        lone.last()
    with pytest.raises(AttributeError, match="agent_selection"):
        lone.step(0)


def test_wrapped_env_guards_before_reset() -> None:
    made = env("slobberhannes")
    with pytest.raises(AttributeError, match="before reset"):
        _ = made.agent_selection
    with pytest.raises(AttributeError, match="before reset"):
        _ = made.rewards


def test_benchmark_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))  # the script adds benchmarks/ to it
    module = load_benchmark("pettingzoo_speed")
    results = module.benchmark(seed=1, seconds=0.02, rounds=2)
    report = [r.to_dict() for r in results]
    assert [r["name"] for r in report] == ["slobberhannes", "doppelkopf_house", "doppelkopf_ddv"]
    for game in report:
        assert set(game["loops"]) == {"engine", "raw_env", "env"}
        for loop in game["loops"].values():
            assert len(loop["per_s"]) == 2 and all(rate > 0 for rate in loop["per_s"])
        assert set(game["share_of_engine"]) == {"raw_env", "env"}
        assert game["backend"] in ("c", "python")
    # The house and the DDV preset play on the same compiled game (where built).
    assert report[2]["backend"] == report[1]["backend"]
    text = module.report_text(results, seed=1, seconds=0.02, rounds=2)
    assert "share" in text and "Doppelkopf, DDV" in text
    json.dumps(report)
