"""The WebSocket protocol: reading client messages, writing server messages.

Every client message is one JSON object with a ``type`` (see
docs/web-protocol.md). :func:`parse_client_message` never raises anything but
:class:`ProtocolError`, whose ``code`` the server sends back in an ``error``
message.

>>> parse_client_message('{"type": "act", "action": "QC", "version": 3}')
Act(action='QC', version=3)
>>> parse_client_message('{"type": "act", "action": "QC"}')
Traceback (most recent call last):
...
kartentisch.web.protocol.ProtocolError: bad_message: "act" needs "version", a whole number
>>> parse_client_message('{oops')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
kartentisch.web.protocol.ProtocolError: bad_json: not valid JSON: Expecting property name ...
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from kartentisch.i18n import LANGUAGES

__all__ = [
    "MAX_CHAT_CHARS",
    "MAX_MESSAGE_CHARS",
    "QUICK_PHRASES",
    "Act",
    "Chat",
    "ClientMessage",
    "Hello",
    "Limits",
    "MessageBudget",
    "Ping",
    "Pong",
    "ProtocolError",
    "Ready",
    "Report",
    "Resync",
    "Start",
    "TokenBucket",
    "Verdict",
    "error_message",
    "parse_client_message",
    "read_chat",
]

#: Longer client messages are refused unread (a real one is well under 200 characters).
MAX_MESSAGE_CHARS: Final = 4096
MAX_ACTION_CHARS: Final = 64
MAX_TOKEN_CHARS: Final = 128
#: The ``t`` of a ``ping`` is echoed: a number, or a string of at most this many characters.
MAX_PING_CHARS: Final = 64


class ProtocolError(ValueError):
    """A client message the server cannot use; ``code`` names the reason."""

    def __init__(self, code: str, detail: str, **params: Any) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        self.params = params


@dataclass(frozen=True, slots=True)
class Hello:
    """Join the table: as the seat the token belongs to, or as a spectator without one."""

    token: str | None
    lang: str | None
    #: The game log the client holds already (docs/web-protocol.md, "The game log"):
    #: the log's ``epoch`` and the number of its entries; the answer sends the rest.
    log_epoch: str | None = None
    log_from: int | None = None
    #: The client takes state patches (docs/web-protocol.md, "State patches").
    patches: bool = False


@dataclass(frozen=True, slots=True)
class Act:
    """Take ``action`` (game notation) on the state of ``version``."""

    action: str
    version: int


@dataclass(frozen=True, slots=True)
class Ping:
    t: Any


@dataclass(frozen=True, slots=True)
class Pong:
    """The answer to the server's ``ping`` at a real-time table: the nonce echoed.

    >>> parse_client_message('{"type": "pong", "nonce": "00ff00ff00ff00ff"}')
    Pong(nonce='00ff00ff00ff00ff')
    """

    nonce: str


@dataclass(frozen=True, slots=True)
class Start:
    """Start now: bots take the seats still open."""


@dataclass(frozen=True, slots=True)
class Ready:
    """Between deals: this seat is ready for the next deal, having seen ``version``.

    >>> parse_client_message('{"type": "ready", "version": 52}')
    Ready(version=52)
    """

    version: int


@dataclass(frozen=True, slots=True)
class Chat:
    """Say something at the table: a ``text`` (at most :data:`MAX_CHAT_CHARS`, cleaned of
    control characters and runs of spaces) or one of the :data:`QUICK_PHRASES`, which
    every reader sees in their own language.

    >>> parse_client_message('{"type": "chat", "text": "  gut   gespielt! "}')
    Chat(text='gut gespielt!', phrase=None)
    >>> parse_client_message('{"type": "chat", "phrase": "well_played"}')
    Chat(text=None, phrase='well_played')
    """

    text: str | None
    phrase: str | None = None


@dataclass(frozen=True, slots=True)
class Hint:
    """Ask for the strong bot's suggestion for this seat's turn at ``version`` (at a
    table whose host allowed hints).

    >>> parse_client_message('{"type": "hint", "version": 7}')
    Hint(version=7)
    """

    version: int


@dataclass(frozen=True, slots=True)
class Resync:
    """Send the state whole: the client's copy is not the state its next patch is
    made against (a patch of another base came).

    >>> parse_client_message('{"type": "resync"}')
    Resync()
    """


@dataclass(frozen=True, slots=True)
class Report:
    """Report the chat message ``id`` to the admin (kept with its text and author)."""

    id: int


ClientMessage = Hello | Act | Ping | Pong | Start | Ready | Chat | Report | Hint | Resync

#: The longest chat text.
MAX_CHAT_CHARS: Final = 300
#: Quick phrases for phone players: each shown in the reader's language (``chat.phrase.…``).
QUICK_PHRASES: Final = (
    "hello",
    "good_luck",
    "well_played",
    "thanks",
    "sorry",
    "one_moment",
    "good_game",
    "bye",
)

_TYPES: Final = (
    "hello",
    "act",
    "ping",
    "pong",
    "start",
    "ready",
    "chat",
    "report",
    "hint",
    "resync",
)
MAX_NONCE_CHARS: Final = 32
#: The fields each message type may carry besides ``type``; any other field is refused.
_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "hello": ("token", "lang", "log_epoch", "log_from", "patches"),
    "act": ("action", "version"),
    "ping": ("t",),
    "pong": ("nonce",),
    "start": (),
    "ready": ("version",),
    "chat": ("text", "phrase"),
    "report": ("id",),
    "hint": ("version",),
    "resync": (),
}


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _check_fields(kind: str, data: dict[str, Any]) -> None:
    allowed = _FIELDS[kind]
    for name in data:
        if name == "type" or name in allowed:
            continue
        shown = json.dumps(str(name)[:20], ensure_ascii=False)
        fields = ", ".join(f'"{f}"' for f in allowed) or "no other field"
        hint = " (a connection acts only for the seat of its token)" if name == "seat" else ""
        raise ProtocolError(
            "bad_message", f'"{kind}" has no field {shown}{hint}: it takes {fields}'
        )


def parse_client_message(text: str | bytes) -> ClientMessage:
    """Read one client message; raise :class:`ProtocolError` naming what is wrong."""
    if len(text) > MAX_MESSAGE_CHARS:
        raise ProtocolError("too_large", f"messages are limited to {MAX_MESSAGE_CHARS} characters")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        where = f"{exc.msg} at column {exc.colno}"
        raise ProtocolError("bad_json", f"not valid JSON: {where}") from None
    except UnicodeDecodeError:
        raise ProtocolError("bad_json", "not valid JSON: not UTF-8") from None
    except RecursionError:
        raise ProtocolError("bad_json", "not valid JSON here: nested too deeply") from None
    except ValueError as exc:  # NaN or Infinity, or a number with thousands of digits
        raise ProtocolError("bad_json", f"not valid JSON here: {str(exc)[:80]}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object with a type")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", 'a message needs "type", a string')
    if kind in _FIELDS:
        _check_fields(kind, data)
    if kind == "hello":
        token = data.get("token")
        if token is not None and (not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS):
            raise ProtocolError(
                "bad_message", f'"token" must be a string of at most {MAX_TOKEN_CHARS} characters'
            )
        lang = data.get("lang")
        if lang is not None and not isinstance(lang, str):
            raise ProtocolError("bad_message", '"lang" must be a string: de, en or ru')
        if isinstance(lang, str):
            lang = lang.lower()[:2]
            if lang not in LANGUAGES:
                lang = None
        log_epoch = data.get("log_epoch")
        if log_epoch is not None and (
            not isinstance(log_epoch, str) or len(log_epoch) > MAX_NONCE_CHARS
        ):
            raise ProtocolError(
                "bad_message",
                f'"log_epoch" must be a string of at most {MAX_NONCE_CHARS} characters',
            )
        log_from = data.get("log_from")
        if log_from is not None and (
            not isinstance(log_from, int) or isinstance(log_from, bool) or log_from < 0
        ):
            raise ProtocolError("bad_message", '"log_from" must be a whole number, 0 or more')
        patches = data.get("patches", False)
        if not isinstance(patches, bool):
            raise ProtocolError("bad_message", '"patches" must be true or false')
        return Hello(token or None, lang, log_epoch, log_from, patches)
    if kind == "act":
        action = data.get("action")
        if not isinstance(action, str) or not action.strip() or len(action) > MAX_ACTION_CHARS:
            raise ProtocolError(
                "bad_message",
                f'"act" needs "action", the action as text (at most {MAX_ACTION_CHARS} characters)',
            )
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ProtocolError("bad_message", '"act" needs "version", a whole number')
        return Act(action.strip(), version)
    if kind == "ping":
        t = data.get("t")
        if not _echoable(t):
            raise ProtocolError(
                "bad_message",
                f'"t" of "ping" must be a number or a string (at most {MAX_PING_CHARS} characters)',
            )
        return Ping(t)
    if kind == "pong":
        nonce = data.get("nonce")
        if not isinstance(nonce, str) or not nonce or len(nonce) > MAX_NONCE_CHARS:
            raise ProtocolError("bad_message", '"pong" needs "nonce", the string of the ping')
        return Pong(nonce)
    if kind == "start":
        return Start()
    if kind == "resync":
        return Resync()
    if kind == "ready":
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ProtocolError(
                "bad_message", '"ready" needs "version", the version seen (a whole number)'
            )
        return Ready(version)
    if kind == "chat":
        return read_chat(data)
    if kind == "hint":
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ProtocolError(
                "bad_message", '"hint" needs "version", the version seen (a whole number)'
            )
        return Hint(version)
    if kind == "report":
        reported = data.get("id")
        if not isinstance(reported, int) or isinstance(reported, bool) or reported < 1:
            raise ProtocolError("bad_message", '"report" needs "id", the chat message\'s number')
        return Report(reported)
    raise ProtocolError(
        "unknown_type", f"unknown message type {kind[:40]!r}: use one of {', '.join(_TYPES)}"
    )


def read_chat(data: dict[str, Any]) -> Chat:
    """``data`` (``{text}`` or ``{phrase}``) checked as a chat message; :class:`ProtocolError`."""
    text, phrase = data.get("text"), data.get("phrase")
    if (text is None) == (phrase is None):
        raise ProtocolError("bad_message", '"chat" needs "text" or "phrase" (one of them)')
    if phrase is not None:
        if phrase not in QUICK_PHRASES:
            raise ProtocolError(
                "bad_message", f'"phrase" must be one of {", ".join(QUICK_PHRASES)}'
            )
        return Chat(None, str(phrase))
    if not isinstance(text, str):
        raise ProtocolError("bad_message", '"text" must be a string')
    cleaned = " ".join(
        "".join(
            " " if ch.isspace() else ch for ch in text if ch.isprintable() or ch.isspace()
        ).split()
    )
    if not cleaned:
        raise ProtocolError("bad_message", '"text" is empty')
    if len(cleaned) > MAX_CHAT_CHARS:
        raise ProtocolError(
            "chat_too_long",
            f"a chat message has at most {MAX_CHAT_CHARS} characters",
            max=MAX_CHAT_CHARS,
        )
    return Chat(cleaned)


def _echoable(value: Any) -> bool:
    if value is None or isinstance(value, bool | int):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, str) and len(value) <= MAX_PING_CHARS


def error_message(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """The server's ``error`` message."""
    return {"type": "error", "code": code, "message": message, **extra}


# -- limits -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Limits:
    """How much one client may ask of the server (docs/security.md).

    A WebSocket connection may send ``messages_per_second`` messages a
    second, ``message_burst`` at once; ``hello`` is limited further
    (``hello_burst`` at once, then one every ``1 / hellos_per_second``
    seconds) on each connection and, across connections, for each seat
    (the same numbers) and each client address (``address_hello_burst``,
    then ``address_hellos_per_second``), so that reconnecting buys no more.
    A message over the limit is refused (``rate_limited``, said at most once
    a second) and counted; the count drains at ``messages_per_second``, and
    a connection whose count passes ``flood_messages`` is closed (code 1008,
    ``message_flood``). A table admits ``max_spectators`` spectators; seats
    always get in. Each client address may create or join ``lobby_burst``
    tables at once, then ``lobby_per_second`` a second, and ask for
    ``replay_burst`` replays, records or finished tables at once, then
    ``replays_per_second`` a second. An address may try ``login_burst``
    logins at once, then ``logins_per_second``; an account's wrong passwords
    ``account_login_burst`` at once, then ``account_logins_per_second``; an
    address may open ``signup_burst`` accounts, then ``signups_per_second``.
    The limits across connections are counted by
    :mod:`kartentisch.web.ratelimits`.

    A table WebSocket that has not said a valid hello within
    ``hello_seconds`` is told ``hello_timeout`` and closed. A closing socket
    is given ``close_seconds`` to take its last messages and the close frame;
    one that does not read them is aborted.
    """

    messages_per_second: float = 20.0
    message_burst: int = 40
    hellos_per_second: float = 0.5
    hello_burst: int = 5
    flood_messages: int = 100
    max_spectators: int = 50
    lobby_per_second: float = 1.0
    lobby_burst: int = 60
    address_hellos_per_second: float = 1.0
    address_hello_burst: int = 30
    replays_per_second: float = 0.5
    replay_burst: int = 30
    hello_seconds: float = 10.0
    close_seconds: float = 5.0
    #: Logins: every attempt counts per address; failed ones count per account too.
    login_burst: int = 10
    logins_per_second: float = 0.2
    account_login_burst: int = 5
    account_logins_per_second: float = 1 / 60
    #: New accounts per address.
    signup_burst: int = 5
    signups_per_second: float = 1 / 60

    @classmethod
    def unlimited(cls) -> Limits:
        """No rate limits at all (tests that send thousands of messages)."""
        big = 10**9
        return cls(
            messages_per_second=big,
            message_burst=big,
            hellos_per_second=big,
            hello_burst=big,
            flood_messages=big,
            max_spectators=big,
            lobby_per_second=big,
            lobby_burst=big,
            address_hellos_per_second=big,
            address_hello_burst=big,
            replays_per_second=big,
            replay_burst=big,
            login_burst=big,
            logins_per_second=big,
            account_login_burst=big,
            account_logins_per_second=big,
            signup_burst=big,
            signups_per_second=big,
        )


class TokenBucket:
    """``burst`` tokens, refilled at ``rate`` a second; each message takes one.

    >>> now = [0.0]
    >>> bucket = TokenBucket(rate=2, burst=3, clock=lambda: now[0])
    >>> [bucket.take() for _ in range(4)]
    [True, True, True, False]
    >>> now[0] = 0.5  # half a second: one token more
    >>> bucket.take(), bucket.take()
    (True, False)
    """

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("a token bucket needs a positive rate and burst")
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._at = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.rate)
        self._at = now

    def take(self) -> bool:
        """Take a token if there is one."""
        self._refill()
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False

    @property
    def full(self) -> bool:
        self._refill()
        return self._tokens >= self.burst


class Verdict(Enum):
    """What to do with a message: handle it, refuse it, or close the connection."""

    OK = "ok"
    REFUSE = "refuse"
    CLOSE = "close"


class MessageBudget:
    """The rate limits of one WebSocket connection (see :class:`Limits`).

    >>> now = [0.0]
    >>> budget = MessageBudget(Limits(message_burst=2, flood_messages=3), clock=lambda: now[0])
    >>> [budget.message().value for _ in range(6)]
    ['ok', 'ok', 'refuse', 'refuse', 'refuse', 'close']
    >>> now[0] = 10.0  # the client slowed down: all is forgiven
    >>> budget.message().value
    'ok'
    """

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._clock = clock
        self._messages = TokenBucket(limits.messages_per_second, limits.message_burst, clock)
        self._hellos = TokenBucket(limits.hellos_per_second, limits.hello_burst, clock)
        self._excess = 0.0
        self._excess_at = clock()
        self._told_at: float | None = None
        #: Messages refused so far.
        self.refused = 0

    def message(self) -> Verdict:
        """A message arrived: may it be handled?"""
        return Verdict.OK if self._messages.take() else self._refuse()

    def hello(self) -> Verdict:
        """A well-formed ``hello`` arrived (it has passed :meth:`message`)."""
        return Verdict.OK if self._hellos.take() else self._refuse()

    def refuse(self) -> Verdict:
        """A message refused by a limit kept elsewhere (hellos per seat or address):
        counted as the refusals of this budget are."""
        return self._refuse()

    def _refuse(self) -> Verdict:
        self.refused += 1
        now = self._clock()
        drained = (now - self._excess_at) * self.limits.messages_per_second
        self._excess = max(0.0, self._excess - drained) + 1
        self._excess_at = now
        return Verdict.CLOSE if self._excess > self.limits.flood_messages else Verdict.REFUSE

    def tell(self) -> bool:
        """Whether to tell the client of a refusal now: at most once a second."""
        now = self._clock()
        if self._told_at is not None and now - self._told_at < 1.0:
            return False
        self._told_at = now
        return True
