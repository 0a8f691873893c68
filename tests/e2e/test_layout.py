"""The table fits the screen: every game at 1280×800, 1366×768 and 390×844, in German,
English and Russian.

At each size the page's bounding boxes are measured in one script (one consistent
picture of the page): the whole hand, the cards of the trick, the seat boxes, whose
turn it is and every action button lie inside the viewport without scrolling, and
none of them overlaps another (the hand counts as one box); the header is one row;
the game log's column (``aside.game-log``, when there) sits at the right of the table
on a wide screen and after it on a narrow one. Screenshots of each screen go to
``tests/e2e/artifacts/layout-<game>-<lang>-<size>.png``.

The tests wait for states of the page (the person's turn, the size it was laid out
for), never for time to pass. The picture does not depend on the moment: every place
of the trick is measured (a stand-in card where no card lies yet), and cards still
moving are measured where they come to rest.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .conftest import ARTIFACTS, WAIT_MS, ServerProcess
from .pages import act, bots

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SIZES = [(1280, 800), (1366, 768), (390, 844)]
LANGS = ["de", "en", "ru"]


#: name → (table request, what the page shows once the person is asked to act)
GAMES: dict[str, tuple[dict[str, Any], str]] = {
    "slobberhannes-3": (
        {"game": "slobberhannes", "seats": [{"kind": "you"}, *bots(2, "random")]},
        ".hand-card.playable",
    ),
    "slobberhannes-4": (
        {"game": "slobberhannes", "seats": [{"kind": "you"}, *bots(3, "random")]},
        ".hand-card.playable",
    ),
    "slobberhannes-5": (
        {"game": "slobberhannes", "seats": [{"kind": "you"}, *bots(4, "random")]},
        ".hand-card.playable",
    ),
    # The Russian preset: the cut before each deal (a slider and a button above the hand).
    "slobberhannes-cut": (
        {
            "game": "slobberhannes",
            "seats": [{"kind": "you"}, *bots(3, "random")],
            "options": {"preset": "russian"},
        },
        ".cut-bar button, .hand-card.playable",
    ),
    "doppelkopf-4": (
        {
            "game": "doppelkopf",
            "seats": [{"kind": "you"}, *bots(3, "heuristic")],
            "options": {"preset": "house", "armut": False},
        },
        ".dk-actions button, .hand-card.playable",
    ),
    "doppelkopf-5": (
        {
            "game": "doppelkopf",
            "seats": [{"kind": "you"}, *bots(4, "heuristic")],
            "options": {"preset": "house", "armut": False},
        },
        ".dk-actions button, .hand-card.playable",
    ),
    "slapjack": (
        {"game": "slapjack", "seats": [{"kind": "you"}, *bots(3, "easy")]},
        ".sj-slap-button",
    ),
    "irish-snap": (
        {"game": "irish-snap", "seats": [{"kind": "you"}, *bots(3, "easy")]},
        ".sj-slap-button",
    ),
}

#: One picture of the page: what does not fit, what overlaps, and the counts measured.
_SCRIPT = (Path(__file__).parent / "measure_layout.js").read_text(encoding="utf-8")
MEASURE = _SCRIPT[_SCRIPT.index("async () =>") :]  # the function, without the comment above it


@pytest.fixture
def context_for(browser: Browser) -> Iterator[Any]:
    contexts: list[Any] = []

    def make(lang: str, width: int, height: int) -> Page:
        touch = width < 600
        context = browser.new_context(
            locale={"de": "de-DE", "en": "en-US", "ru": "ru-RU"}[lang],
            viewport={"width": width, "height": height},
            has_touch=touch,
            is_mobile=touch,
        )
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        page: Page = context.new_page()
        return page

    yield make
    for context in contexts:
        context.close()


def measure(page: Page, label: str, width: int, height: int) -> dict[str, Any]:
    """Lay the page out at ``width``×``height`` and measure it; the screenshot is kept."""
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(
        "(size) => document.getElementById('app').dataset.layout === size", arg=f"{width}x{height}"
    )
    page.evaluate("() => window.scrollTo(0, 0)")
    result: dict[str, Any] = page.evaluate(MEASURE)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"layout-{label}-{width}x{height}.png"))
    page.evaluate("() => document.querySelector('#app > aside.game-log.stand-in')?.remove()")
    return result


def asked(page: Page, wanted: str) -> None:
    """Wait until the page shows ``wanted``. A seat that sat the first deal out (the
    dealer at five) is shown its summary first: it says "Next deal", and the next
    deal asks it."""
    while True:
        page.wait_for_selector(f"{wanted}, .modal button.gate-next")
        ready = page.locator(".modal button.gate-next")
        if not ready.count():
            return
        ready.first.click()
        page.wait_for_selector(".modal", state="detached")


def sit_down(
    server: ServerProcess, page: Page, body: dict[str, Any], lang: str, wanted: str
) -> None:
    """Open a table of ``body`` as its person, in ``lang``, until the page shows ``wanted``."""
    created = server.post("/api/tables", {"name": "Ann", **body})
    page.goto(
        f"{server.url}/t/{created['id']}?lang={lang}"
        f"#seat={created['seat']}&token={created['token']}"
    )
    asked(page, wanted)


def check_sizes(page: Page, label: str, wanted: str) -> list[str]:
    problems: list[str] = []
    for width, height in SIZES:
        page.wait_for_selector(wanted)
        result = measure(page, label, width, height)
        counts = result["counts"]
        assert counts["seats"] >= 2 and counts["status"] == 1, (label, width, counts)
        problems += [f"{label} at {width}x{height}: {p}" for p in result["problems"]]
    return problems


@pytest.mark.parametrize("game", list(GAMES))
def test_the_table_fits_the_screen(server: ServerProcess, context_for: Any, game: str) -> None:
    body, wanted = GAMES[game]
    problems: list[str] = []
    for lang in LANGS:
        page = context_for(lang, *SIZES[0])
        sit_down(server, page, body, lang, wanted)
        problems += check_sizes(page, f"{game}-{lang}", wanted)
        if game.startswith("doppelkopf"):
            # The declaration first, then the play (with the announcement buttons).
            while page.locator(".hand-card.playable").count() == 0:
                modal = page.locator(".modal button.primary")
                if modal.count():
                    modal.first.click()
                    page.wait_for_selector(".modal", state="detached")
                    continue
                # The one declaration question: "Gesund" (or a question's first answer).
                step = page.locator(
                    ".dk-question button[data-action=gesund], .dk-actions button[data-action]"
                )
                step.first.wait_for()
                act(page, step.first)
                page.wait_for_selector(wanted)
            problems += check_sizes(page, f"{game}-{lang}-play", wanted)
        page.context.close()
    assert not problems, "\n".join(problems)


#: The overflow and header checks of MEASURE, for screens without a table.
SIDEWAYS = """() => {
  const W = window.innerWidth, doc = document.scrollingElement;
  const top = document.getElementById('top');
  const visible = [...top.children].filter((e) => e.getClientRects().length > 0);
  const rows = new Set(visible.map((e) => Math.round(e.getBoundingClientRect().top / 12)));
  const problems = [];
  if (doc.scrollWidth > W + 0.5) problems.push(`the page is ${doc.scrollWidth} px wide, not ${W}`);
  if (rows.size > 1 || top.getBoundingClientRect().height > 56) problems.push('the header wraps');
  return problems;
}"""


@pytest.mark.parametrize("screen", ["lobby", "rules", "replay", "waiting"])
def test_the_other_screens_fit_sideways(
    server: ServerProcess, context_for: Any, screen: str
) -> None:
    """The lobby, the rules, the replay viewer and the waiting room: nothing sticks out
    sideways and the header is one row, at every size and language (screenshots kept)."""
    problems: list[str] = []
    for lang in LANGS:
        page = context_for(lang, *SIZES[0])
        if screen == "waiting":
            created = server.post(
                "/api/tables",
                {
                    "name": "Ann",
                    "game": "doppelkopf",
                    "seats": [{"kind": "you"}] + [{"kind": "open"}] * 3,
                },
            )
            path = f"/t/{created['id']}?lang={lang}#seat={created['seat']}&token={created['token']}"
            ready = ".waiting"
        else:
            path = {"lobby": "/", "rules": "/rules/doppelkopf", "replay": "/replay"}[screen]
            path += f"?lang={lang}"
            ready = {"lobby": ".create", "rules": ".rules", "replay": ".drop-zone"}[screen]
        page.goto(f"{server.url}{path}")
        page.wait_for_selector(ready)
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function("(w) => window.innerWidth === w", arg=width)
            problems += [
                f"{screen}-{lang} at {width}x{height}: {p}" for p in page.evaluate(SIDEWAYS)
            ]
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(
                path=str(ARTIFACTS / f"screen-{screen}-{lang}-{width}x{height}.png"), full_page=True
            )
        page.context.close()
    assert not problems, "\n".join(problems)


#: Speech bubbles at every seat at once, measured (see the script's comment).
_BUBBLES = (Path(__file__).parent / "measure_bubbles.js").read_text(encoding="utf-8")
BUBBLES = _BUBBLES[_BUBBLES.index("async (calls) =>") :]
#: What seats say: every declaration and announcement, and long solo names.
CALLS = [
    "pass", "vorbehalt", "armut", "redeal", "accept", "refuse", "take_back", "hochzeit",
    "scharfe aces kings", "solo fleischlos ouvert", "solo koehler ouvert", "solo clubs ouvert",
    "solo queens", "re", "kontra", "no90", "schwarz",
]  # fmt: skip


@pytest.mark.parametrize("game", ["doppelkopf-4", "doppelkopf-5"])
def test_speech_bubbles_leave_the_names_readable(
    server: ServerProcess, context_for: Any, game: str
) -> None:
    """A bubble at every seat at once, with the longest texts of each language, at a
    phone's and a desktop's size: each lies inside the window and over no seat's name
    (a long one once hid two seats' names on a phone). Screenshots are kept."""
    body, wanted = GAMES[game]
    problems: list[str] = []
    for lang in LANGS:
        page = context_for(lang, *SIZES[0])
        sit_down(server, page, body, lang, wanted)
        for width, height in (SIZES[0], SIZES[2]):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function(
                "(size) => document.getElementById('app').dataset.layout === size",
                arg=f"{width}x{height}",
            )
            page.evaluate("() => window.scrollTo(0, 0)")
            result = page.evaluate(BUBBLES, CALLS)
            assert len(set(result["texts"])) == len(result["texts"]) >= 4, result
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"bubbles-{game}-{lang}-{width}x{height}.png"))
            problems += [f"{game}-{lang} at {width}x{height}: {p}" for p in result["problems"]]
        page.context.close()
    assert not problems, "\n".join(problems)
