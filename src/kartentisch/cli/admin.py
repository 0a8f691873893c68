"""``kartentisch admin``: look into a server's stored tables without starting it.

* ``admin tables`` lists every stored table (id, game, status); with
  ``--set-aside`` only those the server sets aside because they cannot be read
  or replayed, with the reason (docs/deploy.md, "Tables set aside").
* ``admin export ID`` prints a table's rows as the database holds them, as
  JSON, whether or not they can be read.

Both read the database only (``--db URL`` or the SQLite file in
``--data-dir``); a missing SQLite file is refused, never created.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kartentisch.errors import KartentischError
from kartentisch.storage import (
    MissingDatabase,
    TableStore,
    UnreadableTable,
    check_database,
    default_data_dir,
    sqlite_url,
)
from kartentisch.storage.store import sqlite_path

__all__ = ["TableCheck", "add_admin_parser", "check_tables"]


@dataclass
class TableCheck:
    """One stored table: whether the server can read and replay it, and why not."""

    id: str
    game: str
    status: str
    #: Why it is set aside; None if it can be read and replayed.
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "status": self.status,
            "set_aside": self.reason is not None,
            "reason": self.reason,
        }


def check_tables(store: TableStore) -> list[TableCheck]:
    """Read and replay every stored table, oldest first, as the server would."""
    from kartentisch.web.tables import rebuild

    checks: list[TableCheck] = []
    for table_id, game, status in store.table_ids():
        check = TableCheck(table_id, game, status)
        try:
            stored = store.load(table_id)
            if stored is not None:
                rebuild(stored)
        except UnreadableTable as exc:
            check.reason = exc.reason
        checks.append(check)
    return checks


def add_admin_parser(commands: Any) -> None:
    admin = commands.add_parser(
        "admin",
        help="look into the stored tables of a server (without starting it)",
        description="Read a server's database: list its tables, find those set aside, "
        "export one's rows.",
    )
    actions = admin.add_subparsers(dest="admin_command", required=True, metavar="ACTION")

    tables = actions.add_parser("tables", help="list the stored tables")
    tables.add_argument(
        "--set-aside",
        action="store_true",
        help="only the tables that cannot be read or replayed, with the reason",
    )
    tables.add_argument("--json", action="store_true", help="print one JSON object")
    _database_arguments(tables)
    tables.set_defaults(func=cmd_tables)

    export = actions.add_parser("export", help="print a table's stored rows as JSON")
    export.add_argument("table_id", metavar="ID", help="the table's id")
    _database_arguments(export)
    export.set_defaults(func=cmd_export)


def _database_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", metavar="URL", default=None, help="the server's database URL")
    where.add_argument(
        "--data-dir",
        metavar="DIR",
        default=None,
        help="the SQLite file's folder (default $KARTENTISCH_DATA or ~/.local/share/kartentisch)",
    )


def _open(args: argparse.Namespace) -> TableStore:
    if args.db is None:
        folder = Path(args.data_dir or default_data_dir())
        if not folder.is_dir():  # (sqlite_url would make it)
            raise MissingDatabase(f"there is no data directory {folder}")
    url = args.db or sqlite_url(args.data_dir or default_data_dir())
    check_database(url)
    path = sqlite_path(url)
    if path is not None and (not path.exists() or path.stat().st_size == 0):
        raise MissingDatabase(f"there is no database at {path}")
    return TableStore(url)


def cmd_tables(args: argparse.Namespace) -> int:
    store = _open(args)
    try:
        checks = check_tables(store)
    finally:
        store.close()
    if args.set_aside:
        checks = [c for c in checks if c.reason is not None]
    if args.json:
        print(json.dumps({"tables": [c.to_json() for c in checks]}, ensure_ascii=False))
        return 0
    for check in checks:
        status = "set aside" if check.reason is not None else check.status
        line = f"{check.id}\t{check.game}\t{status}"
        print(line if check.reason is None else f"{line}\t{check.reason}")
    if not checks and args.set_aside:
        print("no table is set aside", file=sys.stderr)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    store = _open(args)
    try:
        rows = store.raw(args.table_id)
    finally:
        store.close()
    if rows is None:
        raise KartentischError(f"there is no table {args.table_id!r}")
    print(json.dumps(rows, ensure_ascii=False, indent=2))
    return 0
