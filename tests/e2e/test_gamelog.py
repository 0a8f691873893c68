"""The game log beside the table, in a real browser, in German, Russian and English.

The person plays a card by click; the log must tell it, and the bots' cards, in
words of the page's language ("Ann (du) spielt ♥D"), with the names and cards
the server's own log gives. Screenshots at 1280×800 and 390×844 go to
``tests/e2e/artifacts/``.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import pytest
from websockets.sync.client import connect

from .conftest import ServerProcess, shot
from .pages import act, catalog, fill, play_one

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SEATS = [{"kind": "you"}] + [{"kind": "bot", "level": "heuristic"}] * 3
SUITS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
CARD_CODE = re.compile(r"^(10|[2-9JQKA])[CSHD]$")


def server_log(server: ServerProcess, table_id: str) -> list[dict[str, Any]]:
    """The table's whole game log, as a spectator is sent it."""
    with connect(f"ws://{server.address}/ws/tables/{table_id}") as ws:
        ws.send(json.dumps({"type": "hello"}))
        while True:
            message = json.loads(ws.recv(timeout=10))
            if message["type"] == "state":
                entries: list[dict[str, Any]] = message["log"]["entries"]
                return entries


def card_name(code: str, texts: dict[str, str]) -> str:
    """A card as the log writes it: suit first, the rank in the page's letters."""
    rank, suit = code[:-1], code[-1]
    if rank in ("J", "Q", "K", "A"):
        rank = texts[f"log.rank.{rank}"]
    return SUITS[suit] + rank


#: The version the page drew, and the versions of the log's entries it shows, in order.
DRAWN_ENTRIES = """() => {
  const lines = document.querySelectorAll('aside.game-log li[data-v]');
  const seen = [...lines].map(li => Number(li.dataset.v));
  return [Number(document.getElementById('app').dataset.version), [...new Set(seen)]];
}"""


#: The version the page drew and the lines of its log, read at one moment.
DRAWN_LINES = """() => [
  Number(document.getElementById('app').dataset.version),
  [...document.querySelectorAll('aside.game-log li')].map(li => li.textContent),
]"""


def log_lines(page: Page) -> tuple[int, list[str]]:
    """The version the page drew and the lines its log shows then."""
    drawn, lines = page.evaluate(DRAWN_LINES)
    return int(drawn), list(lines)


@pytest.mark.parametrize("lang", ["de", "ru", "en"])
def test_the_log_tells_a_played_card_and_the_bots_cards_in_words(
    server: ServerProcess, browser: Browser, lang: str
) -> None:
    texts = catalog(server, lang)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(30_000)
    try:
        page = context.new_page()
        created = server.post(
            "/api/tables", {"game": "slobberhannes", "name": "Ann", "seats": SEATS}
        )
        table_id = created["id"]
        page.goto(
            f"{server.url}/t/{table_id}?lang={lang}#seat={created['seat']}&token={created['token']}"
        )
        page.wait_for_selector(".hand-card.playable")
        # The log is one aside, the last child of the table root, titled in the language.
        assert page.eval_on_selector("#app", "a => a.lastElementChild.matches('aside.game-log')")
        assert page.inner_text("aside.game-log h3") == texts["log.title"]
        code = play_one(page)
        # The page drew the state after the card: its log holds the card's entry.
        mine = fill(
            texts["log.plays"], name=f"Ann ({texts['ui.you']})", card=card_name(code, texts)
        )
        page.wait_for_function(
            "text => [...document.querySelectorAll('aside.game-log li')]"
            ".some(li => li.textContent === text)",
            arg=mine,
        )
        # A few more cards: every action drawn once, in order, whatever came between.
        for _ in range(3):
            play_one(page)
        drawn, numbers = page.evaluate(DRAWN_ENTRIES)
        assert numbers == list(range(1, drawn + 1))
        # The bots' cards, as the server's log has them, in words on the page.
        drawn, shown = log_lines(page)
        seats = server.get(f"/api/tables/{table_id}")["table"]["seats"]
        bots = [e for e in server_log(server, table_id) if e["by"] == "bot" and e["v"] <= drawn]
        assert len(bots) >= 9  # the first three tricks, played out, hold nine of their cards
        for entry in bots:
            name = seats[entry["seat"]]["name"]
            said = fill(texts["log.plays"], name=name, card=card_name(entry["action"], texts))
            assert said in shown, (said, shown)
        # Nothing in English on the German or Russian page's log (names and cards aside).
        if lang != "en":
            assert not any(" plays " in line or "Trick " in line for line in shown), shown
        shot(page, f"gamelog-1280-{lang}")
        page.set_viewport_size({"width": 390, "height": 844})
        page.locator("aside.game-log").scroll_into_view_if_needed()
        shot(page, f"gamelog-390-{lang}")
    finally:
        context.close()


DOPPELKOPF = {
    "game": "doppelkopf",
    "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "heuristic"}] * 3,
    "options": {"preset": "house", "armut": False, "games": 4},
}


@pytest.mark.parametrize("lang", ["de", "ru"])
def test_the_doppelkopf_log_tells_the_declarations(
    server: ServerProcess, browser: Browser, lang: str
) -> None:
    texts = catalog(server, lang)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(30_000)
    try:
        page = context.new_page()
        created = server.post("/api/tables", {"name": "Ann", **DOPPELKOPF})
        table_id = created["id"]
        page.goto(
            f"{server.url}/t/{table_id}?lang={lang}#seat={created['seat']}&token={created['token']}"
        )
        act(page, page.locator(".dk-question button[data-action=gesund]").first)
        said = fill(texts["log.says"], name=f"Ann ({texts['ui.you']})", call=texts["dk.call.pass"])
        page.wait_for_function(
            "text => [...document.querySelectorAll('aside.game-log li')]"
            ".some(li => li.textContent === text)",
            arg=said,
        )
        drawn, shown = log_lines(page)
        seats = server.get(f"/api/tables/{table_id}")["table"]["seats"]
        bots = [e for e in server_log(server, table_id) if e["by"] == "bot" and e["v"] <= drawn]
        for entry in bots:
            name = seats[entry["seat"]]["name"]
            if entry["action"] == "pass":
                assert fill(texts["log.says"], name=name, call=texts["dk.call.pass"]) in shown
            elif CARD_CODE.match(entry["action"]):
                card = card_name(entry["action"], texts)
                assert fill(texts["log.plays"], name=name, card=card) in shown
        shot(page, f"gamelog-doppelkopf-1280-{lang}")
    finally:
        context.close()
