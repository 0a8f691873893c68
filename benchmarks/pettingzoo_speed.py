"""PettingZoo benchmark: steps per second of random masked agents, beside the engine.

For each game (Slobberhannes, Doppelkopf house rules, Doppelkopf DDV) three loops
run for a fixed time, taking turns within each round (the order flips every
round, so that drift of the machine hits all of them alike):

* **engine**: the loop of ``benchmarks/engine_playouts.py`` — whole deals through
  the public API, ``deal.apply(rng.choice(deal.legal_actions()))``; decisions/s.
* **raw_env**: :func:`kartentisch.interop.pettingzoo.raw_env` driven by random
  masked agents: ``observation, reward, termination, truncation, info =
  env.last()``; a legal id drawn from ``observation["action_mask"]``
  (its ``nonzero()`` ids, then ``rng.choice``); ``env.step(id)``; a finished deal
  is followed by ``env.reset()``. Steps (actions taken) per second.
* **env**: the same loop over :func:`kartentisch.interop.pettingzoo.env` (the
  wrapped environment, as PettingZoo's classic games are wrapped).

Reported per loop: the best and the median round; per environment, its share of
the engine's decisions per second, round by round (the two ran back to back)
and best over best; the environments' backend (``c``: the compiled game,
``python``: the engine's tables) and the load average before and after. Every
generator is seeded from ``--seed``. ``--backend python`` measures the
environments on the engine's tables even where a compiled game plays the options.

    python benchmarks/pettingzoo_speed.py [--seconds 2] [--rounds 3] [--seed 0]
        [--backend auto|c|python] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from kartentisch import _native as native
from kartentisch.interop import pettingzoo

sys.path.insert(0, str(Path(__file__).resolve().parent))
import engine_playouts  # the engine loop, from the benchmark beside this one

#: The games: name, label, PettingZoo game and options, the engine's playout.
GAMES: Final[tuple[tuple[str, str, str, dict[str, Any] | None, engine_playouts.PlayFn], ...]] = (
    (
        "slobberhannes",
        "Slobberhannes",
        "slobberhannes",
        None,
        engine_playouts.slobberhannes_playout,
    ),
    (
        "doppelkopf_house",
        "Doppelkopf, house rules",
        "doppelkopf",
        None,
        engine_playouts.setup_doppelkopf_house(),
    ),
    (
        "doppelkopf_ddv",
        "Doppelkopf, DDV",
        "doppelkopf",
        {"preset": "ddv"},
        engine_playouts.setup_doppelkopf_ddv(),
    ),
)
LOOPS: Final = ("engine", "raw_env", "env")
#: Untimed warm-up per loop (deals, or steps for the environments).
WARMUP: Final = 20

#: Runs for about the given seconds with the generator; returns (steps, seconds).
Runner = Callable[[random.Random, float], tuple[int, float]]


def engine_runner(play: engine_playouts.PlayFn) -> Runner:
    def run(rng: random.Random, seconds: float) -> tuple[int, float]:
        result = engine_playouts.run_for(play, rng, seconds)
        return result.decisions, result.seconds

    return run


def env_runner(make: Callable[[], Any]) -> Runner:
    """Random masked agents stepping the environment ``make()`` gives."""
    env = make()
    seeded = [False]

    def run(rng: random.Random, seconds: float) -> tuple[int, float]:
        if not seeded[0]:
            env.reset(seed=rng.getrandbits(32))
            seeded[0] = True
        else:
            env.reset()
        choice = rng.choice
        steps = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            for _ in range(200):
                observation, _reward, termination, truncation, _info = env.last()
                if termination or truncation:
                    env.reset()
                    continue
                env.step(int(choice(observation["action_mask"].nonzero()[0])))
                steps += 1
            now = time.perf_counter()
            if now >= deadline:
                return steps, now - start

    return run


@dataclass(slots=True)
class LoopResult:
    name: str
    rates: list[float] = field(default_factory=list)

    @property
    def best(self) -> float:
        return max(self.rates)

    @property
    def median(self) -> float:
        return statistics.median(self.rates)


@dataclass(slots=True)
class GameResult:
    name: str
    label: str
    loops: dict[str, LoopResult]
    #: The environments' backend: ``c`` (the compiled game) or ``python`` (the engine).
    backend: str = "python"

    def shares(self, loop: str) -> list[float]:
        """The environment's steps/s over the engine's decisions/s, round by round."""
        return [
            mine / engine
            for mine, engine in zip(self.loops[loop].rates, self.loops["engine"].rates, strict=True)
        ]

    def best_share(self, loop: str) -> float:
        return self.loops[loop].best / self.loops["engine"].best

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "backend": self.backend,
            "loops": {
                name: {
                    "per_s": [round(r, 1) for r in loop.rates],
                    "best": round(loop.best, 1),
                    "median": round(loop.median, 1),
                }
                for name, loop in self.loops.items()
            },
            "share_of_engine": {
                loop: {
                    "best": round(self.best_share(loop), 3),
                    "per_round": [round(q, 3) for q in self.shares(loop)],
                }
                for loop in LOOPS[1:]
            },
        }


def benchmark(
    *, seed: int, seconds: float, rounds: int, backend: pettingzoo.Backend = "auto"
) -> list[GameResult]:
    master = random.Random(seed)
    runners: list[tuple[GameResult, dict[str, Runner]]] = []
    for name, label, game, options, play in GAMES:
        if backend == "c" and pettingzoo.raw_env(game, options).backend != "c":
            kind = "auto"  # no compiled game for these options: the engine's tables
        else:
            kind = backend
        loops = {
            "engine": engine_runner(play),
            "raw_env": env_runner(
                lambda g=game, o=options, b=kind: pettingzoo.raw_env(g, o, backend=b)
            ),
            "env": env_runner(lambda g=game, o=options, b=kind: pettingzoo.env(g, o, backend=b)),
        }
        used = pettingzoo.raw_env(game, options, backend=kind).backend
        result = GameResult(name, label, {k: LoopResult(k) for k in loops}, used)
        runners.append((result, loops))
    warm = random.Random(master.getrandbits(64))
    for _, loops in runners:
        for run in loops.values():
            run(warm, 0.0)  # at least one batch each, untimed
    for r in range(rounds):
        order = [(g, loop) for g in range(len(runners)) for loop in LOOPS]
        if r % 2:
            order.reverse()
        seeds = {key: master.getrandbits(64) for key in order}
        for g, loop in order:
            result, loops = runners[g]
            steps, elapsed = loops[loop](random.Random(seeds[g, loop]), seconds)
            result.loops[loop].rates.append(steps / elapsed)
    return [result for result, _ in runners]


def load_average() -> float | None:
    """The 1-minute load average (None where the system has none)."""
    try:
        return os.getloadavg()[0]
    except OSError:  # pragma: no cover - not on every system
        return None


def report_text(
    results: Sequence[GameResult],
    *,
    seed: int,
    seconds: float,
    rounds: int,
    load: tuple[float | None, float | None] = (None, None),
) -> str:
    loads = " ".join("?" if x is None else f"{x:.2f}" for x in load)
    lines = [
        f"PettingZoo, random masked agents: {rounds} round(s) of {seconds:g} s per loop, "
        f"seed {seed}",
        f"Engine modules: {native.status()}; load average before, after: {loads}",
        "",
        f"{'game':<26}{'loop':<17}{'per s best':>12}{'median':>10}{'share best':>12}"
        f"{'median':>8}  share by round",
    ]
    for result in results:
        for name, loop in result.loops.items():
            share = median = by_round = ""
            label = name
            if name != "engine":
                share = f"{result.best_share(name):.3f}"
                median = f"{statistics.median(result.shares(name)):.3f}"
                by_round = " ".join(f"{q:.3f}" for q in result.shares(name))
                label = f"{name} ({result.backend})"
            lines.append(
                f"{result.label:<26}{label:<17}{loop.best:>12,.0f}{loop.median:>10,.0f}"
                f"{share:>12}{median:>8}  {by_round}"
            )
    lines.append("")
    lines.append("engine: decisions/s through the engine's API; raw_env, env: steps/s;")
    lines.append("share: the environment's steps/s over the engine's decisions/s.")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=0, help="seed of random.Random (default 0)")
    parser.add_argument(
        "--seconds",
        type=engine_playouts.positive_float,
        default=2.0,
        help="per loop per round (default 2)",
    )
    parser.add_argument(
        "--rounds", type=engine_playouts.positive_int, default=3, help="rounds (default 3)"
    )
    parser.add_argument(
        "--backend",
        choices=("auto", "c", "python"),
        default="auto",
        help="the environments' backend (default auto: the compiled game where it plays)",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object instead")
    args = parser.parse_args(argv)
    before = load_average()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's notes on Dict observations
        results = benchmark(
            seed=args.seed, seconds=args.seconds, rounds=args.rounds, backend=args.backend
        )
    load = (before, load_average())
    if args.json:
        print(
            json.dumps(
                {
                    "benchmark": "pettingzoo_speed",
                    "seed": args.seed,
                    "seconds": args.seconds,
                    "rounds": args.rounds,
                    "engine_modules": native.status(),
                    "load_average": list(load),
                    "games": [r.to_dict() for r in results],
                },
                indent=2,
            )
        )
    else:
        print(
            report_text(
                results, seed=args.seed, seconds=args.seconds, rounds=args.rounds, load=load
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
