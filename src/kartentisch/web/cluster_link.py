"""Table sockets across the processes of a cluster (see :mod:`kartentisch.web.cluster`).

A :class:`TableLink` is one WebSocket's way to its table, here or at the
owner in another process; a :class:`RemoteConnection` stands, at the owner,
for a socket another process holds. Client messages cross between processes
as the JSON objects they were (:func:`encode`, :func:`decode`).
"""

from __future__ import annotations

import asyncio
import bisect
import json
import logging
import time
from typing import TYPE_CHECKING, Any, Final

from redis.exceptions import RedisError

from kartentisch.web.i18n import translate
from kartentisch.web.livetable import LiveTable
from kartentisch.web.protocol import (
    Act,
    Chat,
    ClientMessage,
    Hello,
    Ping,
    Pong,
    ProtocolError,
    Ready,
    Report,
    Start,
    parse_client_message,
)
from kartentisch.web.seats import Connection, TableError

if TYPE_CHECKING:
    from kartentisch.web.cluster import Cluster

__all__ = ["MAX_WAITING", "RemoteConnection", "TableLink", "decode", "encode"]

# Logged under the cluster's name, as the rest of its work.
log = logging.getLogger("kartentisch.web.cluster")

#: Client messages a link keeps while it looks for its table's new owner.
MAX_WAITING: Final = 64


def encode(message: ClientMessage) -> dict[str, Any]:
    """A parsed client message as the JSON object it was (for forwarding).

    >>> encode(Act("QC", 3))
    {'type': 'act', 'action': 'QC', 'version': 3}
    >>> decode(encode(Hello("t0k3n", "de")))
    Hello(token='t0k3n', lang='de', log_epoch=None, log_from=None, patches=False)
    """
    if isinstance(message, Hello):
        hello: dict[str, Any] = {"type": "hello", "token": message.token, "lang": message.lang}
        if message.log_epoch is not None:
            hello["log_epoch"] = message.log_epoch
        if message.log_from is not None:
            hello["log_from"] = message.log_from
        return hello
    if isinstance(message, Act):
        return {"type": "act", "action": message.action, "version": message.version}
    if isinstance(message, Pong):
        return {"type": "pong", "nonce": message.nonce}
    if isinstance(message, Ping):
        return {"type": "ping", "t": message.t}
    if isinstance(message, Ready):
        return {"type": "ready", "version": message.version}
    if isinstance(message, Chat):
        if message.phrase is not None:
            return {"type": "chat", "phrase": message.phrase}
        return {"type": "chat", "text": message.text}
    if isinstance(message, Report):
        return {"type": "report", "id": message.id}
    assert isinstance(message, Start)
    return {"type": "start"}


def decode(data: Any) -> ClientMessage | None:
    """A forwarded client message, checked again as the client's own; None if it is not one."""
    try:
        return parse_client_message(json.dumps(data))
    except (ProtocolError, TypeError, ValueError):
        return None


class RemoteConnection(Connection):
    """A WebSocket held by another process, as the owner of its table sees it.

    What the table sends it is published to that process, addressed to the
    socket; the messages of the socket arrive in :attr:`inbox` and are handled
    in order, as the socket's own loop would.
    """

    def __init__(
        self, cluster: Cluster, origin: str, cid: int, table: LiveTable, lang: str
    ) -> None:
        super().__init__(lang)
        self.cluster = cluster
        self.origin = origin
        self.cid = cid
        self.table = table
        self.inbox: asyncio.Queue[tuple[int, ClientMessage] | None] = asyncio.Queue()
        self.task = asyncio.get_running_loop().create_task(
            self._serve(), name=f"remote-{origin}-{cid}"
        )

    def send(self, message: dict[str, Any]) -> None:
        if not self.dropped:
            self.cluster.post(self.origin, {"op": "out", "cid": self.cid, "m": message})

    def close(self) -> None:
        if not self.dropped:
            self.dropped = True
            self.cluster.post(self.origin, {"op": "drop", "cid": self.cid})

    def retire(self) -> None:
        """The table left this process: hand back what is unhandled; the socket moves."""
        self.dropped = True
        bounced: list[list[Any]] = []
        while not self.inbox.empty():
            item = self.inbox.get_nowait()
            if item is not None:
                bounced.append([item[0], encode(item[1])])
        self.task.cancel()
        self.cluster.post(self.origin, {"op": "moved", "cid": self.cid, "bounced": bounced})

    async def _serve(self) -> None:
        cluster = self.cluster
        table = self.table
        while True:
            item = await self.inbox.get()
            if item is None:
                self.dropped = True  # the socket has closed: nothing more to send it
                table.detach(self)
                return
            seq, message = item
            if not cluster.usable(table):
                bounced = [[seq, encode(message)]]
                cluster.post(self.origin, {"op": "moved", "cid": self.cid, "bounced": bounced})
                continue
            accepted = False
            if isinstance(message, Hello):
                if not cluster.gate(table, self, message):
                    continue
                accepted = message.token is None or table.seat_of_token(message.token) is not None
            try:
                with cluster.working(table):
                    await table.handle(self, message)
            except Exception:
                log.exception("table %s: a forwarded message could not be handled", table.id)
                self.error("server_error", translate(self.lang, "error.server_error"))
            if accepted:
                cluster.post(self.origin, {"op": "joined", "cid": self.cid, "n": seq})


class TableLink:
    """One WebSocket's way to its table: the live table here, or its owner elsewhere.

    The app's socket loop calls :meth:`handle` and :meth:`detach` as it calls
    a :class:`~kartentisch.web.livetable.LiveTable`'s without a cluster.
    """

    def __init__(self, cluster: Cluster, table_id: str, conn: Connection, number: int) -> None:
        self.cluster = cluster
        self.table_id = table_id
        self.conn = conn
        #: The socket's number in this process (the owner addresses it by this and our id).
        self.number = number
        #: The table, when this process runs it.
        self.table: LiveTable | None = None
        #: The process that runs the table, when another does.
        self.owner: str | None = None
        #: The last ``hello`` the table accepted: said again to a new owner.
        self.hello: Hello | None = None
        self._hellos: dict[int, Hello] = {}
        self._seq = 0
        #: Messages waiting for the table to be found, in the order the client sent them.
        self.waiting: list[tuple[int, ClientMessage]] = []
        self.relinking: asyncio.Task[None] | None = None
        self.closed = False
        self._settled_at = 0.0

    @property
    def id(self) -> str:
        return self.table_id

    async def handle(self, conn: Connection, message: ClientMessage) -> None:
        """Carry out one client message, here or at the owner."""
        if isinstance(message, Ping):
            conn.send({"type": "pong", "t": message.t})
            return
        self._seq += 1
        seq = self._seq
        if self.relinking is not None:
            self._wait(seq, message)
            return
        table = self.table
        if table is not None:
            if not await self._here(table, message):
                self._wait(seq, message)
                self.relink()
        elif self.owner is not None:
            self._forward(seq, message)
        else:
            self._wait(seq, message)
            self.relink()

    def detach(self, conn: Connection) -> None:
        """The socket closed."""
        if self.closed:
            return
        self.closed = True
        self.cluster._unlink(self)
        if self.table is not None:
            self.table.detach(conn)
        elif self.owner is not None:
            self.cluster.post(self.owner, {"op": "close", "cid": self.number})

    async def _here(self, table: LiveTable, message: ClientMessage) -> bool:
        """Handle ``message`` at ``table``; False if this process no longer runs it."""
        cluster = self.cluster
        if not cluster.usable(table):
            return False
        if isinstance(message, Hello):
            if not cluster.gate(table, self.conn, message):
                return True
            if message.token is None or table.seat_of_token(message.token) is not None:
                self.hello = message
        with cluster.working(table):
            await table.handle(self.conn, message)
        return True

    def _forward(self, seq: int, message: ClientMessage) -> None:
        owner = self.owner
        assert owner is not None
        if isinstance(message, Hello):
            if message.lang is not None:
                self.conn.lang = message.lang
            self._hellos[seq] = message
            while len(self._hellos) > 8:  # (refused ones are never confirmed)
                del self._hellos[min(self._hellos)]
        payload = {"op": "msg", "cid": self.number, "s": seq, "m": encode(message)}
        self.cluster.post(owner, payload, lambda: self._lost(seq, message))

    def _lost(self, seq: int, message: ClientMessage) -> None:
        """A forwarded message reached nobody: the owner is gone."""
        if self.closed:
            return
        if seq > 0:  # (0: the hello said again, which the next link says anyway)
            self._wait(seq, message)
        self.relink()

    def _wait(self, seq: int, message: ClientMessage) -> None:
        if len(self.waiting) >= MAX_WAITING:
            self.conn.error("server_error", translate(self.conn.lang, "error.server_error"))
            return
        bisect.insort(self.waiting, (seq, message), key=lambda item: item[0])

    def from_owner(self, sender: str, op: str, message: dict[str, Any]) -> None:
        """A message from a table's owner for this socket."""
        if op == "moved":
            bounced = message.get("bounced") or []
            for seq, data in bounced:
                parsed = decode(data)
                if parsed is not None and isinstance(seq, int):
                    self._wait(seq, parsed)
            if sender == self.owner or self.waiting:
                self.relink()
            return
        if sender != self.owner:
            return  # a former owner's late word
        if op == "out":
            self.conn.send(message["m"])
        elif op == "drop":
            self.conn.close()
        elif op == "joined":
            number = message.get("n")
            if not isinstance(number, int):
                return
            hello = self._hellos.pop(number, None)
            if hello is not None:
                self.hello = hello
                self._hellos = {n: h for n, h in self._hellos.items() if n > number}

    # -- finding the table again -----------------------------------------------------

    def relink(self) -> None:
        """Find the table again (its owner changed); meanwhile client messages wait."""
        if self.closed or self.relinking is not None or self.cluster.closing:
            return
        self.table = None
        self.owner = None
        self.relinking = asyncio.get_running_loop().create_task(
            self._relink(), name=f"relink-{self.table_id}"
        )

    async def _relink(self) -> None:
        delay = 0.05
        try:
            if time.monotonic() - self._settled_at < 0.5:
                await asyncio.sleep(0.2)  # moved again at once: not in a tight loop
            while not self.closed and not self.cluster.closing:
                try:
                    where = await self.cluster.locate(self.table_id)
                except (RedisError, OSError, TableError):
                    where = ""  # Redis is away: try again
                if self.closed:
                    return
                if where is None:
                    conn = self.conn
                    conn.error("no_such_table", translate(conn.lang, "error.no_such_table"))
                    conn.close()
                    return
                if isinstance(where, LiveTable):
                    if await self._settle_here(where):
                        return
                elif where:
                    self.settle_at(where)
                    return
                await asyncio.sleep(delay)
                delay = min(0.5, delay * 2)
        except Exception:
            log.exception("table %s: a connection could not follow its table", self.table_id)
            self.conn.close()
        finally:
            self.relinking = None

    async def _settle_here(self, table: LiveTable) -> bool:
        """Join ``table`` here: the last hello again, then what waited."""
        conn = self.conn
        conn.seat = None
        conn.joined = False
        if self.hello is not None and not await self._here(table, self.hello):
            return False
        while self.waiting and not self.closed:
            seq, message = self.waiting.pop(0)
            try:
                done = await self._here(table, message)
            except Exception:
                log.exception("table %s: a message could not be handled", table.id)
                conn.error("server_error", translate(conn.lang, "error.server_error"))
                done = True
            if not done:
                self._wait(seq, message)
                return False
        if self.closed:
            table.detach(conn)
        else:
            self.table = table
        return True

    def settle_at(self, owner: str) -> None:
        """Join the table at ``owner``: open the socket there, the last hello, what waited."""
        self.owner = owner
        self._settled_at = time.monotonic()
        self.conn.seat = None  # (the seat is the owner's to know)
        self.conn.joined = False
        opening = {"op": "open", "cid": self.number, "table": self.table_id}
        self.cluster.post(owner, {**opening, "lang": self.conn.lang})
        if self.hello is not None:
            self._forward(0, self.hello)
        waiting, self.waiting = self.waiting, []
        for seq, message in waiting:
            self._forward(seq, message)
