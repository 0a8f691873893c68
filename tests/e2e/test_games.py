"""Doppelkopf, Slapjack and the Russian Slobberhannes cut in a real browser.

Like ``test_browser.py``: headless Chromium against ``kartentisch serve`` with
bots that play without delay. The tests wait for states of the page (never for
fixed times) and check what it shows against the server's public view.
Screenshots go to ``tests/e2e/artifacts/``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from .conftest import WAIT_MS, ServerProcess, shot
from .pages import act, catalog, fill, play_one, public_view

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


def open_table(server: ServerProcess, page: Page, body: dict[str, Any]) -> str:
    """Create a table over the API and open the creator's seat through its resume link."""
    created = server.post("/api/tables", {"name": "Ann", **body})
    page.goto(f"{server.url}/t/{created['id']}#seat={created['seat']}&token={created['token']}")
    table_id: str = created["id"]
    return table_id


@pytest.fixture
def spectator(browser: Browser) -> Iterator[Page]:
    """A second browser (its own storage), for what the other seats see."""
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 860})
    context.set_default_timeout(WAIT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


# -- Doppelkopf: an announcement by click ------------------------------------------------

#: The person at 0 and three heuristic bots; no Armut (its exchange is a test of its own).
DOPPELKOPF = {
    "game": "doppelkopf",
    "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "heuristic"}] * 3,
    "options": {"preset": "house", "armut": False, "games": 8},
}
ANNOUNCE = ".dk-announce button[data-action=re], .dk-announce button[data-action=kontra]"
#: Anything the person may be asked to do, or the result of a game.
DK_ANYTHING = f"{ANNOUNCE}, .dk-actions button, .hand-card.playable, .modal button.primary"


def dk_step(page: Page) -> str | None:
    """Do what the page asks (say Gesund, play a card, close a result); return a
    Re or Kontra button's action when one is offered instead (nothing is clicked then)."""
    page.wait_for_selector(DK_ANYTHING)
    offered = page.locator(ANNOUNCE)
    if offered.count():
        action = offered.first.get_attribute("data-action")
        assert action in ("re", "kontra")
        return action
    modal = page.locator(".modal button.primary")
    if modal.count():
        modal.first.click()
        page.wait_for_selector(".modal", state="detached")
        return None
    # The one declaration question of the deal: "Gesund" (or the Armut answer).
    declare = page.locator(".dk-question button[data-action=gesund], .dk-actions button.primary")
    if declare.count():
        act(page, declare.first)
        return None
    play_one(page)
    return None


def test_doppelkopf_announcement_by_click(
    server: ServerProcess, page: Page, spectator: Page
) -> None:
    en = catalog(server, "en")
    table_id = open_table(server, page, DOPPELKOPF)
    page.wait_for_selector(".dk-game")

    # Play (gesund, cards) until the person may say Re or Kontra: in a normal game
    # at once; after a bot's Hochzeit or with a word of the partner said, a later game.
    # A click the server refused as stale (a bot moved meanwhile) is made again while
    # the word is still offered.
    chip = page.locator(".seat.me .dk-chip.dk-announced").first
    for step in itertools.count():
        # (each step is one move of the person's; some ten deals' worth at most)
        assert step < 200, "Re or Kontra was never offered"
        word = dk_step(page)
        if word is None:
            continue
        said = f"{en[f'dk.word.{word}']}!"
        button = page.locator(f".dk-announce button[data-action={word}]")
        assert button.get_attribute("title") == fill(
            en["dk.announce_title"], word=en[f"dk.word.{word}"]
        )
        shot(page, "doppelkopf-before-announcement")
        act(page, button)
        if chip.count():
            break

    # The party chip of the person's seat says it aloud, and the word's button is gone.
    assert chip.inner_text() == said
    assert page.locator(f".dk-announce button[data-action={word}]").count() == 0
    shot(page, "doppelkopf-announced")

    # Every other seat knows it: the server's public view and a spectator's page.
    view = public_view(server, table_id)
    assert {"seat": 0, "party": word, "word": word} in view["announcements"]
    spectator.goto(f"{server.url}/t/{table_id}")
    watched = spectator.locator('.seat[data-seat="0"] .dk-chip.dk-announced').first
    watched.wait_for()
    assert watched.inner_text() == said
    assert spectator.locator(".hand-card").count() == 0  # a spectator sees no hand
    shot(spectator, "doppelkopf-spectator")

    # Play goes on: the person plays a card (after any bots before), and the word stays.
    version = view["version"]
    page.wait_for_selector(".hand-card.playable")
    play_one(page)
    after = public_view(server, table_id)
    assert after["version"] > version
    assert {"seat": 0, "party": word, "word": word} in after["announcements"]
    assert page.locator(".seat.me .dk-chip.dk-announced").first.inner_text() == said
    shot(page, "doppelkopf-play-goes-on")


#: Each seat box's left and right edge and how many lines its (last) score takes.
SEAT_BOXES = """els => els.map(e => {
  const rect = e.getBoundingClientRect();
  const scores = e.querySelectorAll('.seat-score');
  const score = scores[scores.length - 1];
  return [rect.left, rect.right, score ? score.getClientRects().length : 0];
})"""


#: The felt's four seat boxes are laid out (each has a rectangle and its score a line).
LAID_OUT = """() => {
  const seats = [...document.querySelectorAll('.dk-felt .seat')];
  const shown = (e) => e !== null && e.getClientRects().length > 0;
  return seats.length === 4
    && seats.every((e) => shown(e) && shown(e.querySelector('.seat-score')));
}"""


def test_doppelkopf_fits_a_phone(server: ServerProcess, browser: Browser) -> None:
    context = browser.new_context(
        locale="en-US", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(WAIT_MS)
    try:
        phone = context.new_page()
        open_table(server, phone, DOPPELKOPF)
        phone.wait_for_selector(".dk-hand .hand-card")
        phone.wait_for_function("() => document.documentElement.scrollWidth <= window.innerWidth")
        # Ten cards in one row, every seat box whole on the screen, its score on one line.
        tops = phone.eval_on_selector_all(".dk-hand .hand-card", "els => els.map(e => e.offsetTop)")
        assert len(tops) == 10 and len(set(tops)) == 1
        # Read at one moment: a state drawn meanwhile replaces the seat boxes. Under load
        # one read found four boxes not laid out at all (no rectangle, no score line)
        # just after the hand showed: wait until the felt's boxes are on the page.
        phone.wait_for_function(LAID_OUT)
        boxes = phone.eval_on_selector_all(".dk-felt .seat", SEAT_BOXES)
        assert len(boxes) == 4, boxes
        for left, right, score_lines in boxes:
            assert left >= 0 and right <= 390, boxes
            assert score_lines == 1, boxes
        shot(phone, "doppelkopf-phone")
    finally:
        context.close()


# -- Doppelkopf: one declaration question a deal -------------------------------------------

QUESTION = ".dk-question"


def declarations_of(view: dict[str, Any], deal_number: int) -> list[dict[str, Any]]:
    """Every declaration of the deal ``deal_number`` (the current one or a finished one)."""
    if view["deal_number"] == deal_number:
        said: list[dict[str, Any]] = view["declarations"]
    else:
        said = next(d for d in view["deals"] if d["number"] == deal_number)["declarations"]
    return said


def my_declarations(view: dict[str, Any], deal_number: int) -> list[str]:
    """What seat 0 said in the deal ``deal_number`` (the current one or a finished one)."""
    return [d["call"] for d in declarations_of(view, deal_number) if d["seat"] == 0]


def shown_deal(page: Page) -> int:
    return int(page.get_attribute(".dk-game", "data-deal") or 0)


def declared(page: Page, deal: int) -> None:
    """Wait until the page shows the declarations of ``deal`` over."""
    page.wait_for_function(
        f"""() => {{ const game = document.querySelector('.dk-game');
            return game.dataset.phase !== 'declare' || game.dataset.deal !== '{deal}'; }}"""
    )


def until_the_next_question(page: Page, deal: int) -> None:
    """Play on (cards, closing results) until the page asks the question of a later deal."""
    while True:
        page.wait_for_selector(f"{QUESTION}, .hand-card.playable, .modal button.primary")
        modal = page.locator(".modal button.primary")
        if modal.count():
            modal.first.click()
            page.wait_for_selector(".modal", state="detached")
        elif page.locator(QUESTION).count():
            assert shown_deal(page) > deal, "asked twice in one deal"
            return
        else:
            play_one(page)


def test_doppelkopf_one_question_a_deal(server: ServerProcess, page: Page) -> None:
    table_id = open_table(server, page, DOPPELKOPF)
    # Gesund, once: the deal goes on to the play without another question.
    page.wait_for_selector(f"{QUESTION} button[data-action=gesund]")
    shot(page, "doppelkopf-question")
    deal = shown_deal(page)
    act(page, page.locator(f"{QUESTION} button[data-action=gesund]"))
    declared(page, deal)
    assert page.locator(QUESTION).count() == 0
    view = public_view(server, table_id)
    said = my_declarations(view, deal)
    assert said and set(said) == {"pass"}  # the person's every round, given by the table
    if view["deal_number"] == deal:
        assert view["phase"] != "declare"

    # A later deal: Vorbehalt, then what it is: a solo.
    until_the_next_question(page, deal)
    deal = shown_deal(page)
    page.locator(f"{QUESTION} [data-step=vorbehalt]").click()
    solos = page.locator(f'{QUESTION} button[data-action^="vorbehalt solo "]')
    solos.first.wait_for()
    assert page.locator(f"{QUESTION} button[data-action=gesund]").count() == 0
    shot(page, "doppelkopf-question-vorbehalt")
    answer = solos.first.get_attribute("data-action")
    assert answer is not None
    act(page, solos.first)
    declared(page, deal)
    view = public_view(server, table_id)
    # (With bots that play at once the deal may be over already: its declarations then.)
    said = declarations_of(view, deal)
    solo = answer.removeprefix("vorbehalt ")
    # The table said the solo in its round, unless another seat's reservation came first
    # in the sheet's order of precedence.
    assert solo in my_declarations(view, deal) or any(
        d["seat"] != 0 and d["call"] != "pass" for d in said
    ), said


# -- Slapjack: a jack slapped and won -------------------------------------------------------

#: The person and one easy bot (the slowest hands: a person's slap within a few
#: hundred milliseconds wins almost always; a lost race is simply tried again).
SLAPJACK = {
    "game": "slapjack",
    "seats": [{"kind": "you"}, {"kind": "bot", "level": "easy"}],
    "options": {"preset": "classic"},
}
SJ_STATE = """() => {
  const pile = document.querySelector('.sj-pile');
  if (!pile) return null;
  const turn = document.querySelector('.sj-turn-button');
  return {
    top: pile.querySelector('.sj-top svg')?.getAttribute('data-card') ?? null,
    size: Number(pile.dataset.size),
    turned: Number(pile.dataset.turned),
    slappable: pile.classList.contains('slappable'),
    mine: Number(document.querySelector('.seat.me .sj-count')?.textContent),
    canTurn: Boolean(turn && !turn.disabled),
    over: document.querySelector('.result') !== null,
    version: Number(document.getElementById('app')?.dataset.version ?? -1),
  };
}"""
#: A jack to slap, our turn to turn a card, or the end.
SJ_SOMETHING = """() => {
  const pile = document.querySelector('.sj-pile');
  const turn = document.querySelector('.sj-turn-button');
  return document.querySelector('.result') !== null
    || (pile?.classList.contains('slappable') && pile.classList.contains('jack'))
    || Boolean(turn && !turn.disabled);
}"""
#: The pile moved (a card turned, the pile won or taken), or the game ended.
SJ_MOVED = """before => {
  const pile = document.querySelector('.sj-pile');
  return document.querySelector('.result') !== null || !pile
    || Number(pile.dataset.turned) !== before.turned || Number(pile.dataset.size) !== before.size;
}"""
#: After a turn: the pile moved, or the page drew any newer state (the answer to a turn
#: refused because the table moved on meanwhile, after which the caller looks again).
SJ_TURNED = f"""before => ({SJ_MOVED})(before)
  || Number(document.getElementById('app')?.dataset.version ?? -1) !== before.version"""


def sj_state(page: Page) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(SJ_STATE)
    return state


def slap_until_won(page: Page, how: str, en: dict[str, str], steps: int = 3000) -> int:
    """Turn cards until a jack is on top; slap it (``click``, ``key`` or ``tap``) and
    check that the person's stack grew by the whole pile. Returns the pile's size.

    A jack lost to the bot's quicker hand is let go and the next one is slapped. Each
    of at most ``steps`` steps waits for the game to move (a card turned, a slap).
    """
    for _ in range(steps):
        page.wait_for_function(SJ_SOMETHING, timeout=30_000)
        state = sj_state(page)
        assert not state["over"], "the game ended before the person won a jack"
        top = state["top"]
        if top is not None and top.startswith("J") and state["slappable"]:
            if how == "click":
                page.click(".sj-slap-button")
            elif how == "key":
                page.keyboard.press(" ")
            else:
                page.tap(".sj-pile")
            page.wait_for_function(SJ_MOVED, arg=state)
            after = sj_state(page)
            news = page.locator(".sj-news")
            won = fill(en["sj.ev.pile_won"], name=f"Ann ({en['ui.you']})", n=state["size"])
            if after["size"] == 0 and news.inner_text().startswith(won):
                assert "good" in (news.get_attribute("class") or "")
                assert after["mine"] == state["mine"] + state["size"]
                size: int = state["size"]
                return size
            continue  # the bot was quicker (or missed nothing): the next jack
        if state["canTurn"]:
            if how == "key":
                page.keyboard.press("t")
            else:
                page.click(".sj-turn-button")
            page.wait_for_function(SJ_TURNED, arg=state)
    raise AssertionError(f"no jack won by {how} in {steps} steps")


def test_slapjack_a_jack_slapped_by_click_and_by_key_wins_the_pile(
    server: ServerProcess, page: Page
) -> None:
    en = catalog(server, "en")
    table_id = open_table(server, page, SLAPJACK)
    page.wait_for_selector(".sj-game")
    shot(page, "slapjack-start")

    won = slap_until_won(page, "click", en)
    shot(page, "slapjack-won")
    view = public_view(server, table_id)
    wins = [e for e in view["events"] if e["type"] == "pile_won" and e["seat"] == 0]
    assert wins and wins[-1]["n"] == won

    slap_until_won(page, "key", en)
    assert sum(public_view(server, table_id)["stack_sizes"]) + sj_state(page)["size"] == 52


def test_slapjack_a_tap_on_the_pile_slaps_on_a_phone(
    server: ServerProcess, browser: Browser
) -> None:
    en = catalog(server, "en")
    context = browser.new_context(
        locale="en-US", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(WAIT_MS)
    try:
        phone = context.new_page()
        errors: list[str] = []
        phone.on("pageerror", lambda error: errors.append(str(error)))
        open_table(server, phone, SLAPJACK)
        phone.wait_for_selector(".sj-game")
        slap_until_won(phone, "tap", en)
        phone.wait_for_function("() => document.documentElement.scrollWidth <= window.innerWidth")
        shot(phone, "slapjack-phone")
        assert not errors
    finally:
        context.close()


# -- Irish Snap: the first to slap a match keeps their cards, the last takes the pile -------

IRISH_SNAP = {
    "game": "irish-snap",
    "seats": [{"kind": "you"}, {"kind": "bot", "level": "easy"}],
}
#: A match to slap, our turn to turn a card, or the end.
SNAP_SOMETHING = """() => {
  const pile = document.querySelector('.sj-pile');
  const turn = document.querySelector('.sj-turn-button');
  return document.querySelector('.result') !== null
    || (pile?.classList.contains('slappable') && pile.classList.contains('match'))
    || Boolean(turn && !turn.disabled);
}"""
#: The pile was taken (or the game ended).
SNAP_TAKEN = """() => {
  const pile = document.querySelector('.sj-pile');
  return document.querySelector('.result') !== null || !pile || Number(pile.dataset.size) === 0;
}"""
OTHER_COUNT = "() => Number(document.querySelector('.seat:not(.me) .sj-count')?.textContent)"


def slap_the_first_match(
    server: ServerProcess, page: Page, table_id: str, en: dict[str, str]
) -> bool:
    """Turn cards until a match; slap it at once (by key) and check that the bot, last (or
    not in time), took the pile while the person's stack stayed. False if the game ended
    without a match (a game of 52 turns has none about once in 60)."""
    names = public_view(server, table_id)["names"]
    for _ in range(3000):  # (each step waits for the game to move)
        page.wait_for_function(SNAP_SOMETHING, timeout=30_000)
        state = sj_state(page)
        if state["over"]:
            return False
        pile = page.locator(".sj-pile")
        if state["slappable"] and "match" in (pile.get_attribute("class") or ""):
            bot_before = page.evaluate(OTHER_COUNT)
            page.keyboard.press(" ")
            page.wait_for_function(SNAP_TAKEN, timeout=15_000)
            news = page.locator(".sj-news").inner_text()
            taken = [
                fill(en[f"snap.ev.{key}"], name=names[1], n=state["size"])
                for key in ("taken_last_slap", "taken_too_slow")
            ]
            assert news in taken, news
            assert sj_state(page)["mine"] == state["mine"]
            assert page.evaluate(OTHER_COUNT) == bot_before + state["size"]
            # The server's account: the person slapped first, the bot took the pile.
            events = public_view(server, table_id)["events"]
            last = max(i for i, e in enumerate(events) if e["type"] == "pile_taken")
            assert events[last]["seat"] == 1
            assert events[last]["reason"] in ("last_slap", "too_slow")
            first = next(
                e for e in reversed(events[:last]) if e["type"] == "slapped" and e["order"] == 1
            )
            assert first["seat"] == 0
            return True
        if state["canTurn"]:
            page.keyboard.press("t")
            page.wait_for_function(SJ_TURNED, arg=state)
    raise AssertionError("no match and no end in 3,000 steps")


def test_irish_snap_the_first_slap_on_a_match_keeps_the_cards(
    server: ServerProcess, page: Page
) -> None:
    """The person slaps a match at once (by key), the easy bot after: the bot, last (or
    not in time), takes the pile, and the person's stack stays as it was."""
    en = catalog(server, "en")
    for _ in range(4):  # a game may end without any match: then a new table
        table_id = open_table(server, page, IRISH_SNAP)
        page.wait_for_selector(".sj-game")
        if slap_the_first_match(server, page, table_id, en):
            shot(page, "irish-snap-taken")
            return
    raise AssertionError("four games in a row without a match")


# -- the header's rules link -----------------------------------------------------------------


def first_section(server: ServerProcess, game: str, lang: str) -> str:
    markdown = httpx.get(f"{server.url}/api/rules/{game}/{lang}", timeout=10).text
    return next(line[3:] for line in markdown.splitlines() if line.startswith("## "))


def rules_link(page: Page) -> str | None:
    return page.locator("#top a.rules-link").get_attribute("href")


def test_the_rules_link_follows_the_game_and_the_language(
    server: ServerProcess, page: Page
) -> None:
    texts = {lang: catalog(server, lang) for lang in ("de", "en")}
    # The lobby: the game chosen in the form.
    page.goto(f"{server.url}/")
    page.wait_for_selector("form.create")
    assert rules_link(page) == "/rules/slobberhannes?lang=en"
    page.select_option("#game", "doppelkopf")
    assert rules_link(page) == "/rules/doppelkopf?lang=en"
    page.select_option("#game", "irish-snap")
    assert rules_link(page) == "/rules/irish-snap?lang=en"

    # A table: its own game, in the language chosen there too. A seat is open,
    # so the table waits and nothing moves meanwhile.
    open_table(
        server,
        page,
        {"game": "slapjack", "seats": [{"kind": "you"}, {"kind": "open"}]},
    )
    page.wait_for_selector("section.waiting")
    page.wait_for_function(
        "() => document.querySelector('#top a.rules-link')?.getAttribute('href')"
        " === '/rules/slapjack?lang=en'"
    )
    page.select_option("#lang", "de")
    page.wait_for_function(
        "text => document.querySelector('#top a.rules-link')?.textContent === text",
        arg=texts["de"]["nav.rules"],
    )
    assert rules_link(page) == "/rules/slapjack?lang=de"

    # Followed, it shows that game's rules in that language.
    page.click("#top a.rules-link")
    page.wait_for_url(re.compile(r"/rules/slapjack$"))
    page.wait_for_function(
        "text => document.querySelector('article.rules h2')?.textContent === text",
        arg=first_section(server, "slapjack", "de"),
    )
    assert rules_link(page) == "/rules/slapjack?lang=de"

    # Opened on its own (a new tab, a shared link), the address says the language.
    page.goto(f"{server.url}/rules/doppelkopf?lang=de")
    page.wait_for_function(
        "text => document.querySelector('article.rules h2')?.textContent === text",
        arg=first_section(server, "doppelkopf", "de"),
    )
    assert page.evaluate("() => document.documentElement.lang") == "de"
    assert rules_link(page) == "/rules/doppelkopf?lang=de"
    # The switcher's choice holds over a reload, ?lang= or not.
    page.select_option("#lang", "en")
    page.wait_for_function(
        "text => document.querySelector('article.rules h2')?.textContent === text",
        arg=first_section(server, "doppelkopf", "en"),
    )
    assert page.url.endswith("/rules/doppelkopf?lang=en")
    page.reload()
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert rules_link(page) == "/rules/doppelkopf?lang=en"


# -- the Russian cut ----------------------------------------------------------------------------

RUSSIAN = {
    "game": "slobberhannes",
    "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 3,
    # Play to 30, not 5: the match lasts until every seat has cut at least once.
    "options": {"preset": "russian", "target": 30},
}


def test_the_russian_cut_by_the_person(server: ServerProcess, page: Page) -> None:
    en = catalog(server, "en")
    table_id = open_table(server, page, RUSSIAN)
    # Bots cut and play by themselves; the person plays until it is their turn to cut.
    deals = 0
    while True:
        # (the person cuts once every four deals)
        assert deals <= 4, "the cut never came to the person"
        page.wait_for_selector(".cut-bar, .hand-card.playable, .modal button.primary, .result")
        assert not page.locator(".result").count(), "the match ended before the person cut"
        if page.locator(".modal").count():  # a deal's summary: the cut may wait behind it
            deals += 1
            page.locator(".modal button.primary").click()
            page.wait_for_selector(".modal", state="detached")
            continue
        if page.locator(".cut-bar").count():
            break
        play_one(page)

    view = public_view(server, table_id)
    assert view["cut"]["seat"] == 0
    dealer = f"{view['names'][view['cut']['dealer']]}"
    assert page.locator(".status.mine").inner_text().startswith(en["cut.your_cut"])
    assert page.locator(".hand .card").count() == 0
    # The slider says how many cards are lifted; the deck on the felt follows it.
    page.locator(".cut-range").fill("5")
    page.locator(".cut-range").press("ArrowRight")
    assert page.locator(".cut-packets").inner_text() == fill(en["cut.packets"], n=6, rest=26)
    assert page.locator(".felt .cut-packet.lifted .cut-count").inner_text() == "6"
    assert page.locator(".cut-button").get_attribute("data-action") == "cut 6"
    # The Russian sheet counts penalties only: no chips.
    assert en["ui.chips"] not in page.locator("aside.side .score-sheet").inner_text()
    shot(page, "slobberhannes-cut")

    # The others see who cuts, for whom.
    watcher = page.context.browser
    assert watcher is not None
    other = watcher.new_context(locale="en-US")
    try:
        spectator = other.new_page()
        spectator.goto(f"{server.url}/t/{table_id}")
        waiting = fill(en["cut.waiting"], name="Ann", dealer=dealer)
        spectator.wait_for_function(
            "text => document.querySelector('.status')?.innerText.startsWith(text)", arg=waiting
        )
        assert spectator.locator(".cut-bar").count() == 0
        assert spectator.locator(".felt .cut-deck .cut-count").inner_text() == "32"
    finally:
        other.close()

    page.click(".cut-button")
    page.wait_for_selector(".cut-bar", state="detached")
    page.wait_for_function("() => document.querySelectorAll('.hand .card').length === 8")
    after = public_view(server, table_id)
    assert after["cuts"][-1] == {"deal": view["cut"]["deal"], "seat": 0, "n": 6}
    note = fill(en["cut.done"], name=f"Ann ({en['ui.you']})", n=6)
    page.wait_for_function(
        "text => document.querySelector('.felt-info')?.textContent.includes(text)"
        " || document.querySelectorAll('.trick .trick-card').length > 0"
        " || document.querySelector('.hand-card.playable') !== null",
        arg=note,
    )
    shot(page, "slobberhannes-after-cut")
