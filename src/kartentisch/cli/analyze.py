"""``kartentisch analyze``: the cost of every decision in a record."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from kartentisch.analysis import analyze_slobberhannes
from kartentisch.errors import KartentischError
from kartentisch.games import get_game
from kartentisch.games.slobberhannes.deal import SlobberhannesDeal
from kartentisch.games.slobberhannes.match import SlobberhannesMatch
from kartentisch.records import ReplayError, load_record

__all__ = ["add_analyze_parser"]


def add_analyze_parser(commands: Any) -> None:
    sub = commands.add_parser(
        "analyze",
        help="what each decision in a record cost, with full and with the seat's information",
    )
    sub.add_argument("record", help="a game record (JSON)")
    sub.add_argument("--seat", type=int, default=None, help="analyse only this seat")
    sub.add_argument("--samples", type=int, default=40, help="deals sampled per decision (40)")
    sub.add_argument("--seed", type=int, default=0, help="seed of the sampling (0)")
    sub.add_argument("--json", action="store_true", help="print one JSON object")
    sub.set_defaults(func=cmd_analyze)


def cmd_analyze(args: argparse.Namespace) -> int:
    try:
        record = load_record(args.record)
        spec = get_game(record["game"])
        replayed = spec.replay(record)
    except ReplayError as exc:
        print(f"kartentisch: error: illegal action in {args.record}: {exc}", file=sys.stderr)
        return 2
    if not isinstance(replayed, SlobberhannesDeal | SlobberhannesMatch):
        raise KartentischError(f"analysis is available for Slobberhannes, not {spec.name}")
    decisions = analyze_slobberhannes(
        replayed, seat=args.seat, seed=args.seed, samples=args.samples
    )
    names = replayed.seat_names or tuple(f"seat {i}" for i in range(replayed.options.players))
    totals: dict[int, list[float]] = {}
    for d in decisions:
        cost = totals.setdefault(d.seat, [0.0, 0.0])
        cost[0] += d.full_cost
        cost[1] += d.expected_cost
    if args.json:
        print(
            json.dumps(
                {
                    "game": spec.name,
                    "decisions": [d.to_dict() for d in decisions],
                    "totals": {
                        str(s): {"full_information": c[0], "seat_information": round(c[1], 4)}
                        for s, c in sorted(totals.items())
                    },
                },
                ensure_ascii=False,
            )
        )
        return 0
    for d in decisions:
        head = f"deal {d.deal}, trick {d.trick}: {names[d.seat]} played {d.played.symbol}"
        if d.forced:
            print(f"{head} (forced)")
            continue
        full = (
            "best with all hands known"
            if d.full_cost == 0
            else f"with all hands known {d.full_best.symbol} was better by {d.full_cost}"
        )
        seen = (
            "best on what was known"
            if d.expected_cost < 0.005
            else f"on what was known {d.expected_best.symbol} was better by "
            f"{d.expected_cost:.2f} expected"
        )
        print(f"{head}: {full}; {seen}")
    print()
    for seat, (full_cost, expected_cost) in sorted(totals.items()):
        print(
            f"{names[seat]}: {full_cost:.0f} chips lost to perfect play, "
            f"{expected_cost:.2f} expected chips lost on the information at hand"
        )
    return 0
