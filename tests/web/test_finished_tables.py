"""A finished table leaves the server's memory once nobody watches it; it stays readable."""

from __future__ import annotations

import time

from starlette.testclient import TestClient

from .helpers import new_table

ALL_BOTS = [{"kind": "bot", "level": "random"}] * 4


def wait_finished(client: TestClient, table_id: str) -> None:
    deadline = time.monotonic() + 30
    while client.get(f"/api/tables/{table_id}").json()["table"]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the match"
        time.sleep(0.05)


def test_a_finished_table_is_forgotten_and_read_again_from_the_store(client: TestClient) -> None:
    manager = client.app.state.manager  # type: ignore[attr-defined]
    watched = new_table(client, ALL_BOTS, options={"target": 2})
    alone = new_table(client, ALL_BOTS, options={"target": 2})
    with client.websocket_connect(f"/ws/tables/{watched['id']}") as ws:
        ws.send_json({"type": "hello"})
        wait_finished(client, alone["id"])
        wait_finished(client, watched["id"])
        # Nobody watches the one table; a spectator still has the other open.
        assert alone["id"] not in manager.tables
        assert watched["id"] in manager.tables
    deadline = time.monotonic() + 10
    while watched["id"] in manager.tables:
        assert time.monotonic() < deadline, "the finished table stayed in memory"
        time.sleep(0.02)
    # Both stay readable: summary, record and a spectator's view come from the store.
    for table_id in (alone["id"], watched["id"]):
        assert client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "finished"
        record = client.get(f"/api/tables/{table_id}/record")
        assert record.status_code == 200 and record.json()["deals"]
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello"})
            state = ws.receive_json()
            assert state["type"] == "state" and state["view"]["over"]
        assert table_id not in manager.tables
