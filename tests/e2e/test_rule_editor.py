"""The lobby's Doppelkopf rule editor in a real browser.

A person changes options, exports the rule set (the downloaded TOML says what
was changed), imports other rule sets (a good one is shown, a broken one is
refused with the translated message and changes nothing), opens a table with
the editor's rules and plays a game under them; the replay viewer hands a
record's rules back to the editor. The editor fits a phone in every language,
with no English text in the German and Russian page. Screenshots go to
``tests/e2e/artifacts/``.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from websockets.sync.client import connect

from kartentisch.rulesets import RuleSet, parse_rules
from web.servers import ServerProcess

from .conftest import SIZES, PageErrors, shot
from .pages import catalog, fill, public_view
from .test_explain_browser import play_to_the_summary

if TYPE_CHECKING:
    from playwright.sync_api import Page

EDITOR = ".rules-editor[data-ready]"
#: What the editor shows: the preset, the name, every option's input, the marked rows.
EDITOR_STATE = """() => {
  const out = { preset: document.querySelector('#rules-preset').value,
                name: document.querySelector('#rules-name').value };
  for (const el of document.querySelectorAll('.rules-editor [data-rule]')) {
    const name = el.dataset.rule;
    if (el.type === 'checkbox') out[name] = el.checked;
    else if (el.tagName === 'UL') {
      out[name] = [...el.querySelectorAll('input:checked')].map(i => i.value);
    }
    else out[name] = el.value;
  }
  out.changed = [...document.querySelectorAll('.rules-option.changed')]
    .map(e => e.dataset.ruleOption);
  return out;
}"""
#: The DDV preset with one change, to import.
DDV_KINGS = (
    'kartentisch-rules = 1\ngame = "doppelkopf"\npreset = "ddv"\nname = "Turnier mit Schmeißen"\n'
    "[options]\nkings_redeal = 5\n"
)
#: A rule set its game refuses (a flag that is no flag), and a file that is no TOML.
REFUSED = 'kartentisch-rules = 1\ngame = "doppelkopf"\n[options]\nnines = "yes"\n'
GARBLED = 'kartentisch-rules = 1\ngame = = "doppelkopf"\n'


def editor_state(page: Page) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(EDITOR_STATE)
    return state


def refusal(server: ServerProcess, text: str, lang: str) -> dict[str, Any]:
    """The server's refusal of the rule-set ``text`` (as the page is answered)."""
    answer = httpx.post(
        f"{server.url}/api/rules/doppelkopf/check?lang={lang}", json={"text": text}, timeout=10
    )
    assert answer.status_code == 400
    error: dict[str, Any] = answer.json()["error"]
    return error


def open_editor(page: Page, server: ServerProcess, lang: str) -> None:
    page.goto(f"{server.url}/?lang={lang}")
    page.select_option("#game", "doppelkopf")
    page.wait_for_selector(EDITOR)


def open_group(page: Page, group: str) -> None:
    section = page.locator(f".rules-group[data-group={group}]")
    if section.get_attribute("open") is None:
        section.locator("summary").click()


def import_file(page: Page, path: Path) -> None:
    page.set_input_files("#rules-file", str(path))


def shows_text(page: Page, selector: str, text: str) -> None:
    """Wait until the element ``selector`` says ``text``."""
    page.wait_for_function(
        "([sel, want]) => document.querySelector(sel)?.textContent === want", arg=[selector, text]
    )


def test_edit_export_import_and_play_under_the_rules(
    server: ServerProcess, page: Page, page_errors: PageErrors, tmp_path: Path
) -> None:
    # (the browser logs the refusals of the broken files as failed requests)
    page_errors.allowed.append("400 (Bad Request)")
    en = catalog(server, "en")
    open_editor(page, server, "en")
    page.fill("#name", "Ann")
    # The house rules at first: nothing differs.
    shows_text(page, ".rules-summary", fill(en["lobby.rules.unchanged"], preset=en["preset.house"]))
    assert editor_state(page)["changed"] == []

    # Three changes: the nines on, no Bock games, a Lustsolo led by its soloist.
    for group in ("deck", "bock", "soli"):
        open_group(page, group)
    page.check("#rule-nines")
    page.uncheck("#rule-bock")
    page.select_option("#rule-lustsolo_lead", '"soloist"')
    state = editor_state(page)
    assert state["changed"] == ["nines", "lustsolo_lead", "bock"]
    assert state["preset"] == "house"
    shows_text(page, ".rules-summary", fill(en["lobby.rules.changed.many"], n=3))
    # Each changed option is marked, with a way back to the preset's value.
    nines = page.locator(".rules-option[data-rule-option=nines]")
    assert nines.locator(".rules-changed-mark").inner_text() == en["lobby.rules.differs"]
    assert nines.locator(".rules-reset").get_attribute("title") == fill(
        en["lobby.rules.reset_one"], value=en["opt.doppelkopf.nines.false"]
    )
    # Its explanation on demand, by keyboard.
    toggle = nines.locator(".rules-help-toggle")
    assert nines.locator(".rules-help").is_hidden()
    toggle.focus()
    page.keyboard.press("Enter")
    assert nines.locator(".rules-help").inner_text() == en["opt.doppelkopf.nines.help"]
    assert toggle.get_attribute("aria-expanded") == "true"
    shot(page, "rule-editor-changed")

    # Export: the server writes the TOML, the page downloads it.
    with page.expect_download() as download_info:
        page.click("#rules-export")
    download = download_info.value
    assert download.suggested_filename == "doppelkopf-rules.toml"
    exported = Path(download.path()).read_text(encoding="utf-8")
    assert tomllib.loads(exported) == {
        "kartentisch-rules": 1,
        "game": "doppelkopf",
        "preset": "house",
        "options": {"nines": True, "lustsolo_lead": "soloist", "bock": False},
    }
    shows_text(
        page, ".rules-message", fill(en["lobby.rules.exported"], file="doppelkopf-rules.toml")
    )
    # With a name, the file is named after it.
    page.fill("#rules-name", "Stammtisch: Anna & Ben")
    with page.expect_download() as download_info:
        page.click("#rules-export")
    named = download_info.value
    assert named.suggested_filename == "Stammtisch-Anna-Ben.toml"
    document = tomllib.loads(Path(named.path()).read_text(encoding="utf-8"))
    assert document["name"] == "Stammtisch: Anna & Ben"
    assert document["options"] == tomllib.loads(exported)["options"]

    # Import: the DDV preset with one change; the editor shows it.
    good = tmp_path / "ddv.toml"
    good.write_text(DDV_KINGS, encoding="utf-8")
    import_file(page, good)
    shows_text(page, ".rules-message", fill(en["lobby.rules.imported"], file="ddv.toml"))
    imported = editor_state(page)
    ddv = server.get("/api/rules/doppelkopf/schema")["presets"]["ddv"]
    assert imported["preset"] == "ddv" and imported["name"] == "Turnier mit Schmeißen"
    assert imported["changed"] == ["kings_redeal"]
    assert imported["kings_redeal"] == "5"
    assert imported["nines"] is True and imported["bock"] is False
    assert imported["soli"] == ddv["soli"]
    assert imported["declarations"] == '"ddv"'
    shows_text(page, ".rules-summary", fill(en["lobby.rules.changed.one"], n=1))
    # (the group that holds the change is opened)
    assert page.locator(".rules-group[data-group=schmeissen]").get_attribute("open") is not None

    # A broken file: the refusal next to the buttons, the editor as it was.
    for name, text in (("broken.toml", REFUSED), ("garbled.toml", GARBLED)):
        bad = tmp_path / name
        bad.write_text(text, encoding="utf-8")
        error = refusal(server, text, "en")
        if error["reason"] == "rules_syntax":
            params = error["params"]
            expected = fill(
                en["lobby.rules.syntax_at"], file=name, line=params["line"], column=params["column"]
            )
        else:
            expected = fill(en["lobby.rules.not_loaded"], file=name, message=error["message"])
        import_file(page, bad)
        shows_text(page, ".rules-error", expected)
        assert page.locator(".rules-message").inner_text() == ""
        assert editor_state(page) == imported
    shot(page, "rule-editor-import-error")

    # The table is opened with the editor's rules, and plays under them.
    page.click("form.create button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    table_id = page.url.rsplit("/", 1)[1]
    rules = parse_rules(DDV_KINGS)
    options = server.get(f"/api/tables/{table_id}")["table"]["options"]
    assert options == {**rules.record_options(), "players": 4, "games": 8}
    # With the nines every hand has 12 cards; the table says whose rules it plays.
    page.wait_for_selector(".dk-hand .hand-card")
    assert page.locator(".dk-hand .hand-card").count() == 12
    named = fill(en["lobby.rules_named"], name="Turnier mit Schmeißen")
    page.wait_for_function(
        "([want]) => [...document.querySelectorAll('.dk-info span')]"
        ".some((s) => s.textContent === want)",
        arg=[named],
    )
    assert server.get(f"/api/tables/{table_id}")["table"]["rules_name"] == "Turnier mit Schmeißen"
    shot(page, "rule-editor-table-named")
    play_to_the_summary(page)
    view = public_view(server, table_id)
    assert any(d["outcome"] == "played" for d in view["deals"])
    table = server.get(f"/api/tables/{table_id}")["table"]
    played = {k: v for k, v in table["options"].items() if k != "games"}
    assert RuleSet("doppelkopf", played.pop("preset"), played, rules.name) == rules


def watch_until_finished(server: ServerProcess, table_id: str) -> None:
    """Watch ``table_id`` (as a spectator) until the server says it is finished: its
    bots play at their own pace, slower on a loaded machine, and a table with no game
    over yet has nothing to replay."""
    with connect(f"ws://{server.address}/ws/tables/{table_id}", open_timeout=60) as ws:
        ws.send(json.dumps({"type": "hello", "lang": "en"}))
        while True:
            message = json.loads(ws.recv(timeout=120))
            if message["type"] == "state" and message["table"]["status"] == "finished":
                return


def test_play_with_the_rules_of_a_record(server: ServerProcess, page: Page, tmp_path: Path) -> None:
    en = catalog(server, "en")
    # A table of four bots plays at once; its record's options are a preset and overrides.
    bots = [{"kind": "bot", "level": "random"}] * 4
    rules = {"preset": "ddv", "kings_redeal": 5, "bock": True, "games": 1}
    created = server.post("/api/tables", {"game": "doppelkopf", "seats": bots, "options": rules})
    table_id = created["id"]
    expected = {"preset": "ddv", "changed": ["kings_redeal", "bock"], "kings_redeal": "5"}

    def shows_the_rules(note: str) -> None:
        page.wait_for_url(f"{server.url}/")
        page.wait_for_selector(EDITOR)
        shows_text(page, ".rules-note", note)
        state = editor_state(page)
        assert {k: state[k] for k in expected} == expected
        assert state["bock"] is True
        assert page.locator("#game").input_value() == "doppelkopf"

    # From a table's games, once its one game is over …
    watch_until_finished(server, table_id)
    page.goto(f"{server.url}/replay/{table_id}?lang=en")
    button = page.get_by_role("button", name=en["lobby.rules.play_these"])
    assert button.get_attribute("id") == "replay-play-rules"
    button.click()
    shows_the_rules(fill(en["lobby.rules.from_table"], id=table_id))
    shot(page, "rule-editor-from-replay")
    # … only once: the lobby opened again shows the house rules.
    page.reload()
    page.select_option("#game", "doppelkopf")
    page.wait_for_selector(EDITOR)
    assert editor_state(page)["changed"] == []

    # … and from a record file opened in the viewer.
    record = httpx.get(f"{server.url}/api/tables/{table_id}/record", timeout=10)
    assert record.status_code == 200
    path = tmp_path / "game.json"
    path.write_bytes(record.content)
    page.goto(f"{server.url}/replay?lang=en")
    page.set_input_files("#record-file", str(path))
    page.get_by_role("button", name=en["lobby.rules.play_these"]).click()
    shows_the_rules(fill(en["lobby.rules.from_file"], file="game.json"))


def test_no_play_button_for_a_game_without_rule_sets(server: ServerProcess, page: Page) -> None:
    bots = [{"kind": "bot", "level": "random"}] * 4
    body = {"game": "slobberhannes", "seats": bots, "options": {"target": 1}}
    created = server.post("/api/tables", body)
    watch_until_finished(server, created["id"])  # (a table with no game over has no replay)
    page.goto(f"{server.url}/replay/{created['id']}?lang=en")
    # (the place of the button is ready once the page knows the games with rule sets)
    page.wait_for_selector(".replay-play[data-ready]", state="attached")
    assert page.locator("#replay-play-rules").count() == 0
    assert (
        page.get_by_role("button", name=catalog(server, "en")["lobby.rules.play_these"]).count()
        == 0
    )


# -- every language, desktop and phone ---------------------------------------------------------

#: The elements that reach past the window's right edge (the start of their HTML).
PAST_THE_RIGHT_EDGE = """els => els
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)
  .map(e => e.outerHTML.slice(0, 80))"""


def english_texts(server: ServerProcess, lang: str) -> list[str]:
    """The English texts the editor may show that differ from their ``lang`` ones."""
    en = server.get("/api/rules/doppelkopf/schema?lang=en")["texts"]
    other = server.get(f"/api/rules/doppelkopf/schema?lang={lang}")["texts"]
    pairs = [(en["groups"][g], other["groups"][g]) for g in en["groups"]]
    for name, texts in en["options"].items():
        theirs = other["options"][name]
        pairs += [(texts["title"], theirs["title"]), (texts["help"], theirs["help"])]
        pairs += [(v, theirs["values"][k]) for k, v in texts["values"].items()]
    different = {mine for mine, theirs in pairs if mine != theirs}
    # the editor's own texts: each piece between their fields that the translation lacks
    cat_en, cat = catalog(server, "en"), catalog(server, lang)
    for key, text in cat_en.items():
        if key.startswith("lobby.rules."):
            pieces = (p.strip() for p in re.split(r"\{\w+\}", text))
            different |= {p for p in pieces if p not in cat[key]}
    return sorted(p for p in different if len(p) > 3)


@pytest.mark.parametrize(
    ("lang", "sized"),
    [(lang, size) for lang in ("de", "en", "ru") for size in SIZES],
    indirect=["sized"],
)
def test_the_editor_in_every_language_fits_the_screen(
    server: ServerProcess, sized: Page, lang: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    page = sized
    texts = catalog(server, lang)
    open_editor(page, server, lang)
    groups = page.locator(".rules-group")
    for i in range(groups.count()):
        groups.nth(i).locator("summary").click()
    page.check("#rule-nines")
    page.locator(".rules-option[data-rule-option=soli] .rules-help-toggle").click()
    bad = tmp_path / "kaputt.toml"
    bad.write_text(REFUSED, encoding="utf-8")
    import_file(page, bad)
    message = refusal(server, REFUSED, lang)["message"]
    shows_text(
        page, ".rules-error", fill(texts["lobby.rules.not_loaded"], file=bad.name, message=message)
    )
    assert page.locator(".rules-option[data-rule-option=soli] .rules-help").is_visible()
    # Nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    wide = page.eval_on_selector_all(".rules-editor *", PAST_THE_RIGHT_EDGE)
    assert wide == []
    if lang != "en":
        shown = page.locator(".rules-editor").inner_text()
        english = [text for text in english_texts(server, lang) if text in shown]
        assert english == []
    shot(page, f"rule-editor-{lang}-{request.node.callspec.id.split('-')[-1]}")
