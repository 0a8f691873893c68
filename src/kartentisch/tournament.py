"""Duplicate tournaments between bots.

Each deal is played once per rotation: in rotation ``r`` the bot listed at
position ``i`` sits at seat ``(i + r) mod n``, so every bot plays every hand of
the same deal and the luck of the cards cancels. Every random choice derives
from the tournament seed, the deal number, the rotation and the seat, so the
results do not depend on how the deals are spread over processes — local
worker processes (``jobs``) or the tasks of a Ray cluster (``ray_address``,
with the optional ``ray`` extra).

>>> result = run_tournament("slobberhannes", ["heuristic", "random", "random", "random"],
...                         deals=4, seed=1)
>>> [row.bot for row in result.rows], result.deals
(['heuristic', 'random'], 4)

:func:`play_duplicate` seats the bots the same way for any game played to the
end by a function of its own (a whole Slobberhannes match, a Doppelkopf deal,
a Slapjack game: :func:`play_slobberhannes_match`, :func:`play_doppelkopf_deal`,
:func:`play_reaction_game`) and returns what it returned, by rotation.
"""

from __future__ import annotations

import math
import os
import random
import socket
import statistics
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from kartentisch.bots import LEVELS, Bot, make_bot
from kartentisch.errors import KartentischError

if TYPE_CHECKING:
    from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
    from kartentisch.games.irish_snap.engine import IrishSnapGame
    from kartentisch.games.slapjack.engine import SlapjackGame
    from kartentisch.games.slobberhannes.match import SlobberhannesMatch

W = TypeVar("W")
R = TypeVar("R")

__all__ = [
    "BotResult",
    "Chunk",
    "Margin",
    "TournamentResult",
    "derived_seed",
    "play_chunk",
    "play_doppelkopf_deal",
    "play_duplicate",
    "play_duplicate_deal",
    "play_reaction_game",
    "play_slobberhannes_match",
    "ray_session",
    "run_tournament",
    "summarise",
    "work_chunks",
]

#: Plays one deal: (deal seed, dealer, bots by seat, options) → points by seat.
DealRunner = Callable[[int, int, Sequence[Bot], dict[str, Any]], tuple[float, ...]]


def _slobberhannes_deal(
    seed: int, dealer: int, bots: Sequence[Bot], options: dict[str, Any]
) -> tuple[float, ...]:
    from kartentisch.games.slobberhannes.deal import SlobberhannesDeal

    deal = SlobberhannesDeal.from_seed(seed, dealer=dealer, options=options)
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        deal.apply(bots[seat].choose(deal.observation(seat)))
    return tuple(float(p) for p in deal.points())


def play_doppelkopf_deal(
    seed: int, dealer: int, bots: Sequence[Bot], options: dict[str, Any]
) -> DoppelkopfDeal:
    """One Doppelkopf deal played to its end (house rules unless ``options`` say
    otherwise): the seat to move acts (declarations, the Armut, cards, and
    announcements on its own turn)."""
    from kartentisch.games.doppelkopf import DoppelkopfDeal

    deal = DoppelkopfDeal.from_seed(seed, dealer=dealer, options=options)
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        deal.apply(bots[seat].choose(deal.observation(seat)), seat)
    return deal


def _doppelkopf_deal(
    seed: int, dealer: int, bots: Sequence[Bot], options: dict[str, Any]
) -> tuple[float, ...]:
    """One Doppelkopf deal's points: the sheet's for this deal: in house rules the
    winners' value (losers 0, a lost solo negative); a redeal scores 0."""
    deal = play_doppelkopf_deal(seed, dealer, bots, options)
    return tuple(float(p) for p in deal.points())


def play_slobberhannes_match(
    seed: int, dealer: int, bots: Sequence[Bot], options: dict[str, Any]
) -> SlobberhannesMatch:
    """A whole Slobberhannes match played to its end: its deals are shuffled from
    ``seed`` (the same cards in the same order whoever plays them), ``dealer``
    deals first."""
    from kartentisch.games.slobberhannes.match import SlobberhannesMatch

    match = SlobberhannesMatch(options, seed=seed, first_dealer=dealer)
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        match.play(bots[seat].choose(match.deal.observation(seat)), seat)
    return match


def play_reaction_game(
    seed: int, dealer: int, bots: Sequence[Bot], options: dict[str, Any]
) -> SlapjackGame | IrishSnapGame:
    """A Slapjack game (or Irish Snap, ``options["game"] == "irish-snap"``) between
    reaction bots, played to its end in game time by the terminal table's loop
    (:class:`~kartentisch.cli.slapjack.SlapTable`, every seat a bot, a manual
    clock): each bot looks once at each new card and slaps after its reaction
    time, and turns its card after its delay, no sooner than the pace after the
    last card. The other ``options`` are the game's."""
    from rich.console import Console

    from kartentisch.bots.reaction import ReactionBot
    from kartentisch.cli.slapjack import ScriptedKeys, SlapTable
    from kartentisch.games.irish_snap.engine import IrishSnapGame
    from kartentisch.games.slapjack.engine import SlapjackGame
    from kartentisch.realtime.clock import ManualClock

    rules = dict(options)
    irish = rules.pop("game", "slapjack") == "irish-snap"
    game: SlapjackGame | IrishSnapGame
    if irish:
        game = IrishSnapGame.from_seed(seed, dealer=dealer, options=rules)
    else:
        game = SlapjackGame.from_seed(seed, dealer=dealer, options=rules)
    players: dict[int, ReactionBot] = {}
    for seat, player in enumerate(bots):
        if not isinstance(player, ReactionBot):
            raise KartentischError(f"seat {seat} needs a reaction bot, not {player!r}")
        players[seat] = player
    clock = ManualClock()
    table = SlapTable(
        game,
        players,
        lang="en",
        console=Console(quiet=True),
        keys=ScriptedKeys(clock, [], eof=False),
        clock=clock,
        names=[f"seat {seat}" for seat in range(len(bots))],
        human=-1,
    )
    table.run()
    return game


#: Games with a deal runner, and whether lower points are better.
RUNNERS: dict[str, tuple[DealRunner, bool]] = {
    "slobberhannes": (_slobberhannes_deal, True),
    "doppelkopf": (_doppelkopf_deal, False),
}


def derived_seed(*parts: int) -> int:
    """A seed derived from several integers, stable across processes and runs."""
    value = 0x9E3779B97F4A7C15
    for part in parts:
        value = (value ^ (part & 0xFFFFFFFFFFFFFFFF)) * 0x100000001B3 & 0xFFFFFFFFFFFFFFFF
    return value


def play_duplicate(
    play: Callable[[int, int, Sequence[Bot], dict[str, Any]], R],
    game: str,
    levels: Sequence[str],
    seed: int,
    number: int,
    options: dict[str, Any],
) -> list[R]:
    """Play deal (or game) ``number`` in every rotation; what ``play`` returned, by rotation.

    ``play(deal seed, dealer, bots by seat, options)`` plays it to its end. In
    rotation ``r`` the bot of ``levels[i]`` sits at seat ``(i + r) mod n``, so
    seat ``s`` holds ``levels[(s - r) mod n]``; the deal seed and the dealer are
    the same in every rotation, each bot is seeded from ``seed``, ``number``,
    the rotation and its position.
    """
    n = len(levels)
    deal_seed = derived_seed(seed, number)
    dealer = random.Random(deal_seed).randrange(n)
    results = []
    for rotation in range(n):
        bots: list[Bot] = [None] * n  # type: ignore[list-item]
        for i, level in enumerate(levels):
            bots[(i + rotation) % n] = make_bot(
                game, level, derived_seed(seed, number, rotation, i)
            )
        results.append(play(deal_seed, dealer, bots, options))
    return results


def play_duplicate_deal(
    game: str, levels: Sequence[str], seed: int, number: int, options: dict[str, Any]
) -> list[list[float]]:
    """Play deal ``number`` in every rotation; points[bot position][rotation]."""
    runner, _ = RUNNERS[game]
    n = len(levels)
    by_rotation = play_duplicate(runner, game, levels, seed, number, options)
    return [[by_rotation[r][(i + r) % n] for r in range(n)] for i in range(n)]


#: One piece of work: (game, levels, seed, deal numbers, options).
Chunk = tuple[str, Sequence[str], int, Sequence[int], dict[str, Any]]


def play_chunk(args: Chunk) -> list[list[list[float]]]:
    """The deals of one chunk of work, each in every rotation (as :func:`play_duplicate_deal`)."""
    game, levels, seed, numbers, options = args
    return [play_duplicate_deal(game, levels, seed, k, options) for k in numbers]


def _interval(mean: float, ci95: float, samples: int) -> dict[str, Any]:
    """A mean with its 95% confidence interval, as the results' JSON writes it."""
    return {
        "mean": mean,
        "ci95": ci95,
        "low": mean - ci95,
        "high": mean + ci95,
        "samples": samples,
    }


@dataclass(frozen=True, slots=True)
class BotResult:
    """Mean points per deal of one kind of bot, with a 95% confidence interval."""

    bot: str
    seats: int
    mean: float
    ci95: float
    samples: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "seats": self.seats,
            **_interval(self.mean, self.ci95, self.samples),
        }


@dataclass(frozen=True, slots=True)
class Margin:
    """The paired difference of two kinds of bot: ``first`` minus ``second``.

    Per deal, one kind's mean points minus the other's over the same cards
    (duplicate), averaged over the deals, with a 95% confidence interval.
    """

    first: str
    second: str
    mean: float
    ci95: float
    samples: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "first": self.first,
            "second": self.second,
            **_interval(self.mean, self.ci95, self.samples),
        }


@dataclass(frozen=True, slots=True)
class TournamentResult:
    game: str
    bots: tuple[str, ...]
    deals: int
    seed: int
    lower_is_better: bool
    rows: tuple[BotResult, ...]
    #: With exactly two kinds of bot: the first listed minus the other.
    margin: Margin | None = None

    def row(self, bot: str) -> BotResult:
        for row in self.rows:
            if row.bot == bot:
                return row
        raise KeyError(bot)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "bots": list(self.bots),
            "deals": self.deals,
            "seed": self.seed,
            "format": "duplicate",
            "lower_is_better": self.lower_is_better,
            "results": [r.to_dict() for r in self.rows],
            **({"margin": self.margin.to_dict()} if self.margin is not None else {}),
        }


def summarise(
    game: str, levels: Sequence[str], seed: int, per_deal: list[list[list[float]]]
) -> TournamentResult:
    """The tournament's result from the points of its deals (``per_deal[deal][bot
    position][rotation]``), as :func:`run_tournament` reports it."""
    rows = []
    by_kind: dict[str, list[float]] = {}
    for kind in dict.fromkeys(levels):
        positions = [i for i, level in enumerate(levels) if level == kind]
        # One sample per deal: this kind's mean points per hand played.
        samples = [statistics.fmean(p for i in positions for p in deal[i]) for deal in per_deal]
        by_kind[kind] = samples
        mean, ci = _mean_ci(samples)
        rows.append(BotResult(kind, len(positions), mean, ci, len(samples)))
    margin = None
    if len(by_kind) == 2:
        first, second = by_kind
        diffs = [a - b for a, b in zip(by_kind[first], by_kind[second], strict=True)]
        mean, ci = _mean_ci(diffs)
        margin = Margin(first, second, mean, ci, len(diffs))
    return TournamentResult(
        game, tuple(levels), len(per_deal), seed, RUNNERS[game][1], tuple(rows), margin
    )


def _mean_ci(samples: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval (normal approximation)."""
    mean = statistics.fmean(samples)
    sd = statistics.stdev(samples) if len(samples) > 1 else 0.0
    return mean, 1.96 * sd / math.sqrt(len(samples))


def run_tournament(
    game: str,
    bots: Sequence[str],
    *,
    deals: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    ray_address: str | None = None,
    ray_cpus: int | None = None,
) -> TournamentResult:
    """Play ``deals`` duplicate deals between ``bots`` (one level per seat).

    ``jobs`` local worker processes play the deals; with ``ray_address`` the
    tasks of a Ray cluster play them instead (see :func:`ray_session` for the
    addresses and ``ray_cpus``). The result is the same either way.
    ``progress`` is called with the number of deals finished, as they finish.
    """
    if game not in RUNNERS:
        raise KartentischError(f"tournaments are available for {', '.join(RUNNERS)}, not {game!r}")
    for level in bots:
        if level not in LEVELS.get(game, ()):
            raise KartentischError(
                f"unknown bot level {level!r} for {game}: choose from {', '.join(LEVELS[game])}"
            )
    if deals < 1:
        raise KartentischError("a tournament needs at least one deal")
    if ray_cpus is not None and ray_address is None:
        raise KartentischError("ray_cpus is for a local Ray cluster (ray_address='local')")
    opts = dict(options or {})
    opts.setdefault("players", len(bots))
    per_deal: list[list[list[float]]] = []
    if ray_address is not None:
        with ray_session(ray_address, num_cpus=ray_cpus) as cpus:
            for result in _ray_map(work_chunks(game, bots, seed, deals, opts, cpus), progress):
                per_deal.extend(result)
        return summarise(game, bots, seed, per_deal)
    for result in map_jobs(play_chunk, work_chunks(game, bots, seed, deals, opts, jobs), jobs):
        per_deal.extend(result)
        if progress:
            progress(len(result))
    return summarise(game, bots, seed, per_deal)


def map_jobs(fn: Callable[[W], R], work: Iterable[W], jobs: int) -> Iterator[R]:
    """``fn`` over ``work`` in order: in this process, or in ``jobs`` worker processes."""
    if jobs <= 1:
        yield from map(fn, work)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(fn, work)


def work_chunks(
    game: str, bots: Sequence[str], seed: int, deals: int, opts: dict[str, Any], workers: int
) -> list[Chunk]:
    """The deals cut into chunks, about four per worker and at most 50 deals each."""
    chunks = _chunks(range(deals), max(1, min(50, deals // max(1, workers * 4))))
    return [(game, tuple(bots), seed, chunk, opts) for chunk in chunks]


def _chunks(numbers: range, size: int) -> list[list[int]]:
    return [list(numbers[i : i + size]) for i in range(0, len(numbers), size)]


_RAY_MISSING = "Ray is not installed: pip install 'kartentisch[ray]'"


@contextmanager
def ray_session(address: str, *, num_cpus: int | None = None) -> Iterator[int]:
    """Connect to a Ray cluster (or start one) for the block; yields its CPU count.

    ``address`` is handed to ``ray.init``, which reads it as Ray does:

    * ``"auto"``: the cluster named by the ``RAY_ADDRESS`` environment variable,
      else the latest cluster started on this machine (``ray start --head``).
      When there is none this fails; it does not start one.
    * ``"local"``: start a new cluster on this machine, just for the block,
      with ``num_cpus`` CPUs (default: every core) and no dashboard.
    * ``"HOST:PORT"`` or ``"ray://HOST:PORT"``: that cluster (its head node's
      GCS address; ``ray://`` for the Ray Client server).

    The session ends (``ray.shutdown``) when the block ends, which stops a
    cluster started for it. If this process is connected to Ray already, that
    connection is used as it is and left open. The deals run in Ray tasks that
    import ``kartentisch``: every node needs the same version installed.
    """
    if num_cpus is not None and address != "local":
        raise KartentischError(
            "the CPUs of a Ray cluster are set when it starts: a CPU count goes "
            "only with the address 'local'"
        )
    try:
        import ray
    except ImportError as exc:
        raise KartentischError(_RAY_MISSING) from exc
    owned = not ray.is_initialized()
    if owned:
        target = os.environ.get("RAY_ADDRESS") if address == "auto" else address
        if target and target != "local":
            # Ray retries an address where nothing answers for many minutes.
            problem = _unreachable(target)
            if problem:
                raise KartentischError(f"cannot reach a Ray cluster at {target!r}: {problem}")
        try:
            ray.init(address=address, num_cpus=num_cpus, include_dashboard=False)
        except ConnectionError as exc:
            if address == "auto" and not target:
                raise KartentischError(
                    "no running Ray cluster found: RAY_ADDRESS is not set and no cluster "
                    "was started on this machine (`ray start --head`); the address 'local' "
                    "(--ray local) starts one for this run"
                ) from exc
            hint = (
                ""
                if os.environ.get("RAY_AUTH_MODE")
                else " (a cluster with token authentication also needs RAY_AUTH_MODE=token)"
            )
            raise KartentischError(f"cannot connect to Ray at {target!r}: {exc}{hint}") from exc
        except ValueError as exc:  # e.g. ray:// without the Ray Client (ray[client])
            raise KartentischError(f"Ray cannot use the address {address!r}: {exc}") from exc
    try:
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        yield max(1, int(resources.get("CPU", 1)))
    finally:
        if owned:
            ray.shutdown()


def _unreachable(address: str, timeout: float = 5.0) -> str | None:
    """Why no TCP connection opens to a ``[ray://]HOST:PORT`` address; None if one does."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        return None  # not HOST:PORT: Ray will judge
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        return str(exc) or type(exc).__name__
    return None


def _ray_map(
    work: Sequence[Chunk], progress: Callable[[int], None] | None
) -> list[list[list[list[float]]]]:
    """``list(map(play_chunk, work))``, played in Ray tasks.

    The chunks finish in any order (``progress`` hears of each as it does);
    the results come back in the order of ``work``, whatever the cluster.
    """
    import ray

    play = ray.remote(num_cpus=1)(play_chunk)
    refs = [play.remote(args) for args in work]
    index = {ref: i for i, ref in enumerate(refs)}
    results: list[list[list[list[float]]] | None] = [None] * len(refs)
    pending = list(refs)
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                result: list[list[list[float]]] = ray.get(ref)
                results[index[ref]] = result
                if progress:
                    progress(len(result))
    finally:
        for ref in pending:
            ray.cancel(ref)
    return [result for result in results if result is not None]
