"""What the app's route modules share: :class:`AppContext`.

``create_app`` (``web/app.py``) builds one context and hands it to each route
module. It holds the limits and rates of clients, the kept answers, the analysis
workers and the account routes, and reaches the services that exist only while
the app runs (:class:`Services`: the table manager, the rate limiter, the account
store and, with Redis, the cluster; the lifespan opens and closes them). It also
holds what several route groups do alike: count a request against a rate, find a
table by its id, read a finished table as a replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.requests import Request

from kartentisch.storage.accounts import AccountStore
from kartentisch.web.accounts import AccountRoutes
from kartentisch.web.addresses import scope_key
from kartentisch.web.analysis import AnalysisPool
from kartentisch.web.answers import AnswerCache
from kartentisch.web.protocol import Limits
from kartentisch.web.ratelimits import Rate, RateLimiter
from kartentisch.web.seats import RateLimited, TableError
from kartentisch.web.tables import TableManager

if TYPE_CHECKING:
    from kartentisch.web.cluster import Cluster

__all__ = ["AppContext", "Rates", "Services"]


@dataclass(eq=False)
class Services:
    """The services the app's lifespan opens (None before it starts, the limiter and the
    cluster None again once it has ended)."""

    tables: TableManager | None = None
    rate_limiter: RateLimiter | None = None
    account_store: AccountStore | None = None
    shared: Cluster | None = None

    def manager(self) -> TableManager:
        if self.tables is None:
            raise RuntimeError("the app has not started: no table manager")
        return self.tables

    def limiter(self) -> RateLimiter:
        if self.rate_limiter is None:
            raise RuntimeError("the app is not running: no rate limiter")
        return self.rate_limiter

    def accounts(self) -> AccountStore:
        if self.account_store is None:
            raise RuntimeError("the app has not started: no account store")
        return self.account_store

    def cluster(self) -> Cluster | None:
        """The cluster this process is one of (``redis_url``), else None."""
        return self.shared


@dataclass(frozen=True)
class Rates:
    """The rates counted per address key (:mod:`kartentisch.web.addresses`), and per seat
    for hellos, across connections (docs/security.md)."""

    lobby: Rate
    replay: Rate
    #: Rule-set schemas and checks: the lobby's numbers, counted apart from it.
    rules: Rate
    #: The lobby page polls the moves due: counted apart from creating and joining tables.
    turns: Rate
    seat_hellos: Rate
    address_hellos: Rate

    @classmethod
    def of(cls, limits: Limits) -> Rates:
        return cls(
            lobby=Rate("lobby", limits.lobby_burst, limits.lobby_per_second),
            replay=Rate("replay", limits.replay_burst, limits.replays_per_second),
            rules=Rate("rules", limits.lobby_burst, limits.lobby_per_second),
            turns=Rate("turns", limits.lobby_burst, limits.lobby_per_second * 2),
            seat_hellos=Rate("hello-seat", limits.hello_burst, limits.hellos_per_second),
            address_hellos=Rate(
                "hello-address", limits.address_hello_burst, limits.address_hellos_per_second
            ),
        )


@dataclass(frozen=True)
class AppContext:
    """What the route modules close over (one per app)."""

    services: Services
    limits: Limits
    rates: Rates
    #: Replays, records and analyses of tables, computed once and kept.
    answers: AnswerCache
    #: The worker processes of analyses and hints.
    workers: AnalysisPool
    #: Sign-up, log-in and the account of a request (:meth:`AccountRoutes.account_of`).
    account_routes: AccountRoutes

    def manager(self) -> TableManager:
        return self.services.manager()

    def cluster(self) -> Cluster | None:
        return self.services.cluster()

    def limiter(self) -> RateLimiter:
        return self.services.limiter()

    def accounts(self) -> AccountStore:
        return self.services.accounts()

    async def take(self, request: Request, rate: Rate, code: str) -> None:
        """Count a request of the client's address against ``rate``; refuse it beyond."""
        wait = await self.limiter().hit(rate, scope_key(request.scope))
        if wait is not None:
            raise RateLimited(code, rate, wait)

    async def take_lobby(self, request: Request) -> None:
        await self.take(request, self.rates.lobby, "too_many_requests")

    async def take_turns(self, request: Request) -> None:
        await self.take(request, self.rates.turns, "too_many_turn_requests")

    def table_by_id(self, table_id: str) -> Any:
        """The table ``table_id`` (None if there is none); in a cluster, a table run
        elsewhere is read from the store (for its record)."""
        shared_tables = self.cluster()
        if shared_tables is None:
            return self.manager().get(table_id)
        return shared_tables.snapshot(table_id)

    def table(self, request: Request) -> Any:
        """The table of the request's path (``table_id``); refused if there is none."""
        table = self.table_by_id(request.path_params["table_id"])
        if table is None:
            raise TableError("no_such_table", 404)
        return table

    async def read_finished(self, key: str, table_id: str) -> Any:
        """The table ``table_id`` for a request of ``key``; reading a finished one counts as
        a replay (a table not in memory may need one): refused beyond the limit."""
        replay_rate = self.rates.replay
        here = self.manager().cached(table_id) if self.cluster() is None else None
        if here is not None and here.status != "finished":
            return here  # a live table: reading it costs nothing
        wait = await self.limiter().blocked(replay_rate, key)
        if wait is None:
            table = self.table_by_id(table_id)
            if table is None or table.status != "finished":
                return table
            wait = await self.limiter().hit(replay_rate, key)
            if wait is None:
                return table
        raise RateLimited("too_many_replays", replay_rate, wait)
