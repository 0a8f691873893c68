"""The table's WebSocket (``WS /ws/tables/{id}``): one connection from accept to close.

A connection says hello within ``Limits.hello_seconds``; its messages are counted
(:class:`~kartentisch.web.protocol.MessageBudget`) and its hellos limited per seat and
per address across connections; a spectator's place may be full (:func:`admit`). A
writer task sends what the table queues for it; a peer that floods the server, does
not say hello or does not read is closed with the codes below (docs/security.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from kartentisch.web.addresses import scope_key
from kartentisch.web.context import AppContext
from kartentisch.web.guard import transport_end
from kartentisch.web.i18n import negotiate, translate
from kartentisch.web.protocol import (
    Hello,
    Limits,
    MessageBudget,
    ProtocolError,
    Resync,
    Verdict,
    error_message,
    parse_client_message,
)
from kartentisch.web.seats import Connection, RateLimited, handle_protocol_error, hash_token
from kartentisch.web.tables import LiveTable
from kartentisch.web.wire import message_text

if TYPE_CHECKING:
    from kartentisch.web.cluster_link import TableLink

__all__ = [
    "FLOOD_CLOSE_CODE",
    "FLOOD_CLOSE_REASON",
    "HELLO_CLOSE_CODE",
    "HELLO_CLOSE_REASON",
    "LIMITED_CLOSE_CODE",
    "SLOW_CLOSE_CODE",
    "SLOW_CLOSE_REASON",
    "admit",
    "socket_routes",
]

log = logging.getLogger("kartentisch.web")

#: WebSocket close code and reason for a connection that floods the server.
FLOOD_CLOSE_CODE = 1008
FLOOD_CLOSE_REASON = "message flood"
#: WebSocket close code after a refusal by a rate limit across connections (a hello of a
#: connection not yet at the table, a finished table read too often): the page reconnects
#: after its back-off.
LIMITED_CLOSE_CODE = 4429
#: ... that has not said hello in time (``Limits.hello_seconds``).
HELLO_CLOSE_CODE = 1008
HELLO_CLOSE_REASON = "hello timeout"
#: ... that does not read what it is sent (``seats.MAX_QUEUED_MESSAGES``).
SLOW_CLOSE_CODE = 1008
SLOW_CLOSE_REASON = "too slow"


def admit(table: LiveTable, conn: Connection, hello: Hello, limits: Limits) -> bool:
    """Whether ``hello`` may join ``table`` (a spectator's place may be full); else says so."""
    if not _spectators_full(table, conn, hello, limits):
        return True
    text = translate(conn.lang, "error.too_many_spectators", max=limits.max_spectators)
    conn.error("too_many_spectators", text)
    return False


def socket_routes(ctx: AppContext) -> list[BaseRoute]:
    """The route of the table's WebSocket."""
    limits = ctx.limits
    limiter = ctx.limiter
    cluster = ctx.cluster
    read_finished = ctx.read_finished
    replay_rate = ctx.rates.replay
    seat_hellos = ctx.rates.seat_hellos
    address_hellos = ctx.rates.address_hellos

    async def table_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        lang = negotiate(websocket.headers.get("accept-language"))
        conn = Connection(lang)
        table_id = websocket.path_params["table_id"]
        key = scope_key(websocket.scope)
        shared_tables = cluster()
        table: LiveTable | TableLink | None
        try:
            if shared_tables is None:
                table = await read_finished(key, table_id)
            else:  # the table here, or a link to the process that runs it
                table = await shared_tables.link(table_id, conn)
                await count_finished_link(key, table, conn)
        except RateLimited as exc:
            text = exc.message(lang)
            await websocket.send_json(error_message(exc.code, text, retry_after=exc.retry_after))
            await websocket.close(code=LIMITED_CLOSE_CODE)
            return
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
        closing: dict[str, Any] = {"code": 1000, "reason": None}
        writer = _start_writer(websocket, conn, closing)
        reading = {"idle": False}
        reader = asyncio.get_running_loop().create_task(read(websocket, conn, table, reading, key))

        def end() -> None:
            """Stop reading now (``conn`` is closed): at once while the reader waits for
            a message; else once the message in hand is handled (never halfway)."""
            if reading["idle"]:
                reader.cancel()

        conn.on_overflow = end  # a reader too slow: ended at once (below)

        def hello_deadline() -> None:
            if conn.joined or (not isinstance(table, LiveTable) and table.hello is not None):
                return
            conn.error("hello_timeout", translate(conn.lang, "error.hello_timeout"))
            closing.update(code=HELLO_CLOSE_CODE, reason=HELLO_CLOSE_REASON)
            conn.close()
            end()

        deadline = asyncio.get_running_loop().call_later(limits.hello_seconds, hello_deadline)
        try:
            await asyncio.wait({reader})
            # (cancelled: by the hello deadline or an overflow; a failure is raised here)
            ending = None if reader.cancelled() else reader.result()
            if ending is not None:
                closing.update(code=ending[0], reason=ending[1])
        finally:
            deadline.cancel()
            reader.cancel()
            table.detach(conn)
            conn.close()
            if conn.too_slow:
                log.warning("table %s: a connection did not read its messages", table.id)
                writer.cancel()  # (stuck in a send the peer does not read)
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await writer
                writer = asyncio.get_running_loop().create_task(
                    websocket.close(code=SLOW_CLOSE_CODE, reason=SLOW_CLOSE_REASON)
                )
            await _finish(websocket, writer, limits.close_seconds)

    async def read(
        websocket: WebSocket,
        conn: Connection,
        table: LiveTable | TableLink,
        reading: dict[str, bool],
        key: str,
    ) -> tuple[int, str] | None:
        """Read and handle the client's messages until it goes or ``conn`` is closed.

        The close code and reason if the server ends it (a flood, a hello refused
        before the connection joined); else None. ``reading["idle"]`` is true while it waits
        for the next message (the only time it may be cancelled).
        """
        budget = MessageBudget(limits)
        try:
            while not conn.dropped:
                reading["idle"] = True
                try:
                    message = await websocket.receive()
                finally:
                    reading["idle"] = False
                if message["type"] == "websocket.disconnect":
                    break
                verdict = budget.message()
                parsed = None
                if verdict is Verdict.OK:
                    data = message.get("text")
                    if data is None:
                        data = message.get("bytes") or b""
                    try:
                        parsed = parse_client_message(data)
                    except ProtocolError as exc:
                        handle_protocol_error(conn, exc)
                        continue
                    if isinstance(parsed, Hello):
                        verdict = budget.hello()
                        if verdict is Verdict.OK:
                            limited = await hello_limited(key, table.id, parsed)
                            if limited is not None:
                                # Across connections: reconnecting buys no more hellos.
                                verdict = budget.refuse()
                                if verdict is Verdict.REFUSE:
                                    text, wait = limited
                                    conn.error("rate_limited", text, retry_after=wait)
                                    if conn.joined:
                                        continue
                                    # (not at the table: the page reconnects after a while)
                                    return LIMITED_CLOSE_CODE, "rate limited"
                if verdict is Verdict.CLOSE:
                    conn.error("message_flood", translate(conn.lang, "error.message_flood"))
                    log.warning("table %s: a connection flooded the server", table.id)
                    return FLOOD_CLOSE_CODE, FLOOD_CLOSE_REASON
                if verdict is Verdict.REFUSE or parsed is None:
                    if budget.tell():
                        _tell_rate_limited(conn, limits, hello=isinstance(parsed, Hello))
                    continue
                if (
                    isinstance(parsed, Hello)
                    and isinstance(table, LiveTable)  # (through a link, the owner admits it)
                    and not admit(table, conn, parsed, limits)
                ):
                    continue
                if isinstance(parsed, Resync):
                    conn.resync()  # (this socket's own: the state it was sent last, whole)
                    continue
                if isinstance(parsed, Hello):
                    conn.take_patches(parsed.patches)  # the answer goes whole
                try:
                    await table.handle(conn, parsed)
                except Exception:
                    # A bug, not the client's fault: say so, keep the connection and the table.
                    log.exception("table %s: a message could not be handled", table.id)
                    conn.error("server_error", translate(conn.lang, "error.server_error"))
        except WebSocketDisconnect:
            pass
        return None

    async def hello_limited(key: str, table_id: str, hello: Hello) -> tuple[str, int] | None:
        """Whether ``hello`` is one too many for its seat or its address, across every
        connection: None if not, else the refusal's text and the seconds to wait."""
        lang = hello.lang or "en"
        wait = await limiter().hit(address_hellos, key)
        if wait is not None:
            rate = _number(address_hellos.per_second)
            burst = address_hellos.burst
            text = translate(lang, "error.rate_limited_hello_address", rate=rate, burst=burst)
            return text, max(1, round(wait))
        if hello.token is not None:
            seat = f"{table_id}:{hash_token(hello.token)[:32]}"
            wait = await limiter().hit(seat_hellos, seat)
            if wait is not None:
                every = _number(1 / limits.hellos_per_second)
                text = translate(
                    lang, "error.rate_limited_hello", burst=limits.hello_burst, every=every
                )
                return text, max(1, round(wait))
        return None

    async def count_finished_link(key: str, link: TableLink | None, conn: Connection) -> None:
        """In a cluster: a socket to a finished table counts as a replay (see ``read_finished``)."""
        table = link.table if link is not None else None
        if link is None or table is None or table.status != "finished":
            return
        wait = await limiter().hit(replay_rate, key)
        if wait is not None:
            link.detach(conn)
            raise RateLimited("too_many_replays", replay_rate, wait)

    return [WebSocketRoute("/ws/tables/{table_id}", table_socket)]


def _number(value: float) -> str:
    return f"{value:g}"


def _tell_rate_limited(conn: Connection, limits: Limits, *, hello: bool) -> None:
    if hello:
        every = _number(1 / limits.hellos_per_second)
        text = translate(
            conn.lang, "error.rate_limited_hello", burst=limits.hello_burst, every=every
        )
    else:
        rate = _number(limits.messages_per_second)
        text = translate(conn.lang, "error.rate_limited", rate=rate, burst=limits.message_burst)
    conn.error("rate_limited", text)


def _spectators_full(table: LiveTable, conn: Connection, hello: Hello, limits: Limits) -> bool:
    """Whether ``hello`` asks for a spectator's place at a table that has no more.

    A hello with a token is let through (a seat always gets in; a wrong token is
    refused by the table), and so is a connection that already watches.
    """
    if hello.token is not None or (conn.joined and conn.seat is None):
        return False
    watching = sum(1 for c in table.connections if c.seat is None and c is not conn)
    return watching >= limits.max_spectators


async def _finish(websocket: WebSocket, closer: asyncio.Task[Any], seconds: float) -> None:
    """Give ``closer`` (the last messages and the close frame) ``seconds`` to close the socket.

    A peer that does not read cannot be sent a close frame, and a transport
    closed the ordinary way would wait for ever to flush to it: where the
    server's WebSocket protocol allows it (``web/guard.py``), a socket still
    open after ``seconds`` is aborted.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    await asyncio.wait({closer}, timeout=seconds)
    end = transport_end(websocket.scope)
    if end is not None and not end.closed.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(end.closed.wait(), max(0.0, deadline - loop.time()))
        if not end.closed.is_set():
            end.abort()
    closer.cancel()
    with contextlib.suppress(Exception, asyncio.CancelledError):
        await closer


def _start_writer(
    websocket: WebSocket, conn: Connection, closing: dict[str, Any]
) -> asyncio.Task[None]:
    async def write() -> None:
        while True:
            message = await conn.queue.get()
            if message is None:
                break
            try:
                await websocket.send_text(message_text(message))
            except Exception:
                conn.dropped = True
                break
        with contextlib.suppress(Exception):
            await websocket.close(code=closing["code"], reason=closing["reason"])

    return asyncio.get_running_loop().create_task(write())
