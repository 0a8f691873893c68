"""Reaction bots: the median person's share of contested slaps against three bots, per level.

A scripted person of median speed (seat 0, on a network line) plays Slapjack
and Irish Snap against three reaction bots of one level, through the real
engines and the fair-slap referee (:mod:`kartentisch.bots.reaction_share`).
For each game and level the table gives how many slaps were contested, the
person's share with its 95% (Wilson) interval — piles won in Slapjack, piles
taken in Irish Snap; a fair share is 1/4 of either — the bots' and the
person's false-slap rates (slaps per card that should not be slapped) and
the person's slaps refused as too late.

Seeded: the same arguments print the same table on every machine.

    python benchmarks/reaction_share.py [--contested 2000] [--seed 1] [--jitter 10]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from kartentisch.bots.reaction import LEVELS
from kartentisch.bots.reaction_share import GAMES, Line, simulate_share, wilson_interval


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--contested", type=int, default=2000, help="contested slaps per cell")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rtt", type=int, default=60, help="the person's round trip (ms)")
    parser.add_argument(
        "--jitter", type=int, default=10, help="extra delay each way, 0 to this many ms"
    )
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    parser.add_argument("--levels", nargs="+", choices=LEVELS, default=list(LEVELS))
    parser.add_argument("--json", action="store_true", help="print one JSON object per cell")
    args = parser.parse_args(argv)
    if args.contested < 1 or args.rtt < 0 or args.jitter < 0:
        parser.error("--contested must be positive, --rtt and --jitter at least 0")
    line = Line(args.rtt, args.jitter)
    print(
        f"person: median speed, line {args.rtt} ms round trip + 0-{args.jitter} ms each way; "
        f"three bots; {args.contested} contested slaps per row; seed {args.seed}"
    )
    header = (
        f"{'game':<11} {'level':<9} {'person share':>12} {'95% interval':>15} "
        f"{'bot false':>9} {'person false':>12} {'late':>5} {'cards':>7} {'s':>5}"
    )
    if not args.json:
        print(header)
    for game in args.games:
        for level in args.levels:
            start = time.perf_counter()
            r = simulate_share(
                level, game=game, contested=args.contested, seed=args.seed, line=line
            )
            low, high = wilson_interval(r.person, r.contested)
            took = time.perf_counter() - start
            if args.json:
                print(
                    json.dumps(
                        {
                            "game": game,
                            "level": level,
                            "contested": r.contested,
                            "person": r.person,
                            "share": round(r.share, 4),
                            "interval": [round(low, 4), round(high, 4)],
                            "bot_false_rate": round(r.bot_false_rate, 4),
                            "person_false_rate": round(r.person_false_rate, 4),
                            "person_late": r.person_late,
                            "cards": r.cards,
                        }
                    )
                )
                continue
            print(
                f"{game:<11} {level:<9} {r.share:>12.3f} {f'{low:.3f}-{high:.3f}':>15} "
                f"{r.bot_false_rate:>9.2%} {r.person_false_rate:>12.2%} {r.person_late:>5} "
                f"{r.cards:>7} {took:>5.1f}"
            )
            sys.stdout.flush()
    if not args.json:
        print("share: Slapjack piles won, Irish Snap piles taken (lost); fair = 0.250")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
