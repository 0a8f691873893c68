"""Looking back at tables: records, replays, analyses and hints.

``GET /api/tables/{id}/record`` (a table's record), ``…/replay`` (its games replayed
for the viewer) and ``…/analysis`` (one deal analysed for one seat) are made once
per table version and kept (:class:`~kartentisch.web.answers.AnswerCache`);
``POST /api/replay`` and ``POST /api/analysis`` take a record the page sends. Each
counts as a replay against the client's rate. Analyses and a table's hints run in
the worker processes (:mod:`kartentisch.web.analysis`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from kartentisch.records import dumps_record
from kartentisch.web.analysis import deal_analysis, hint
from kartentisch.web.context import AppContext
from kartentisch.web.i18n import request_language
from kartentisch.web.replay import MAX_RECORD_BYTES, BadRecord, replay_record
from kartentisch.web.responses import error_response, json_bytes, read_body
from kartentisch.web.seats import TableError
from kartentisch.web.tables import LiveTable

__all__ = ["analysis_routes", "hints"]


def hints(ctx: AppContext) -> Callable[[LiveTable, int, str], Awaitable[dict[str, Any]]]:
    """What the tables ask for a hint (:attr:`TableManager.on_hint`)."""
    workers = ctx.workers

    async def hint_for(table: LiveTable, seat: int, lang: str) -> dict[str, Any]:
        """The strong bot's suggestion to ``seat`` of ``table``, worked out in a worker."""
        assert table.game is not None
        names = [s.name for s in table.seats]
        actions = [list(a) for a in table.game.actions]
        args = (table.kind.name, table.options, names, table.seed, actions, seat, lang)
        return await workers.run(hint, *args)

    return hint_for


def analysis_routes(ctx: AppContext) -> list[BaseRoute]:
    """The routes of records, replays and analyses."""
    take = ctx.take
    answers = ctx.answers
    workers = ctx.workers
    replay_rate = ctx.rates.replay

    def _analysis_query(request: Request) -> tuple[int, int]:
        """The ``deal`` and ``seat`` of an analysis request (whole numbers, 1+ and 0+)."""
        values: list[int] = []
        for name, low in (("deal", 1), ("seat", 0)):
            raw = request.query_params.get(name, "")
            if not raw.isdigit() or int(raw) < low or len(raw) > 4:
                raise TableError("bad_request", detail=f"{name}: a whole number from {low}")
            values.append(int(raw))
        return values[0], values[1]

    async def table_analysis(request: Request) -> Response:
        """Deal ``deal`` of a table (a finished one) analysed for ``seat``; kept per version."""
        lang = request_language(request)
        try:
            await take(request, replay_rate, "too_many_replays")
            deal, seat = _analysis_query(request)
            table = ctx.table(request)
            if table.game is None:
                raise TableError("not_started", 409)
            finished = table.status == "finished"
            record = table.record(complete=finished)
            key = ("analysis", table.id, table.version, finished, deal, seat, lang)

            async def make() -> bytes:
                return json_bytes(await workers.run(deal_analysis, record, deal, seat, lang))

            body = await answers.get(key, make)
        except TableError as exc:
            return error_response(request, exc)
        return Response(body, media_type="application/json")

    async def record_analysis(request: Request) -> Response:
        """A record the page sent (the replay viewer's), one deal analysed for one seat."""
        lang = request_language(request)
        try:
            await take(request, replay_rate, "too_many_replays")
            deal, seat = _analysis_query(request)
            record = await read_body(request, MAX_RECORD_BYTES)
            if not isinstance(record, dict):
                raise TableError("bad_record", detail="a record is a JSON object")
            answer = await workers.run(deal_analysis, record, deal, seat, lang)
        except TableError as exc:
            return error_response(request, exc)
        return JSONResponse(answer)

    async def table_record(request: Request) -> Response:
        """A table's record (complete once it is finished), made once per version and kept."""
        try:
            await take(request, replay_rate, "too_many_replays")
            table_id = request.path_params["table_id"]
            final = answers.finished(table_id)
            if final is not None:
                kept = answers.peek(("record", table_id, final[0], True))
                if kept is not None:
                    return _record_response(kept, f"{final[1]}-{table_id}")
            table = ctx.table(request)
            if table.game is None:
                raise TableError("not_started", 409)
        except TableError as exc:
            return error_response(request, exc)
        finished = table.status == "finished"
        record = table.record(complete=finished)
        key = ("record", table.id, table.version, finished)

        async def make() -> bytes:
            return dumps_record(record).encode("utf-8")

        body = await answers.get(key, make)
        if finished:
            answers.note_finished(table.id, table.version, table.kind.name)
        return _record_response(body, f"{table.kind.name}-{table.id}")

    def _record_response(body: bytes, name: str) -> Response:
        return Response(
            body,
            media_type="application/json",
            headers={"content-disposition": f'attachment; filename="{name}.json"'},
        )

    async def replay(request: Request) -> Response:
        """A record sent by the page (opened from a file), replayed for the viewer."""
        try:
            await take(request, replay_rate, "too_many_replays")
            record = await read_body(request, MAX_RECORD_BYTES)
            return JSONResponse(await _replayed(record, request_language(request)))
        except TableError as exc:
            return error_response(request, exc)

    async def table_replay(request: Request) -> Response:
        """A table's games so far (all of them once it is finished), replayed for the viewer.

        Each (table, version, language) is replayed once and kept (:class:`AnswerCache`).
        """
        lang = request_language(request)
        try:
            await take(request, replay_rate, "too_many_replays")
            table_id = request.path_params["table_id"]
            final = answers.finished(table_id)
            if final is not None:
                kept = answers.peek(("replay", table_id, final[0], True, lang))
                if kept is not None:
                    return Response(kept, media_type="application/json")
            table = ctx.table(request)
            if table.game is None:
                raise TableError("not_started", 409)
            finished = table.status == "finished"
            record = table.record(complete=finished)
            key = ("replay", table.id, table.version, finished, lang)

            async def make() -> bytes:
                shown = await _replayed(record, lang)
                return json_bytes({**shown, "table": table_id, "finished": finished})

            body = await answers.get(key, make)
            if finished:
                answers.note_finished(table.id, table.version, table.kind.name)
        except TableError as exc:
            return error_response(request, exc)
        return Response(body, media_type="application/json")

    return [
        Route("/api/tables/{table_id}/record", table_record),
        Route("/api/tables/{table_id}/replay", table_replay),
        Route("/api/tables/{table_id}/analysis", table_analysis),
        Route("/api/analysis", record_analysis, methods=["POST"]),
        Route("/api/replay", replay, methods=["POST"]),
    ]


async def _replayed(record: Any, lang: str) -> dict[str, Any]:
    """:func:`replay_record` off the event loop (a long session takes a while to replay)."""
    try:
        return await asyncio.to_thread(replay_record, record, lang)
    except BadRecord as exc:
        raise TableError("bad_record", detail=str(exc)) from None
