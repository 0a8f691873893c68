"""Each bot level's fixed rating, measured: bots of every level at one table, rated.

For one rating pool, every level of the game's bots sits at one table (one
seat each) and the table plays ``--games`` duplicate games: each is played
once per rotation of the levels through the seats, with the same cards (the
same deal seed and dealer) in every rotation, by the tournament machinery
(:func:`kartentisch.tournament.play_duplicate`, bots from ``make_bot``).
Each finished game becomes the :class:`~kartentisch.ratings.Outcome` the
server rates, by the server's own functions: a whole Slobberhannes match
(``slobberhannes_match_outcome``), each played Doppelkopf deal
(``doppelkopf_deal_outcome``; a thrown-in deal is not rated), a Slapjack or
Irish Snap game (``slapjack_outcome``, ``irish_snap_outcome``).

The ratings are then estimated with the server's model and update
(:func:`kartentisch.ratings.rate`: openskill's Plackett-Luce with ``MU``,
``SIGMA``, ``BETA``, ``TAU``, ties averaged, teams by their mean): every
level is a free participant starting at ``MU``/``SIGMA`` and is updated by
every result, in ``--passes`` passes (20) over all results, each pass in a new
seeded order. A level's ``mu`` is the mean of its ``mu`` after each result of
the passes after the first (the first pass only moves the ratings away from
the start): the point where, on average, no level's rating moves any more,
which is what a fixed rating should be: a person of that skill neither gains
nor loses against the bot on average. (A level that nearly always finishes
last or first has no such point and keeps drifting: the ``drift`` column, the
last pass's mean against all passes', shows it.) ``sigma`` is the model's own at the end (with
``TAU`` it stays near a floor however many games are played, so it is not
the uncertainty of the estimate). The uncertainty is measured instead: the
games are cut into ``--batches`` groups (by game number), each estimated on
its own the same way, and the 95% interval of a level's anchored ``mu`` is
Student's t over the groups' values (their spread over the square root of
their number).

Only differences are measured; one level is the **anchor**: ``club`` at
``MU`` in Slapjack and Irish Snap (it reacts like the median person, the
model's newcomer), ``heuristic`` at 23 in Slobberhannes and Doppelkopf (its
value before the measurement: a careful beginner a little below the
newcomer); ``--anchor LEVEL=MU`` chooses another. Everything is seeded
(``--seed``); nothing depends on the clock or on ``--jobs``.

    python benchmarks/bot_ratings.py --pool slobberhannes --games 40 --seed 1
    python benchmarks/bot_ratings.py --pool irish-snap --games 1000 --seed 1 --json

``--save FILE`` keeps every finished game's rated results (JSON lines) and
reads them back on the next run with the same pool, levels, seed and options,
so a long run can be stopped and resumed; ``--games`` may grow between runs.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kartentisch.bots import LEVELS
from kartentisch.ratings import (
    DEFAULT_RATING,
    MU,
    Outcome,
    Rating,
    doppelkopf_deal_outcome,
    irish_snap_outcome,
    rate,
    rating_pool,
    slapjack_outcome,
    slobberhannes_match_outcome,
)
from kartentisch.tournament import (
    map_jobs,
    play_doppelkopf_deal,
    play_duplicate,
    play_reaction_game,
    play_slobberhannes_match,
)

#: Pool → (game, rule options of the table, anchor level, anchor mu).
POOLS: dict[str, tuple[str, dict[str, Any], str, float]] = {
    "slobberhannes": ("slobberhannes", {}, "heuristic", 23.0),
    "doppelkopf-house": ("doppelkopf", {"preset": "house"}, "heuristic", 23.0),
    "doppelkopf-ddv": ("doppelkopf", {"preset": "ddv"}, "heuristic", 23.0),
    "slapjack": ("slapjack", {}, "club", MU),
    "irish-snap": ("irish-snap", {}, "club", MU),
}
#: Student's t at 97.5 % by degrees of freedom (a two-sided 95 % interval).
T975 = {
    1: 12.706,
    2: 4.303,
    3: 3.182,
    4: 2.776,
    5: 2.571,
    6: 2.447,
    7: 2.365,
    8: 2.306,
    9: 2.262,
    10: 2.228,
    11: 2.201,
    12: 2.179,
    13: 2.160,
    14: 2.145,
    15: 2.131,
    16: 2.120,
    17: 2.110,
    18: 2.101,
    19: 2.093,
}


@dataclass(frozen=True, slots=True)
class Unit:
    """One rated result: the game it came from, the teams (by level) and their ranks."""

    game: int
    teams: tuple[tuple[str, ...], ...]
    ranks: tuple[int, ...]


# -- playing -----------------------------------------------------------------------


def _outcomes(pool: str, played: Any) -> list[Outcome]:
    """What the server rates of a finished game (web/results.py)."""
    if pool == "slobberhannes":
        return [slobberhannes_match_outcome(played)]
    if pool.startswith("doppelkopf"):
        outcome = doppelkopf_deal_outcome(played)
        return [] if outcome is None else [outcome]
    if pool == "slapjack":
        return [slapjack_outcome(played)]
    return [irish_snap_outcome(played)]


def table_options(pool: str, levels: Sequence[str], extra: dict[str, Any]) -> dict[str, Any]:
    """The rule options of the table: the pool's, ``extra``, one seat per level."""
    game, options, _, _ = POOLS[pool]
    opts = {**options, **extra, "players": len(levels)}
    if rating_pool(game, opts) != pool:
        raise SystemExit(f"these options are rated in {rating_pool(game, opts)}, not {pool}")
    return opts


Work = tuple[str, tuple[str, ...], int, list[int], dict[str, Any]]


def play_games(args: Work) -> list[list[Unit]]:
    """The rated results of each duplicate game in ``numbers``, every rotation."""
    pool, levels, seed, numbers, options = args
    game = POOLS[pool][0]
    n = len(levels)
    if pool == "slobberhannes":
        play: Any = play_slobberhannes_match
    elif game == "doppelkopf":
        play = play_doppelkopf_deal
    else:
        play = play_reaction_game
        options = {**options, "game": game}
    out = []
    for number in numbers:
        units = []
        for rotation, played in enumerate(
            play_duplicate(play, game, levels, seed, number, options)
        ):
            for outcome in _outcomes(pool, played):
                teams = tuple(
                    tuple(levels[(seat - rotation) % n] for seat in team) for team in outcome.teams
                )
                units.append(Unit(number, teams, outcome.ranks))
        out.append(units)
    return out


def _load(path: Path, header: dict[str, Any]) -> dict[int, list[Unit]]:
    if not path.exists():
        return {}
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or json.loads(lines[0]) != header:
        raise SystemExit(f"{path} holds another run's games (pool, levels, seed or options)")
    games: dict[int, list[Unit]] = {}
    for line in lines[1:]:
        if not line.strip():
            continue
        row = json.loads(line)
        games[row["game"]] = [
            Unit(row["game"], tuple(tuple(t) for t in u["teams"]), tuple(u["ranks"]))
            for u in row["units"]
        ]
    return games


def _append(path: Path, units_by_game: list[list[Unit]], numbers: list[int]) -> None:
    with path.open("a", encoding="utf-8") as f:
        for number, units in zip(numbers, units_by_game, strict=True):
            row = {
                "game": number,
                "units": [{"teams": u.teams, "ranks": u.ranks} for u in units],
            }
            f.write(json.dumps(row) + "\n")


def collect(
    pool: str,
    levels: tuple[str, ...],
    *,
    games: int,
    seed: int,
    options: dict[str, Any],
    jobs: int = 1,
    save: Path | None = None,
    progress: bool = False,
) -> list[Unit]:
    """The rated results of duplicate games 0 … ``games`` − 1 (read from ``save``
    where it has them, written to it as they finish)."""
    header = {"pool": pool, "levels": list(levels), "seed": seed, "options": options}
    done: dict[int, list[Unit]] = {}
    if save is not None:
        done = _load(save, header)
        if not save.exists():
            save.write_text(json.dumps(header) + "\n", encoding="utf-8")
    todo = [k for k in range(games) if k not in done]
    # one game a piece in this process (each is saved as it finishes), else four per worker
    size = 1 if jobs <= 1 else max(1, min(10, len(todo) // (jobs * 4)))
    chunks = [todo[i : i + size] for i in range(0, len(todo), size)]
    work: list[Work] = [(pool, levels, seed, chunk, options) for chunk in chunks]
    start = time.process_time()
    for chunk, result in zip(chunks, map_jobs(play_games, work, jobs), strict=True):
        for number, units in zip(chunk, result, strict=True):
            done[number] = units
        if save is not None:
            _append(save, result, chunk)
        if progress:
            finished = sum(1 for k in range(games) if k in done)
            print(
                f"  {finished}/{games} games ({time.process_time() - start:.0f} s CPU here)",
                file=sys.stderr,
                flush=True,
            )
    return [unit for k in range(games) for unit in done[k]]


# -- estimating ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Estimate:
    """Each level's free ``mu`` (mean over the passes after the first), its last
    ``sigma``, and its mean ``mu`` over the last pass alone."""

    mu: dict[str, float]
    sigma: dict[str, float]
    last: dict[str, float]


def estimate(units: Sequence[Unit], levels: Sequence[str], *, passes: int, seed: int) -> Estimate:
    """Every level a free participant of the server's update, over all ``units``."""
    if passes < 2:
        raise ValueError("the estimate needs at least two passes (the first is not counted)")
    ratings: dict[str, Rating] = {level: DEFAULT_RATING for level in levels}
    order = list(range(len(units)))
    rng = random.Random(seed)
    sums = dict.fromkeys(levels, 0.0)
    last = dict.fromkeys(levels, 0.0)
    counted = 0
    for p in range(passes):
        rng.shuffle(order)
        last = dict.fromkeys(levels, 0.0)
        for index in order:
            unit = units[index]
            ratings.update(rate(ratings, [list(team) for team in unit.teams], unit.ranks))
            if p:
                for level in levels:
                    last[level] += ratings[level].mu
        if p:
            counted += len(order)
            for level in levels:
                sums[level] += last[level]
    n = max(1, len(order))
    mu = {level: sums[level] / max(1, counted) for level in levels}
    return Estimate(
        mu,
        {level: ratings[level].sigma for level in levels},
        {level: last[level] / n for level in levels},
    )


def anchored(mu: dict[str, float], anchor: str, value: float) -> dict[str, float]:
    shift = value - mu[anchor]
    return {level: m + shift for level, m in mu.items()}


def half(value: float) -> float:
    """Rounded to a whole or half point."""
    return math.floor(value * 2 + 0.5) / 2


def measure(
    units: Sequence[Unit],
    levels: Sequence[str],
    *,
    anchor: str,
    anchor_mu: float,
    passes: int,
    batches: int,
    seed: int,
) -> dict[str, Any]:
    """The whole estimate, anchored, with the batches' 95 % intervals."""
    full = estimate(units, levels, passes=passes, seed=seed)
    mu = anchored(full.mu, anchor, anchor_mu)
    # how far the last pass alone is from all of them (anchored: differences only)
    drift = {level: m - mu[level] for level, m in anchored(full.last, anchor, anchor_mu).items()}
    games = sorted({u.game for u in units})
    k = min(batches, len(games))
    groups: list[dict[str, float]] = []
    if k >= 2:
        for b in range(k):
            mine = {g for i, g in enumerate(games) if i % k == b}
            part = [u for u in units if u.game in mine]
            if not part:
                continue
            est = estimate(part, levels, passes=passes, seed=seed + 1 + b)
            groups.append(anchored(est.mu, anchor, anchor_mu))
    rows = []
    for level in levels:
        values = [g[level] for g in groups]
        ci = (
            T975.get(len(values) - 1, 1.96) * statistics.stdev(values) / math.sqrt(len(values))
            if len(values) >= 2
            else math.nan
        )
        places = [
            sorted(set(u.ranks)).index(rank) + 1
            for u in units
            for team, rank in zip(u.teams, u.ranks, strict=True)
            if level in team
        ]
        rows.append(
            {
                "level": level,
                "mu": round(mu[level], 3),
                "ci95": round(ci, 3),
                "low": round(mu[level] - ci, 3),
                "high": round(mu[level] + ci, 3),
                "fixed": half(mu[level]),
                "free_mu": round(full.mu[level], 3),
                "sigma": round(full.sigma[level], 3),
                "drift": round(drift[level], 3),
                "mean_place": round(statistics.fmean(places), 3) if places else math.nan,
                "results": len(places),
            }
        )
    return {
        "anchor": anchor,
        "anchor_mu": anchor_mu,
        "games": len(games),
        "results": len(units),
        "passes": passes,
        "batches": len(groups),
        "levels": rows,
    }


# -- the command ---------------------------------------------------------------------


def _option(pair: str) -> tuple[str, Any]:
    name, sep, value = pair.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"an option is NAME=VALUE, not {pair!r}")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pool", required=True, choices=list(POOLS))
    parser.add_argument("--games", type=int, default=100, help="duplicate games (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--levels", nargs="+", help="the levels at the table (default: all the game's)"
    )
    parser.add_argument("--option", action="append", default=[], type=_option, metavar="NAME=VALUE")
    parser.add_argument("--anchor", metavar="LEVEL=MU", help="the anchor (default: see above)")
    parser.add_argument("--passes", type=int, default=20, help="passes over the results")
    parser.add_argument("--batches", type=int, default=10, help="groups for the intervals")
    parser.add_argument("--save", type=Path, help="keep the games here (JSON lines), resume")
    parser.add_argument("--progress", action="store_true", help="report games as they finish")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    game, _, anchor, anchor_mu = POOLS[args.pool]
    levels = tuple(args.levels or LEVELS[game])
    unknown = [level for level in levels if level not in LEVELS[game]]
    if unknown or len(set(levels)) != len(levels):
        parser.error(f"--levels takes distinct levels of {', '.join(LEVELS[game])}")
    if args.anchor:
        anchor, _, value = args.anchor.partition("=")
        anchor_mu = float(value) if value else MU
    if anchor not in levels:
        parser.error(f"the anchor {anchor!r} is not at the table")
    if args.games < 1 or args.passes < 2 or args.batches < 1 or args.jobs < 1:
        parser.error("--games, --jobs and --batches need at least 1, --passes 2")
    options = table_options(args.pool, levels, dict(args.option))
    start = time.process_time()
    units = collect(
        args.pool,
        levels,
        games=args.games,
        seed=args.seed,
        options=options,
        jobs=args.jobs,
        save=args.save,
        progress=args.progress,
    )
    result = measure(
        units,
        levels,
        anchor=anchor,
        anchor_mu=anchor_mu,
        passes=args.passes,
        batches=args.batches,
        seed=args.seed,
    )
    result = {
        "pool": args.pool,
        "seed": args.seed,
        "options": options,
        "played": args.games,
        **result,
    }
    if args.progress:
        print(f"  {time.process_time() - start:.0f} s CPU in this process", file=sys.stderr)
    if args.json:
        print(json.dumps(result))
        return 0
    print(
        f"{args.pool}: {args.games} duplicate games × {len(levels)} rotations "
        f"({result['games']} with a rated result), "
        f"{result['results']} rated results, seed {args.seed}; "
        f"anchor {anchor} = {anchor_mu:g}; {args.passes} passes, "
        f"intervals from {result['batches']} groups"
    )
    print(
        f"{'level':<10} {'mu':>7} {'95% interval':>17} {'fixed':>6} {'sigma':>6} "
        f"{'drift':>6} {'place':>6}"
    )
    for row in result["levels"]:
        print(
            f"{row['level']:<10} {row['mu']:7.2f} {row['low']:8.2f} … {row['high']:6.2f} "
            f"{row['fixed']:6.1f} {row['sigma']:6.2f} {row['drift']:6.2f} {row['mean_place']:6.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
