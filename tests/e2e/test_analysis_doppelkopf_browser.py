"""'Analyse this deal' for Doppelkopf in a real browser: a declaration valued by the
strong bot's estimate, in each language and size (screenshots in ``tests/e2e/artifacts/``).

A module of its own, so its server's replay allowance is its own: the page's
replays and analyses count against the address (docs/security.md).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from .conftest import SIZES, WAIT_MS, PageErrors, ServerProcess, open_page, shot
from .pages import analyse, catalog, open_record

if TYPE_CHECKING:
    from playwright.sync_api import Browser

#: Anna declares a trump solo the strong bot would not play, and loses it.
RECORD = Path(__file__).parent.parent / "data" / "doppelkopf_trump_solo.json"

#: How the solo is named in each language (the record's notation is ``solo trump``).
SOLO = {"de": "Trumpfsolo", "en": "trump solo", "ru": "Козырное соло"}


@pytest.mark.parametrize("lang", ["de", "en", "ru"])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_costly_declaration_in_each_language_and_size(
    server: ServerProcess, browser: Browser, page_errors: PageErrors, lang: str, size: str
) -> None:
    words = catalog(server, lang)
    with open_page(browser, page_errors, f"analysis-doppelkopf-{lang}-{size}") as page:
        width, height = SIZES[size]
        page.set_viewport_size({"width": width, "height": height})
        open_record(page, server, lang, RECORD)
        analyse(page, 0)
        lines = page.locator(".analysis-list li")
        # The declarations: a forced pass (the Scharfe round), then the solo, marked
        # costly with the strong bot's estimate of what it cost against passing.
        solo = lines.nth(1)
        assert "costly" in (solo.get_attribute("class") or "")
        text = solo.inner_text()
        assert SOLO[lang].lower() in text.lower(), text
        assert any(ch.isdigit() for ch in text)
        assert "costly" not in (lines.nth(0).get_attribute("class") or "")
        page.locator(".replay-analysis").scroll_into_view_if_needed()
        shot(page, f"analysis-doppelkopf-{lang}-{size}")
        whole = page.locator(".replay-analysis").inner_text()
        if lang != "en":
            for phrase in ("expected points", "sampled deals", "strong bot", "declarations"):
                assert phrase not in whole, phrase
        assert page.locator(".replay-analysis > summary").inner_text() == words["analysis.title"]
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 1


#: A house-rule table with hints, the person in seat 0 against heuristic bots.
HINT_TABLE = {
    "game": "doppelkopf",
    "name": "Anna",
    "hints": True,
    "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "heuristic"}] * 3,
    "options": {"games": 1},
}
#: An answer in the notation, which the page must not show raw.
NOTATION = re.compile(r"\bvorbehalt\b|\bgesund\b|first_|_trump|\bsolo [a-z]")


@pytest.mark.parametrize("lang", ["de", "en", "ru"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_hint_at_the_declaration_question(
    server: ServerProcess, browser: Browser, page_errors: PageErrors, lang: str, size: str
) -> None:
    words = catalog(server, lang)
    created = server.post("/api/tables", HINT_TABLE)
    with open_page(browser, page_errors, f"hint-question-{lang}-{size}") as page:
        width, height = SIZES[size]
        page.set_viewport_size({"width": width, "height": height})
        page.goto(
            f"{server.url}/t/{created['id']}?lang={lang}"
            f"#seat={created['seat']}&token={created['token']}"
        )
        # The house rules always offer the solos: the person is asked the question.
        page.wait_for_selector(".dk-question")
        page.locator(".hint-button").click()
        suggestion = page.locator(".hint-text")
        suggestion.wait_for(timeout=WAIT_MS * 4)
        text = suggestion.inner_text()
        prefix = words["hint.suggest"].split("{")[0]
        assert text.startswith(prefix) and " — " in text, text
        shown, reason = text[len(prefix) :].split(" — ", 1)
        # The answer for the whole deal, in words: Gesund, or what the reservation is
        # (not the bare "Vorbehalt", not the notation).
        assert shown and shown != words["dk.call.vorbehalt"], text
        assert not NOTATION.search(shown), text
        # Why: the estimates of the answer and the next best one, or (Gesund where
        # no reservation passes the bot's screen) that nothing was worth weighing.
        weighed = any(ch.isdigit() for ch in reason)
        assert weighed or (shown, reason) == (words["dk.call.pass"], words["hint.reason_gesund"])
        if lang != "en":
            for phrase in ("points expected", "next best", "sampled deals", "healthy"):
                assert phrase not in text, phrase
        shot(page, f"hint-question-{lang}-{size}")
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 1
