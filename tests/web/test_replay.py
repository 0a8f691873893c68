"""The replay viewer's API: a record sent by the page, or a table's games, replayed by the rules."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from kartentisch.games.doppelkopf import DoppelkopfMatch
from kartentisch.games.slapjack.engine import SlapjackGame
from kartentisch.records import load_record
from kartentisch.web.replay import MAX_RECORD_BYTES

from .helpers import cli_summary, new_table, next_state, until_my_turn

DATA = Path(__file__).parent.parent / "data"


def doppelkopf_record(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    match = DoppelkopfMatch({}, seats=["Ann", "Ben", "Cy", "Dee"], seed=seed)
    while len(match.deals) < 2 or not match.deal.is_over:
        if match.deal.is_over:
            match.start_deal()
        else:
            match.apply(rng.choice(match.legal_actions()))
    return match.to_record()


def test_a_slobberhannes_match_is_shown_as_the_cli_replays_it(
    client: TestClient, tmp_path: Path
) -> None:
    path = DATA / "match_first_to_ten.json"
    response = client.post("/api/replay?lang=de", json=load_record(path))
    assert response.status_code == 200, response.text
    shown = response.json()
    assert shown["game"] == "slobberhannes"
    assert shown["names"] == ["Anna", "Ben", "Carla", "Dan"]
    assert shown["titles"]["ru"]
    assert shown["summary"] == cli_summary(path)
    assert [len(d["tricks"]) for d in shown["summary"]["deals"]] == [8] * 6
    # The whole game as text, in the language asked for (German: "Spiel", "Stich").
    assert shown["text"][0].startswith("Spiel 1")
    assert any("Stich 1" in line for line in shown["text"])
    english = client.post("/api/replay?lang=en", json=load_record(path)).json()
    assert english["text"][0].startswith("Deal 1")


def test_a_doppelkopf_session_shows_game_types_parties_and_augen(client: TestClient) -> None:
    record = doppelkopf_record(5)
    shown = client.post("/api/replay", json=record).json()
    deals = shown["summary"]["deals"]
    assert len(deals) == 2
    for deal in deals:
        if deal["outcome"] == "played":
            assert deal["augen"]["re"] + deal["augen"]["kontra"] == 240
            assert sorted(deal["parties"]["re"] + deal["parties"]["kontra"]) == [0, 1, 2, 3]
            assert len(deal["tricks"]) == 10
    assert sum(shown["summary"]["points"]) == sum(sum(d["points"]) for d in deals)


def test_a_slapjack_game_is_shown_by_its_text(client: TestClient) -> None:
    game = SlapjackGame.from_seed(3, options={"players": 3})
    for _ in range(30):
        game.apply(game.legal_actions()[0])
    shown = client.post("/api/replay?lang=ru", json=game.to_record()).json()
    assert shown["game"] == "slapjack"
    assert "deals" not in shown["summary"]
    assert len(shown["summary"]["points"]) == 3
    assert sum(shown["summary"]["points"]) + shown["summary"]["pile"] == 52
    assert len(shown["text"]) > 30


def test_bad_records_are_refused_with_the_reason(client: TestClient) -> None:
    def refused(body: bytes | Any, status: int = 400) -> dict[str, Any]:
        if isinstance(body, bytes):
            response = client.post("/api/replay?lang=en", content=body)
        else:
            response = client.post("/api/replay?lang=en", json=body)
        assert response.status_code == status, response.text
        error: dict[str, Any] = response.json()["error"]
        return error

    assert refused(b"{not json")["code"] == "bad_json"
    error = refused([1, 2])
    assert error["code"] == "bad_record"
    assert error["message"] == "The record cannot be shown: a record must be a JSON object"
    assert (
        "unknown game 'chess'"
        in refused({"format": "kartentisch-record/1", "game": "chess"})["message"]
    )
    assert "format" in refused({"game": "slobberhannes"})["message"]

    # A card the rules refuse: the message names where and why, as the CLI does.
    record = load_record(DATA / "match_first_to_ten.json")
    tampered = copy.deepcopy(record)
    actions = tampered["deals"][0]["actions"]
    actions[1], actions[2] = actions[2], actions[1]
    message = refused(tampered)["message"]
    assert message.startswith("The record cannot be shown: ")
    assert "deal 1" in message and "action 2" in message, message

    # A record larger than the viewer takes is refused before it is read.
    huge = b'{"pad": "' + b"x" * MAX_RECORD_BYTES + b'"}'
    assert refused(huge, 413)["code"] == "too_large"


def test_a_tables_games_so_far_and_all_of_them_once_finished(client: TestClient) -> None:
    created = new_table(client)
    table_id = created["id"]
    assert client.get("/api/tables/nope/replay").status_code == 404
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": created["token"]})
        state = next_state(ws)
        # Play the person's cards until the first deal is over.
        while len(state["view"]["deals"]) < 1:
            state = until_my_turn(ws, 0, state)
            if state["view"]["deals"]:
                break
            ws.send_json(
                {"type": "act", "action": state["view"]["legal"][0], "version": state["version"]}
            )
            state = next_state(ws)
    shown = client.get(f"/api/tables/{table_id}/replay?lang=en").json()
    assert shown["table"] == table_id and shown["finished"] is False
    assert shown["names"][0] == "Ann"
    assert len(shown["summary"]["deals"]) >= 1
    assert len(shown["summary"]["deals"][0]["tricks"]) == 8
    assert shown["summary"]["deals"][0]["points"] == state["view"]["deals"][0]["points"]


def test_a_table_not_started_has_nothing_to_replay(client: TestClient) -> None:
    created = new_table(client, seats=[{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}])
    response = client.get(f"/api/tables/{created['id']}/replay")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "not_started"
