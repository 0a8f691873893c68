"""Friends and invitations in the database.

A friendship starts as a request (``accepted`` false) and becomes mutual when the
other account accepts; either may end it. An invitation asks a friend to a table.

>>> from kartentisch.accounts import account_name
>>> from kartentisch.storage.accounts import AccountStore
>>> tables = TableStore("sqlite://")
>>> tables.migrate()
>>> people = AccountStore(tables)
>>> anna, bernd = (people.create(account_name(n), "hash") for n in ("Anna", "Bernd"))
>>> friends = FriendStore(tables)
>>> friends.ask(anna.id, bernd.id)
'asked'
>>> friends.circle(bernd.id).incoming
['Anna']
>>> friends.ask(bernd.id, anna.id)  # asking back accepts
'friends'
>>> [f.name for f in friends.circle(anna.id).friends]
['Bernd']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Final, cast

from sqlalchemy import Table, and_, delete, insert, or_, select, update

from kartentisch.storage.models import AccountRow, FriendshipRow, InvitationRow, TableRow
from kartentisch.storage.store import TableStore

__all__ = ["MAX_FRIENDS", "Circle", "Friend", "FriendStore", "Invitation"]

_ACCOUNTS: Final = cast(Table, AccountRow.__table__)
_FRIENDS: Final = cast(Table, FriendshipRow.__table__)
_INVITES: Final = cast(Table, InvitationRow.__table__)
_TABLES: Final = cast(Table, TableRow.__table__)

#: Friends and open requests one account may have (a guard, not a social rule).
MAX_FRIENDS: Final = 500
#: Invitations kept per account (the oldest go).
MAX_INVITATIONS: Final = 20


@dataclass(frozen=True, slots=True)
class Friend:
    id: int
    name: str


@dataclass(frozen=True, slots=True)
class Invitation:
    id: int
    name: str
    table: str
    game: str
    status: str
    created: datetime


@dataclass
class Circle:
    friends: list[Friend] = field(default_factory=list)
    #: Names of the accounts that asked this one (not answered yet).
    incoming: list[str] = field(default_factory=list)
    #: Names this one asked.
    outgoing: list[str] = field(default_factory=list)
    invitations: list[Invitation] = field(default_factory=list)


class FriendStore:
    """Friendships and invitations in the database of ``tables``."""

    def __init__(self, tables: TableStore) -> None:
        self.tables = tables

    def ask(self, me: int, other: int) -> str:
        """Ask ``other`` to be friends: ``asked``, or ``friends`` when ``other`` had asked
        ``me`` (that is a yes) or they are friends already; ``full`` beyond
        :data:`MAX_FRIENDS`; ``self`` for oneself."""
        if me == other:
            return "self"
        with self.tables.transaction() as connection:
            theirs = connection.execute(
                select(_FRIENDS.c.accepted).where(
                    _FRIENDS.c.requester_id == other, _FRIENDS.c.addressee_id == me
                )
            ).first()
            if theirs is not None:
                connection.execute(
                    update(_FRIENDS)
                    .where(_FRIENDS.c.requester_id == other, _FRIENDS.c.addressee_id == me)
                    .values(accepted=True)
                )
                return "friends"
            mine = connection.execute(
                select(_FRIENDS.c.accepted).where(
                    _FRIENDS.c.requester_id == me, _FRIENDS.c.addressee_id == other
                )
            ).first()
            if mine is not None:
                return "friends" if mine.accepted else "asked"
            count = len(
                connection.execute(
                    select(_FRIENDS.c.requester_id).where(
                        or_(_FRIENDS.c.requester_id == me, _FRIENDS.c.addressee_id == me)
                    )
                ).all()
            )
            if count >= MAX_FRIENDS:
                return "full"
            connection.execute(
                insert(_FRIENDS).values(requester_id=me, addressee_id=other, accepted=False)
            )
        return "asked"

    def end(self, me: int, other: int) -> bool:
        """End a friendship, or decline or take back a request; False if there was none."""
        pair = or_(
            and_(_FRIENDS.c.requester_id == me, _FRIENDS.c.addressee_id == other),
            and_(_FRIENDS.c.requester_id == other, _FRIENDS.c.addressee_id == me),
        )
        with self.tables.transaction() as connection:
            gone = connection.execute(delete(_FRIENDS).where(pair)).rowcount
            connection.execute(
                delete(_INVITES).where(
                    or_(
                        and_(_INVITES.c.from_id == me, _INVITES.c.to_id == other),
                        and_(_INVITES.c.from_id == other, _INVITES.c.to_id == me),
                    )
                )
            )
        return bool(gone)

    def are_friends(self, me: int, other: int) -> bool:
        query = select(_FRIENDS.c.accepted).where(
            or_(
                and_(_FRIENDS.c.requester_id == me, _FRIENDS.c.addressee_id == other),
                and_(_FRIENDS.c.requester_id == other, _FRIENDS.c.addressee_id == me),
            ),
            _FRIENDS.c.accepted.is_(True),
        )
        with self.tables.reading() as connection:
            return connection.execute(query).first() is not None

    def invite(self, me: int, friend: int, table_id: str) -> None:
        """Ask ``friend`` to the table (a friend only: the caller checks)."""
        with self.tables.transaction() as connection:
            connection.execute(
                delete(_INVITES).where(
                    _INVITES.c.to_id == friend,
                    _INVITES.c.from_id == me,
                    _INVITES.c.table_id == table_id,
                )
            )
            connection.execute(insert(_INVITES).values(from_id=me, to_id=friend, table_id=table_id))
            kept = connection.execute(
                select(_INVITES.c.id)
                .where(_INVITES.c.to_id == friend)
                .order_by(_INVITES.c.id.desc())
                .offset(MAX_INVITATIONS)
            ).all()
            if kept:
                connection.execute(delete(_INVITES).where(_INVITES.c.id.in_([r.id for r in kept])))

    def circle(self, me: int) -> Circle:
        """The account's friends, requests and invitations (to tables still waiting or
        being played), by name."""
        circle = Circle()
        with self.tables.reading() as connection:
            rows = connection.execute(
                select(
                    _FRIENDS.c.requester_id,
                    _FRIENDS.c.addressee_id,
                    _FRIENDS.c.accepted,
                    _ACCOUNTS.c.id,
                    _ACCOUNTS.c.name,
                )
                .join(
                    _ACCOUNTS,
                    or_(
                        and_(
                            _FRIENDS.c.requester_id == me,
                            _ACCOUNTS.c.id == _FRIENDS.c.addressee_id,
                        ),
                        and_(
                            _FRIENDS.c.addressee_id == me,
                            _ACCOUNTS.c.id == _FRIENDS.c.requester_id,
                        ),
                    ),
                )
                .order_by(_ACCOUNTS.c.name_key)
            ).all()
            invites = connection.execute(
                select(
                    _INVITES.c.id,
                    _INVITES.c.table_id,
                    _INVITES.c.created,
                    _ACCOUNTS.c.name,
                    _TABLES.c.game,
                    _TABLES.c.status,
                )
                .join(_ACCOUNTS, _ACCOUNTS.c.id == _INVITES.c.from_id)
                .join(_TABLES, _TABLES.c.id == _INVITES.c.table_id)
                .where(_INVITES.c.to_id == me, _TABLES.c.status.in_(("waiting", "playing")))
                .order_by(_INVITES.c.id.desc())
            ).all()
        for row in rows:
            if row.accepted:
                circle.friends.append(Friend(int(row.id), str(row.name)))
            elif row.requester_id == me:
                circle.outgoing.append(str(row.name))
            else:
                circle.incoming.append(str(row.name))
        circle.invitations = [
            Invitation(
                int(r.id), str(r.name), str(r.table_id), str(r.game), str(r.status), r.created
            )
            for r in invites
        ]
        return circle
