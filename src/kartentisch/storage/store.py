"""The table store: create, update and load tables and append their actions.

Works on SQLite (the default, a file in the data directory) and PostgreSQL
(``postgresql+psycopg://…``). The schema is created and upgraded by the
Alembic migrations in ``kartentisch/storage/migrations`` (:func:`migrate`).

>>> store = TableStore("sqlite://")
>>> store.migrate()
>>> store.create_table("t1", "slobberhannes", {"players": 3}, {}, [{"kind": "bot"}] * 3, 7)
>>> store.append_action("t1", 1, 0, "QC")
>>> store.append_action("t1", 2, 1, "KC", by="bot")
>>> loaded = store.load("t1")
>>> loaded.seed, loaded.actions, loaded.by
(7, [(0, 'QC'), (1, 'KC')], ['person', 'bot'])

A waiting table keeps who opened it (``creator``, an opaque key: the web app
gives a keyed hash of their address) until it starts or expires:

>>> from datetime import datetime, timedelta, UTC
>>> store.create_table("t2", "slobberhannes", {}, {}, [{"kind": "open"}] * 3, 8, creator="k")
>>> store.waiting_count("k", since=datetime.now(UTC) - timedelta(hours=1))
1
>>> store.expire_table("t2")
>>> store.load("t2").status, store.waiting_count("k", since=datetime(2000, 1, 1, tzinfo=UTC))
('expired', 0)
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from importlib.resources import files
from pathlib import Path
from typing import Any, Final, cast

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Connection,
    Engine,
    Row,
    Table,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    make_url,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.pool import StaticPool

from kartentisch.records import ACTORS
from kartentisch.storage.models import ServerKeyRow, TableActionRow, TableRow, utcnow
from kartentisch.storage.writer import StoreWriter, Write

__all__ = [
    "StoredTable",
    "TableNotWaiting",
    "TableStore",
    "default_data_dir",
    "migrate",
    "sqlite_url",
]

#: Statuses of a table that is still going on (restored after a restart).
UNFINISHED = ("waiting", "playing")


class TableNotWaiting(KeyError):
    """A waiting table was to expire, but its row no longer waits (or is missing)."""


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


#: Seconds a PostgreSQL connection may take to open before the attempt fails (and is retried).
CONNECT_TIMEOUT: Final = 5


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
    #: Who made each action (parallel to ``actions``): ``person``, ``bot``, ``standin``,
    #: ``timer`` or ``auto``; actions stored before this was kept read as ``person``.
    by: list[str] = field(default_factory=list)


def _normalise_url(url: str) -> str:
    # Plain postgresql:// would ask for psycopg2; this package uses psycopg 3.
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


class TableStore:
    """Tables and actions in one SQL database.

    Writes are SQL Core statements (no ORM session, no reloading of rows),
    made through the store's :class:`StoreWriter`: the blocking methods
    (:meth:`create_table`, :meth:`update_table`, :meth:`append_action`)
    commit at once, the ``save_*`` methods queue the write on the event loop
    and return a future; writes queued in the same turn of the loop share one
    transaction. Either way a write has committed before its caller hears
    that it is done.
    """

    def __init__(self, url: str) -> None:
        self.url = _normalise_url(url)
        kwargs: dict[str, Any] = {}
        memory = self.url in ("sqlite://", "sqlite:///:memory:")
        if memory:
            # One shared connection, or every session would see its own empty database.
            kwargs = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
        else:
            # A pooled connection the database has dropped is replaced when taken, not used.
            kwargs = {"pool_pre_ping": True}
            if (
                self.url.startswith("postgresql")
                and "connect_timeout" not in make_url(self.url).query
            ):
                # Writes run on the event loop: an unreachable server must not hold it for
                # the operating system's TCP timeout (minutes), only this long.
                kwargs["connect_args"] = {"connect_timeout": CONNECT_TIMEOUT}
        self.engine = create_engine(self.url, **kwargs)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        # The one shared in-memory connection must not be used by two threads at once.
        self._guard: contextlib.AbstractContextManager[Any] = (
            _ThreadLock() if memory else contextlib.nullcontext()
        )
        self.writer = StoreWriter(self._apply, transient=_transient)
        #: The writer's connection, kept open between transactions (no pool round trip).
        self._writing: Connection | None = None

    def migrate(self) -> None:
        """Create or upgrade the schema (Alembic ``upgrade head``)."""
        with self._guard:
            migrate(self.engine)

    def close(self) -> None:
        """Commit the queued writes, stop the writer, close the connections."""
        self.writer.close()
        with self._guard:
            if self._writing is not None:
                self._writing.close()
                self._writing = None
        self.engine.dispose()

    # -- writing: blocking -----------------------------------------------------

    def create_table(
        self,
        table_id: str,
        game: str,
        options: dict[str, Any],
        settings: dict[str, Any],
        seats: Sequence[dict[str, Any]],
        seed: int,
        status: str = "waiting",
        *,
        creator: str | None = None,
    ) -> None:
        """Store a new table; ``creator`` (while it waits): who opened it, as an opaque key."""
        self.writer.run(_create(table_id, game, options, settings, seats, seed, status, creator))

    def update_table(
        self,
        table_id: str,
        *,
        seats: Sequence[dict[str, Any]] | None = None,
        status: str | None = None,
    ) -> None:
        """Change a table's seats or status; KeyError if there is no such table.

        A status other than ``waiting`` forgets the table's ``creator``.
        """
        self.writer.run(_update(table_id, seats, status))

    def expire_table(self, table_id: str) -> None:
        """Mark a waiting table ``expired`` (its row is kept, its ``creator`` forgotten);
        :class:`TableNotWaiting` if its row does not wait (any more)."""
        self.writer.run(Write("expire", table_id, {}))

    def append_action(
        self,
        table_id: str,
        seq: int,
        seat: int,
        action: str,
        *,
        status: str | None = None,
        by: str = "person",
    ) -> None:
        """Store action number ``seq`` (1-based); a repeated ``seq`` is refused by the key.

        ``status`` (``finished`` after the last action) is set in the same transaction;
        ``by`` says who made the action (:data:`kartentisch.records.ACTORS`).
        """
        self.writer.run(_action(table_id, seq, seat, action, status, by))

    # -- writing: on an event loop -------------------------------------------------

    # The ``save_*`` methods queue the write at once (so writes are stored in
    # the order they are called) and return a future that is done when it
    # has committed, or raises what :meth:`create_table`, :meth:`update_table`
    # or :meth:`append_action` would raise. Call them on an event loop.

    def save_table(
        self,
        table_id: str,
        game: str,
        options: dict[str, Any],
        settings: dict[str, Any],
        seats: Sequence[dict[str, Any]],
        seed: int,
        status: str = "waiting",
        *,
        creator: str | None = None,
    ) -> asyncio.Future[None]:
        """:meth:`create_table` without blocking."""
        write = _create(table_id, game, options, settings, seats, seed, status, creator)
        return self.writer.submit(write)

    def save_update(
        self,
        table_id: str,
        *,
        seats: Sequence[dict[str, Any]] | None = None,
        status: str | None = None,
    ) -> asyncio.Future[None]:
        """:meth:`update_table` without blocking."""
        return self.writer.submit(_update(table_id, seats, status))

    def save_expired(self, table_id: str) -> asyncio.Future[None]:
        """:meth:`expire_table` without blocking."""
        return self.writer.submit(Write("expire", table_id, {}))

    def save_action(
        self,
        table_id: str,
        seq: int,
        seat: int,
        action: str,
        *,
        status: str | None = None,
        by: str = "person",
    ) -> asyncio.Future[None]:
        """:meth:`append_action` without blocking."""
        return self.writer.submit(_action(table_id, seq, seat, action, status, by))

    def _apply(self, writes: Sequence[Write]) -> None:
        """Apply ``writes`` in one transaction (the writer calls this)."""
        now = utcnow()
        new_tables: list[dict[str, Any]] = []
        actions: list[dict[str, Any]] = []
        #: Per table: the columns to set, later writes overriding earlier ones.
        changes: dict[str, dict[str, Any]] = {}
        checked: set[str] = set()
        expiring: list[str] = []
        for write in writes:
            if write.kind == "expire":
                expiring.append(write.table_id)
            elif write.kind == "create":
                new_tables.append({**write.values, "id": write.table_id, "created": now})
            elif write.kind == "action":
                actions.append({**write.values, "table_id": write.table_id, "created": now})
                changes.setdefault(write.table_id, {}).update(write.table_values)
            else:
                changes.setdefault(write.table_id, {}).update(write.values)
                checked.add(write.table_id)
        with self._guard:
            connection = self._writing
            if connection is None:
                connection = self._writing = self.engine.connect()
            try:
                with connection.begin():
                    self._execute(connection, now, new_tables, actions, changes, checked)
                    for table_id in expiring:
                        result = connection.execute(_EXPIRE_TABLE, {"key": table_id, "now": now})
                        if result.rowcount == 0:
                            raise TableNotWaiting(table_id)
            except BaseException:
                # The connection may be broken: the next transaction opens a new one.
                self._writing = None
                with contextlib.suppress(Exception):
                    connection.close()
                raise

    @staticmethod
    def _execute(
        connection: Connection,
        now: datetime,
        new_tables: list[dict[str, Any]],
        actions: list[dict[str, Any]],
        changes: dict[str, dict[str, Any]],
        checked: set[str],
    ) -> None:
        if new_tables:
            connection.execute(_INSERT_TABLE, [{**row, "updated": now} for row in new_tables])
        if actions:
            connection.execute(_INSERT_ACTION, actions)
        # Most rows only have ``updated`` bumped: one statement for all of them.
        touched = [
            {"key": tid, "now": now}
            for tid, cols in changes.items()
            if not cols and tid not in checked
        ]
        if touched:
            connection.execute(_TOUCH_TABLE, touched)
        for tid, cols in changes.items():
            if not cols and tid not in checked:
                continue
            result = connection.execute(
                update(_TABLES).where(_TABLES.c.id == tid).values(**cols, updated=now)
            )
            if tid in checked and result.rowcount == 0:
                raise KeyError(tid)

    # -- reading ------------------------------------------------------------

    def load(self, table_id: str) -> StoredTable | None:
        with self._guard, self.engine.connect() as connection:
            row = connection.execute(select(_TABLES).where(_TABLES.c.id == table_id)).first()
            if row is None:
                return None
            return self._stored(connection, row)

    def waiting_count(self, creator: str, *, since: datetime) -> int:
        """How many tables ``creator`` opened that wait for players, created at ``since``
        or later (older ones are overdue: about to expire, not counted)."""
        with self._guard, self.engine.connect() as connection:
            count = connection.execute(
                select(func.count())
                .select_from(_TABLES)
                .where(
                    _TABLES.c.creator == creator,
                    _TABLES.c.status == "waiting",
                    _TABLES.c.created >= since,
                )
            ).scalar_one()
            return int(count)

    def address_secret(self) -> bytes:
        """The key of the address hashes (``tables.creator``): made at first use, then
        the same for every process on this database."""
        table = cast(Table, ServerKeyRow.__table__)
        query = select(table.c.value).where(table.c.name == "address")
        with self._guard:
            with self.engine.connect() as connection:
                value = connection.execute(query).scalar()
            if value is None:
                try:
                    with self.engine.begin() as connection:
                        made = secrets.token_hex(32)
                        connection.execute(insert(table).values(name="address", value=made))
                except IntegrityError:
                    pass  # another process made it first: theirs is the one
                with self.engine.connect() as connection:
                    value = connection.execute(query).scalar_one()
        return bytes.fromhex(str(value))

    def unfinished(self) -> list[StoredTable]:
        """Every table still waiting or playing, oldest first, with its actions."""
        with self._guard, self.engine.connect() as connection:
            rows = connection.execute(
                select(_TABLES).where(_TABLES.c.status.in_(UNFINISHED)).order_by(_TABLES.c.created)
            ).all()
            return [self._stored(connection, row) for row in rows]

    def _stored(self, connection: Connection, row: Row[Any]) -> StoredTable:
        actions = connection.execute(
            select(TableActionRow.seat, TableActionRow.action, TableActionRow.made_by)
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
            actions=[(seat, action) for seat, action, _ in actions],
            by=[by or "person" for _, _, by in actions],
        )


_TABLES: Final = cast(Table, TableRow.__table__)
_ACTIONS: Final = cast(Table, TableActionRow.__table__)
_INSERT_TABLE: Final = insert(_TABLES)
_INSERT_ACTION: Final = insert(_ACTIONS)
_TOUCH_TABLE: Final = (
    update(_TABLES).where(_TABLES.c.id == bindparam("key")).values(updated=bindparam("now"))
)
_EXPIRE_TABLE: Final = (
    update(_TABLES)
    .where(_TABLES.c.id == bindparam("key"), _TABLES.c.status == "waiting")
    .values(status="expired", creator=None, updated=bindparam("now"))
)


def _create(
    table_id: str,
    game: str,
    options: dict[str, Any],
    settings: dict[str, Any],
    seats: Sequence[dict[str, Any]],
    seed: int,
    status: str,
    creator: str | None,
) -> Write:
    values = {
        "game": game,
        "options": dict(options),
        "settings": dict(settings),
        "seats": [dict(s) for s in seats],
        "seed": seed,
        "status": status,
        "creator": creator if status == "waiting" else None,
    }
    return Write("create", table_id, values)


def _update(table_id: str, seats: Sequence[dict[str, Any]] | None, status: str | None) -> Write:
    values: dict[str, Any] = {}
    if seats is not None:
        values["seats"] = [dict(s) for s in seats]
    if status is not None:
        values["status"] = status
        if status != "waiting":
            values["creator"] = None  # only a waiting table's creator is counted
    return Write("update", table_id, values)


def _action(table_id: str, seq: int, seat: int, action: str, status: str | None, by: str) -> Write:
    if by not in ACTORS:
        raise ValueError(f"who made an action must be one of {', '.join(ACTORS)}, not {by!r}")
    table_values = {"status": status} if status is not None else {}
    values = {"seq": seq, "seat": seat, "action": action, "made_by": by}
    return Write("action", table_id, values, table_values)


def _transient(error: BaseException) -> bool:
    """Whether a failed transaction may succeed if tried again on a fresh connection.

    A lost connection (the database restarted, a network cut, a terminated
    backend) or another operational error (SQLite: the database is locked);
    not a write that is itself wrong (a taken key, a missing table).
    """
    if isinstance(error, OperationalError):
        return True
    return isinstance(error, DBAPIError) and error.connection_invalidated


class _ThreadLock:
    """A re-entrant lock as a context manager."""

    def __init__(self) -> None:
        self._lock = threading.RLock()

    def __enter__(self) -> None:
        self._lock.acquire()

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL keeps readers and the writer apart; NORMAL syncs at checkpoints, still crash-safe.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
