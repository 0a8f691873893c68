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
from dataclasses import dataclass
from typing import Any, Final

from kartentisch.i18n import LANGUAGES

__all__ = [
    "MAX_MESSAGE_CHARS",
    "Act",
    "ClientMessage",
    "Hello",
    "Ping",
    "Pong",
    "ProtocolError",
    "Start",
    "error_message",
    "parse_client_message",
]

#: Longer client messages are refused unread (a real one is well under 200 characters).
MAX_MESSAGE_CHARS: Final = 4096
MAX_ACTION_CHARS: Final = 64
MAX_TOKEN_CHARS: Final = 128


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


ClientMessage = Hello | Act | Ping | Pong | Start

_TYPES: Final = ("hello", "act", "ping", "pong", "start")
MAX_NONCE_CHARS: Final = 32


def parse_client_message(text: str | bytes) -> ClientMessage:
    """Read one client message; raise :class:`ProtocolError` naming what is wrong."""
    if len(text) > MAX_MESSAGE_CHARS:
        raise ProtocolError("too_large", f"messages are limited to {MAX_MESSAGE_CHARS} characters")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        where = f" at column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else "not UTF-8"
        raise ProtocolError("bad_json", f"not valid JSON: {reason}{where}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object with a type")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", 'a message needs "type", a string')
    if kind == "hello":
        token = data.get("token")
        if token is not None and (not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS):
            raise ProtocolError("bad_message", '"token" must be a string')
        lang = data.get("lang")
        if lang is not None and not isinstance(lang, str):
            raise ProtocolError("bad_message", '"lang" must be a string: de, en or ru')
        if isinstance(lang, str):
            lang = lang.lower()[:2]
            if lang not in LANGUAGES:
                lang = None
        return Hello(token or None, lang)
    if kind == "act":
        action = data.get("action")
        if not isinstance(action, str) or not action.strip() or len(action) > MAX_ACTION_CHARS:
            raise ProtocolError("bad_message", '"act" needs "action", the action as text')
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ProtocolError("bad_message", '"act" needs "version", a whole number')
        return Act(action.strip(), version)
    if kind == "ping":
        return Ping(data.get("t"))
    if kind == "pong":
        nonce = data.get("nonce")
        if not isinstance(nonce, str) or not nonce or len(nonce) > MAX_NONCE_CHARS:
            raise ProtocolError("bad_message", '"pong" needs "nonce", the string of the ping')
        return Pong(nonce)
    if kind == "start":
        return Start()
    raise ProtocolError(
        "unknown_type", f"unknown message type {kind[:40]!r}: use one of {', '.join(_TYPES)}"
    )


def error_message(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """The server's ``error`` message."""
    return {"type": "error", "code": code, "message": message, **extra}
