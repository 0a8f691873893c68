"""Friends over HTTP: requests, the list with who is online, invitations to a table.

* ``GET /api/friends`` — the friends (``online``, and the live table they sit at),
  the requests both ways, the invitations to tables still waiting or playing
* ``POST /api/friends`` ``{name}`` — ask (asking back someone who asked is a yes)
* ``POST /api/friends/remove`` ``{name}`` — end a friendship, decline or take back
* ``POST /api/friends/invite`` ``{name, table}`` — ask a friend to a table one sits at

All need a login (``not_logged_in``) and the CSRF token (``web.accounts.CsrfGuard``).
"Online" is this process's view: a login seen in the last two minutes, or a seat
connected at one of its tables (docs/web-protocol.md, "Friends").
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from kartentisch.storage.accounts import Account, AccountStore, UnknownAccount
from kartentisch.storage.friends import FriendStore
from kartentisch.web.accounts import read_object
from kartentisch.web.seats import TableError

__all__ = ["ONLINE_SECONDS", "FriendRoutes"]

#: A login seen this recently counts as online.
ONLINE_SECONDS: Final = 120.0


class FriendRoutes:
    """The friends' routes. ``account_of`` is the login of a request; ``seated`` the
    accounts connected at live tables here (account → table id); ``seen`` when each
    account's login was last seen (``time.monotonic``); ``sits_at`` whether an account
    sits at a live table that may still be joined."""

    def __init__(
        self,
        accounts: Callable[[], AccountStore],
        account_of: Callable[[Request], Awaitable[Account | None]],
        refuse: Callable[[Request, TableError], Response],
        seated: Callable[[], dict[int, str]],
        seen: Callable[[int], float | None],
        sits_at: Callable[[int, str], bool],
        clock: Callable[[], float],
    ) -> None:
        self._accounts = accounts
        self._account_of = account_of
        self._refuse = refuse
        self._seated = seated
        self._seen = seen
        self._sits_at = sits_at
        self._clock = clock

    def routes(self) -> list[Route]:
        return [
            Route("/api/friends", self.list_friends, methods=["GET"]),
            Route("/api/friends", self.ask, methods=["POST"]),
            Route("/api/friends/remove", self.remove, methods=["POST"]),
            Route("/api/friends/invite", self.invite, methods=["POST"]),
        ]

    async def _me(self, request: Request) -> Account:
        account = await self._account_of(request)
        if account is None:
            raise TableError("not_logged_in", 401)
        return account

    async def _other(self, body: Any) -> Account:
        name = body.get("name") if isinstance(body, dict) else None
        if not isinstance(name, str) or not name.strip():
            raise TableError("no_such_player", 404)
        try:
            return await asyncio.to_thread(self._accounts().named, name[:64])
        except UnknownAccount:
            raise TableError("no_such_player", 404) from None

    def _friends(self) -> FriendStore:
        return FriendStore(self._accounts().tables)

    async def list_friends(self, request: Request) -> Response:
        try:
            me = await self._me(request)
            circle = await asyncio.to_thread(self._friends().circle, me.id)
        except TableError as exc:
            return self._refuse(request, exc)
        seated = self._seated()
        now = self._clock()

        def online(account: int) -> bool:
            seen = self._seen(account)
            return account in seated or (seen is not None and now - seen <= ONLINE_SECONDS)

        return JSONResponse(
            {
                "friends": [
                    {"name": f.name, "online": online(f.id), "table": seated.get(f.id)}
                    for f in sorted(circle.friends, key=lambda f: (not online(f.id), f.name))
                ],
                "incoming": circle.incoming,
                "outgoing": circle.outgoing,
                "invitations": [
                    {
                        "id": i.id,
                        "from": i.name,
                        "table": i.table,
                        "game": i.game,
                        "status": i.status,
                    }
                    for i in circle.invitations
                ],
            },
            headers={"cache-control": "no-store"},
        )

    async def ask(self, request: Request) -> Response:
        try:
            me = await self._me(request)
            other = await self._other(await read_object(request))
            result = await asyncio.to_thread(self._friends().ask, me.id, other.id)
            if result == "self":
                raise TableError("friend_self")
            if result == "full":
                raise TableError("friends_full", 409)
        except TableError as exc:
            return self._refuse(request, exc)
        return JSONResponse({"name": other.name, "result": result})

    async def remove(self, request: Request) -> Response:
        try:
            me = await self._me(request)
            other = await self._other(await read_object(request))
            removed = await asyncio.to_thread(self._friends().end, me.id, other.id)
        except TableError as exc:
            return self._refuse(request, exc)
        return JSONResponse({"name": other.name, "removed": removed})

    async def invite(self, request: Request) -> Response:
        try:
            me = await self._me(request)
            body = await read_object(request)
            other = await self._other(body)
            table = body.get("table")
            if not isinstance(table, str) or not self._sits_at(me.id, table[:32]):
                raise TableError("not_your_table", 403)
            friends = self._friends()
            if not await asyncio.to_thread(friends.are_friends, me.id, other.id):
                raise TableError("not_friends", 403, name=other.name)
            await asyncio.to_thread(friends.invite, me.id, other.id, table)
        except TableError as exc:
            return self._refuse(request, exc)
        return JSONResponse({"name": other.name, "table": table})
