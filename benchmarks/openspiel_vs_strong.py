"""OpenSpiel's ISMCTS against the strong bots, in a duplicate tournament.

OpenSpiel's Information Set MCTS (``open_spiel.python.algorithms.ismcts``,
random-rollout evaluation) plays seats of the OpenSpiel games of
:mod:`kartentisch.interop.openspiel`; the strong bot (PIMC over exact
solves) plays the others. Each deal is played once per rotation, so every
kind of bot plays every hand of every deal (the duplicate format of
:mod:`kartentisch.tournament`, whose deal seeds, dealer choice, bot seeds and
summary are reused). ISMCTS sees only its seat's information: its root state
is drawn from it, and every simulation redraws the hidden hands
(``resample_from_infostate``).

* **Slobberhannes** (default): ISMCTS in one seat, the strong bot in three
  (``python_kartentisch_slobberhannes``). Reported: mean penalty chips per
  deal with 95% intervals and the paired difference ISMCTS − strong per
  deal; lower is better. The default run (24 deals, 200 simulations a move)
  takes a few minutes on one core.
* **Doppelkopf** (``--game doppelkopf``): the strong bot and ISMCTS in
  opposite seats (strong, ISMCTS, strong, ISMCTS), under house rules
  (``--rules house``), the DDV preset (``--rules ddv``) or a rule-set file
  (``--rules FILE``, e.g. ``examples/rules/ddv.toml``), on
  ``python_kartentisch_doppelkopf``. Every decision is ISMCTS's: the
  declarations, the Armut, the announcements and the cards. Reported: mean
  points per deal with 95% intervals and the paired difference strong −
  ISMCTS per deal (as ``kartentisch simulate`` prints it); higher is better.
  As in ``kartentisch simulate``, only deals where the parties are not
  mixed (the pairs sit opposite, or a solo) move the margin.
  ``--ismcts-seats 1`` seats ISMCTS once and the strong bot three times
  (strong, ISMCTS, strong, strong): with two ISMCTS seats, an ISMCTS solo
  puts the other ISMCTS seat among its opponents, and that seat's mistakes
  (in DDV an announcement it misses loses its party the game) count for the
  ISMCTS side, the soloist's triple gain against its single loss.

``--log FILE`` appends each deal's points to a JSON-lines file as it
finishes (for Doppelkopf with each rotation's game, Re party, declarations
and announcements by seat: where the points were won or lost); a later run
with the same settings and log plays only the deals the log lacks (so a
run can be stopped and resumed, or extended to more deals). The time per
deal is reported as wall-clock and CPU seconds (CPU seconds of the process
that played it: the figure to compare on a busy machine).

Run: ``python benchmarks/openspiel_vs_strong.py [--game slobberhannes|doppelkopf]
[--rules house|ddv|FILE] [--deals N] [--simulations S] [--jobs J] [--log FILE]
[--early-playouts N] [--ismcts-seats 1|2] [--strong KEY:VALUE,...] [--json]`` (needs the
``openspiel`` extra). ``--strong`` plays a variant of the strong Slobberhannes bot
(keyword arguments of ``StrongSlobberhannesBot``, e.g. ``--strong epsilon:0.3``).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from kartentisch.bots import Bot, make_bot
from kartentisch.bots.doppelkopf_strong import StrongDoppelkopfBot
from kartentisch.bots.slobberhannes_strong import StrongSlobberhannesBot
from kartentisch.cards import Card
from kartentisch.games.doppelkopf import DoppelkopfDeal
from kartentisch.games.doppelkopf.actions import Call
from kartentisch.games.slobberhannes.deal import SlobberhannesObservation
from kartentisch.interop.encoding import (
    DOPPELKOPF_CARDS,
    SLOBBERHANNES_CARDS,
    doppelkopf_action_id,
)
from kartentisch.interop.openspiel import (
    DOPPELKOPF_GAME,
    SLOBBERHANNES_GAME,
    TrickGame,
    state_from_observation,
)
from kartentisch.rulesets import load_rules
from kartentisch.tournament import RUNNERS, TournamentResult, derived_seed, map_jobs, summarise

PLAYERS = 4
#: The bots by position, per game (the first kind listed is the margin's first).
LEVELS: dict[str, tuple[str, ...]] = {
    "slobberhannes": ("ismcts", "strong", "strong", "strong"),
    "doppelkopf": ("strong", "ismcts", "strong", "ismcts"),
}
#: Doppelkopf rules by name (else ``--rules`` names a rule-set file).
PRESET_RULES = ("house", "ddv")


@dataclass(frozen=True, slots=True)
class Setup:
    """What every deal of a run is played with (picklable, for the worker processes)."""

    game: str = "slobberhannes"
    simulations: int = 200
    uct_c: float = 2.0
    #: The deals' rule options (as ``kartentisch simulate`` passes them).
    options: dict[str, Any] = field(default_factory=lambda: {"players": PLAYERS})
    #: Doppelkopf: the strong bot's early playouts (None: its default; 0: the
    #: heuristic card before the exact search, the bot before the early search).
    early_playouts: int | None = None
    #: Doppelkopf: ISMCTS in two opposite seats (2) or in one (1).
    ismcts_seats: int = 2
    #: Slobberhannes: keyword arguments of the strong bot (a variant; empty: its defaults).
    strong: dict[str, Any] = field(default_factory=dict)

    @property
    def levels(self) -> tuple[str, ...]:
        if self.game == "doppelkopf" and self.ismcts_seats == 1:
            return ("strong", "ismcts", "strong", "strong")
        return LEVELS[self.game]

    def key(self, seed: int) -> dict[str, Any]:
        """What a logged deal must match to be reused."""
        return (
            {
                "game": self.game,
                "options": self.options,
                "simulations": self.simulations,
                "uct_c": self.uct_c,
                "seed": seed,
                "levels": list(self.levels),
            }
            | ({} if self.early_playouts is None else {"early_playouts": self.early_playouts})
            | ({"strong": self.strong} if self.strong else {})
        )


def _ismcts_bot(
    game: TrickGame, simulations: int, uct_c: float, rng: random.Random
) -> ismcts.ISMCTSBot:
    random_state = np.random.RandomState(rng.getrandbits(32))
    return ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, random_state),
        uct_c,
        simulations,
        random_state=random_state,
    )


class ISMCTSPlayer:
    """A Slobberhannes seat played by OpenSpiel's ISMCTS, from its observation only."""

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
        bot = _ismcts_bot(game, self.simulations, self.uct_c, self.rng)
        rng = self.rng
        bot.set_resampler(lambda s, player: s.resample_from_infostate(player, rng.random))
        return SLOBBERHANNES_CARDS[int(bot.step(state))]


#: A Doppelkopf decision stops drawing worlds after this many failed draws, if most
#: draws failed; its simulations then reuse the worlds drawn (up to this many kept).
_FAILED_DRAWS = 2
_KEPT_WORLDS = 32


class DoppelkopfISMCTSSeat:
    """A Doppelkopf seat played by OpenSpiel's ISMCTS, from its information state only.

    The deal is played on an OpenSpiel state; at this seat's turn the search's
    root is a state drawn from the seat's information state
    (``resample_from_infostate``: its own hand and every action as it saw
    them, the other hands redrawn), and each simulation redraws from that.
    The real state never reaches the search. Where no consistent deal is
    found (the resampler is a best effort for Doppelkopf: after an Armut most
    draws fail), a simulation reuses one of the decision's earlier draws
    (and once most draws of a decision have failed, its later simulations
    do so without trying); a root that cannot be drawn gives a random legal
    action. Both are counted (:attr:`fallbacks`).
    """

    name = "ismcts"

    def __init__(self, seed: int, simulations: int, uct_c: float) -> None:
        self.rng = random.Random(seed)
        self.simulations = simulations
        self.uct_c = uct_c
        self.fallbacks = {"simulations": 0, "roots": 0}

    def act(self, state: Any, seat: int) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        rng = self.rng
        try:
            root = state.resample_from_infostate(seat, rng.random)
        except RuntimeError:
            self.fallbacks["roots"] += 1
            return int(rng.choice(legal))
        bot = _ismcts_bot(state.get_game(), self.simulations, self.uct_c, rng)
        worlds = [root.clone()]  # the draws kept for simulations whose draw fails
        tried = failed = 0

        def resample(s: Any, player: int) -> Any:
            nonlocal tried, failed
            # Keep drawing while most draws succeed: a failed draw costs 200 tries.
            if failed < _FAILED_DRAWS or 2 * failed < tried:
                tried += 1
                try:
                    world = s.resample_from_infostate(player, rng.random)
                except RuntimeError:
                    failed += 1
                else:
                    if len(worlds) < _KEPT_WORLDS:
                        worlds.append(world.clone())
                    return world
            self.fallbacks["simulations"] += 1
            return rng.choice(worlds).clone()

        bot.set_resampler(resample)
        return int(bot.step(root))


def _doppelkopf_state(deal: DoppelkopfDeal) -> Any:
    """The OpenSpiel state of ``deal`` (fresh), dealt the deal's hands."""
    options = deal.options.to_dict()
    preset = options.pop("preset", "house")
    players = options.pop("players", deal.options.players)
    params = {
        "players": players,
        "preset": preset,
        "dealer": deal.dealer,
        "options": json.dumps(options) if options else "",
    }
    game = pyspiel.load_game(DOPPELKOPF_GAME, params)
    state = game.new_initial_state()
    for seat in game.spec.seats:
        for card in deal.initial_hands[seat]:  # (in the deal's order, as the bots see it)
            state.apply_action(DOPPELKOPF_CARDS.index(card))
    if state.table.deal.initial_hands != deal.initial_hands:
        raise AssertionError("the OpenSpiel state was dealt other hands than the deal")
    return state


def _action_ids(action: Card | Call) -> list[int]:
    """The OpenSpiel action ids of an engine action (an Armut exchange: one per card)."""
    if isinstance(action, Call) and action.word in ("give", "return"):
        return sorted(DOPPELKOPF_CARDS.index(c) for c in action.cards)
    index = doppelkopf_action_id(action)
    if index is None:
        raise ValueError(f"no OpenSpiel action for {action}")
    return [index]


def _doppelkopf_deal(
    seed: int,
    dealer: int,
    players: Sequence[Bot | DoppelkopfISMCTSSeat],
    options: dict[str, Any],
    record: list[dict[str, Any]] | None = None,
) -> tuple[float, ...]:
    """One Doppelkopf deal (as the tournament's runner deals and scores it), played on
    the OpenSpiel state: the strong bots from their engine observation, ISMCTS seats
    from their information state. ``record`` gets what decided the deal (its game,
    the Re party, the declarations and announcements, by seat)."""
    state = _doppelkopf_state(DoppelkopfDeal.from_seed(seed, dealer=dealer, options=options))
    while not state.is_terminal():
        seat = state.current_player()
        player = players[seat]
        if isinstance(player, DoppelkopfISMCTSSeat):
            state.apply_action(player.act(state, seat))
            continue
        for index in _action_ids(player.choose(state.table.deal.observation(seat))):
            state.apply_action(index)
    deal = state.table.deal
    if record is not None and deal.phase == "redeal":
        # Thrown in (five kings, too few trumps...): no game was played.
        record.append({"game": "redeal", "reason": deal.redeal_reason, "by": deal.redeal_by})
    elif record is not None:
        facts = deal.facts()
        record.append(
            {
                "game": facts.game_type,
                "solo": facts.solo,
                "re": sorted(facts.re_party),
                "re_augen": deal.augen()["re"],
                "calls": [
                    [s, str(a)]
                    for s, a in zip(deal.action_seats, deal.actions, strict=True)
                    if isinstance(a, Call) and a.word != "pass"
                ],
            }
        )
    return tuple(float(p) for p in deal.points())


@dataclass(slots=True)
class DealResult:
    """One deal in every rotation: points[bot position][rotation], and its cost."""

    number: int
    points: list[list[float]]
    seconds: float
    cpu_seconds: float
    fallbacks: dict[str, int]
    #: Doppelkopf: per rotation, the game, the Re party, the calls (see ``--log``).
    details: list[dict[str, Any]] = field(default_factory=list)


def play_deal(number: int, seed: int, setup: Setup) -> DealResult:
    """Deal ``number`` in every rotation (as the tournament plays it)."""
    start, cpu_start = time.perf_counter(), time.process_time()
    levels = setup.levels
    deal_seed = derived_seed(seed, number)
    dealer = random.Random(deal_seed).randrange(PLAYERS)
    points = [[0.0] * PLAYERS for _ in range(PLAYERS)]
    fallbacks = {"simulations": 0, "roots": 0}
    details: list[dict[str, Any]] = []
    for rotation in range(PLAYERS):
        seat_of = [(i + rotation) % PLAYERS for i in range(PLAYERS)]
        by_seat: tuple[float, ...]
        if setup.game == "slobberhannes":
            bots: dict[int, Bot] = {}
            for i, level in enumerate(levels):
                bot_seed = derived_seed(seed, number, rotation, i)
                bots[seat_of[i]] = (
                    ISMCTSPlayer(bot_seed, setup.simulations, setup.uct_c)
                    if level == "ismcts"
                    else StrongSlobberhannesBot(bot_seed, **setup.strong)
                    if setup.strong
                    else make_bot(setup.game, level, bot_seed)
                )
            runner, _ = RUNNERS[setup.game]
            by_seat = runner(
                deal_seed, dealer, [bots[s] for s in range(PLAYERS)], dict(setup.options)
            )
        else:
            seats: dict[int, Bot | DoppelkopfISMCTSSeat] = {}
            for i, level in enumerate(levels):
                bot_seed = derived_seed(seed, number, rotation, i)
                seats[seat_of[i]] = (
                    DoppelkopfISMCTSSeat(bot_seed, setup.simulations, setup.uct_c)
                    if level == "ismcts"
                    else make_bot(setup.game, level, bot_seed)
                    if setup.early_playouts is None
                    else StrongDoppelkopfBot(bot_seed, early_playouts=setup.early_playouts)
                )
            by_seat = _doppelkopf_deal(
                deal_seed,
                dealer,
                [seats[s] for s in range(PLAYERS)],
                dict(setup.options),
                details,
            )
            details[-1]["seats"] = [levels[seat_of.index(s)] for s in range(PLAYERS)]
            details[-1]["points"] = list(by_seat)
            for player in seats.values():
                if isinstance(player, DoppelkopfISMCTSSeat):
                    for kind, count in player.fallbacks.items():
                        fallbacks[kind] += count
        for i in range(PLAYERS):
            points[i][rotation] = by_seat[seat_of[i]]
    return DealResult(
        number,
        points,
        time.perf_counter() - start,
        time.process_time() - cpu_start,
        fallbacks,
        details,
    )


def _play(args: tuple[int, int, Setup]) -> DealResult:
    return play_deal(*args)


def _read_log(path: Path, key: dict[str, Any]) -> dict[int, DealResult]:
    """The deals of ``path`` played with the settings ``key``."""
    found: dict[int, DealResult] = {}
    if not path.exists():
        return found
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        entry = json.loads(line)
        if entry.get("settings") != key:
            continue
        found[entry["deal"]] = DealResult(
            entry["deal"],
            entry["points"],
            entry["seconds"],
            entry["cpu_seconds"],
            entry.get("fallbacks", {}),
            entry.get("details", []),
        )
    return found


@dataclass(slots=True)
class Run:
    result: TournamentResult
    deals: list[DealResult]
    #: Deals played by this run (the others came from the log).
    played: int


def run(
    deals: int,
    seed: int,
    setup: Setup,
    jobs: int,
    progress: Callable[[DealResult], None] | None = None,
    log: Path | None = None,
) -> Run:
    key = json.loads(json.dumps(setup.key(seed)))  # (as it reads back from the log)
    done = _read_log(log, key) if log is not None else {}
    work = [(k, seed, setup) for k in range(deals) if k not in done]
    for result in map_jobs(_play, work, jobs):
        done[result.number] = result
        if log is not None:
            entry = {
                "settings": key,
                "deal": result.number,
                "points": result.points,
                "seconds": round(result.seconds, 2),
                "cpu_seconds": round(result.cpu_seconds, 2),
                "fallbacks": result.fallbacks,
                "details": result.details,
            }
            with log.open("a") as handle:
                handle.write(json.dumps(entry) + "\n")
        if progress:
            progress(result)
    per_deal = [done[k] for k in range(deals)]
    summary = summarise(setup.game, setup.levels, seed, [d.points for d in per_deal])
    return Run(summary, per_deal, len(work))


def _rules_label(setup: Setup, rules: str | None) -> str:
    if setup.game != "doppelkopf":
        return ""
    return f" ({rules} rules)" if rules in PRESET_RULES else f" (rules {rules})"


def _report(outcome: Run, setup: Setup, rules: str | None, seconds: float) -> str:
    result = outcome.result
    name = "Slobberhannes" if setup.game == "slobberhannes" else "Doppelkopf"
    unit = "penalties" if result.lower_is_better else "points"
    opponent = "the strong bot" if setup.game == "slobberhannes" else "the strong bots"
    lines = [
        f"OpenSpiel ISMCTS vs {opponent}: {name}{_rules_label(setup, rules)}, "
        f"{result.deals} duplicate deals, "
        f"seed {result.seed}, {setup.simulations} simulations a move, "
        f"uct_c {setup.uct_c:g}, {seconds:.0f} s",
        "",
        f"| bot | seats | mean {unit} / deal | 95% interval |",
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
            f"**{_signed(margin.mean)}** | **{_signed(low)} … {_signed(high)}** |"
        )
    wall, cpu = _per_deal(outcome.deals)
    reused = result.deals - outcome.played
    lines += [
        "",
        f"Per deal (all rotations): {wall:.0f} s wall-clock, {cpu:.0f} s CPU"
        + (f" ({reused} of the deals from the log)." if reused else "."),
    ]
    fallbacks = _fallbacks(outcome.deals)
    if any(fallbacks.values()):
        lines.append(
            f"Resampling fallbacks: {fallbacks['simulations']} simulations reused the "
            f"root's draw, {fallbacks['roots']} decisions were random."
        )
    return "\n".join(lines)


def _signed(value: float) -> str:
    """``value`` with its sign, to three places (no ``-0.000``)."""
    return f"{round(value, 3) + 0.0:+.3f}"


def _per_deal(deals: Sequence[DealResult]) -> tuple[float, float]:
    n = max(1, len(deals))
    return sum(d.seconds for d in deals) / n, sum(d.cpu_seconds for d in deals) / n


def _fallbacks(deals: Sequence[DealResult]) -> dict[str, int]:
    total = {"simulations": 0, "roots": 0}
    for deal in deals:
        for kind, count in deal.fallbacks.items():
            total[kind] = total.get(kind, 0) + count
    return total


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


def rule_options(game: str, rules: str | None) -> dict[str, Any]:
    """The deals' options: a Doppelkopf preset's name, or a rule-set file's rules."""
    if game == "slobberhannes":
        if rules is not None:
            raise ValueError("--rules is for Doppelkopf (Slobberhannes plays its standard rules)")
        return {"players": PLAYERS}
    if rules is None or rules in PRESET_RULES:
        return {"preset": rules or "house", "players": PLAYERS}
    options = load_rules(rules, game=game).record_options()
    players = options.setdefault("players", PLAYERS)
    if players != PLAYERS:
        raise ValueError(f"{rules} is for {players} players; this benchmark seats {PLAYERS}")
    return options


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--game", choices=tuple(LEVELS), default="slobberhannes", help="(slobberhannes)"
    )
    parser.add_argument(
        "--rules",
        help="Doppelkopf rules: house (default), ddv, or a rule-set file (TOML or JSON)",
    )
    parser.add_argument("--deals", type=_positive, default=24, help="duplicate deals (24)")
    parser.add_argument(
        "--simulations", type=_positive, default=200, help="ISMCTS simulations a move (200)"
    )
    parser.add_argument("--uct-c", type=float, default=2.0, help="UCT exploration (2.0)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=_positive, default=1, help="worker processes (1)")
    parser.add_argument(
        "--log", type=Path, help="append each deal to this JSON-lines file; reuse its deals"
    )
    parser.add_argument(
        "--progress", action="store_true", help="print each finished deal to stderr"
    )
    parser.add_argument(
        "--early-playouts",
        type=int,
        help="Doppelkopf: the strong bot's early playouts (0: its heuristic early cards)",
    )
    parser.add_argument(
        "--ismcts-seats",
        type=int,
        choices=(1, 2),
        default=2,
        help="Doppelkopf: ISMCTS in two opposite seats (2, default) or in one (1)",
    )
    parser.add_argument(
        "--strong",
        default="",
        metavar="KEY:VALUE,...",
        help="Slobberhannes: keyword arguments of the strong bot (a variant, e.g. "
        "epsilon:0.3; JSON values; logged with each deal)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    strong: dict[str, Any] = {}
    for item in filter(None, args.strong.split(",")):
        key, _, raw = item.partition(":")
        strong[key] = json.loads(raw)
    if strong and args.game != "slobberhannes":
        parser.error("--strong is for Slobberhannes")
    try:
        options = rule_options(args.game, args.rules)
    except Exception as exc:  # (a rules file refused: its message says why)
        parser.error(str(exc))
    setup = Setup(
        args.game,
        args.simulations,
        args.uct_c,
        options,
        args.early_playouts,
        args.ismcts_seats,
        strong,
    )
    rules = (args.rules or "house") if args.game == "doppelkopf" else None

    def progress(deal: DealResult) -> None:
        print(
            f"deal {deal.number}: {deal.seconds:.0f} s ({deal.cpu_seconds:.0f} s CPU) "
            f"{json.dumps(deal.points)}",
            file=sys.stderr,
            flush=True,
        )

    start = time.perf_counter()
    outcome = run(
        args.deals,
        args.seed,
        setup,
        args.jobs,
        progress=progress if args.progress else None,
        log=args.log,
    )
    seconds = time.perf_counter() - start
    if args.json:
        wall, cpu = _per_deal(outcome.deals)
        out = {
            **outcome.result.to_dict(),
            **({"rules": rules, "options": options} if rules is not None else {}),
            "simulations": setup.simulations,
            "uct_c": setup.uct_c,
            "jobs": args.jobs,
            "seconds": round(seconds, 1),
            "deals_played": outcome.played,
            "seconds_per_deal": round(wall, 1),
            "cpu_seconds_per_deal": round(cpu, 1),
            "resample_fallbacks": _fallbacks(outcome.deals),
            "python": platform.python_version(),
        }
        print(json.dumps(out, indent=2))
    else:
        print(_report(outcome, setup, rules, seconds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
