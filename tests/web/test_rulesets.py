"""Rule sets over HTTP: the schema, checking a document, a table opened with ``rules``.

The app runs under uvicorn on a free localhost port (as the rate-limit tests
run it) and is asked over a real socket.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kartentisch.rulesets import dump_rules, parse_rules, rules_schema, rules_texts
from kartentisch.web.i18n import catalog
from kartentisch.web.protocol import Limits

from .test_rate_limits import NEVER, Server, serving

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "rules"
NINES = (EXAMPLES / "with-nines.toml").read_text(encoding="utf-8")
HEAD = 'kartentisch-rules = 1\ngame = "doppelkopf"\n'
FOUR = [{"kind": "you"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with serving(tmp_path, Limits.unlimited()) as running:
        yield running


def check(server: Server, body: Any, lang: str = "en") -> tuple[int, dict[str, Any]]:
    answer = server.http.post(f"/api/rules/doppelkopf/check?lang={lang}", json=body)
    shown: dict[str, Any] = answer.json()
    return answer.status_code, shown


# -- the schema ----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["de", "en", "ru"])
def test_the_schema_with_the_texts_of_the_language(server: Server, lang: str) -> None:
    answer = server.http.get(f"/api/rules/doppelkopf/schema?lang={lang}")
    assert answer.status_code == 200
    assert answer.json() == {**rules_schema("doppelkopf"), "texts": rules_texts("doppelkopf", lang)}
    texts = answer.json()["texts"]
    assert texts["lang"] == lang
    assert set(texts["options"]) == {o["name"] for o in answer.json()["options"]}
    assert texts["presets"]["house"] == catalog(lang)["preset.house"]
    assert texts["options"]["nines"]["values"].keys() == {"true", "false"}


def test_the_schema_of_an_alias_and_of_games_without_rule_sets(server: Server) -> None:
    assert server.http.get("/api/rules/doko/schema").json()["game"] == "doppelkopf"
    for game in ("slapjack", "chess"):
        answer = server.http.get(f"/api/rules/{game}/schema?lang=de")
        assert answer.status_code == 404
        assert answer.json()["error"] == {
            "code": "no_rule_sets",
            "message": catalog("de")["error.no_rule_sets"].format(game=game),
        }
    # The rules document is still where it was.
    text = server.http.get("/api/rules/doppelkopf/en")
    assert text.status_code == 200 and text.headers["content-type"].startswith("text/markdown")


# -- checking a document -------------------------------------------------------------------


def test_a_document_is_checked_and_normalized(server: Server) -> None:
    expected = parse_rules(NINES)
    status, shown = check(server, {"text": NINES})
    assert status == 200
    assert shown["toml"] == dump_rules(expected)
    assert shown["json"] == expected.to_dict()
    assert shown["rules"] == {
        "game": "doppelkopf",
        "preset": "house",
        "name": "Mit Neunen",
        "description": "Hausregeln mit Neunen, ohne Bockrunden.",
        "options": {"nines": True, "bock": False},
        "values": expected.values(),
    }
    assert shown["rules"]["values"]["nines"] is True and shown["rules"]["values"]["players"] == 4
    # The same rules as JSON text, and as an object.
    assert check(server, {"text": dump_rules(expected, "json")}) == (200, shown)
    assert check(server, {"rules": expected.to_dict()}) == (200, shown)
    # The same rules written out in full are the same rule set.
    listed = {**expected.to_dict(), "options": expected.values()}
    assert check(server, {"rules": listed}) == (200, shown)


@pytest.mark.parametrize(
    ("body", "reason", "params", "key"),
    [
        (
            {"text": HEAD + '[options]\nnines = "yes"\n'},
            "flag",
            {"option": "nines"},
            "error.option_flag",
        ),
        (
            {"rules": {"kartentisch-rules": 1, "game": "doppelkopf", "options": {"nine": 1}}},
            "unknown_option",
            {"option": "nine"},
            "error.option_unknown_option",
        ),
        (
            {"text": HEAD + 'preset = "ddv"\n[options]\narmut = true\n'},
            "needs_sheet_order",
            {"option": "armut"},
            "error.option_needs_sheet_order",
        ),
        (
            {"text": HEAD + "[options]\nkings_redeal = 9\n"},
            "range",
            {"option": "kings_redeal", "low": 0, "high": 8},
            "error.option_range",
        ),
        (
            {"text": HEAD + "colour = 1\n"},
            "rules_key",
            {
                "field": "colour",
                "keys": "kartentisch-rules, game, preset, name, description, options",
            },
            "error.rules_key",
        ),
        (
            {"text": 'kartentisch-rules = 3\ngame = "doppelkopf"\n'},
            "rules_version",
            {"version": "3", "supported": 1},
            "error.rules_version",
        ),
        (
            {"text": 'kartentisch-rules = 1\ngame = "slobberhannes"\n'},
            "rules_game",
            {"game": "slobberhannes"},
            "error.rules_game",
        ),
        (
            {"rules": [1, 2]},
            "rules_not_object",
            {},
            "error.rules_not_object",
        ),
    ],
)
def test_a_refused_document_says_why_in_the_language(
    server: Server, body: Any, reason: str, params: dict[str, Any], key: str
) -> None:
    status, shown = check(server, body, "de")
    assert status == 400
    error = shown["error"]
    assert error["code"] == "bad_rules" and error["reason"] == reason
    assert error["params"] == params
    names = {**params, "detail": error["detail"]}
    if "option" in params:  # (the option as the lobby labels it, when it has a label)
        label = catalog("de").get(f"option.{params['option']}")
        names["option"] = label or params["option"]
    assert error["message"] == catalog("de")[key].format(**names)
    for value in params.values():
        assert str(value).lower() in error["detail"].lower()


def test_malformed_documents_and_bodies(server: Server) -> None:
    status, shown = check(server, {"text": HEAD + "name = \n"})
    error = shown["error"]
    assert status == 400 and error["reason"] == "rules_syntax"
    assert (error["params"]["line"], error["params"]["column"]) == (3, 8)
    assert error["message"] == catalog("en")["error.rules_syntax_at"].format(**error["params"])
    # In German the place in German words, not the parser's English.
    status, shown = check(server, {"text": HEAD + "name = \n"}, "de")
    assert (
        shown["error"]["message"]
        == "Der Regelsatz ließ sich nicht lesen: ein Fehler in Zeile 3, Spalte 8."
    )
    status, shown = check(server, {"text": '{"kartentisch-rules": 1,'})
    assert status == 400 and shown["error"]["reason"] == "rules_syntax"
    assert shown["error"]["params"]["line"] == 1
    for body in ({}, {"text": HEAD, "rules": {}}, {"txt": HEAD}, [HEAD], {"text": 5}):
        status, shown = check(server, body)
        assert status == 400 and shown["error"]["code"] == "bad_request", body
    big = server.http.post(
        "/api/rules/doppelkopf/check", content=json.dumps({"text": "#" * 70_000})
    )
    assert big.status_code == 413 and big.json()["error"]["code"] == "too_large"
    answer = server.http.post("/api/rules/slapjack/check", json={"text": HEAD})
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "no_rule_sets"


# -- rate limits ---------------------------------------------------------------------------


def test_rule_set_requests_are_limited_per_address_apart_from_tables(tmp_path: Path) -> None:
    limits = Limits(lobby_burst=2, lobby_per_second=NEVER)
    with serving(tmp_path, limits) as server:
        assert server.http.get("/api/rules/doppelkopf/schema").status_code == 200
        assert server.http.post("/api/rules/doppelkopf/check", json={"text": HEAD}).status_code
        for refused in (
            server.http.get("/api/rules/doppelkopf/schema?lang=ru"),
            server.http.post("/api/rules/doppelkopf/check?lang=ru", json={"text": HEAD}),
            server.http.get("/api/rules/nosuchgame/schema?lang=ru"),  # (counted first)
        ):
            assert refused.status_code == 429
            error = refused.json()["error"]
            assert error["code"] == "too_many_rule_requests"
            assert error["message"] == catalog("ru")["error.too_many_rule_requests"].format(
                rate="0.0001", burst=2
            )
            assert int(refused.headers["retry-after"]) == error["retry_after"] >= 1
        # Opening tables has its own budget of two.
        server.create(FOUR)
        server.create(FOUR)
        assert server.http.post("/api/tables", json={"game": "slobberhannes"}).status_code == 429


# -- a table opened with a rule set ----------------------------------------------------------


def open_table(server: Server, **body: Any) -> tuple[int, dict[str, Any]]:
    sent = {"game": "doppelkopf", "name": "Ann", "seats": FOUR, **body}
    answer = server.http.post("/api/tables?lang=de", json=sent)
    shown: dict[str, Any] = answer.json()
    return answer.status_code, shown


def test_a_doppelkopf_table_opened_with_rules(server: Server) -> None:
    rules = parse_rules(NINES).to_dict()
    status, created = open_table(server, rules=rules)
    assert status == 201, created
    options = created["table"]["options"]
    assert options["preset"] == "house" and options["nines"] is True and options["bock"] is False
    assert options["players"] == 4
    # The same table as with the options it names.
    status, same = open_table(server, options={"nines": True, "bock": False})
    assert status == 201 and same["table"]["options"] == options
    # Five seats and a rule set that does not set players: five players.
    five = [*FOUR, {"kind": "bot"}]
    status, created = open_table(server, rules=rules, seats=five)
    assert status == 201 and created["table"]["options"]["players"] == 5


def test_a_table_keeps_the_name_of_its_rule_set(server: Server) -> None:
    rules = parse_rules(NINES).to_dict()
    status, created = open_table(server, rules={**rules, "name": "  Stammtisch <b>Freitag</b> "})
    assert status == 201, created
    table = created["table"]
    assert table["rules_name"] == "Stammtisch <b>Freitag</b>"
    # The lobby's list and the table itself say it; a table without a rule set has none.
    listed = {t["id"]: t for t in server.http.get("/api/tables").json()["tables"]}
    assert listed[table["id"]]["rules_name"] == "Stammtisch <b>Freitag</b>"
    shown = server.http.get(f"/api/tables/{table['id']}").json()
    assert shown["table"]["rules_name"] == "Stammtisch <b>Freitag</b>"
    status, plain = open_table(server, options={"nines": True})
    assert status == 201 and plain["table"]["rules_name"] is None
    status, unnamed = open_table(server, rules={**rules, "name": "   "})
    assert status == 201 and unnamed["table"]["rules_name"] is None


def test_a_table_with_rules_may_choose_its_length(server: Server) -> None:
    # The session's length is the table's, no rule: it may go beside the rule set.
    rules = parse_rules(NINES).to_dict()
    status, created = open_table(server, rules=rules, options={"games": 6})
    assert status == 201, created
    options = created["table"]["options"]
    assert (options["games"], options["nines"], options["bock"]) == (6, True, False)
    status, default = open_table(server, rules=rules)
    assert status == 201 and default["table"]["options"]["games"] == 8
    status, shown = open_table(server, rules=rules, options={"games": 0})
    assert status == 400 and shown["error"]["code"] == "bad_options"
    for beside in ({"games": 6, "bock": True}, {"preset": "house"}, [6]):
        status, shown = open_table(server, rules=rules, options=beside)
        assert status == 400 and shown["error"]["code"] == "rules_and_options", beside


def test_the_games_list_names_the_games_with_rule_sets(server: Server) -> None:
    assert server.http.get("/api/games").json()["rule_sets"] == ["doppelkopf"]


def test_a_table_is_refused_rules_that_do_not_fit(server: Server) -> None:
    rules = parse_rules(NINES).to_dict()
    status, shown = open_table(server, rules=rules, options={"nines": True})
    assert status == 400
    assert shown["error"] == {
        "code": "rules_and_options",
        "message": catalog("de")["error.rules_and_options"],
    }
    status, shown = open_table(server, rules={**rules, "options": {"armut": True}, "preset": "ddv"})
    assert status == 400
    assert (shown["error"]["code"], shown["error"]["reason"]) == ("bad_rules", "needs_sheet_order")
    assert shown["error"]["message"].startswith("Armut braucht die Reihenfolge der Vorbehalte")
    status, shown = open_table(server, rules={**rules, "options": {"players": 5}})
    assert status == 400 and shown["error"]["code"] == "bad_options"
    assert shown["error"]["message"] == catalog("de")["error.option_players_mismatch"].format(
        value=5, seats=4
    )
    status, shown = open_table(server, rules={**rules, "game": "slobberhannes"})
    assert status == 400 and shown["error"]["reason"] == "rules_game"
    status, shown = open_table(server, game="slobberhannes", rules=rules)
    assert status == 400 and shown["error"]["reason"] == "rules_game"
    assert shown["error"]["params"] == {"game": "doppelkopf", "expected": "slobberhannes"}
    status, shown = open_table(server, rules="nines = true")
    assert status == 400 and shown["error"]["reason"] == "rules_not_object"
