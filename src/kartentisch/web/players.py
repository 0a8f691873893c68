"""Players over HTTP: a profile per account, a leaderboard per rating pool.

* ``GET /api/players/{name}`` — the account's games (played, won, the statistics
  summed), its rating in each pool with the history the chart draws, the latest
  tables (with their replays' links); ``404``, ``no_such_player``
* ``GET /api/leaderboard/{pool}?page=N`` — the pool's accounts by rating, 50 a page;
  ``404``, ``no_such_pool``

Both read only; docs/web-protocol.md, "Players".
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from kartentisch.ratings import POOLS, Rating
from kartentisch.storage.accounts import AccountStore, UnknownAccount
from kartentisch.storage.ratings import RatingStore
from kartentisch.web.seats import TableError

__all__ = ["PAGE_SIZE", "PlayerRoutes"]

#: Leaderboard rows per page.
PAGE_SIZE: Final = 50


def _rating(rating: Rating) -> dict[str, Any]:
    return {
        "display": rating.display,
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "games": rating.games,
        "provisional": rating.provisional,
    }


class PlayerRoutes:
    """The profile and leaderboard routes; ``refuse`` renders a refusal as the app does,
    ``take`` counts a request against the lobby's rate."""

    def __init__(
        self,
        accounts: Callable[[], AccountStore],
        refuse: Callable[[Request, TableError], Response],
        take: Callable[[Request], Awaitable[None]],
    ) -> None:
        self._accounts = accounts
        self._refuse = refuse
        self._take = take

    def routes(self) -> list[Route]:
        return [
            Route("/api/players/{name}", self.profile, methods=["GET"]),
            Route("/api/leaderboard/{pool}", self.leaderboard, methods=["GET"]),
        ]

    async def profile(self, request: Request) -> Response:
        try:
            await self._take(request)
            answer = await asyncio.to_thread(self._profile, request.path_params["name"])
        except TableError as exc:
            return self._refuse(request, exc)
        return JSONResponse(answer)

    def _profile(self, name: str) -> dict[str, Any]:
        accounts = self._accounts()
        try:
            account = accounts.named(name[:64])
        except UnknownAccount:
            raise TableError("no_such_player", 404) from None
        profile = RatingStore(accounts.tables).profile(account.id)
        return {
            "account": {"name": account.name, "since": account.created.date().isoformat()},
            "games": profile.games,
            "ratings": {
                pool: {
                    **_rating(history.rating),
                    "history": [
                        {"at": int(at.timestamp() * 1000), "display": shown, "table": table}
                        for at, shown, table in history.points
                    ],
                }
                for pool, history in profile.ratings.items()
            },
            "recent": [
                {**row, "finished": int(row["finished"].timestamp() * 1000)}
                for row in profile.recent
            ],
        }

    async def leaderboard(self, request: Request) -> Response:
        try:
            await self._take(request)
            pool = request.path_params["pool"]
            if pool not in POOLS:
                raise TableError("no_such_pool", 404, pool=str(pool)[:32])
            raw = request.query_params.get("page", "1")
            page = int(raw) if raw.isdigit() and 0 < len(raw) < 7 else 0
            if page < 1:
                raise TableError("bad_request", detail="page: a whole number from 1")
            board = await asyncio.to_thread(
                RatingStore(self._accounts().tables).leaderboard,
                pool,
                offset=(page - 1) * PAGE_SIZE,
                limit=PAGE_SIZE,
            )
        except TableError as exc:
            return self._refuse(request, exc)
        return JSONResponse(
            {
                "pool": pool,
                "page": page,
                "pages": max(1, -(-board.total // PAGE_SIZE)),
                "total": board.total,
                "rows": [
                    {"place": row.place, "name": row.name, **_rating(row.rating)}
                    for row in board.rows
                ],
            }
        )
