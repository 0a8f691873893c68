"""The deal summary at a table explains the deal's value in the page's language.

A person plays a Doppelkopf game (and a Slobberhannes deal) against bots; when
the deal is over the summary lists the explanation's lines, the same as the
terminal's (``kartentisch.explain``), in German, English and Russian, and the
seat boxes are labelled. Screenshots at 1280×800 and 390×844.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest

from kartentisch.explain import render_lines

from .conftest import ServerProcess, shot
from .pages import act, catalog, fill, play_one, public_view

if TYPE_CHECKING:
    from playwright.sync_api import Page

ENGLISH = ("wins", "needs", "seats", "losers", "Value", "each", "trick", "Extra", "total")


def open_table(server: ServerProcess, page: Page, body: dict[str, Any], lang: str) -> str:
    created = server.post("/api/tables", {"name": "Ann", **body})
    page.goto(
        f"{server.url}/t/{created['id']}?lang={lang}"
        f"#seat={created['seat']}&token={created['token']}"
    )
    table_id: str = created["id"]
    return table_id


def english_in(text: str) -> list[str]:
    return [w for w in ENGLISH if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)]


DOPPELKOPF = {
    "game": "doppelkopf",
    "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "heuristic"}] * 3,
    "options": {"preset": "house", "armut": False, "games": 4},
}


def play_to_the_summary(page: Page) -> None:
    """Answer the declaration question with Gesund, play cards, until the game's summary
    shows (it opens by itself when a game is scored, while the next one waits)."""
    gesund = ".dk-question button[data-action=gesund]"
    while True:
        page.wait_for_selector(f"{gesund}, .hand-card.playable, .modal.dk-summary")
        if page.locator(".modal.dk-summary").count():
            return
        if page.locator(gesund).count():
            act(page, page.locator(gesund).first)
            continue
        play_one(page)


@pytest.mark.parametrize(
    ("lang", "sized"),
    [("de", "desktop"), ("de", "phone"), ("en", "desktop"), ("ru", "desktop"), ("ru", "phone")],
    indirect=["sized"],
)
def test_the_doppelkopf_summary_explains_the_value(
    server: ServerProcess, sized: Page, lang: str, request: pytest.FixtureRequest
) -> None:
    page = sized
    texts = catalog(server, lang)
    table_id = open_table(server, page, DOPPELKOPF, lang)
    page.wait_for_selector(".seat-score")
    # the seat boxes say what their numbers are
    first = page.locator(".seat .seat-score").last.inner_text()
    assert first == fill(texts["explain.seat_tricks"], tricks=0, total=0)
    play_to_the_summary(page)
    view = public_view(server, table_id)
    deal = next(d for d in view["deals"] if d["outcome"] == "played")
    modal = page.locator(".modal.dk-summary")
    shown = modal.locator("ul.explain li").all_inner_texts()
    # the parties and their Augen are in the table above the explanation
    above = ("explain.parties", "explain.solo_game", "explain.augen")
    lines = [line for line in deal["explain"] if line["key"] not in above]
    assert shown == render_lines(lang, lines, view["names"])
    assert modal.locator("table.dk-parties").count() == 1
    assert modal.locator("h3.explain-title").inner_text() == texts["explain.title"]
    if lang != "en":
        assert not english_in(modal.inner_text()), english_in(modal.inner_text())
    shot(page, f"dk-summary-{lang}-{request.node.callspec.id.split('-')[-1]}")


SLOBBERHANNES = {
    "game": "slobberhannes",
    "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 3,
}


@pytest.mark.parametrize(
    ("lang", "sized"), [("de", "desktop"), ("ru", "phone")], indirect=["sized"]
)
def test_the_slobberhannes_summary_explains_the_penalties(
    server: ServerProcess, sized: Page, lang: str
) -> None:
    page = sized
    texts = catalog(server, lang)
    table_id = open_table(server, page, SLOBBERHANNES, lang)
    page.wait_for_selector(".seat-score")
    assert page.locator(".seat .seat-score").first.inner_text() == fill(
        texts["explain.seat_penalties"], points=0, total=0
    )
    while True:
        page.wait_for_selector(".hand-card.playable, .modal")
        if page.locator(".modal").count():
            break
        play_one(page)
    view = public_view(server, table_id)
    deal = view["deals"][0]
    names = [n + (f" ({texts['ui.you']})" if i == 0 else "") for i, n in enumerate(view["names"])]
    shown = page.locator(".modal ul.explain li").all_inner_texts()
    assert shown == render_lines(lang, deal["explain"], names)
    assert len(shown) == len(deal["penalties"]) + 4  # each penalty, then each seat's sum
    assert not english_in(page.locator(".modal").inner_text())
    shot(page, f"sh-summary-{lang}")
