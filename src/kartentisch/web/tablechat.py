"""The chat at a table (docs/web-protocol.md, "Chat").

The players' messages reach everyone at the table, the spectators' only the
spectators (never the players: no help from outside). Each connection may send
:attr:`ServerSettings.chat_burst` at once, then
:attr:`ServerSettings.chats_per_second`. The latest :data:`CHAT_KEPT` messages
are kept, in memory only, for those who come later.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections import deque
from typing import TYPE_CHECKING, Any, Final

from kartentisch.web.i18n import translate
from kartentisch.web.protocol import Chat, TokenBucket
from kartentisch.web.seats import Connection

if TYPE_CHECKING:
    from kartentisch.web.livetable import LiveTable

log = logging.getLogger("kartentisch.web")

__all__ = ["CHAT_KEPT", "TableChat"]

#: Chat messages a table keeps for those who come later (in memory only).
CHAT_KEPT: Final = 50


class TableChat:
    """A table's chat: its latest messages and each connection's rate."""

    def __init__(self) -> None:
        #: The latest chat messages (in memory only: docs/web-protocol.md, "Chat").
        self.said: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        self.count = 0
        self.buckets: weakref.WeakKeyDictionary[Connection, TokenBucket] = (
            weakref.WeakKeyDictionary()
        )
        self.spectator_numbers: weakref.WeakKeyDictionary[Connection, int] = (
            weakref.WeakKeyDictionary()
        )

    def say(self, table: LiveTable, conn: Connection, message: Chat) -> None:
        """A chat message: the players' reach everyone at the table, the spectators'
        only the spectators (never the players: no help from outside)."""
        settings = table.manager.settings
        bucket = self.buckets.get(conn)
        if bucket is None:
            bucket = TokenBucket(settings.chats_per_second, settings.chat_burst)
            self.buckets[conn] = bucket
        if conn.seat is None and table.spectator_chat == "off":
            conn.error("chat_off", translate(conn.lang, "error.chat_off"))
            return
        if not bucket.take():
            every = f"{1 / settings.chats_per_second:g}"
            conn.error(
                "chat_rate_limited", translate(conn.lang, "error.chat_rate_limited", every=every)
            )
            return
        self.count += 1
        said: dict[str, Any] = {
            "type": "chat",
            "id": self.count,
            "channel": "players" if conn.seat is not None else "spectators",
            "seat": conn.seat,
            "from": table.seats[conn.seat].name if conn.seat is not None else None,
            "spectator": None if conn.seat is not None else self.spectator_number(conn),
            "text": message.text,
            "phrase": message.phrase,
            "at": int(time.time() * 1000),
        }
        self.said.append(said)
        for other in table.connections:
            if other.joined and self.reads(other, said):
                other.send(said)

    @staticmethod
    def reads(conn: Connection, said: dict[str, Any]) -> bool:
        return said["channel"] == "players" or conn.seat is None

    def spectator_number(self, conn: Connection) -> int:
        number = self.spectator_numbers.get(conn)
        if number is None:
            number = len(self.spectator_numbers) + 1
            self.spectator_numbers[conn] = number
        return number

    def history(self, conn: Connection) -> list[dict[str, Any]]:
        """The latest chat messages ``conn`` may read."""
        return [said for said in self.said if self.reads(conn, said)]

    def send_history(self, conn: Connection) -> None:
        history = self.history(conn)
        if history:
            conn.send({"type": "chat_history", "messages": history})
