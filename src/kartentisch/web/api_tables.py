"""The lobby's table API: list the open tables, open one, show, join and start one.

``GET /api/tables``, ``POST /api/tables``, ``GET /api/tables/{id}``,
``POST /api/tables/{id}/join`` and ``…/start`` (docs/web.md). In a cluster a table
run by another process is shown, joined and started through it
(:mod:`kartentisch.web.cluster`). Opening and joining count against the lobby's rate;
reading a finished table counts as a replay.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from kartentisch.web.addresses import scope_key
from kartentisch.web.context import AppContext
from kartentisch.web.lobby import parse_new_table
from kartentisch.web.responses import error_response, read_body
from kartentisch.web.seats import MAX_NAME_CHARS, RateLimited, TableError, clean_name

__all__ = ["table_routes"]

log = logging.getLogger("kartentisch.web")


def table_routes(ctx: AppContext) -> list[BaseRoute]:
    """The routes of the lobby's tables."""
    manager = ctx.manager
    cluster = ctx.cluster
    limiter = ctx.limiter
    accounts = ctx.accounts
    take = ctx.take
    read_finished = ctx.read_finished
    account_routes = ctx.account_routes
    lobby_rate = ctx.rates.lobby
    replay_rate = ctx.rates.replay

    def waiting_tables(request: Request) -> dict[str, Any]:
        """The asker's tables waiting for players, the most they may have, how long one waits."""
        server = manager().settings
        try:
            yours: int | None = manager().waiting_count(scope_key(request.scope))
        except Exception:  # (the store is away: the list says so no further)
            log.exception("cannot count the waiting tables of an address")
            yours = None
        return {
            "yours": yours,
            "max": server.max_waiting_per_address,
            "expire_seconds": server.waiting_expiry,
        }

    async def list_tables(request: Request) -> Response:
        if (shared_tables := cluster()) is not None:
            tables = shared_tables.lobby()
        else:
            # A private table is reached by its invite link only; an overdue one is expiring.
            live = sorted(
                (t for t in manager().live() if not t.private and not t.overdue),
                key=lambda t: -t.created,
            )
            tables = [t.summary() for t in live[:100]]
        return JSONResponse({"tables": tables, "waiting": waiting_tables(request)})

    async def create_table(request: Request) -> Response:
        try:
            await take(request, lobby_rate, "too_many_requests")
            body = await read_body(request)
            account = await account_routes.account_of(request)
            if account is not None and isinstance(body, dict):
                body = {**body, "name": account.name}  # a person logged in plays as themself
            if isinstance(body, dict) and body.get("name") is not None:
                _name(body["name"])
            wanted = parse_new_table(body)
            if wanted.rated and account is None:
                raise TableError("rated_needs_account", 403)
            if wanted.move_seconds is not None and account is None:
                raise TableError("correspondence_needs_account", 403)
            table, seat, token = await manager().create(
                wanted, scope_key(request.scope), None if account is None else account.id
            )
            if account is not None and seat is not None:
                await asyncio.to_thread(accounts().seat, table.id, seat, account.id)
        except TableError as exc:
            return error_response(request, exc)
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

    async def show_table(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        try:
            key = scope_key(request.scope)
            if (shared_tables := cluster()) is not None:
                # Counted as a replay once it turns out finished (as read_finished does).
                wait = await limiter().blocked(replay_rate, key)
                if wait is None:
                    shown = await shared_tables.call(table_id, "show", {})
                    if shown.get("table", {}).get("status") != "finished":
                        return JSONResponse(shown)
                    wait = await limiter().hit(replay_rate, key)
                    if wait is None:
                        return JSONResponse(shown)
                raise RateLimited("too_many_replays", replay_rate, wait)
            table = await read_finished(key, table_id)
            if table is None:
                raise TableError("no_such_table", 404)
        except TableError as exc:
            return error_response(request, exc)
        return JSONResponse({"table": table.summary()})

    async def join_table(request: Request) -> Response:
        try:
            shared_tables = cluster()
            table: Any = ctx.table(request) if shared_tables is None else None
            await take(request, lobby_rate, "too_many_requests")
            body = await read_body(request)
            if not isinstance(body, dict):
                raise TableError("bad_request", detail="the body must be a JSON object")
            account = await account_routes.account_of(request)
            name = _name(body.get("name") if account is None else account.name)
            account_id = None if account is None else account.id
            seat = body.get("seat")
            if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
                raise TableError("no_such_seat", seat=str(seat)[:10])
            table_id = request.path_params["table_id"]
            needs = None if table is None else table.needs_account
            if account_id is None and needs is not None:
                raise TableError(needs, 403)
            if shared_tables is not None:
                args = {"name": name, "seat": seat, "account": account_id}
                joined = await shared_tables.call(table_id, "join", args)
                if account_id is not None and isinstance(joined.get("seat"), int):
                    await asyncio.to_thread(accounts().seat, table_id, joined["seat"], account_id)
                return JSONResponse(joined)
            seat, token = await table.join(name, seat, account_id)
            if account_id is not None:
                await asyncio.to_thread(accounts().seat, table_id, seat, account_id)
        except TableError as exc:
            return error_response(request, exc)
        return JSONResponse({"id": table.id, "seat": seat, "token": token})

    async def start_table(request: Request) -> Response:
        try:
            shared_tables = cluster()
            table: Any = ctx.table(request) if shared_tables is None else None
            body = await read_body(request)
            token = body.get("token") if isinstance(body, dict) else None
            if shared_tables is not None:
                args = {"token": token if isinstance(token, str) else None}
                table_id = request.path_params["table_id"]
                return JSONResponse(await shared_tables.call(table_id, "start", args))
            await table.start(token if isinstance(token, str) else None)
        except TableError as exc:
            return error_response(request, exc)
        return JSONResponse({"table": table.summary()})

    return [
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", show_table),
        Route("/api/tables/{table_id}/join", join_table, methods=["POST"]),
        Route("/api/tables/{table_id}/start", start_table, methods=["POST"]),
    ]


def _name(value: Any) -> str:
    """A display name from the lobby; a longer one than the page allows is refused, not cut."""
    if isinstance(value, str) and len(" ".join(value.split())) > MAX_NAME_CHARS:
        raise TableError("bad_name")
    return clean_name(value)
