"""Two browsers at one table, each connected to another server process.

Process A and process B (``kartentisch serve`` on PostgreSQL, a throwaway
schema, and Redis: the fixtures of ``tests/web/test_cluster.py``) share the
table. Ann sits at seat 0 in one browser on A, Bo at seat 1 in another browser
on B, and two random bots fill the table. They play the first deal by clicking
cards; whenever one of them is to move again, both pages must show the same
state: the trick on the felt, the last trick, every seat's card count, the
scores, the table's version, all as a spectator's view says (asked of A and B
in turn). At the end both pages show the same score sheet.

Needs PostgreSQL, Redis and Chromium; without them it is skipped with a
message, except under ``CI=true``, where it fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from web import test_cluster
from web.servers import ServerProcess

from .conftest import PageErrors, open_page, shot
from .pages import catalog, fill, hand, play_one, public_view

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

#: The fixtures of tests/web/test_cluster.py: the machine's Redis, and A and B on it.
redis_url = test_cluster.redis_url
servers = test_cluster.servers

PEOPLE = (0, 1)
TRICKS = 8  # a Slobberhannes deal: 32 cards, 4 players
#: The page draws no version: it keeps the last one it was sent in ``window.tableVersion``.
WATCH_VERSION = """(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        const message = JSON.parse(event.data);
        // (a whole state, or a state patch: the version of the state it makes)
        const kind = message.type;
        if (kind === "state" || kind === "patch") window.tableVersion = message.version;
      });
    }
  };
})();"""
#: Past version ``after``, a person is to move, the next deal waits for the people's
#: "next" (data-between), or the match is over: nothing moves now.
SETTLED = """after => {
  const seats = [...document.querySelectorAll('.felt > .seat')];
  const moving = seats.findIndex((s) => s.classList.contains('to-move'));
  const between = document.getElementById('app').dataset.between !== undefined;
  return (window.tableVersion ?? -1) > after
    && ([0, 1].includes(moving) || between || document.querySelector('.result') !== null);
}"""
#: The page shows no wait between deals (the next deal runs).
PLAYING = """() => document.getElementById('app').dataset.between === undefined"""
AT_VERSION = """v => window.tableVersion === v && document.querySelector('.felt') !== null"""
#: The card was played where this page sees it: in the trick, the last trick, or the
#: deal it ended is summed up (the next deal's first card clears the last trick).
CARD_SHOWN = """code => document.querySelector(
  `.trick svg[data-card="${code}"], .last-trick svg[data-card="${code}"], .modal`) !== null"""
#: What the page shows of the table; ``counts`` are the cards in each seat's hand
#: (one's own hand, the backs of the others).
SHOWN = """() => {
  const cards = (sel) => [...document.querySelectorAll(sel)]
    .map((e) => e.getAttribute('data-card'));
  const seats = [...document.querySelectorAll('.felt > .seat')];
  return {
    version: window.tableVersion ?? null,
    me: seats.findIndex((s) => s.classList.contains('me')),
    toMove: seats.findIndex((s) => s.classList.contains('to-move')),
    counts: seats.map((s) => s.classList.contains('me')
      ? document.querySelectorAll('.hand .hand-card').length
      : s.querySelectorAll(':scope > .backs > span.back').length),
    trick: cards('.trick .trick-card:not(.collecting) svg[data-card]'),
    lastTrick: cards('.last-trick figure svg[data-card]'),
    lastWinner: cards('.last-trick figure.winner svg[data-card]'),
    info: document.querySelector('.felt-info')?.textContent ?? null,
    scores: [...document.querySelectorAll('.felt .seat-score')].map((e) => e.textContent),
    sheet: document.querySelector('aside.side .score-sheet')?.innerText ?? null,
  };
}"""


@pytest.fixture
def page_b(browser: Browser, page: Page, page_errors: PageErrors) -> Iterator[Page]:
    """A second browser (its own storage and connection) beside ``page``.

    Its errors go to ``page_errors`` too, which ``page`` checks after this one closed.
    """
    with open_page(browser, page_errors, "B: ") as tab:
        yield tab


def settle(pages: tuple[Page, Page], after: int) -> int:
    """Wait until a person is to move past version ``after`` and both pages show that
    version (nobody else moves meanwhile); that version."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        pages[0].wait_for_function(SETTLED, arg=after)
        version: int = pages[0].evaluate("() => window.tableVersion")
        pages[1].wait_for_function(AT_VERSION, arg=version)
    except PlaywrightTimeout:
        seen = [tab.evaluate(SHOWN) for tab in pages]
        raise AssertionError(f"the pages did not settle past version {after}: {seen}") from None
    return version


def check_pages(pages: tuple[Page, Page], view: dict[str, Any]) -> list[dict[str, Any]]:
    """Both pages show the spectator's ``view``, and the same as each other; what they show."""
    last = view["last_trick"]
    expected = {
        "version": view["version"],
        "toMove": -1 if view["to_move"] is None else view["to_move"],
        "counts": view["hand_sizes"],
        # Before the next lead the felt still shows the trick just completed.
        "trick": view["trick"]["cards"] or (last["cards"] if last else []),
        "lastTrick": last["cards"] if last else [],
        "lastWinner": (
            [last["cards"][last["seats"].index(last["winner"])]]
            if last and last["winner"] is not None
            else []
        ),
    }
    shown = [tab.evaluate(SHOWN) for tab in pages]
    for seat, seen in zip(PEOPLE, shown, strict=True):
        assert seen["me"] == seat
        assert {k: seen[k] for k in expected} == expected, f"seat {seat} at {view['version']}"
    for key in ("info", "scores", "sheet"):
        assert shown[0][key] == shown[1][key], key
    # Each sees only its own hand.
    hands = [hand(tab) for tab in pages]
    assert not set(hands[0]) & set(hands[1])
    return shown


def test_two_browsers_on_two_processes_play_one_table(
    servers: tuple[ServerProcess, ServerProcess],
    page: Page,
    page_b: Page,
    page_errors: PageErrors,
) -> None:
    a, b = servers
    en = catalog(a, "en")
    table_id, ann_token, bo_token = test_cluster.seated_table(a, b, "slobberhannes", "random")
    tokens = [ann_token, bo_token]
    pages = (page, page_b)
    for seat, server, tab in ((0, a, page), (1, b, page_b)):
        tab.context.add_init_script(WATCH_VERSION)
        tab.goto(f"{server.url}/t/{table_id}#seat={seat}&token={tokens[seat]}")
    for tab in pages:
        tab.wait_for_selector(".felt")
        # A, the owner, counts Bo (on B) as connected, and B shows Ann so too.
        tab.wait_for_function("() => !document.querySelector('.felt .badge.away')")
    names = [tab.locator(".felt > .seat .seat-name").all_inner_texts() for tab in pages]
    assert names[0][0].startswith(f"Ann ({en['ui.you']})") and names[0][1].startswith("Bo")
    assert names[1][0].startswith("Ann") and names[1][1].startswith(f"Bo ({en['ui.you']})")

    version = -1  # the first state (version 0) may already be a person's turn
    clicks = [0, 0]
    looks = 0
    while True:
        # (one card a step: the deal ends after both people's cards)
        assert sum(clicks) <= 2 * TRICKS, f"the deal did not end: {clicks} clicks"
        version = settle(pages, version)
        # A spectator, through A and through B in turn: nobody moves, so the same version.
        view = public_view((a, b)[looks % 2], table_id)
        looks += 1
        assert view["version"] == version
        check_pages(pages, view)
        if view["deals"]:
            break  # the first deal is over: the next one runs
        if view["trick_number"] == 3 and clicks == [2, 2]:
            shot(page, "cluster-a")
            shot(page_b, "cluster-b")
        mover = view["to_move"]
        assert mover in PEOPLE, view
        code = play_one(pages[mover])
        clicks[mover] += 1
        # The other page, on the other process, shows the card that was played.
        pages[1 - mover].wait_for_function(CARD_SHOWN, arg=code)
    assert clicks == [TRICKS, TRICKS]

    # The next deal waits for both people's "next": both pages say so, and nothing moves.
    assert view["version"] == version
    for tab in pages:
        assert tab.get_attribute("#app", "data-between") == "1"
        assert tab.get_attribute("#app", "data-waiting") == "0,1"
    # Both pages sum the deal up alike: the spectator's points in the score sheet.
    deal = view["deals"][0]
    row = ["1", *[str(p) if p else "·" for p in deal["points"]]]
    sheets = []
    for tab in pages:
        modal = tab.locator(".modal")
        assert modal.locator("h2").inner_text() == fill(en["ui.deal_over"], n=1)
        assert modal.locator(".score-sheet tbody tr").first.locator("td").all_inner_texts() == row
        sheets.append(modal.locator(".score-sheet").inner_text())
    assert sheets[0] == sheets[1]
    side = [tab.locator("aside.side .score-sheet").inner_text() for tab in pages]
    assert side[0] == side[1]
    # While the table waits, both processes hold the same record.
    assert a.get(f"/api/tables/{table_id}/record") == b.get(f"/api/tables/{table_id}/record")
    # "Next deal" on both pages (each on its process): the summary closes, and once
    # both said it the next deal runs on both pages.
    for tab in pages:
        tab.locator(".modal button.gate-next").click()
        tab.wait_for_selector(".modal", state="detached")
    for tab in pages:
        tab.wait_for_function(PLAYING)

    assert not page_errors.unexpected(), page_errors.problems
