"""Engine benchmark: random playouts through the public API, side by side with OpenSpiel.

Each engine plays whole games with uniformly random legal moves for a fixed time
budget, in several rounds; the engines take turns within a round (the order flips
every round) so that drift of the machine hits all of them alike. For each engine
the best and the median round are reported, in decision actions per second (moves a
player chooses; chance outcomes are not counted) and in games per second. The
figure that matters is the ratio of our decisions per second to OpenSpiel's Hearts,
whose target is stated in :data:`TARGET_RATIO`; it is judged on the best rounds (other
load on the machine only ever slows a round down), and the median is printed beside it.

Run it with ``make bench`` or ``python benchmarks/engine_playouts.py``; OpenSpiel comes
with the ``bench`` extra (``pip install -e '.[bench]'``). Without it our own figures
are still measured and printed.

An engine is an entry in :data:`ENGINES`: a name, a label, and a ``setup`` that
returns a function playing one random game with the given ``random.Random`` and
returning the number of decisions made (or raises :class:`EngineUnavailable`).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kartentisch import _native as native
from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
from kartentisch.games.doppelkopf.options import DoppelkopfOptions
from kartentisch.games.slobberhannes.deal import SlobberhannesDeal
from kartentisch.games.slobberhannes.options import SlobberhannesOptions

#: Our decisions per second over OpenSpiel Hearts' decisions per second must reach this.
TARGET_RATIO: Final = 1.0
BENCH_EXTRA: Final = "pip install -e '.[bench]'"
#: Untimed games each engine plays before its first round (imports, caches).
WARMUP_GAMES: Final = 20

#: Plays one random game with the given generator; returns the number of decisions.
PlayFn = Callable[[random.Random], int]


class EngineUnavailable(Exception):
    """An engine cannot run here (a missing optional dependency); the message says why."""


@dataclass(frozen=True, slots=True)
class Engine:
    """One entry of the benchmark.

    ``setup`` is called once, untimed, and returns the playout function; it may raise
    :class:`EngineUnavailable`. ``reference`` marks the engine the ratio divides by.
    """

    name: str
    label: str
    unit: str
    setup: Callable[[], PlayFn]
    reference: bool = False


# -- the engines ---------------------------------------------------------------

_SLOBBERHANNES_OPTIONS: Final = SlobberhannesOptions(players=4)


def slobberhannes_playout(rng: random.Random) -> int:
    """One full 4-player Slobberhannes deal from one shuffle, random legal cards."""
    deal = SlobberhannesDeal.from_seed(rng, dealer=rng.randrange(4), options=_SLOBBERHANNES_OPTIONS)
    decisions = 0
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
        decisions += 1
    return decisions


def _setup_slobberhannes() -> PlayFn:
    return slobberhannes_playout


def _doppelkopf_playout(options: DoppelkopfOptions) -> PlayFn:
    """One 4-player Doppelkopf deal from one shuffle, every decision random.

    A decision is every action the seat to move makes: declarations, the Armut
    answer and exchange, cards, and the announcements that
    ``legal_actions()`` offers it beside its cards. A deal that ends in a
    redeal (five kings, a refused Armut) counts as a game with its decisions.
    """

    def doppelkopf_playout(rng: random.Random) -> int:
        deal = DoppelkopfDeal.from_seed(rng, dealer=rng.randrange(4), options=options)
        decisions = 0
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
            decisions += 1
        return decisions

    return doppelkopf_playout


def setup_doppelkopf_house() -> PlayFn:
    return _doppelkopf_playout(DoppelkopfOptions.preset_named("house"))


def setup_doppelkopf_ddv() -> PlayFn:
    return _doppelkopf_playout(DoppelkopfOptions.preset_named("ddv"))


def _setup_openspiel_hearts() -> PlayFn:
    """OpenSpiel's Hearts, default parameters, driven by the same loop as ours."""
    try:
        pyspiel: Any = importlib.import_module("pyspiel")
    except ImportError as exc:
        raise EngineUnavailable(
            f"OpenSpiel (pyspiel) is not importable ({exc}); "
            f"install the bench extra to compare: {BENCH_EXTRA}"
        ) from exc
    game: Any = pyspiel.load_game("hearts")

    def hearts_playout(rng: random.Random) -> int:
        state: Any = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        return decisions

    return hearts_playout


#: The engines, in the order they run within a round. Add new engines here.
ENGINES: Final[tuple[Engine, ...]] = (
    Engine("slobberhannes", "Slobberhannes (kartentisch)", "deals", _setup_slobberhannes),
    Engine(
        "doppelkopf_house",
        "Doppelkopf, house rules (kartentisch)",
        "deals",
        setup_doppelkopf_house,
    ),
    Engine("doppelkopf_ddv", "Doppelkopf, DDV (kartentisch)", "deals", setup_doppelkopf_ddv),
    Engine(
        "openspiel_hearts",
        "Hearts (OpenSpiel)",
        "games",
        _setup_openspiel_hearts,
        reference=True,
    ),
)


# -- measuring -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundResult:
    games: int
    decisions: int
    seconds: float

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "decisions": self.decisions,
            "seconds": round(self.seconds, 4),
            "decisions_per_s": round(self.decisions_per_s, 1),
            "games_per_s": round(self.games_per_s, 2),
        }


@dataclass(slots=True)
class EngineResult:
    engine: Engine
    play: PlayFn | None
    note: str | None
    rounds: list[RoundResult]

    @property
    def available(self) -> bool:
        return self.play is not None

    def best(self, metric: Callable[[RoundResult], float]) -> float:
        return max(metric(r) for r in self.rounds)

    def median(self, metric: Callable[[RoundResult], float]) -> float:
        return statistics.median(metric(r) for r in self.rounds)

    @property
    def decisions_per_game(self) -> float:
        games = sum(r.games for r in self.rounds)
        return sum(r.decisions for r in self.rounds) / games

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.engine.name,
            "label": self.engine.label,
            "unit": self.engine.unit,
            "reference": self.engine.reference,
            "available": self.available,
            "note": self.note,
        }
        if self.rounds:
            out["rounds"] = [r.to_dict() for r in self.rounds]
            out["decisions_per_game"] = round(self.decisions_per_game, 2)
            for kind, summary in (("best", self.best), ("median", self.median)):
                out[kind] = {
                    "decisions_per_s": round(summary(_decisions_per_s), 1),
                    "games_per_s": round(summary(_games_per_s), 2),
                }
        return out


def _decisions_per_s(r: RoundResult) -> float:
    return r.decisions_per_s


def _games_per_s(r: RoundResult) -> float:
    return r.games_per_s


def run_for(play: PlayFn, rng: random.Random, seconds: float) -> RoundResult:
    """Play whole games until ``seconds`` have passed (the last game is finished)."""
    games = decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        decisions += play(rng)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return RoundResult(games, decisions, now - start)


def benchmark(
    engines: Sequence[Engine], *, seed: int, seconds: float, rounds: int
) -> list[EngineResult]:
    """Set up every engine, warm it up, then time it ``rounds`` times, alternating."""
    results: list[EngineResult] = []
    master = random.Random(seed)
    for engine in engines:
        try:
            play: PlayFn | None = engine.setup()
            note = None
        except EngineUnavailable as exc:
            play, note = None, str(exc)
        results.append(EngineResult(engine, play, note, []))
    # One generator per (round, engine), drawn up front so the games an engine
    # plays do not depend on the order the engines run in.
    seeds = [[master.getrandbits(64) for _ in results] for _ in range(rounds)]
    for result in results:
        if result.play is not None:
            warm = random.Random(master.getrandbits(64))
            for _ in range(WARMUP_GAMES):
                result.play(warm)
    for r in range(rounds):
        order = list(range(len(results)))
        if r % 2:
            order.reverse()
        for i in order:
            result = results[i]
            if result.play is not None:
                rng = random.Random(seeds[r][i])
                result.rounds.append(run_for(result.play, rng, seconds))
    return results


@dataclass(frozen=True, slots=True)
class Ratio:
    engine: EngineResult
    reference: EngineResult

    @property
    def best(self) -> float:
        return self.engine.best(_decisions_per_s) / self.reference.best(_decisions_per_s)

    @property
    def median(self) -> float:
        return self.engine.median(_decisions_per_s) / self.reference.median(_decisions_per_s)

    @property
    def per_round(self) -> list[float]:
        """Round by round: the two engines ran back to back, under much the same load."""
        return [
            mine.decisions_per_s / ref.decisions_per_s
            for mine, ref in zip(self.engine.rounds, self.reference.rounds, strict=True)
        ]

    @property
    def met(self) -> bool:
        """Judged on the best rounds: other load only ever slows a round down."""
        return self.best >= TARGET_RATIO

    def to_dict(self) -> dict[str, Any]:
        return {
            "engine": self.engine.engine.name,
            "reference": self.reference.engine.name,
            "best": round(self.best, 3),
            "median": round(self.median, 3),
            "per_round": [round(q, 3) for q in self.per_round],
            "target": TARGET_RATIO,
            "met": self.met,
        }


def ratios(results: Sequence[EngineResult]) -> list[Ratio]:
    """Each of our engines against the reference engine, when both ran."""
    refs = [r for r in results if r.engine.reference and r.rounds]
    if not refs:
        return []
    ref = refs[0]
    return [Ratio(r, ref) for r in results if not r.engine.reference and r.rounds]


# -- reporting -----------------------------------------------------------------


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": f"{platform.system()} {platform.machine()}",
        "cpus": os.cpu_count(),
        # The Doppelkopf engine and the trick machinery: mypyc-compiled or Python.
        "engine_modules": native.status(),
    }


def report_json(
    results: Sequence[EngineResult], *, seed: int, seconds: float, rounds: int
) -> dict[str, Any]:
    return {
        "benchmark": "engine_playouts",
        "seed": seed,
        "seconds": seconds,
        "rounds": rounds,
        "warmup_games": WARMUP_GAMES,
        "machine": machine(),
        "engines": [r.to_dict() for r in results],
        "ratios": [q.to_dict() for q in ratios(results)],
        "target_ratio": TARGET_RATIO,
        "notes": [r.note for r in results if r.note],
    }


def report_text(results: Sequence[EngineResult], *, seed: int, seconds: float, rounds: int) -> str:
    m = machine()
    lines = [
        f"Random playouts: {rounds} round(s) of {seconds:g} s per engine, seed {seed}",
        f"{m['implementation']} {m['python']} on {m['system']}, {m['cpus']} CPUs",
        f"Engine modules: {m['engine_modules']}",
        "",
    ]
    header = ("engine", "decisions/s best", "median", "games/s best", "median", "dec/game")
    rows: list[tuple[str, ...]] = [header]
    for r in results:
        if not r.rounds:
            rows.append((r.engine.label, "n/a", "n/a", "n/a", "n/a", "n/a"))
            continue
        rows.append(
            (
                r.engine.label,
                f"{r.best(_decisions_per_s):,.0f}",
                f"{r.median(_decisions_per_s):,.0f}",
                f"{r.best(_games_per_s):,.1f}",
                f"{r.median(_games_per_s):,.1f}",
                f"{r.decisions_per_game:.1f}",
            )
        )
    widths = [max(len(row[c]) for row in rows) for c in range(len(header))]
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [
            cell.rjust(w) for cell, w in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
    lines.append("")
    found = ratios(results)
    for q in found:
        verdict = "met" if q.met else "NOT met"
        lines.append(
            f"Ratio {q.engine.engine.label} / {q.reference.engine.label}, decisions/s: "
            f"{q.best:.3f} best, {q.median:.3f} median (target ≥ {TARGET_RATIO}: {verdict})"
        )
    if not found:
        lines.append(f"Ratio ours/OpenSpiel decisions/s: n/a (target ≥ {TARGET_RATIO})")
    for r in results:
        if r.note:
            lines.append(f"Note: {r.engine.label} skipped: {r.note}")
    return "\n".join(lines)


def positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(
            "Random playouts per second: our engines beside OpenSpiel's Hearts "
            f"(target ratio ≥ {TARGET_RATIO})."
        )
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of random.Random (default 0)")
    parser.add_argument(
        "--seconds",
        type=positive_float,
        default=5.0,
        help="time budget per engine per round (default 5)",
    )
    parser.add_argument(
        "--rounds", type=positive_int, default=3, help="rounds, engines alternating (default 3)"
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object instead")
    args = parser.parse_args(argv)
    seed: int = args.seed
    seconds: float = args.seconds
    rounds: int = args.rounds
    results = benchmark(ENGINES, seed=seed, seconds=seconds, rounds=rounds)
    if args.json:
        for r in results:
            if r.note:
                print(f"note: {r.engine.label} skipped: {r.note}", file=sys.stderr)
        print(json.dumps(report_json(results, seed=seed, seconds=seconds, rounds=rounds), indent=2))
    else:
        print(report_text(results, seed=seed, seconds=seconds, rounds=rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
