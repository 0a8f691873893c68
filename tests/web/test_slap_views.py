"""Slapjack and Irish Snap views at a web table: what every seat's view shares is made
once (the recent events, the names, the options) and is what a table made afresh on
the same game shows (docs/performance.md, "Server at scale")."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kartentisch.web.games.slapjack import IRISH_SNAP, TABLE_GAME, SlapTable

NAMES = ["Ann", "Ben", "Cyd", "Dora"]
SHARED = ("events", "names", "options")


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), irish=st.booleans(), steps=st.integers(1, 300))
def test_every_views_shared_parts_are_those_of_a_fresh_table(
    seed: int, irish: bool, steps: int
) -> None:
    kind = IRISH_SNAP if irish else TABLE_GAME
    table = kind.create(kind.normalize_options({}, seats=4), NAMES, seed=seed)
    rng = random.Random(seed)
    seen_events = 0
    for _ in range(steps):
        if table.is_over:
            break
        if rng.random() < 0.1:
            # Game time runs on (a time-out may come): events without an action.
            table.advance(table.clock + rng.randrange(1, 5000))
        else:
            seat = rng.randrange(4)
            legal = table.legal(seat)
            if not legal:
                continue
            table.act(seat, rng.choice(legal))
        views = [table.view(seat) for seat in (0, 1, 2, 3, None)]
        fresh = SlapTable(table.engine, NAMES)  # (nothing made before: the oracle)
        for seat, view in zip((0, 1, 2, 3, None), views, strict=True):
            expected = fresh.view(seat)
            assert {k: view[k] for k in SHARED} == {k: expected[k] for k in SHARED}
            # One object for every seat (a state patch passes it over at once).
            assert all(view[k] is views[0][k] for k in SHARED)
        seen_events = max(seen_events, len(views[0]["events"]))
    if steps > 50:
        assert seen_events > 0
