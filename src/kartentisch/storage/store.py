"""The table store: create, update and load tables and append their actions.

Works on SQLite (the default, a file in the data directory) and PostgreSQL
(``postgresql+psycopg://…``): where the database is, its schema and its engine
are :mod:`kartentisch.storage.database`'s.

>>> store = TableStore("sqlite://")
>>> store.migrate()
>>> store.create_table("t1", "slobberhannes", {"players": 3}, {}, [{"kind": "bot"}] * 3, 7)
>>> store.append_action("t1", 1, 0, "QC")
>>> store.append_action("t1", 2, 1, "KC", by="bot")
>>> loaded = store.load("t1")
>>> loaded.seed, loaded.actions, loaded.by
(7, [(0, 'QC'), (1, 'KC')], ['person', 'bot'])

A waiting table keeps who opened it (``creator``, an opaque key: the web app
gives a keyed hash of their address) until it starts or expires; a table that
starts before any person has come to it (``unseen``) keeps it too, and counts
as waiting, until a person comes (:meth:`TableStore.seen_table`):

>>> from datetime import datetime, timedelta, UTC
>>> store.create_table("t2", "slobberhannes", {}, {}, [{"kind": "open"}] * 3, 8, creator="k")
>>> store.waiting_count("k", since=datetime.now(UTC) - timedelta(hours=1))
1
>>> store.expire_table("t2")
>>> store.load("t2").status, store.waiting_count("k", since=datetime(2000, 1, 1, tzinfo=UTC))
('expired', 0)
>>> store.create_table("t3", "slobberhannes", {}, {}, [{"kind": "open"}] * 3, 9, creator="k")
>>> store.update_table("t3", status="playing", unseen=True)
>>> store.load("t3").unseen, store.waiting_count("k", since=datetime(2000, 1, 1, tzinfo=UTC))
(True, 1)
>>> store.seen_table("t3")
>>> store.load("t3").unseen, store.waiting_count("k", since=datetime(2000, 1, 1, tzinfo=UTC))
(False, 0)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, cast

from sqlalchemy import (
    Connection,
    Engine,
    Row,
    Table,
    and_,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

from kartentisch.records import ACTORS
from kartentisch.storage.database import (
    check_database,
    migrate,
    normalise_url,
    open_engine,
    sqlite_path,
    write_marker,
)
from kartentisch.storage.models import ServerKeyRow, TableActionRow, TableRow, TurnRow, utcnow
from kartentisch.storage.writer import StoreWriter, Write

__all__ = [
    "StorageError",
    "StoredTable",
    "TableNotWaiting",
    "TableStore",
    "UnreadableTable",
    "passing",
]

log = logging.getLogger("kartentisch.storage")

#: What the database raises when it fails (a lost connection, a full disk, a locked file …).
StorageError = SQLAlchemyError

#: Statuses of a table that is still going on (restored after a restart).
UNFINISHED = ("waiting", "playing")


class TableNotWaiting(KeyError):
    """A waiting (or unseen) table was to expire, but its row no longer waits (or is
    missing)."""


class UnreadableTable(Exception):
    """A stored table that cannot be read or replayed: it is set aside.

    Its rows are kept as they are (``kartentisch admin export`` prints them);
    the server starts with the other tables and refuses this one
    (``table_unreadable``).
    """

    def __init__(self, table_id: str, game: str | None, reason: str) -> None:
        super().__init__(f"table {table_id} ({game or '?'}) cannot be read: {reason}")
        self.table_id = table_id
        self.game = game
        self.reason = reason


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
    #: Whether the row keeps its ``creator``: it waits, or no person has come to it yet.
    unseen: bool = False
    #: When the last action was stored (None: none was; a correspondence table's move
    #: then counts from ``updated``, its start).
    last_action: datetime | None = None


class TableStore:
    """Tables and actions in one SQL database.

    Writes are SQL Core statements (no ORM session, no reloading of rows), but
    for the two of almost every transaction, an action's row and its table's
    ``updated``, which go to the driver's cursor (:class:`_HotStatements`);
    all are made through the store's :class:`StoreWriter`: the blocking methods
    (:meth:`create_table`, :meth:`update_table`, :meth:`append_action`)
    commit at once, the ``save_*`` methods queue the write on the event loop
    and return a future; writes queued in the same turn of the loop share one
    transaction. Either way a write has committed before its caller hears
    that it is done.
    """

    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        self.engine, self._guard = open_engine(self.url)
        self.writer = StoreWriter(self._apply, transient=_transient)
        #: The wall clock the stored times come from (the server injects its own).
        self.clock: Callable[[], datetime] = utcnow
        #: The writer's connection, kept open between transactions (no pool round trip).
        self._writing: Connection | None = None
        #: Tables :meth:`unfinished` left out because their rows cannot be read.
        self.unreadable: dict[str, UnreadableTable] = {}
        #: The hot statements (an action's row, a table's ``updated``) as the driver's SQL.
        self._hot = _HotStatements.of(self.engine)

    def migrate(self) -> None:
        """Create or upgrade the schema (Alembic ``upgrade head``).

        A SQLite file that is missing or empty although its marker says tables were
        kept there is refused (:class:`MissingDatabase`), not created anew; after the
        first migration of a file the marker is written.
        """
        path = sqlite_path(self.url)
        if path is not None:
            check_database(self.url)
        with self._guard:
            migrate(self.engine)
        if path is not None:
            write_marker(path)

    @contextlib.contextmanager
    def reading(self) -> Iterator[Connection]:
        """A connection to read with (for the stores beside this one: accounts)."""
        with self._guard, self.engine.connect() as connection:
            yield connection

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A connection in a transaction, committed when the block ends without error."""
        with self._guard, self.engine.begin() as connection:
            yield connection

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
        unseen: bool = False,
    ) -> None:
        """Change a table's seats or status; KeyError if there is no such table.

        A status other than ``waiting`` forgets the table's ``creator``, unless
        ``unseen`` (it starts ``playing`` before any person has come to it: it keeps
        counting as waiting until :meth:`seen_table`).
        """
        self.writer.run(_update(table_id, seats, status, unseen))

    def seen_table(self, table_id: str) -> None:
        """A person came to the table: its ``creator`` is forgotten (if it does not wait,
        it no longer counts); KeyError if there is no such table."""
        self.writer.run(_seen(table_id))

    def expire_table(self, table_id: str) -> None:
        """Mark a waiting table, or a playing one no person has come to, ``expired`` (its
        row is kept, its ``creator`` forgotten); :class:`TableNotWaiting` if its row does
        not wait (any more)."""
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
        unseen: bool = False,
        turns: list[dict[str, Any]] | None = None,
    ) -> asyncio.Future[None]:
        """:meth:`update_table` without blocking; ``turns``: as :meth:`save_action`'s."""
        write = _update(table_id, seats, status, unseen)
        write.turns = turns
        return self.writer.submit(write)

    def save_seen(self, table_id: str) -> asyncio.Future[None]:
        """:meth:`seen_table` without blocking."""
        return self.writer.submit(_seen(table_id))

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
        turns: list[dict[str, Any]] | None = None,
    ) -> asyncio.Future[None]:
        """:meth:`append_action` without blocking.

        ``turns`` (a correspondence table): the moves due after this action, as rows of
        ``turns`` (``seat``, ``account_id``, ``game``, ``since``, ``deadline``), stored in
        the same transaction in place of the table's earlier ones (``[]``: none is due).
        """
        write = _action(table_id, seq, seat, action, status, by)
        write.turns = turns
        return self.writer.submit(write)

    def _apply(self, writes: Sequence[Write]) -> None:
        """Apply ``writes`` in one transaction (the writer calls this)."""
        now = self.clock()
        new_tables: list[dict[str, Any]] = []
        actions: list[dict[str, Any]] = []
        #: Per table: the columns to set, later writes overriding earlier ones.
        changes: dict[str, dict[str, Any]] = {}
        checked: set[str] = set()
        expiring: list[str] = []
        #: Per table: the moves due (a correspondence table's), the last write's.
        turns: dict[str, list[dict[str, Any]]] = {}
        for write in writes:
            if write.turns is not None:
                turns[write.table_id] = write.turns
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
                    self._execute(connection, now, new_tables, actions, changes, checked, self._hot)
                    for table_id, due in turns.items():
                        connection.execute(delete(_TURNS).where(_TURNS.c.table_id == table_id))
                        if due:
                            connection.execute(
                                insert(_TURNS), [{**row, "table_id": table_id} for row in due]
                            )
                    for table_id in expiring:
                        result = connection.execute(_EXPIRE_TABLE, {"key": table_id, "now": now})
                        if result.rowcount == 0:
                            raise TableNotWaiting(table_id)
            except BaseException as exc:
                # The connection may be broken: the next transaction opens a new one.
                self._writing = None
                with contextlib.suppress(Exception):
                    if self._drop_after(exc):
                        # Not back to the pool, whose reset would roll back on it (and log
                        # a traceback where the driver is stuck, as psycopg's pipeline).
                        connection.invalidate(exc if isinstance(exc, Exception) else None)
                    connection.close()
                raise

    def _drop_after(self, error: BaseException) -> bool:
        """Whether the writer's connection is to be dropped after ``error``: the driver
        failed on it (anything but a refused row), unless it is the one connection of an
        in-memory database, which would be lost with it."""
        if isinstance(self.engine.pool, StaticPool):
            return False
        return isinstance(error, DBAPIError) and not isinstance(error, IntegrityError)

    @staticmethod
    def _execute(
        connection: Connection,
        now: datetime,
        new_tables: list[dict[str, Any]],
        actions: list[dict[str, Any]],
        changes: dict[str, dict[str, Any]],
        checked: set[str],
        hot: _HotStatements | None,
    ) -> None:
        if new_tables:
            connection.execute(_INSERT_TABLE, [{**row, "updated": now} for row in new_tables])
        if actions:
            if hot is None:
                connection.execute(_INSERT_ACTION, actions)
            else:
                when = hot.when(now)
                hot.run(
                    connection,
                    hot.insert_action,
                    [
                        (a["table_id"], a["seq"], a["seat"], a["action"], a["made_by"], when)
                        for a in actions
                    ],
                )
        # Most rows only have ``updated`` bumped: one statement for all of them.
        touched = [tid for tid, cols in changes.items() if not cols and tid not in checked]
        if touched:
            if hot is None:
                connection.execute(_TOUCH_TABLE, [{"key": tid, "now": now} for tid in touched])
            else:
                when = hot.when(now)
                hot.run(connection, hot.touch_table, [(when, tid) for tid in touched])
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
        """The table and its actions; :class:`UnreadableTable` if its rows cannot be read."""
        with self._guard, self.engine.connect() as connection:
            return self._load(connection, table_id)

    def unfinished(self) -> list[StoredTable]:
        """Every table still waiting or playing, oldest first, with its actions.

        A table whose rows cannot be read is left out (logged, and kept in
        :attr:`unreadable`): one bad row does not keep the others from being restored.
        """
        found: list[StoredTable] = []
        for table_id, _game, _status in self.table_ids(UNFINISHED):
            try:
                stored = self.load(table_id)
            except UnreadableTable as exc:
                log.error("%s; it is set aside", exc)
                self.unreadable[table_id] = exc
                continue
            if stored is not None:
                found.append(stored)
        return found

    def table_ids(self, statuses: Sequence[str] | None = None) -> list[tuple[str, str, str]]:
        """(id, game, status) of every table (of ``statuses`` only, if given), oldest first.

        Reads only these text columns, so a table whose other columns are
        damaged is still listed.
        """
        query = select(_TABLES.c.id, _TABLES.c.game, _TABLES.c.status).order_by(
            _TABLES.c.created, _TABLES.c.id
        )
        if statuses is not None:
            query = query.where(_TABLES.c.status.in_(statuses))
        with self._guard, self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [(str(i), str(g), str(s)) for i, g, s in rows]

    def raw(self, table_id: str) -> dict[str, Any] | None:
        """The table's rows as the database holds them, undecoded (for an unreadable one).

        ``{"table": {column: value}, "actions": [{column: value}, …]}``, values that are
        not JSON (times, bytes) as text; None if there is no such table.
        """
        with self._guard, self.engine.connect() as connection:
            row = connection.execute(
                text("SELECT * FROM tables WHERE id = :id"), {"id": table_id}
            ).first()
            if row is None:
                return None
            actions = connection.execute(
                text("SELECT * FROM table_actions WHERE table_id = :id ORDER BY seq"),
                {"id": table_id},
            ).all()
        return {
            "table": {k: _plain(v) for k, v in row._mapping.items()},
            "actions": [{k: _plain(v) for k, v in a._mapping.items()} for a in actions],
        }

    def _load(self, connection: Connection, table_id: str) -> StoredTable | None:
        game: str | None = None
        try:
            row = connection.execute(select(_TABLES).where(_TABLES.c.id == table_id)).first()
            if row is None:
                return None
            game = row.game
            return self._stored(connection, row)
        except SQLAlchemyError:
            raise  # the database failed, not the table
        except Exception as exc:
            if game is None:
                game = _game_of(connection, table_id)
            raise UnreadableTable(table_id, game, _first_line(exc)) from exc

    def waiting_count(self, creator: str, *, since: datetime) -> int:
        """How many tables ``creator`` opened that wait for players (or play, no person
        having come to them yet), created at ``since`` or later (older ones are overdue:
        about to expire, not counted)."""
        with self._guard, self.engine.connect() as connection:
            count = connection.execute(
                select(func.count())
                .select_from(_TABLES)
                .where(
                    _TABLES.c.creator == creator,
                    _TABLES.c.status.in_(UNFINISHED),
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

    def _stored(self, connection: Connection, row: Row[Any]) -> StoredTable:
        actions = connection.execute(
            select(
                TableActionRow.seat,
                TableActionRow.action,
                TableActionRow.made_by,
                TableActionRow.created,
            )
            .where(TableActionRow.table_id == row.id)
            .order_by(TableActionRow.seq)
        ).all()
        return StoredTable(
            id=row.id,
            game=row.game,
            options=dict(row.options),
            settings=dict(row.settings),
            seats=[dict(s) for s in row.seats],
            seed=int(row.seed),
            status=row.status,
            created=row.created,
            updated=row.updated,
            actions=[(int(seat), str(action)) for seat, action, _, _ in actions],
            by=[by or "person" for _, _, by, _ in actions],
            unseen=row.creator is not None,
            last_action=actions[-1].created if actions else None,
        )


def _game_of(connection: Connection, table_id: str) -> str | None:
    with contextlib.suppress(Exception):
        value = connection.execute(
            select(_TABLES.c.game).where(_TABLES.c.id == table_id)
        ).scalar_one_or_none()
        return None if value is None else str(value)
    return None


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (str, int, float, bool, list, dict)):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"


_TABLES: Final = cast(Table, TableRow.__table__)
_ACTIONS: Final = cast(Table, TableActionRow.__table__)
_TURNS: Final = cast(Table, TurnRow.__table__)
_INSERT_TABLE: Final = insert(_TABLES)
_INSERT_ACTION: Final = insert(_ACTIONS)
_TOUCH_TABLE: Final = (
    update(_TABLES).where(_TABLES.c.id == bindparam("key")).values(updated=bindparam("now"))
)
_EXPIRE_TABLE: Final = (
    update(_TABLES)
    .where(
        _TABLES.c.id == bindparam("key"),
        or_(
            _TABLES.c.status == "waiting",
            and_(_TABLES.c.status == "playing", _TABLES.c.creator.is_not(None)),
        ),
    )
    .values(status="expired", creator=None, updated=bindparam("now"))
)


@dataclass(frozen=True)
class _HotStatements:
    """The two statements of almost every transaction, as the driver's own SQL.

    An action's row and the bump of its table's ``updated`` are written on the
    driver's cursor (``executemany`` with positional rows), inside the
    SQLAlchemy transaction the writer opened and commits: nothing is compiled,
    no parameter is processed per row, no result is set up. The driver's
    errors are wrapped as SQLAlchemy would wrap them (a taken key is an
    :class:`IntegrityError`, a locked database an :class:`OperationalError`, a
    lost connection says so), so the writer tells them apart as before. The
    time is converted once per transaction by the column type's own
    converter, so the rows hold what the Core statements wrote
    (docs/performance.md, "Server at scale").
    """

    insert_action: str
    touch_table: str
    #: The driver's value of a time (the column type's bind converter), or None: as it is.
    convert: Callable[[datetime], Any] | None

    @classmethod
    def of(cls, engine: Engine) -> _HotStatements | None:
        """The statements for ``engine``'s driver; None if its parameter style is not
        a positional one known here (the Core statements are used then)."""
        style = engine.dialect.paramstyle
        mark = {"qmark": "?", "format": "%s", "pyformat": "%s"}.get(style)
        if mark is None:
            return None
        marks = ", ".join([mark] * 6)
        return cls(
            insert_action=(
                "INSERT INTO table_actions (table_id, seq, seat, action, made_by, created) "
                f"VALUES ({marks})"
            ),
            touch_table=f"UPDATE tables SET updated={mark} WHERE tables.id = {mark}",
            convert=_ACTIONS.c.created.type.dialect_impl(engine.dialect).bind_processor(
                engine.dialect
            ),
        )

    def when(self, now: datetime) -> Any:
        return now if self.convert is None else self.convert(now)

    @staticmethod
    def run(connection: Connection, sql: str, rows: list[tuple[Any, ...]]) -> None:
        """``executemany`` on the driver's cursor of ``connection`` (in its transaction)."""
        raw = connection.connection.dbapi_connection
        assert raw is not None
        dialect = connection.dialect
        cursor = raw.cursor()
        try:
            cursor.executemany(sql, rows)
        except dialect.loaded_dbapi.Error as error:
            lost = dialect.is_disconnect(error, raw, cursor)
            raise DBAPIError.instance(
                sql, rows, error, dialect.loaded_dbapi.Error, connection_invalidated=lost
            ) from error
        finally:
            cursor.close()


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


def _update(
    table_id: str, seats: Sequence[dict[str, Any]] | None, status: str | None, unseen: bool
) -> Write:
    values: dict[str, Any] = {}
    if seats is not None:
        values["seats"] = [dict(s) for s in seats]
    if status is not None:
        values["status"] = status
        if status != "waiting" and not (unseen and status == "playing"):
            # Only a waiting (or unseen) table's creator is counted.
            values["creator"] = None
    return Write("update", table_id, values)


def _seen(table_id: str) -> Write:
    return Write("update", table_id, {"creator": None})


def _action(table_id: str, seq: int, seat: int, action: str, status: str | None, by: str) -> Write:
    if by not in ACTORS:
        raise ValueError(f"who made an action must be one of {', '.join(ACTORS)}, not {by!r}")
    table_values: dict[str, Any] = {}
    if status is not None:
        table_values["status"] = status
        if status not in UNFINISHED:
            table_values["creator"] = None  # (an ended table counts no more)
    values = {"seq": seq, "seat": seat, "action": action, "made_by": by}
    return Write("action", table_id, values, table_values)


def passing(error: BaseException) -> bool:
    """Whether a failed write may succeed later, unchanged: the database failed (it is
    down, unreachable, locked, its disk full), not the write (a taken key, a missing table).

    A table whose write failed so waits and tries again; any other failure is final.
    """
    return _transient(error)


def _transient(error: BaseException) -> bool:
    """Whether a failed transaction may succeed if tried again on a fresh connection.

    A lost connection (the database restarted, a network cut, a terminated
    backend) or another operational error (SQLite: the database is locked);
    not a write that is itself wrong (a taken key, a missing table).
    """
    if isinstance(error, OperationalError):
        return True
    return isinstance(error, DBAPIError) and error.connection_invalidated
