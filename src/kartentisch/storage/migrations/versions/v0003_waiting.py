"""Tables waiting for players: who opened them, and the key that hides who.

``tables.creator`` holds a keyed hash (HMAC-SHA-256) of the address key of
the person who opened a table, while the table waits for players (cleared
once it starts or expires): the per-address cap on waiting tables counts
these rows. ``server_keys`` holds the hash's key, made once per database by
the store (:meth:`TableStore.address_secret`), so every process of a
cluster hashes alike. A table that waited too long gets the status
``expired`` (a string, no schema change).

Revision ID: 0003_waiting
Revises: 0002_action_by
Create Date: 2027-01-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003_waiting"
down_revision: str | None = "0002_action_by"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
        batch.create_index("ix_tables_creator", ["creator", "status"])
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_keys")
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_creator")
        batch.drop_column("creator")
