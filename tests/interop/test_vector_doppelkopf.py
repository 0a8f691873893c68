"""The Doppelkopf vector environment's two short ways.

The Python backend's observation vector (``incremental.doppelkopf_deal_vector``,
read from the deal's state) gives what the long way gives (the engine's
observation, then ``encode_doppelkopf``): for every seat, at every step of random
deals, under several rule sets; the random play favours the rare words
(Vorbehalt, solos, Hochzeit, Armut, announcements) so that they all come up.

The compiled games (``interop/_vecdoko.c``, the house and the DDV preset) give what
the Python backend gives, step by step: the same observations, masks, seats to move,
rewards, terminations and scores for the same actions, over many seeds and
dealers and under policies that bring up every kind of game; the scalar
environment's deals per index are checked in ``test_vector.py``."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kartentisch.games.doppelkopf.options import ALL_SOLI
from kartentisch.interop.encoding import DoppelkopfTable, encode_doppelkopf
from kartentisch.interop.incremental import doppelkopf_deal_vector
from kartentisch.interop.vector import DoppelkopfVectorEnv

from .compiled import needs_compiled_doppelkopf, step_alike

OPTIONS: list[dict[str, Any] | None] = [
    None,
    {"preset": "ddv"},
    {"players": 5},
    {"schweinchen": "silent", "superschweinchen": True},
    {"schweinchen": "announced", "schweinchen_solo": True},
    {"preset": "ddv", "schweinchen": "first_played", "nines": False},
    {"soli": list(ALL_SOLI), "hochzeit": "first_trick", "armut_count_foxes": False},
    {"armut_ask": "in_turn", "armut_refused": "play", "armut_return": "any"},
    {"stille_hochzeit": False, "hochzeit_alone": "redeal", "scharfe": False},
]


def check_step(table: DoppelkopfTable) -> set[str]:
    """Compare every seat's two vectors now; the phase."""
    deal = table.deal
    for seat in range(deal.num_seats):
        selection = table.own_selection(seat)
        expected = encode_doppelkopf(deal.observation(seat), selection)
        got = doppelkopf_deal_vector(deal, seat, selection)
        assert got.dtype == np.float32
        mismatch = np.flatnonzero(got != expected)
        assert mismatch.size == 0, (seat, deal.phase, mismatch.tolist())
    return {deal.phase}


def check_deal(
    table: DoppelkopfTable, rng: random.Random, rare: float, passes: float = 0.0
) -> set[str]:
    """Play ``table`` to its end at random, comparing every seat's vectors each step:
    in the declarations ``pass`` with probability ``passes`` (else any legal id), in
    play a word (an announcement) with probability ``rare`` (else any legal id)."""
    phases: set[str] = set()
    while True:
        phases |= check_step(table)
        if table.to_move is None:
            return phases
        ids = table.legal_ids()
        names = [table.action_name(i) for i in ids]
        if "pass" in names and rng.random() < passes:
            table.apply_id(ids[names.index("pass")])
            continue
        words = [i for i, name in zip(ids, names, strict=True) if i >= 24 and name != "pass"]
        table.apply_id(rng.choice(words) if words and rng.random() < rare else rng.choice(ids))


@pytest.mark.parametrize("options", OPTIONS)
def test_deal_vectors_equal_the_encoder_at_every_step(options: dict[str, Any] | None) -> None:
    rng = random.Random(5)
    phases: set[str] = set()
    kinds: set[str] = set()
    for number in range(24):
        table = DoppelkopfTable.from_seed(
            rng.getrandbits(64),
            dealer=rng.randrange(5 if options == {"players": 5} else 4),
            options=options,
        )
        passes = (0.0, 0.9, 0.98)[number % 3]
        phases |= check_deal(table, rng, rare=rng.choice((0.05, 0.3)), passes=passes)
        kinds.add(table.deal.game_type)
    assert {"declare", "play", "done"} <= phases
    assert len(kinds) >= 3


def test_deal_vectors_in_armut_exchanges() -> None:
    """House deals whose declarations go to an Armut, its acceptance and exchange
    (the picks compared too), then random play."""
    rng = random.Random(11)
    exchanges = 0
    for _ in range(400):
        table = DoppelkopfTable.from_seed(rng.getrandbits(64), dealer=rng.randrange(4))
        deal = table.deal
        phases: set[str] = set()
        while deal.phase == "declare" or deal.phase == "armut_answer":
            phases |= check_step(table)
            ids = table.legal_ids()
            names = [table.action_name(i) for i in ids]
            wanted = [i for i, name in zip(ids, names, strict=True) if name in ("armut", "accept")]
            if not wanted and "pass" in names:
                wanted = [ids[names.index("pass")]]
            table.apply_id(wanted[0] if wanted else rng.choice(ids))
        phases |= check_deal(table, rng, rare=0.3)
        exchanges += "armut_return" in phases
        if exchanges >= 4:
            break
    assert exchanges >= 4


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), dealer=st.integers(0, 3), rare=st.floats(0.0, 1.0))
def test_deal_vectors_on_any_seed(seed: int, dealer: int, rare: float) -> None:
    table = DoppelkopfTable.from_seed(seed, dealer=dealer)
    check_deal(table, random.Random(seed), rare)


# -- the compiled games (interop/_vecdoko.c) against the tables -----------------------------


def step_both(
    compiled: DoppelkopfVectorEnv,
    reference: DoppelkopfVectorEnv,
    steps: int,
    rng: np.random.Generator,
    favour: dict[int, float],
) -> dict[str, int]:
    """Step both with the same random legal actions (ids in ``favour`` weighted by
    their factor); compare everything each step. The game types of the deals ended."""
    first, _ = compiled.reset(seed=compiled.seed)
    again, _ = reference.reset(seed=compiled.seed)
    ended: dict[str, int] = {}
    weights = np.ones(compiled.num_actions)
    for action, factor in favour.items():
        weights[action] = factor
    for _ in range(steps):
        for key in first:
            np.testing.assert_array_equal(first[key], again[key])
        np.testing.assert_array_equal(compiled.scores(), reference.scores())
        mask = first["action_mask"]
        actions = np.argmax(rng.random(mask.shape) * mask * weights, axis=1)
        deals = [table.deal for table in reference.tables]
        first, *one = compiled.step(actions)
        again, *two = reference.step(actions)
        for a, b in zip(one[:3], two[:3], strict=True):
            np.testing.assert_array_equal(a, b)
        for i in np.flatnonzero(two[1]):
            kind = deals[i].game_type if deals[i].outcome == "played" else "redeal"
            ended[kind] = ended.get(kind, 0) + 1
    return ended


PASS, VORBEHALT, DDV_HOCHZEIT, HOCHZEIT, ARMUT, ACCEPT = 24, 25, 30, 31, 34, 35
ANNOUNCE = range(57, 63)
#: The DDV soli's ids (not ouvert): queens, jacks, clubs, spades, hearts, diamonds, fleischlos.
DDV_SOLO_IDS = [37 + 2 * kind for kind in (1, 2, 3, 4, 5, 6, 9)]
#: The compiled presets and their options.
PRESETS: dict[str, dict[str, Any] | None] = {"house": None, "ddv": {"preset": "ddv"}}
#: Policies by preset. House: uniform; the declarations mostly passed (normal games,
#: Armut, stille Hochzeit, announcements); Hochzeit and Armut whenever offered. DDV:
#: uniform; mostly gesund, few announcements (normal games, silent ♦ soli); Vorbehalt
#: often and the Hochzeit whenever offered, soli rare, many announcements (Hochzeiten,
#: their shifted deadlines, replies).
POLICIES: dict[str, list[dict[int, float]]] = {
    "house": [
        {},
        {PASS: 30.0, ARMUT: 30.0, ACCEPT: 30.0, **{w: 0.05 for w in ANNOUNCE}},
        {PASS: 20.0, HOCHZEIT: 1e3, HOCHZEIT + 1: 1e3, HOCHZEIT + 2: 1e3, ARMUT: 1e3, ACCEPT: 1e3},
    ],
    "ddv": [
        {},
        {PASS: 30.0, **{w: 0.05 for w in ANNOUNCE}},
        {
            PASS: 3.0,
            DDV_HOCHZEIT: 1e3,
            **{w: 0.01 for w in DDV_SOLO_IDS},
            **{w: 2.0 for w in ANNOUNCE},
        },
    ],
}
CASES = [(preset, policy) for preset in PRESETS for policy in range(len(POLICIES[preset]))]


@needs_compiled_doppelkopf
@pytest.mark.parametrize(("preset", "policy"), CASES)
def test_compiled_games_equal_the_reference(preset: str, policy: int) -> None:
    options = PRESETS[preset]
    compiled = DoppelkopfVectorEnv(64, options, backend="c")
    reference = DoppelkopfVectorEnv(64, options, backend="python")
    assert compiled.observation_size == reference.observation_size
    compiled.seed = 100 + policy
    rng = np.random.default_rng(policy)
    ended = step_both(compiled, reference, 150, rng, POLICIES[preset][policy])
    assert sum(ended.values()) >= 100
    if preset == "house" and policy:  # the rare games came up
        assert {"normal", "armut", "trump"} <= set(ended)
    if preset == "house" and policy == 2:
        assert ended.get("hochzeit", 0) >= 10
    if preset == "ddv" and policy:
        assert {"normal", "diamonds"} <= set(ended)
    if preset == "ddv" and policy == 2:
        assert ended.get("hochzeit", 0) >= 5
        assert {"queens", "jacks", "fleischlos"} <= set(ended)


@needs_compiled_doppelkopf
@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(min_value=-(2**70), max_value=2**70),
    dealer=st.sampled_from([None, 0, 3]),
    sampler=st.integers(min_value=0, max_value=2**32),
    case=st.sampled_from(CASES),
)
def test_compiled_games_on_any_seed(
    seed: int, dealer: int | None, sampler: int, case: tuple[str, int]
) -> None:
    preset, policy = case
    options = PRESETS[preset]
    compiled = DoppelkopfVectorEnv(4, options, dealer=dealer, backend="c")
    reference = DoppelkopfVectorEnv(4, options, dealer=dealer, backend="python")
    compiled.seed = seed
    rng = np.random.default_rng(sampler)
    step_both(compiled, reference, 60, rng, POLICIES[preset][policy])


@needs_compiled_doppelkopf
@pytest.mark.parametrize("preset", list(PRESETS))
def test_compiled_games_sample_legal_actions_and_threads_change_nothing(preset: str) -> None:
    one = DoppelkopfVectorEnv(200, PRESETS[preset], backend="c", threads=1)
    two = DoppelkopfVectorEnv(200, PRESETS[preset], backend="c", threads=2)
    obs, _ = one.reset(seed=9)
    two.reset(seed=9)
    for _ in range(120):
        actions, after = step_alike(one, two)
        assert (obs["action_mask"][np.arange(200), actions] == 1).all()
        obs = after


@needs_compiled_doppelkopf
def test_compiled_games_play_the_two_presets_only() -> None:
    assert DoppelkopfVectorEnv(1).backend == "c"
    assert DoppelkopfVectorEnv(1, {"preset": "house"}).backend == "c"
    assert DoppelkopfVectorEnv(1, {"preset": "ddv"}).backend == "c"
    assert DoppelkopfVectorEnv(1, {"preset": "ddv"}).observation_size == 632
    assert DoppelkopfVectorEnv(1, {"preset": "ddv", "nines": False}).backend == "python"
    assert DoppelkopfVectorEnv(1, {"preset": "ddv", "bock": True}).backend == "python"
    assert DoppelkopfVectorEnv(1, {"bock": False}).backend == "python"
    with pytest.raises(ValueError, match="presets only"):
        DoppelkopfVectorEnv(1, {"players": 5}, backend="c")
    envs = DoppelkopfVectorEnv(2, backend="c")
    with pytest.raises(RuntimeError, match="no tables"):
        _ = envs.tables
    obs, _ = envs.reset(seed=3)
    actions = envs.sample_actions()
    actions[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(ValueError, match="game 1"):
        envs.step(actions)
