"""The table store: create, update and load tables and append their actions.

Works on SQLite (the default, a file in the data directory) and PostgreSQL
(``postgresql+psycopg://…``). The schema is created and upgraded by the
Alembic migrations in ``kartentisch/storage/migrations`` (:func:`migrate`).

>>> store = TableStore("sqlite://")
>>> store.migrate()
>>> store.create_table("t1", "slobberhannes", {"players": 3}, {}, [{"kind": "bot"}] * 3, 7)
>>> store.append_action("t1", 1, 0, "QC")
>>> loaded = store.load("t1")
>>> loaded.seed, loaded.actions
(7, [(0, 'QC')])
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from importlib.resources import files
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, select
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from kartentisch.storage.models import TableActionRow, TableRow, utcnow

__all__ = ["StoredTable", "TableStore", "default_data_dir", "migrate", "sqlite_url"]

#: Statuses of a table that is still going on (restored after a restart).
UNFINISHED = ("waiting", "playing")


def default_data_dir() -> Path:
    """``$KARTENTISCH_DATA``, else ``$XDG_DATA_HOME/kartentisch`` (``~/.local/share``)."""
    if os.environ.get("KARTENTISCH_DATA"):
        return Path(os.environ["KARTENTISCH_DATA"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "kartentisch"


def sqlite_url(data_dir: str | Path) -> str:
    """The URL of the SQLite file in ``data_dir`` (created if missing)."""
    path = Path(data_dir)
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(path / 'kartentisch.sqlite3').resolve()}"


def _alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(files("kartentisch.storage") / "migrations"))
    return config


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the database behind ``engine`` to ``revision`` (Alembic ``upgrade``)."""
    config = _alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


@dataclass
class StoredTable:
    """A table as stored: its setup and its actions as (seat, text) in order."""

    id: str
    game: str
    options: dict[str, Any]
    settings: dict[str, Any]
    seats: list[dict[str, Any]]
    seed: int
    status: str
    created: datetime
    updated: datetime
    actions: list[tuple[int, str]] = field(default_factory=list)


def _normalise_url(url: str) -> str:
    # Plain postgresql:// would ask for psycopg2; this package uses psycopg 3.
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


class TableStore:
    """Tables and actions in one SQL database; every call is its own transaction."""

    def __init__(self, url: str) -> None:
        self.url = _normalise_url(url)
        kwargs: dict[str, Any] = {}
        if self.url in ("sqlite://", "sqlite:///:memory:"):
            # One shared connection, or every session would see its own empty database.
            kwargs = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
        self.engine = create_engine(self.url, **kwargs)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._session = sessionmaker(self.engine, expire_on_commit=False)

    def migrate(self) -> None:
        """Create or upgrade the schema (Alembic ``upgrade head``)."""
        migrate(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def _open(self) -> Session:
        return self._session()

    # -- tables -------------------------------------------------------------

    def create_table(
        self,
        table_id: str,
        game: str,
        options: dict[str, Any],
        settings: dict[str, Any],
        seats: Sequence[dict[str, Any]],
        seed: int,
        status: str = "waiting",
    ) -> None:
        with self._open() as session, session.begin():
            session.add(
                TableRow(
                    id=table_id,
                    game=game,
                    options=dict(options),
                    settings=dict(settings),
                    seats=[dict(s) for s in seats],
                    seed=seed,
                    status=status,
                )
            )

    def update_table(
        self,
        table_id: str,
        *,
        seats: Sequence[dict[str, Any]] | None = None,
        status: str | None = None,
    ) -> None:
        with self._open() as session, session.begin():
            row = session.get(TableRow, table_id)
            if row is None:
                raise KeyError(table_id)
            if seats is not None:
                row.seats = [dict(s) for s in seats]
            if status is not None:
                row.status = status
            row.updated = utcnow()

    def append_action(self, table_id: str, seq: int, seat: int, action: str) -> None:
        """Store action number ``seq`` (1-based); a repeated ``seq`` is refused by the key."""
        with self._open() as session, session.begin():
            session.add(TableActionRow(table_id=table_id, seq=seq, seat=seat, action=action))
            row = session.get(TableRow, table_id)
            if row is not None:
                row.updated = utcnow()

    # -- reading ------------------------------------------------------------

    def load(self, table_id: str) -> StoredTable | None:
        with self._open() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            return self._stored(session, row)

    def unfinished(self) -> list[StoredTable]:
        """Every table still waiting or playing, oldest first, with its actions."""
        with self._open() as session:
            rows = session.scalars(
                select(TableRow).where(TableRow.status.in_(UNFINISHED)).order_by(TableRow.created)
            ).all()
            return [self._stored(session, row) for row in rows]

    def _stored(self, session: Session, row: TableRow) -> StoredTable:
        actions = session.execute(
            select(TableActionRow.seat, TableActionRow.action)
            .where(TableActionRow.table_id == row.id)
            .order_by(TableActionRow.seq)
        ).all()
        return StoredTable(
            id=row.id,
            game=row.game,
            options=dict(row.options),
            settings=dict(row.settings),
            seats=[dict(s) for s in row.seats],
            seed=row.seed,
            status=row.status,
            created=row.created,
            updated=row.updated,
            actions=[(seat, action) for seat, action in actions],
        )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL keeps readers and the writer apart; NORMAL syncs at checkpoints, still crash-safe.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
