"""Doppelkopf search benchmark: the exact solver and the strong bot's decisions.

* Full deals: from the first lead of a normal game (everyone passes), the
  cheapest exact question — does Re reach 121 Augen? — for every card the
  first player may lead (``--full-deals``, default 4; these take seconds to
  minutes each, so few).
* Mid-deal: positions reached by heuristic play with 7, 6, 5 and 4 tricks
  left: the exact Augen of every following card (full window) and the
  threshold search the strong bot uses (``reached`` at 30 … 211 Augen).
* Strong bot: decision time at its default settings over whole deals in
  which it plays every seat (``--bot-deals``, default 6), all its cards and
  those it searched; target: median at most 1 s.

Run: ``python benchmarks/doppelkopf_search.py [--json]``.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from typing import Any, Final

from kartentisch.bots.doppelkopf import HeuristicDoppelkopfBot
from kartentisch.bots.doppelkopf_strong import StrongDoppelkopfBot
from kartentisch.cards import Card
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal
from kartentisch.search.doppelkopf_solver import Position, compiled, reached, solve_moves

DECISION_TARGET_MS: Final = 1000.0
STEPS: Final = [30, 60, 90, 121, 151, 181, 211]


def _summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times) or [0.0]
    return {
        "median_ms": statistics.median(ordered) * 1000,
        "p90_ms": ordered[int(0.9 * (len(ordered) - 1))] * 1000,
        "max_ms": ordered[-1] * 1000,
        "mean_ms": statistics.fmean(ordered) * 1000,
    }


def _normal_game(seed: int) -> DoppelkopfDeal | None:
    deal = DoppelkopfDeal.from_seed(seed, dealer=seed % 4)
    while deal.phase == "declare":
        deal.apply(Call("pass"))
    return deal if deal.phase == "play" and deal.game_type == "normal" else None


def bench_full(deals: int, seed: int) -> dict[str, Any]:
    times: list[float] = []
    nodes: list[int] = []
    k = 0
    while len(times) < deals:
        deal = _normal_game(seed * 1009 + k)
        k += 1
        if deal is None:
            continue
        pos = Position.of(deal)
        start = time.perf_counter()
        _, n = reached(pos, pos.following(), [121])
        times.append(time.perf_counter() - start)
        nodes.append(n)
    if not times:
        return {"deals": 0}
    return {"deals": deals, **_summary(times), "median_nodes": statistics.median(nodes)}


def _heuristic_positions(count: int, tricks_left: int, seed: int) -> list[Position]:
    out: list[Position] = []
    k = 0
    while len(out) < count and k < 20 * count:
        deal = DoppelkopfDeal.from_seed(seed * 7919 + k, dealer=k % 4)
        k += 1
        bots = [HeuristicDoppelkopfBot(s) for s in range(4)]
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            if (
                deal.phase == "play"
                and deal.re_party is not None
                and deal.game_type != "null"
                and len(deal.hand(seat)) == tricks_left
                and not deal.observation(seat).trick.cards
            ):
                out.append(Position.of(deal))
                break
            deal.apply(bots[seat].choose(deal.observation(seat)), seat)
    return out


def bench_mid(count: int, seed: int) -> dict[str, Any]:
    report: dict[str, Any] = {}
    for left in (7, 6, 5, 4):
        positions = _heuristic_positions(count, left, seed)
        exact: list[float] = []
        steps: list[float] = []
        for pos in positions:
            start = time.perf_counter()
            solve_moves(pos)
            exact.append(time.perf_counter() - start)
            start = time.perf_counter()
            reached(pos, pos.following(), [t - pos.taken for t in STEPS if t > pos.taken])
            steps.append(time.perf_counter() - start)
        report[f"{left}_tricks_left"] = {
            "positions": len(positions),
            "exact_values": _summary(exact),
            "thresholds": _summary(steps),
        }
    return report


def bench_bot(deals: int, seed: int) -> dict[str, Any]:
    times: list[float] = []
    searched: list[float] = []
    by_left: dict[int, list[float]] = {}
    played = k = 0
    while played < deals:
        deal = DoppelkopfDeal.from_seed(seed * 31 + k, dealer=k % 4)
        k += 1
        bots = [StrongDoppelkopfBot(seed * 31 + 4 * k + s) for s in range(4)]
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            before = bots[seat].searched
            start = time.perf_counter()
            action = bots[seat].choose(obs)
            elapsed = time.perf_counter() - start
            if isinstance(action, Card):
                times.append(elapsed)
                by_left.setdefault(len(obs.hand), []).append(elapsed)
                if bots[seat].searched > before:
                    searched.append(elapsed)
            deal.apply(action, seat)
        played += deal.outcome == "played"
    return {
        "deals": deals,
        "decisions": len(times),
        **_summary(times),
        "searched": {"decisions": len(searched), **_summary(searched)},
        "median_ms_by_tricks_left": {
            str(n): statistics.median(v) * 1000 for n, v in sorted(by_left.items(), reverse=True)
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--full-deals", type=int, default=4)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--bot-deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = {
        "python": platform.python_version(),
        "compiled": compiled(),
        "full_deal_re_121": bench_full(args.full_deals, args.seed),
        "mid_deal": bench_mid(args.positions, args.seed),
        "strong_bot": {
            **bench_bot(args.bot_deals, args.seed),
            "target_median_ms": DECISION_TARGET_MS,
        },
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    full = report["full_deal_re_121"]
    if full.get("deals"):
        print(
            f"full deal, Re ≥ 121? from the first lead ({full['deals']} deals): "
            f"median {full['median_ms']:.0f} ms, max {full['max_ms']:.0f} ms"
        )
    for name, row in report["mid_deal"].items():
        ex, th = row["exact_values"], row["thresholds"]
        print(
            f"{name.replace('_', ' ')} ({row['positions']} positions): exact values median "
            f"{ex['median_ms']:.1f} ms (max {ex['max_ms']:.0f}); thresholds median "
            f"{th['median_ms']:.2f} ms (max {th['max_ms']:.1f})"
        )
    bot = report["strong_bot"]
    print(
        f"strong bot, {bot['decisions']} cards in {bot['deals']} deals: median "
        f"{bot['median_ms']:.1f} ms, p90 {bot['p90_ms']:.0f} ms, max {bot['max_ms']:.0f} ms "
        f"(target median ≤ {DECISION_TARGET_MS:.0f} ms)"
    )
    found = bot["searched"]
    print(
        f"  of which searched ({found['decisions']}): median {found['median_ms']:.1f} ms, "
        f"p90 {found['p90_ms']:.0f} ms, max {found['max_ms']:.0f} ms"
    )
    print(
        "  median by tricks left:",
        ", ".join(f"{n}: {ms:.1f} ms" for n, ms in bot["median_ms_by_tricks_left"].items()),
    )


if __name__ == "__main__":
    main()
