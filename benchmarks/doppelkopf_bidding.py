"""Doppelkopf bot decisions: time per decision by level, and duplicate matches of variants.

``timing`` (default): every seat is the level's bot over ``--deals`` seeded
deals; prints p50/p95/max decision time per level, for every decision, for
the declarations and announcements the strong bot estimates by playouts, and
for the turns of the early tricks (before the exact search: the early search);
and every decision's and the early tricks' CPU time (what the decision costs
whatever the load).

``match``: a duplicate tournament like ``kartentisch simulate`` between bot
variants that the CLI has no level for: ``strong`` (the default bot),
``strong-old`` (the strong bot with the heuristic bot's declarations and
announcements, ``bidding=False``), ``expert``, ``heuristic``, and
``strong-noannounce`` / ``strong-nodeclare`` (only one half of the bidding),
``strong-heuristic-early`` (the strong bot
playing the heuristic bot's card until the exact search starts,
``early_playouts=0``: the default before 2026-12-07), ``strong-early`` (the
early search by playouts with the strict gate, ``early_leaf="playout"``,
``early_z=2``), ``strong-early-solve`` (each card's deals played on by the
heuristic bot only until the exact search takes over and valued there by it,
``early_leaf="solve"``, with the strict gate ``early_z=2``), and
``strong-early-solve-z1`` (the same with the looser gate ``early_z=1``: the
default strong bot since 2026-12-07). ``--log FILE``
writes the summary so far after every chunk of deals (partial figures of a
long match).

Run: ``python benchmarks/doppelkopf_bidding.py timing --deals 8 --levels strong,expert``
or ``python benchmarks/doppelkopf_bidding.py match --bots strong,strong-old,strong,strong-old
--deals 200 --seed 3 --jobs 2 [--preset ddv]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from kartentisch import bots as bots_module
from kartentisch import tournament
from kartentisch.bots import Bot
from kartentisch.bots.doppelkopf_strong import StrongDoppelkopfBot
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions

#: Cards in hand above which the strong bot's exact search has not started.
_EXACT_TRICKS = 6
_VARIANTS = (
    "strong-old",
    "strong-heuristic-early",
    "strong-noannounce",
    "strong-nodeclare",
    "strong-early",
    "strong-early-solve",
    "strong-early-solve-z1",
)


class _Half(StrongDoppelkopfBot):
    """The strong bot with only its declarations or only its announcements estimated."""

    def __init__(self, seed: int | random.Random | None, *, declare: bool) -> None:
        super().__init__(seed)
        self.declare_only = declare

    def bid(self, obs: Any, preferred: Any) -> Any:
        if (obs.phase == "declare") != self.declare_only:
            if obs.phase == "declare":
                return preferred
            from kartentisch.bots.doppelkopf import HeuristicDoppelkopfBot

            if obs.phase == "play" and obs.to_move == obs.seat:
                return HeuristicDoppelkopfBot._announce(self.fallback, obs, list(obs.legal_actions))
            return None
        return super().bid(obs, preferred)


def _make(game: str, level: str, seed: int | random.Random | None = None) -> Bot:
    if game == "doppelkopf" and level == "strong-old":
        return StrongDoppelkopfBot(seed, bidding=False)
    if game == "doppelkopf" and level == "strong-heuristic-early":
        return StrongDoppelkopfBot(seed, early_playouts=0)
    if game == "doppelkopf" and level == "strong-early":
        return StrongDoppelkopfBot(seed, early_playouts=32, early_leaf="playout", early_z=2.0)
    if game == "doppelkopf" and level == "strong-early-solve":
        return StrongDoppelkopfBot(seed, early_playouts=32, early_leaf="solve", early_z=2.0)
    if game == "doppelkopf" and level == "strong-early-solve-z1":
        return StrongDoppelkopfBot(seed, early_playouts=32, early_leaf="solve", early_z=1.0)
    if game == "doppelkopf" and level == "strong-noannounce":
        return _Half(seed, declare=True)
    if game == "doppelkopf" and level == "strong-nodeclare":
        return _Half(seed, declare=False)
    return _original_make(game, level, seed)


_original_make = bots_module.make_bot


def _install() -> None:
    """Make the variants known to the tournament (workers fork with it)."""
    bots_module.LEVELS["doppelkopf"] = (*bots_module.LEVELS["doppelkopf"], *_VARIANTS)
    setattr(tournament, "make_bot", _make)  # noqa: B010 (a benchmark-only patch)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timing(levels: list[str], deals: int, seed: int, preset: str) -> dict[str, Any]:
    options = DoppelkopfOptions.preset_named(preset)
    out: dict[str, Any] = {}
    for level in levels:
        every: list[float] = []
        bidding: list[float] = []
        early: list[float] = []
        cpu: list[float] = []
        early_cpu: list[float] = []
        for k in range(deals):
            rng = random.Random(seed * 1000 + k)
            deal = DoppelkopfDeal.from_seed(rng.getrandbits(32), dealer=k % 4, options=options)
            seats = [_make("doppelkopf", level, rng.getrandbits(32)) for _ in range(4)]
            while not deal.is_over:
                seat = deal.to_move
                assert seat is not None
                obs = deal.observation(seat)
                start, cpu_start = time.perf_counter(), time.process_time()
                action = seats[seat].choose(obs)
                spent = time.perf_counter() - start
                spent_cpu = time.process_time() - cpu_start
                every.append(spent)
                cpu.append(spent_cpu)
                weighs = obs.phase != "play" or any(
                    isinstance(a, Call) and a.is_announcement for a in obs.legal_actions
                )
                if weighs:  # a declaration, an Armut or a turn on which it may announce
                    bidding.append(spent)
                if obs.phase == "play" and len(obs.hand) > _EXACT_TRICKS:
                    early.append(spent)  # a turn before the exact search
                    early_cpu.append(spent_cpu)
                deal.apply(action, seat)
        row: dict[str, Any] = {"decisions": len(every)}
        for name, values in (
            ("every", every),
            ("declare/announce", bidding),
            ("early tricks", early),
            ("every, CPU time", cpu),
            ("early tricks, CPU time", early_cpu),
        ):
            if values:
                row[name] = {
                    "n": len(values),
                    "p50_ms": round(statistics.median(values) * 1000, 1),
                    "p95_ms": round(_pct(values, 0.95) * 1000, 1),
                    "max_ms": round(max(values) * 1000, 1),
                }
        out[level] = row
    return out


def match(
    levels: list[str],
    deals: int,
    seed: int,
    options: dict[str, Any],
    jobs: int,
    log: str | None,
) -> dict[str, Any]:
    """A duplicate match as :func:`tournament.run_tournament` plays it (the same
    chunks and deals), the summary of the deals so far written to ``log`` after
    each chunk."""
    opts = {"players": len(levels), **options}
    per_deal: list[list[list[float]]] = []
    work = tournament.work_chunks("doppelkopf", levels, seed, deals, opts, jobs)
    summary: dict[str, Any] = {}
    for chunk in tournament.map_jobs(tournament.play_chunk, work, jobs):
        per_deal.extend(chunk)
        summary = tournament.summarise("doppelkopf", levels, seed, per_deal).to_dict()
        if log:
            with open(log, "w", encoding="utf-8") as f:
                json.dump(summary, f, indent=1)
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="mode")
    t = sub.add_parser("timing")
    t.add_argument("--levels", default="heuristic,strong,expert")
    t.add_argument("--deals", type=int, default=6)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--preset", default="house")
    m = sub.add_parser("match")
    m.add_argument("--bots", default="strong,strong-old,strong,strong-old")
    m.add_argument("--deals", type=int, default=100)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--jobs", type=int, default=1)
    m.add_argument("--preset", default="house")
    m.add_argument("--log", default=None, help="write the summary so far after every chunk")
    args = parser.parse_args()
    if args.mode == "match":
        _install()
        options = {} if args.preset == "house" else {"preset": args.preset}
        result = match(args.bots.split(","), args.deals, args.seed, options, args.jobs, args.log)
        print(json.dumps(result, indent=1))
        return
    levels = (args.levels if args.mode else "heuristic,strong,expert").split(",")
    deals = args.deals if args.mode else 6
    print(
        json.dumps(
            timing(
                levels, deals, args.seed if args.mode else 1, args.preset if args.mode else "house"
            ),
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
