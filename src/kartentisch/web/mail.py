"""Mail through a configured SMTP server (off unless ``kartentisch serve --smtp-host``).

The server mails a person whose move has become due at a correspondence table
(docs/web.md, "Correspondence tables") when their account asked for it. The
standard library's :mod:`smtplib` sends, in a worker thread, so that a slow
mail server never holds a table; a mail that cannot be sent is logged and
dropped (the "your turn" list and the page still tell). The password comes
from the environment (``KARTENTISCH_SMTP_PASSWORD``), never the command line.
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Final, Literal

__all__ = ["SECURITY", "Mailer", "SmtpSettings"]

log = logging.getLogger("kartentisch.mail")

#: How the connection to the SMTP server is protected: ``starttls`` (upgraded after
#: connecting, port 587), ``tls`` (from the start, port 465) or ``none`` (a local relay).
SECURITY: Final = ("starttls", "tls", "none")
Security = Literal["starttls", "tls", "none"]


@dataclass(frozen=True)
class SmtpSettings:
    """Where and how mail is sent."""

    host: str
    port: int = 587
    #: The sender's address (``From``).
    sender: str = "kartentisch@localhost"
    security: Security = "starttls"
    user: str | None = None
    password: str | None = None
    #: Seconds to wait for the server at each step.
    timeout: float = 20.0


class Mailer:
    """Sends plain-text mails through :class:`SmtpSettings`' server; counts what it did."""

    def __init__(self, settings: SmtpSettings) -> None:
        self.settings = settings
        self.sent = 0
        self.failed = 0

    def message(self, to: str, subject: str, body: str) -> EmailMessage:
        """The mail as it is sent (UTF-8 text, a date and a message id)."""
        mail = EmailMessage()
        mail["From"] = self.settings.sender
        mail["To"] = to
        mail["Subject"] = subject
        mail["Date"] = formatdate(localtime=False)
        domain = self.settings.sender.rpartition("@")[2] or "localhost"
        mail["Message-ID"] = make_msgid(domain=domain)
        mail.set_content(body)
        return mail

    async def send(self, to: str, subject: str, body: str) -> bool:
        """Send one mail; False (logged) if the server would not take it."""
        mail = self.message(to, subject, body)
        try:
            await asyncio.to_thread(self._deliver, mail)
        except (OSError, smtplib.SMTPException) as exc:
            self.failed += 1
            log.warning("cannot mail %s: %s", to, exc)
            return False
        self.sent += 1
        return True

    def _deliver(self, mail: EmailMessage) -> None:
        settings = self.settings
        context = ssl.create_default_context()
        client: smtplib.SMTP
        if settings.security == "tls":
            client = smtplib.SMTP_SSL(
                settings.host, settings.port, timeout=settings.timeout, context=context
            )
        else:
            client = smtplib.SMTP(settings.host, settings.port, timeout=settings.timeout)
        with client:
            if settings.security == "starttls":
                client.starttls(context=context)
            if settings.user is not None:
                client.login(settings.user, settings.password or "")
            client.send_message(mail)
