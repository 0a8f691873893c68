"""The ASGI application: ``create_app`` assembles the web app from its route modules.

``create_app()`` builds a Starlette app whose lifespan opens the store,
upgrades its schema (Alembic ``upgrade head``) and restores every unfinished
table. Routes (docs/web.md and docs/web-protocol.md), by module:

* :mod:`~kartentisch.web.pages` — ``GET /``, ``/t/{id}``, ``/rules/{game}``,
  ``/replay``, ``/replay/{id}`` and the account pages: the page; ``/static/…`` its
  files; ``/healthz``
* :mod:`~kartentisch.web.api_tables` — ``GET /api/tables``, ``POST /api/tables``
  (open tables; create one), ``GET /api/tables/{id}``, ``POST …/join``, ``…/start``
* :mod:`~kartentisch.web.api_analysis` — ``GET /api/tables/{id}/record``, ``…/replay``,
  ``…/analysis``; ``POST /api/replay`` and ``POST /api/analysis`` (a record sent by
  the replay viewer)
* :mod:`~kartentisch.web.api_catalog` — ``GET /api/games``, ``/api/rules/{game}/{lang}``
  (the rules as Markdown or HTML), ``/api/rules/{game}/schema``, ``POST
  /api/rules/{game}/check`` (rule sets), ``GET /api/i18n/{lang}`` (the page's catalog)
* :mod:`~kartentisch.web.api_accounts` — accounts, profiles, leaderboards, friends,
  moves due, the lobby's chat
* :mod:`~kartentisch.web.table_socket` — ``WS /ws/tables/{id}``: the table in real time

The route modules share an :class:`~kartentisch.web.context.AppContext` and the
helpers of :mod:`~kartentisch.web.responses`. What the server checks and the limits
it keeps (message sizes and rates, spectators, lobby requests, replays and hellos per
address) are in docs/security.md. The limits across connections are counted by
:mod:`kartentisch.web.ratelimits` (in Redis with ``redis_url``); the replays
and records of tables are computed once and kept (:mod:`kartentisch.web.answers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket

from kartentisch.errors import KartentischError
from kartentisch.storage import (
    StorageError,
    TableStore,
    UnreadableTable,
    check_database,
    default_data_dir,
    sqlite_url,
)
from kartentisch.storage.accounts import AccountStore
from kartentisch.web.accounts import AccountRoutes, CsrfGuard
from kartentisch.web.analysis import AnalysisPool, PoolSettings
from kartentisch.web.answers import AnswerCache
from kartentisch.web.api_accounts import account_api
from kartentisch.web.api_analysis import analysis_routes, hints
from kartentisch.web.api_catalog import catalog_routes
from kartentisch.web.api_tables import table_routes
from kartentisch.web.context import AppContext, Rates, Services
from kartentisch.web.i18n import negotiate
from kartentisch.web.mail import SmtpSettings
from kartentisch.web.pages import page_routes, static_files
from kartentisch.web.protocol import Hello, Limits
from kartentisch.web.ratelimits import RateLimiter, deployment_prefix
from kartentisch.web.responses import error_response
from kartentisch.web.seats import Connection, TableError
from kartentisch.web.table_socket import admit, socket_routes
from kartentisch.web.tables import LiveTable, ServerSettings, TableManager

__all__ = ["SECURITY_HEADERS", "create_app"]

log = logging.getLogger("kartentisch.web")

#: Headers of every HTTP answer: no MIME sniffing, no framing, no referrer to other sites.
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def create_app(
    db_url: str | None = None,
    *,
    data_dir: str | Path | None = None,
    settings: ServerSettings | None = None,
    limits: Limits | None = None,
    redis_url: str | None = None,
    lease: float | None = None,
    mail: SmtpSettings | None = None,
    public_url: str = "http://127.0.0.1:8000",
    analysis: PoolSettings | None = None,
) -> Starlette:
    """The web app on the database ``db_url`` (default: SQLite in ``data_dir``).

    ``limits`` are the rate and size limits of clients (docs/security.md).
    With ``redis_url`` the process is one of several sharing their tables
    through PostgreSQL and Redis (``lease``: seconds a table's lease lasts;
    :mod:`kartentisch.web.cluster`, docs/deploy.md). With ``mail`` the server mails
    people whose move is due at a correspondence table (their links start with
    ``public_url``). Analyses and hints run in worker processes (``analysis``: how many,
    how many may wait, how long one may take; :mod:`kartentisch.web.analysis`).
    """
    url = db_url or sqlite_url(data_dir if data_dir is not None else default_data_dir())
    # A database that is gone where tables were kept is refused, not made anew (exit 2).
    check_database(url)
    if redis_url is not None and not url.startswith(("postgresql", "postgres:")):
        raise KartentischError(
            "several processes (--redis) share their tables through PostgreSQL: "
            "give --db postgresql://…, not SQLite"
        )
    limits = limits or Limits()
    services = Services()
    ctx = AppContext(
        services=services,
        limits=limits,
        rates=Rates.of(limits),
        answers=AnswerCache(),
        workers=AnalysisPool(analysis),
        account_routes=AccountRoutes(services.accounts, services.limiter, limits, error_response),
    )
    people = account_api(
        ctx,
        wall_clock=(settings or ServerSettings()).wall_clock,
        mail=mail,
        public_url=public_url,
    )
    workers = ctx.workers

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = TableStore(url)
        tables = TableManager(store, settings)
        # Stored times follow the server's wall clock (a test injects its own).
        store.clock = lambda: datetime.fromtimestamp(tables.settings.wall_clock(), UTC)
        services.rate_limiter = RateLimiter(redis_url, prefix=deployment_prefix(url))
        if redis_url is not None:
            from kartentisch.web.cluster import DEFAULT_LEASE, Cluster

            def gate(table: LiveTable, conn: Connection, hello: Hello) -> bool:
                return admit(table, conn, hello, limits)

            services.shared = Cluster(tables, redis_url, gate=gate, lease=lease or DEFAULT_LEASE)
            await services.shared.start()
            await services.shared.migrate()
        else:
            store.migrate()
        services.account_store = AccountStore(store)
        tables.on_finish = people.record_results
        tables.on_report = people.keep_report
        tables.on_turn = people.turn_notices.turn
        tables.on_hint = hints(ctx)
        app.state.mailer = people.turn_notices.mailer
        moved = getattr(tables.settings.wall_clock, "moved_signal", None)
        if moved is not None:
            # An injected clock that is set from outside: its signal makes the tables
            # look at their deadlines again.
            with contextlib.suppress(ValueError, RuntimeError, NotImplementedError):
                asyncio.get_running_loop().add_signal_handler(moved, tables.clock_moved)
        restored = await tables.restore()
        if restored:
            log.info("restored %d unfinished table(s)", restored)
        services.tables = tables
        app.state.manager = tables
        try:
            yield
        finally:
            if services.shared is not None:
                shared, services.shared = services.shared, None
                await shared.close()
            await tables.close()
            await asyncio.to_thread(workers.close)
            limiter, services.rate_limiter = services.limiter(), None
            await limiter.close()
            store.close()

    routes = [
        *page_routes(),
        *table_routes(ctx),
        *analysis_routes(ctx),
        *catalog_routes(ctx),
        *people.routes,
        *socket_routes(ctx),
        static_files(),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=_REFUSALS)
    app.add_middleware(CsrfGuard)
    app.add_middleware(_SecurityHeaders)
    return app


class _SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _refused(conn: Request | WebSocket, error: TableError) -> Response | None:
    """A refusal raised by a route, in the usual shape; on a WebSocket, an error message
    and the close (4000 + the HTTP status: the page does not come back for a 4409)."""
    if isinstance(conn, Request):
        return error_response(conn, error)
    lang = negotiate(conn.headers.get("accept-language"))
    with contextlib.suppress(Exception):
        await conn.send_json({"type": "error", "code": error.code, "message": error.message(lang)})
        await conn.close(code=1013 if error.status == 503 else 4000 + error.status)
    return None


async def _on_refusal(conn: Request | WebSocket, exc: Exception) -> Response | None:
    assert isinstance(exc, TableError)
    return await _refused(conn, exc)


async def _on_unreadable(conn: Request | WebSocket, exc: Exception) -> Response | None:
    log.error("%s (set aside)", exc)
    return await _refused(conn, TableError("table_unreadable", 409))


async def _on_storage_error(conn: Request | WebSocket, exc: Exception) -> Response | None:
    lines = str(exc).strip().splitlines()
    log.error("storage failed: %s: %s", type(exc).__name__, lines[0] if lines else "")
    return await _refused(conn, TableError("storage_error", 503, key="storage_unavailable"))


#: Refusals raised out of a route (HTTP or WebSocket): their stable code, never a bare 500.
_REFUSALS: dict[Any, Any] = {
    TableError: _on_refusal,
    UnreadableTable: _on_unreadable,
    StorageError: _on_storage_error,
}
