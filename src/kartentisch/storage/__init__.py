"""Persistence of tables: SQLAlchemy models, Alembic migrations, the table store.

The store keeps each table's setup and every action as it is accepted;
a table is restored by replaying its actions through the engine.
"""

from __future__ import annotations

from kartentisch.storage.database import (
    MissingDatabase,
    check_database,
    default_data_dir,
    migrate,
    sqlite_url,
)
from kartentisch.storage.store import (
    StorageError,
    StoredTable,
    TableNotWaiting,
    TableStore,
    UnreadableTable,
    passing,
)
from kartentisch.storage.writer import Backoff

__all__ = [
    "Backoff",
    "MissingDatabase",
    "StorageError",
    "StoredTable",
    "TableNotWaiting",
    "TableStore",
    "UnreadableTable",
    "check_database",
    "default_data_dir",
    "migrate",
    "passing",
    "sqlite_url",
]
