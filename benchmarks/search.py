"""Search benchmark: the exact Slobberhannes solver and the strong bot's decisions.

* Solver: exact max^n solve of random 4-player deals from the first lead
  (``--deals``, default 200); target: median at most 50 ms.
* Strong bot: decision time at its default settings over whole deals in which
  it plays every seat (``--bot-deals``, default 10); target: median at most 1 s.
  Its samples are bounded by a node budget, not by time: the decisions (and
  the nodes searched) are the same on any machine; only the time varies.

Run: ``python benchmarks/search.py [--json]``.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from typing import Any, Final

from kartentisch.bots.slobberhannes_strong import StrongSlobberhannesBot
from kartentisch.games.slobberhannes.deal import SlobberhannesDeal
from kartentisch.search.slobberhannes_solver import solve

SOLVE_TARGET_MS: Final = 50.0
DECISION_TARGET_MS: Final = 1000.0


def _summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "median_ms": statistics.median(ordered) * 1000,
        "p90_ms": ordered[int(0.9 * (len(ordered) - 1))] * 1000,
        "max_ms": ordered[-1] * 1000,
        "mean_ms": statistics.fmean(ordered) * 1000,
    }


def bench_solver(deals: int, seed: int) -> dict[str, Any]:
    times: list[float] = []
    nodes: list[int] = []
    for k in range(deals):
        deal = SlobberhannesDeal.from_seed(seed * 100_003 + k, dealer=k % 4)
        start = time.perf_counter()
        result = solve(deal)
        times.append(time.perf_counter() - start)
        nodes.append(result.nodes)
    return {"deals": deals, **_summary(times), "median_nodes": statistics.median(nodes)}


def bench_bot(deals: int, seed: int) -> dict[str, Any]:
    times: list[float] = []
    nodes: list[int] = []
    budget_reached = 0
    for k in range(deals):
        deal = SlobberhannesDeal.from_seed(seed * 7919 + k, dealer=k % 4)
        bots = [StrongSlobberhannesBot(seed * 31 + 4 * k + s) for s in range(4)]
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            bot = bots[seat]
            bot.last_samples = bot.last_nodes = 0
            start = time.perf_counter()
            card = bot.choose(obs)
            times.append(time.perf_counter() - start)
            nodes.append(bot.last_nodes)
            if bot.last_samples and bot.last_samples < bot.samples:
                budget_reached += 1  # stopped by the node budget before all samples
            deal.apply(card)
    return {
        "deals": deals,
        "decisions": len(times),
        **_summary(times),
        "mean_nodes": statistics.fmean(nodes),
        "node_budget_reached": budget_reached,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--bot-deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    solver = bench_solver(args.deals, args.seed)
    bot = bench_bot(args.bot_deals, args.seed)
    report = {
        "python": platform.python_version(),
        "solver": {**solver, "target_median_ms": SOLVE_TARGET_MS},
        "strong_bot": {**bot, "target_median_ms": DECISION_TARGET_MS},
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"exact solve, {solver['deals']} 4-player deals from the first lead: "
        f"median {solver['median_ms']:.1f} ms (target <= {SOLVE_TARGET_MS:.0f}), "
        f"p90 {solver['p90_ms']:.1f} ms, max {solver['max_ms']:.0f} ms, "
        f"median nodes {solver['median_nodes']:.0f}"
    )
    print(
        f"strong bot, {bot['decisions']} decisions in {bot['deals']} deals: "
        f"median {bot['median_ms']:.1f} ms (target <= {DECISION_TARGET_MS:.0f}), "
        f"p90 {bot['p90_ms']:.0f} ms, max {bot['max_ms']:.0f} ms, mean {bot['mean_ms']:.1f} ms, "
        f"{bot['node_budget_reached']} stopped by the node budget"
    )


if __name__ == "__main__":
    main()
