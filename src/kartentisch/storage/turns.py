"""Correspondence tables in the database: the moves due, and where to mail them.

A correspondence table (docs/web.md, "Correspondence tables") stores, with each
action, the moves that action made due (``turns``: the table, the seat, its
account, since when, until when), so that any server process can list an
account's "your turn" tables. An account may give an address for mails about
them (off until it says so) and the language they are written in.

>>> from datetime import UTC, datetime
>>> from kartentisch.accounts import account_name
>>> from kartentisch.storage.accounts import AccountStore
>>> tables = TableStore("sqlite://")
>>> tables.migrate()
>>> anna = AccountStore(tables).create(account_name("Anna"), "hash")
>>> turns = TurnStore(tables)
>>> turns.set_mail(anna.id, "anna@example.org", notify=True, lang="de")
>>> turns.mail_settings(anna.id)
MailSettings(email='anna@example.org', notify=True, lang='de')
>>> turns.due(anna.id)
[]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final, cast

from sqlalchemy import Table, select, update

from kartentisch.storage.models import AccountRow, TableRow, TurnRow
from kartentisch.storage.store import TableStore

__all__ = ["DueTurn", "MailSettings", "TurnStore"]

_ACCOUNTS: Final = cast(Table, AccountRow.__table__)
_TABLES: Final = cast(Table, TableRow.__table__)
_TURNS: Final = cast(Table, TurnRow.__table__)

#: The most moves one list shows (a person sits at far fewer tables).
MAX_LISTED: Final = 200


@dataclass(frozen=True, slots=True)
class DueTurn:
    """A move an account owes at a correspondence table."""

    table: str
    seat: int
    game: str
    since: datetime
    deadline: datetime

    def to_json(self) -> dict[str, object]:
        return {
            "table": self.table,
            "url": f"/t/{self.table}",
            "seat": self.seat,
            "game": self.game,
            "since": _ms(self.since),
            "deadline": _ms(self.deadline),
        }


@dataclass(frozen=True, slots=True)
class MailSettings:
    """Where an account's mails go (None: nowhere), whether it wants them, in which
    language."""

    email: str | None
    notify: bool
    lang: str | None

    def to_json(self) -> dict[str, object]:
        return {"email": self.email, "notify": self.notify, "lang": self.lang}


class TurnStore:
    """The moves due and the mail settings, in the database of ``tables``."""

    def __init__(self, tables: TableStore) -> None:
        self.tables = tables

    def due(self, account_id: int) -> list[DueTurn]:
        """The moves ``account_id`` owes at tables still being played, the oldest first."""
        query = (
            select(_TURNS)
            .join(_TABLES, _TABLES.c.id == _TURNS.c.table_id)
            .where(_TURNS.c.account_id == account_id, _TABLES.c.status == "playing")
            .order_by(_TURNS.c.deadline, _TURNS.c.table_id)
            .limit(MAX_LISTED)
        )
        with self.tables.reading() as connection:
            rows = connection.execute(query).all()
        return [
            DueTurn(
                str(row.table_id),
                int(row.seat),
                str(row.game),
                _utc(row.since),
                _utc(row.deadline),
            )
            for row in rows
        ]

    def mail_settings(self, account_id: int) -> MailSettings:
        return self.mail_of([account_id]).get(account_id, MailSettings(None, False, None))

    def mail_of(self, account_ids: Iterable[int]) -> dict[int, MailSettings]:
        """The mail settings of those of ``account_ids`` that exist and are not blocked."""
        wanted = list(account_ids)
        if not wanted:
            return {}
        query = select(
            _ACCOUNTS.c.id, _ACCOUNTS.c.email, _ACCOUNTS.c.notify_email, _ACCOUNTS.c.lang
        ).where(_ACCOUNTS.c.id.in_(wanted), _ACCOUNTS.c.blocked.is_(False))
        with self.tables.reading() as connection:
            rows = connection.execute(query).all()
        return {
            int(row.id): MailSettings(row.email, bool(row.notify_email), row.lang) for row in rows
        }

    def set_mail(self, account_id: int, email: str | None, *, notify: bool, lang: str) -> None:
        """Set where the account's mails go and whether it wants them."""
        with self.tables.transaction() as connection:
            connection.execute(
                update(_ACCOUNTS)
                .where(_ACCOUNTS.c.id == account_id)
                .values(email=email, notify_email=notify and email is not None, lang=lang)
            )


def _utc(moment: datetime) -> datetime:
    # SQLite keeps times without their zone: they are UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _ms(moment: datetime) -> int:
    return round(_utc(moment).timestamp() * 1000)
