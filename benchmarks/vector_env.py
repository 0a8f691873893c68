"""Vector environment benchmark: decisions per second with random legal actions.

Each vector environment (:mod:`kartentisch.interop.vector`) is reset with a fixed
seed and stepped with uniformly random legal actions (``sample_actions()``,
drawn in the same compiled code as the step for the compiled games, with
NumPy otherwise; its time is counted) for 1, 64 and 1,024 games per
call. A decision is one action in one game; the figure is decisions per second,
the best of the rounds (other load only ever slows a round down) and the median.
The arrays are the environment's own (``copy=False``); ``--copy`` measures the
default, which copies them for the caller each call.

    python benchmarks/vector_env.py
    python benchmarks/vector_env.py --sizes 1024 --threads 2
    python benchmarks/vector_env.py --presets house ddv

``--presets`` picks the Doppelkopf rules measured (``house``, the default, and
``ddv``); a preset the compiled games do not play is measured on the Python
backend only.

Targets (issue 18): 1,000,000 decisions/s in Slobberhannes, 300,000 in
Doppelkopf (house rules), on two cores.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from kartentisch import _native as native
from kartentisch.interop.vector import (
    DoppelkopfVectorEnv,
    SlobberhannesVectorEnv,
    VectorEnv,
    compiled_available,
)

#: (label, decisions per round is scaled down by, factory(num_envs, copy, threads)).
Variant = tuple[str, str, int, Callable[[int, bool, int], VectorEnv]]


def _compiled_plays(preset: str) -> bool:
    """Whether the compiled Doppelkopf games play ``preset`` (else ``backend="c"`` refuses it)."""
    if not compiled_available("doppelkopf"):
        return False
    try:
        DoppelkopfVectorEnv(1, {"preset": preset}, backend="c")
    except ValueError:
        return False
    return True


def _doppelkopf(preset: str, backend: str) -> Callable[[int, bool, int], VectorEnv]:
    options = {"preset": preset}
    if backend == "c":
        return lambda n, copy, threads: DoppelkopfVectorEnv(
            n, options, backend="c", copy=copy, threads=threads
        )
    return lambda n, copy, threads: DoppelkopfVectorEnv(n, options, backend="python", copy=copy)


def variants(backends: Sequence[str], presets: Sequence[str] = ("house",)) -> list[Variant]:
    out: list[Variant] = []
    if "c" in backends and compiled_available():
        out.append(
            (
                "slobberhannes",
                "c",
                1,
                lambda n, copy, threads: SlobberhannesVectorEnv(
                    n, backend="c", copy=copy, threads=threads
                ),
            )
        )
    if "c" in backends:
        for preset in presets:
            if _compiled_plays(preset):
                out.append((f"doppelkopf ({preset})", "c", 1, _doppelkopf(preset, "c")))
    if "python" in backends:
        out.append(
            (
                "slobberhannes",
                "python",
                50,
                lambda n, copy, threads: SlobberhannesVectorEnv(n, backend="python", copy=copy),
            )
        )
        for preset in presets:
            out.append((f"doppelkopf ({preset})", "python", 50, _doppelkopf(preset, "python")))
    return out


def measure(envs: VectorEnv, decisions: int, rounds: int, seed: int) -> list[float]:
    """Decisions per second of each round (``decisions`` a round, at least one step)."""
    envs.reset(seed=seed)
    for _ in range(3):  # warm-up: caches, first allocations
        envs.step(envs.sample_actions())
    steps = max(1, decisions // envs.num_envs)
    rates = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(steps):
            envs.step(envs.sample_actions())
        rates.append(steps * envs.num_envs / (time.perf_counter() - start))
    return rates


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 64, 1024])
    parser.add_argument(
        "--decisions",
        type=int,
        default=2_000_000,
        help="decisions a round for the compiled games (the Python ones play 1/50 of it)",
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1, help="threads of the compiled step")
    parser.add_argument("--copy", action="store_true", help="return copies (the default API)")
    parser.add_argument("--backends", nargs="+", default=["c", "python"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--presets",
        nargs="+",
        choices=("house", "ddv"),
        default=["house"],
        help="the Doppelkopf rules measured",
    )
    args = parser.parse_args(argv)

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"Vector environments, random legal actions; {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs, load average {load}; "
        f"copy={args.copy}, threads={args.threads}, best (median) of {args.rounds} rounds; "
        f"engine modules: {native.status()}"
    )
    if "c" in args.backends and not compiled_available():
        print("(the compiled Slobberhannes games are not built: Python backend only)")
    if "c" in args.backends and not compiled_available("doppelkopf"):
        print("(the compiled Doppelkopf games are not built: Python backend only)")
    print()
    print("| game | backend | games a call | decisions/s best | median |")
    print("|---|---|---:|---:|---:|")
    for game, backend, scale, factory in variants(args.backends, args.presets):
        for size in args.sizes:
            envs = factory(size, args.copy, args.threads)
            rates = measure(envs, max(1, args.decisions // scale), args.rounds, args.seed)
            print(
                f"| {game} | {backend} | {size:,} | {max(rates):,.0f} | "
                f"{statistics.median(rates):,.0f} |"
            )
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
