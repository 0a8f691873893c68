"""Rated tables: results, ratings, the profile and the leaderboard over HTTP.

Anna plays her seat (its last legal card each turn); Bernd's seat is taken and
left, so his stand-in plays for him at once (grace 0). The test waits for the
states the table sends, never for time.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from kartentisch.web.app import create_app
from kartentisch.web.protocol import Limits
from kartentisch.web.tables import ServerSettings

from .helpers import my_turn, next_state, say_ready
from .test_accounts import csrf, sign_up

TWO_PEOPLE = [{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]


def _app(tmp_path: Path) -> Any:
    seeds = iter(range(1, 99))
    settings = ServerSettings(bot_delay=0, grace=0, table_seed=lambda: next(seeds))
    limits = dataclasses.replace(Limits(), signup_burst=50)
    return create_app(data_dir=tmp_path, settings=settings, limits=limits)


class Person:
    """One browser's cookies on the test's one client (a second ``TestClient`` would run
    its requests, and the tasks they start, on an event loop of its own)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookies: dict[str, str] = {}

    @contextlib.contextmanager
    def acting(self) -> Iterator[TestClient]:
        jar = self.client.cookies
        kept = dict(jar.items())
        jar.clear()
        for name, value in self.cookies.items():
            jar.set(name, value)
        try:
            yield self.client
        finally:
            self.cookies = dict(jar.items())
            jar.clear()
            for name, value in kept.items():
                jar.set(name, value)


@pytest.fixture
def clients(tmp_path: Path) -> Iterator[tuple[TestClient, Person]]:
    with TestClient(_app(tmp_path)) as anna:
        bernd = Person(anna)
        with bernd.acting() as client:
            assert sign_up(client, "Bernd").status_code == 201
        assert sign_up(anna, "Anna").status_code == 201
        yield anna, bernd


def play_to_the_end(anna: TestClient, bernd: Person, **extra: Any) -> str:
    body = {"game": "slobberhannes", "seats": TWO_PEOPLE, "options": {"target": 3}, **extra}
    created = anna.post("/api/tables", json=body, headers=csrf(anna))
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    token = created.json()["token"]
    with bernd.acting() as client:
        joined = client.post(f"/api/tables/{table_id}/join", json={}, headers=csrf(client))
    assert joined.status_code == 200, joined.text
    with anna.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        said: set[int] = set()
        while True:
            message = next_state(ws, skip_errors=True)
            if message["table"]["status"] == "finished":
                break
            say_ready(ws, message, 0, said)
            view = message["view"]
            if my_turn(message, 0) and view["legal"]:
                ws.send_json(
                    {"type": "act", "action": view["legal"][-1], "version": message["version"]}
                )
    return str(table_id)


def test_a_rated_table_changes_both_ratings(clients: tuple[TestClient, Person]) -> None:
    anna, bernd = clients
    table_id = play_to_the_end(anna, bernd, rated=True)
    shown = anna.get(f"/api/tables/{table_id}").json()["table"]
    assert shown["rated"] is True and [s["account"] for s in shown["seats"]] == [
        True,
        True,
        False,
        False,
    ]
    profiles = {n: anna.get(f"/api/players/{n}").json() for n in ("anna", "BERND")}
    for name, profile in profiles.items():
        rating = profile["ratings"]["slobberhannes"]
        assert rating["games"] == 1, name
        assert rating["display"] != 1000  # moved from a newcomer's
        assert [p["table"] for p in rating["history"]] == [table_id]
        assert profile["games"]["slobberhannes"]["played"] == 1
        assert profile["recent"][0]["table"] == table_id and profile["recent"][0]["rated"]
        stats = profile["games"]["slobberhannes"]["stats"]
        assert stats["deals"] >= 1 and stats["penalties"] >= 0
    # The loser of the match fell, a winner rose (the bots' ratings stay fixed).
    ranks = {n: p["recent"][0]["rank"] for n, p in profiles.items()}
    moved = {n: p["ratings"]["slobberhannes"]["mu"] - 25 for n, p in profiles.items()}
    if ranks["anna"] != ranks["BERND"]:
        better = min(ranks, key=lambda n: ranks[n])
        worse = max(ranks, key=lambda n: ranks[n])
        assert moved[better] > moved[worse]
    board = anna.get("/api/leaderboard/slobberhannes").json()
    assert board["total"] == 2 and board["pages"] == 1
    assert sorted(r["name"] for r in board["rows"]) == ["Anna", "Bernd"]
    assert [r["place"] for r in board["rows"]] == [1, 2]
    assert board["rows"][0]["display"] >= board["rows"][1]["display"]


def test_an_unrated_table_keeps_the_results_but_not_the_ratings(
    clients: tuple[TestClient, Person],
) -> None:
    anna, bernd = clients
    play_to_the_end(anna, bernd)
    profile = anna.get("/api/players/Anna").json()
    assert profile["games"]["slobberhannes"]["played"] == 1
    assert profile["ratings"] == {}
    assert profile["recent"][0]["rated"] is False
    assert anna.get("/api/leaderboard/slobberhannes").json()["total"] == 0


def test_a_rated_table_needs_accounts(clients: tuple[TestClient, Person]) -> None:
    anna, _ = clients
    guest = Person(anna)
    body = {"game": "slobberhannes", "name": "Gast", "seats": TWO_PEOPLE, "rated": True}
    with guest.acting() as client:
        refused = client.post("/api/tables", json=body)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "rated_needs_account"
    created = anna.post("/api/tables", json={**body, "name": None}, headers=csrf(anna)).json()
    with guest.acting() as client:
        joined = client.post(f"/api/tables/{created['id']}/join", json={"name": "Gast"})
    assert joined.status_code == 403 and joined.json()["error"]["code"] == "rated_needs_account"


def test_unknown_players_and_pools(clients: tuple[TestClient, Person]) -> None:
    anna, _ = clients
    assert anna.get("/api/players/nobody").json()["error"]["code"] == "no_such_player"
    assert anna.get("/api/leaderboard/skat").json()["error"]["code"] == "no_such_pool"
    assert anna.get("/api/leaderboard/slobberhannes?page=0").status_code == 400
    assert anna.get("/api/leaderboard/doppelkopf-ddv?page=3").json()["rows"] == []


def test_a_claimed_guest_table_joins_the_profile(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path)) as guest:
        seats = [{"kind": "you"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
        body = {"game": "slobberhannes", "name": "Gast", "seats": seats, "options": {"target": 1}}
        created = guest.post("/api/tables", json=body).json()
        with guest.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            ws.send_json({"type": "hello", "token": created["token"]})
            while True:
                message = next_state(ws, skip_errors=True)
                if message["table"]["status"] == "finished":
                    break
                view = message["view"]
                if my_turn(message, 0) and view["legal"]:
                    ws.send_json(
                        {"type": "act", "action": view["legal"][-1], "version": message["version"]}
                    )
        claim = [{"table": created["id"], "token": created["token"]}]
        signed = sign_up(guest, "Gunda", claim=claim)
        assert signed.json()["claimed"] == [{"table": created["id"], "seat": 0}]
        profile = guest.get("/api/players/Gunda").json()
        assert profile["games"]["slobberhannes"]["played"] == 1
        assert profile["recent"][0]["table"] == created["id"]
        assert profile["recent"][0]["rated"] is False and profile["ratings"] == {}
