"""Ratings, results, chat reports, friends: each account's rating per pool, its history,
each seat's result, the chat messages people reported, friendships and invitations.

``ratings`` holds an account's Weng-Lin rating (mu, sigma, games) in each pool
(docs/ratings.md) and whether it is still provisional (the leaderboard lists those last);
``rating_history`` the rating after each rated table (the profile's chart);
``table_results`` what each account's seat made of a finished table (rank, won,
the per-game statistics as JSON), rated or not (the profile's figures);
``player_totals`` those results summed per account and game (what a profile shows,
read in one row however many games there are); ``chat_reports`` a reported chat
message with its author and text, for the admin; ``friendships`` a request from one
account to another (``accepted`` once answered); ``invitations`` an account asked
to a table by a friend.

Revision ID: 0005_ratings
Revises: 0004_accounts
Create Date: 2027-02-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005_ratings"
down_revision: str | None = "0004_accounts"
branch_labels: str | None = None
depends_on: str | None = None


def _account() -> sa.Column[int]:
    return sa.Column(
        "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
    )


def _table() -> sa.Column[str]:
    return sa.Column(
        "table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False
    )


def upgrade() -> None:
    op.create_table(
        "ratings",
        _account(),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("provisional", sa.Boolean, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("account_id", "pool"),
    )
    op.create_index("ix_ratings_board", "ratings", ["pool", "provisional", "mu"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _account(),
        sa.Column("pool", sa.String(32), nullable=False),
        _table(),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("display", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("account_id", "table_id", name="uq_rating_history_table"),
    )
    op.create_index("ix_rating_history_account", "rating_history", ["account_id", "pool", "id"])
    op.create_table(
        "table_results",
        _table(),
        sa.Column("seat", sa.Integer, nullable=False),
        _account(),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("stats", sa.JSON, nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    op.create_index("ix_table_results_account", "table_results", ["account_id", "finished"])
    op.create_table(
        "player_totals",
        _account(),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("played", sa.Integer, nullable=False),
        sa.Column("won", sa.Integer, nullable=False),
        sa.Column("stats", sa.JSON, nullable=False),
        sa.PrimaryKeyConstraint("account_id", "game"),
    )
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("message_id", sa.Integer, nullable=False),
        sa.Column("author", sa.String(64), nullable=True),
        sa.Column("author_seat", sa.Integer, nullable=True),
        sa.Column("author_account", sa.Integer, nullable=True),
        sa.Column("text", sa.Text, nullable=True),
        sa.Column("phrase", sa.String(32), nullable=True),
        sa.Column("reporter_seat", sa.Integer, nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "friendships",
        sa.Column(
            "requester_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "addressee_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("accepted", sa.Boolean, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("requester_id", "addressee_id"),
    )
    op.create_index("ix_friendships_addressee", "friendships", ["addressee_id"])
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "from_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column(
            "to_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        _table(),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_invitations_to", "invitations", ["to_id"])


def downgrade() -> None:
    op.drop_table("invitations")
    op.drop_table("friendships")
    op.drop_table("chat_reports")
    op.drop_table("player_totals")
    op.drop_index("ix_table_results_account", "table_results")
    op.drop_table("table_results")
    op.drop_index("ix_rating_history_account", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_board", "ratings")
    op.drop_table("ratings")
