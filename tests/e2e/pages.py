"""Helpers shared by the browser tests: the server's catalogs and public view, playing
a card, a record in the replay viewer and its analysis."""

from __future__ import annotations

import itertools
import json
import re
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
from websockets.sync.client import connect

from web.servers import ServerProcess

from .conftest import WAIT_MS

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

#: The cards of the hand on the page, as codes.
HAND_CARDS = "els => els.map(e => e.getAttribute('data-card'))"
#: Forget the version the page's last action was sent with.
FORGET_SENT = "() => { delete document.getElementById('app').dataset.sent; }"
#: True once the page sent an action and drew a state newer than the one it was made on.
ANSWERED = """() => {
  const app = document.getElementById('app');
  return app.dataset.sent !== undefined && Number(app.dataset.version) > Number(app.dataset.sent);
}"""


def hand(page: Page) -> list[str]:
    """The codes of the cards in the hand the page shows."""
    cards: list[str] = page.eval_on_selector_all(".hand .card", HAND_CARDS)
    return cards


def act(page: Page, target: Locator) -> None:
    """Click ``target`` (a button or card that sends an action) and wait until the page
    drew the server's answer: a state newer than the one the action was made on.

    If the table moved on meanwhile (another seat announced, a bot acted) the server
    refuses the action as stale, and the newer state comes all the same: either way
    the caller looks at the page again, not at a state the answer replaces.
    """
    page.evaluate(FORGET_SENT)
    target.click()
    page.wait_for_function(ANSWERED)


def play_one(page: Page) -> str:
    """Click a raised (playable) card until the server accepted one; its code.

    A click refused as stale (the table moved on meanwhile) is tried again on the
    state the page shows then.
    """
    for _ in range(5):
        card = page.locator(".hand-card.playable").first
        card.wait_for()
        code = card.locator("svg").get_attribute("data-card")
        assert code is not None
        before = hand(page)
        act(page, card)
        if hand(page) != before:
            return code
    raise AssertionError(f"no card was accepted; the hand is {hand(page)}")


def catalog(server: ServerProcess, lang: str) -> dict[str, str]:
    messages: dict[str, str] = httpx.get(f"{server.url}/api/i18n/{lang}", timeout=10).json()[
        "messages"
    ]
    return messages


def bots(n: int, level: str) -> list[dict[str, str]]:
    """``n`` bot seats of ``level`` for a table's request."""
    return [{"kind": "bot", "level": level}] * n


#: Of the texts given, those the page shows now (its words, placeholders and labels).
SHOWN = """(texts) => {
  const shown = new Set([document.body.innerText,
    ...[...document.querySelectorAll('[placeholder]')].map((e) => e.placeholder),
    ...[...document.querySelectorAll('[aria-label]')].map((e) => e.ariaLabel),
  ].join('\\n').split('\\n'));
  return texts.filter((text) => shown.has(text));
}"""


def texts_of_another_language(
    page: Page, wanted: dict[str, str], other: dict[str, str]
) -> list[str]:
    """The texts of the ``other`` language's catalog (whole, without fields, not also
    texts of ``wanted``) that the page shows: its words, placeholders and labels."""
    own = set(wanted.values())
    candidates = [
        text for text in other.values() if "{" not in text and len(text) >= 4 and text not in own
    ]
    shown: list[str] = page.evaluate(SHOWN, candidates)
    return sorted(shown)


def fill(template: str, **params: Any) -> str:
    """The page's ``t()``: ``{name}`` fields filled from ``params``."""
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m[1]]) if m[1] in params else m[0], template)


#: The loopback addresses the spectators of :func:`public_view` come from, in turn: the
#: server limits hellos per address, and a test asking for the view at every turn
#: must not spend the person's page's hellos (127.0.0.1) nor run out of its own.
_SPECTATOR_SOURCES = itertools.cycle(f"127.0.0.{n}" for n in range(2, 255))


def public_view(server: ServerProcess, table_id: str) -> dict[str, Any]:
    """The table as a spectator sees it, asked over the WebSocket."""
    sock = socket.socket()
    sock.bind((next(_SPECTATOR_SOURCES), 0))
    sock.connect(("127.0.0.1", server.port))
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}", sock=sock) as ws:
        ws.send(json.dumps({"type": "hello"}))
        while True:
            message = json.loads(ws.recv(timeout=10))
            if message["type"] == "state":
                view: dict[str, Any] = message["view"]
                return view


def open_record(page: Page, server: ServerProcess, lang: str, record: Path) -> None:
    """Open the replay viewer in ``lang`` and load ``record`` from a file, as a person
    does; return once its first trick is drawn."""
    page.goto(f"{server.url}/replay?lang={lang}")
    page.set_input_files("#record-file", str(record))
    page.wait_for_selector(".replay-trick figure")


def analyse(page: Page, seat: int) -> None:
    """ "Analyse this deal" in the replay viewer for ``seat``; return once the verdict is
    drawn (the server works it out in a worker: the wait is for the event)."""
    page.click(".replay-analysis > summary")
    page.select_option(".analysis-seat", str(seat))
    page.click(".analysis-go")
    page.wait_for_selector(".analysis-verdict", timeout=WAIT_MS * 4)
