"""'Analyse this deal' in a real browser: the replay viewer of a file and of a table.

The page asks the server, which works the analysis out in a worker process; the
test waits for the verdict to appear, never for time. Screenshots in de/en/ru at
desktop and phone size go to ``tests/e2e/artifacts/``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from .conftest import SIZES, WAIT_MS, PageErrors, ServerProcess, open_page, shot
from .pages import analyse, catalog, fill, open_record, play_one

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

RECORD = Path(__file__).parent.parent / "data" / "match_first_to_ten.json"


def test_a_deal_of_a_file_is_analysed_with_its_chart(server: ServerProcess, page: Page) -> None:
    en = catalog(server, "en")
    open_record(page, server, "en", RECORD)
    analyse(page, 1)
    verdict = page.locator(".analysis-verdict").inner_text()
    worst = en["analysis.lost_at"].split("{")[0]
    calm = en["analysis.no_loss"].split("}")[1].split("(")[0].strip()
    assert verdict.startswith(worst) or calm in verdict
    # One line per decision of the seat, the chart with a point after each valued card.
    assert page.locator(".analysis-list li").count() > 0
    if page.locator(".analysis-chart").count():
        points = page.locator(".analysis-chart circle").count()
        assert points >= 2
        assert page.locator(".analysis-chart .worst").count() <= 1
    # The same deal through the API: the page shows what the server computed.
    record = RECORD.read_text(encoding="utf-8")
    answer = httpx.post(
        f"{server.url}/api/analysis?deal=1&seat=1&lang=en",
        content=record,
        headers={"content-type": "application/json"},
        timeout=120,
    ).json()
    shown = page.locator(".analysis-list li").all_inner_texts()
    assert shown == [d["text"] for d in answer["decisions"]]
    assert fill(en["analysis.title"]) in page.locator(".replay-analysis > summary").inner_text()


@pytest.mark.parametrize("lang", ["de", "en", "ru"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_analysis_in_each_language_and_size(
    server: ServerProcess, browser: Browser, page_errors: PageErrors, lang: str, size: str
) -> None:
    words = catalog(server, lang)
    with open_page(browser, page_errors, f"analysis-{lang}-{size}") as page:
        width, height = SIZES[size]
        page.set_viewport_size({"width": width, "height": height})
        open_record(page, server, lang, RECORD)
        analyse(page, 0)
        assert page.locator(".replay-analysis > summary").inner_text() == words["analysis.title"]
        page.locator(".replay-analysis").scroll_into_view_if_needed()
        shot(page, f"analysis-{lang}-{size}")
        text = page.locator(".replay-analysis").inner_text()
        if lang != "en":
            en = catalog(server, "en")
            for key in ("analysis.seat", "analysis.go", "analysis.chart_penalties"):
                assert en[key] not in text
        # Nothing spills sideways on a phone.
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 1


def test_a_hint_at_ones_turn_and_the_analysis_at_the_end_of_the_deal(
    server: ServerProcess, page: Page
) -> None:
    en = catalog(server, "en")
    page.goto(f"{server.url}/?lang=en")
    page.fill("#name", "Ann")
    page.select_option("#game", "slobberhannes")
    page.check("#hints")
    page.click("form.create button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    # At this seat's turn: the Hint button, then the strong bot's suggestion with its reason.
    page.locator(".hint-button").click()
    suggestion = page.locator(".hint-text")
    suggestion.wait_for(timeout=WAIT_MS * 4)
    prefix = en["hint.suggest"].split("{")[0]
    assert suggestion.inner_text().startswith(prefix)
    assert " — " in suggestion.inner_text()
    shot(page, "hint-en-desktop")
    # The card suggested is one the page offers.
    playable = page.eval_on_selector_all(
        ".hand-card.playable svg", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    shown = suggestion.inner_text()[len(prefix) :].split(" — ")[0]
    assert shown in playable
    # Play the deal out; its summary offers "Analyse this deal" for this seat. (After the
    # last card the summary comes once the bots have played theirs: wait for either.)
    while True:
        page.wait_for_selector(".hand-card.playable, .modal .deal-analysis")
        if page.locator(".modal .deal-analysis").count():
            break
        play_one(page)
    page.click(".modal .deal-analysis > summary")
    page.click(".modal .analysis-go")
    page.locator(".modal .analysis-verdict").wait_for(timeout=WAIT_MS * 4)
    assert page.locator(".modal .analysis-list li").count() >= 1
    shot(page, "deal-analysis-en-desktop")
