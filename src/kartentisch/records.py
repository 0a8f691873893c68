"""Portable JSON game records: reading, checking and replaying them.

The format is documented in docs/records.md. Reading never trusts the input:
any problem becomes a :class:`~kartentisch.errors.RecordError` (malformed) or
a :class:`ReplayError` (an action the rules refuse, with its position).
:func:`replay_record` and :func:`replay_actions` (with :func:`record_options`,
:func:`record_seats` and :func:`hands_dealt`) are the replay steps the
trick-taking games share.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Protocol, TypeVar

from kartentisch.engine import RECORD_FORMAT
from kartentisch.errors import (
    DealError,
    IllegalActionError,
    KartentischError,
    NotationError,
    OptionError,
    RecordError,
)

__all__ = [
    "ACTORS",
    "ReplayError",
    "check_by",
    "check_record",
    "hands_dealt",
    "load_record",
    "loads_record",
    "record_options",
    "record_seats",
    "replay_actions",
    "replay_record",
    "require",
    "write_record",
]

T = TypeVar("T")
M = TypeVar("M")
D = TypeVar("D")
Op = TypeVar("Op", bound="_Options")

#: Who may have made an action, in a record's optional ``by`` lists (docs/records.md):
#: a person, a bot seat, a bot standing in for an away person, the turn timer, or a
#: forced answer the table gave for a person.
ACTORS: Final = ("person", "bot", "standin", "timer", "auto")

#: Records larger than this are refused before parsing (a hand-written record is tiny).
MAX_RECORD_BYTES = 16 * 1024 * 1024


class ReplayError(KartentischError):
    """An action in a record that the rules refuse.

    ``position`` is 1-based within its deal, ``deal`` 1-based within a match
    record (None for a single-deal record).
    """

    def __init__(
        self,
        error: IllegalActionError,
        *,
        position: int,
        seat: int | None,
        action: str,
        deal: int | None = None,
        seat_name: str | None = None,
    ) -> None:
        where = f"deal {deal}, " if deal is not None else ""
        who = f"seat {seat}" + (f" ({seat_name})" if seat_name else "") if seat is not None else ""
        super().__init__(
            f"{where}action {position}: {who} {action}: {error.message} [{error.rule}]".replace(
                ":  ", ": "
            )
        )
        self.error = error
        self.rule = error.rule
        self.position = position
        self.seat = seat
        self.action = action
        self.deal = deal
        self.seat_name = seat_name


def loads_record(text: str) -> dict[str, Any]:
    """Read a record from JSON text; check its header.

    >>> loads_record('{"format": "kartentisch-record/1", "game": "slobberhannes"}')["game"]
    'slobberhannes'
    >>> loads_record('{"game": 1}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kartentisch.errors.RecordError: the record has no "format" field; ...
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except RecursionError:
        raise RecordError("not a record: the JSON is nested too deeply") from None
    return check_record(data)


def load_record(source: str | Path | Mapping[str, Any]) -> dict[str, Any]:
    """Read a record from a file path (or take a mapping) and check its header."""
    if isinstance(source, Mapping):
        return check_record(dict(source))
    path = Path(source)
    try:
        if path.stat().st_size > MAX_RECORD_BYTES:
            raise RecordError(f"{path} is larger than {MAX_RECORD_BYTES} bytes")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"no such record file: {path}") from None
    except IsADirectoryError:
        raise RecordError(f"{path} is a directory, not a record file") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not UTF-8 text") from None
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    return loads_record(text)


def check_record(data: Any) -> dict[str, Any]:
    """Check that ``data`` has a record's header: format and game."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    if "format" not in data:
        raise RecordError(f'the record has no "format" field; expected "{RECORD_FORMAT}"')
    if data["format"] != RECORD_FORMAT:
        raise RecordError(
            f'unsupported record format {data["format"]!r}; expected "{RECORD_FORMAT}"'
        )
    if not isinstance(data.get("game"), str):
        raise RecordError('the record has no "game" field naming the game')
    return data


def require(
    record: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str = ""
) -> Any:
    """The value of ``key``, which must exist and be of ``kind``; else a RecordError."""
    place = f" in {where}" if where else ""
    if key not in record:
        raise RecordError(f'missing field "{key}"{place}')
    value = record[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    ok = False if isinstance(value, bool) and bool not in kinds else isinstance(value, kinds)
    if not ok:
        names = " or ".join(_JSON_NAMES.get(k, k.__name__) for k in kinds)
        raise RecordError(f'field "{key}"{place} must be {names}, not {_json_type(value)}')
    return value


def check_by(part: Mapping[str, Any], actions: Sequence[Any], where: str = "") -> list[str] | None:
    """The optional ``by`` list of a deal (or a record): who made each of its ``actions``.

    Absent (older records, hand-written ones): None, every action a person's.
    Present, it must list one of :data:`ACTORS` per action.

    >>> check_by({"by": ["person", "bot"]}, ["QC", "KC"])
    ['person', 'bot']
    >>> check_by({}, ["QC"]) is None
    True
    >>> check_by({"by": ["robot"]}, ["QC"], "deal 1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kartentisch.errors.RecordError: field "by" in deal 1: entry 1 must be one of person, ...
    """
    if "by" not in part:
        return None
    by = require(part, "by", list, where)
    place = f" in {where}" if where else ""
    if len(by) != len(actions):
        raise RecordError(
            f'field "by"{place} must name who made each of the {len(actions)} actions, '
            f"not {len(by)}"
        )
    for i, value in enumerate(by, start=1):
        if value not in ACTORS:
            raise RecordError(
                f'field "by"{place}: entry {i} must be one of {", ".join(ACTORS)}, not {value!r}'
            )
    return list(by)


def record_options(record: Mapping[str, Any], from_dict: Callable[[dict[str, Any]], T]) -> T:
    """The record's ``options`` object (none: the defaults) read by ``from_dict``.

    An option ``from_dict`` refuses (an :class:`~kartentisch.errors.OptionError`)
    becomes a RecordError.
    """
    raw = record.get("options", {})
    if not isinstance(raw, dict):
        raise RecordError('field "options" must be an object')
    try:
        return from_dict(raw)
    except OptionError as exc:
        raise RecordError(f"options: {exc}") from None


def record_seats(record: Mapping[str, Any], players: int) -> tuple[str, ...] | None:
    """The record's ``seats``, one name per seat; None if it names none."""
    if "seats" not in record:
        return None
    seats = require(record, "seats", list)
    if len(seats) != players or not all(isinstance(s, str) for s in seats):
        raise RecordError(f'field "seats" must list {players} names, one per seat')
    return tuple(seats)


def hands_dealt(deal: Callable[[], D], where: str = "") -> D:
    """``deal()``; hands it refuses (a DealError) are a RecordError, after ``where``."""
    try:
        return deal()
    except DealError as exc:
        raise RecordError(f"{where}hands: {exc}") from None


class _Options(Protocol):
    @property
    def players(self) -> int: ...


def replay_record(
    record: Mapping[str, Any],
    read_options: Callable[[dict[str, Any]], Op],
    new_match: Callable[..., M],
    replay_deal: Callable[[M, int, Mapping[str, Any], tuple[str, ...] | None], None],
    replay_single: Callable[[Mapping[str, Any], Op, tuple[str, ...] | None], D],
) -> D | M:
    """Replay a trick-taking game's record: a single deal, or a match's ``deals``.

    ``read_options`` reads the record's options (see :func:`record_options`);
    the seat names are checked (:func:`record_seats`, None if it names none).
    Without ``deals``, ``replay_single(record, options, seats)`` replays the
    one deal. With them, ``new_match(options, seats=seats, first_dealer=…,
    start=False)`` starts the match with the first deal's dealer (checked to
    be a seat), and ``replay_deal(match, number, deal, seats)`` checks each
    deal (numbered from 1) against the match and plays it.
    """
    options = record_options(record, read_options)
    seats = record_seats(record, options.players)
    if "deals" not in record:
        return replay_single(record, options, seats)
    players = options.players
    deals = require(record, "deals", list)
    if not deals:
        raise RecordError('field "deals" must hold at least one deal')
    if not isinstance(deals[0], dict):
        raise RecordError("deal 1 must be an object")
    first_dealer = require(deals[0], "dealer", int, "deal 1")
    if not 0 <= first_dealer < players:
        raise RecordError(f"deal 1: dealer must be a seat from 0 to {players - 1}")
    match = new_match(options, seats=seats, first_dealer=first_dealer, start=False)
    for number, part in enumerate(deals, start=1):
        if not isinstance(part, dict):
            raise RecordError(f"deal {number} must be an object")
        replay_deal(match, number, part, seats)
    return match


def replay_actions(
    actions: Sequence[Any],
    seat_of: Callable[[str], int | None],
    step: Callable[[str], object],
    *,
    names: Sequence[str] | None,
    deal: int | None,
    expected: str = "written as text",
) -> None:
    """Play a deal's recorded ``actions`` one by one, each with ``step``.

    An action that is not text is a RecordError (it "must be ``expected``").
    A notation error or an action the rules refuse becomes a
    :class:`ReplayError` with the action's position, the seat ``seat_of``
    names for it before it is played, that seat's name from ``names``, and
    ``deal``, the deal's number within a match (None for a single deal).
    """
    where = f"deal {deal}, " if deal else ""
    for i, text in enumerate(actions, start=1):
        if not isinstance(text, str):
            raise RecordError(f"{where}action {i} must be {expected}, not {text!r}")
        seat = seat_of(text)
        name = (
            names[seat]
            if names is not None and seat is not None and 0 <= seat < len(names)
            else None
        )
        try:
            step(text)
        except NotationError as exc:
            raise ReplayError(
                IllegalActionError("bad_notation", str(exc)),
                position=i,
                seat=seat,
                action=text,
                deal=deal,
                seat_name=name,
            ) from None
        except IllegalActionError as exc:
            raise ReplayError(
                exc, position=i, seat=seat, action=text, deal=deal, seat_name=name
            ) from None


_JSON_NAMES = {
    list: "a list",
    dict: "an object",
    str: "a string",
    int: "a whole number",
    bool: "true/false",
}


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    return _JSON_NAMES.get(type(value), type(value).__name__)


def write_record(record: Mapping[str, Any], path: str | Path) -> None:
    """Write a record as readable JSON (one deal's hands and actions per line)."""
    Path(path).write_text(dumps_record(record), encoding="utf-8")


def dumps_record(record: Mapping[str, Any]) -> str:
    """JSON text with short lists kept on one line, so a person can read and edit it."""
    return _dump(record, 0) + "\n"


def _dump(value: Any, indent: int) -> str:
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= 96 or not isinstance(value, dict | list):
        return flat
    pad = "  " * (indent + 1)
    if isinstance(value, dict):
        items = [
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {_dump(v, indent + 1)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if all(isinstance(v, str) and len(v) <= 3 for v in value):
        # Cards: wrap them in rows rather than one per line.
        rows: list[str] = []
        row: list[str] = []
        for word in (json.dumps(v, ensure_ascii=False) for v in value):
            if row and len(pad) + len(", ".join([*row, word])) + 1 > 96:
                rows.append(pad + ", ".join(row))
                row = []
            row.append(word)
        rows.append(pad + ", ".join(row))
        return "[\n" + ",\n".join(rows) + "\n" + "  " * indent + "]"
    items = [pad + _dump(v, indent + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
