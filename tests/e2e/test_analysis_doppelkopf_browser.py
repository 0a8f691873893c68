"""'Analyse this deal' for Doppelkopf in a real browser: a declaration valued by the
strong bot's estimate, in each language and size (screenshots in ``tests/e2e/artifacts/``).

A module of its own, so its server's replay allowance is its own: the page's
replays and analyses count against the address (docs/security.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from .conftest import SIZES, WAIT_MS, PageErrors, ServerProcess, open_page, shot
from .pages import catalog

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
        page.goto(f"{server.url}/replay?lang={lang}")
        page.set_input_files("#record-file", str(RECORD))
        page.wait_for_selector(".replay-trick figure")
        page.click(".replay-analysis > summary")
        page.select_option(".analysis-seat", "0")
        page.click(".analysis-go")
        page.wait_for_selector(".analysis-verdict", timeout=WAIT_MS * 4)
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
