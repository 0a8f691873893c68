"""People's part of the app: accounts, profiles, friends, the moves due, the lobby's chat.

The routes themselves are in :mod:`~kartentisch.web.accounts`, ``players``,
``friends``, ``correspondence`` and ``lobbychat``; :func:`account_api` builds them on
the app's context and adds what ties accounts to tables: the results (and ratings)
written when a table ends, a guest's seat claimed after the table ended, a chat
message reported at a table, the mails of moves due (:class:`AccountApi`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.routing import BaseRoute

from kartentisch.storage.accounts import Account
from kartentisch.storage.ratings import RatingStore, SeatResult
from kartentisch.web.context import AppContext
from kartentisch.web.correspondence import TurnNotices, TurnRoutes
from kartentisch.web.friends import FriendRoutes
from kartentisch.web.lobbychat import LobbyChat
from kartentisch.web.mail import Mailer, SmtpSettings
from kartentisch.web.players import PlayerRoutes
from kartentisch.web.responses import error_response
from kartentisch.web.results import new_ratings, table_results
from kartentisch.web.tables import LiveTable

__all__ = ["AccountApi", "account_api"]


@dataclass(frozen=True)
class AccountApi:
    """The routes of people, and what the tables call when something concerns them."""

    routes: list[BaseRoute]
    #: A table just ended (:attr:`TableManager.on_finish`).
    record_results: Callable[[LiveTable], Awaitable[None]]
    #: A chat message reported at a table (:attr:`TableManager.on_report`).
    keep_report: Callable[[LiveTable, dict[str, Any], int | None], Awaitable[None]]
    #: Whose move is newly due, and the mails it sends (:attr:`TableManager.on_turn`).
    turn_notices: TurnNotices


def account_api(
    ctx: AppContext,
    *,
    wall_clock: Callable[[], float],
    mail: SmtpSettings | None,
    public_url: str,
) -> AccountApi:
    """People's routes on ``ctx``; with ``mail``, moves due are mailed (links to ``public_url``)."""
    manager = ctx.manager
    accounts = ctx.accounts
    limiter = ctx.limiter
    account_routes = ctx.account_routes
    take_lobby = ctx.take_lobby
    take_turns = ctx.take_turns
    player_routes = PlayerRoutes(accounts, error_response, take_lobby)

    def seated() -> dict[int, str]:
        """The accounts connected at a live table of this process, and the table."""
        found: dict[int, str] = {}
        for table in manager().live():
            connected = {c.seat for c in table.connections if c.seat is not None}
            for number, seat in enumerate(table.seats):
                if seat.account is not None and number in connected:
                    found.setdefault(seat.account, table.id)
        return found

    def sits_at(account: int, table_id: str) -> bool:
        table = manager().cached(table_id)
        return (
            table is not None
            and table.status in ("waiting", "playing")
            and any(seat.account == account for seat in table.seats)
        )

    lobby_chat = LobbyChat(accounts, account_routes.account_of, limiter, error_response, take_lobby)

    turn_routes = TurnRoutes(
        accounts,
        account_routes.account_of,
        error_response,
        take_turns,
        wall_clock,
        mail is not None,
    )
    turn_notices = TurnNotices(accounts, None if mail is None else Mailer(mail), public_url)

    friend_routes = FriendRoutes(
        accounts,
        account_routes.account_of,
        error_response,
        seated,
        account_routes.seen.get,
        sits_at,
        time.monotonic,
    )

    async def keep_report(table: LiveTable, said: dict[str, Any], reporter: int | None) -> None:
        """A chat message reported at ``table``: kept for ``kartentisch admin reports``."""
        seat = said.get("seat")
        author = table.seats[seat].account if isinstance(seat, int) else None
        await asyncio.to_thread(accounts().report_chat, table.id, said, author, reporter)

    async def claimed(table_id: str, seat: int, account: Account) -> None:
        """A guest's seat claimed: a finished table's result joins the account's profile."""
        stored = await asyncio.to_thread(manager().store.load, table_id)
        if stored is None or stored.status != "finished":
            return  # (a table still going on records its results when it ends)
        table = manager().finished(stored)
        if table.game is None:
            return
        results = table_results(table.kind.name, table.options, table.game)
        row = SeatResult(
            seat, account.id, results.ranks[seat], results.won(seat), results.stats.get(seat, {})
        )
        ratings = RatingStore(manager().store)
        await asyncio.to_thread(ratings.add_seat, table_id, table.kind.name, results.pool, row)

    account_routes.on_claimed = claimed

    async def record_results(table: LiveTable) -> None:
        """A table just ended: its accounts' results, and (a rated table with an account
        in every person's seat) their new ratings, written in one transaction."""
        at = {i: s.account for i, s in enumerate(table.seats) if s.account is not None}
        # (and guests' seats claimed while the table went on)
        at = {**await asyncio.to_thread(accounts().accounts_at, table.id), **at}
        if not at or table.game is None:
            return
        results = table_results(table.kind.name, table.options, table.game)
        people_seats = [s for s in table.seats if s.kind == "human"]
        rated = table.rated and all(s.account is not None for s in people_seats)
        seats_json = [s.to_json() for s in table.seats]

        def write() -> None:
            ratings = RatingStore(manager().store)
            new = None
            if rated:
                before = ratings.ratings(list(at.values()), results.pool)
                new = new_ratings(results, before, seats_json)
            rows = [
                SeatResult(
                    seat,
                    account,
                    results.ranks[seat],
                    results.won(seat),
                    results.stats.get(seat, {}),
                )
                for seat, account in at.items()
            ]
            ratings.record_table(table.id, table.kind.name, results.pool, rows, new)

        await asyncio.to_thread(write)

    return AccountApi(
        routes=[
            *account_routes.routes(),
            *player_routes.routes(),
            *friend_routes.routes(),
            *turn_routes.routes(),
            *lobby_chat.routes(),
        ],
        record_results=record_results,
        keep_report=keep_report,
        turn_notices=turn_notices,
    )
