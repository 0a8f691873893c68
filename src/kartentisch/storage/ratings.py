"""Ratings and results in the database: what the profile, the chart and the leaderboard read.

A finished table with accounts at it is written once (:meth:`RatingStore.record_table`):
a :class:`SeatResult` per account's seat, and, if the table was rated, each account's
new rating in the table's pool and a point of its history, all in one transaction.

>>> from kartentisch.accounts import account_name
>>> from kartentisch.ratings import Rating
>>> from kartentisch.storage.accounts import AccountStore
>>> tables = TableStore("sqlite://")
>>> tables.migrate()
>>> anna = AccountStore(tables).create(account_name("Anna"), "hash")
>>> tables.create_table("t1", "slobberhannes", {}, {}, [{"kind": "bot"}] * 3, 7)
>>> store = RatingStore(tables)
>>> won = SeatResult(seat=0, account=anna.id, rank=0, won=True, stats={"deals": 4})
>>> game = pool = "slobberhannes"
>>> store.record_table("t1", game, pool, [won], {anna.id: Rating(27.0, 7.5, 1)})
True
>>> store.record_table("t1", game, pool, [won], {anna.id: Rating(29.0, 7.0, 2)})
False
>>> store.ratings([anna.id], "slobberhannes")[anna.id].mu
27.0
>>> [(row.name, row.rating.games) for row in store.leaderboard("slobberhannes").rows]
[('Anna', 1)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, cast

from sqlalchemy import Table, func, insert, select, update

from kartentisch.ratings import Rating
from kartentisch.storage.models import (
    AccountRow,
    PlayerTotalsRow,
    RatingHistoryRow,
    RatingRow,
    TableResultRow,
    TableRow,
)
from kartentisch.storage.store import TableStore

__all__ = ["Board", "BoardRow", "PoolHistory", "Profile", "RatingStore", "SeatResult"]

_ACCOUNTS: Final = cast(Table, AccountRow.__table__)
_RATINGS: Final = cast(Table, RatingRow.__table__)
_HISTORY: Final = cast(Table, RatingHistoryRow.__table__)
_RESULTS: Final = cast(Table, TableResultRow.__table__)
_TABLES: Final = cast(Table, TableRow.__table__)
_TOTALS: Final = cast(Table, PlayerTotalsRow.__table__)

#: Tables listed on a profile; points of the chart per pool (the latest).
RECENT: Final = 20
CHART_POINTS: Final = 200


@dataclass(frozen=True, slots=True)
class SeatResult:
    """An account's seat at a finished table: its rank (0 best), whether it won, the
    game's statistics (counts: docs/ratings.md, "Statistics")."""

    seat: int
    account: int
    rank: int
    won: bool
    stats: Mapping[str, int | float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BoardRow:
    place: int
    account: int
    name: str
    rating: Rating


@dataclass(frozen=True, slots=True)
class Board:
    pool: str
    total: int
    rows: list[BoardRow]


@dataclass(frozen=True, slots=True)
class PoolHistory:
    rating: Rating
    #: ``(when, displayed rating, table id)``, oldest first.
    points: list[tuple[datetime, int, str]]


@dataclass
class Profile:
    #: By game: tables finished, won, and the statistics summed.
    games: dict[str, dict[str, Any]]
    #: By pool: the rating and its history.
    ratings: dict[str, PoolHistory]
    #: The latest tables: ``{table, game, seat, rank, won, rated, finished}``.
    recent: list[dict[str, Any]]


class RatingStore:
    """Ratings and results in the database of ``tables``."""

    def __init__(self, tables: TableStore) -> None:
        self.tables = tables

    def ratings(self, accounts: Sequence[int], pool: str) -> dict[int, Rating]:
        """The accounts' ratings in ``pool`` (an account not rated there is left out)."""
        if not accounts:
            return {}
        query = select(_RATINGS).where(
            _RATINGS.c.pool == pool, _RATINGS.c.account_id.in_(list(accounts))
        )
        with self.tables.reading() as connection:
            rows = connection.execute(query).all()
        return {int(r.account_id): Rating(r.mu, r.sigma, r.games) for r in rows}

    def record_table(
        self,
        table_id: str,
        game: str,
        pool: str,
        seats: Sequence[SeatResult],
        new_ratings: Mapping[int, Rating] | None,
    ) -> bool:
        """Write a finished table's results (and, if ``new_ratings``, the ratings it
        gave); False if it was written before (nothing changes then)."""
        rated = new_ratings is not None
        with self.tables.transaction() as connection:
            done = connection.execute(
                select(func.count()).select_from(_RESULTS).where(_RESULTS.c.table_id == table_id)
            ).scalar_one()
            if done or not seats:
                return False
            connection.execute(
                insert(_RESULTS),
                [
                    {
                        "table_id": table_id,
                        "seat": s.seat,
                        "account_id": s.account,
                        "game": game,
                        "pool": pool,
                        "rank": s.rank,
                        "won": s.won,
                        "rated": rated,
                        "stats": dict(s.stats),
                    }
                    for s in seats
                ],
            )
            for s in seats:
                self._add_to_totals(connection, s, game)
            for account, rating in (new_ratings or {}).items():
                values = {
                    "mu": rating.mu,
                    "sigma": rating.sigma,
                    "provisional": rating.provisional,
                    "games": rating.games,
                }
                changed = connection.execute(
                    update(_RATINGS)
                    .where(_RATINGS.c.account_id == account, _RATINGS.c.pool == pool)
                    .values(**values)
                ).rowcount
                if not changed:
                    connection.execute(
                        insert(_RATINGS).values(account_id=account, pool=pool, **values)
                    )
                connection.execute(
                    insert(_HISTORY).values(
                        account_id=account,
                        pool=pool,
                        table_id=table_id,
                        mu=rating.mu,
                        sigma=rating.sigma,
                        display=rating.display,
                    )
                )
        return True

    def add_seat(self, table_id: str, game: str, pool: str, seat: SeatResult) -> bool:
        """Add one more account's result to a finished table (a guest's seat claimed
        afterwards: never rated); False if that seat has its result already."""
        with self.tables.transaction() as connection:
            there = connection.execute(
                select(_RESULTS.c.seat).where(
                    _RESULTS.c.table_id == table_id, _RESULTS.c.seat == seat.seat
                )
            ).first()
            if there is not None:
                return False
            connection.execute(
                insert(_RESULTS).values(
                    table_id=table_id,
                    seat=seat.seat,
                    account_id=seat.account,
                    game=game,
                    pool=pool,
                    rank=seat.rank,
                    won=seat.won,
                    rated=False,
                    stats=dict(seat.stats),
                )
            )
            self._add_to_totals(connection, seat, game)
        return True

    @staticmethod
    def _add_to_totals(connection: Any, seat: SeatResult, game: str) -> None:
        """Add one seat's result to the account's totals in ``game`` (the profile's row)."""
        key = (_TOTALS.c.account_id == seat.account) & (_TOTALS.c.game == game)
        row = connection.execute(select(_TOTALS).where(key)).first()
        if row is None:
            connection.execute(
                insert(_TOTALS).values(
                    account_id=seat.account,
                    game=game,
                    played=1,
                    won=int(seat.won),
                    stats=dict(seat.stats),
                )
            )
            return
        summed = dict(row.stats or {})
        for name, value in seat.stats.items():
            summed[name] = summed.get(name, 0) + value
        connection.execute(
            update(_TOTALS)
            .where(key)
            .values(played=row.played + 1, won=row.won + int(seat.won), stats=summed)
        )

    def leaderboard(self, pool: str, *, offset: int = 0, limit: int = 50) -> Board:
        """The pool's accounts by rating, best first, the provisional ones after the
        others; a page of them."""
        with self.tables.reading() as connection:
            total = connection.execute(
                select(func.count()).select_from(_RATINGS).where(_RATINGS.c.pool == pool)
            ).scalar_one()
            rows = connection.execute(
                select(_RATINGS, _ACCOUNTS.c.name)
                .join(_ACCOUNTS, _ACCOUNTS.c.id == _RATINGS.c.account_id)
                .where(_RATINGS.c.pool == pool)
                .order_by(_RATINGS.c.provisional, _RATINGS.c.mu.desc(), _ACCOUNTS.c.name_key)
                .offset(offset)
                .limit(limit)
            ).all()
        return Board(
            pool,
            int(total),
            [
                BoardRow(
                    offset + i + 1,
                    int(r.account_id),
                    str(r.name),
                    Rating(r.mu, r.sigma, r.games),
                )
                for i, r in enumerate(rows)
            ],
        )

    def profile(self, account: int) -> Profile:
        """What the account's profile shows: per game, per pool, the latest tables."""
        with self.tables.reading() as connection:
            totals = connection.execute(
                select(_TOTALS.c.game, _TOTALS.c.played, _TOTALS.c.won, _TOTALS.c.stats).where(
                    _TOTALS.c.account_id == account
                )
            ).all()
            ratings = connection.execute(
                select(_RATINGS).where(_RATINGS.c.account_id == account)
            ).all()
            recent = connection.execute(
                select(
                    _RESULTS.c.table_id,
                    _RESULTS.c.game,
                    _RESULTS.c.seat,
                    _RESULTS.c.rank,
                    _RESULTS.c.won,
                    _RESULTS.c.rated,
                    _RESULTS.c.finished,
                )
                .where(_RESULTS.c.account_id == account)
                .order_by(_RESULTS.c.finished.desc(), _RESULTS.c.table_id)
                .limit(RECENT)
            ).all()
            history: dict[str, PoolHistory] = {}
            for r in ratings:
                points = connection.execute(
                    select(_HISTORY.c.created, _HISTORY.c.display, _HISTORY.c.table_id)
                    .where(_HISTORY.c.account_id == account, _HISTORY.c.pool == r.pool)
                    .order_by(_HISTORY.c.id.desc())
                    .limit(CHART_POINTS)
                ).all()
                history[str(r.pool)] = PoolHistory(
                    Rating(r.mu, r.sigma, r.games),
                    [(p.created, int(p.display), str(p.table_id)) for p in reversed(points)],
                )
        games: dict[str, dict[str, Any]] = {
            str(g.game): {"played": int(g.played), "won": int(g.won), "stats": dict(g.stats or {})}
            for g in totals
        }
        listed = [
            {
                "table": str(r.table_id),
                "game": str(r.game),
                "seat": int(r.seat),
                "rank": int(r.rank),
                "won": bool(r.won),
                "rated": bool(r.rated),
                "finished": r.finished,
            }
            for r in recent
        ]
        return Profile(games, history, listed)
