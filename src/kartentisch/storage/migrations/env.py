"""Alembic environment: runs the migrations on the connection the store hands over.

:func:`kartentisch.storage.migrate` passes an open connection in
``config.attributes["connection"]``; the ``alembic`` command line may give a
``sqlalchemy.url`` instead.
"""

from __future__ import annotations

from alembic import context
from alembic.config import Config
from sqlalchemy import create_engine
from sqlalchemy.engine import Connection

from kartentisch.storage.models import Base


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        # SQLite alters tables by copying them; batch mode does that for us.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations(config: Config) -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no database: pass a connection or set sqlalchemy.url")
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            _run(conn)
    finally:
        engine.dispose()


try:
    _config: Config | None = context.config
except NameError:
    # Imported outside Alembic (e.g. by doctest collection): there is nothing to run.
    _config = None

if _config is not None:
    run_migrations(_config)
