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
for), never for time to pass.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from .conftest import ARTIFACTS, WAIT_MS, ServerProcess
from .pages import act

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SIZES = [(1280, 800), (1366, 768), (390, 844)]
LANGS = ["de", "en", "ru"]


def bots(n: int, level: str) -> list[dict[str, str]]:
    return [{"kind": "bot", "level": level}] * n


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
MEASURE = """() => {
  const W = window.innerWidth, H = window.innerHeight;
  const visible = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const boxOf = (e) => { const r = e.getBoundingClientRect(); return { x: r.left, y: r.top, r: r.right, b: r.bottom }; };
  const all = (sel, kind) => [...document.querySelectorAll(sel)].filter(visible)
    .map((e, i) => ({ name: `${kind} ${i} ${(e.dataset.action || e.dataset.seat || e.textContent || '').trim().slice(0, 24)}`, kind, box: boxOf(e) }));
  const trick = all('.felt .trick-card:not(.collecting)', 'trick card');
  const seats = all('.felt .seat', 'seat');
  const buttons = all('.main button:not(.hand-card), .main input, .main select', 'button');
  const cards = all('.hand .hand-card', 'hand card');
  const status = all('.main .status', 'status');
  const pile = all('.sj-pile', 'pile');
  const header = all('#top', 'header');
  const problems = [];
  const inside = (item) => item.box.x >= -0.5 && item.box.y >= -0.5 && item.box.r <= W + 0.5 && item.box.b <= H + 0.5;
  for (const item of [...trick, ...seats, ...buttons, ...cards, ...status, ...pile, ...header]) {
    if (!inside(item)) problems.push(`${item.name} is not inside the ${W}x${H} viewport: ${JSON.stringify(item.box)}`);
  }
  const boxes = [...trick, ...seats, ...buttons, ...pile];
  if (cards.length) {
    const u = cards.reduce((a, c) => ({ x: Math.min(a.x, c.box.x), y: Math.min(a.y, c.box.y), r: Math.max(a.r, c.box.r), b: Math.max(a.b, c.box.b) }),
      { x: Infinity, y: Infinity, r: -Infinity, b: -Infinity });
    boxes.push({ name: 'the hand', kind: 'hand', box: u });
  }
  const cut = (a, b) => Math.min(a.r, b.r) - Math.max(a.x, b.x) > 1 && Math.min(a.b, b.b) - Math.max(a.y, b.y) > 1;
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      if (cut(boxes[i].box, boxes[j].box)) problems.push(`${boxes[i].name} overlaps ${boxes[j].name}: ${JSON.stringify(boxes[i].box)} ${JSON.stringify(boxes[j].box)}`);
    }
  }
  const doc = document.scrollingElement;
  if (doc.scrollLeft !== 0 || doc.scrollTop !== 0) problems.push(`the page is scrolled (${doc.scrollLeft}, ${doc.scrollTop})`);
  if (doc.scrollWidth > W + 0.5) problems.push(`the page is ${doc.scrollWidth} px wide, wider than ${W}`);
  const top = document.getElementById('top');
  const rows = new Set([...top.children].filter(visible).map((e) => Math.round(e.getBoundingClientRect().top / 12)));
  if (rows.size > 1 || top.getBoundingClientRect().height > 56) problems.push(`the header takes ${top.getBoundingClientRect().height} px, in ${rows.size} rows`);
  const log = document.querySelector('#app > aside.game-log');
  const game = document.querySelector('#app > .game');
  if (log && game) {
    const l = log.getBoundingClientRect(), g = game.getBoundingClientRect();
    if (W >= 1000 && (l.left < g.right - 0.5 || Math.abs(l.width - 260) > 1)) problems.push(`the log is not a 260 px column at the right: ${JSON.stringify(l)}`);
    if (W < 1000 && l.top < g.bottom - 0.5) problems.push('the log is not after the table');
  }
  // Room for the log: on a wide screen the trick games leave its column free.
  if (W >= 1000 && game && !game.classList.contains('sj-game') && game.getBoundingClientRect().right > W - 260) {
    problems.push(`the game reaches ${game.getBoundingClientRect().right} px: no room for the log column`);
  }
  return { problems, counts: { trick: trick.length, seats: seats.length, buttons: buttons.length, cards: cards.length, status: status.length } };
}"""


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
    return result


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
        created = server.post("/api/tables", {"name": "Ann", **body})
        page.goto(
            f"{server.url}/t/{created['id']}?lang={lang}"
            f"#seat={created['seat']}&token={created['token']}"
        )
        page.wait_for_selector(wanted)
        problems += check_sizes(page, f"{game}-{lang}", wanted)
        if game.startswith("doppelkopf"):
            # The declaration first, then the play (with the announcement buttons).
            while page.locator(".hand-card.playable").count() == 0:
                modal = page.locator(".modal button.primary")
                if modal.count():
                    modal.first.click()
                    page.wait_for_selector(".modal", state="detached")
                    continue
                step = page.locator(
                    ".dk-actions button[data-action=pass], .dk-actions button.primary"
                )
                step.first.wait_for()
                act(page, step.first)
                page.wait_for_selector(wanted)
            problems += check_sizes(page, f"{game}-{lang}-play", wanted)
        page.context.close()
    assert not problems, "\n".join(problems)
