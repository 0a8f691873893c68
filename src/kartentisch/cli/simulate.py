"""``kartentisch simulate``: duplicate tournaments between bots."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from kartentisch.cli.rulefiles import read_rules_file, refuse_flags_with_rules
from kartentisch.errors import KartentischError
from kartentisch.tournament import RUNNERS, run_tournament

__all__ = ["add_simulate_parser"]


def add_simulate_parser(commands: Any) -> None:
    sim = commands.add_parser(
        "simulate",
        help="a duplicate tournament between bots",
        description="Each deal is played once per rotation of the bots through the seats, "
        "so the luck of the cards cancels. Prints mean points per deal with 95% intervals.",
    )
    sim.add_argument("game", help=f"one of: {', '.join(RUNNERS)}")
    sim.add_argument(
        "--bots",
        required=True,
        help="one bot level per seat, comma-separated, e.g. strong,heuristic,heuristic,heuristic",
    )
    sim.add_argument("--deals", type=int, default=100, help="number of deals (default 100)")
    sim.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    sim.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="worker processes; 0 uses every core (default 1); "
        "with --ray local, the CPUs of that cluster (default: every core)",
    )
    sim.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="play the deals on a Ray cluster (needs the ray extra): 'auto' connects to "
        "the cluster in RAY_ADDRESS or the latest one started on this machine (and never "
        "starts one), 'local' starts one for this run, HOST:PORT or ray://HOST:PORT "
        "connects there; the results are those of a run without --ray",
    )
    sim.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option (JSON value), e.g. --option revokes='\"penalty\"'",
    )
    sim.add_argument(
        "--rules",
        metavar="FILE",
        default=None,
        help="play the deals under a rule-set file (TOML or JSON, e.g. "
        "examples/rules/ddv.toml); not with --option",
    )
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(func=cmd_simulate)


def _options(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise KartentischError(f"--option needs NAME=VALUE, not {pair!r}")
        try:
            out[name] = json.loads(value)
        except json.JSONDecodeError:
            out[name] = value
    return out


def _rule_options(args: argparse.Namespace, game: str, seats: int) -> dict[str, Any]:
    """The options of the deals: ``--rules FILE``'s, or those of ``--option``."""
    if args.rules is None:
        return _options(args.option)
    refuse_flags_with_rules({"--option": bool(args.option)})
    rules = read_rules_file(args.rules, game)
    players = rules.options.get("players")
    if players is not None and players != seats:
        raise KartentischError(
            f"{args.rules} is for {players} players, but --bots names {seats} bots"
        )
    return rules.record_options()


def cmd_simulate(args: argparse.Namespace) -> int:
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    game = args.game.strip().lower()
    options = _rule_options(args, game, len(bots))
    jobs, ray_cpus = 1, None
    if args.ray is None:
        if args.jobs is not None:
            jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    elif args.ray == "local":
        ray_cpus = args.jobs if args.jobs and args.jobs > 0 else None
    elif args.jobs is not None:
        raise KartentischError(
            "--jobs goes with --ray only as --ray local: a running cluster's CPUs are its own"
        )
    console = Console(stderr=True)
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not sys.stderr.isatty(),
    ) as progress:
        task = progress.add_task(f"{game} deals", total=args.deals)
        result = run_tournament(
            game,
            bots,
            deals=args.deals,
            seed=args.seed,
            options=options,
            jobs=jobs,
            progress=lambda done: progress.advance(task, done),
            ray_address=args.ray,
            ray_cpus=ray_cpus,
        )
    if args.json:
        print(json.dumps(result.to_dict()))
        return 0
    better = "lower is better" if result.lower_is_better else "higher is better"
    table = Table(
        title=f"{result.game}: {result.deals} duplicate deals, seed {result.seed} ({better})"
    )
    table.add_column("bot")
    table.add_column("seats", justify="right")
    table.add_column("mean points / deal", justify="right")
    table.add_column("95% interval", justify="right")
    for row in result.rows:
        table.add_row(
            row.bot,
            str(row.seats),
            f"{row.mean:.3f}",
            f"{row.mean - row.ci95:.3f} … {row.mean + row.ci95:.3f}",
        )
    Console().print(table)
    margin = result.margin
    if margin is not None:
        Console().print(
            f"{margin.first} − {margin.second} (paired per deal): {margin.mean:+.3f}, "
            f"95% interval {margin.mean - margin.ci95:+.3f} … {margin.mean + margin.ci95:+.3f}",
            highlight=False,
        )
    return 0
