"""OpenSpiel's ISMCTS against the strong Slobberhannes bot, in a duplicate tournament.

One seat is played by OpenSpiel's Information Set MCTS
(``open_spiel.python.algorithms.ismcts``, random-rollout evaluation) on the
``python_kartentisch_slobberhannes`` game of :mod:`kartentisch.interop.openspiel`;
the other three by the strong bot (PIMC over exact solves). Each deal is
played once per rotation, so ISMCTS plays every hand of every deal (the
duplicate format of :mod:`kartentisch.tournament`, whose deal seeds, dealer
choice, deal runner and summary are reused). ISMCTS sees only its seat's
observation: its root state is drawn from it, and every simulation redraws
the hidden hands (``resample_from_infostate``).

Reported: mean penalty chips per deal for each kind of bot with 95%
intervals, and the paired difference (ISMCTS − strong, per deal); lower is
better. The default run (24 deals, 200 simulations a move) takes a few
minutes on one core.

Run: ``python benchmarks/openspiel_vs_strong.py [--deals N] [--simulations S]
[--jobs J] [--json]`` (needs the ``openspiel`` extra).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from kartentisch.bots import Bot, make_bot
from kartentisch.cards import Card
from kartentisch.games.slobberhannes.deal import SlobberhannesObservation
from kartentisch.interop.encoding import SLOBBERHANNES_CARDS
from kartentisch.interop.openspiel import SLOBBERHANNES_GAME, TrickGame, state_from_observation
from kartentisch.tournament import RUNNERS, TournamentResult, _seed, _summarise, map_jobs

GAME = "slobberhannes"
PLAYERS = 4
LEVELS = ("ismcts", "strong", "strong", "strong")


class ISMCTSPlayer:
    """A seat played by OpenSpiel's ISMCTS bot, from the seat's observation only."""

    name = "ismcts"

    def __init__(self, seed: int, simulations: int, uct_c: float) -> None:
        self.rng = random.Random(seed)
        self.simulations = simulations
        self.uct_c = uct_c
        self.games: dict[int, TrickGame] = {}

    def _game(self, dealer: int) -> TrickGame:
        game = self.games.get(dealer)
        if game is None:
            game = pyspiel.load_game(SLOBBERHANNES_GAME, {"players": PLAYERS, "dealer": dealer})
            self.games[dealer] = game
        return game

    def choose(self, observation: SlobberhannesObservation) -> Card:
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        game = self._game(observation.dealer)
        state = state_from_observation(game, observation, self.rng)
        random_state = np.random.RandomState(self.rng.getrandbits(32))
        bot = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, random_state),
            self.uct_c,
            self.simulations,
            random_state=random_state,
        )
        rng = self.rng
        bot.set_resampler(lambda s, player: s.resample_from_infostate(player, rng.random))
        return SLOBBERHANNES_CARDS[int(bot.step(state))]


def play_deal(number: int, seed: int, simulations: int, uct_c: float) -> list[list[float]]:
    """Deal ``number`` in every rotation: points[bot position][rotation] (as the tournament)."""
    runner, _ = RUNNERS[GAME]
    deal_seed = _seed(seed, number)
    dealer = random.Random(deal_seed).randrange(PLAYERS)
    points = [[0.0] * PLAYERS for _ in range(PLAYERS)]
    for rotation in range(PLAYERS):
        seat_of = [(i + rotation) % PLAYERS for i in range(PLAYERS)]
        bots: dict[int, Bot] = {}
        for i, level in enumerate(LEVELS):
            bot_seed = _seed(seed, number, rotation, i)
            bots[seat_of[i]] = (
                ISMCTSPlayer(bot_seed, simulations, uct_c)
                if level == "ismcts"
                else make_bot(GAME, level, bot_seed)
            )
        by_seat = runner(deal_seed, dealer, [bots[s] for s in range(PLAYERS)], {"players": PLAYERS})
        for i in range(PLAYERS):
            points[i][rotation] = by_seat[seat_of[i]]
    return points


def _play(args: tuple[int, int, int, float]) -> list[list[float]]:
    return play_deal(*args)


def run(
    deals: int,
    seed: int,
    simulations: int,
    uct_c: float,
    jobs: int,
    progress: Callable[[int], None] | None = None,
) -> TournamentResult:
    work = [(k, seed, simulations, uct_c) for k in range(deals)]
    per_deal: list[list[list[float]]] = []
    for result in map_jobs(_play, work, jobs):
        per_deal.append(result)
        if progress:
            progress(len(per_deal))
    return _summarise(GAME, LEVELS, seed, per_deal)


def _report(result: TournamentResult, settings: dict[str, Any], seconds: float) -> str:
    lines = [
        f"OpenSpiel ISMCTS vs the strong bot: Slobberhannes, {result.deals} duplicate deals, "
        f"seed {result.seed}, {settings['simulations']} simulations a move, "
        f"uct_c {settings['uct_c']:g}, {seconds:.0f} s",
        "",
        "| bot | seats | mean penalties / deal | 95% interval |",
        "|---|---:|---:|---:|",
    ]
    for row in result.rows:
        low, high = row.mean - row.ci95, row.mean + row.ci95
        lines.append(f"| {row.bot} | {row.seats} | {row.mean:.3f} | {low:.3f} … {high:.3f} |")
    margin = result.margin
    if margin is not None:
        low, high = margin.mean - margin.ci95, margin.mean + margin.ci95
        lines.append(
            f"| **{margin.first} − {margin.second}** (paired per deal) | | "
            f"**{margin.mean:+.3f}** | **{low:+.3f} … {high:+.3f}** |"
        )
    return "\n".join(lines)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=_positive, default=24, help="duplicate deals (24)")
    parser.add_argument(
        "--simulations", type=_positive, default=200, help="ISMCTS simulations a move (200)"
    )
    parser.add_argument("--uct-c", type=float, default=2.0, help="UCT exploration (2.0)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=_positive, default=1, help="worker processes (1)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    settings = {"simulations": args.simulations, "uct_c": args.uct_c, "jobs": args.jobs}
    start = time.perf_counter()
    result = run(args.deals, args.seed, args.simulations, args.uct_c, args.jobs)
    seconds = time.perf_counter() - start
    if args.json:
        out = {
            **result.to_dict(),
            **settings,
            "seconds": round(seconds, 1),
            "python": platform.python_version(),
        }
        print(json.dumps(out, indent=2))
    else:
        print(_report(result, settings, seconds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
