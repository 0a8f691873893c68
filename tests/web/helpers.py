"""Helpers of the web app's tests."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.testclient import TestClient

#: Four seats: the human at 0, three bots.
WITH_BOTS = [{"kind": "you"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot", "level": "random"}]

AppFactory = Callable[..., Starlette]


def new_table(
    client: TestClient, seats: list[dict[str, Any]] | None = None, **extra: Any
) -> dict[str, Any]:
    body = {"game": "slobberhannes", "name": "Ann", "seats": seats or WITH_BOTS, **extra}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def next_state(ws: Any, *, skip_errors: bool = False) -> dict[str, Any]:
    """The next ``state`` message (errors fail the test unless skipped)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "state":
            return message
        if not skip_errors:
            raise AssertionError(f"expected a state, got {message}")


def my_turn(message: dict[str, Any] | None, seat: int) -> bool:
    view = message["view"] if message is not None else None
    return view is not None and (view["over"] or view["to_move"] == seat)


def until_my_turn(
    ws: Any, seat: int, current: dict[str, Any] | None = None, limit: int = 400
) -> dict[str, Any]:
    """``current`` if ``seat`` is to move in it, else the next state where it is."""
    if current is not None and my_turn(current, seat):
        return current
    for _ in range(limit):
        message = next_state(ws)
        if my_turn(message, seat):
            return message
    raise AssertionError("the turn never came")


def next_error(ws: Any) -> dict[str, Any]:
    """The next ``error`` message, skipping states."""
    for _ in range(400):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "error":
            return message
    raise AssertionError("no error came")


def cli_summary(path: Path) -> dict[str, Any]:
    """What ``kartentisch replay FILE --json`` prints: the replay viewer must show the same."""
    done = subprocess.run(
        [sys.executable, "-m", "kartentisch.cli.main", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    summary: dict[str, Any] = json.loads(done.stdout)
    return summary
