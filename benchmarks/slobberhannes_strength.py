"""Strong Slobberhannes bot variants against three heuristic bots, duplicate.

Each variant plays the seat of ``strong`` in ``strong,heuristic,heuristic,heuristic``
exactly as ``kartentisch simulate`` deals it (the same deal seeds, dealers,
rotations and bot seeds), so the default variant prints the figures of

    kartentisch simulate slobberhannes --bots strong,heuristic,heuristic,heuristic \\
        --deals N --seed S

and every variant plays the same deals: the differences between variants are
paired per deal. Reported per variant: mean penalties per deal of the strong
seat and of the heuristic seats, their ratio (95% interval by the delta
method), and the strong seat's decision times (p50, p95, max; the benchmark
reads the clock, the bot does not): wall time and the CPU time of the
deciding thread, which a busy machine changes less.

    python benchmarks/slobberhannes_strength.py --deals 400 --seed 1 --jobs 2 \\
        plain=inference:false default expert=level:expert

A variant is ``NAME=key:value,key:value`` (keyword arguments of
``StrongSlobberhannesBot``, or ``level:expert`` for the expert level), or just
``default`` / ``expert``.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from kartentisch.bots import Bot, make_bot
from kartentisch.bots.slobberhannes_strong import StrongSlobberhannesBot
from kartentisch.games.slobberhannes.deal import SlobberhannesDeal
from kartentisch.tournament import derived_seed

Variant = tuple[str, dict[str, Any]]


def parse_variant(text: str) -> Variant:
    name, _, spec = text.partition("=")
    if not spec:
        spec = "level:expert" if name == "expert" else ""
    kwargs: dict[str, Any] = {}
    for item in filter(None, spec.split(",")):
        key, _, raw = item.partition(":")
        kwargs[key] = json.loads(raw) if raw not in ("expert", "strong") else raw
    return name, kwargs


def make_strong(kwargs: dict[str, Any], seed: int) -> Bot:
    if "level" in kwargs:
        return make_bot("slobberhannes", str(kwargs["level"]), seed)
    return StrongSlobberhannesBot(seed, **kwargs)


class Timed:
    def __init__(self, bot: Bot, times: list[float], cpu: list[float]) -> None:
        self.bot, self.times, self.cpu, self.name = bot, times, cpu, bot.name

    def choose(self, observation: Any) -> Any:
        start, cpu = time.perf_counter(), time.thread_time()
        action = self.bot.choose(observation)
        self.times.append(time.perf_counter() - start)
        self.cpu.append(time.thread_time() - cpu)
        return action


def play(
    args: tuple[dict[str, Any], int, int],
) -> tuple[float, float, list[float], list[float]]:
    """Deal ``number``: (strong mean, heuristic mean, decision wall times, CPU times)."""
    kwargs, seed, number = args
    n = 4
    deal_seed = derived_seed(seed, number)
    import random

    dealer = random.Random(deal_seed).randrange(n)
    strong: list[float] = []
    heur: list[float] = []
    times: list[float] = []
    cpu: list[float] = []
    for rotation in range(n):
        bots: list[Bot] = []
        seat_of = [(i + rotation) % n for i in range(n)]
        by_seat: dict[int, Bot] = {}
        for i in range(n):
            bot_seed = derived_seed(seed, number, rotation, i)
            by_seat[seat_of[i]] = (
                Timed(make_strong(kwargs, bot_seed), times, cpu)
                if i == 0
                else make_bot("slobberhannes", "heuristic", bot_seed)
            )
        bots = [by_seat[s] for s in range(n)]
        deal = SlobberhannesDeal.from_seed(deal_seed, dealer=dealer, options={"players": n})
        while not deal.is_over:
            s = deal.to_move
            assert s is not None
            deal.apply(bots[s].choose(deal.observation(s)))
        points = deal.points()
        for i in range(n):
            (strong if i == 0 else heur).append(float(points[seat_of[i]]))
    return statistics.fmean(strong), statistics.fmean(heur), times, cpu


def mean_ci(xs: Sequence[float]) -> tuple[float, float]:
    m = statistics.fmean(xs)
    return m, 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0


def pct(xs: Sequence[float], q: float) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first", type=int, default=0, help="first deal number")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    variants = [parse_variant(v) for v in args.variants]
    numbers = range(args.first, args.first + args.deals)
    results: dict[str, list[tuple[float, float, list[float], list[float]]]] = {}
    for name, kwargs in variants:
        work = [(kwargs, args.seed, k) for k in numbers]
        started = time.perf_counter()
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                results[name] = list(pool.map(play, work, chunksize=4))
        else:
            results[name] = [play(w) for w in work]
        elapsed = time.perf_counter() - started
        s = [r[0] for r in results[name]]
        h = [r[1] for r in results[name]]
        times = [t for r in results[name] for t in r[2]]
        cpu = [t for r in results[name] for t in r[3]]
        ms, cs = mean_ci(s)
        mh, ch = mean_ci(h)
        ratio = ms / mh
        resid = [a - ratio * b for a, b in zip(s, h, strict=True)]
        cr = 1.96 * statistics.stdev(resid) / math.sqrt(len(s)) / mh
        print(
            f"{name:>12} {kwargs}: strong {ms:.3f} ±{cs:.3f}  heuristic {mh:.3f} ±{ch:.3f}  "
            f"ratio {ratio:.3f} ({ratio - cr:.3f} … {ratio + cr:.3f})  "
            f"decision p50 {pct(times, 0.5) * 1000:.0f} ms p95 {pct(times, 0.95) * 1000:.0f} ms "
            f"max {max(times) * 1000:.0f} ms; CPU p50 {pct(cpu, 0.5) * 1000:.0f} ms "
            f"p95 {pct(cpu, 0.95) * 1000:.0f} ms max {max(cpu) * 1000:.0f} ms  "
            f"[{len(s)} deals, {elapsed:.0f} s]",
            flush=True,
        )
    names = list(results)
    for other in names[1:]:
        diffs = [a[0] - b[0] for a, b in zip(results[other], results[names[0]], strict=True)]
        m, c = mean_ci(diffs)
        print(f"{other} − {names[0]} (strong seat, paired): {m:+.3f} ({m - c:+.3f} … {m + c:+.3f})")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(
                {name: [list(r) for r in rows] for name, rows in results.items()},
                out,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
