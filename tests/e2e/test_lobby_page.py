"""The lobby in a real browser: the name is asked in the page, private tables stay unlisted."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .conftest import ServerProcess, shot
from .pages import catalog

if TYPE_CHECKING:
    from playwright.sync_api import Dialog, Page


def test_joining_asks_the_name_in_the_page_and_remembers_it(
    server: ServerProcess, page: Page
) -> None:
    de = catalog(server, "de")
    browser_dialogs: list[str] = []

    def dialog(d: Dialog) -> None:
        browser_dialogs.append(d.type)
        d.dismiss()

    page.on("dialog", dialog)
    seats = [{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]
    created = server.post("/api/tables", {"game": "slobberhannes", "name": "Ann", "seats": seats})
    page.goto(f"{server.url}/t/{created['id']}?lang=de")
    page.get_by_role("button", name=de["lobby.join"]).click()
    asked = page.get_by_role("dialog", name=de["lobby.name_title"])
    asked.wait_for()
    shot(page, "join-name-de")
    asked.locator("input").fill("Bo")
    asked.get_by_role("button", name=de["lobby.join"]).click()
    # Seated: the table starts with its last seat taken, and Bo's hand is drawn.
    page.wait_for_selector(".hand-card")
    assert page.evaluate("localStorage.getItem('kt.name')") == "Bo"
    assert browser_dialogs == [], "the browser's own prompt was used"


def test_a_private_table_is_left_out_of_the_list(server: ServerProcess, page: Page) -> None:
    en = catalog(server, "en")
    page.goto(f"{server.url}/?lang=en")
    page.fill("#name", "Ann")
    page.select_option("#game", "slobberhannes")
    page.locator(".seat-setup select").nth(1).select_option("open")
    page.check("#private")
    page.click("form.create button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    table_id = page.url.rsplit("/", 1)[1]
    page.get_by_text(en["lobby.private_note"]).wait_for()
    listed = {t["id"] for t in server.get("/api/tables")["tables"]}
    assert table_id not in listed
