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


def held(message: dict[str, Any]) -> bool:
    """Whether the table holds play: paused, or waiting between deals for "next"."""
    table = message["table"]
    return bool(table.get("paused")) or table.get("between_deals") is not None


def my_turn(message: dict[str, Any] | None, seat: int) -> bool:
    view = message["view"] if message is not None else None
    if view is None or message is None:
        return False
    return bool(view["over"]) or (view["to_move"] == seat and not held(message))


def say_ready(ws: Any, message: dict[str, Any], seat: int, said: set[int]) -> None:
    """Between deals, say ``seat`` is ready for the next deal (once per wait, in ``said``)."""
    between = message["table"].get("between_deals")
    version = message["version"]
    if between is not None and seat in between["waiting"] and version not in said:
        said.add(version)
        ws.send_json({"type": "ready", "version": version})


def until_my_turn(
    ws: Any, seat: int, current: dict[str, Any] | None = None, limit: int = 400
) -> dict[str, Any]:
    """``current`` if ``seat`` is to move in it, else the next state where it is.

    Between deals the seat says it is ready for the next deal, as a person presses "next".
    """
    said: set[int] = set()
    if current is not None:
        if my_turn(current, seat):
            return current
        say_ready(ws, current, seat, said)
    for _ in range(limit):
        message = next_state(ws)
        if my_turn(message, seat):
            return message
        say_ready(ws, message, seat, said)
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
