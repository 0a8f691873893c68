"""Correspondence tables: the moves due (``turns``) and where to mail them.

``turns`` holds, per correspondence table and seat, the account whose move is
due, since when and until when (the "your turn" list, and what a new process
shows); ``accounts`` gains ``email``, ``notify_email`` (off by default) and
``lang`` (the language of its mails).

Revision ID: 0006_correspondence
Revises: 0005_ratings
Create Date: 2027-02-09
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006_correspondence"
down_revision: str | None = "0005_ratings"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "turns",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    op.create_index("ix_turns_account_id", "turns", ["account_id"])
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
        batch.add_column(
            sa.Column("notify_email", sa.Boolean, nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("lang", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("lang")
        batch.drop_column("notify_email")
        batch.drop_column("email")
    op.drop_index("ix_turns_account_id", table_name="turns")
    op.drop_table("turns")
