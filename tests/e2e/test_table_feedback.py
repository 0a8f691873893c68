"""What the table tells a player: the completed trick that stays on the felt, the reason
a greyed card may not be played, speech bubbles at the seats, and the card moves (off
under ``prefers-reduced-motion``).

Like the other browser tests: headless Chromium against ``kartentisch serve`` with bots
that play without delay. Each check looks at a state that holds still (the person's
turn: the table waits for them) or at what the page added to its DOM, recorded by a
MutationObserver installed before the click; nothing waits for time to pass.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from kartentisch.i18n import t as cli_text

from .conftest import WAIT_MS, ServerProcess, shot
from .pages import act, catalog, hand, play_one, public_view

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, WebSocketRoute

SLOBBERHANNES = {
    "game": "slobberhannes",
    "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 3,
}
DOPPELKOPF = {
    "game": "doppelkopf",
    "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "heuristic"}] * 3,
    "options": {"preset": "house", "armut": False},
}
SUITS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}

#: The trick the felt shows: its cards (in the order played), the winner mark, and done.
FELT_TRICK = """() => {
  const trick = document.querySelector('.felt .trick');
  const cards = [...trick.querySelectorAll('.trick-card:not(.collecting)')];
  return {
    cards: cards.map((c) => c.dataset.card),
    seats: cards.map((c) => Number(c.dataset.seat)),
    winner: cards.filter((c) => c.classList.contains('winner')).map((c) => Number(c.dataset.seat)),
    done: trick.dataset.done === 'true',
  };
}"""

#: Records what the page adds from now on: bubbles (seat, text) and moving trick cards.
WATCH = """() => {
  window.__seen = { bubbles: [], moves: [] };
  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) {
      if (!(node instanceof Element)) continue;
      const all = (sel) => [node, ...node.querySelectorAll(sel)].filter((e) => e.matches(sel));
      for (const b of all('.bubble')) {
        window.__seen.bubbles.push({ seat: Number(b.dataset.seat), text: b.textContent });
      }
      for (const c of all('.trick-card.arriving')) {
        window.__seen.moves.push(getComputedStyle(c).animationName);
      }
    }
  }).observe(document.getElementById('app'), { childList: true, subtree: true });
}"""


def open_table(server: ServerProcess, page: Page, body: dict[str, Any], lang: str = "en") -> str:
    created = server.post("/api/tables", {"name": "Ann", **body})
    page.goto(
        f"{server.url}/t/{created['id']}?lang={lang}#seat={created['seat']}&token={created['token']}"
    )
    table_id: str = created["id"]
    return table_id


@pytest.fixture
def make_page(browser: Browser) -> Iterator[Any]:
    contexts: list[Any] = []

    def make(lang: str = "en", reduced_motion: str = "no-preference") -> Page:
        context = browser.new_context(
            locale={"de": "de-DE", "en": "en-US", "ru": "ru-RU"}[lang],
            viewport={"width": 1280, "height": 800},
            reduced_motion=reduced_motion,  # type: ignore[arg-type]
        )
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        page: Page = context.new_page()
        return page

    yield make
    for context in contexts:
        context.close()


def close_summary(page: Page) -> bool:
    """Close the summary of a deal if one is open; whether one was."""
    button = page.locator(".modal button.primary")
    if not button.count():
        return False
    button.first.click()
    page.wait_for_selector(".modal", state="detached")
    return True


def my_turn(page: Page, server: ServerProcess, table_id: str) -> dict[str, Any]:
    """Wait for the person's turn (the table holds still then); the public view, as drawn."""
    page.wait_for_selector(".hand-card.playable, .modal button.primary")
    while close_summary(page):
        page.wait_for_selector(".hand-card.playable, .modal button.primary")
    view = public_view(server, table_id)
    page.wait_for_function(
        "(v) => document.getElementById('app').dataset.version === String(v)", arg=view["version"]
    )
    return view


def test_the_completed_trick_stays_on_the_felt_until_the_next_lead(
    server: ServerProcess, make_page: Any
) -> None:
    page = make_page()
    table_id = open_table(server, page, SLOBBERHANNES)
    stayed = 0
    for _ in range(60):
        view = my_turn(page, server, table_id)
        felt = page.evaluate(FELT_TRICK)
        if view["trick"]["cards"]:
            # A trick being played: its cards, nobody marked yet.
            assert felt == {
                "cards": view["trick"]["cards"],
                "seats": view["trick"]["seats"],
                "winner": [],
                "done": False,
            }
        elif view["last_trick"] is not None:
            # The person leads next: the trick just completed (its last card too) is still
            # on the felt, with the seat that took it marked, until the person leads.
            last = view["last_trick"]
            assert felt == {
                "cards": last["cards"],
                "seats": last["seats"],
                "winner": [last["winner"]],
                "done": True,
            }
            assert len(felt["cards"]) == view["players"]
            stayed += 1
            if stayed == 1:
                shot(page, "trick-stays")
            if stayed >= 2:
                break
        play_one(page)
    assert stayed >= 2, "the person never led after a completed trick"


def test_doppelkopf_keeps_the_completed_trick_the_same_way(
    server: ServerProcess, make_page: Any
) -> None:
    """The same code on the Doppelkopf felt: the trick just completed stays until the lead."""
    page = make_page()
    table_id = open_table(server, page, DOPPELKOPF)
    stayed = 0
    for _ in range(80):
        page.wait_for_selector(".dk-actions button, .hand-card.playable, .modal button.primary")
        if close_summary(page):
            continue
        declare = page.locator(
            ".dk-question button[data-action=gesund], .dk-actions button[data-action]"
        )
        if not page.locator(".hand-card.playable").count():
            act(page, declare.first)
            continue
        view = my_turn(page, server, table_id)
        felt = page.evaluate(FELT_TRICK)
        if view["trick"]["cards"]:
            assert felt["cards"] == view["trick"]["cards"] and not felt["done"]
            assert felt["winner"] == []
        elif view["tricks"]:
            last = view["tricks"][-1]
            assert felt == {
                "cards": last["cards"],
                "seats": last["seats"],
                "winner": [last["winner"]],
                "done": True,
            }
            stayed += 1
            if stayed >= 2:
                break
        play_one(page)
    assert stayed >= 2, "the person never led after a completed trick"


@pytest.mark.parametrize("lang", ["de", "ru", "en"])
def test_a_card_that_does_not_follow_suit_says_why(
    server: ServerProcess, make_page: Any, lang: str
) -> None:
    page = make_page(lang)
    table_id = open_table(server, page, SLOBBERHANNES, lang)
    for _ in range(40):
        view = my_turn(page, server, table_id)
        blocked = page.locator(".hand-card.blocked")
        if view["trick"]["cards"] and blocked.count():
            break
        play_one(page)
    else:
        pytest.fail("the person never held a card that does not follow suit")
    led = view["trick"]["cards"][0]
    before = hand(page)
    code = blocked.first.locator("svg").get_attribute("data-card")
    assert code is not None and code[-1] != led[-1]
    # aria-disabled (what a screen reader hears), yet clickable: Playwright's check of
    # "enabled" counts aria-disabled, so the click is forced past it.
    blocked.first.click(force=True)
    why = page.locator(".why:not([hidden])")
    why.wait_for()
    # The engine's rule, in the page's language, as the terminal says it.
    assert why.text_content() == cli_text(lang, "must_follow_suit", suit=SUITS[led[-1]])
    assert why.get_attribute("data-rule") == "must_follow_suit"
    assert hand(page) == before  # nothing was played
    shot(page, f"why-{lang}")
    # The next move clears it.
    play_one(page)
    page.wait_for_selector(".why", state="hidden")


def test_declarations_and_announcements_show_in_bubbles_at_the_seat(
    server: ServerProcess, make_page: Any
) -> None:
    page = make_page()
    open_table(server, page, DOPPELKOPF)
    en = catalog(server, "en")
    page.wait_for_selector(".dk-actions button, .hand-card.playable")
    page.evaluate(WATCH)
    said = False
    announced = False
    for _ in range(40):
        # The person's turn (the table waits), or a summary to close.
        page.wait_for_selector(".dk-actions button, .hand-card.playable, .modal button.primary")
        if close_summary(page):
            continue
        word = page.locator(
            ".dk-announce button[data-action=re], .dk-announce button[data-action=kontra]"
        )
        if word.count():
            action = word.first.get_attribute("data-action")
            act(page, word.first)
            bubbles = page.evaluate("() => window.__seen.bubbles")
            if {"seat": 0, "text": en[f"dk.word.{action}"] + "!"} in bubbles:
                announced = True
                break
            # Refused as stale (a bot moved meanwhile): said again while it is offered.
            continue
        # The one declaration question of the deal, answered "Gesund".
        gesund = page.locator(".dk-question button[data-action=gesund]")
        if gesund.count():
            act(page, gesund.first)
            # The person's own "gesund" shows at the person's seat (once the server took
            # it: an answer refused as stale is sent again by the page).
            page.wait_for_function(
                "(text) => window.__seen.bubbles.some((b) => b.seat === 0 && b.text === text)",
                arg=en["dk.call.pass"],
            )
            said = True
            continue
        # Any other question sends its first answer (buttons that send carry data-action).
        answer = page.locator(".dk-actions button[data-action]")
        if answer.count():
            act(page, answer.first)
            continue
        play_one(page)
    assert said and announced
    # The bots' declarations were shown at their seats, too.
    seats = {b["seat"] for b in page.evaluate("() => window.__seen.bubbles")}
    assert seats - {0}


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_cards_move_to_the_trick_unless_motion_is_reduced(
    server: ServerProcess, make_page: Any, motion: str
) -> None:
    page = make_page(reduced_motion=motion)
    open_table(server, page, SLOBBERHANNES)
    page.wait_for_selector(".hand-card.playable")
    page.evaluate(WATCH)
    for _ in range(3):
        page.wait_for_selector(".hand-card.playable, .modal button.primary")
        close_summary(page)
        play_one(page)
    moves = page.evaluate("() => window.__seen.moves")
    assert moves, "no card came into the trick"
    expected = "none" if motion == "reduce" else "trick-in"
    assert set(moves) == {expected}


def test_a_card_played_by_the_turn_timer_is_said_at_the_seat(
    server: ServerProcess, make_page: Any
) -> None:
    """The page reads ``by`` (who made the latest action) from the state messages: here
    the server's messages are passed through with ``last_action`` added, as if the turn
    timer had played every action after the first state."""
    page = make_page()
    first: list[int] = []

    def relay(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def down(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "state" and data.get("view"):
                if not first:
                    first.append(data["version"])
                elif data["version"] > first[0]:
                    data["last_action"] = {"seat": 0, "by": "timer"}
            elif data.get("type") == "patch" and first and data["version"] > first[0]:
                # (a state patch: the page's copy of the state gets it the same way)
                data.setdefault("set", {})["last_action"] = {"seat": 0, "by": "timer"}
            ws.send(json.dumps(data))

        upstream.on_message(down)
        ws.on_message(lambda message: upstream.send(message))

    page.route_web_socket(re.compile(r"/ws/tables/"), relay)
    open_table(server, page, SLOBBERHANNES)
    en = catalog(server, "en")
    page.wait_for_selector(".hand-card.playable")
    page.evaluate(WATCH)
    play_one(page)
    assert {"seat": 0, "text": en["ui.timer_played"]} in page.evaluate(
        "() => window.__seen.bubbles"
    )
