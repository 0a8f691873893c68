"""The strong Doppelkopf bot's Armut exchange by estimate against the heuristic exchange.

An Armut is a few deals in a hundred, so a duplicate match over whole deals
cannot tell one exchange from another. This benchmark plays only Armut deals,
each twice from the same point:

* **Deals.** Seeded house-rule deals (dealer rotating) are declared by the
  heuristic bot in every seat; a deal in which an Armut is taken (the partner
  accepts) is kept, the others are skipped.
* **Twice.** From the exchange on, the deal is played once with the strong
  bot's exchange (estimated over sampled deals, ``choose_exchange``) for the
  poor player and the partner, once with the heuristic bot's (the engine's
  first offer); every seat is then played by the same strong bots, seeded the
  same in both runs.
* **Figure.** What the Armut pair scores per deal (the two seats' points
  together; house rules: the Armut pair is Re), the estimate's run minus the
  heuristic's, paired deal by deal, with a 95% interval (normal
  approximation).

Run: ``python benchmarks/armut_exchange.py --deals 100 --seed 1 [--json]``.
Every random choice comes from the seed; the clock is read only to report
the time taken.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections.abc import Iterator
from typing import Any

from kartentisch.bots.doppelkopf import HeuristicDoppelkopfBot
from kartentisch.bots.doppelkopf_strong import StrongDoppelkopfBot
from kartentisch.games.doppelkopf import DoppelkopfDeal


def armut_deals(seed: int, limit: int) -> Iterator[tuple[int, DoppelkopfDeal]]:
    """Seeded deals whose Armut was taken, at its exchange (``limit``: how many)."""
    found = 0
    index = 0
    while found < limit:
        deal_seed = seed * 1_000_003 + index
        deal = DoppelkopfDeal.from_seed(deal_seed, dealer=index % 4)
        index += 1
        bots = [HeuristicDoppelkopfBot(deal_seed * 4 + s) for s in range(4)]
        while not deal.is_over and deal.phase in ("declare", "armut_answer"):
            seat = deal.to_move
            assert seat is not None
            deal.apply(bots[seat].choose(deal.observation(seat)), seat)
        if not deal.is_over and deal.phase == "armut_give":
            found += 1
            yield deal_seed, deal


def play_from(
    deal: DoppelkopfDeal, deal_seed: int, *, estimate: bool, samples: int
) -> tuple[float, int]:
    """Play ``deal`` (a copy) on from its exchange: the exchange by estimate or the
    heuristic's; the Armut pair's points, and how many of the two exchanges differed
    from the heuristic's."""
    copy = DoppelkopfDeal.from_seed(deal_seed, dealer=deal.dealer)
    for action, seat in zip(deal.actions, deal.action_seats, strict=True):
        copy.apply(action, seat)
    bots = [StrongDoppelkopfBot(deal_seed * 8 + s, declare_samples=samples) for s in range(4)]
    other = 0
    while not copy.is_over:
        seat = copy.to_move
        assert seat is not None
        obs = copy.observation(seat)
        if obs.phase in ("armut_give", "armut_return") and not estimate:
            action = obs.legal_actions[0]  # the heuristic bot's exchange
        else:
            action = bots[seat].choose(obs)
            if obs.phase in ("armut_give", "armut_return"):
                other += action != obs.legal_actions[0]
        copy.apply(action, seat)
    poor, partner = deal.armut_by, deal.armut_partner
    assert poor is not None and partner is not None
    points = copy.points()
    return float(points[poor] + points[partner]), other


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and 95% interval (normal approximation)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100, help="Armut deals (100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=16, help="deals an estimate (16)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    started = time.process_time()
    gains: list[float] = []
    changed = other = 0
    for deal_seed, deal in armut_deals(args.seed, args.deals):
        mine, differed = play_from(deal, deal_seed, estimate=True, samples=args.samples)
        theirs, _ = play_from(deal, deal_seed, estimate=False, samples=args.samples)
        gains.append(mine - theirs)
        changed += mine != theirs
        other += differed
    mean, low, high = interval(gains)
    result = {
        "deals": len(gains),
        "seed": args.seed,
        "samples": args.samples,
        "estimate_minus_heuristic": round(mean, 3),
        "interval95": [round(low, 3), round(high, 3)],
        "deals_that_differ": changed,
        "exchanges_not_the_heuristics": other,
        "cpu_seconds": round(time.process_time() - started, 1),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{len(gains)} Armut deals, seed {args.seed}: the Armut pair's points per deal, "
            f"exchange by estimate − heuristic exchange: {mean:+.2f} ({low:+.2f} … {high:+.2f});"
            f" {other} of {2 * len(gains)} exchanges were not the heuristic's, {changed} deals"
            f" scored differently; {result['cpu_seconds']} s of CPU"
        )
    return result


if __name__ == "__main__":
    main()
