"""Correspondence tables over HTTP: "your turn", mail settings, and the mails.

* ``GET /api/turns`` — the moves the person logged in owes at correspondence
  tables (oldest deadline first) and the server's clock; ``401``, ``not_logged_in``
* ``GET /api/mail`` — the account's mail settings (address, whether it wants mail)
* ``POST /api/mail`` ``{"email": "…" | null, "notify": true | false}`` — set them
  (the language of the mails is the page's); ``400``, ``bad_email``

When a move becomes due at a correspondence table (:attr:`TableManager.on_turn`),
:meth:`TurnNotices.turn` mails each of its people who is not at the table and
whose account asked for it, in the account's language, if the server sends mail
(``--smtp-host``). docs/web-protocol.md, "Correspondence tables".
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, Final

from email_validator import EmailNotValidError, validate_email
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from kartentisch.i18n import LANGUAGES
from kartentisch.storage.accounts import Account, AccountStore
from kartentisch.storage.turns import MailSettings, TurnStore
from kartentisch.web.accounts import read_object
from kartentisch.web.i18n import request_language, translate
from kartentisch.web.livetable import LiveTable
from kartentisch.web.mail import Mailer
from kartentisch.web.seats import TableError

__all__ = ["MAX_EMAIL", "TurnNotices", "TurnRoutes"]

log = logging.getLogger("kartentisch.web")

#: The longest address kept (RFC 5321's limit on a path).
MAX_EMAIL: Final = 254


class TurnRoutes:
    """The "your turn" list and the mail settings; ``refuse`` renders a refusal as the app
    does, ``take`` counts a request against the lobby's rate."""

    def __init__(
        self,
        accounts: Callable[[], AccountStore],
        account_of: Callable[[Request], Awaitable[Account | None]],
        refuse: Callable[[Request, TableError], Response],
        take: Callable[[Request], Awaitable[None]],
        wall_clock: Callable[[], float],
        mail_on: bool,
    ) -> None:
        self._accounts = accounts
        self._account_of = account_of
        self._refuse = refuse
        self._take = take
        self._wall_clock = wall_clock
        self._mail_on = mail_on

    def routes(self) -> list[Route]:
        return [
            Route("/api/turns", self.turns, methods=["GET"]),
            Route("/api/mail", self.mail, methods=["GET", "POST"]),
        ]

    def _store(self) -> TurnStore:
        return TurnStore(self._accounts().tables)

    async def _logged_in(self, request: Request) -> Account:
        account = await self._account_of(request)
        if account is None:
            raise TableError("not_logged_in", 401)
        return account

    async def turns(self, request: Request) -> Response:
        try:
            await self._take(request)
            account = await self._logged_in(request)
            due = await asyncio.to_thread(self._store().due, account.id)
        except TableError as exc:
            return self._refuse(request, exc)
        return JSONResponse(
            {
                "turns": [turn.to_json() for turn in due],
                "now": round(self._wall_clock() * 1000),
            }
        )

    async def mail(self, request: Request) -> Response:
        try:
            await self._take(request)
            account = await self._logged_in(request)
            store = self._store()
            if request.method == "POST":
                body = await read_object(request)
                email = checked_email(body.get("email"))
                notify = body.get("notify", False)
                if not isinstance(notify, bool):
                    raise TableError("bad_request", detail="notify: true or false")
                lang = request_language(request)
                await asyncio.to_thread(store.set_mail, account.id, email, notify=notify, lang=lang)
            settings = await asyncio.to_thread(store.mail_settings, account.id)
        except TableError as exc:
            return self._refuse(request, exc)
        return JSONResponse({**settings.to_json(), "server_sends": self._mail_on})


def checked_email(value: Any) -> str | None:
    """An address as kept (its domain in lower case), or None for none; ``bad_email``
    naming what is wrong otherwise. Only its form is checked (nothing is looked up)."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > MAX_EMAIL:
        refusal = TableError("bad_email")
        refusal.details = {"detail": f"at most {MAX_EMAIL} characters"}
        raise refusal
    try:
        checked = validate_email(value.strip(), check_deliverability=False)
    except EmailNotValidError as exc:
        refusal = TableError("bad_email")
        # What the checker found, in English, beside the message in the reader's language.
        refusal.details = {"detail": str(exc)}
        raise refusal from None
    return str(checked.normalized)


class TurnNotices:
    """Mails the people whose move has become due and who are not at the table."""

    def __init__(
        self,
        accounts: Callable[[], AccountStore],
        mailer: Mailer | None,
        public_url: str,
    ) -> None:
        self._accounts = accounts
        self.mailer = mailer
        self.public_url = public_url.rstrip("/")

    async def turn(self, table: LiveTable, seats: list[int]) -> None:
        """``table``'s move is newly due for ``seats``, whose people are not at the table:
        mail those who want it."""
        if self.mailer is None:
            return
        wanted = {
            seat: account for seat in seats if (account := table.seats[seat].account) is not None
        }
        if not wanted:
            return
        store = TurnStore(self._accounts().tables)
        settings = await asyncio.to_thread(store.mail_of, set(wanted.values()))
        deadline = table.summary().get("turn_deadline")
        for seat, account in sorted(wanted.items()):
            found = settings.get(account)
            if found is None or not found.notify or found.email is None:
                continue
            subject, body = self.compose(table, seat, found, deadline)
            await self.mailer.send(found.email, subject, body)

    def compose(
        self, table: LiveTable, seat: int, to: MailSettings, deadline: int | None
    ) -> tuple[str, str]:
        """The subject and text of the mail to ``seat``, in its account's language."""
        lang = to.lang if to.lang in LANGUAGES else "en"
        game = table.kind.titles.get(lang) or table.kind.name
        others = ", ".join(s.name for i, s in enumerate(table.seats) if i != seat)
        when = (
            datetime.fromtimestamp(deadline / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")
            if deadline is not None
            else "—"
        )
        fields = {
            "name": table.seats[seat].name,
            "game": game,
            "others": others,
            "deadline": when,
            "url": f"{self.public_url}/t/{table.id}",
            "account_url": f"{self.public_url}/account",
        }
        subject = translate(lang, "mail.turn_subject", **fields)
        body = translate(lang, "mail.turn_body", **fields)
        return subject, body
