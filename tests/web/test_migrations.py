"""The schema's migrations: from the schema before accounts to now and back, data kept.

Both on SQLite and on PostgreSQL (skipped without one, except under ``CI=true``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from kartentisch.accounts import account_name
from kartentisch.storage import TableStore, sqlite_url
from kartentisch.storage.accounts import AccountStore
from kartentisch.storage.database import downgrade, migrate
from kartentisch.storage.turns import MailSettings, TurnStore

from .test_storage import postgres_schema

BEFORE_ACCOUNTS = "0003_waiting"


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield sqlite_url(tmp_path)
    else:
        with postgres_schema() as pg:
            yield pg


def _tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_upgrading_keeps_the_tables_played_before(url: str) -> None:
    engine = create_engine(url)
    migrate(engine, BEFORE_ACCOUNTS)
    engine.dispose()
    assert "accounts" not in _tables(url)
    old = TableStore(url)
    try:
        old.create_table("t1", "slobberhannes", {}, {}, [{"kind": "bot", "name": "Bot"}] * 3, 7)
        old.append_action("t1", 1, 0, "QC")
        old.migrate()  # to head
        assert {"accounts", "account_sessions", "table_seats"} <= _tables(url)
        kept = old.load("t1")
        assert kept is not None and kept.actions == [(0, "QC")] and kept.seed == 7
        accounts = AccountStore(old)
        anna = accounts.create(account_name("Anna"), "hash")
        assert accounts.seat("t1", 0, anna.id)
        assert accounts.seats_of(anna.id) == [("t1", 0)]
    finally:
        old.close()


def test_downgrading_drops_the_accounts_and_keeps_the_tables(url: str) -> None:
    store = TableStore(url)
    try:
        store.migrate()
        store.create_table("t1", "slobberhannes", {}, {}, [{"kind": "bot", "name": "Bot"}] * 3, 7)
        store.append_action("t1", 1, 0, "QC")
        AccountStore(store).create(account_name("Anna"), "hash")
        downgrade(store.engine, BEFORE_ACCOUNTS)
        assert not {"accounts", "account_sessions", "table_seats"} & _tables(url)
        kept = store.load("t1")
        assert kept is not None and kept.actions == [(0, "QC")]
        with store.engine.connect() as connection:
            version = connection.execute(text("select version_num from alembic_version")).scalar()
        assert version == BEFORE_ACCOUNTS
        store.migrate()  # and up again
        assert "accounts" in _tables(url)
        assert AccountStore(store).count() == 0
    finally:
        store.close()


def test_correspondence_up_from_ratings_and_down_again(url: str) -> None:
    """0006 adds the moves due and the mail settings; accounts and tables are kept both
    ways."""
    engine = create_engine(url)
    migrate(engine, "0005_ratings")
    engine.dispose()
    store = TableStore(url)
    try:
        store.create_table("t1", "doppelkopf", {}, {"move_seconds": 3600}, [], 7)
        with store.engine.begin() as connection:  # (an account as 0005 stored it)
            connection.execute(
                text(
                    "insert into accounts (name, name_key, skeleton, password_hash, blocked, "
                    "created) values ('Anna', 'anna', 'anna', 'hash', false, '2026-12-01')"
                )
            )
        store.migrate()  # to head
        anna = AccountStore(store).named("anna")
        assert "turns" in _tables(url)
        turns = TurnStore(store)
        assert turns.mail_settings(anna.id) == MailSettings(None, False, None)
        turns.set_mail(anna.id, "anna@example.org", notify=True, lang="ru")
        assert turns.mail_settings(anna.id) == MailSettings("anna@example.org", True, "ru")
        downgrade(store.engine, "0005_ratings")
        assert "turns" not in _tables(url)
        assert AccountStore(store).named("anna").id == anna.id
        kept = store.load("t1")
        assert kept is not None and kept.settings == {"move_seconds": 3600}
    finally:
        store.close()
