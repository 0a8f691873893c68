"""Tables over the WebSocket, in process: play, refusals, seats, spectators, restarts."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from kartentisch.cards import piquet_deck

from .helpers import AppFactory, new_table, next_error, next_state, until_my_turn

TWO_HUMANS = [{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]


def hello(ws: Any, token: str | None = None, lang: str = "en") -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token, "lang": lang})
    return next_state(ws)


def test_a_whole_deal_against_three_bots(client: TestClient) -> None:
    created = new_table(client)
    assert created["table"]["status"] == "playing"
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        state = hello(ws, created["token"])
        assert state["table"]["you"] == 0
        played = 0
        while True:
            state = until_my_turn(ws, 0, state)
            view = state["view"]
            if view["deal_number"] > 1 or view["over"]:
                break
            assert view["legal"] and set(view["legal"]) <= set(view["hand"])
            ws.send_json({"type": "act", "action": view["legal"][-1], "version": state["version"]})
            played += 1
            state = next_state(ws)
        assert played == 8
        finished = view["deals"][0]
        assert len(finished["tricks"]) == 8
        assert sum(finished["points"]) >= 3
        assert view["totals"] == finished["points"]
        assert state["version"] >= 32


def test_stale_versions_are_refused(client: TestClient) -> None:
    created = new_table(client)
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        state = until_my_turn(ws, 0, hello(ws, created["token"]))
        view = state["view"]
        ws.send_json({"type": "act", "action": view["legal"][0], "version": state["version"] - 1})
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "stale_version"
        assert error["version"] == state["version"]
        resent = next_state(ws)
        assert resent["version"] == state["version"]
        assert resent["view"]["hand"] == view["hand"]
        ws.send_json({"type": "act", "action": view["legal"][0], "version": state["version"]})
        after = next_state(ws)
        assert after["version"] == state["version"] + 1


def test_a_wrong_token_is_refused_and_seats_nothing(client: TestClient) -> None:
    created = new_table(client)
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        ws.send_json({"type": "hello", "token": "not-the-token", "lang": "de"})
        error = ws.receive_json()
        assert error == {
            "type": "error",
            "code": "bad_token",
            "message": "Dieses Platz-Token gilt an diesem Tisch nicht.",
        }
        ws.send_json({"type": "act", "action": "QC", "version": 0})
        assert ws.receive_json()["code"] == "hello_first"
        state = hello(ws, created["token"])
        assert state["table"]["you"] == 0


def test_a_reconnection_resumes_the_seat(client: TestClient) -> None:
    created = new_table(client)
    url = f"/ws/tables/{created['id']}"
    with client.websocket_connect(url) as ws:
        state = until_my_turn(ws, 0, hello(ws, created["token"]))
        ws.send_json(
            {"type": "act", "action": state["view"]["legal"][0], "version": state["version"]}
        )
        first = until_my_turn(ws, 0, next_state(ws))
    with client.websocket_connect(url) as again:
        resumed = hello(again, created["token"])
        assert resumed["table"]["you"] == 0
        assert resumed["version"] == first["version"]
        assert resumed["view"]["hand"] == first["view"]["hand"]
        assert resumed["view"]["legal"] == first["view"]["legal"]
        # A second tab of the same seat sees the same and may act.
        with client.websocket_connect(url) as tab:
            assert hello(tab, created["token"])["view"]["hand"] == first["view"]["hand"]
            tab.send_json(
                {"type": "act", "action": first["view"]["legal"][0], "version": first["version"]}
            )
            assert next_state(tab)["version"] == first["version"] + 1


def test_spectators_see_no_hand_and_cannot_act(client: TestClient) -> None:
    created = new_table(client)
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        state = hello(ws)
        view = state["view"]
        assert state["table"]["you"] is None
        assert view["seat"] is None and view["hand"] is None and view["legal"] == []
        assert len(view["hand_sizes"]) == 4 and view["penalties"] is not None
        ws.send_json({"type": "act", "action": "QC", "version": state["version"]})
        error = next_error(ws)
        assert error["code"] == "not_seated"


def test_bad_messages_get_clear_errors(client: TestClient) -> None:
    created = new_table(client)
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        ws.send_text("{not json")
        error = ws.receive_json()
        assert error["code"] == "bad_json" and "JSON" in error["message"]
        ws.send_text("[1, 2]")
        assert ws.receive_json()["code"] == "bad_message"
        ws.send_json({"type": "shout"})
        error = ws.receive_json()
        assert error["code"] == "unknown_type" and "hello" in error["message"]
        ws.send_json({"type": "act", "action": "QC"})
        assert ws.receive_json()["code"] == "bad_message"
        ws.send_text("x" * 5000)
        assert ws.receive_json()["code"] == "too_large"
        ws.send_json({"type": "ping", "t": 12})
        assert ws.receive_json() == {"type": "pong", "t": 12}
        # The connection still works after all that.
        assert hello(ws, created["token"])["table"]["you"] == 0


def _until_a_person_moves(ws: Any, state: dict[str, Any]) -> dict[str, Any]:
    while state["view"] is None or state["view"]["to_move"] not in (0, 1):
        state = next_state(ws)
    return state


def test_refused_actions_carry_the_rule_and_a_translated_message(client: TestClient) -> None:
    created = new_table(client, seats=TWO_HUMANS)
    joined = client.post(f"/api/tables/{created['id']}/join", json={"name": "Bob"}).json()
    url = f"/ws/tables/{created['id']}"
    with client.websocket_connect(url) as ann, client.websocket_connect(url) as bob:
        # Bots play at once; both people see the table stop at one of them.
        ann_state = _until_a_person_moves(ann, hello(ann, created["token"], lang="de"))
        bob_state = _until_a_person_moves(bob, hello(bob, joined["token"], lang="ru"))
        assert ann_state["version"] == bob_state["version"]
        version = ann_state["version"]
        if ann_state["view"]["to_move"] == 0:
            mover, mover_state, idle, idle_state, idle_lang = ann, ann_state, bob, bob_state, "ru"
        else:
            mover, mover_state, idle, idle_state, idle_lang = bob, bob_state, ann, ann_state, "de"
        idle.send_json({"type": "act", "action": idle_state["view"]["hand"][0], "version": version})
        error = next_error(idle)
        assert error["code"] == "not_your_turn"
        expected = {"de": "du bist nicht an der Reihe", "ru": "сейчас не ваш ход"}[idle_lang]
        assert error["message"] == expected
        hand = mover_state["view"]["hand"]
        mover.send_json({"type": "act", "action": "ZZ", "version": version})
        assert next_error(mover)["code"] == "bad_notation"
        missing = next(c for c in map(str, piquet_deck()) if c not in hand)
        mover.send_json({"type": "act", "action": missing, "version": version})
        error = next_error(mover)
        assert error["code"] == "not_in_hand" and error["version"] == version
        table = client.get(f"/api/tables/{created['id']}").json()["table"]
        assert table["version"] == version


def test_must_follow_suit_is_refused(client: TestClient) -> None:
    # Play until the human holds a card that does not follow; then try it.
    for _ in range(20):
        created = new_table(client)
        with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            state = hello(ws, created["token"], lang="de")
            for _ in range(8):
                state = until_my_turn(ws, 0, state)
                view = state["view"]
                if view["deal_number"] > 1:
                    break
                illegal = [c for c in view["hand"] if c not in view["legal"]]
                if illegal:
                    ws.send_json({"type": "act", "action": illegal[0], "version": state["version"]})
                    error = next_error(ws)
                    assert error["code"] == "must_follow_suit"
                    assert "bedienen" in error["message"]
                    return
                ws.send_json(
                    {"type": "act", "action": view["legal"][0], "version": state["version"]}
                )
                state = next_state(ws)
    raise AssertionError("never held a card that could not follow")


def test_start_fills_open_seats_with_bots(client: TestClient) -> None:
    created = new_table(client, seats=[{"kind": "you"}, {"kind": "open"}, {"kind": "open"}])
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        state = hello(ws, created["token"])
        assert state["view"] is None and state["table"]["status"] == "waiting"
        ws.send_json({"type": "act", "action": "QC", "version": 0})
        assert next_error(ws)["code"] == "not_started"
        ws.send_json({"type": "start"})
        state = next_state(ws)
        assert state["table"]["status"] == "playing"
        assert [s["kind"] for s in state["table"]["seats"]] == ["human", "bot", "bot"]
        assert len(state["view"]["hand"]) == 10
        ws.send_json({"type": "start"})
        assert next_error(ws)["code"] == "table_started"


def test_unknown_table(client: TestClient) -> None:
    with client.websocket_connect("/ws/tables/nothing") as ws:
        error = ws.receive_json()
        assert error["code"] == "no_such_table"


def test_a_restart_resumes_every_unfinished_table(make_app: AppFactory) -> None:
    with TestClient(make_app()) as client:
        created = new_table(client)
        waiting = new_table(client, seats=[{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}])
        url = f"/ws/tables/{created['id']}"
        with client.websocket_connect(url) as ws:
            state = hello(ws, created["token"])
            for _ in range(11):  # into the second deal, bots in between
                state = until_my_turn(ws, 0, state)
                action = state["view"]["legal"][0]
                ws.send_json({"type": "act", "action": action, "version": state["version"]})
                state = next_state(ws)
            before = until_my_turn(ws, 0, state)
        assert before["view"]["deal_number"] == 2
    # A new server on the same database: the tables are back, exactly as they were.
    with TestClient(make_app()) as client:
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert listed[created["id"]]["status"] == "playing"
        assert listed[waiting["id"]]["status"] == "waiting"
        with client.websocket_connect(url) as ws:
            after = hello(ws, created["token"])
            assert after["version"] == before["version"]
            assert after["view"] == before["view"]
            ws.send_json(
                {"type": "act", "action": after["view"]["legal"][0], "version": after["version"]}
            )
            assert next_state(ws)["version"] == after["version"] + 1
        joined = client.post(f"/api/tables/{waiting['id']}/join", json={"name": "Bob"})
        assert joined.status_code == 200
        assert client.get(f"/api/tables/{waiting['id']}").json()["table"]["status"] == "playing"


def test_a_table_waits_for_its_person_instead_of_a_bot_taking_over(make_app: AppFactory) -> None:
    # Not even a grace time: before, a bot took the seat of a person who was not there.
    with TestClient(make_app(grace=0.0)) as client:
        created = new_table(client, options={"target": 100})
        table_id = created["id"]
        table = client.get(f"/api/tables/{table_id}").json()["table"]
        # Nobody connects: the table is paused (tests/web/test_presence.py has the rest).
        assert table["paused"] is True and table["version"] == 0
        assert table["seats"][0]["bot_playing"] is False
        assert table["seats"][0]["presence"] == "away"
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            state = hello(ws, created["token"])
            assert state["table"]["paused"] is False
            assert state["table"]["seats"][0]["presence"] == "present"
            state = until_my_turn(ws, 0, state)
            assert state["table"]["seats"][0]["bot_playing"] is False


def test_an_expired_turn_timer_plays_for_the_person(make_app: AppFactory) -> None:
    app = make_app()
    with TestClient(app) as client:
        created = new_table(client, turn_seconds=5)
        table = app.state.manager.get(created["id"])
        table.settings["turn_seconds"] = 0.3  # the API's minimum is 5 s; tests are quicker
        with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            state = until_my_turn(ws, 0, hello(ws, created["token"]))
            assert state["table"]["turn_deadline"] is not None
            after = next_state(ws)  # nobody acts: the timer plays a card for seat 0
            assert after["version"] == state["version"] + 1
            assert len(after["view"]["hand"]) == len(state["view"]["hand"]) - 1


def test_a_strong_bot_thinks_without_blocking_the_server(client: TestClient) -> None:
    seats = [
        {"kind": "you"},
        {"kind": "bot", "level": "strong"},
        {"kind": "bot", "level": "random"},
    ]
    created = new_table(client, seats=seats)
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        state = hello(ws, created["token"])
        # While a bot thinks, the server still answers at once.
        ws.send_json({"type": "ping", "t": 1})
        message = ws.receive_json()
        while message["type"] != "pong":
            if message["type"] == "state":
                state = message  # the bots may move meanwhile: keep the newest state
            message = ws.receive_json()
        for _ in range(2):
            state = until_my_turn(ws, 0, state)
            ws.send_json(
                {"type": "act", "action": state["view"]["legal"][0], "version": state["version"]}
            )
            state = next_state(ws)
        state = until_my_turn(ws, 0, state)
        assert state["version"] >= 6
