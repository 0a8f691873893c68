"""Persistence of tables: SQLAlchemy models, Alembic migrations, the table store.

The store keeps each table's setup and every action as it is accepted;
a table is restored by replaying its actions through the engine.
"""

from __future__ import annotations

from kartentisch.storage.store import (
    StoredTable,
    TableNotWaiting,
    TableStore,
    default_data_dir,
    migrate,
    sqlite_url,
)

__all__ = [
    "StoredTable",
    "TableNotWaiting",
    "TableStore",
    "default_data_dir",
    "migrate",
    "sqlite_url",
]
