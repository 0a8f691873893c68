"""The web app in a real browser: headless Chromium against ``kartentisch serve``.

Each test drives the page as a person would (clicks, reloads, the language
switcher) and checks what it shows against what the server says: the
catalogs from ``/api/i18n/<lang>`` and a spectator's view over the WebSocket.
Bots play without delay. Screenshots of the main screens go to
``tests/e2e/artifacts/``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import httpx

from kartentisch.explain import render_lines

from .conftest import PageErrors, ServerProcess, shot
from .pages import catalog, fill, hand, play_one, public_view, texts_of_another_language

if TYPE_CHECKING:
    from playwright.sync_api import Page

LANGS = ("de", "en", "ru")
#: Four seats: the person at 0 and three quick bots.
QUICK_BOTS = [{"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 3


def open_seat(server: ServerProcess, page: Page) -> str:
    """A new table (the person and three bots) opened through its resume link; its id."""
    created = server.post(
        "/api/tables", {"game": "slobberhannes", "name": "Ann", "seats": QUICK_BOTS}
    )
    page.goto(f"{server.url}/t/{created['id']}#seat={created['seat']}&token={created['token']}")
    page.wait_for_selector(".hand-card.playable")
    table_id: str = created["id"]
    return table_id


def test_a_whole_deal_from_the_lobby_by_clicking_cards(server: ServerProcess, page: Page) -> None:
    en = catalog(server, "en")
    page.goto(f"{server.url}/")
    page.fill("#name", "Ann")
    page.select_option("#game", "slobberhannes")
    seats = page.locator(".seat-setup select")
    assert seats.count() == 4
    chosen = [seats.nth(i).input_value() for i in range(4)]
    assert chosen[0] == "you" and all(c.startswith("bot:") for c in chosen[1:]), chosen
    shot(page, "lobby")
    page.click("form.create button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    table_id = page.url.rsplit("/", 1)[1]

    played = 0
    while True:
        page.wait_for_selector(".hand-card.playable, .modal")
        if page.locator(".modal").count():
            break
        assert page.locator(".status.mine").inner_text().startswith(en["ui.your_turn"])
        play_one(page)
        played += 1
        if played == 3:
            shot(page, "table-mid-deal")
    assert played == 8  # 32 cards, 4 players

    # The deal summary: every penalty of the deal, and the score sheet.
    view = public_view(server, table_id)
    deal = view["deals"][0]
    names = [n + (f" ({en['ui.you']})" if i == 0 else "") for i, n in enumerate(view["names"])]
    modal = page.locator(".modal")
    assert modal.locator("h2").inner_text() == fill(en["ui.deal_over"], n=1)
    # every penalty with its trick or card, then each seat's sum (the deal's explanation)
    expected = render_lines("en", deal["explain"], names)
    assert [line["key"] for line in deal["explain"][: len(deal["penalties"])]] == [
        f"explain.sh.{p['reason']}" for p in deal["penalties"]
    ]
    assert modal.locator("ul.explain li").all_inner_texts() == expected
    assert sum(deal["points"]) == sum(p["chips"] for p in deal["penalties"]) >= 3
    row = [str(p) if p else "·" for p in deal["points"]]
    assert modal.locator(".score-sheet tbody tr").first.locator("td").all_inner_texts() == [
        "1",
        *row,
    ]
    shot(page, "deal-summary")

    modal.locator("button.primary").click()
    page.wait_for_selector(".modal", state="detached")
    side = page.locator("aside.side .score-sheet")
    assert side.locator("tbody tr").first.locator("td").all_inner_texts() == ["1", *row]
    totals = side.locator("tbody tr.totals th").all_inner_texts()[1:]
    assert totals == [str(p) for p in view["totals"]]
    assert page.locator("aside.side a[download]").count() == 1
    shot(page, "score-sheet")


def test_the_language_switch_changes_the_texts(server: ServerProcess, page: Page) -> None:
    texts = {lang: catalog(server, lang) for lang in LANGS}
    keys = ("lobby.new_table", "nav.lobby", "nav.rules", "nav.replay", "lobby.create")
    for key in keys:
        assert len({texts[lang][key] for lang in LANGS}) == 3, key

    page.goto(f"{server.url}/")
    heading = page.locator("form.create h2")
    heading.wait_for()
    assert heading.inner_text() == texts["en"]["lobby.new_table"]
    for lang in ("de", "ru", "en"):
        page.select_option("#lang", lang)
        page.wait_for_function(
            "([lang, text]) => document.documentElement.lang === lang"
            " && document.querySelector('form.create h2')?.textContent === text",
            arg=[lang, texts[lang]["lobby.new_table"]],
        )
        assert page.locator(".top nav a").all_inner_texts() == [
            texts[lang]["nav.lobby"],
            texts[lang]["nav.rules"],
            texts[lang]["nav.replay"],
        ]
        create = page.locator("form.create button[type=submit]").inner_text()
        assert create == texts[lang]["lobby.create"]
        assert page.title() == texts[lang]["ui.title"]
        shot(page, f"lobby-{lang}")

    # The choice is kept: a reload in Russian stays Russian.
    page.select_option("#lang", "ru")
    page.wait_for_function("() => document.documentElement.lang === 'ru'")
    page.reload()
    heading.wait_for()
    assert heading.inner_text() == texts["ru"]["lobby.new_table"]

    # The rules page follows the language too.
    page.locator(".top nav a").nth(1).click()
    page.wait_for_url(re.compile(r"/rules/slobberhannes$"))
    for lang in ("ru", "de", "en"):
        if lang != "ru":
            page.select_option("#lang", lang)
        markdown = httpx.get(f"{server.url}/api/rules/slobberhannes/{lang}", timeout=10).text
        first_section = next(line[3:] for line in markdown.splitlines() if line.startswith("## "))
        page.wait_for_function(
            "text => document.querySelector('article.rules h2')?.textContent === text",
            arg=first_section,
        )
        if lang == "en":
            shot(page, "rules")


def test_a_reload_resumes_the_seat(server: ServerProcess, page: Page) -> None:
    table_id = open_seat(server, page)
    play_one(page)
    page.wait_for_selector(".hand-card.playable")
    before = hand(page)
    assert len(before) == 7

    page.reload()
    page.wait_for_selector(".hand-card.playable")
    assert hand(page) == before
    assert "#" not in page.url  # the token moved from the link to localStorage
    assert page.locator(".seat.me .seat-name").inner_text().startswith("Ann")

    # The page speaks Russian after the switch, on the same connection, and play goes on.
    ru = catalog(server, "ru")
    page.select_option("#lang", "ru")
    page.wait_for_function(
        "text => document.querySelector('.status.mine')?.textContent.startsWith(text)",
        arg=ru["ui.your_turn"],
    )
    shot(page, "table-ru")
    # Every panel follows the switch, the chat kept across draws included.
    assert texts_of_another_language(page, ru, catalog(server, "en")) == []
    assert page.locator(".chat-form button[type=submit]").inner_text() == ru["chat.send"]
    play_one(page)
    page.wait_for_selector(".hand-card.playable")
    assert len(hand(page)) == 6
    assert public_view(server, table_id)["hand_sizes"][0] == 6

    # On a phone the table fits the screen: nothing sticks out sideways.
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("() => document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, "table-phone")


def test_the_game_survives_a_server_restart(
    server: ServerProcess, page: Page, page_errors: PageErrors
) -> None:
    """Kill the server (SIGKILL) mid-game and start it again on the same port and data.

    The module's last test: the other tests' tables are restored too.
    """
    en = catalog(server, "en")
    table_id = open_seat(server, page)
    play_one(page)
    page.wait_for_selector(".hand-card.playable")
    before = hand(page)
    version = public_view(server, table_id)["version"]

    # The browser complains about the refused connections while the server is down.
    page_errors.allowed += ["WebSocket connection", "ERR_CONNECTION_REFUSED"]
    server.kill()
    page.wait_for_function(
        "text => document.getElementById('banner')?.textContent === text",
        arg=en["ui.reconnecting"],
    )
    # A click meanwhile is not lost silently: the page says why nothing happens.
    page.locator(".hand-card.playable").first.click()
    page.wait_for_function(
        "text => document.getElementById('toast').textContent === text",
        arg=en["ui.reconnecting"],
    )
    assert hand(page) == before
    shot(page, "reconnecting")
    server.start()

    # The page reconnects by itself and shows the same state.
    page.wait_for_function(
        "() => document.getElementById('banner')?.textContent === ''", timeout=20_000
    )
    page.wait_for_selector(".hand-card.playable")
    assert hand(page) == before
    assert public_view(server, table_id)["version"] == version

    # Play goes on, and a reload shows the same state as the live page.
    play_one(page)
    page.wait_for_selector(".hand-card.playable")
    after = hand(page)
    assert len(after) == len(before) - 1
    page.reload()
    page.wait_for_selector(".hand-card.playable")
    assert hand(page) == after
    assert public_view(server, table_id)["version"] > version
