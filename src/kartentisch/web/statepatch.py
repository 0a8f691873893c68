"""State patches: what changed between two state messages, and applying it.

A connection that asked for patches (``hello`` with ``"patches": true``) is sent
a whole ``state`` first; after that each state goes as a ``patch`` against the
state that connection was sent last, when the patch is shorter
(docs/web-protocol.md, "State patches")::

    {"type": "patch", "base": 17, "version": 18,
     "set": {"version": 18, "view": {"hand": ["QC", "7S"], "to_move": 2}},
     "unset": [["log"]]}

``set`` is a merge patch (RFC 7386) with one difference: a ``null`` in it is the
value null, not a deletion. A member whose value in ``set`` is an object and
whose value in the old state is an object too is merged into it, member by
member; any other value replaces the old one whole (lists included). ``unset``
lists the paths of the members the new state no longer has (left out when
there are none). ``base`` is the version of the state the patch applies to,
``version`` the new state's.

>>> old = {"type": "state", "version": 1, "view": {"hand": ["QC", "7S"], "to_move": 0}, "x": 1}
>>> new = {"type": "state", "version": 2, "view": {"hand": ["7S"], "to_move": None}}
>>> changes, gone = diff(old, new)
>>> changes, gone
({'version': 2, 'view': {'hand': ['7S'], 'to_move': None}}, [['x']])
>>> apply(old, changes, gone) == new
True
"""

from __future__ import annotations

import marshal
from collections.abc import Mapping, Sequence
from typing import Any

from kartentisch.web.wire import Encoded, dumps, message_text, object_text

__all__ = ["Overlay", "apply", "apply_patch", "diff", "patch_message", "reuse_equal", "same"]


_GONE: Any = object()

#: The containers :func:`same` compared lately, by their ids: the states of a broadcast
#: share most of their parts (the table's summary, what every seat's view shows alike),
#: so each pair of them is compared once, not once per connection. (The pairs are held,
#: so that an id is not taken by another value meanwhile; the whole memo is dropped
#: when it is full.)
_COMPARED: dict[tuple[int, int], tuple[Any, Any, bool]] = {}
_COMPARED_MAX = 4096


def same(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are the same JSON value (``True`` is not ``1`` here, nor
    ``1.0``, and a list is no tuple: Python's ``==`` takes them for equal).

    >>> same([1, {"a": True}], [1, {"a": True}]), same([1], [True]), same(1, 1.0)
    (True, False, False)

    Containers that ``==`` finds equal are told apart by their ``marshal`` bytes (made
    in C, which keeps every value's type; an object's members in another order count
    as a change, which a patch then carries whole), or member by member where
    marshal cannot write them.
    """
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is not dict and kind is not list and kind is not tuple:
        return bool(a == b)
    key = (id(a), id(b))
    known = _COMPARED.get(key)
    if known is not None and known[0] is a and known[1] is b:
        return known[2]
    result = a == b and _typed_equal(a, b)
    if len(_COMPARED) >= _COMPARED_MAX:
        _COMPARED.clear()
    _COMPARED[key] = (a, b, result)
    return result


def reuse_equal(old: Mapping[str, Any] | None, new: dict[str, Any]) -> None:
    """Put into ``new`` the lists and objects of ``old`` (the same part of the state
    before) that are equal to its own: made once per version, so that the patch of
    every connection passes them over as the very same objects (:func:`diff`).

    >>> old, new = {"a": [1], "b": [2], "c": 3}, {"a": [1], "b": [True], "c": 3}
    >>> reuse_equal(old, new)
    >>> new["a"] is old["a"], new["b"] is old["b"]
    (True, False)
    """
    if old is None:
        return
    for key, value in new.items():
        kind = type(value)
        if kind is list or kind is dict:
            before = old.get(key, _GONE)
            if (
                before is not value
                and type(before) is kind
                and before == value
                and _typed_equal(before, value)
            ):
                new[key] = before


def _typed_equal(a: Any, b: Any) -> bool:
    """Whether two containers that ``==`` finds equal hold values of the same types."""
    try:
        # (Version 2: no references to objects met before, whose bytes would differ
        # for equal values that share their strings differently.)
        return bool(marshal.dumps(a, 2) == marshal.dumps(b, 2))
    except ValueError:  # (a value marshal cannot write: look member by member)
        if type(a) is dict:
            return all(same(value, b[key]) for key, value in a.items())
        return all(map(same, a, b))


class Overlay(dict[str, Any]):
    """A dict that is ``base`` with the member ``key`` set (the table's summary with
    the seat of the connection, ``you``): the patch of the ``base``, the same for every
    seat, is made once (:func:`diff`). It is encoded as any dict is.

    >>> table = Overlay({"id": "t", "you": None, "version": 3}, "you", 2)
    >>> table, table.base["you"]
    ({'id': 't', 'you': 2, 'version': 3}, None)
    """

    __slots__ = ("base", "key")

    def __init__(self, base: dict[str, Any], key: str, value: Any) -> None:
        super().__init__(base)
        self[key] = value
        self.base = base
        self.key = key


#: The patches made lately of one object into another, by their ids (the objects, what
#: is set and the paths removed, relative), dropped when full: the parts that every
#: seat's state shares (the table's summary, the game log's part) are patched once.
_PATCHED: dict[tuple[int, int], tuple[Any, Any, dict[str, Any], list[list[str]]]] = {}
#: The JSON texts of the patches in :data:`_PATCHED`, by their ids.
_PATCH_TEXTS: dict[int, tuple[dict[str, Any], str]] = {}


def _inner(old: dict[str, Any], new: dict[str, Any]) -> tuple[dict[str, Any], list[list[str]]]:
    """The patch of the object ``old`` into ``new`` (members of a state), made once."""
    if type(old) is Overlay and type(new) is Overlay and old.key == new.key:
        key = old.key
        if same(old[key], new[key]):
            return _inner(old.base, new.base)
    known = _PATCHED.get((id(old), id(new)))
    if known is not None and known[0] is old and known[1] is new:
        return known[2], known[3]
    gone: list[list[str]] = []
    changes = _diff(old, new, (), gone)
    if len(_PATCHED) >= _COMPARED_MAX:
        _PATCHED.clear()
        _PATCH_TEXTS.clear()
    _PATCHED[id(old), id(new)] = (old, new, changes, gone)
    return changes, gone


def _diff(
    old: Mapping[str, Any], new: Mapping[str, Any], path: tuple[str, ...], gone: list[list[str]]
) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    # (Most members are the very same objects, small numbers, None, the same strings:
    # those are passed over first, at C's pace.)
    moved = [(key, value) for key, value in new.items() if old.get(key, _GONE) is not value]
    for key, value in moved:
        before = old.get(key, _GONE)
        if before is _GONE:
            changes[key] = value
        elif isinstance(value, dict) and isinstance(before, dict):
            inner, inner_gone = _inner(before, value)
            if inner:
                changes[key] = inner
            if inner_gone:
                gone.extend([*path, key, *rest] for rest in inner_gone)
        elif not same(before, value):
            changes[key] = value
    missing = old.keys() - new.keys()
    if missing:
        gone.extend([*path, key] for key in old if key in missing)
    return changes


def _text(changes: dict[str, Any]) -> str:
    """The JSON text of ``changes``, the parts shared with other patches encoded once."""
    parts = []
    for key, value in changes.items():
        if type(value) is dict:
            known = _PATCH_TEXTS.get(id(value))
            if known is not None and known[0] is value:
                parts.append((key, known[1]))
                continue
            text = _text(value)
            if len(_PATCH_TEXTS) >= _COMPARED_MAX:
                _PATCH_TEXTS.clear()
            _PATCH_TEXTS[id(value)] = (value, text)
            parts.append((key, text))
        else:
            parts.append((key, dumps(value)))
    return object_text(parts)


def diff(old: Mapping[str, Any], new: Mapping[str, Any]) -> tuple[dict[str, Any], list[list[str]]]:
    """What turns ``old`` into ``new``: the members to set (merged into objects where both
    are objects) and the paths of the members to remove."""
    gone: list[list[str]] = []
    changes = _diff(old, new, (), gone)
    return changes, gone


def _merge(target: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(target)
    for key, value in changes.items():
        before = out.get(key)
        if isinstance(value, dict) and isinstance(before, dict):
            out[key] = _merge(before, value)
        else:
            out[key] = value
    return out


def _without(target: Mapping[str, Any], path: Sequence[str]) -> dict[str, Any]:
    out = dict(target)
    key = path[0]
    if len(path) == 1:
        out.pop(key, None)
    elif isinstance(out.get(key), dict):
        out[key] = _without(out[key], path[1:])
    return out


def apply(
    old: Mapping[str, Any], changes: Mapping[str, Any], gone: Sequence[Sequence[str]] = ()
) -> dict[str, Any]:
    """``old`` with ``changes`` merged in and the members at ``gone`` removed: a new
    value (``old`` is left as it was; what did not change is shared with it)."""
    out = _merge(old, changes)
    for path in gone:
        if path:
            out = _without(out, path)
    return out


def apply_patch(old: Mapping[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    """The state that a ``patch`` message makes of ``old`` (the state of its ``base``).

    Raises ``ValueError`` when ``old`` is not of the patch's base version.
    """
    if old.get("version") != patch.get("base"):
        raise ValueError(
            f"the patch is against version {patch.get('base')}, not {old.get('version')}"
        )
    return apply(old, patch.get("set") or {}, patch.get("unset") or ())


def patch_message(old: dict[str, Any], new: dict[str, Any], whole_chars: int = 0) -> dict[str, Any]:
    """What a connection that was sent the state ``old`` is sent for the state ``new``:
    a ``patch`` message (with its text) when it is shorter than ``new``, else ``new``
    (with its text).

    ``whole_chars``: the length of the last state sent whole to the connection; a
    patch shorter than half of it goes without ``new``'s text being made (states
    grow slowly: the finished deals; a whole new state is sent on hello and resync).

    What is made from ``old`` is kept with ``old`` (when it is an
    :class:`~kartentisch.web.wire.Encoded` message): the connections of one seat,
    or the spectators, that were sent the same states get the same patch, made
    once. (Kept with the older state, so that a state keeps none before it alive.)
    """
    memo = old.patches if type(old) is Encoded else None
    if memo is not None:
        made = memo.get(id(new))
        if made is not None and made[0] is new:
            return made[1]
    result = _patch_message(old, new, whole_chars)
    if type(old) is Encoded:
        if old.patches is None:
            old.patches = {}
        old.patches[id(new)] = (new, result)
    return result


def _patch_message(old: dict[str, Any], new: dict[str, Any], whole_chars: int) -> dict[str, Any]:
    changes, gone = diff(old, new)
    items = [
        ("type", '"patch"'),
        ("base", dumps(old.get("version"))),
        ("version", dumps(new.get("version"))),
        ("set", _text(changes)),
    ]
    if gone:
        items.append(("unset", dumps(gone)))
    text = object_text(items)
    if 2 * len(text) >= whole_chars:
        full = message_text(new)
        if len(text) >= len(full):
            return new if type(new) is Encoded else Encoded(new, full)
    patch: dict[str, Any] = {
        "type": "patch",
        "base": old.get("version"),
        "version": new.get("version"),
        "set": changes,
    }
    if gone:
        patch["unset"] = gone
    return Encoded(patch, text)
