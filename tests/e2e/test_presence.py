"""Leaving and coming back, and the wait between deals, in the browser.

A table whose only person closed the tab pauses (a spectator's page says so)
and goes on when the person is back; at a table of two people a stand-in plays
for the one who left after the grace time and hands the seat back when they
return; after a deal its summary waits for everyone's "Next deal".

The page marks on its root (``#app``) ``data-paused`` while the table is
paused, ``data-between`` (the deal just over) and ``data-waiting`` (the seats
still to say "next") between deals, and every seat box its ``data-presence``
(present, away, standin): the tests wait for these, never for time.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest
from websockets.sync.client import connect

from .conftest import PageErrors, ServerProcess, open_page, shot
from .pages import catalog, fill, hand, play_one, public_view

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

#: Ann at seat 0, Bo at seat 1 (joins), two quick bots.
TWO_PEOPLE = [{"kind": "you"}, {"kind": "open"}, {"kind": "bot", "level": "random"}]
TWO_PEOPLE += [{"kind": "bot", "level": "random"}]
QUICK_BOTS = [{"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 3


@pytest.fixture(scope="module")
def quick_server(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """A server whose stand-ins come after one second."""
    server = ServerProcess(tmp_path_factory.mktemp("e2e-presence"), grace=1.0)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def seat_link(server: ServerProcess, table_id: str, seat: int, token: str) -> str:
    return f"{server.url}/t/{table_id}#seat={seat}&token={token}"


def public_state(server: ServerProcess, table_id: str) -> dict[str, Any]:
    """The table as a spectator is sent it (view and summary), asked over the WebSocket."""
    with connect(f"ws://{server.address}/ws/tables/{table_id}") as ws:
        ws.send(json.dumps({"type": "hello"}))
        while True:
            message: dict[str, Any] = json.loads(ws.recv(timeout=10))
            if message["type"] == "state":
                return message


def drawn(page: Page) -> int:
    version: int = page.evaluate("() => Number(document.getElementById('app').dataset.version)")
    return version


def drive(
    server: ServerProcess,
    table_id: str,
    pages: dict[int, Page],
    stop: Callable[[dict[str, Any]], bool],
    limit: int = 400,
) -> dict[str, Any]:
    """Play the people's turns by clicking (and say "next" between deals) until the table's
    state passes ``stop``; return that state. Bots and stand-ins play by themselves."""
    watch = next(iter(pages.values()))
    for _ in range(limit):
        state = public_state(server, table_id)
        if stop(state):
            return state
        version = state["version"]
        gate = state["table"]["between_deals"]
        mover = state["view"]["to_move"]
        if gate is not None:
            for seat in gate["waiting"]:
                if seat in pages:
                    pages[seat].locator(".gate-next").first.click()
                    pages[seat].wait_for_function(
                        "(seat) => !(document.getElementById('app').dataset.waiting || '')"
                        ".split(',').includes(String(seat))",
                        arg=seat,
                    )
        elif mover in pages and not state["table"]["paused"]:
            page = pages[mover]
            page.wait_for_function(
                "(v) => Number(document.getElementById('app').dataset.version) >= v", arg=version
            )
            play_one(page)
        else:  # a bot's turn, or a stand-in's: the table moves on by itself
            watch.wait_for_function(
                "(v) => Number(document.getElementById('app').dataset.version) > v", arg=version
            )
    raise AssertionError("the table never got there")


def test_a_bots_only_table_pauses_while_its_person_is_away(
    server: ServerProcess, browser: Browser, page: Page, page_errors: PageErrors
) -> None:
    en = catalog(server, "en")
    created = server.post(
        "/api/tables",
        {"game": "slobberhannes", "name": "Ann", "seats": QUICK_BOTS, "options": {"target": 100}},
    )
    table_id = created["id"]
    link = seat_link(server, table_id, 0, created["token"])
    page.goto(f"{server.url}/t/{table_id}")  # a spectator
    page.wait_for_selector("#app[data-paused]")
    with open_page(browser, page_errors, "ann: ") as ann:
        ann.goto(link)
        ann.wait_for_selector(".hand-card.playable")
        page.wait_for_selector("#app:not([data-paused])")
        play_one(ann)
        ann.wait_for_selector(".hand-card.playable")
        cards = hand(ann)
        version = drawn(ann)
    # The tab is closed: the spectator sees the table paused, waiting for Ann.
    page.wait_for_selector("#app[data-paused]")
    page.wait_for_selector('.felt .seat[data-seat="0"][data-presence="away"]')
    status = page.locator(".status.paused").inner_text()
    assert status == fill(en["presence.paused"], names="Ann")
    shot(page, "presence-paused")
    assert public_view(server, table_id)["version"] == version
    with open_page(browser, page_errors, "ann again: ") as ann:
        ann.goto(link)
        ann.wait_for_selector(".hand-card.playable")
        # Nothing was played meanwhile: the same turn, the same hand.
        assert hand(ann) == cards
        assert drawn(ann) == version
        page.wait_for_selector("#app:not([data-paused])")
        page.wait_for_selector('.felt .seat[data-seat="0"][data-presence="present"]')
        play_one(ann)


def two_people(server: ServerProcess) -> tuple[str, list[str]]:
    created = server.post(
        "/api/tables",
        {"game": "slobberhannes", "name": "Ann", "seats": TWO_PEOPLE, "options": {"target": 100}},
    )
    joined = server.post(f"/api/tables/{created['id']}/join", {"name": "Bo"})
    return created["id"], [created["token"], joined["token"]]


def test_a_stand_in_plays_for_who_left_and_hands_the_seat_back(
    quick_server: ServerProcess, browser: Browser, page: Page, page_errors: PageErrors
) -> None:
    server = quick_server
    table_id, tokens = two_people(server)
    page.goto(seat_link(server, table_id, 0, tokens[0]))  # Ann
    with open_page(browser, page_errors, "bo: ") as bo:
        bo.goto(seat_link(server, table_id, 1, tokens[1]))
        page.wait_for_selector('.felt .seat[data-seat="1"][data-presence="present"]')
        at_bo = drive(
            server,
            table_id,
            {0: page, 1: bo},
            lambda s: s["view"]["to_move"] == 1 and s["table"]["between_deals"] is None,
        )
    # Bo's tab is closed at his turn. The table waits for him (no pause: Ann is there);
    # after the grace time a stand-in plays his card.
    page.wait_for_selector('.felt .seat[data-seat="1"][data-presence="away"]')
    assert page.locator("#app[data-paused]").count() == 0
    page.wait_for_selector('.felt .seat[data-seat="1"][data-presence="standin"]')
    shot(page, "presence-standin")
    page.wait_for_function(
        "(v) => Number(document.getElementById('app').dataset.version) > v",
        arg=at_bo["version"],
    )
    with open_page(browser, page_errors, "bo again: ") as bo:
        bo.goto(seat_link(server, table_id, 1, tokens[1]))
        page.wait_for_selector('.felt .seat[data-seat="1"][data-presence="present"]')
        bo.wait_for_selector('.felt .seat[data-seat="1"][data-presence="present"]')
        # Bo's next turn is his: his cards come up playable and his click is taken.
        turn = drive(
            server,
            table_id,
            {0: page, 1: bo},
            lambda s: s["view"]["to_move"] == 1 and s["table"]["between_deals"] is None,
        )
        assert turn["table"]["seats"][1]["presence"] == "present"
        bo.wait_for_function(
            "(v) => Number(document.getElementById('app').dataset.version) >= v",
            arg=turn["version"],
        )
        cards = hand(bo)
        code = play_one(bo)
        assert code in cards and code not in hand(bo)


def test_the_next_deal_waits_for_both_people(
    server: ServerProcess, browser: Browser, page: Page, page_errors: PageErrors
) -> None:
    en = catalog(server, "en")
    table_id, tokens = two_people(server)
    page.goto(seat_link(server, table_id, 0, tokens[0]))
    with open_page(browser, page_errors, "bo: ") as bo:
        bo.goto(seat_link(server, table_id, 1, tokens[1]))
        pages = {0: page, 1: bo}
        over = drive(server, table_id, pages, lambda s: s["table"]["between_deals"] is not None)
        for tab in pages.values():
            tab.wait_for_function(
                "(v) => Number(document.getElementById('app').dataset.version) >= v",
                arg=over["version"],
            )
            tab.wait_for_selector(".modal .gate-next")
            assert tab.locator(".modal h2").inner_text() == fill(en["ui.deal_over"], n=1)
            # Nothing can be played meanwhile: no card is raised behind the summary.
            assert tab.locator(".hand-card.playable").count() == 0
            assert tab.locator("#app").get_attribute("data-waiting") == "0,1"
        shot(page, "gate-summary")
        # Ann says next: her summary goes, and her page says whom the table waits for.
        page.locator(".modal .gate-next").click()
        page.wait_for_selector(".modal", state="detached")
        page.wait_for_selector('#app[data-waiting="1"]')
        waiting = page.locator(".status .gate-waiting").inner_text()
        assert waiting == fill(en["gate.waiting_for"], names="Bo")
        shot(page, "gate-waiting")
        bo.wait_for_selector('#app[data-waiting="1"]')
        assert bo.locator(".modal .gate-next").count() == 1
        # Bo closes the summary and says next from the status line.
        bo.locator(".modal .gate-close").click()
        bo.wait_for_selector(".modal", state="detached")
        bo.locator(".status .gate-next").click()
        for tab in pages.values():
            tab.wait_for_selector("#app:not([data-between])")
            assert tab.locator(".modal").count() == 0
        assert public_view(server, table_id)["deal_number"] == 2
