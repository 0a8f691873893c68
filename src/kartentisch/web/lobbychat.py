"""The lobby's chat over HTTP: the latest messages, one more from a person logged in.

* ``GET /api/lobby/chat?after=N`` — the messages after number ``N`` (the latest 100
  are kept, in this process's memory): ``{"messages": [...], "last": M}``
* ``POST /api/lobby/chat`` ``{text}`` or ``{phrase}`` — say something (a login
  needed: ``not_logged_in``; the CSRF token; at most 5 at once, then one every 2 s
  per account: ``chat_rate_limited``)
* ``POST /api/lobby/chat/report`` ``{id}`` — keep a message for the admin

A message is as at a table (docs/web-protocol.md, "Chat"): ``{id, from, text | phrase,
at}``, checked and cleaned by the same rules, drawn by the page as text.
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from kartentisch.storage.accounts import Account, AccountStore
from kartentisch.web.accounts import read_object
from kartentisch.web.protocol import ProtocolError, read_chat
from kartentisch.web.ratelimits import Rate, RateLimiter
from kartentisch.web.seats import RateLimited, TableError

__all__ = ["LOBBY_CHAT_KEPT", "LobbyChat"]

LOBBY_CHAT_KEPT: Final = 100
CHAT_RATE: Final = Rate("lobby-chat", 5, 0.5)


class LobbyChat:
    """The lobby's chat of one process."""

    def __init__(
        self,
        accounts: Callable[[], AccountStore],
        account_of: Callable[[Request], Awaitable[Account | None]],
        limiter: Callable[[], RateLimiter],
        refuse: Callable[[Request, TableError], Response],
        take: Callable[[Request], Awaitable[None]],
    ) -> None:
        self._accounts = accounts
        self._account_of = account_of
        self._limiter = limiter
        self._refuse = refuse
        self._take = take
        self.messages: collections.deque[dict[str, Any]] = collections.deque(maxlen=LOBBY_CHAT_KEPT)
        self._count = 0
        self._authors: dict[int, int] = {}

    def routes(self) -> list[Route]:
        return [
            Route("/api/lobby/chat", self.read, methods=["GET"]),
            Route("/api/lobby/chat", self.say, methods=["POST"]),
            Route("/api/lobby/chat/report", self.report, methods=["POST"]),
        ]

    async def read(self, request: Request) -> Response:
        raw = request.query_params.get("after", "0")
        after = int(raw) if raw.isdigit() and len(raw) < 12 else 0
        return JSONResponse(
            {"messages": [m for m in self.messages if m["id"] > after], "last": self._count},
            headers={"cache-control": "no-store"},
        )

    async def say(self, request: Request) -> Response:
        try:
            account = await self._account_of(request)
            if account is None:
                raise TableError("not_logged_in", 401)
            body = await read_object(request)
            try:
                chat = read_chat(body)
            except ProtocolError as exc:
                raise TableError(exc.code, detail=exc.detail, **exc.params) from None
            wait = await self._limiter().hit(CHAT_RATE, str(account.id))
            if wait is not None:
                limited = RateLimited("chat_rate_limited", CHAT_RATE, wait)
                limited.params["every"] = f"{1 / CHAT_RATE.per_second:g}"
                raise limited
        except TableError as exc:
            return self._refuse(request, exc)
        self._count += 1
        said = {
            "id": self._count,
            "from": account.name,
            "text": chat.text,
            "phrase": chat.phrase,
            "at": int(time.time() * 1000),
        }
        self.messages.append(said)
        self._authors[self._count] = account.id
        if len(self._authors) > LOBBY_CHAT_KEPT:
            del self._authors[min(self._authors)]
        return JSONResponse(said, status_code=201)

    async def report(self, request: Request) -> Response:
        try:
            await self._take(request)
            body = await read_object(request)
            wanted = body.get("id")
            said = next((m for m in self.messages if m["id"] == wanted), None)
            if said is None:
                raise TableError("no_such_chat", 404)
            author = self._authors.get(int(said["id"]))
            await asyncio.to_thread(
                self._accounts().report_chat, "lobby", {**said, "seat": None}, author, None
            )
        except TableError as exc:
            return self._refuse(request, exc)
        return JSONResponse({"reported": wanted})
