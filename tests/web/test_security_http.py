"""Hostile lobby requests: bad form input is refused clearly, never with a server error.

Hypothesis sends random JSON bodies to ``POST /api/tables`` and the join and
start endpoints; explicit cases cover unknown games, absurd seat counts, bad
options, over-long names, forged seats, other tables' tokens, malformed and
oversized bodies. Every refusal is a 4xx with a known code and a translated
message that names the problem. The lobby's rate limit per address and the
security headers are checked too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from kartentisch.web.app import SECURITY_HEADERS, create_app
from kartentisch.web.i18n import catalog
from kartentisch.web.protocol import Limits
from kartentisch.web.seats import clean_name
from kartentisch.web.tables import ServerSettings

GAMES = ["slobberhannes", "doppelkopf", "slapjack", "irish-snap"]
CODES = {
    "bad_request",
    "bad_json",
    "too_large",
    "bad_name",
    "unknown_game",
    "bad_seats",
    "bad_level",
    "bad_options",
    "bad_turn_seconds",
    "bad_private",
    "no_such_table",
    "no_such_seat",
    "seat_taken",
    "no_open_seat",
    "table_started",
    "bad_token",
    "too_many_requests",
}
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=15,
)
option_names = st.sampled_from(
    ["preset", "players", "games", "target", "revokes", "call", "time_limit", "armut", "nines"]
)
seat_entries = st.one_of(
    st.fixed_dictionaries(
        {"kind": st.sampled_from(["you", "open", "bot", "robot", ""])},
        optional={
            "level": st.sampled_from(["random", "heuristic", "hard", "genius"]) | json_values
        },
    ),
    json_values,
)
bodies = (
    st.fixed_dictionaries(
        {},
        optional={
            "game": st.sampled_from([*GAMES, "chess", "Doppelkopf", "irish snap"]) | json_values,
            "name": st.text(max_size=40) | json_values,
            "seats": st.lists(seat_entries, max_size=10) | json_values,
            "options": st.dictionaries(option_names | st.text(max_size=8), json_values, max_size=4)
            | json_values,
            "turn_seconds": st.integers(-10, 5000) | json_values,
        },
    )
    | json_values
)


def build(path: Path, limits: Limits | None = None) -> TestClient:
    # Bots wait an hour: the tables the fuzzing creates do not play meanwhile.
    settings = ServerSettings(bot_delay=3600, grace=None)
    return TestClient(create_app(None, data_dir=path, settings=settings, limits=limits))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with build(tmp_path, Limits.unlimited()) as test_client:
        yield test_client


def assert_refused(response: Any, code: str | None = None, status: int = 400) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    error: dict[str, Any] = response.json()["error"]
    assert error["code"] in CODES, error
    assert error["message"] and not error["message"].startswith("error."), error
    assert not re.search(r"\{[a-z_]+\}", error["message"]), error
    if code is not None:
        assert error["code"] == code, error
    return error


def test_fuzzed_table_requests_are_created_or_refused_clearly(client: TestClient) -> None:
    @FUZZ
    @given(bodies, st.booleans())
    def create(body: Any, raw: bool) -> None:
        text = json.dumps(body)
        response = client.post("/api/tables", content=text[:-1] if raw else text)
        if response.status_code == 201:
            created = response.json()
            assert isinstance(body, dict) and created["table"]["game"] in GAMES
            name = body.get("name")
            if created["seat"] is not None:
                seat = created["table"]["seats"][created["seat"]]
                assert isinstance(name, str) and seat["name"] == clean_name(name)
                assert 1 <= len(seat["name"]) <= 24
            return
        assert_refused(response, status=response.status_code)
        assert response.status_code in (400, 413)

    create()


def test_fuzzed_joins_and_starts_are_refused_clearly(client: TestClient) -> None:
    body = {
        "game": "doppelkopf",
        "name": "Ann",
        "seats": [{"kind": "you"}, *[{"kind": "open"}] * 3],
    }
    table = client.post("/api/tables", json=body).json()

    @settings(FUZZ, max_examples=150)
    @given(
        st.fixed_dictionaries(
            {}, optional={"name": st.text(max_size=30) | json_values, "seat": json_values}
        )
        | json_values,
        st.fixed_dictionaries({}, optional={"token": json_values}) | json_values,
    )
    def join_and_start(join: Any, start: Any) -> None:
        joined = client.post(f"/api/tables/{table['id']}/join", json=join)
        if joined.status_code != 200:
            assert_refused(joined, status=joined.status_code)
        started = client.post(f"/api/tables/{table['id']}/start", json=start)
        assert_refused(started, "bad_token", 403)

    join_and_start()


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"game": "chess", "name": "Ann"}, "unknown_game", "chess"),
        ({"game": ["slapjack"], "name": "Ann"}, "unknown_game", "slapjack"),
        ({"game": "x" * 5000, "name": "Ann"}, "unknown_game", "x" * 40),
        ({"game": "slobberhannes", "name": "Ann", "seats": []}, "bad_seats", "3"),
        (
            {"game": "slobberhannes", "name": "Ann", "seats": [{"kind": "bot"}] * 8},
            "bad_seats",
            "7",
        ),
        ({"game": "slapjack", "name": "Ann", "seats": [{"kind": "bot"}] * 1000}, "bad_seats", "8"),
        ({"game": "doppelkopf", "name": "Ann", "seats": 4}, "bad_seats", "4"),
        ({"game": "doppelkopf", "name": "Ann", "seats": "4"}, "bad_seats", "5"),
        (
            {"game": "doppelkopf", "name": "Ann", "seats": [{"kind": "you"}, 1, 2, 3]},
            "bad_seats",
            "",
        ),
        (
            {"game": "slobberhannes", "seats": [{"kind": "bot", "level": ["x"]}] * 3},
            "bad_level",
            "",
        ),
        ({"game": "slobberhannes", "name": "A", "options": {"players": 99}}, "bad_options", "99"),
        ({"game": "slobberhannes", "name": "A", "options": {"nope": 1}}, "bad_options", "nope"),
        ({"game": "slobberhannes", "name": "A", "options": {"target": 10**9}}, "bad_options", ""),
        ({"game": "slobberhannes", "name": "A", "options": [1]}, "bad_options", "object"),
        ({"game": "doppelkopf", "name": "A", "options": {"games": 10**6}}, "bad_options", "100"),
        ({"game": "doppelkopf", "name": "A", "options": {"games": True}}, "bad_options", "Games"),
        ({"game": "slapjack", "name": "A", "options": {"preset": ["x"]}}, "bad_options", "preset"),
        ({"game": "irish-snap", "name": "A", "options": {"preset": {}}}, "bad_options", "preset"),
        ({"game": "slapjack", "name": "A", "options": {"time_limit": 10**9}}, "bad_options", "60"),
        ({"game": "slobberhannes", "name": "A", "turn_seconds": 10**9}, "bad_turn_seconds", ""),
        ({"game": "slobberhannes", "name": "A", "turn_seconds": "30"}, "bad_turn_seconds", ""),
        ({"game": "slobberhannes", "name": "A", "turn_seconds": True}, "bad_turn_seconds", ""),
        ({"game": "slobberhannes", "name": "A" * 25}, "bad_name", "24"),
        ({"game": "slobberhannes", "name": "<img src=x onerror=alert(1)>"}, "bad_name", "24"),
        ({"game": "slobberhannes", "name": "\u0000\u200b\u202e"}, "bad_name", ""),
        ({"game": "slobberhannes", "name": 42}, "bad_name", ""),
        ({"game": "slobberhannes", "name": None}, "bad_name", ""),
        ("slobberhannes", "bad_request", "object"),
    ],
)
def test_bad_tables_are_refused_naming_the_problem(
    client: TestClient, body: Any, code: str, words: str
) -> None:
    before = len(client.get("/api/tables").json()["tables"])
    error = assert_refused(client.post("/api/tables", json=body), code)
    assert words in error["message"], error
    assert len(client.get("/api/tables").json()["tables"]) == before


def test_names_are_cleaned_and_kept_to_24_characters(client: TestClient) -> None:
    created = client.post(
        "/api/tables", json={"game": "slobberhannes", "name": "  Ann \t\n  Lee\u200b "}
    ).json()
    assert created["table"]["seats"][0]["name"] == "Ann Lee"
    exactly = "A" * 12 + "    " + "B" * 11  # 24 characters once the spaces are one
    created = client.post("/api/tables", json={"game": "slobberhannes", "name": exactly}).json()
    assert created["table"]["seats"][0]["name"] == "A" * 12 + " " + "B" * 11


@pytest.mark.parametrize(
    ("content", "code", "status"),
    [
        (b"{nope", "bad_json", 400),
        (b"\xff\xfe\x00", "bad_json", 400),
        (b"[" * 50_000 + b"]" * 10, "bad_json", 400),
        (b'{"game": "slobberhannes", "seats": ' + b"9" * 5000 + b"}", "bad_json", 400),
        (b'{"game": "slobberhannes", "name": "' + b"A" * 70_000 + b'"}', "too_large", 413),
    ],
)
def test_malformed_bodies_are_refused(
    client: TestClient, content: bytes, code: str, status: int
) -> None:
    assert_refused(client.post("/api/tables", content=content), code, status)
    table = client.post("/api/tables", json={"game": "slobberhannes", "name": "Ann"}).json()
    for path in ("join", "start"):
        response = client.post(f"/api/tables/{table['id']}/{path}", content=content)
        assert_refused(response, code, status)


def test_forged_seats_and_foreign_tokens_are_refused(client: TestClient) -> None:
    seats = [{"kind": "you"}, {"kind": "open"}, {"kind": "open"}]
    table = client.post(
        "/api/tables", json={"game": "slobberhannes", "name": "Ann", "seats": seats}
    )
    table_id = table.json()["id"]
    other = client.post(
        "/api/tables", json={"game": "slobberhannes", "name": "Zed", "seats": seats}
    )
    join = f"/api/tables/{table_id}/join"
    for seat in (-1, 3, 99, 2**70, "1", 1.0, True, [1], {"seat": 1}):
        assert_refused(client.post(join, json={"name": "Bob", "seat": seat}), "no_such_seat")
    assert_refused(client.post(join, json={"name": "Bob", "seat": 0}), "seat_taken", 409)
    assert_refused(client.post(join, json={"name": "B" * 30}), "bad_name")
    start = f"/api/tables/{table_id}/start"
    assert_refused(client.post(start, json={"token": other.json()["token"]}), "bad_token", 403)
    assert_refused(client.post(start, json={"token": ["x"]}), "bad_token", 403)
    assert_refused(client.post(start), "bad_token", 403)
    shown = client.get(f"/api/tables/{table_id}").json()["table"]
    assert shown["status"] == "waiting" and shown["open_seats"] == [1, 2]
    assert_refused(client.get("/api/tables/" + "x" * 5000), "no_such_table", 404)
    assert_refused(client.post("/api/tables/nope/join", json={"name": "Bob"}), "no_such_table", 404)


def test_the_lobby_limits_tables_per_address(tmp_path: Path) -> None:
    limits = Limits(lobby_burst=3, lobby_per_second=0.01)
    with build(tmp_path, limits) as client:
        body = {
            "game": "slobberhannes",
            "name": "Ann",
            "seats": [{"kind": "you"}, *[{"kind": "open"}] * 2],
        }
        made = [client.post("/api/tables?lang=de", json=body) for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 201]
        error = assert_refused(client.post("/api/tables?lang=de", json=body), status=429)
        assert error["code"] == "too_many_requests"
        expected = catalog("de")["error.too_many_requests"].format(rate="0.01", burst=3)
        assert error["message"] == expected
        joined = client.post(f"/api/tables/{made[0].json()['id']}/join", json={"name": "Bob"})
        assert joined.status_code == 429
        # Reading is not limited.
        assert client.get("/api/tables").status_code == 200
        assert len(client.get("/api/tables").json()["tables"]) == 3


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    table = client.post("/api/tables", json={"game": "slobberhannes", "name": "Ann"}).json()
    for path in (
        "/",
        f"/t/{table['id']}",
        "/rules/doppelkopf",
        "/api/games",
        "/api/tables/nothing",
        "/api/rules/doppelkopf/en?format=html",
        "/static/app.js",
        f"/api/tables/{table['id']}/record",
    ):
        response = client.get(path)
        for name, value in SECURITY_HEADERS:
            assert response.headers[name.decode()] == value.decode(), (path, name)
    page = client.get("/")
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy
