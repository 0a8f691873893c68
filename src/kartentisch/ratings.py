"""Ratings of players: one Weng-Lin rating per account and rating pool (docs/ratings.md).

A rating is a belief about a player's skill: a mean ``mu`` and an uncertainty
``sigma``, updated after every rated result by openskill's Plackett-Luce model
(Weng & Lin 2011). The rest of the package sees only :class:`Rating`, a frozen
dataclass of our own; openskill's types stay inside this module.

Each game keeps its own pool of ratings (:data:`POOLS`), and Doppelkopf two:
house rules and DDV rules are different games to be good at.
:func:`rating_pool` finds a table's pool from its game and options::

    >>> rating_pool("doppelkopf", {"preset": "ddv"}), rating_pool("irish-snap", {})
    ('doppelkopf-ddv', 'irish-snap')

A result is a list of teams (account ids, or bots with their fixed ratings)
and a rank per team, lower better, equal for a tie. :func:`rate` returns the
new ratings of the accounts; a newcomer starts at :data:`DEFAULT_RATING`::

    >>> new = rate({}, [["anna"], ["ben", bot("slobberhannes", "heuristic")]], [1, 2])
    >>> new["anna"].mu > 25 > new["ben"].mu, new["anna"].games, sorted(new)
    (True, 1, ['anna', 'ben'])

The helpers ``*_outcome`` turn a finished game into an :class:`Outcome`
(teams of seats and their ranks), which :func:`rate_outcome` rates for the
participants in the seats::

    >>> outcome = doppelkopf_outcome(re=[0, 2], kontra=[1, 3], winner="kontra")
    >>> outcome.teams, outcome.ranks
    (((0, 2), (1, 3)), (2, 1))

The number players see is :attr:`Rating.display`: ``1000 + 30 × (mu − 25)``,
so a newcomer and an average player show 1000; a win raises it, a loss lowers it.
While ``sigma`` is large the rating is :attr:`Rating.provisional`::

    >>> DEFAULT_RATING.display, Rating(30.0, 1.5).display, DEFAULT_RATING.provisional
    (1000, 1150, True)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias

from openskill.models import PlackettLuce

from kartentisch.bots import canonical_level
from kartentisch.games import ALIASES

if TYPE_CHECKING:
    from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
    from kartentisch.games.doppelkopf.match import DoppelkopfMatch
    from kartentisch.games.irish_snap.engine import IrishSnapGame
    from kartentisch.games.slapjack.engine import SlapjackGame
    from kartentisch.games.slobberhannes.match import SlobberhannesMatch

__all__ = [
    "BETA",
    "BOT_RATINGS",
    "BOT_SIGMA",
    "DEFAULT_RATING",
    "DISPLAY_BASE",
    "DISPLAY_SCALE",
    "MAX_TIE_ORDERS",
    "MU",
    "POOLS",
    "SIGMA",
    "TAU",
    "Bot",
    "Outcome",
    "Participant",
    "Pool",
    "Rating",
    "bot",
    "doppelkopf_deal_outcome",
    "doppelkopf_match_outcomes",
    "doppelkopf_outcome",
    "finishing_order_outcome",
    "irish_snap_outcome",
    "rate",
    "rate_outcome",
    "rating_pool",
    "slapjack_outcome",
    "slobberhannes_match_outcome",
    "slobberhannes_outcome",
]

# -- the model -----------------------------------------------------------------

#: A newcomer's mean skill: the scale of the Weng-Lin paper and of TrueSkill.
MU: Final = 25.0
#: A newcomer's uncertainty, a third of the mean: mu − 3·sigma starts at 0.
SIGMA: Final = MU / 3
#: How much one result varies around the skill (half of ``SIGMA``): of two settled
#: players ``BETA`` apart, the better wins about two games in three.
BETA: Final = SIGMA / 2
#: Added (in quadrature) to every sigma before each update, so that sigma never
#: shrinks to nothing and a rating keeps following a player who gets better or worse.
TAU: Final = MU / 300

#: The displayed number: ``DISPLAY_BASE + DISPLAY_SCALE × (mu − MU)``, not below 0.
#: 30 display points per point of mu make the differences read about like Elo's in a
#: two-player game (200 points: the better wins about three games in four).
DISPLAY_BASE: Final = 1000
DISPLAY_SCALE: Final = 30
#: A rating is provisional while sigma is this large or larger (about the first ten
#: rated results): shown with a mark, and listed after the others on the leaderboard.
PROVISIONAL_SIGMA: Final = 5.0

_MODEL: Final = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating in one pool: the skill ``mu``, its uncertainty ``sigma``,
    and the number of rated results (``games``) it comes from."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mu) and math.isfinite(self.sigma) and self.sigma > 0):
            raise ValueError(f"a rating needs a finite mu and sigma > 0, not {self!r}")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 0:
            raise ValueError(f"games must be a whole number from 0, not {self.games!r}")

    @property
    def ordinal(self) -> float:
        """A cautious estimate of the skill: ``mu − 3·sigma`` (the skill is above it
        with about 99.9 % certainty)."""
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        """The number players see: 1000 for a newcomer and for an average player; it
        rises with a win and falls with a loss (never below 0)."""
        return max(0, round(DISPLAY_BASE + DISPLAY_SCALE * (self.mu - MU)))

    @property
    def provisional(self) -> bool:
        """Whether the model knows the player too little yet (``sigma`` at least
        :data:`PROVISIONAL_SIGMA`)."""
        return self.sigma >= PROVISIONAL_SIGMA


#: Where every account starts in every pool.
DEFAULT_RATING: Final = Rating()

# -- pools ---------------------------------------------------------------------

Pool: TypeAlias = Literal[
    "slobberhannes", "doppelkopf-house", "doppelkopf-ddv", "slapjack", "irish-snap"
]
#: The rating pools: one per game, Doppelkopf one per score formula.
POOLS: Final[tuple[Pool, ...]] = (
    "slobberhannes",
    "doppelkopf-house",
    "doppelkopf-ddv",
    "slapjack",
    "irish-snap",
)
#: The game (registry name) of each pool.
_POOL_GAME: Final[Mapping[str, str]] = {
    "slobberhannes": "slobberhannes",
    "doppelkopf-house": "doppelkopf",
    "doppelkopf-ddv": "doppelkopf",
    "slapjack": "slapjack",
    "irish-snap": "irish-snap",
}


def rating_pool(game: str, options: Mapping[str, Any] | None = None) -> Pool:
    """The pool a table of ``game`` with these rule ``options`` (a record's
    ``options``: a preset and what differs from it) is rated in.

    Doppelkopf scored by the DDV's formula (``scoring = "ddv"``: the ``ddv`` and
    ``freedoko`` presets, or house rules with that option) is ``doppelkopf-ddv``.

    >>> rating_pool("Doko", {"scoring": "ddv"}), rating_pool("doppelkopf", {"nines": True})
    ('doppelkopf-ddv', 'doppelkopf-house')
    >>> rating_pool("skat", {})
    Traceback (most recent call last):
    ...
    ValueError: unknown game 'skat': rated games are slobberhannes, doppelkopf, slapjack, irish-snap
    """
    key = game.strip().lower() if isinstance(game, str) else ""
    key = ALIASES.get(key, key)
    if key == "doppelkopf":
        from kartentisch.games.doppelkopf.options import DoppelkopfOptions

        scoring = DoppelkopfOptions.from_dict(dict(options or {})).scoring
        return "doppelkopf-ddv" if scoring == "ddv" else "doppelkopf-house"
    if key == "slobberhannes":
        return "slobberhannes"
    if key == "slapjack":
        return "slapjack"
    if key == "irish-snap":
        return "irish-snap"
    games = ", ".join(dict.fromkeys(_POOL_GAME.values()))
    raise ValueError(f"unknown game {game!r}: rated games are {games}")


# -- bots ----------------------------------------------------------------------

#: A bot's fixed uncertainty: its play does not change, so its rating is taken as
#: fairly sure, and a person beside it takes most of the team's update.
BOT_SIGMA: Final = 2.0


def _bots(levels: Mapping[str, float]) -> Mapping[str, Rating]:
    return MappingProxyType({level: Rating(mu, BOT_SIGMA) for level, mu in levels.items()})


#: The fixed rating of each bot level, by pool, measured by ``benchmarks/bot_ratings.py``
#: (docs/ratings.md, "Bots"): one bot of every level at a table, duplicate games rated
#: as the server rates them (a Slobberhannes match, a Doppelkopf deal, a slap game),
#: every level a free participant of this model. Only the differences are measured;
#: one level anchors them: ``heuristic`` at 23 (its value before the measurement) in
#: Slobberhannes and Doppelkopf, ``club`` (the median person, the newcomer) at ``MU``
#: in Slapjack and Irish Snap. Rounded to half a point; a level measured below a
#: weaker one (Slobberhannes and Irish Snap ``expert``) is set half a point above it.
BOT_RATINGS: Final[Mapping[str, Mapping[str, Rating]]] = MappingProxyType(
    {
        # 14 duplicate matches (56 rated): wide intervals, expert measured 31.7
        "slobberhannes": _bots({"random": 10.5, "heuristic": 23.0, "strong": 33.0, "expert": 33.5}),
        # 1,000 duplicate deals (3,826 rated), the strong bots searching from the
        # first card; strong measured 22.45 (set half a point above heuristic)
        "doppelkopf-house": _bots(
            {"random": 13.0, "heuristic": 23.0, "strong": 23.5, "expert": 27.0}
        ),
        # 100 duplicate deals (400 rated): wide intervals; strong measured 23.11
        "doppelkopf-ddv": _bots(
            {"random": 12.0, "heuristic": 23.0, "strong": 23.5, "expert": 24.5}
        ),
        # 500 duplicate games each (2,500 rated)
        "slapjack": _bots(
            {"beginner": 12.0, "casual": 17.5, "club": 25.0, "fast": 37.5, "expert": 57.5}
        ),
        # expert measured 24.5
        "irish-snap": _bots(
            {"beginner": -9.5, "casual": 15.5, "club": 25.0, "fast": 26.5, "expert": 27.0}
        ),
    }
)


@dataclass(frozen=True, slots=True)
class Bot:
    """A bot in a rated game: its level and the fixed rating it plays with."""

    level: str
    rating: Rating


def bot(pool: str, level: str) -> Bot:
    """The bot of ``level`` (or an older name of it) in ``pool``, with its fixed rating.

    >>> bot("slapjack", "hard")
    Bot(level='expert', rating=Rating(mu=57.5, sigma=2.0, games=0))
    """
    if pool not in BOT_RATINGS:
        raise ValueError(f"unknown rating pool {pool!r}: choose one of {', '.join(POOLS)}")
    canonical = canonical_level(_POOL_GAME[pool], level)
    return Bot(canonical, BOT_RATINGS[pool][canonical])


#: A seat's player in a rated game: an account id, or a bot.
Participant: TypeAlias = str | Bot

# -- rating a result -------------------------------------------------------------


def _check_ranks(ranks: Sequence[int], teams: int) -> None:
    if len(ranks) != teams:
        raise ValueError(f"{len(ranks)} ranks given for {teams} teams")
    for rank in ranks:
        if isinstance(rank, bool) or not isinstance(rank, int):
            raise ValueError(f"a rank must be a whole number, not {rank!r}")


def rate(
    pool_ratings: Mapping[str, Rating],
    teams: Sequence[Sequence[Participant]],
    ranks: Sequence[int],
) -> dict[str, Rating]:
    """The new ratings of the accounts in ``teams`` after a result in one pool.

    ``pool_ratings`` holds the accounts' ratings before (a missing account starts
    at :data:`DEFAULT_RATING`); ``ranks`` has one entry per team, lower better and
    equal for a tie. A bot plays with its fixed rating and keeps it. Each account's
    ``games`` counts one more. The result depends only on the inputs.

    A tie is the average of the orders in which the tied teams could have
    finished: between equal players, two who tie for first get the mean of what
    first and second place get.

    Teams of different sizes (a Doppelkopf solo: one against three) are rated as
    equally strong when their players are: a team's strength is its players' mean,
    not their sum (each player of a smaller team is counted as often as it takes
    to fill the largest team's places).

    >>> new = rate({"anna": Rating(30.0, 3.0, 12)}, [["anna"], ["ben"]], [1, 1])
    >>> new["anna"].mu < 30.0, new["ben"].mu > 25.0, new["anna"].games
    (True, True, 13)
    """
    if len(teams) < 2:
        raise ValueError("a rated result needs at least two teams")
    _check_ranks(ranks, len(teams))
    seen: set[str] = set()
    for team in teams:
        if not team:
            raise ValueError("a team without players cannot be rated")
        for member in team:
            if isinstance(member, Bot):
                continue
            if not isinstance(member, str) or not member:
                raise ValueError(f"a participant is an account id or a bot, not {member!r}")
            if member in seen:
                raise ValueError(f"account {member!r} plays more than once in one result")
            seen.add(member)

    def before(member: Participant) -> Rating:
        if isinstance(member, Bot):
            return member.rating
        return pool_ratings.get(member, DEFAULT_RATING)

    places = math.lcm(*(len(team) for team in teams))
    copies = [places // len(team) for team in teams]
    priors = [[before(member) for member in team] for team in teams]
    orders = _orders(ranks)
    # the sums of each seat's new mu and sigma over the orders, to average
    totals = [[[0.0, 0.0] for _ in team] for team in teams]
    for order in orders:
        model_teams = [
            [
                _MODEL.rating(mu=rating.mu, sigma=rating.sigma)
                for rating in prior
                for _ in range(copies[t])
            ]
            for t, prior in enumerate(priors)
        ]
        updated = _MODEL.rate(model_teams, ranks=[float(place) for place in order])
        for t, new_team in enumerate(updated):
            for index, sums in enumerate(totals[t]):
                new = new_team[index * copies[t]]
                sums[0] += new.mu
                sums[1] += new.sigma
    result: dict[str, Rating] = {}
    for team, prior, sums_of_team in zip(teams, priors, totals, strict=True):
        for member, old, (mu_sum, sigma_sum) in zip(team, prior, sums_of_team, strict=True):
            if isinstance(member, Bot):
                continue  # a bot's rating is fixed: its update is discarded
            count = len(orders)
            result[member] = Rating(mu_sum / count, sigma_sum / count, old.games + 1)
    return result


#: The most finishing orders a tie is averaged over exactly (6 teams tied: 720).
MAX_TIE_ORDERS: Final = 720


def _orders(ranks: Sequence[int]) -> list[list[int]]:
    """The strict finishing orders (a place per team, 1 first) that ``ranks`` could
    stand for: the tied teams of each rank in every order, or, when that would be
    more than :data:`MAX_TIE_ORDERS` orders, in each of their rotations.

    >>> _orders([2, 1, 2])
    [[2, 1, 3], [3, 1, 2]]
    """
    groups = [[t for t, r in enumerate(ranks) if r == rank] for rank in sorted(set(ranks))]
    exact = math.prod(math.factorial(len(group)) for group in groups) <= MAX_TIE_ORDERS
    choices: list[list[tuple[int, ...]]] = []
    for group in groups:
        if exact:
            choices.append(list(itertools.permutations(group)))
        else:
            choices.append([tuple(group[i:] + group[:i]) for i in range(len(group))])
    orders = []
    for picked in itertools.product(*choices):
        place = [0] * len(ranks)
        for position, team in enumerate(t for group in picked for t in group):
            place[team] = position + 1
        orders.append(place)
    return orders


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game's result by seats: the teams (seat numbers) and each team's
    rank (lower better, equal for a tie)."""

    teams: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.teams) < 2:
            raise ValueError("an outcome needs at least two teams")
        _check_ranks(self.ranks, len(self.teams))
        seats = [seat for team in self.teams for seat in team]
        if any(not team for team in self.teams):
            raise ValueError("a team without seats cannot be rated")
        if any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in seats):
            raise ValueError(f"seats are whole numbers from 0, not {seats!r}")
        if len(set(seats)) != len(seats):
            raise ValueError(f"a seat is in more than one team: {self.teams!r}")

    def participants(self, seats: Sequence[Participant]) -> list[list[Participant]]:
        """The teams with the participant of each seat (``seats``, by seat number)."""
        highest = max(seat for team in self.teams for seat in team)
        if highest >= len(seats):
            raise ValueError(f"seat {highest} has no participant ({len(seats)} given)")
        return [[seats[seat] for seat in team] for team in self.teams]


def rate_outcome(
    pool_ratings: Mapping[str, Rating], outcome: Outcome, seats: Sequence[Participant]
) -> dict[str, Rating]:
    """:func:`rate` for an :class:`Outcome`, with the participant of each seat."""
    return rate(pool_ratings, outcome.participants(seats), outcome.ranks)


def _ranked(teams: Sequence[Sequence[int]], keys: Sequence[Any]) -> Outcome:
    """The outcome of ``teams`` ranked by ``keys`` (lower better, equal keys tie):
    standard competition ranks, 1 for the best (1, 2, 2, 4)."""
    ranks = tuple(1 + sum(1 for other in keys if other < key) for key in keys)
    return Outcome(tuple(tuple(team) for team in teams), ranks)


# -- the games' results ----------------------------------------------------------


def slobberhannes_outcome(
    penalties: Sequence[int],
    teams: Sequence[Sequence[int]] | None = None,
    *,
    losers: Collection[int] = (),
) -> Outcome:
    """Slobberhannes: the teams ranked by their penalty points, fewer better.

    ``penalties`` are the points per seat (a match's totals, or one deal's);
    ``teams`` who shares them (partners sit opposite: ``((0, 2), (1, 3))``; by
    default everyone alone). The team of a seat in ``losers`` (the match's
    losers) ranks below every other, whatever the points: the first to reach the
    target loses even if another passes it later in the deal.

    >>> slobberhannes_outcome([3, 10, 7, 12], losers=[1]).ranks
    (1, 4, 2, 3)
    >>> slobberhannes_outcome([3, 1, 4, 2], [(0, 2), (1, 3)]).ranks
    (2, 1)
    """
    n = len(penalties)
    groups = [tuple(team) for team in teams] if teams is not None else [(s,) for s in range(n)]
    covered = sorted(seat for team in groups for seat in team)
    if covered != list(range(n)):
        raise ValueError(f"the teams {groups!r} must hold each of the {n} seats once")
    lost = set(losers)
    keys = [(any(s in lost for s in team), sum(penalties[s] for s in team)) for team in groups]
    return _ranked(groups, keys)


def slobberhannes_match_outcome(match: SlobberhannesMatch) -> Outcome:
    """The outcome of a finished Slobberhannes match (its totals, teams and losers)."""
    result = match.result
    if result is None:
        raise ValueError("the match is not over: only a finished match is rated")
    return slobberhannes_outcome(match.totals(), match.options.teams(), losers=result.losers)


def doppelkopf_outcome(
    re: Collection[int], kontra: Collection[int], winner: Literal["re", "kontra"] | None
) -> Outcome:
    """One Doppelkopf game: the Re party against the Kontra party (a solo: the
    soloist alone against three), the winner first; ``None``: nobody won, a tie.

    >>> doppelkopf_outcome([3], [0, 1, 2], "re").ranks
    (1, 2)
    >>> doppelkopf_outcome([0, 1], [2, 3], None).ranks
    (1, 1)
    """
    if winner not in ("re", "kontra", None):
        raise ValueError(f"the winner is 're', 'kontra' or None, not {winner!r}")
    if set(re) & set(kontra):
        raise ValueError(f"a seat cannot be in both parties: Re {re!r}, Kontra {kontra!r}")
    teams = (tuple(sorted(re)), tuple(sorted(kontra)))
    ranks = (1, 1) if winner is None else (1, 2) if winner == "re" else (2, 1)
    return Outcome(teams, ranks)


#: What a DDV score says when both parties missed their targets (TSR 7.1.4).
_NOBODY_WINS: Final = "nobody wins"


def doppelkopf_deal_outcome(deal: DoppelkopfDeal) -> Outcome | None:
    """The outcome of a finished Doppelkopf deal; None if it was thrown in (a redeal).

    The four seats that played form the parties (a fifth player, the dealer,
    sits out and is not rated for the deal). A DDV game that both parties lost by
    missing their announced targets (TSR 7.1.4) is a tie.
    """
    if not deal.is_over:
        raise ValueError("the deal is not over: only a finished deal is rated")
    if deal.outcome != "played":
        return None
    score, re_party = deal.score, deal.re_party
    if score is None or re_party is None:  # pragma: no cover - a played deal has both
        raise ValueError("the finished deal has no score")
    re = [seat for seat in deal.playing if seat in re_party]
    kontra = [seat for seat in deal.playing if seat not in re_party]
    nobody = any(_NOBODY_WINS in line for line in score.lines)
    return doppelkopf_outcome(re, kontra, None if nobody else score.winner)


def doppelkopf_match_outcomes(match: DoppelkopfMatch) -> list[Outcome]:
    """The outcomes of a Doppelkopf session's played deals, oldest first (each deal
    is rated on its own: the parties change every deal)."""
    outcomes = []
    for deal in match.deals:
        if deal.is_over:
            outcome = doppelkopf_deal_outcome(deal)
            if outcome is not None:
                outcomes.append(outcome)
    return outcomes


def finishing_order_outcome(order: Sequence[int | Collection[int]]) -> Outcome:
    """Everyone alone, ranked by finishing order: ``order`` names the seats from
    first place to last, a collection of seats for places shared.

    >>> finishing_order_outcome([2, {0, 3}, 1]).ranks
    (1, 2, 2, 4)
    """
    teams: list[tuple[int]] = []
    keys: list[int] = []
    for place, entry in enumerate(order):
        seats = [entry] if isinstance(entry, int) else sorted(entry)
        for seat in seats:
            teams.append((seat,))
            keys.append(place)
    return _ranked(teams, keys)


def slapjack_outcome(game: SlapjackGame) -> Outcome:
    """A finished Slapjack game: the winners first (several share a time-limit
    end), then the players still in by their cards, then those put out, the last
    out first (players put out at the same moment share a place)."""
    from kartentisch.games.slapjack.engine import PlayerOut

    if not game.is_over:
        raise ValueError("the game is not over: only a finished game is rated")
    winners = set(game.winners)
    out_times: dict[int, int] = {}
    for event in game.events:
        if isinstance(event, PlayerOut):
            out_times.setdefault(event.seat, event.t)
    sizes = game.stack_sizes()
    order: list[Collection[int]] = [winners]
    still_in = [s for s in range(game.num_seats) if s not in winners and s not in out_times]
    for size in sorted({sizes[s] for s in still_in}, reverse=True):
        order.append({s for s in still_in if sizes[s] == size})
    for t in sorted(set(out_times.values()), reverse=True):
        order.append({s for s, when in out_times.items() if when == t and s not in winners})
    return finishing_order_outcome([group for group in order if group])


def irish_snap_outcome(game: IrishSnapGame) -> Outcome:
    """A finished Irish Snap game: the players in the order they got rid of their
    cards (those made safe by the same pickup share a place), the loser last."""
    from kartentisch.games.irish_snap.engine import PlayerSafe

    if not game.is_over or game.loser is None:
        raise ValueError("the game is not over: only a finished game is rated")
    loser = game.loser
    safe_times: dict[int, int] = {}
    for event in game.events:
        if isinstance(event, PlayerSafe) and event.seat != loser:
            safe_times.setdefault(event.seat, event.t)
    order: list[Collection[int]] = []
    for t in sorted(set(safe_times.values())):
        order.append({s for s, when in safe_times.items() if when == t})
    order.append({loser})
    return finishing_order_outcome(order)
