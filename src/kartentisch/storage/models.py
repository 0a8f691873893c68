"""The database schema: one row per table, one row per action taken at it.

Each action row also says who made it (``made_by``), for the game log and the record.
A waiting table's row says who opened it (``creator``: a keyed hash of their address
key, never the address); ``server_keys`` holds that hash's key.

A table is restored by rebuilding its game from ``game``, ``options``,
``seats`` and ``seed`` and replaying ``table_actions`` in ``seq`` order
through the engine, so the actions are the only game state stored.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "AccountRow",
    "AccountSessionRow",
    "Base",
    "ChatReportRow",
    "FriendshipRow",
    "InvitationRow",
    "PlayerTotalsRow",
    "RatingHistoryRow",
    "RatingRow",
    "ServerKeyRow",
    "TableActionRow",
    "TableResultRow",
    "TableRow",
    "TableSeatRow",
    "TurnRow",
    "utcnow",
]


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    """A table: the game, its options, who sits where, the seed, the status."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    #: The game's rule options as the adapter normalised them.
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: Table settings that are not rules (turn timer …).
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: One object per seat: ``kind`` (open/human/bot), ``name``, ``level``, ``token_hash``.
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    #: ``waiting`` (seats open), ``playing``, ``finished`` or ``expired`` (it waited for
    #: players longer than the server allows and was closed unstarted).
    status: Mapped[str] = mapped_column(String(16), index=True)
    #: While the table waits: a keyed hash of its creator's address key (the per-address
    #: cap on waiting tables counts these); NULL once it starts or expires.
    creator: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )


Index("ix_tables_creator", TableRow.creator, TableRow.status)


class ServerKeyRow(Base):
    """A secret of this database's servers, by name (``address``: the key of ``creator``)."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class TableActionRow(Base):
    """One accepted action, in the game's notation, numbered from 1 within its table."""

    __tablename__ = "table_actions"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    #: Who made the action: ``person``, ``bot``, ``standin`` (a bot for an away person),
    #: ``timer`` (the turn timer ran out) or ``auto`` (a forced answer); NULL in rows
    #: stored before this was kept, read as ``person``.
    made_by: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AccountRow(Base):
    """A person's account: the name (unique by ``name_key`` and by ``skeleton``) and the
    Argon2id hash of the password (kartentisch.accounts)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    #: The case-folded NFKC name: no two accounts share it.
    name_key: Mapped[str] = mapped_column(String(128), unique=True)
    #: Look-alike characters made one (UTS #39): no two accounts share it either.
    skeleton: Mapped[str] = mapped_column(String(256), unique=True)
    password_hash: Mapped[str] = mapped_column(String(256))
    blocked: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: Where "your turn" at a correspondence table is mailed (None: nowhere).
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    #: Whether the account wants those mails (off until it says so).
    notify_email: Mapped[bool] = mapped_column(Boolean, default=False)
    #: The language its mails are written in (the page's when the address was set).
    lang: Mapped[str | None] = mapped_column(String(8), nullable=True)


class AccountSessionRow(Base):
    """A login: the SHA-256 of the session cookie's secret, whose account, since when."""

    __tablename__ = "account_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TableSeatRow(Base):
    """An account seated at a table (joined while logged in, or claimed afterwards)."""

    __tablename__ = "table_seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )


def _account_key() -> Mapped[int]:
    return mapped_column(Integer, ForeignKey("accounts.id", ondelete="CASCADE"))


class RatingRow(Base):
    """An account's rating in one pool (docs/ratings.md); ``provisional`` while sigma is
    large (listed after the others)."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    pool: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    provisional: Mapped[bool] = mapped_column(Boolean)
    games: Mapped[int] = mapped_column(Integer)


Index("ix_ratings_board", RatingRow.pool, RatingRow.provisional, RatingRow.mu)


class RatingHistoryRow(Base):
    """An account's rating after a rated table (the profile's chart)."""

    __tablename__ = "rating_history"
    __table_args__ = (UniqueConstraint("account_id", "table_id", name="uq_rating_history_table"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = _account_key()
    pool: Mapped[str] = mapped_column(String(32))
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    display: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


Index(
    "ix_rating_history_account",
    RatingHistoryRow.account_id,
    RatingHistoryRow.pool,
    RatingHistoryRow.id,
)


class TableResultRow(Base):
    """What an account's seat made of a finished table: its rank, whether it won, the
    game's statistics (JSON), whether the table was rated."""

    __tablename__ = "table_results"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = _account_key()
    game: Mapped[str] = mapped_column(String(32))
    pool: Mapped[str] = mapped_column(String(32))
    rank: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    rated: Mapped[bool] = mapped_column(Boolean)
    stats: Mapped[dict[str, Any]] = mapped_column(JSON)
    finished: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


Index("ix_table_results_account", TableResultRow.account_id, TableResultRow.finished)


class ChatReportRow(Base):
    """A chat message someone reported: its table, number, author and words (kept for the
    admin's ``kartentisch admin reports``; chat itself is not stored)."""

    __tablename__ = "chat_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32))
    message_id: Mapped[int] = mapped_column(Integer)
    author: Mapped[str | None] = mapped_column(String(64), nullable=True)
    author_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    author_account: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str | None] = mapped_column(Text, nullable=True)
    phrase: Mapped[str | None] = mapped_column(String(32), nullable=True)
    reporter_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PlayerTotalsRow(Base):
    """An account's results in one game summed: tables played and won, the statistics."""

    __tablename__ = "player_totals"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    played: Mapped[int] = mapped_column(Integer)
    won: Mapped[int] = mapped_column(Integer)
    stats: Mapped[dict[str, Any]] = mapped_column(JSON)


class FriendshipRow(Base):
    """A friend request from ``requester_id`` to ``addressee_id``; ``accepted`` once the
    addressee said yes (then both are friends)."""

    __tablename__ = "friendships"

    requester_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    addressee_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    accepted: Mapped[bool] = mapped_column(Boolean)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class InvitationRow(Base):
    """A friend asked to a table."""

    __tablename__ = "invitations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    from_id: Mapped[int] = _account_key()
    to_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TurnRow(Base):
    """An account's move due at a correspondence table: since when, until when.

    Written in the same transaction as the action that made it due (and cleared by the
    next), so the "your turn" list of any server process reads what the tables hold.
    """

    __tablename__ = "turns"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    game: Mapped[str] = mapped_column(String(32))
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deadline: Mapped[datetime] = mapped_column(DateTime(timezone=True))
