"""What a table's connections say to it, and their coming and going.

Each parsed client message (:mod:`kartentisch.web.protocol`) is carried out
here for its table: a ``hello`` seats a connection (or makes it a spectator)
and sends it its state, the log it lacks and the chat it may read; an action
is applied under the table's lock and stored before anyone hears of it; a
``ready`` between deals, a chat message, a report or a hint go to the parts
that keep them. A connection that closes leaves its seat reserved: a stand-in
may play for it after the grace time (:mod:`kartentisch.web.presence`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kartentisch.errors import IllegalActionError
from kartentisch.storage import StorageError
from kartentisch.web.i18n import refusal, translate
from kartentisch.web.moments import now as _now
from kartentisch.web.protocol import (
    Act,
    Chat,
    ClientMessage,
    Hello,
    Hint,
    Ping,
    Pong,
    Ready,
    Report,
    Start,
)
from kartentisch.web.saving import StorageFailure
from kartentisch.web.seats import Connection

if TYPE_CHECKING:
    from kartentisch.web.livetable import LiveTable

__all__ = ["detach", "handle"]


async def handle(table: LiveTable, conn: Connection, message: ClientMessage) -> None:
    """Carry out one parsed client message."""
    if isinstance(message, Ping):
        conn.send({"type": "pong", "t": message.t})
        return
    if isinstance(message, Pong):
        if conn.joined and table.runner is not None:
            table.runner.pong(conn, message.nonce)
        return
    if isinstance(message, Hello):
        await _hello(table, conn, message)
        return
    if not conn.joined:
        conn.error("hello_first", translate(conn.lang, "error.hello_first"))
        return
    if isinstance(message, Start):
        if conn.seat is None:
            conn.error("not_seated", translate(conn.lang, "error.not_seated"))
            return
        async with table.lock:
            if table.status == "expired" or table.overdue:
                conn.error("table_expired", translate(conn.lang, "error.table_expired"))
                return
            if table.status != "waiting":
                conn.error("table_started", translate(conn.lang, "error.table_started"))
                return
            try:
                await table.start_locked()
            except StorageError:
                conn.error("storage_error", translate(conn.lang, "error.storage_error"))
        return
    if isinstance(message, Act):
        await _act(table, conn, message)
    elif isinstance(message, Ready):
        await _ready_for_next(table, conn, message)
    elif isinstance(message, Chat):
        table.chat.say(table, conn, message)
    elif isinstance(message, Report):
        await _report(table, conn, message)
    elif isinstance(message, Hint):
        table.hinting.ask(table, conn, message)


async def _report(table: LiveTable, conn: Connection, message: Report) -> None:
    """Keep a chat message ``conn`` could read for the admin (``kartentisch admin reports``)."""
    said = next((m for m in table.chat.history(conn) if m["id"] == message.id), None)
    if said is None:
        conn.error("no_such_chat", translate(conn.lang, "error.no_such_chat"))
        return
    await table.manager.chat_reported(table, said, conn.seat)
    conn.send({"type": "reported", "id": message.id})


async def _hello(table: LiveTable, conn: Connection, hello: Hello) -> None:
    if hello.lang is not None:
        conn.lang = hello.lang
    if table.status == "expired":
        conn.error("table_expired", translate(conn.lang, "error.table_expired"))
        conn.close()
        return
    seat: int | None = None
    if hello.token is not None:
        seat = table.seat_of_token(hello.token)
        if seat is None:
            # Refused, and nothing else changes: the connection may say hello again.
            conn.error("bad_token", translate(conn.lang, "error.bad_token"))
            return
    was_connected = conn.seat is not None and conn.joined
    old_seat = conn.seat
    seats_before = table.seats_connected()
    conn.seat = seat
    conn.joined = True
    table.connections.add(conn)
    table.gamelog.wanted[conn] = (hello.log_epoch, hello.log_from or 0)
    if seat is not None:
        table.attendance.away_since.pop(seat, None)
        if table.seats[seat].kind == "human":
            table.attendance.people_seen = True
            table.expiry.came(table)
    if was_connected and old_seat is not None and old_seat != seat:
        _left(table, old_seat)
    changed = table.attendance.tick(table)
    table.changed.set()
    if changed or table.seats_connected() != seats_before:
        table.sender.broadcast(table)  # a seat came (or went): everyone is told
    else:
        # A spectator, or a seat's further connection: nothing the others see changed
        # but the spectator count, which follows (:meth:`StateSender.spectators_changed`).
        table.sender.send_state(table, conn)
        table.sender.spectators_changed(table)
    if table.runner is not None:
        table.runner.joined(conn)
    table.chat.send_history(conn)


def detach(table: LiveTable, conn: Connection) -> None:
    """A connection closed: the seat stays reserved; a bot may take over after the grace."""
    if conn not in table.connections:
        return
    seats_before = table.seats_connected()
    table.connections.discard(conn)
    table.gamelog.wanted.pop(conn, None)
    conn.close()
    if conn.seat is not None:
        _left(table, conn.seat)
    changed = table.attendance.tick(table)
    table.changed.set()
    if changed or table.seats_connected() != seats_before:
        table.sender.broadcast(table)
    else:
        table.sender.spectators_changed(table)  # a spectator (or a seat's second connection) left
    table.forget_if_finished()
    table.manager._gc.closed()


def _left(table: LiveTable, seat: int) -> None:
    if not table.connected(seat):
        table.attendance.away_since[seat] = _now()


async def _act(table: LiveTable, conn: Connection, act: Act) -> None:
    lang = conn.lang
    if conn.seat is None:
        conn.error("not_seated", translate(lang, "error.not_seated"))
        return
    if table.storage_waiting:
        # (At once: the change that waits holds the lock until it is stored.)
        conn.error("storage_wait", translate(lang, "error.storage_wait"))
        return
    async with table.lock:
        game = table.game
        if game is None:
            conn.error("not_started", translate(lang, "error.not_started"))
            return
        if game.is_over:
            conn.error("table_over", translate(lang, "error.table_over"))
            return
        if table.runner is None and act.version != game.version:
            table.refuse_stale(conn, game.version)
            return
        if table.paused:
            conn.error("table_paused", translate(lang, "error.table_paused"))
            return
        if table.attendance.between_deals(table) is not None:
            conn.error(
                "between_deals", translate(lang, "error.between_deals"), version=game.version
            )
            return
        if table.runner is not None:
            # Real time: the version names the card the action was made on.
            table.runner.act(conn, act)
            return
        try:
            await table.apply(conn.seat, act.action)
        except IllegalActionError as exc:
            conn.error(exc.rule, refusal(exc, lang), version=game.version)
        except StorageFailure:
            conn.error("storage_error", translate(lang, "error.storage_error"))


async def _ready_for_next(table: LiveTable, conn: Connection, ready: Ready) -> None:
    """Between deals: the seat is ready for the next one."""
    lang = conn.lang
    if conn.seat is None:
        conn.error("not_seated", translate(lang, "error.not_seated"))
        return
    async with table.lock:
        game = table.game
        if game is None:
            conn.error("not_started", translate(lang, "error.not_started"))
            return
        if table.attendance.between_deals(table) is None:
            conn.error(
                "not_between_deals",
                translate(lang, "error.not_between_deals"),
                version=game.version,
            )
            return
        if ready.version != game.version:
            table.refuse_stale(conn, game.version)
            return
        table.attendance.ready.add(conn.seat)
        table.attendance.tick(table)
        table.sender.broadcast(table)
