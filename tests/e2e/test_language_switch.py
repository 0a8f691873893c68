"""One language at a time, after a switch too.

Each screen is opened in English, then switched to German and to Russian with the
header's language menu, on the same page (a table keeps its connection). After each
switch the page must show no whole text of the language it left: not in its words,
not in a placeholder, not in a label. Panels that a table keeps across its redraws
(the chat, the game log) once kept their first language.

The test waits for the page to show the new language (the header's links) and then
for the old language's texts to be gone: the server's messages follow the switch
too, after a round trip, so the page is given that event, not a time.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import pytest

from .conftest import ServerProcess, shot
from .pages import SHOWN, bots, catalog, texts_of_another_language

if TYPE_CHECKING:
    from playwright.sync_api import Page

#: name → (a table to open, or a path; what the page shows when it is drawn)
SCREENS: dict[str, tuple[dict[str, Any] | str, str]] = {
    "lobby": ("/", ".create"),
    "rules": ("/rules/doppelkopf", ".rules"),
    "replay": ("/replay", ".drop-zone"),
    "login": ("/login", ".account-form"),
    "slobberhannes": (
        {"game": "slobberhannes", "seats": [{"kind": "you"}, *bots(3, "random")]},
        ".hand-card.playable",
    ),
    "doppelkopf": (
        {"game": "doppelkopf", "seats": [{"kind": "you"}, *bots(3, "heuristic")]},
        ".dk-actions button, .dk-question button, .hand-card.playable",
    ),
    "slapjack": (
        {"game": "slapjack", "seats": [{"kind": "you"}, *bots(3, "easy")]},
        ".sj-slap-button",
    ),
}


def switch(page: Page, lang: str, texts: dict[str, str]) -> None:
    page.select_option("#lang", lang)
    page.wait_for_function(
        "(text) => document.querySelector('#top nav a')?.textContent === text",
        arg=texts["nav.lobby"],
    )


@pytest.mark.parametrize("screen", list(SCREENS))
def test_a_switch_leaves_no_text_of_the_language_before(
    server: ServerProcess, page: Page, screen: str
) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    target, ready = SCREENS[screen]
    cats = {lang: catalog(server, lang) for lang in ("en", "de", "ru")}
    if isinstance(target, str):
        page.goto(f"{server.url}{target}?lang=en")
    else:
        created = server.post("/api/tables", {"name": "Ann", **target})
        page.goto(
            f"{server.url}/t/{created['id']}?lang=en#seat={created['seat']}&token={created['token']}"
        )
    page.wait_for_selector(ready)
    before = "en"
    for lang in ("de", "ru"):
        switch(page, lang, cats[lang])
        own = set(cats[lang].values())
        left = [
            text
            for text in cats[before].values()
            if "{" not in text and len(text) >= 4 and text not in own
        ]
        # The server's texts come after its answer to the new hello: wait for them (on a
        # timeout, the assertion below names the texts left).
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function(f"(texts) => ({SHOWN})(texts).length === 0", arg=left)
        assert texts_of_another_language(page, cats[lang], cats[before]) == []
        shot(page, f"switch-{screen}-{before}-{lang}")
        before = lang
