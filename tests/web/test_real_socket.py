"""The server over a real socket: uvicorn on a free localhost port, a websockets client."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from kartentisch.web.app import create_app
from kartentisch.web.tables import ServerSettings

from .servers import in_thread


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    app = create_app(data_dir=tmp_path, settings=ServerSettings(bot_delay=0, grace=None))
    with in_thread(app, lifespan="on") as address:
        yield address


def receive(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return message


def test_a_whole_deal_over_a_real_socket(server: str) -> None:
    body = {
        "game": "slobberhannes",
        "name": "Ann",
        "seats": [{"kind": "you"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
    }
    created = httpx.post(f"http://{server}/api/tables", json=body, timeout=10).json()
    page = httpx.get(f"http://{server}{created['url']}", timeout=10)
    assert page.status_code == 200 and "app.js" in page.text
    with connect(f"ws://{server}/ws/tables/{created['id']}") as ws:
        ws.send(json.dumps({"type": "ping", "t": "x"}))
        assert receive(ws) == {"type": "pong", "t": "x"}
        ws.send(json.dumps({"type": "hello", "token": created["token"], "lang": "ru"}))
        played = 0
        tried_stale = False
        while True:
            message = receive(ws)
            assert message["type"] == "state", message
            view = message["view"]
            if view["deal_number"] > 1 or view["over"]:
                break
            if view["to_move"] == 0:
                if not tried_stale:
                    tried_stale = True
                    ws.send(json.dumps({"type": "act", "action": "??", "version": -1}))
                    error = receive(ws)
                    assert error["code"] == "stale_version" and "версия" in error["message"]
                    continue
                ws.send(
                    json.dumps(
                        {"type": "act", "action": view["legal"][0], "version": message["version"]}
                    )
                )
                played += 1
        assert played == 8
        assert len(view["deals"]) == 1 and len(view["deals"][0]["tricks"]) == 8
    record = httpx.get(f"http://{server}/api/tables/{created['id']}/record", timeout=10).json()
    assert len(record["deals"]) == 1 and len(record["deals"][0]["actions"]) == 32
