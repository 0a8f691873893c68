"""The four (five) seats' encoded Doppelkopf views at every version of seeded sessions.

Run before and after a change to the web adapter's views, interleaved:
``python benchmarks/doppelkopf_views.py NAME`` prints the best of 5 runs in µs a version.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from kartentisch.web.adapter import table_game_type

K = table_game_type("doppelkopf")


def sessions() -> list[tuple[int, dict[str, Any], int, list[tuple[int, str]]]]:
    out: list[tuple[int, dict[str, Any], int, list[tuple[int, str]]]] = []
    configs: list[tuple[int, dict[str, Any]]] = [
        (4, {"games": 4}),
        (4, {"preset": "ddv", "schweinchen": "first_played", "games": 4}),
        (4, {"table_mode": True, "games": 4}),
        (5, {"games": 5}),
    ]
    for i, (n, opts) in enumerate(configs):
        g: Any = K.create(K.normalize_options(opts, seats=n), ["a", "b", "c", "d", "e"][:n], 7 + i)
        rng = random.Random(i)
        acts: list[tuple[int, str]] = []
        while not g.is_over:
            s = g.acting[0]
            f = g.forced_action(s)
            a = f if f is not None else rng.choice(g.legal(s))
            g.act(s, a)
            acts.append((s, a))
        out.append((n, dict(opts), 7 + i, acts))
    return out


S = sessions()


def run() -> tuple[float, int]:
    total = 0.0
    versions = 0
    for n, opts, seed, acts in S:
        g: Any = K.create(K.normalize_options(opts, seats=n), ["a", "b", "c", "d", "e"][:n], seed)
        seats = range(n)
        steps: list[tuple[int | None, str]] = [(None, ""), *acts]
        for s, a in steps:
            if s is not None:
                g.act(s, a)
            t = time.perf_counter()
            for seat in seats:
                g.encoded_view(seat)
            total += time.perf_counter() - t
            versions += 1
    return total / versions * 1e6, versions


best = min(run()[0] for _ in range(5))
print(f"{sys.argv[1]}: {best:.0f} us/version ({run()[1]} versions)")
