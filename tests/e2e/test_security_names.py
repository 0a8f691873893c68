"""Hostile player names in a real browser: shown as text, never run as markup.

People named like HTML tags take seats; the lobby, the waiting room and the
game screen must show the names literally and create no element from them.
The ``page`` fixture fails the test on any script error or console error, so
an ``onerror`` that ran (or a Content-Security-Policy report of one) would
fail it too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .conftest import ServerProcess

if TYPE_CHECKING:
    from playwright.sync_api import Dialog, Page

#: At most 24 characters each: the server refuses longer names.
NAMES = ["<img src=x onerror=a()>", "<script>alert(1)", '"><b id=bold>x</b>']
SEATS = [{"kind": "you"}, {"kind": "open"}, {"kind": "open"}, {"kind": "bot"}]
#: Elements a name would have made, had it been parsed as HTML.
INJECTED = "img[src='x'], #app script, b#bold, svg[onload]"


def assert_shown_as_text(page: Page, names: list[str]) -> None:
    text = page.inner_text("#app")
    for name in names:
        assert name in text, name
    assert page.locator(INJECTED).count() == 0


def test_hostile_names_are_shown_as_text(server: ServerProcess, page: Page) -> None:
    dialogs: list[str] = []

    def dialog(opened: Dialog) -> None:  # an alert() that ran
        dialogs.append(opened.message)
        opened.dismiss()

    page.on("dialog", dialog)
    created = server.post(
        "/api/tables", {"game": "slobberhannes", "name": NAMES[0], "seats": SEATS}
    )
    table_id = created["id"]
    server.post(f"/api/tables/{table_id}/join", {"name": NAMES[1]})
    # The lobby's list of open tables.
    page.goto(server.url)
    page.wait_for_selector(".table-list li")
    assert_shown_as_text(page, NAMES[:2])
    # The waiting room, watched.
    page.goto(f"{server.url}/t/{table_id}")
    page.wait_for_selector("ol.seats li")
    assert_shown_as_text(page, NAMES[:2])
    # The game, once the last seat is taken: the seats around the felt.
    server.post(f"/api/tables/{table_id}/join", {"name": NAMES[2]})
    page.wait_for_selector(".seat-name")
    assert_shown_as_text(page, NAMES)
    assert dialogs == []
