"""How long the web app's "analyse this deal" takes: one deal for one seat, as the worker runs it.

Deals of heuristic bots are dealt from seeds, recorded, and each analysed for
seat 0 exactly as ``GET /api/tables/{id}/analysis`` does
(:func:`kartentisch.web.analysis.deal_analysis`: the web's sample counts, the
fixed seed). Prints the median, the 95th percentile and the largest time per
game, in one process (the worker's one core).

Run: ``python benchmarks/analysis_time.py [--deals N] [--seed S] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from kartentisch.bots import make_bot
from kartentisch.web.adapter import table_game_type
from kartentisch.web.analysis import deal_analysis

#: One deal per record: Slobberhannes to the first penalty chip, one Doppelkopf game.
GAMES: dict[str, dict[str, Any]] = {
    "slobberhannes": {"target": 1},
    "doppelkopf": {"games": 1},
}


def record(game: str, seed: int) -> dict[str, Any]:
    """A finished record of heuristic bots from ``seed``."""
    kind = table_game_type(game)
    options = kind.normalize_options(GAMES[game], seats=4)
    table = kind.create(options, ["A", "B", "C", "D"], seed)
    bots = [make_bot(game, "heuristic", random.Random(seed * 7 + i)) for i in range(4)]
    while not table.is_over:
        seat = table.acting[0]
        automatic = getattr(table, "bot_action", None)
        text = automatic(seat) if automatic is not None else None
        if text is None:
            text = table.format_action(bots[seat].choose(table.observation(seat)))
        table.act(seat, text)
    made: dict[str, Any] = table.record(complete=True, by=["bot"] * len(table.actions))
    return made


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="deals per game (20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {"python": platform.python_version(), "deals": args.deals}
    for game in GAMES:
        times: list[float] = []
        for k in range(args.deals):
            made = record(game, args.seed * 1000 + k)
            start = time.perf_counter()
            deal_analysis(made, 1, 0, "en")
            times.append(time.perf_counter() - start)
        out[game] = {
            "median_s": round(statistics.median(times), 3),
            "p95_s": round(percentile(times, 0.95), 3),
            "max_s": round(max(times), 3),
        }
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for game in GAMES:
            row = out[game]
            print(
                f"{game}: {args.deals} deals, median {row['median_s']} s, "
                f"p95 {row['p95_s']} s, max {row['max_s']} s"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
