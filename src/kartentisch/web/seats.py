"""Who sits at a table and who is connected to it.

A :class:`Seat` is one seat of a table (open, a person or a bot), a
:class:`Connection` one WebSocket (its seat, language and outgoing queue).
Also here: :class:`TableError` (a refused lobby or table request),
seat-token hashing, display-name cleaning and the answer to a malformed
client message.
"""

from __future__ import annotations

import asyncio
import hashlib
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kartentisch.errors import KartentischError
from kartentisch.web.i18n import translate
from kartentisch.web.protocol import ProtocolError, error_message
from kartentisch.web.ratelimits import Rate
from kartentisch.web.statepatch import patch_message
from kartentisch.web.wire import Encoded, message_text

__all__ = [
    "BOT_NAMES",
    "MAX_NAME_CHARS",
    "MAX_QUEUED_MESSAGES",
    "Connection",
    "RateLimited",
    "Seat",
    "TableError",
    "bot_name",
    "clean_name",
    "handle_protocol_error",
    "hash_token",
]

MAX_NAME_CHARS: Final = 24
#: The names bots take, the first one free from the seat's own on (:func:`bot_name`).
BOT_NAMES: Final = ("Anna", "Ben", "Carla", "Dan", "Eva", "Felix", "Greta")
#: A connection whose outgoing queue grows past this is too slow: it is disconnected.
MAX_QUEUED_MESSAGES: Final = 256


class TableError(KartentischError):
    """A lobby or table request that is refused; ``code`` keys its translated message."""

    def __init__(
        self, code: str, status: int = 400, *, key: str | None = None, **params: Any
    ) -> None:
        super().__init__(code)
        self.code = code
        self.status = status
        #: The message's key when it is more particular than the code (``option_range``).
        self.key = key or code
        self.params = params
        #: More fields of the answer's ``error`` object (a rule set's refusal: its
        #: ``reason``, ``params`` and ``detail``).
        self.details: dict[str, Any] = {}

    def message(self, lang: str) -> str:
        params = dict(self.params)
        option = params.get("option")
        if isinstance(option, str):
            # An option's name as the lobby labels it (its key when it has no label).
            label = translate(lang, f"option.{option}")
            params["option"] = option if label == f"option.{option}" else label
        return translate(lang, f"error.{self.key}", **params)


class RateLimited(TableError):
    """Refused by a rate limit (429): with the seconds until the next request may pass."""

    def __init__(self, code: str, rate: Rate, retry_after: float) -> None:
        seconds = max(1, round(retry_after))
        super().__init__(code, 429, rate=f"{rate.per_second:g}", burst=rate.burst, seconds=seconds)
        self.retry_after = seconds


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def clean_name(value: Any, fallback: str | None = None) -> str:
    """A display name: printable, single-spaced, at most 24 characters."""
    if value is None and fallback is not None:
        return fallback
    if not isinstance(value, str):
        raise TableError("bad_name")
    text = "".join(
        " " if ch.isspace() else ch
        for ch in value
        if ch.isspace() or not unicodedata.category(ch).startswith("C")
    )
    text = " ".join(text.split())[:MAX_NAME_CHARS]
    if not text:
        if fallback is not None:
            return fallback
        raise TableError("bad_name")
    return text


@dataclass
class Seat:
    """Who sits at a seat: nobody yet (``open``), a person (``human``) or a ``bot``."""

    kind: str
    name: str
    level: str | None = None
    token_hash: str | None = None
    #: The account of the person who took the seat logged in (None: a guest).
    account: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "token_hash": self.token_hash,
        }
        if self.account is not None:
            out["account"] = self.account
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Seat:
        account = data.get("account")
        return cls(
            kind=str(data.get("kind", "open")),
            name=str(data.get("name", "")),
            level=data.get("level"),
            token_hash=data.get("token_hash"),
            account=account if isinstance(account, int) else None,
        )


class Connection:
    """One WebSocket: its seat (None for a spectator), language and outgoing queue.

    A reader that falls :data:`MAX_QUEUED_MESSAGES` behind is *too slow*:
    nothing more is queued for it and ``on_overflow`` (set by the socket's
    handler) is called once, which detaches it from its table and closes
    its socket (``web/table_socket.py``).

    A connection whose client asked for patches (``hello`` with ``patches``)
    is sent each state after its first as a ``patch`` against the state it
    was sent last (:mod:`kartentisch.web.statepatch`), when that is shorter.
    """

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self.seat: int | None = None
        self.joined = False
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.dropped = False
        self.too_slow = False
        self.on_overflow: Callable[[], None] | None = None
        #: Whether the client takes state patches (its hello said so).
        self.patches = False
        #: The state this connection was sent last (whole or as a patch), while it
        #: takes patches: the next state's patch is made against it.
        self.last_state: dict[str, Any] | None = None
        #: The length of the text of the last state sent whole (a patch at most half of
        #: it goes without the new state's text being made).
        self.whole_chars = 0

    def take_patches(self, patches: bool) -> None:
        """A hello: whether the client takes patches; the next state goes whole."""
        self.patches = patches
        self.last_state = None

    def resync(self) -> None:
        """The client asks for a whole state (its copy is not the one its patches are
        made against): the state it was sent last, whole; the next patches are made
        against it. Nothing is sent before the first state."""
        if self.last_state is not None and not self.dropped:
            self._queue(self.last_state)

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message``; the connection's writer sends it."""
        if self.dropped:
            return
        if self.patches and message.get("type") == "state":
            base = self.last_state
            self.last_state = message
            if base is not None:
                message = patch_message(base, message, self.whole_chars)
            if message.get("type") == "state":
                self.whole_chars = len(message_text(message))
        elif type(message) is Encoded:
            message_text(message)  # (made now, while the parts it is made of are current)
        self._queue(message)

    def _queue(self, message: dict[str, Any]) -> None:
        if self.queue.qsize() >= MAX_QUEUED_MESSAGES:
            self.too_slow = True
            self.close()
            if self.on_overflow is not None:
                self.on_overflow()
            return
        self.queue.put_nowait(message)

    def close(self) -> None:
        """Ask the writer to stop after what is queued."""
        if not self.dropped:
            self.dropped = True
            self.queue.put_nowait(None)

    def error(self, code: str, message: str, **extra: Any) -> None:
        self.send(error_message(code, message, **extra))


def handle_protocol_error(conn: Connection, error: ProtocolError) -> None:
    conn.error(
        error.code,
        translate(conn.lang, f"error.{error.code}", detail=error.detail, **error.params),
    )


def bot_name(seat: int, seats: Sequence[Seat]) -> str:
    """The name of a bot taking ``seat``: one no other seat of ``seats`` has."""
    taken = {s.name for s in seats}
    for name in (BOT_NAMES[seat % len(BOT_NAMES)], *BOT_NAMES):
        if name not in taken:
            return name
    return f"Bot {seat + 1}"
