"""The account store: accounts, their logins and the seats they took, beside the tables.

It shares the table store's database (and its migrations: ``0004_accounts``).
Every method is blocking; the web app calls them off the event loop.

>>> from kartentisch.accounts import account_name
>>> tables = TableStore("sqlite://")
>>> tables.migrate()
>>> accounts = AccountStore(tables)
>>> paul = accounts.create(account_name("Paul"), "hash")
>>> accounts.create(account_name("PAUL"), "hash")
Traceback (most recent call last):
...
kartentisch.storage.accounts.NameTaken: the name is taken: Paul
>>> accounts.create(account_name("Pаul"), "hash")  # a Cyrillic а
Traceback (most recent call last):
...
kartentisch.storage.accounts.NameTaken: the name looks like: Paul
>>> token = accounts.open_session(paul.id)
>>> accounts.session_account(token).name
'Paul'
>>> accounts.close_session(token)
>>> accounts.session_account(token) is None
True
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, cast

from sqlalchemy import Table, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from kartentisch.accounts import AccountName
from kartentisch.errors import KartentischError
from kartentisch.storage.models import (
    AccountRow,
    AccountSessionRow,
    ChatReportRow,
    TableRow,
    TableSeatRow,
)
from kartentisch.storage.store import TableStore

__all__ = [
    "DELETED_NAME",
    "Account",
    "AccountStore",
    "NameTaken",
    "SeatedAt",
    "UnknownAccount",
    "session_id",
]

_ACCOUNTS: Final = cast(Table, AccountRow.__table__)
_SESSIONS: Final = cast(Table, AccountSessionRow.__table__)
_SEATS: Final = cast(Table, TableSeatRow.__table__)
_TABLES: Final = cast(Table, TableRow.__table__)
_REPORTS: Final = cast(Table, ChatReportRow.__table__)

#: The name a deleted account's seats are given in the stored tables (records, replays).
DELETED_NAME: Final = "—"


class NameTaken(KartentischError):
    """The name, or one that looks like it (``code`` ``name_confusable``), is an account's."""

    def __init__(self, code: str, other: str) -> None:
        what = "the name is taken" if code == "name_taken" else "the name looks like"
        super().__init__(f"{what}: {other}")
        self.code = code
        self.other = other


class UnknownAccount(KartentischError):
    """No account has this name."""


class SeatedAt(KartentischError):
    """The account sits at tables still being played (it cannot be deleted now)."""

    def __init__(self, tables: Sequence[str]) -> None:
        super().__init__("the account sits at tables still being played: " + ", ".join(tables))
        self.tables = list(tables)


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    blocked: bool
    created: datetime

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name}


def session_id(token: str) -> str:
    """The stored form of a session cookie's secret (its SHA-256)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _account(row: Any) -> Account:
    return Account(int(row.id), str(row.name), bool(row.blocked), row.created)


_COLUMNS: Final = (_ACCOUNTS.c.id, _ACCOUNTS.c.name, _ACCOUNTS.c.blocked, _ACCOUNTS.c.created)


class AccountStore:
    """Accounts in the database of ``tables``."""

    def __init__(self, tables: TableStore) -> None:
        self.tables = tables

    # -- accounts --------------------------------------------------------------------

    def create(self, name: AccountName, password_hash: str) -> Account:
        """A new account; :class:`NameTaken` if its name or its skeleton is another's."""
        self._check_free(name)
        try:
            with self.tables.transaction() as connection:
                new = connection.execute(
                    insert(_ACCOUNTS)
                    .values(
                        name=name.display,
                        name_key=name.key,
                        skeleton=name.skeleton,
                        password_hash=password_hash,
                        blocked=False,
                    )
                    .returning(*_COLUMNS)
                ).one()
        except IntegrityError:  # signed up at the same moment by another request
            self._check_free(name)
            raise
        return _account(new)

    def _check_free(self, name: AccountName) -> None:
        query = select(_ACCOUNTS.c.name, _ACCOUNTS.c.name_key).where(
            (_ACCOUNTS.c.name_key == name.key) | (_ACCOUNTS.c.skeleton == name.skeleton)
        )
        with self.tables.reading() as connection:
            row = connection.execute(query).first()
        if row is not None:
            code = "name_taken" if row.name_key == name.key else "name_confusable"
            raise NameTaken(code, str(row.name))

    def find(self, key: str) -> tuple[Account, str] | None:
        """The account whose case-folded name is ``key``, with its password hash."""
        query = select(*_COLUMNS, _ACCOUNTS.c.password_hash).where(_ACCOUNTS.c.name_key == key)
        with self.tables.reading() as connection:
            row = connection.execute(query).first()
        return None if row is None else (_account(row), str(row.password_hash))

    def get(self, account_id: int) -> Account | None:
        with self.tables.reading() as connection:
            row = connection.execute(select(*_COLUMNS).where(_ACCOUNTS.c.id == account_id)).first()
        return None if row is None else _account(row)

    def password_hash(self, account_id: int) -> str | None:
        query = select(_ACCOUNTS.c.password_hash).where(_ACCOUNTS.c.id == account_id)
        with self.tables.reading() as connection:
            value = connection.execute(query).scalar()
        return None if value is None else str(value)

    def set_password(self, account_id: int, password_hash: str) -> None:
        with self.tables.transaction() as connection:
            connection.execute(
                update(_ACCOUNTS)
                .where(_ACCOUNTS.c.id == account_id)
                .values(password_hash=password_hash)
            )

    def all(self) -> list[Account]:
        """Every account, by name."""
        with self.tables.reading() as connection:
            rows = connection.execute(select(*_COLUMNS).order_by(_ACCOUNTS.c.name_key)).all()
        return [_account(r) for r in rows]

    def named(self, name: str) -> Account:
        """The account called ``name`` (case-insensitively); :class:`UnknownAccount`."""
        from kartentisch.accounts.names import account_name

        try:
            key = account_name(name).key
        except KartentischError:
            key = name.casefold()
        found = self.find(key)
        if found is None:
            raise UnknownAccount(f"no account is called {name!r}")
        return found[0]

    def block(self, account_id: int, blocked: bool = True) -> None:
        """Block (or unblock) an account; a blocked one's logins end at once."""
        with self.tables.transaction() as connection:
            connection.execute(
                update(_ACCOUNTS).where(_ACCOUNTS.c.id == account_id).values(blocked=blocked)
            )
            if blocked:
                connection.execute(delete(_SESSIONS).where(_SESSIONS.c.account_id == account_id))

    def delete(self, account_id: int) -> int:
        """Delete an account: its seats in stored tables keep their games, named
        :data:`DELETED_NAME`; the number of tables anonymised. :class:`SeatedAt` if
        it sits at a table still being played (the server would write its name back)."""
        with self.tables.transaction() as connection:
            rows = connection.execute(
                select(_TABLES.c.id, _TABLES.c.status, _TABLES.c.seats, _SEATS.c.seat)
                .join(_SEATS, _SEATS.c.table_id == _TABLES.c.id)
                .where(_SEATS.c.account_id == account_id)
            ).all()
            unfinished = sorted({str(r.id) for r in rows if r.status in ("waiting", "playing")})
            if unfinished:
                raise SeatedAt(unfinished)
            seats_of: dict[str, tuple[list[dict[str, Any]], set[int]]] = {}
            for row in rows:
                seats, taken = seats_of.setdefault(str(row.id), (list(row.seats), set()))
                taken.add(int(row.seat))
            for table_id, (seats, taken) in seats_of.items():
                anonymous = [
                    {**seat, "name": DELETED_NAME} if number in taken else seat
                    for number, seat in enumerate(seats)
                ]
                connection.execute(
                    update(_TABLES).where(_TABLES.c.id == table_id).values(seats=anonymous)
                )
            connection.execute(delete(_SEATS).where(_SEATS.c.account_id == account_id))
            connection.execute(delete(_SESSIONS).where(_SESSIONS.c.account_id == account_id))
            connection.execute(delete(_ACCOUNTS).where(_ACCOUNTS.c.id == account_id))
        return len(seats_of)

    # -- logins ------------------------------------------------------------------------

    def open_session(self, account_id: int) -> str:
        """A new login of the account: the secret its cookie carries."""
        token = secrets.token_urlsafe(32)
        with self.tables.transaction() as connection:
            connection.execute(
                insert(_SESSIONS).values(id=session_id(token), account_id=account_id)
            )
        return token

    def session_account(self, token: str) -> Account | None:
        """The account logged in with ``token``; None if unknown, ended or blocked."""
        query = (
            select(*_COLUMNS)
            .join(_SESSIONS, _SESSIONS.c.account_id == _ACCOUNTS.c.id)
            .where(_SESSIONS.c.id == session_id(token), _ACCOUNTS.c.blocked.is_(False))
        )
        with self.tables.reading() as connection:
            row = connection.execute(query).first()
        return None if row is None else _account(row)

    def close_session(self, token: str) -> None:
        with self.tables.transaction() as connection:
            connection.execute(delete(_SESSIONS).where(_SESSIONS.c.id == session_id(token)))

    def close_other_sessions(self, account_id: int, keep: str | None) -> None:
        """End every login of the account but ``keep`` (after a password change)."""
        condition = _SESSIONS.c.account_id == account_id
        if keep is not None:
            condition = condition & (_SESSIONS.c.id != session_id(keep))
        with self.tables.transaction() as connection:
            connection.execute(delete(_SESSIONS).where(condition))

    # -- seats -------------------------------------------------------------------------

    def seat(self, table_id: str, seat: int, account_id: int) -> bool:
        """Record that the account sits at ``seat`` of the table; False if the seat is
        already an account's."""
        try:
            with self.tables.transaction() as connection:
                connection.execute(
                    insert(_SEATS).values(table_id=table_id, seat=seat, account_id=account_id)
                )
        except IntegrityError:
            return False
        return True

    def accounts_at(self, table_id: str) -> dict[int, int]:
        """Seat → account of the accounts seated at the table (also claimed seats)."""
        query = select(_SEATS.c.seat, _SEATS.c.account_id).where(_SEATS.c.table_id == table_id)
        with self.tables.reading() as connection:
            return {int(r.seat): int(r.account_id) for r in connection.execute(query).all()}

    def seats_of(self, account_id: int) -> list[tuple[str, int]]:
        """(table id, seat) of every table the account sat at, newest first."""
        query = (
            select(_SEATS.c.table_id, _SEATS.c.seat)
            .join(_TABLES, _TABLES.c.id == _SEATS.c.table_id)
            .where(_SEATS.c.account_id == account_id)
            .order_by(_TABLES.c.created.desc(), _TABLES.c.id)
        )
        with self.tables.reading() as connection:
            rows = connection.execute(query).all()
        return [(str(row.table_id), int(row.seat)) for row in rows]

    def count(self) -> int:
        with self.tables.reading() as connection:
            return int(connection.execute(select(func.count()).select_from(_ACCOUNTS)).scalar_one())

    # -- chat reports --------------------------------------------------------------------

    def report_chat(
        self,
        table_id: str,
        said: dict[str, Any],
        author_account: int | None,
        reporter_seat: int | None,
    ) -> None:
        """Keep a reported chat message (``said`` as the table sent it) for the admin."""
        with self.tables.transaction() as connection:
            connection.execute(
                insert(_REPORTS).values(
                    table_id=table_id,
                    message_id=int(said["id"]),
                    author=said.get("from")
                    or (None if said.get("spectator") is None else f"#{said['spectator']}"),
                    author_seat=said.get("seat"),
                    author_account=author_account,
                    text=said.get("text"),
                    phrase=said.get("phrase"),
                    reporter_seat=reporter_seat,
                )
            )

    def reports(self) -> list[dict[str, Any]]:
        """Every reported chat message, the newest first."""
        with self.tables.reading() as connection:
            rows = connection.execute(select(_REPORTS).order_by(_REPORTS.c.id.desc())).all()
        return [dict(row._mapping) for row in rows]
