"""The ASGI application: lobby API, table WebSockets, rules, catalogs, the page.

``create_app()`` builds a Starlette app whose lifespan opens the store,
upgrades its schema (Alembic ``upgrade head``) and restores every unfinished
table. Routes (docs/web.md and docs/web-protocol.md):

* ``GET /``, ``/t/{id}``, ``/rules/{game}`` — the page; ``/static/…`` its files
* ``GET /api/games`` — the games, presets, options and bot levels
* ``GET /api/tables``, ``POST /api/tables`` — open tables; create one
* ``GET /api/tables/{id}``, ``POST /api/tables/{id}/join``, ``…/start``, ``…/record``
* ``GET /api/rules/{game}/{lang}`` — the rules as Markdown or HTML
* ``GET /api/i18n/{lang}`` — the page's JSON catalog
* ``WS /ws/tables/{id}`` — the table in real time
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator
from importlib.resources import files
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from kartentisch import __version__
from kartentisch.errors import KartentischError
from kartentisch.games import GAMES, get_game, rules_text
from kartentisch.i18n import LANGUAGES
from kartentisch.records import dumps_record
from kartentisch.storage import TableStore, default_data_dir, sqlite_url
from kartentisch.web.adapter import TABLE_GAMES, table_game_type
from kartentisch.web.i18n import catalog, negotiate, translate
from kartentisch.web.protocol import ProtocolError, parse_client_message
from kartentisch.web.tables import (
    Connection,
    ServerSettings,
    TableError,
    TableManager,
    clean_name,
    handle_protocol_error,
    parse_new_table,
)

__all__ = ["create_app"]

log = logging.getLogger("kartentisch.web")

#: The page may load only its own files and talk only to its own server.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; "
    "script-src 'self'; connect-src 'self' ws: wss:; base-uri 'none'; frame-ancestors 'none'"
)
MAX_BODY_BYTES = 64 * 1024


def _lang(request: Request) -> str:
    wanted = request.query_params.get("lang")
    if wanted in LANGUAGES:
        return wanted
    return negotiate(request.headers.get("accept-language"))


def _error(request: Request, error: TableError) -> JSONResponse:
    lang = _lang(request)
    return JSONResponse(
        {"error": {"code": error.code, "message": error.message(lang)}}, status_code=error.status
    )


async def _body(request: Request) -> Any:
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise TableError("too_large", 413)
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw:
        return {}
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise TableError("bad_json") from None


def create_app(
    db_url: str | None = None,
    *,
    data_dir: str | Path | None = None,
    settings: ServerSettings | None = None,
) -> Starlette:
    """The web app on the database ``db_url`` (default: SQLite in ``data_dir``)."""
    url = db_url or sqlite_url(data_dir if data_dir is not None else default_data_dir())
    static_dir = files("kartentisch.web") / "static"
    index_html = (static_dir / "index.html").read_text(encoding="utf-8")
    state: dict[str, TableManager] = {}

    def manager() -> TableManager:
        return state["manager"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = TableStore(url)
        store.migrate()
        tables = TableManager(store, settings)
        restored = await tables.restore()
        if restored:
            log.info("restored %d unfinished table(s)", restored)
        state["manager"] = tables
        app.state.manager = tables
        try:
            yield
        finally:
            await tables.close()
            store.close()

    async def page(request: Request) -> Response:
        return HTMLResponse(
            index_html,
            headers={
                "content-security-policy": CONTENT_SECURITY_POLICY,
                "cache-control": "no-cache",
            },
        )

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "version": __version__})

    async def games(request: Request) -> Response:
        rules = [{"name": n, "titles": dict(get_game(n).titles)} for n in GAMES]
        return JSONResponse(
            {"games": [table_game_type(n).describe() for n in TABLE_GAMES], "rules": rules}
        )

    async def list_tables(request: Request) -> Response:
        live = sorted(manager().live(), key=lambda t: -t.created)
        return JSONResponse({"tables": [t.summary() for t in live[:100]]})

    async def create_table(request: Request) -> Response:
        try:
            wanted = parse_new_table(await _body(request))
            table, seat, token = await manager().create(wanted)
        except TableError as exc:
            return _error(request, exc)
        return JSONResponse(
            {
                "id": table.id,
                "url": f"/t/{table.id}",
                "seat": seat,
                "token": token,
                "table": table.summary(seat),
            },
            status_code=201,
        )

    def _table(request: Request) -> Any:
        table = manager().get(request.path_params["table_id"])
        if table is None:
            raise TableError("no_such_table", 404)
        return table

    async def show_table(request: Request) -> Response:
        try:
            table = _table(request)
        except TableError as exc:
            return _error(request, exc)
        return JSONResponse({"table": table.summary()})

    async def join_table(request: Request) -> Response:
        try:
            table = _table(request)
            body = await _body(request)
            if not isinstance(body, dict):
                raise TableError("bad_request", detail="the body must be a JSON object")
            name = clean_name(body.get("name"))
            seat = body.get("seat")
            if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
                raise TableError("no_such_seat", seat=str(seat)[:10])
            seat, token = await table.join(name, seat)
        except TableError as exc:
            return _error(request, exc)
        return JSONResponse({"id": table.id, "seat": seat, "token": token})

    async def start_table(request: Request) -> Response:
        try:
            table = _table(request)
            body = await _body(request)
            token = body.get("token") if isinstance(body, dict) else None
            await table.start(token if isinstance(token, str) else None)
        except TableError as exc:
            return _error(request, exc)
        return JSONResponse({"table": table.summary()})

    async def table_record(request: Request) -> Response:
        try:
            table = _table(request)
            if table.game is None:
                raise TableError("not_started", 409)
        except TableError as exc:
            return _error(request, exc)
        record = table.game.record(complete=table.status == "finished")
        return Response(
            dumps_record(record),
            media_type="application/json",
            headers={
                "content-disposition": f'attachment; filename="{table.kind.name}-{table.id}.json"'
            },
        )

    async def rules(request: Request) -> Response:
        game = request.path_params["game"]
        lang = request.path_params["lang"]
        try:
            text = rules_text(game, lang)
        except KartentischError:
            error = TableError("no_rules", 404, game=game[:40], lang=lang[:10])
            return _error(request, error)
        if request.query_params.get("format") == "html":
            return HTMLResponse(_markdown_html(text))
        return Response(text, media_type="text/markdown; charset=utf-8")

    async def i18n(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in LANGUAGES:
            error = TableError("unknown_language", 404, lang=lang[:10])
            return _error(request, error)
        return JSONResponse(
            {"lang": lang, "messages": catalog(lang)},
            headers={"cache-control": "no-cache"},
        )

    async def table_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        lang = negotiate(websocket.headers.get("accept-language"))
        conn = Connection(lang)
        table = manager().get(websocket.path_params["table_id"])
        if table is None:
            await websocket.send_json(
                {
                    "type": "error",
                    "code": "no_such_table",
                    "message": translate(lang, "error.no_such_table"),
                }
            )
            await websocket.close(code=4404)
            return
        writer = _start_writer(websocket, conn)
        try:
            while not conn.dropped:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                data = message.get("text")
                if data is None:
                    data = message.get("bytes") or b""
                try:
                    parsed = parse_client_message(data)
                except ProtocolError as exc:
                    handle_protocol_error(conn, exc)
                    continue
                await table.handle(conn, parsed)
        except WebSocketDisconnect:
            pass
        finally:
            table.detach(conn)
            conn.close()
            with contextlib.suppress(Exception):
                await writer

    routes = [
        Route("/", page),
        Route("/t/{table_id}", page),
        Route("/rules/{game}", page),
        Route("/healthz", health),
        Route("/api/games", games),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", show_table),
        Route("/api/tables/{table_id}/join", join_table, methods=["POST"]),
        Route("/api/tables/{table_id}/start", start_table, methods=["POST"]),
        Route("/api/tables/{table_id}/record", table_record),
        Route("/api/rules/{game}/{lang}", rules),
        Route("/api/i18n/{lang}", i18n),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
        Mount("/static", StaticFiles(packages=[("kartentisch.web", "static")]), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def _start_writer(websocket: WebSocket, conn: Connection) -> Any:
    import asyncio

    async def write() -> None:
        while True:
            message = await conn.queue.get()
            if message is None:
                break
            try:
                await websocket.send_text(json.dumps(message, ensure_ascii=False))
            except Exception:
                conn.dropped = True
                break
        with contextlib.suppress(Exception):
            await websocket.close()

    return asyncio.get_running_loop().create_task(write())


def _markdown_html(text: str) -> str:
    from markdown_it import MarkdownIt

    # Raw HTML in the Markdown is escaped, not passed through.
    html: str = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    return html
