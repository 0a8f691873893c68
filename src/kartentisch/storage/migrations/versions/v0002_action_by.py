"""Who made each action: ``table_actions.made_by``.

``person``, ``bot``, ``standin``, ``timer`` or ``auto``; rows stored before
this revision keep NULL, which the store reads as ``person``.

Revision ID: 0002_action_by
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002_action_by"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("table_actions") as batch:
        batch.add_column(sa.Column("made_by", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("table_actions") as batch:
        batch.drop_column("made_by")
