"""Analysis of a deal and hints, over HTTP and the WebSocket (worked out in a worker).

A table of bots plays to its end (watched through a spectator's socket, so the
test waits for the final state, never for time); its deals are analysed for a
seat, from the table and from its record sent as the replay viewer sends it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from kartentisch.games.doppelkopf.actions import Call
from kartentisch.games.doppelkopf.question import Answer
from kartentisch.web.adapter import table_game_type
from kartentisch.web.analysis import deal_analysis, hint
from kartentisch.web.app import create_app
from kartentisch.web.games.doppelkopf import DoppelkopfTable
from kartentisch.web.tables import ServerSettings

from .helpers import next_state, until_my_turn

BOTS = [{"kind": "bot", "level": "heuristic"}] * 4


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    seeds = random.Random(5)
    settings = ServerSettings(bot_delay=0, grace=None, table_seed=lambda: seeds.getrandbits(62))
    with TestClient(create_app(data_dir=tmp_path, settings=settings)) as test_client:
        yield test_client


def finished_table(client: TestClient, game: str, options: dict[str, Any]) -> str:
    body = {"game": game, "seats": BOTS, "options": options}
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    table_id: str = created.json()["id"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello"})
        while next_state(ws)["table"]["status"] != "finished":
            pass
    return table_id


@pytest.mark.parametrize(
    ("game", "options", "unit"),
    [
        ("slobberhannes", {"target": 2}, "penalties"),
        ("doppelkopf", {"games": 1}, "points"),
    ],
)
def test_a_finished_deal_is_analysed_for_a_seat(
    client: TestClient, game: str, options: dict[str, Any], unit: str
) -> None:
    table_id = finished_table(client, game, options)
    answer = client.get(f"/api/tables/{table_id}/analysis?deal=1&seat=1&lang=de")
    assert answer.status_code == 200, answer.text
    analysis = answer.json()
    assert analysis["game"] == game and analysis["deal"] == 1 and analysis["seat"] == 1
    assert analysis["unit"] == unit
    decisions = analysis["decisions"]
    assert decisions and all(d["seat"] == 1 and d["deal"] == 1 for d in decisions)
    # Each decision has its line in German; the curve starts before the first card and
    # has a point after each card valued with every hand known.
    english = client.get(f"/api/tables/{table_id}/analysis?deal=1&seat=1&lang=en").json()
    for german, other in zip(decisions, english["decisions"], strict=True):
        assert german["text"] and german["text"] != other["text"]
    valued = [i for i, d in enumerate(decisions) if d.get("full_information")]
    assert [p["decision"] for p in analysis["curve"]] == ([None, *valued] if valued else [])
    if game == "slobberhannes":
        # The last point is the deal's result: the chips the seat took in it.
        shown = client.get(f"/api/tables/{table_id}/replay").json()["summary"]
        assert analysis["curve"][-1]["value"] == -shown["deals"][0]["points"][1]
    if analysis["worst"] is not None:
        worst = decisions[analysis["worst"]]["full_information"]
        assert float(worst["cost"]) == max(
            float((d.get("full_information") or {}).get("cost") or 0) for d in decisions
        )
    # The same deal from the record the replay viewer would send: the same analysis.
    record = client.get(f"/api/tables/{table_id}/record").json()
    sent = client.post("/api/analysis?deal=1&seat=1&lang=de", json=record)
    assert sent.status_code == 200, sent.text
    assert sent.json() == analysis
    # Asked again, the table's analysis is the one kept.
    again = client.get(f"/api/tables/{table_id}/analysis?deal=1&seat=1&lang=de")
    assert again.content == answer.content


def test_what_cannot_be_analysed_is_refused_by_name(client: TestClient) -> None:
    table_id = finished_table(client, "slobberhannes", {"target": 1})
    for query, code in [
        ("deal=0&seat=0", "bad_request"),
        ("deal=1&seat=x", "bad_request"),
        ("seat=0", "bad_request"),
        ("deal=99&seat=0", "bad_analysis"),
        ("deal=1&seat=7", "bad_analysis"),
    ]:
        refused = client.get(f"/api/tables/{table_id}/analysis?{query}")
        assert refused.status_code == 400, (query, refused.text)
        assert refused.json()["error"]["code"] == code
    assert "99" in client.get(f"/api/tables/{table_id}/analysis?deal=99&seat=0").text
    refused = client.post("/api/analysis?deal=1&seat=0", json=[1, 2])
    assert refused.json()["error"]["code"] == "bad_record"
    slap = {"game": "slapjack", "actions": []}
    refused = client.post("/api/analysis?deal=1&seat=0&lang=ru", json=slap)
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "no_analysis"
    assert "анализа нет" in refused.json()["error"]["message"]


def test_the_job_itself_depends_on_the_record_only(client: TestClient) -> None:
    table_id = finished_table(client, "slobberhannes", {"target": 1})
    record = client.get(f"/api/tables/{table_id}/record").json()
    first = deal_analysis(record, 1, 2, "en")
    assert deal_analysis(record, 1, 2, "en") == first
    assert all(d["seat"] == 2 for d in first["decisions"])


def play_hint(client: TestClient, game: str, **extra: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Open a table with hints, wait for the person's turn, ask; the state and the answer."""
    seats = [{"kind": "you"}, *[{"kind": "bot"}] * 3]
    body = {"game": game, "name": "Ann", "seats": seats, "hints": True, **extra}
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    assert created.json()["table"]["hints"] is True
    with client.websocket_connect(f"/ws/tables/{created.json()['id']}") as ws:
        ws.send_json({"type": "hello", "token": created.json()["token"], "lang": "de"})
        state = until_my_turn(ws, 0)
        ws.send_json({"type": "hint", "version": state["version"]})
        while True:
            message: dict[str, Any] = ws.receive_json()
            if message["type"] in ("hint", "error"):
                return state, message


@pytest.mark.parametrize("game", ["slobberhannes", "doppelkopf"])
def test_a_hint_is_the_strong_bots_legal_choice_with_a_reason(
    client: TestClient, game: str
) -> None:
    state, hint = play_hint(client, game)
    assert hint["type"] == "hint", hint
    assert hint["version"] == state["version"]
    question = state["view"].get("question")
    if question is None:
        assert hint["action"] in state["view"]["legal"]
    else:
        # The declaration question: an answer for the deal, made of what it offers.
        answer = Answer.parse(hint["action"])
        assert answer is not None, hint
        assert answer.gesund <= question["gesund"]
        assert answer.scharfe is None or str(answer.scharfe) in question["scharfe"]
        assert answer.reservation is None or str(answer.reservation) in question["reservations"]
    assert hint["reason"] and not hint["reason"].startswith("hint.")


def test_no_hints_unless_the_host_allows_them(client: TestClient) -> None:
    seats = [{"kind": "you"}, *[{"kind": "bot"}] * 3]
    created = client.post(
        "/api/tables", json={"game": "slobberhannes", "name": "Ann", "seats": seats}
    )
    with client.websocket_connect(f"/ws/tables/{created.json()['id']}") as ws:
        ws.send_json({"type": "hello", "token": created.json()["token"], "lang": "ru"})
        state = until_my_turn(ws, 0)
        ws.send_json({"type": "hint", "version": state["version"]})
        while True:
            message = ws.receive_json()
            if message["type"] == "error":
                break
        assert message["code"] == "hints_off"
        assert "Подсказок" in message["message"]
    refused = client.post(
        "/api/tables", json={"game": "slobberhannes", "name": "Ann", "hints": True, "rated": True}
    )
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "hints_rated"


def test_a_declaration_hint_names_the_estimates_in_the_persons_language() -> None:
    # Seed 0: Ann and Ben pass the Scharfe round; Cid is asked the question there,
    # and the strong bot would declare its Scharfe.
    names = ["Ann", "Ben", "Cid", "Dora"]
    actions = [(0, "pass"), (1, "pass")]
    answers = {
        lang: hint("doppelkopf", {}, names, 0, actions, 2, lang) for lang in ("en", "de", "ru")
    }
    assert {a["action"] for a in answers.values()} == {"vorbehalt scharfe kings"}
    english = answers["en"]["reason"]
    assert english.startswith("scharfe hearts kings: +")
    assert "points expected over sampled deals; next best pass (healthy): +" in english
    assert (
        "Punkte im Erwartungswert über gezogene Blätter; zweitbeste Wahl gesund: +"
        in (answers["de"]["reason"])
    )
    assert "по случайным раздачам; следующий вариант пас: +" in answers["ru"]["reason"]
    # The same answer again: the seed, not the clock.
    assert hint("doppelkopf", {}, names, 0, actions, 2, "en") == answers["en"]


def test_the_hint_for_the_question_weighs_the_rounds_still_to_come() -> None:
    # Seed 2 (house rules): Cid holds both Q♣ and is asked in the solo round. Only pass
    # and the solos are legal there, but the answer decides the marriage round too:
    # "gesund" would be a silent Hochzeit, played alone.
    names = ["Ann", "Ben", "Cid", "Dora"]
    actions = [(1, "pass"), (2, "pass"), (3, "pass"), (0, "pass"), (1, "pass")]
    table = table_game_type("doppelkopf").replay({}, names, 2, actions)
    assert isinstance(table, DoppelkopfTable)
    deal = table.match.deal
    assert (deal.declaration_round, deal.to_move) == ("solo", 2)
    question = table.question(2)
    assert question is not None and question.gesund
    assert Call("hochzeit", "first_trick") in question.reservations
    assert not any(a.word == "hochzeit" for a in deal.legal_actions(2))
    got = {lang: hint("doppelkopf", {}, names, 2, actions, 2, lang) for lang in ("en", "de", "ru")}
    assert {a["action"] for a in got.values()} == {"vorbehalt hochzeit first_trick"}
    assert got["en"]["reason"].startswith("Hochzeit (marriage) (first trick won by another): +")
    assert "; next best pass (healthy): -" in got["en"]["reason"]
    assert got["de"]["reason"].startswith("Hochzeit (erster fremder Stich): +")
    assert "zweitbeste Wahl gesund: -" in got["de"]["reason"]
    assert "следующий вариант пас: -" in got["ru"]["reason"]
    # The table takes the hinted answer: Cid passes the solo round now and declares the
    # Hochzeit in the marriage round, answered for it.
    table.act(2, got["en"]["action"])
    assert table.match.deal.declarations[-1] == (2, Call("pass"))
    while table.match.deal.declaration_round is not None:
        to_move = table.match.deal.to_move
        assert to_move is not None
        forced = table.forced_action(to_move)
        table.act(to_move, forced if forced is not None else "pass")
    assert (2, Call("hochzeit", "first_trick")) in table.match.deal.declarations


def test_gesund_where_no_reservation_is_worth_weighing() -> None:
    # Seed 2: Ben is asked in the solo round; no solo of his passes the screen, and he
    # has nothing else to say: "gesund", and why in words, not an estimate.
    names = ["Ann", "Ben", "Cid", "Dora"]
    actions = [(1, "pass"), (2, "pass"), (3, "pass"), (0, "pass")]
    table = table_game_type("doppelkopf").replay({}, names, 2, actions)
    assert isinstance(table, DoppelkopfTable) and table.question(1) is not None
    got = {lang: hint("doppelkopf", {}, names, 2, actions, 1, lang) for lang in ("en", "de", "ru")}
    assert {a["action"] for a in got.values()} == {"gesund"}
    assert got["en"]["reason"].startswith("No reservation with this hand is worth weighing")
    assert got["de"]["reason"].startswith("Kein Vorbehalt dieser Hand")
    assert got["ru"]["reason"].startswith("С этой рукой ни одна оговорка")
