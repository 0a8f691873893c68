"""Messages as a WebSocket carries them: JSON text, made once where several share it.

Every message goes out as ``json.dumps(message, ensure_ascii=False)`` would write
it (``", "`` and ``": "`` between items, the keys in the dict's order). That text
is the sum of its parts: an object's text is its members' texts joined with
``", "`` inside braces. So a part several messages share (the table's summary,
the game log's new entries, the part of a view every seat sees alike) can be
encoded once and spliced into each message, and the bytes sent are the same
as if each message had been encoded whole.

>>> message = {"type": "state", "version": 3, "table": {"id": "t", "you": 1, "seats": []}}
>>> split = SplitObject(message["table"], "you")
>>> text = object_text([("type", dumps("state")), ("version", "3"), ("table", split.text(1))])
>>> text == json.dumps(message, ensure_ascii=False)
True
>>> Encoded(message, text) == message, Encoded(message, text).text == text
(True, True)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

__all__ = [
    "Encoded",
    "SplitObject",
    "dumps",
    "members",
    "message_text",
    "object_text",
    "object_with",
]

#: One encoder for every message (``json.dumps`` with an argument makes a new one per call).
_ENCODE: Final = json.JSONEncoder(ensure_ascii=False).encode


def dumps(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False)``.

    A whole number or None (versions, seats: several per message) is written at once:
    the encoder sets itself up anew for every value but a string, which costs more than
    writing a small value (a few microseconds each).

    >>> [dumps(v) for v in (7, -1, None, True, "ä", 0.5, [1, None])]
    ['7', '-1', 'null', 'true', '"ä"', '0.5', '[1, null]']
    """
    kind = type(value)
    if kind is int:
        return int.__repr__(value)  # (what the encoder writes; a bool is no int here)
    if value is None:
        return "null"
    text: str = _ENCODE(value)
    return text


@functools.lru_cache(maxsize=256)
def _key_text(key: str) -> str:
    """A key's JSON text (the few keys of the messages, encoded once each)."""
    return dumps(key)


def members(text: str) -> str:
    """The members of an object's JSON text, without its braces (``""`` for ``{}``)."""
    return text[1:-1]


def object_text(items: Iterable[tuple[str, str]], *spliced: str) -> str:
    """An object's text from (key, the value's JSON text) pairs, then ``spliced`` members
    (texts from :func:`members`; empty ones are left out), in that order."""
    parts = [f"{_key_text(key)}: {value}" for key, value in items]
    parts.extend(part for part in spliced if part)
    return "{" + ", ".join(parts) + "}"


def object_with(value: Mapping[str, Any], key: str, text: str) -> str:
    """``dumps(value)``, the member ``key`` written as ``text`` (its value's JSON text,
    made already: a long part that changes seldom is encoded once, not every time).

    >>> object_with({"a": 1, "deals": [{"n": 1}], "b": None}, "deals", '[{"n": 1}]')
    '{"a": 1, "deals": [{"n": 1}], "b": null}'
    """
    head: dict[str, Any] = {}
    tail: dict[str, Any] = {}
    part = head
    for name, member in value.items():
        if name == key:
            part = tail
        else:
            part[name] = member
    parts = (members(dumps(head)), f"{dumps(key)}: {text}", members(dumps(tail)))
    return "{" + ", ".join(part for part in parts if part) + "}"


class SplitObject:
    """An object whose members are encoded once but for one, ``key``, given per use.

    >>> SplitObject({"a": 1, "you": None, "b": [2]}, "you").text(0)
    '{"a": 1, "you": 0, "b": [2]}'
    """

    __slots__ = ("_after", "_before", "_key")

    def __init__(self, value: Mapping[str, Any], key: str) -> None:
        keys = list(value)
        at = keys.index(key)
        self._key = dumps(key)
        self._before = members(dumps({k: value[k] for k in keys[:at]}))
        self._after = members(dumps({k: value[k] for k in keys[at + 1 :]}))

    def text(self, value: Any) -> str:
        """The object's text with ``value`` for the key held out."""
        parts = [self._before, f"{self._key}: {dumps(value)}", self._after]
        return "{" + ", ".join(part for part in parts if part) + "}"


class Encoded(dict[str, Any]):
    """A message (a dict like any other) that carries its JSON text, made already or
    made when first asked for.

    The connection's writer sends :attr:`text` as it is; whoever copies the message
    into a new dict gets a plain one, encoded when sent.

    ``text`` may be a function that makes it from the parts the message was made of
    (encoded once and spliced): a connection sent a state patch instead never needs
    the whole text. Those parts may change later, so :meth:`seal` ends that: a text
    asked for after it is made from the message itself.

    >>> made = Encoded({"a": 1}, lambda: '{"a": 1}')
    >>> made.text, Encoded({"b": [2]}, lambda: "stale").sealed().text
    ('{"a": 1}', '{"b": [2]}')
    """

    __slots__ = ("_make", "_text", "patches")

    def __init__(self, message: Mapping[str, Any], text: str | Callable[[], str]) -> None:
        super().__init__(message)
        self._text: str | None
        self._make: Callable[[], str] | None
        if isinstance(text, str):
            self._text, self._make = text, None
        else:
            self._text, self._make = None, text
        #: The state patches made from this state to later ones (web/statepatch.py):
        #: by the id of the later state, that state and what was made for it.
        self.patches: dict[int, tuple[dict[str, Any], dict[str, Any]]] | None = None

    @property
    def text(self) -> str:
        """The message's JSON text."""
        text = self._text
        if text is None:
            make = self._make
            text = self._text = make() if make is not None else dumps(dict(self))
            self._make = None
        return text

    @text.setter
    def text(self, text: str) -> None:
        self._text, self._make = text, None

    def sealed(self) -> Encoded:
        """This message, its text no longer to be made from its parts (they may change)."""
        self._make = None
        return self


def message_text(message: Mapping[str, Any]) -> str:
    """What the WebSocket sends for ``message``."""
    if type(message) is Encoded:
        return message.text
    return dumps(message)
