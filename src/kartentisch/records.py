"""Portable JSON game records: reading, checking and replaying them.

The format is documented in docs/records.md. Reading never trusts the input:
any problem becomes a :class:`~kartentisch.errors.RecordError` (malformed) or
a :class:`ReplayError` (an action the rules refuse, with its position).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kartentisch.engine import RECORD_FORMAT
from kartentisch.errors import IllegalActionError, KartentischError, RecordError

__all__ = ["ReplayError", "check_record", "load_record", "loads_record", "require", "write_record"]

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
