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


#: One entry of every kind the server's log has (docs/web-protocol.md, "The game log").
EVERY_KIND = [
    {"v": 1, "seat": 1, "action": "cut 12", "by": "bot", "deal": 1, "events": []},
    {"v": 2, "seat": 0, "action": "QC", "by": "timer", "deal": 1, "events": [
        {"type": "trick_won", "trick": 1, "seat": 0},
        {"type": "penalty", "seat": 0, "reason": "first_trick", "chips": 1, "trick": 1},
        {"type": "penalty", "seat": 0, "reason": "queen_of_clubs", "chips": 1, "trick": 1},
        {"type": "deal_ended", "points": [2, 0, 0, 0]},
        {"type": "match_ended", "losers": [0], "winners": [1, 2, 3]},
    ]},
    {"v": 3, "seat": 2, "action": "pass", "by": "standin", "deal": 2, "events": []},
    {"v": 4, "seat": 3, "action": "vorbehalt", "by": "auto", "deal": 2, "events": []},
    {"v": 5, "seat": 3, "action": "solo queens ouvert", "by": "bot", "deal": 2, "events": [
        {"type": "play_started", "game_type": "queens", "soloist": 3, "ouvert": True, "leader": 0},
    ]},
    {"v": 6, "seat": 1, "action": "scharfe aces", "by": "bot", "deal": 3, "events": []},
    {"v": 7, "seat": 1, "action": "hochzeit first_trump", "by": "bot", "deal": 3, "events": []},
    {"v": 8, "seat": 2, "action": "armut", "by": "bot", "deal": 3, "events": [
        {"type": "armut_offered", "seat": 2, "trumps": 2, "direction": "up"},
    ]},
    {"v": 9, "seat": 0, "action": "accept", "by": "person", "deal": 3, "events": []},
    {"v": 10, "seat": 2, "action": "give", "by": "bot", "deal": 3, "events": [
        {"type": "armut_cards_passed", "seat": 2, "to": 0, "kind": "give", "count": 4, "trumps": 4},
    ]},
    {"v": 11, "seat": 0, "action": "return", "by": "person", "deal": 3, "events": [
        {"type": "armut_cards_passed", "seat": 0, "to": 2, "kind": "return", "count": 4,
         "trumps": 0},
        {"type": "play_started", "game_type": "armut", "soloist": None, "ouvert": False,
         "leader": 1},
    ]},
    {"v": 12, "seat": 1, "action": "no60", "by": "bot", "deal": 3, "events": [
        {"type": "announced", "seat": 1, "party": "re", "word": "no60", "implied": ["re", "no90"]},
    ]},
    {"v": 13, "seat": 1, "action": "10H", "by": "bot", "deal": 3, "events": [
        {"type": "trick_won", "trick": 1, "seat": 1, "augen": 21},
        {"type": "hochzeit_partner_found", "seat": 1, "partner": 3, "trick": 1},
    ]},
    {"v": 14, "seat": 0, "action": "take_back", "by": "person", "deal": 3, "events": [
        {"type": "card_taken_back", "seat": 0, "card": "AD"},
    ]},
    {"v": 15, "seat": 0, "action": "AD", "by": "person", "deal": 3, "events": [
        {"type": "hochzeit_alone", "seat": 1, "trick": 3},
        {"type": "deal_ended", "game_type": "normal", "solo": False, "re": [1, 3],
         "augen": {"re": 150, "kontra": 90}, "winner": "re", "points": [-3, 3, -3, 3]},
        {"type": "miese", "seat": 2},
    ]},
    {"v": 16, "seat": 3, "action": "redeal", "by": "bot", "deal": 4, "events": [
        {"type": "redeal", "reason": "kings", "seat": 3},
    ]},
    {"v": 16, "seat": 2, "note": "standin_on"},
    {"v": 16, "seat": 2, "note": "standin_off"},
    {"v": 16, "seat": None, "note": "paused"},
    {"v": 16, "seat": None, "note": "resumed"},
]  # fmt: skip

DRAW_EVERY_KIND = """async (entries) => {
  const { drawLog } = await import('/static/gamelog.js');
  const root = document.createElement('div');
  const message = {
    version: 16, log: { epoch: 'test', from: 0, entries },
    view: { seat: 0, names: ['Ann', 'Ben', 'Carla', 'Dan'] }, table: { seats: [] },
  };
  drawLog(root, message, { memory: {} });
  return [...root.querySelectorAll('aside.game-log li')].map(li => li.textContent);
}"""


@pytest.mark.parametrize("lang", ["de", "ru", "en"])
def test_every_kind_of_entry_is_told_in_words(server: ServerProcess, page: Page, lang: str) -> None:
    texts = catalog(server, lang)
    page.goto(f"{server.url}/?lang={lang}")
    page.wait_for_selector("form.create")
    lines: list[str] = page.evaluate(DRAW_EVERY_KIND, EVERY_KIND)
    # Every entry in words: no key, no empty field, no missing name.
    assert len(lines) >= len(EVERY_KIND) + 4, lines
    for line in lines:
        assert not re.search(r"\b(log|dk|reason|cut|ui)\.\w|\{|undefined|null|#\d", line), line
    assert fill(
        texts["log.plays"], name=f"Ann ({texts['ui.you']})", card="♣" + texts["log.rank.Q"]
    ) in " ".join(lines)
    assert any(texts["log.by.timer"] in line for line in lines)
    assert any(fill(texts["log.by.standin"], name="Carla") in line for line in lines)
    # The Armut's cards are never named: only how many went, and how many trumps
    # (four: a lone Fuchs not counted for the Armut, option armut_count_foxes).
    assert (
        fill(texts["log.armut_give"], name="Carla", to=f"Ann ({texts['ui.you']})", trumps=4, k=4)
        in lines
    )
    if lang != "en":
        words = (" plays ", "Trick ", "Game over", "Nobody", "stand-in", "time ran out", " wins")
        assert not any(w in line for w in words for line in lines), lines
