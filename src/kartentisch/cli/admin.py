"""``kartentisch admin``: look into a server's stored tables without starting it.

* ``admin tables`` lists every stored table (id, game, status); with
  ``--set-aside`` only those the server sets aside because they cannot be read
  or replayed, with the reason (docs/deploy.md, "Tables set aside").
* ``admin export ID`` prints a table's rows as the database holds them, as
  JSON, whether or not they can be read.

Both read the database only (``--db URL`` or the SQLite file in
``--data-dir``); a missing SQLite file is refused, never created.

Accounts (docs/security.md, "Accounts"):

* ``admin accounts`` lists every account (id, name, blocked or not, created).
* ``admin block NAME`` / ``admin unblock NAME``: a blocked account cannot log
  in; its logins end at once.
* ``admin reports``: the chat messages people reported (table, author, words).
* ``admin delete NAME``: the account is deleted; its seats in the stored tables
  keep their games under the name ``—``. An account seated at a table still
  being played is not deleted (the command names those tables).
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
from kartentisch.storage.accounts import AccountStore
from kartentisch.storage.database import sqlite_path

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
    from kartentisch.web.manager import rebuild

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

    accounts = actions.add_parser("accounts", help="list the accounts")
    accounts.add_argument("--json", action="store_true", help="print one JSON object")
    _database_arguments(accounts)
    accounts.set_defaults(func=cmd_accounts)
    reports = actions.add_parser("reports", help="list the chat messages people reported")
    reports.add_argument("--json", action="store_true", help="print one JSON object")
    _database_arguments(reports)
    reports.set_defaults(func=cmd_reports)
    for name, helptext, func in (
        ("block", "block an account: it cannot log in, its logins end", cmd_block),
        ("unblock", "let a blocked account log in again", cmd_unblock),
        ("delete", "delete an account; its games stay, without its name", cmd_delete),
    ):
        sub = actions.add_parser(name, help=helptext)
        sub.add_argument("name", metavar="NAME", help="the account's name (any case)")
        _database_arguments(sub)
        sub.set_defaults(func=func)


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


def _accounts(args: argparse.Namespace) -> tuple[TableStore, AccountStore]:
    store = _open(args)
    from sqlalchemy import inspect

    if "accounts" not in inspect(store.engine).get_table_names():
        store.close()
        raise KartentischError(
            "this database has no accounts yet: start the server once on it "
            "(kartentisch serve upgrades its schema)"
        )
    return store, AccountStore(store)


def cmd_accounts(args: argparse.Namespace) -> int:
    store, accounts = _accounts(args)
    try:
        found = accounts.all()
    finally:
        store.close()
    if args.json:
        rows = [
            {"id": a.id, "name": a.name, "blocked": a.blocked, "created": a.created.isoformat()}
            for a in found
        ]
        print(json.dumps({"accounts": rows}, ensure_ascii=False))
        return 0
    for account in found:
        state = "blocked" if account.blocked else "active"
        print(f"{account.id}\t{account.name}\t{state}\t{account.created:%Y-%m-%d %H:%M}")
    if not found:
        print("no accounts", file=sys.stderr)
    return 0


def _set_blocked(args: argparse.Namespace, blocked: bool) -> int:
    store, accounts = _accounts(args)
    try:
        account = accounts.named(args.name)
        accounts.block(account.id, blocked)
    finally:
        store.close()
    print(f"{account.name}: {'blocked' if blocked else 'unblocked'}")
    return 0


def cmd_block(args: argparse.Namespace) -> int:
    return _set_blocked(args, True)


def cmd_unblock(args: argparse.Namespace) -> int:
    return _set_blocked(args, False)


def cmd_delete(args: argparse.Namespace) -> int:
    store, accounts = _accounts(args)
    try:
        account = accounts.named(args.name)
        tables = accounts.delete(account.id)
    finally:
        store.close()
    print(f"{account.name}: deleted; {tables} stored table(s) keep the games without the name")
    return 0


def cmd_reports(args: argparse.Namespace) -> int:
    store, accounts = _accounts(args)
    try:
        found = accounts.reports()
    finally:
        store.close()
    if args.json:
        rows = [{**r, "created": r["created"].isoformat()} for r in found]
        print(json.dumps({"reports": rows}, ensure_ascii=False))
        return 0
    for r in found:
        words = r["text"] if r["text"] is not None else f"[{r['phrase']}]"
        print(f"{r['created']:%Y-%m-%d %H:%M}\t{r['table_id']}\t{r['author']}\t{words}")
    if not found:
        print("no reports", file=sys.stderr)
    return 0
