"""The PettingZoo AEC environments on the compiled games equal them on the engine.

Slobberhannes (any options) and Doppelkopf (the house and the DDV preset) play on one game of
the compiled vector backends (``backend="c"``, the default where built); the
engine's tables stay the reference (``backend="python"``). Both are driven with
the same random masked actions and compared after every step: every agent's
observation and mask, the rewards, cumulative rewards, terminations, truncations
and the agent to act, also after the deal is over. The table a compiled
environment builds when asked for equals the engine's.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo environments need the 'rl' extra")

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kartentisch.errors import IllegalActionError
from kartentisch.interop.pettingzoo import env, raw_env

from .compiled import (
    SLOBBERHANNES_OPTIONS,
    needs_compiled_doppelkopf,
    needs_compiled_slobberhannes,
)


def assert_same(compiled: Any, reference: Any) -> None:
    """Everything an agent loop reads, for every agent."""
    assert compiled.agents == reference.agents
    assert compiled.agent_selection == reference.agent_selection
    assert compiled.rewards == reference.rewards
    assert compiled._cumulative_rewards == reference._cumulative_rewards
    assert compiled.terminations == reference.terminations
    assert compiled.truncations == reference.truncations
    assert compiled.infos == reference.infos
    for agent in reference.possible_agents:
        got, want = compiled.observe(agent), reference.observe(agent)
        assert got.keys() == want.keys()
        for key in want:
            assert got[key].dtype == want[key].dtype, (agent, key)
            np.testing.assert_array_equal(got[key], want[key], err_msg=f"{agent} {key}")


def play_both(
    game: str,
    options: dict[str, Any] | None,
    *,
    seed: int,
    deals: int,
    dealer: int | None = None,
    table_at: int | None = None,
) -> int:
    """Play ``deals`` deals in both backends with the same masked random actions;
    ``table_at``: ask the compiled environment for its table at that step and
    compare it with the engine's (the rest of that deal then plays on it)."""
    compiled = raw_env(game, options, dealer=dealer, backend="c")
    reference = raw_env(game, options, dealer=dealer, backend="python")
    assert (compiled.backend, reference.backend) == ("c", "python")
    rng = random.Random(seed)
    steps = 0
    compiled.reset(seed=seed)
    reference.reset(seed=seed)
    for deal in range(deals):
        if deal:
            compiled.reset()
            reference.reset()
        assert_same(compiled, reference)
        while not reference.terminations[reference.agent_selection]:
            if steps == table_at:
                assert compiled._table is None  # the fast path built none
                table = compiled.table
                assert table.history == reference.table.history
                assert table.deal.to_move == reference.table.deal.to_move
                for seat in range(reference.num_seats):
                    np.testing.assert_array_equal(table.encode(seat), reference.table.encode(seat))
                np.testing.assert_array_equal(compiled.state(), reference.state())
            mask = reference.observe(reference.agent_selection)["action_mask"]
            action = int(rng.choice(mask.nonzero()[0].tolist()))
            compiled.step(action)
            reference.step(action)
            steps += 1
            assert_same(compiled, reference)
        # The deal is over: the final observations agree too, and so do the tables.
        assert compiled.table.history == reference.table.history
        assert compiled.table.deal.points() == reference.table.deal.points()
    return steps


@needs_compiled_slobberhannes
@pytest.mark.parametrize("options", SLOBBERHANNES_OPTIONS)
def test_slobberhannes_compiled_equals_the_engine(options: dict[str, Any] | None) -> None:
    assert play_both("slobberhannes", options, seed=3, deals=6) >= 6 * 20


@needs_compiled_slobberhannes
@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(min_value=-(2**70), max_value=2**70),
    options=st.sampled_from(SLOBBERHANNES_OPTIONS),
    dealer=st.sampled_from([None, 0, 2]),
    table_at=st.one_of(st.none(), st.integers(min_value=0, max_value=40)),
)
def test_slobberhannes_compiled_equals_the_engine_any_seed(
    seed: int, options: dict[str, Any] | None, dealer: int | None, table_at: int | None
) -> None:
    play_both("slobberhannes", options, seed=seed, deals=2, dealer=dealer, table_at=table_at)


DOPPELKOPF_PRESETS: list[dict[str, Any] | None] = [None, {"preset": "ddv"}]


@needs_compiled_doppelkopf
@pytest.mark.parametrize("options", DOPPELKOPF_PRESETS)
def test_doppelkopf_compiled_equals_the_engine(options: dict[str, Any] | None) -> None:
    assert play_both("doppelkopf", options, seed=5, deals=40) >= 40 * 4


@needs_compiled_doppelkopf
@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(min_value=-(2**70), max_value=2**70),
    options=st.sampled_from(DOPPELKOPF_PRESETS),
    dealer=st.sampled_from([None, 1]),
    table_at=st.one_of(st.none(), st.integers(min_value=0, max_value=50)),
)
def test_doppelkopf_compiled_equals_the_engine_any_seed(
    seed: int, options: dict[str, Any] | None, dealer: int | None, table_at: int | None
) -> None:
    play_both("doppelkopf", options, seed=seed, deals=3, dealer=dealer, table_at=table_at)


def test_backends_chosen() -> None:
    assert raw_env("slobberhannes", backend="python").backend == "python"
    assert raw_env("doppelkopf", {"preset": "ddv", "bock": True}).backend == "python"
    with pytest.raises(ValueError, match="backend"):
        raw_env("slobberhannes", backend="fast")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="options"):
        raw_env("doppelkopf", {"preset": "ddv", "nines": False}, backend="c")


@needs_compiled_slobberhannes
def test_pure_python_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    assert raw_env("slobberhannes").backend == "c"
    monkeypatch.setenv("KARTENTISCH_PURE_PYTHON", "1")
    assert raw_env("slobberhannes").backend == "python"


@needs_compiled_slobberhannes
@needs_compiled_doppelkopf
@pytest.mark.parametrize("game", ["slobberhannes", "doppelkopf"])
def test_illegal_actions_on_the_compiled_game(game: str) -> None:
    bare = raw_env(game)
    bare.reset(seed=1)
    agent = bare.agent_selection
    illegal = int(np.flatnonzero(bare.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        bare.step(illegal)
    assert bare.agent_selection == agent  # nothing played
    wrapped = env(game)
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    wrapped.step(illegal)  # TerminateIllegalWrapper: the deal ends, the actor scores lowest
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[agent] == wrapped.unwrapped.lowest_score


@needs_compiled_slobberhannes
def test_table_is_built_only_when_asked_for() -> None:
    bare = raw_env("slobberhannes")
    with pytest.raises(RuntimeError, match="reset"):
        _ = bare.table
    bare.reset(seed=2)
    for _ in range(10):
        bare.step(int(np.flatnonzero(bare.observe(bare.agent_selection)["action_mask"])[0]))
        bare.last()
    assert bare._table is None
    assert len(bare.table.history) == 10
    bare.close()
    with pytest.raises(RuntimeError, match="reset"):
        _ = bare.table


@needs_compiled_slobberhannes
@needs_compiled_doppelkopf
@pytest.mark.parametrize("game", ["slobberhannes", "doppelkopf", "doppelkopf-ddv"])
def test_one_game_calls(game: str) -> None:
    """deal_one, play_one, observe_seat and last_rewards on the compiled games: illegal
    actions refused, masks for the seat to move only, a deal that ends stays ended."""
    from kartentisch.games.doppelkopf import DoppelkopfOptions
    from kartentisch.games.slobberhannes import SlobberhannesOptions
    from kartentisch.interop.vector import doppelkopf_batch, slobberhannes_batch

    if game == "slobberhannes":
        options: Any = SlobberhannesOptions()
        batch = slobberhannes_batch(2, options, None)
        players, actions = options.players, 32
    else:
        preset = {"preset": "ddv"} if game == "doppelkopf-ddv" else None
        batch = doppelkopf_batch(2, DoppelkopfOptions.from_dict(preset), None)
        players, actions = 4, 73
        assert batch.obs_size == (632 if preset else 630)
    seat = batch.deal_one(1, 2**64 - 5, 0)
    assert seat == 1  # the dealer's left opens
    with pytest.raises(IndexError):
        batch.deal_one(2, 1, 0)
    with pytest.raises(ValueError, match="dealer"):
        batch.deal_one(0, 1, players)
    obs = np.empty(batch.obs_size, np.float32)
    mask = np.empty(actions, np.int8)
    with pytest.raises(ValueError, match="seat"):
        batch.observe_seat(1, players, obs, mask)
    with pytest.raises(ValueError, match="bytes"):
        batch.observe_seat(1, 0, obs[:-1], mask)
    batch.observe_seat(1, seat, obs, mask)
    legal = np.flatnonzero(mask)
    illegal = np.flatnonzero(mask == 0)
    assert legal.size and illegal.size
    before = obs.copy()
    assert batch.play_one(1, int(illegal[0])) == -1  # refused, nothing changed
    assert batch.play_one(1, actions) == -1
    batch.observe_seat(1, seat, obs, mask)
    np.testing.assert_array_equal(obs, before)
    other = (seat + 1) % players
    batch.observe_seat(1, other, obs, mask)
    assert not mask.any()  # only the seat to move has a mask
    # Play the deal out with the first legal action: it ends, and is not replaced.
    while seat != players:
        batch.observe_seat(1, seat, obs, mask)
        code = batch.play_one(1, int(np.flatnonzero(mask)[0]))
        assert code >= 0
        seat = code & 255
    assert len(batch.last_rewards()) == players
    for s in range(players):
        batch.observe_seat(1, s, obs, mask)
        assert not mask.any()
    assert batch.play_one(1, int(legal[0])) == -1  # over: nothing is legal


@needs_compiled_slobberhannes
@needs_compiled_doppelkopf
@pytest.mark.parametrize("game", ["slobberhannes", "doppelkopf"])
def test_observe_new_gives_new_arrays(game: str) -> None:
    """observe_new: what observe_seat writes, in two new arrays made by the allocator
    given (numpy.empty), as the environments' observation dict; its errors."""
    bare = raw_env(game)
    bare.reset(seed=3)
    batch = bare._batch
    float32, int8 = np.dtype(np.float32), np.dtype(np.int8)
    obs = np.empty(batch.obs_size, np.float32)
    mask = np.empty(bare.num_actions, np.int8)
    for seat in range(bare.num_seats):
        batch.observe_seat(0, seat, obs, mask)
        first = batch.observe_new(0, seat, np.empty, float32, int8)
        second = batch.observe_new(0, seat, np.empty, float32, int8)
        assert list(first) == ["observation", "action_mask"]
        for got in (first, second):
            assert got["observation"].dtype == np.float32
            assert got["action_mask"].dtype == np.int8
            np.testing.assert_array_equal(got["observation"], obs)
            np.testing.assert_array_equal(got["action_mask"], mask)
        for key in first:
            assert first[key].flags.owndata and first[key].flags.writeable
            assert not np.shares_memory(first[key], second[key])
    with pytest.raises(ValueError, match="seat"):
        batch.observe_new(0, bare.num_seats, np.empty, float32, int8)
    with pytest.raises(IndexError):
        batch.observe_new(1, 0, np.empty, float32, int8)
    with pytest.raises(ValueError, match="bytes"):
        batch.observe_new(0, 0, np.empty, np.dtype(np.float64), int8)
    with pytest.raises(TypeError, match="5 arguments"):
        batch.observe_new(0, 0, np.empty, float32)
    with pytest.raises(TypeError):
        batch.observe_new(0, 0, None, float32, int8)  # not callable
