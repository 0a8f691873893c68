"""A local SMTP server for the tests of the mails (aiosmtpd), and its inbox."""

from __future__ import annotations

import contextlib
import email
import email.policy
import queue
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

from .servers import free_port

__all__ = ["Inbox", "smtp_server"]


class Inbox:
    """aiosmtpd's handler: every mail received goes into :attr:`mails`, parsed."""

    def __init__(self) -> None:
        self.mails: queue.Queue[EmailMessage] = queue.Queue()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        content = envelope.original_content or envelope.content
        assert isinstance(content, bytes)
        mail = email.message_from_bytes(content, policy=email.policy.default)
        assert isinstance(mail, EmailMessage)
        self.mails.put(mail)
        return "250 OK"

    def next(self, timeout: float = 60) -> EmailMessage:
        """The next mail (``timeout`` only guards against one that never comes)."""
        return self.mails.get(timeout=timeout)


@contextlib.contextmanager
def smtp_server(inbox: Inbox | None = None) -> Iterator[tuple[Inbox, int]]:
    """An SMTP server on 127.0.0.1 delivering into ``inbox`` (a new one if None)."""
    from aiosmtpd.controller import Controller

    box = inbox or Inbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()
