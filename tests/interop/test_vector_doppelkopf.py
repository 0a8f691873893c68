"""The Doppelkopf vector environment's short way to an observation vector
(``incremental.doppelkopf_deal_vector``, read from the deal's state) gives what
the long way gives (the engine's observation, then ``encode_doppelkopf``): for
every seat, at every step of random deals, under several rule sets; the random
play favours the rare words (Vorbehalt, solos, Hochzeit, Armut, announcements)
so that they all come up."""

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
