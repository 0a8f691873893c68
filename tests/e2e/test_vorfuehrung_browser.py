"""The Vorführung at a real table: the page says who is vorgeführt, and a person who is
offers no "gesund" (headless Chromium against ``kartentisch serve``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from .conftest import ServerProcess, shot
from .pages import catalog, public_view

if TYPE_CHECKING:
    from playwright.sync_api import Page

#: A DDV session of one game with the Vorführung: the first deal forces a Pflichtsolo.
TABLE = {
    "game": "doppelkopf",
    "name": "Ann",
    "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "heuristic"}] * 3,
    "options": {"preset": "ddv", "vorfuehrung": True, "games": 1},
}


@pytest.mark.parametrize("lang", ["de", "en", "ru"])
def test_the_page_says_who_is_vorgefuehrt(server: ServerProcess, page: Page, lang: str) -> None:
    created = server.post("/api/tables", TABLE)
    table_id = created["id"]
    view = public_view(server, table_id)
    forced = view["vorfuehrung"]
    assert forced is not None
    texts = catalog(server, lang)
    page.goto(
        f"{server.url}/t/{table_id}?lang={lang}#seat={created['seat']}&token={created['token']}"
    )
    name = "Ann (" + texts["ui.you"] + ")" if forced == 0 else view["names"][forced]
    want = texts["dk.vorfuehrung"].replace("{name}", name)
    page.wait_for_function(
        "([want]) => [...document.querySelectorAll('.dk-info span')]"
        ".some((s) => s.textContent === want)",
        arg=[want],
    )
    if forced == 0:
        page.wait_for_selector(".dk-question")
        assert page.locator(".dk-question button[data-action=gesund]").count() == 0
    shot(page, f"doppelkopf-vorfuehrung-{lang}")
