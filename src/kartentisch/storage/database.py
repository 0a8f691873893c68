"""The database a table store works on: where it is, its schema, and its engine.

SQLite (the default: a file in the data directory, :func:`sqlite_url`) or
PostgreSQL (``postgresql+psycopg://…``). The schema is created and upgraded by
the Alembic migrations in ``kartentisch/storage/migrations`` (:func:`migrate`).
A SQLite file gets a marker beside it when it is first created, so that a file
that goes missing later is refused (:func:`check_database`), not silently
created anew with no tables. :func:`open_engine` makes the engine as the store
wants it: one shared connection for an in-memory database, checked pooled
connections otherwise, a connect timeout for PostgreSQL and WAL for SQLite.

>>> sqlite_path("sqlite:////data/kartentisch.sqlite3"), sqlite_path("sqlite://")
(PosixPath('/data/kartentisch.sqlite3'), None)
>>> normalise_url("postgresql://localhost/test")
'postgresql+psycopg://localhost/test'
"""

from __future__ import annotations

import contextlib
import os
import threading
from importlib.resources import files
from pathlib import Path
from typing import Any, Final

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.pool import StaticPool

from kartentisch.errors import KartentischError
from kartentisch.storage.models import utcnow

__all__ = [
    "CONNECT_TIMEOUT",
    "MARKER_SUFFIX",
    "MissingDatabase",
    "ThreadLock",
    "check_database",
    "default_data_dir",
    "downgrade",
    "marker_path",
    "migrate",
    "normalise_url",
    "open_engine",
    "sqlite_path",
    "sqlite_url",
    "write_marker",
]

#: The marker beside a SQLite file (``kartentisch.sqlite3.created``): written when the file
#: is first created, it says that tables are expected there (:class:`MissingDatabase`).
MARKER_SUFFIX: Final = ".created"


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


def downgrade(engine: Engine, revision: str) -> None:
    """Take the database behind ``engine`` back to ``revision`` (Alembic ``downgrade``)."""
    config = _alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)


#: Seconds a PostgreSQL connection may take to open before the attempt fails (and is retried).
CONNECT_TIMEOUT: Final = 5


class MissingDatabase(KartentischError):
    """The SQLite file is missing or empty where tables were kept (its marker says so)."""


def normalise_url(url: str) -> str:
    """``url`` as SQLAlchemy is to open it: PostgreSQL with psycopg 3."""
    # Plain postgresql:// would ask for psycopg2; this package uses psycopg 3.
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None for another database or an in-memory one)."""
    parsed = make_url(url)
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    if database.startswith("file:"):
        return None  # a URI filename: left to SQLite
    return Path(database)


def marker_path(database: Path) -> Path:
    """The marker file beside the SQLite file ``database``."""
    return database.with_name(database.name + MARKER_SUFFIX)


def check_database(url: str) -> None:
    """Refuse a SQLite file that is missing or empty where tables were kept.

    The marker (:func:`marker_path`) is written when the file is first
    created; if it exists and the file is gone or has no bytes, the tables
    were lost or are elsewhere (a volume not mounted, a file deleted or cut
    short): :class:`MissingDatabase`, instead of starting again with no
    tables. Any other database, or a fresh data directory, passes.
    """
    path = sqlite_path(url)
    if path is None:
        return
    marker = marker_path(path)
    if not marker.exists():
        return
    if path.exists() and path.stat().st_size > 0:
        return
    what = "is missing" if not path.exists() else "is empty (0 bytes)"
    raise MissingDatabase(
        f"the database {path} {what}, but {marker.name} beside it says tables were kept "
        "there. Put the database file back (from a backup, or mount its volume); "
        f"to start again with no tables, delete {marker}."
    )


def write_marker(path: Path) -> None:
    """Write the marker beside the SQLite file ``path`` once it holds a database."""
    marker = marker_path(path)
    if marker.exists() or not path.exists() or path.stat().st_size == 0:
        return
    marker.write_text(
        "Kartentisch keeps its tables in the database beside this file.\n"
        f"Created {utcnow().isoformat(timespec='seconds')}.\n",
        encoding="utf-8",
    )


def open_engine(url: str) -> tuple[Engine, contextlib.AbstractContextManager[Any]]:
    """The engine for the database at ``url`` (as :func:`normalise_url` gives it) and the
    guard its users hold: a lock for the one shared connection of an in-memory SQLite
    database (two threads must not use it at once), else nothing."""
    kwargs: dict[str, Any] = {}
    memory = url in ("sqlite://", "sqlite:///:memory:")
    if memory:
        # One shared connection, or every session would see its own empty database.
        kwargs = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
    else:
        # A pooled connection the database has dropped is replaced when taken, not used.
        kwargs = {"pool_pre_ping": True}
        if url.startswith("postgresql") and "connect_timeout" not in make_url(url).query:
            # Writes run on the event loop: an unreachable server must not hold it for
            # the operating system's TCP timeout (minutes), only this long.
            kwargs["connect_args"] = {"connect_timeout": CONNECT_TIMEOUT}
    engine = create_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    guard: contextlib.AbstractContextManager[Any] = (
        ThreadLock() if memory else contextlib.nullcontext()
    )
    return engine, guard


class ThreadLock:
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
