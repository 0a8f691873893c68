"""Accounts over HTTP: sign up, log in and out, change the password, claim a guest's seats.

Routes (docs/web-protocol.md, "Accounts"; the threats they meet: docs/security.md):

* ``GET /api/me`` — who is logged in (``account`` or null) and the CSRF token
* ``POST /api/accounts`` — sign up ``{name, password, claim?}``; logs in
* ``POST /api/login`` ``{name, password}``, ``POST /api/logout``
* ``POST /api/password`` ``{old, new}`` — every other login of the account ends
* ``POST /api/claim`` ``{seats: [{table, token}]}`` — seats a guest took in this
  browser become the account's

A login is a cookie (``kt_session``: HttpOnly, SameSite=Lax, Secure over HTTPS)
whose secret the database keeps only as a SHA-256. Every state-changing request
that carries it, and every request to the routes above, must repeat the CSRF
cookie (``kt_csrf``, readable by the page) in the ``X-CSRF-Token`` header and
come from this site (:class:`CsrfGuard`). Passwords are hashed off the event
loop, at most :data:`HASH_SLOTS` at once; more waiting than
:data:`MAX_HASH_QUEUE` are told to come back (``busy``, 503) rather than queued
for seconds.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any, Final

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from kartentisch.accounts import (
    AccountNameError,
    PasswordError,
    account_name,
    check_password,
    hash_password,
    needs_rehash,
    verify_password,
)
from kartentisch.storage.accounts import Account, AccountStore, NameTaken
from kartentisch.web.addresses import scope_key
from kartentisch.web.i18n import request_language, translate
from kartentisch.web.protocol import Limits
from kartentisch.web.ratelimits import Rate, RateLimiter
from kartentisch.web.seats import RateLimited, TableError, hash_token

__all__ = [
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "HASH_SLOTS",
    "MAX_HASH_QUEUE",
    "SESSION_COOKIE",
    "AccountRoutes",
    "CsrfGuard",
    "read_object",
]

log = logging.getLogger("kartentisch.web.accounts")

SESSION_COOKIE: Final = "kt_session"
CSRF_COOKIE: Final = "kt_csrf"
CSRF_HEADER: Final = "x-csrf-token"
#: A login lasts this long (seconds) unless the person logs out.
SESSION_SECONDS: Final = 30 * 24 * 3600
#: Password hashes computed at once (the machine's cores), and how many may wait.
HASH_SLOTS: Final = 2
MAX_HASH_QUEUE: Final = 16
#: The routes whose requests need the CSRF token even without a login cookie.
ACCOUNT_PATHS: Final = frozenset(
    {"/api/accounts", "/api/login", "/api/logout", "/api/password", "/api/claim"}
)
#: Seats one claim may name.
MAX_CLAIMS: Final = 100
#: Verified when the name is unknown, so that a wrong name takes as long as a wrong password.
_DUMMY_HASH: Final = hash_password("not a password of anyone")

Scope = MutableMapping[str, Any]


_lang = request_language


def _secure(request: HTTPConnection) -> bool:
    return request.url.scheme in ("https", "wss")


class AccountRoutes:
    """The account routes of one app; ``store`` and ``limiter`` exist once it has started."""

    def __init__(
        self,
        store: Callable[[], AccountStore],
        limiter: Callable[[], RateLimiter],
        limits: Limits,
        refuse: Callable[[Request, TableError], Response],
    ) -> None:
        self._store = store
        #: How a refusal is answered (the app's: its code, message and ``Retry-After``).
        self._refuse = refuse
        #: Called with (table id, seat, account) for each seat claimed: the app adds a
        #: finished table's result to the account's profile.
        self.on_claimed: Callable[[str, int, Account], Awaitable[None]] | None = None
        self._limiter = limiter
        self.login_rate = Rate("login-address", limits.login_burst, limits.logins_per_second)
        self.account_rate = Rate(
            "login-account", limits.account_login_burst, limits.account_logins_per_second
        )
        self.signup_rate = Rate("signup", limits.signup_burst, limits.signups_per_second)
        self._hashing = asyncio.Semaphore(HASH_SLOTS)
        self._waiting = 0
        #: When each account's login was last seen here (``time.monotonic``): online.
        self.seen: dict[int, float] = {}

    def routes(self) -> list[Route]:
        return [
            Route("/api/me", self.me, methods=["GET"]),
            Route("/api/accounts", self.sign_up, methods=["POST"]),
            Route("/api/login", self.log_in, methods=["POST"]),
            Route("/api/logout", self.log_out, methods=["POST"]),
            Route("/api/password", self.change_password, methods=["POST"]),
            Route("/api/claim", self.claim, methods=["POST"]),
        ]

    # -- who is asking ------------------------------------------------------------------

    async def account_of(self, request: HTTPConnection) -> Account | None:
        """The account logged in by the request's cookie, or None (a guest)."""
        token = request.cookies.get(SESSION_COOKIE)
        if not token or len(token) > 128:
            return None
        account = await asyncio.to_thread(self._store().session_account, token)
        if account is not None:
            self.seen[account.id] = time.monotonic()
        return account

    async def _logged_in(self, request: Request) -> Account:
        account = await self.account_of(request)
        if account is None:
            raise TableError("not_logged_in", 401)
        return account

    # -- hashing ----------------------------------------------------------------------

    async def _hash(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` (an Argon2 hash or check) in a thread, a few at a time."""
        if self._hashing.locked() and self._waiting >= MAX_HASH_QUEUE:
            raise TableError("busy", 503)
        self._waiting += 1
        try:
            await self._hashing.acquire()
        finally:
            self._waiting -= 1
        try:
            return await asyncio.to_thread(fn, *args)
        finally:
            self._hashing.release()

    async def _take(self, rate: Rate, code: str, *key: str) -> None:
        wait = await self._limiter().hit(rate, *key)
        if wait is not None:
            raise RateLimited(code, rate, wait)

    # -- routes -----------------------------------------------------------------------

    async def me(self, request: Request) -> Response:
        account = await self.account_of(request)
        csrf = request.cookies.get(CSRF_COOKIE)
        fresh = not csrf or len(csrf) > 128
        if fresh:
            csrf = secrets.token_urlsafe(24)
        response = JSONResponse(
            {"account": None if account is None else account.to_json(), "csrf": csrf},
            headers={"cache-control": "no-store"},
        )
        if fresh:
            assert csrf is not None
            response.set_cookie(
                CSRF_COOKIE, csrf, path="/", samesite="strict", secure=_secure(request)
            )
        return response

    async def sign_up(self, request: Request) -> Response:
        try:
            body = await read_object(request)
            name = _checked_name(body.get("name"))
            password = _checked_password(body.get("password"))
            await self._take(self.signup_rate, "too_many_signups", scope_key(request.scope))
            stored = await self._hash(hash_password, password)
            try:
                account = await asyncio.to_thread(self._store().create, name, stored)
            except NameTaken as exc:
                raise TableError(exc.code, 409, other=exc.other) from None
            claimed = await self._claim(account, body.get("claim"))
        except TableError as exc:
            return self._refuse(request, exc)
        log.info("account %d signed up", account.id)
        response = JSONResponse({"account": account.to_json(), "claimed": claimed}, status_code=201)
        await self._log_in(request, response, account)
        return response

    async def log_in(self, request: Request) -> Response:
        try:
            body = await read_object(request)
            raw_name = body.get("name")
            password = body.get("password")
            if not isinstance(raw_name, str) or not isinstance(password, str) or not password:
                raise TableError("login_failed", 401)
            address = scope_key(request.scope)
            await self._take(self.login_rate, "too_many_logins", address)
            try:
                key = account_name(raw_name).key
            except AccountNameError:
                key = raw_name.casefold()[:128]
            # Wrong passwords per account, from every address (password stuffing).
            wait = await self._limiter().blocked(self.account_rate, key)
            if wait is not None:
                raise RateLimited("too_many_logins_account", self.account_rate, wait)
            found = await asyncio.to_thread(self._store().find, key)
            stored = found[1] if found is not None else _DUMMY_HASH
            ok = len(password) <= 1024 and await self._hash(verify_password, stored, password)
            if found is None or not ok:
                await self._limiter().hit(self.account_rate, key)
                raise TableError("login_failed", 401)
            account = found[0]
            if account.blocked:
                raise TableError("account_blocked", 403)
            if needs_rehash(stored):
                fresh = await self._hash(hash_password, password)
                await asyncio.to_thread(self._store().set_password, account.id, fresh)
        except TableError as exc:
            return self._refuse(request, exc)
        response = JSONResponse({"account": account.to_json()})
        await self._log_in(request, response, account)
        return response

    async def _log_in(self, request: Request, response: Response, account: Account) -> None:
        old = request.cookies.get(SESSION_COOKIE)
        if old:
            await asyncio.to_thread(self._store().close_session, old)
        token = await asyncio.to_thread(self._store().open_session, account.id)
        response.set_cookie(
            SESSION_COOKIE,
            token,
            max_age=SESSION_SECONDS,
            path="/",
            httponly=True,
            samesite="lax",
            secure=_secure(request),
        )

    async def log_out(self, request: Request) -> Response:
        token = request.cookies.get(SESSION_COOKIE)
        if token:
            await asyncio.to_thread(self._store().close_session, token)
        response = JSONResponse({"account": None})
        response.delete_cookie(
            SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=_secure(request)
        )
        return response

    async def change_password(self, request: Request) -> Response:
        try:
            account = await self._logged_in(request)
            body = await read_object(request)
            old = body.get("old")
            new = _checked_password(body.get("new"))
            stored = await asyncio.to_thread(self._store().password_hash, account.id)
            if (
                stored is None
                or not isinstance(old, str)
                or len(old) > 1024
                or not await self._hash(verify_password, stored, old)
            ):
                await self._limiter().hit(self.account_rate, account.name.casefold())
                raise TableError("wrong_password", 403)
            fresh = await self._hash(hash_password, new)
            await asyncio.to_thread(self._store().set_password, account.id, fresh)
            keep = request.cookies.get(SESSION_COOKIE)
            await asyncio.to_thread(self._store().close_other_sessions, account.id, keep)
        except TableError as exc:
            return self._refuse(request, exc)
        return JSONResponse({"account": account.to_json()})

    async def claim(self, request: Request) -> Response:
        try:
            account = await self._logged_in(request)
            body = await read_object(request)
            claimed = await self._claim(account, body.get("seats"))
        except TableError as exc:
            return self._refuse(request, exc)
        return JSONResponse({"claimed": claimed})

    async def _claim(self, account: Account, seats: Any) -> list[dict[str, Any]]:
        """The seats (``[{table, token}]``, a guest's in this browser) that become the
        account's: those whose token is right and that no account has taken."""
        if seats is None:
            return []
        if not isinstance(seats, list) or len(seats) > MAX_CLAIMS:
            raise TableError("bad_request", detail=f"seats: a list of at most {MAX_CLAIMS}")
        claimed: list[dict[str, Any]] = []
        for item in seats:
            if not isinstance(item, Mapping):
                raise TableError("bad_request", detail="seats: objects {table, token}")
            table_id, token = item.get("table"), item.get("token")
            if not isinstance(table_id, str) or not isinstance(token, str) or len(table_id) > 32:
                continue
            seat = await asyncio.to_thread(self._claim_one, account, table_id, token)
            if seat is not None:
                claimed.append({"table": table_id, "seat": seat})
                if self.on_claimed is not None:
                    try:
                        await self.on_claimed(table_id, seat, account)
                    except Exception:
                        log.exception(
                            "table %s: a claimed seat's result could not be kept", table_id
                        )
        return claimed

    def _claim_one(self, account: Account, table_id: str, token: str) -> int | None:
        store = self._store()
        stored = store.tables.load(table_id)
        if stored is None:
            return None
        wanted = hash_token(token)
        for number, seat in enumerate(stored.seats):
            if seat.get("kind") == "human" and secrets.compare_digest(
                str(seat.get("token_hash") or ""), wanted
            ):
                return number if store.seat(table_id, number, account.id) else None
        return None


async def read_object(request: Request) -> dict[str, Any]:
    """The request's JSON object (at most 16 KiB)."""
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > 16 * 1024:
            raise TableError("too_large", 413)
    try:
        body = json.loads(raw) if raw else {}
    except (ValueError, RecursionError):
        raise TableError("bad_json", detail="the body is not a JSON object") from None
    if not isinstance(body, dict):
        raise TableError("bad_request", detail="the body must be a JSON object")
    return body


def _checked_name(value: Any) -> Any:
    try:
        return account_name(value)
    except AccountNameError as exc:
        raise TableError(exc.code, **exc.params) from None


def _checked_password(value: Any) -> str:
    try:
        return check_password(value)
    except PasswordError as exc:
        raise TableError(exc.code, **exc.params) from None


class CsrfGuard:
    """ASGI middleware: a state-changing request with a login cookie, or to an account
    route, must carry the CSRF cookie's value in ``X-CSRF-Token`` and, if it says where
    it comes from (``Origin``), come from this site; else 403 ``csrf``."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] not in ("GET", "HEAD", "OPTIONS"):
            request = Request(scope)
            guarded = SESSION_COOKIE in request.cookies or scope["path"] in ACCOUNT_PATHS
            if guarded and not (_same_site(request) and _token_matches(request)):
                lang = _lang(request)
                body = {"code": "csrf", "message": translate(lang, "error.csrf")}
                await JSONResponse({"error": body}, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _token_matches(request: Request) -> bool:
    cookie = request.cookies.get(CSRF_COOKIE, "")
    header = request.headers.get(CSRF_HEADER, "")
    return bool(cookie) and secrets.compare_digest(cookie.encode(), header.encode())


def _same_site(request: Request) -> bool:
    origin = request.headers.get("origin")
    if origin is None:
        return True
    host = request.headers.get("host", "")
    return origin.split("://", 1)[-1] == host
