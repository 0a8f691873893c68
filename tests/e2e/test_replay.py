"""The replay viewer in a real browser: a record opened from a file, and a table's games.

The viewer's figures are checked against ``kartentisch replay --json`` of the
same record (the server replays it by the same rules). Screenshots go to
``tests/e2e/artifacts/``.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kartentisch.games.doppelkopf import DoppelkopfMatch
from web.helpers import cli_summary

from .conftest import PageErrors, ServerProcess, shot
from .pages import catalog, fill, play_one, public_view

if TYPE_CHECKING:
    from playwright.sync_api import Page

RECORD = Path(__file__).parent.parent / "data" / "match_first_to_ten.json"
TRICK_LINE = ".replay-trick-line"


def trick_line(en: dict[str, str], n: int, total: int, leader: str) -> str:
    return f"{fill(en['ui.trick_of'], n=n, total=total)} — {fill(en['ui.led_by'], name=leader)}"


def shows_trick(page: Page, en: dict[str, str], n: int, names: list[str], trick: Any) -> None:
    """The viewer shows trick ``n`` (of 8): who led it, and who won it."""
    assert page.locator(TRICK_LINE).inner_text() == trick_line(en, n, 8, names[trick["leader"]])
    assert page.locator(".replay-won").inner_text() == fill(
        en["ui.won_by"], name=names[trick["winner"]]
    )


def test_a_record_opened_from_a_file_is_gone_through_trick_by_trick(
    server: ServerProcess, page: Page
) -> None:
    en = catalog(server, "en")
    summary = cli_summary(RECORD)
    names = ["Anna", "Ben", "Carla", "Dan"]
    page.goto(f"{server.url}/")
    page.click("#top a.replay-link")
    page.wait_for_url(f"{server.url}/replay")
    assert page.locator(".replay-open h2").inner_text() == en["replay.title"]
    shot(page, "replay-open")
    page.set_input_files("#record-file", str(RECORD))

    # Trick 1 of deal 1: the four cards in the order played, the winner's marked.
    page.wait_for_selector(".replay-trick figure")
    deal = summary["deals"][0]
    first = deal["tricks"][0]
    seats = [(first["leader"] + i) % 4 for i in range(4)]
    shows_trick(page, en, 1, names, first)
    cards = page.eval_on_selector_all(
        ".replay-trick figure svg", "els => els.map(e => e.getAttribute('data-card'))"
    )
    assert cards == [c.replace("T", "10") for c in first["cards"]] or cards == first["cards"]
    assert page.locator(".replay-trick figcaption").all_inner_texts() == [names[s] for s in seats]
    assert (
        page.locator(".replay-trick figure.winner figcaption").inner_text()
        == names[first["winner"]]
    )
    # The points of every deal and the totals, as the CLI gives them.
    # Anna reached 10 first: she lost, the others won.
    assert page.locator(".replay-losers").inner_text() == fill(en["ui.losers"], names="Anna")
    assert page.locator(".replay-winners").inner_text() == fill(
        en["ui.winners"], names="Ben, Carla, Dan"
    )
    totals = page.locator(".replay-points tr.totals th").all_inner_texts()[1:]
    assert totals == [str(p) for p in summary["points"]]
    rows = page.locator(".replay-points tbody tr:not(.totals)")
    assert rows.count() == len(summary["deals"])
    # the deal's penalties explained, by trick and card
    from kartentisch.explain import render_lines

    explained = page.locator(".replay-explain li").all_inner_texts()
    assert explained == render_lines("en", deal["explain"], names)
    shot(page, "replay-trick-1")

    # Next, the arrow key, the last trick; another deal.
    page.click(".replay-controls button:has-text('Next')")
    second = deal["tricks"][1]
    shows_trick(page, en, 2, names, second)
    page.keyboard.press("ArrowRight")
    assert page.locator(TRICK_LINE).inner_text().startswith(fill(en["ui.trick_of"], n=3, total=8))
    page.click(f".replay-controls button[title='{en['replay.last']}']")
    assert page.locator(".replay-controls button:has-text('Next')").is_disabled()
    page.click(f".replay-deals button:has-text('{fill(en['ui.deal_n'], n=3)}')")
    third = summary["deals"][2]
    assert page.locator(".replay-deal").inner_text().startswith(fill(en["ui.deal_n"], n=3))
    shows_trick(page, en, 1, names, third["tricks"][0])

    # The whole game as text follows the language: switched to German, replayed again.
    page.locator(".replay-log summary").click()
    assert page.locator(".replay-log pre").inner_text().startswith("Deal 1")
    page.select_option("#lang", "de")
    de = catalog(server, "de")
    page.wait_for_function(
        "text => document.querySelector('.replay h2')?.textContent.startsWith(text)",
        arg=de["replay.title"],
    )
    page.locator(".replay-log summary").click()
    assert page.locator(".replay-log pre").inner_text().startswith("Spiel 1")
    shot(page, "replay-german")


def test_a_record_the_rules_refuse_is_refused_with_the_reason(
    server: ServerProcess, page: Page, page_errors: PageErrors, tmp_path: Path
) -> None:
    # The browser logs the refused request (400) as a console error.
    page_errors.allowed.append("status of 400")
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    tampered = copy.deepcopy(record)
    actions = tampered["deals"][0]["actions"]
    actions[1], actions[2] = actions[2], actions[1]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(tampered), encoding="utf-8")
    en = catalog(server, "en")
    page.goto(f"{server.url}/replay")
    page.set_input_files("#record-file", str(path))
    error = page.locator(".replay-error")
    error.wait_for()
    text = error.inner_text()
    assert text.startswith(fill(en["error.bad_record"], detail=""))
    assert "deal 1" in text and "action 2" in text
    assert page.locator(".replay-trick").count() == 0
    shot(page, "replay-refused")


def test_a_tables_games_from_its_replay_link(server: ServerProcess, page: Page) -> None:
    en = catalog(server, "en")
    created = server.post(
        "/api/tables",
        {
            "game": "slobberhannes",
            "name": "Ann",
            "seats": [{"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 3,
        },
    )
    table_id = created["id"]
    page.goto(f"{server.url}/t/{table_id}#seat={created['seat']}&token={created['token']}")
    while True:
        page.wait_for_selector(".hand-card.playable, .modal")
        if page.locator(".modal").count():
            break
        play_one(page)
    page.locator(".modal button.primary").click()
    page.click("aside.side a.replay-link")
    page.wait_for_url(f"{server.url}/replay/{table_id}")
    page.wait_for_selector(".replay-trick figure")
    assert page.locator(".replay p.muted").first.inner_text() == fill(
        en["replay.of_table"], id=table_id
    )
    assert en["replay.unfinished"] in page.locator(".replay").inner_text()
    assert "null" not in page.locator(".replay").inner_text()
    assert "undefined" not in page.locator(".replay").inner_text()
    assert page.locator(".replay-deal").inner_text().startswith(fill(en["ui.deal_n"], n=1))
    # The first trick as the table played it (the public view's review of deal 1).
    view = public_view(server, table_id)
    trick = view["deals"][0]["tricks"][0]
    shows_trick(page, en, 1, view["names"], trick)
    shot(page, "replay-table")


def test_a_doppelkopf_session_shows_each_games_type_and_augen(
    server: ServerProcess, page: Page, tmp_path: Path
) -> None:
    rng = random.Random(11)
    match = DoppelkopfMatch({}, seats=["Ann", "Ben", "Cy", "Dee"], seed=11)
    while len(match.deals) < 3 or not match.deal.is_over:
        if match.deal.is_over:
            match.start_deal()
        else:
            match.apply(rng.choice(match.legal_actions()))
    path = tmp_path / "doppelkopf.json"
    path.write_text(json.dumps(match.to_record()), encoding="utf-8")
    summary = cli_summary(path)
    played = [(i, d) for i, d in enumerate(summary["deals"], 1) if d["outcome"] == "played"]
    assert played, "no game of the three was played out"
    en = catalog(server, "en")
    page.goto(f"{server.url}/replay")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector(".replay-trick figure")
    number, deal = played[0]
    header = page.locator(".replay-deal").inner_text()
    assert header.startswith(fill(en["ui.deal_n"], n=number))
    assert en[f"dk.game.{deal['game_type']}"] in header
    augen = fill(en["replay.augen"], re=deal["augen"]["re"], kontra=deal["augen"]["kontra"])
    assert augen in header
    names = ["Ann", "Ben", "Cy", "Dee"]
    # Who played with whom, what was said, who won, the extra points.
    parties = " · ".join(
        f"{en[f'dk.party.{p}']}: {', '.join(names[s] for s in deal['parties'][p])}"
        for p in ("re", "kontra")
    )
    assert page.locator(".replay-parties").inner_text() == parties
    words = [f"{names[a['seat']]}: {en['dk.word.' + a['word']]}" for a in deal["announcements"]]
    assert page.locator(".replay-words").all_inner_texts() == ([" · ".join(words)] if words else [])
    assert page.locator(".replay-game-winner").inner_text() == fill(
        en["ui.winners"], names=en[f"dk.party.{deal['winner']}"]
    )
    assert page.locator(".replay-extras li").count() == len(deal["extras"])
    assert page.locator(TRICK_LINE).inner_text() == (
        f"{fill(en['ui.trick_of'], n=1, total=len(deal['tricks']))} — "
        f"{fill(en['ui.led_by'], name=names[deal['tricks'][0]['leader']])}"
    )
    assert page.locator(".replay-won").inner_text() == fill(
        en["ui.won_by"], name=names[deal["tricks"][0]["winner"]]
    )
    assert page.locator(".replay-trick figure").count() == 4
    shot(page, "replay-doppelkopf")


def test_a_single_deals_record_is_shown_as_one_deal(server: ServerProcess, page: Page) -> None:
    path = RECORD.parent / "seed001_example.json"
    summary = cli_summary(path)
    assert "deals" not in summary  # a single deal's record: its tricks at the top
    en = catalog(server, "en")
    page.goto(f"{server.url}/replay")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector(".replay-trick figure")
    assert page.locator(".replay-deal").inner_text().startswith(fill(en["ui.deal_n"], n=1))
    assert page.locator(".replay-deals").count() == 0  # nothing to choose between
    assert "null" not in page.locator(".replay").inner_text()
    shows_trick(page, en, 1, ["Anna", "Ben", "Carla", "Dan"], summary["tricks"][0])
    rows = page.locator(".replay-points tbody tr:not(.totals)")
    assert rows.count() == 1
    assert rows.first.locator("td").all_inner_texts()[1:] == [
        str(p) if p else "·" for p in summary["points"]
    ]


#: English words of a Doppelkopf game's scoring that a German page must not show.
ENGLISH_SCORING = (
    "wins", "needs", "Extra points", "seat", "seats", "losers", "Value", "Base", "Stages",
    "announced", "each", "soloist", "must", "action", "trick", "fuchs_gefangen",
    "rot_geht_rum", "Score sheet", "Points", "Deal",
)  # fmt: skip


def _doppelkopf_record(seed: int) -> dict[str, Any]:
    """A session of three deals played by a seeded random hand (mostly plain games)."""
    rng = random.Random(seed)
    match = DoppelkopfMatch({}, seats=["Ann", "Ben", "Cy", "Dee"], seed=11)
    while len(match.deals) < 3 or not match.deal.is_over:
        if match.deal.is_over:
            match.start_deal()
            continue
        legal = match.legal_actions()
        plain = [a for a in legal if str(a) == "pass"]
        match.apply(plain[0] if plain and rng.random() < 0.8 else rng.choice(legal))
    return match.to_record()


def _english_in(text: str) -> list[str]:
    import re

    return [w for w in ENGLISH_SCORING if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)]


def test_a_doppelkopf_record_in_german(server: ServerProcess, page: Page, tmp_path: Path) -> None:
    from kartentisch.explain import render_lines

    record = _doppelkopf_record(5)
    path = tmp_path / "doppelkopf.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    summary = cli_summary(path)
    de = catalog(server, "de")
    page.goto(f"{server.url}/replay?lang=de")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector(".replay-trick figure")
    number, deal = next((i, d) for i, d in enumerate(summary["deals"], 1) if d["tricks"])
    assert page.locator(".replay-deal").inner_text().startswith(fill(de["ui.deal_n"], n=number))
    # How the value came about, line by line, in German: the same lines as the terminal's.
    names = ["Ann", "Ben", "Cy", "Dee"]
    shown = page.locator(".replay-explain li").all_inner_texts()
    assert shown == render_lines("de", deal["explain"], names)
    assert any(line.startswith(("Wert:", "Re je", "Ann", "Ben", "Cy", "Dee")) for line in shown)
    # The cards' corners in German letters: a queen is a D, a jack a B.
    corners = page.eval_on_selector_all(
        ".replay-trick svg.card", "els => els.map(e => e.querySelector('text').textContent)"
    )
    assert corners and not {"Q", "J"} & set(corners)
    # Nowhere English: the score sheet, the explanation, the whole game as text.
    page.locator(".replay-log summary").click()
    text = page.locator(".replay").inner_text()
    assert not _english_in(text), _english_in(text)
    assert "Punkteblock" in text
    shot(page, "replay-doppelkopf-de")


def test_a_refused_doppelkopf_record_in_german(
    server: ServerProcess, page: Page, page_errors: PageErrors, tmp_path: Path
) -> None:
    from kartentisch.web.replay import BadRecord, replay_record

    page_errors.allowed.append("status of 400")
    record = _doppelkopf_record(5)
    # Two cards of the first deal played in the other order: the rules refuse one of them.
    for i in range(len(record["deals"][0]["actions"]) - 1):
        tampered = copy.deepcopy(record)
        actions = tampered["deals"][0]["actions"]
        if len(actions[i]) > 3 or len(actions[i + 1]) > 3 or actions[i] == actions[i + 1]:
            continue  # words, not cards
        actions[i], actions[i + 1] = actions[i + 1], actions[i]
        try:
            replay_record(tampered, "de")
        except BadRecord as exc:
            reason = str(exc)
            break
    else:
        raise AssertionError("no swap of two cards is refused")
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(tampered), encoding="utf-8")
    de = catalog(server, "de")
    page.goto(f"{server.url}/replay?lang=de")
    page.set_input_files("#record-file", str(path))
    error = page.locator(".replay-error")
    error.wait_for()
    text = error.inner_text()
    assert text == fill(de["error.bad_record"], detail=reason)
    assert text.startswith(fill(de["error.bad_record"], detail="Spiel 1, Zug"))
    assert "(Platz " in text and " — " in text
    assert not _english_in(text), _english_in(text)
    shot(page, "replay-refused-de")


def test_a_thrown_in_deal_has_its_tab(server: ServerProcess, page: Page, tmp_path: Path) -> None:
    from tests.doppelkopf.helpers import hands_with

    match = DoppelkopfMatch(
        {"kings_redeal": 5}, seats=["Ann", "Ben", "Cy", "Dee"], seed=3, start=False
    )
    deal = match.start_deal(hands_with({0: "KC KC KS KS KH"}))
    while not deal.is_over:
        legal = match.legal_actions()
        redeal = [a for a in legal if str(a) == "redeal"]
        match.apply(redeal[0] if redeal else next(a for a in legal if str(a) == "pass"))
    assert deal.outcome == "redeal"
    deal = match.start_deal()
    while not deal.is_over:
        legal = match.legal_actions()
        plain = [a for a in legal if str(a) == "pass"]
        match.apply(plain[0] if plain else legal[0])
    path = tmp_path / "thrown-in.json"
    path.write_text(json.dumps(match.to_record()), encoding="utf-8")
    de = catalog(server, "de")
    page.goto(f"{server.url}/replay?lang=de")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector(".replay-deals")
    # the score sheet says what happened to deal 1; it has its own tab
    row = page.locator(".replay-points tr.replay-redeal")
    assert row.locator("td").all_inner_texts() == ["1", de["explain.thrown_in"]]
    tab = page.locator(".replay-deals button").first
    assert tab.inner_text() == fill(de["explain.redeal_tab"], n=1)
    tab.click()
    page.wait_for_selector(".replay-explain li")
    assert page.locator(".replay-explain li").all_inner_texts() == [
        fill(de["explain.redeal.kings"], who="Ann"),
        de["explain.redeal.no_points"],
    ]
    assert page.locator(".replay-trick").count() == 0
    shot(page, "replay-thrown-in-de")
