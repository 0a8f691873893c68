"""The table's chat over a WebSocket: who reads what, limits, quick phrases, reports."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from kartentisch.storage import TableStore, sqlite_url
from kartentisch.storage.accounts import AccountStore

from .helpers import new_table

SEATS = [{"kind": "you"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (states and others in between are skipped)."""
    for _ in range(500):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} came")


def test_players_chat_reaches_everyone_and_spectators_only_spectators(client: TestClient) -> None:
    table = new_table(client, SEATS, options={"target": 100})
    with (
        client.websocket_connect(f"/ws/tables/{table['id']}") as player,
        client.websocket_connect(f"/ws/tables/{table['id']}") as spectator,
    ):
        player.send_json({"type": "hello", "token": table["token"]})
        next_of(player, "state")
        spectator.send_json({"type": "hello"})
        next_of(spectator, "state")
        script = "<script>alert(1)</script>  <b>hi</b>\u202e"
        player.send_json({"type": "chat", "text": script})
        said = next_of(player, "chat")
        assert said["text"] == "<script>alert(1)</script> <b>hi</b>"  # as text; runs cleaned
        assert said["from"] == "Ann" and said["seat"] == table["seat"]
        assert said["channel"] == "players"
        assert next_of(spectator, "chat")["id"] == said["id"]
        spectator.send_json({"type": "chat", "phrase": "well_played"})
        theirs = next_of(spectator, "chat")
        assert theirs["channel"] == "spectators" and theirs["from"] is None
        assert theirs["spectator"] == 1 and theirs["phrase"] == "well_played"
        # The player never hears the spectators: the next chat the player gets is the
        # player's own next one.
        player.send_json({"type": "chat", "phrase": "thanks"})
        assert next_of(player, "chat")["phrase"] == "thanks"
    # Who comes later reads the history it may read.
    with client.websocket_connect(f"/ws/tables/{table['id']}") as late:
        late.send_json({"type": "hello", "token": table["token"]})
        history = next_of(late, "chat_history")["messages"]
        assert [m["channel"] for m in history] == ["players", "players"]


def test_chat_limits(client: TestClient) -> None:
    table = new_table(client, SEATS, options={"target": 100})
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"type": "hello", "token": table["token"], "lang": "de"})
        next_of(ws, "state")
        ws.send_json({"type": "chat", "text": "x" * 301})
        too_long = next_of(ws, "error")
        assert too_long["code"] == "chat_too_long" and "300" in too_long["message"]
        ws.send_json({"type": "chat", "phrase": "not a phrase"})
        assert next_of(ws, "error")["code"] == "bad_message"
        for _ in range(5):
            ws.send_json({"type": "chat", "phrase": "hello"})
            next_of(ws, "chat")
        ws.send_json({"type": "chat", "phrase": "hello"})
        limited = next_of(ws, "error")
        assert limited["code"] == "chat_rate_limited"
        assert limited["message"] == "Nicht so schnell: eine Chat-Nachricht alle 2 s."


def test_spectators_chat_off_by_the_hosts_choice(client: TestClient) -> None:
    table = new_table(client, SEATS, options={"target": 100}, spectator_chat="off")
    assert client.get(f"/api/tables/{table['id']}").json()["table"]["spectator_chat"] == "off"
    with client.websocket_connect(f"/ws/tables/{table['id']}") as spectator:
        spectator.send_json({"type": "hello"})
        next_of(spectator, "state")
        spectator.send_json({"type": "chat", "text": "psst, play the queen"})
        assert next_of(spectator, "error")["code"] == "chat_off"


def test_a_report_is_kept_for_the_admin(client: TestClient, tmp_path: Path) -> None:
    table = new_table(client, SEATS, options={"target": 100})
    with (
        client.websocket_connect(f"/ws/tables/{table['id']}") as player,
        client.websocket_connect(f"/ws/tables/{table['id']}") as spectator,
    ):
        player.send_json({"type": "hello", "token": table["token"]})
        next_of(player, "state")
        spectator.send_json({"type": "hello"})
        next_of(spectator, "state")
        player.send_json({"type": "chat", "text": "rude words"})
        said = next_of(spectator, "chat")
        spectator.send_json({"type": "report", "id": said["id"]})
        assert next_of(spectator, "reported") == {"type": "reported", "id": said["id"]}
        spectator.send_json({"type": "report", "id": 999})
        assert next_of(spectator, "error")["code"] == "no_such_chat"
    store = TableStore(sqlite_url(tmp_path))
    try:
        [kept] = AccountStore(store).reports()
    finally:
        store.close()
    assert kept["table_id"] == table["id"] and kept["text"] == "rude words"
    assert kept["author"] == "Ann" and kept["author_seat"] == table["seat"]
    assert kept["reporter_seat"] is None


def test_the_lobby_chat(tmp_path: Path) -> None:
    from .test_accounts import csrf, sign_up
    from .test_ratings_web import Person, _app

    with TestClient(_app(tmp_path)) as anna:
        guest = Person(anna)
        with guest.acting() as client:
            refused = client.post("/api/lobby/chat", json={"text": "hi"})
        assert refused.status_code == 401 and refused.json()["error"]["code"] == "not_logged_in"
        assert sign_up(anna, "Anna").status_code == 201
        said = anna.post("/api/lobby/chat", json={"text": " <b>hi</b> "}, headers=csrf(anna))
        assert said.status_code == 201 and said.json()["text"] == "<b>hi</b>"
        anna.post("/api/lobby/chat", json={"phrase": "hello"}, headers=csrf(anna))
        with guest.acting() as client:  # anyone reads
            read = client.get("/api/lobby/chat").json()
            later = client.get(f"/api/lobby/chat?after={said.json()['id']}").json()
        assert [m["from"] for m in read["messages"]] == ["Anna", "Anna"]
        assert [m["phrase"] for m in later["messages"]] == ["hello"]
        too_long = anna.post("/api/lobby/chat", json={"text": "x" * 301}, headers=csrf(anna))
        assert too_long.json()["error"]["code"] == "chat_too_long"
        for _ in range(3):
            anna.post("/api/lobby/chat", json={"phrase": "bye"}, headers=csrf(anna))
        limited = anna.post("/api/lobby/chat?lang=en", json={"phrase": "bye"}, headers=csrf(anna))
        assert limited.status_code == 429
        assert limited.json()["error"]["code"] == "chat_rate_limited"
        assert "every 2 s" in limited.json()["error"]["message"]
        reported = anna.post(
            "/api/lobby/chat/report", json={"id": said.json()["id"]}, headers=csrf(anna)
        )
        assert reported.status_code == 200
    store = TableStore(sqlite_url(tmp_path))
    try:
        [kept] = AccountStore(store).reports()
    finally:
        store.close()
    assert kept["table_id"] == "lobby" and kept["text"] == "<b>hi</b>" and kept["author"] == "Anna"
