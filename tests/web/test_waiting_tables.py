"""Tables waiting for players: the cap per address and their expiry.

A table no person has come to yet (its creator's page never said hello, such
as one of "you" and bots, which starts at once) counts as waiting and expires
the same way, also while it plays; a table of bots alone does neither.

Each address key (an IPv4 address, an IPv6 /64) may have at most
``max_waiting_per_address`` tables waiting for players (``429``,
``too_many_waiting_tables``); the store counts them, so the cap holds across
a restart and across the processes of a cluster. A waiting table that is not
started within ``waiting_expiry`` is marked ``expired`` in the store: it
leaves the lobby, its sockets are told ``table_expired`` and closed, a join
or start is answered ``410``, and a restart does not bring it back.

Over real sockets (``kartentisch serve`` in a subprocess, on SQLite and on
PostgreSQL), two addresses are two source addresses of the loopback
(127.0.0.1 and 127.0.0.2); IPv6 clients are given to the app in process.
Nothing waits for time to pass: an expiry is waited for as its event (the
socket's message, the lobby no longer listing the table), a restart that
finds an overdue table is given a clock that says so.
"""

from __future__ import annotations

import json
import signal
import time
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from starlette.applications import Starlette
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from kartentisch.cli.main import main
from kartentisch.storage import TableNotWaiting, TableStore, sqlite_url
from kartentisch.web.app import create_app
from kartentisch.web.tables import ServerSettings

from .servers import ServerProcess
from .test_cluster import LEASE, redis_url  # noqa: F401  (a fixture)
from .test_storage import postgres_schema

#: A table that waits for players: the creator and two open seats.
WAITING = [{"kind": "you"}, {"kind": "open"}, {"kind": "open"}, {"kind": "bot"}]
#: A table that starts at once (no open seat): it counts as waiting until its creator comes.
AT_ONCE = [{"kind": "you"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
#: A table of bots alone: it never waits.
BOTS = [{"kind": "bot"}] * 4
#: Seconds a poll for an event may take at most (it ends as soon as the event is seen).
PATIENCE = 60.0
#: Seconds a server process may take to answer after it is started (a loaded machine).
STARTUP = 120.0


def body(seats: list[dict[str, Any]] = WAITING) -> dict[str, Any]:
    return {"game": "slobberhannes", "name": "Ann", "seats": seats}


def until(check: Callable[[], bool], what: str) -> None:
    """Poll ``check`` until it holds (a generous deadline, not a time to wait)."""
    deadline = time.monotonic() + PATIENCE
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never: {what}")
        time.sleep(0.02)


# -- the databases ---------------------------------------------------------------------


@dataclass
class Database:
    #: The URL the test reads the store with.
    url: str
    #: What the server is given as ``--db`` (None: SQLite in its data directory).
    server_url: str | None

    def rows(self) -> dict[str, tuple[str, str | None]]:
        """Every table's id with its status and creator, as stored."""
        engine = create_engine(self.url)
        try:
            with engine.connect() as db:
                found = db.execute(text("select id, status, creator from tables")).all()
        finally:
            engine.dispose()
        return {row[0]: (row[1], row[2]) for row in found}


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        yield Database(sqlite_url(tmp_path), None)
        return
    with postgres_schema() as url:
        yield Database(url, url)


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    """Starts ``kartentisch serve`` processes; kills them and prints their logs at the end."""
    started: list[ServerProcess] = []

    def start(db: str | None, *options: str, **kwargs: Any) -> ServerProcess:
        server = ServerProcess(tmp_path, db=db, options=options, **kwargs)
        started.append(server)
        server.start(STARTUP)
        return server

    yield start
    for server in started:
        if server.running:
            server.stop(signal.SIGKILL)
        print(f"--- server {server.name} ---\n{server.log()}")


def client(source: str = "127.0.0.1") -> httpx.Client:
    """An HTTP client whose connections come from ``source`` (a loopback address)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=source), timeout=PATIENCE)


def create(
    http: httpx.Client,
    server: ServerProcess,
    seats: list[dict[str, Any]] = WAITING,
    *,
    lang: str = "en",
) -> httpx.Response:
    return http.post(
        f"{server.url}/api/tables", json=body(seats), headers={"accept-language": lang}
    )


def listed(server: ServerProcess, http: httpx.Client | None = None) -> dict[str, Any]:
    response = (http or client()).get(f"{server.url}/api/tables")
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


# -- the cap per address ---------------------------------------------------------------------


def test_the_cap_per_address_over_a_real_socket_and_across_a_restart(
    database: Database, start_server: Callable[..., ServerProcess]
) -> None:
    server = start_server(database.server_url, "--max-waiting-tables", "3")
    one, other = client("127.0.0.1"), client("127.0.0.2")
    made = [create(one, server) for _ in range(3)]
    assert [r.status_code for r in made] == [201, 201, 201], [r.text for r in made]
    refused = create(one, server, lang="de")
    assert refused.status_code == 429
    error = refused.json()["error"]
    assert error["code"] == "too_many_waiting_tables"
    assert "höchstens 3" in error["message"]
    # A table of bots alone does not wait: not capped. Another address has its own cap.
    assert create(one, server, BOTS).status_code == 201
    assert create(other, server).status_code == 201
    assert listed(server, one)["waiting"] == {"yours": 3, "max": 3, "expire_seconds": 1800.0}
    assert listed(server, other)["waiting"]["yours"] == 1

    # The row keeps a keyed hash of the address, never the address.
    rows = database.rows()
    creators = {rows[r.json()["id"]][1] for r in made}
    assert len(creators) == 1
    (creator,) = creators
    assert creator is not None and len(creator) == 64 and "127.0.0.1" not in creator

    # As a crash would: the cap holds after the restart, counted from the store.
    server.kill()
    server.start(STARTUP)
    assert create(one, server).json()["error"]["code"] == "too_many_waiting_tables"
    # A table that starts, its creator there, is no longer waiting: a place is free (and
    # its creator forgotten).
    first = made[0].json()
    with connect(f"ws://{server.address}/ws/tables/{first['id']}") as ws:
        say_hello(ws, first["token"])
        started = one.post(f"{server.url}/api/tables/{first['id']}/start", json=first)
    assert started.status_code == 200, started.text
    assert database.rows()[first["id"]] == ("playing", None)
    assert create(one, server).status_code == 201
    assert create(one, server).status_code == 429


@asynccontextmanager
async def running(app: Starlette) -> AsyncIterator[Callable[[str], httpx.AsyncClient]]:
    """The app's lifespan, and HTTP clients that come from a given address."""
    clients: list[httpx.AsyncClient] = []

    def client_from(host: str) -> httpx.AsyncClient:
        transport = httpx.ASGITransport(app=app, client=(host, 40000))
        made = httpx.AsyncClient(transport=transport, base_url="http://test")
        clients.append(made)
        return made

    async with app.router.lifespan_context(app):
        try:
            yield client_from
        finally:
            for made in clients:
                await made.aclose()


@pytest.mark.anyio
async def test_the_ipv6_addresses_of_one_64_share_a_cap(tmp_path: Path) -> None:
    settings = ServerSettings(bot_delay=0, max_waiting_per_address=2)
    async with running(create_app(data_dir=tmp_path, settings=settings)) as client_from:
        statuses = []
        for host in ("2001:db8:1:2::10", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::1"):
            response = await client_from(host).post("/api/tables", json=body())
            statuses.append(response.status_code)
        assert statuses == [201, 201, 429]
        # The next /64, and an IPv4 address (also written as mapped into IPv6), have their own.
        assert (await client_from("2001:db8:1:3::1").post("/api/tables", json=body())).is_success
        for host in ("192.0.2.7", "::ffff:192.0.2.7", "192.0.2.7"):
            response = await client_from(host).post("/api/tables", json=body())
            statuses.append(response.status_code)
        assert statuses[3:] == [201, 201, 429]
        mine = (await client_from("2001:db8:1:2::abc").get("/api/tables")).json()
        assert mine["waiting"]["yours"] == 2


def test_the_cap_holds_across_two_processes(
    redis_url: str,  # noqa: F811  (the fixture)
    start_server: Callable[..., ServerProcess],
) -> None:
    with postgres_schema() as db:
        a, b = (
            start_server(db, "--max-waiting-tables", "2", redis=redis_url, lease=LEASE, name=n)
            for n in "AB"
        )
        one = client()
        assert create(one, a).status_code == 201
        assert create(one, b).status_code == 201
        assert create(one, a).status_code == 429
        assert create(one, b).json()["error"]["code"] == "too_many_waiting_tables"
        # At once, from another address, through both: never more than its cap.
        other = client("127.0.0.2")
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda s: create(other, s).status_code, [a, b] * 4))
        assert sorted(answers) == [201, 201] + [429] * 6, answers
        assert listed(b, other)["waiting"]["yours"] == 2


# -- expiry -----------------------------------------------------------------------------------


def say_hello(ws: Any, token: str | None) -> dict[str, Any]:
    """Say hello on ``ws`` and return the state it is answered with."""
    ws.send(json.dumps({"type": "hello", "token": token}))
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=PATIENCE))
        if message["type"] == "state":
            return message
        assert message["type"] != "error", message


def receive_until_closed(ws: Any) -> list[dict[str, Any]]:
    """What a socket is sent until the server closes it."""
    messages = []
    deadline = time.monotonic() + PATIENCE
    while True:
        if time.monotonic() > deadline:
            raise AssertionError(f"the socket was not closed: {messages}")
        try:
            messages.append(json.loads(ws.recv(timeout=PATIENCE)))
        except ConnectionClosed:
            return messages


def test_a_waiting_table_expires_and_a_restart_does_not_bring_it_back(
    database: Database, start_server: Callable[..., ServerProcess]
) -> None:
    server = start_server(database.server_url, "--waiting-expiry", "0.5")
    http = client()
    created = create(http, server).json()
    table_id = created["id"]
    with connect(f"ws://{server.address}/ws/tables/{table_id}") as ws:
        ws.send(json.dumps({"type": "hello", "token": created["token"], "lang": "ru"}))
        # A state first (or, on a slow machine, the table expired before the hello: no state).
        messages = receive_until_closed(ws)
    errors = [m for m in messages if m["type"] == "error"]
    assert [e["code"] for e in errors] == ["table_expired"], messages
    assert "слишком долго" in errors[0]["message"]
    assert all(m["type"] == "state" for m in messages[:-1]), messages

    def refusals() -> None:
        assert table_id not in {t["id"] for t in listed(server)["tables"]}
        join = http.post(f"{server.url}/api/tables/{table_id}/join", json={"name": "Bob"})
        assert join.status_code == 410 and join.json()["error"]["code"] == "table_expired"
        start = http.post(f"{server.url}/api/tables/{table_id}/start", json=created)
        assert start.status_code == 410 and start.json()["error"]["code"] == "table_expired"
        shown = http.get(f"{server.url}/api/tables/{table_id}").json()
        assert shown["table"]["status"] == "expired"
        # A socket that comes later is told so at once, and closed.
        with connect(f"ws://{server.address}/ws/tables/{table_id}") as late:
            late.send(json.dumps({"type": "hello", "token": created["token"]}))
            assert [m["code"] for m in receive_until_closed(late)] == ["table_expired"]
        # The row is kept, its creator forgotten.
        assert database.rows()[table_id] == ("expired", None)

    refusals()
    server.kill()
    server.start(STARTUP)
    refusals()


def test_a_restart_expires_the_overdue_tables_it_finds(tmp_path: Path) -> None:
    """The server was away longer than a table may wait: the restart marks it expired."""
    created: list[dict[str, Any]] = []
    with TestClient(create_app(data_dir=tmp_path, settings=ServerSettings(bot_delay=0))) as first:
        for _ in range(2):
            response = first.post("/api/tables", json=body())
            assert response.status_code == 201
            created.append(response.json())
        playing = first.post("/api/tables", json=body(AT_ONCE)).json()
        with first.websocket_connect(f"/ws/tables/{playing['id']}") as ws:
            ws.send_json({"type": "hello", "token": playing["token"]})
            assert ws.receive_json()["type"] == "state"  # its person came: it plays on
    # (The server's store commits what it was given before it closes.)
    assert Database(sqlite_url(tmp_path), None).rows()[playing["id"]] == ("playing", None)
    # An hour later (the expiry is half an hour): the clock the restarted server reads.
    later = ServerSettings(bot_delay=0, wall_clock=lambda: time.time() + 3600)
    with TestClient(create_app(data_dir=tmp_path, settings=later)) as second:
        ids = {t["id"] for t in second.get("/api/tables").json()["tables"]}
        assert not ids & {c["id"] for c in created}
        assert len(ids) == 1  # the playing table is restored
        for table in created:
            join = second.post(f"/api/tables/{table['id']}/join", json={"name": "Bob"})
            assert join.status_code == 410
        # Its place is free: the address has no table waiting.
        assert second.get("/api/tables").json()["waiting"]["yours"] == 0
    rows = Database(sqlite_url(tmp_path), None).rows()
    assert [rows[c["id"]] for c in created] == [("expired", None)] * 2


def test_a_restart_keeps_counting_a_waiting_tables_time_from_its_creation(tmp_path: Path) -> None:
    with TestClient(create_app(data_dir=tmp_path, settings=ServerSettings(bot_delay=0))) as first:
        created = first.post("/api/tables", json=body()).json()
    # Restarted within its time, the table waits on...
    with TestClient(create_app(data_dir=tmp_path, settings=ServerSettings(bot_delay=0))) as again:
        assert created["id"] in {t["id"] for t in again.get("/api/tables").json()["tables"]}
    # ... and, restarted when a moment of its half hour is left, it expires that moment later
    # (the clock the restart reads: a second before the table's time is up, then running on).
    store = TableStore(sqlite_url(tmp_path))
    stored = store.load(created["id"])
    store.close()
    assert stored is not None
    born = stored.created.replace(tzinfo=UTC).timestamp()
    restarted = time.time()
    nearly = ServerSettings(
        bot_delay=0, wall_clock=lambda: born + 1800 - 1.0 + (time.time() - restarted)
    )
    with (
        TestClient(create_app(data_dir=tmp_path, settings=nearly)) as last,
        last.websocket_connect(f"/ws/tables/{created['id']}") as ws,
    ):
        ws.send_json({"type": "hello", "token": created["token"], "lang": "de"})
        seen = []
        with pytest.raises(WebSocketDisconnect):
            while True:
                seen.append(ws.receive_json())
        assert seen[-1]["code"] == "table_expired", seen
        assert "zu lange" in seen[-1]["message"]
        assert created["id"] not in {t["id"] for t in last.get("/api/tables").json()["tables"]}


def test_a_started_table_does_not_expire(tmp_path: Path) -> None:
    # Started (its creator there) while tables wait half an hour...
    with TestClient(create_app(data_dir=tmp_path, settings=ServerSettings(bot_delay=0))) as first:
        created = first.post("/api/tables", json=body()).json()
        with first.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            ws.send_json({"type": "hello", "token": created["token"]})
            assert ws.receive_json()["type"] == "state"
            started = first.post(f"/api/tables/{created['id']}/start", json=created)
            assert started.status_code == 200
    # ... it plays on where they wait a moment only.
    settings = ServerSettings(bot_delay=0, grace=None, waiting_expiry=0.2)
    with TestClient(create_app(data_dir=tmp_path, settings=settings)) as http:
        waiting = http.post("/api/tables", json=body()).json()
        # The other one expires (its event: the lobby no longer lists it); the started one plays.
        until(
            lambda: (
                waiting["id"] not in {t["id"] for t in http.get("/api/tables").json()["tables"]}
            ),
            "the waiting table left the lobby",
        )
        shown = http.get(f"/api/tables/{created['id']}").json()["table"]
        assert shown["status"] == "playing"


def test_an_expiry_is_told_at_the_owner_and_through_the_other_process(
    redis_url: str,  # noqa: F811  (the fixture)
    start_server: Callable[..., ServerProcess],
) -> None:
    with postgres_schema() as db:
        a, b = (
            start_server(db, "--waiting-expiry", "1", redis=redis_url, lease=LEASE, name=n)
            for n in "AB"
        )
        http = client()
        created = create(http, a).json()  # A owns it
        table_id = created["id"]
        with (
            connect(f"ws://{a.address}/ws/tables/{table_id}") as at_a,
            connect(f"ws://{b.address}/ws/tables/{table_id}") as at_b,
        ):
            at_a.send(json.dumps({"type": "hello", "token": created["token"]}))
            at_b.send(json.dumps({"type": "hello"}))
            for ws in (at_a, at_b):
                codes = [m.get("code") for m in receive_until_closed(ws) if m["type"] == "error"]
                assert codes == ["table_expired"]
        for server in (a, b):
            assert table_id not in {t["id"] for t in listed(server)["tables"]}
            join = http.post(f"{server.url}/api/tables/{table_id}/join", json={"name": "Bob"})
            assert join.status_code == 410, join.text


# -- tables nobody came to --------------------------------------------------------------------


def test_tables_nobody_came_to_are_capped_until_their_creator_comes(
    database: Database, start_server: Callable[..., ServerProcess]
) -> None:
    """A table of "you" and bots starts at once; until its creator's page says hello it
    counts as waiting (its row keeps the creator's hash)."""
    server = start_server(database.server_url, "--max-waiting-tables", "2")
    one, other = client("127.0.0.1"), client("127.0.0.2")
    made = [create(one, server, AT_ONCE).json() for _ in range(2)]
    refused = create(one, server, AT_ONCE)
    assert refused.status_code == 429, refused.text
    assert refused.json()["error"]["code"] == "too_many_waiting_tables"
    assert create(one, server).status_code == 429  # (a waiting one neither)
    assert create(other, server, AT_ONCE).status_code == 201  # another address: its own cap
    assert create(one, server, BOTS).status_code == 201  # bots alone: nobody to come
    assert listed(server, one)["waiting"]["yours"] == 2
    rows = database.rows()
    assert [rows[t["id"]][0] for t in made] == ["playing", "playing"]
    assert all(rows[t["id"]][1] is not None for t in made)

    first, second = made
    with (
        connect(f"ws://{server.address}/ws/tables/{second['id']}") as watching,
        connect(f"ws://{server.address}/ws/tables/{first['id']}") as coming,
    ):
        # A spectator is nobody coming to the table: it still counts...
        assert say_hello(watching, None)["table"]["you"] is None
        # ... its creator is: a place is free once that is stored.
        assert say_hello(coming, first["token"])["table"]["you"] == 0
        until(lambda: listed(server, one)["waiting"]["yours"] == 1, "a place was freed")
    rows = database.rows()
    assert rows[first["id"]] == ("playing", None)
    assert rows[second["id"]][1] is not None
    assert create(one, server, AT_ONCE).status_code == 201
    assert create(one, server, AT_ONCE).status_code == 429
    # As a crash would: the store still counts the table nobody came to, not the other.
    server.kill()
    server.start(STARTUP)
    assert listed(server, one)["waiting"]["yours"] == 2
    assert first["id"] in {t["id"] for t in listed(server)["tables"]}


def test_a_table_nobody_came_to_expires_and_a_restart_does_not_bring_it_back(
    database: Database, start_server: Callable[..., ServerProcess]
) -> None:
    server = start_server(database.server_url, "--waiting-expiry", "0.5")
    http = client()
    created = create(http, server, AT_ONCE).json()
    table_id = created["id"]
    # A spectator watches it (a spectator is nobody coming): told when it expires.
    with connect(f"ws://{server.address}/ws/tables/{table_id}") as ws:
        ws.send(json.dumps({"type": "hello", "lang": "ru"}))
        messages = receive_until_closed(ws)
    errors = [m for m in messages if m["type"] == "error"]
    assert [e["code"] for e in errors] == ["table_expired"], messages
    assert "слишком долго" in errors[0]["message"]
    assert all(m["type"] == "state" for m in messages[:-1]), messages

    def refusals() -> None:
        assert table_id not in {t["id"] for t in listed(server)["tables"]}
        assert listed(server, http)["waiting"]["yours"] == 0
        join = http.post(f"{server.url}/api/tables/{table_id}/join", json={"name": "Bob"})
        assert join.status_code == 410 and join.json()["error"]["code"] == "table_expired"
        shown = http.get(f"{server.url}/api/tables/{table_id}").json()
        assert shown["table"]["status"] == "expired"
        # Its creator, coming too late, is told so at once, and closed.
        with connect(f"ws://{server.address}/ws/tables/{table_id}") as late:
            late.send(json.dumps({"type": "hello", "token": created["token"]}))
            assert [m["code"] for m in receive_until_closed(late)] == ["table_expired"]
        assert database.rows()[table_id] == ("expired", None)

    refusals()
    server.kill()
    server.start(STARTUP)
    refusals()


def test_a_real_time_table_nobody_came_to_expires(tmp_path: Path) -> None:
    settings = ServerSettings(bot_delay=0, waiting_expiry=0.2)
    with TestClient(create_app(data_dir=tmp_path, settings=settings)) as http:
        request = {"game": "slapjack", "name": "Ann", "seats": AT_ONCE}
        created = http.post("/api/tables", json=request).json()
        with http.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            ws.send_json({"type": "hello"})  # (a spectator)
            seen = []
            with pytest.raises(WebSocketDisconnect):
                while True:
                    seen.append(ws.receive_json())
        assert seen[-1]["code"] == "table_expired", seen
        assert http.get(f"/api/tables/{created['id']}").json()["table"]["status"] == "expired"
        assert http.get("/api/tables").json()["tables"] == []


def test_a_table_whose_person_came_does_not_expire(tmp_path: Path) -> None:
    """Its creator came once: it plays on (paused while they are away), also after the
    server was away longer than a table may wait; the one nobody came to expires."""
    with TestClient(create_app(data_dir=tmp_path, settings=ServerSettings(bot_delay=0))) as first:
        came = first.post("/api/tables", json=body(AT_ONCE)).json()
        never = first.post("/api/tables", json=body(AT_ONCE)).json()
        with first.websocket_connect(f"/ws/tables/{came['id']}") as ws:
            ws.send_json({"type": "hello", "token": came["token"]})
            assert ws.receive_json()["type"] == "state"
        bots = first.post("/api/tables", json=body(BOTS)).json()
    rows = Database(sqlite_url(tmp_path), None).rows()
    assert rows[came["id"]] == ("playing", None)
    assert rows[never["id"]][0] == "playing" and rows[never["id"]][1] is not None
    assert rows[bots["id"]][1] is None  # bots alone: nobody to wait for
    # An hour later (the expiry is half an hour): the clock the restarted server reads.
    later = ServerSettings(bot_delay=0, wall_clock=lambda: time.time() + 3600)
    with TestClient(create_app(data_dir=tmp_path, settings=later)) as second:
        ids = {t["id"] for t in second.get("/api/tables").json()["tables"]}
        assert came["id"] in ids and never["id"] not in ids
        assert second.get(f"/api/tables/{came['id']}").json()["table"]["status"] == "playing"
        assert second.get(f"/api/tables/{never['id']}").json()["table"]["status"] == "expired"
        with second.websocket_connect(f"/ws/tables/{came['id']}") as ws:
            ws.send_json({"type": "hello", "token": came["token"]})
            assert ws.receive_json()["type"] == "state"
        assert second.get("/api/tables").json()["waiting"]["yours"] == 0
    assert Database(sqlite_url(tmp_path), None).rows()[never["id"]] == ("expired", None)


# -- the options ------------------------------------------------------------------------------


def test_serve_passes_the_waiting_options(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import uvicorn

    import kartentisch.web.app as web_app

    made: list[ServerSettings] = []

    def fake_create_app(*args: Any, settings: ServerSettings, **kwargs: Any) -> Starlette:
        made.append(settings)
        return create_app(*args, settings=settings, **kwargs)

    monkeypatch.setattr(web_app, "create_app", fake_create_app)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, **kw: None)
    serve = ["serve", "--data-dir", str(tmp_path)]
    assert main(serve) == 0
    assert (made[0].max_waiting_per_address, made[0].waiting_expiry) == (5, 1800.0)
    assert main([*serve, "--max-waiting-tables", "0", "--waiting-expiry", "0"]) == 0
    assert (made[1].max_waiting_per_address, made[1].waiting_expiry) == (None, None)
    assert main([*serve, "--max-waiting-tables", "2", "--waiting-expiry", "90"]) == 0
    assert (made[2].max_waiting_per_address, made[2].waiting_expiry) == (2, 90.0)
    assert main([*serve, "--waiting-expiry", "-1"]) == 2
    assert "must not be negative" in capsys.readouterr().err


def test_the_cap_and_expiry_can_be_switched_off(tmp_path: Path) -> None:
    settings = ServerSettings(bot_delay=0, max_waiting_per_address=None, waiting_expiry=None)
    with TestClient(create_app(data_dir=tmp_path, settings=settings)) as http:
        for _ in range(8):
            assert http.post("/api/tables", json=body()).status_code == 201
        listed_now = http.get("/api/tables").json()
        assert len(listed_now["tables"]) == 8
        assert listed_now["waiting"] == {"yours": 8, "max": None, "expire_seconds": None}


# -- the store ----------------------------------------------------------------------------------


def test_the_store_counts_and_expires_waiting_tables(database: Database) -> None:
    store = TableStore(database.url)
    store.migrate()
    try:
        secret = store.address_secret()
        again = TableStore(database.url)  # another process on the same database: the same key
        assert again.address_secret() == secret and len(secret) == 32
        again.close()
        open_seats = [{"kind": "open"}] * 4
        for name in ("a", "b", "c"):
            store.create_table(name, "slobberhannes", {}, {}, open_seats, 1, creator="k1")
        store.create_table("d", "slobberhannes", {}, {}, open_seats, 1, creator="k2")
        store.create_table("e", "slobberhannes", {}, {}, open_seats, 1, "playing", creator="k1")
        hour_ago = datetime.now(UTC) - timedelta(hours=1)
        assert store.waiting_count("k1", since=hour_ago) == 3
        assert store.waiting_count("k1", since=datetime.now(UTC) + timedelta(hours=1)) == 0
        store.update_table("a", status="playing")  # started: no longer counted
        store.expire_table("b")
        assert store.waiting_count("k1", since=hour_ago) == 1
        loaded = store.load("b")
        assert loaded is not None and loaded.status == "expired"
        assert sorted(t.id for t in store.unfinished()) == ["a", "c", "d", "e"]
        with pytest.raises(TableNotWaiting):
            store.expire_table("a")  # it plays: left as it is
        with pytest.raises(TableNotWaiting):
            store.expire_table("nope")
    finally:
        store.close()
    assert database.rows()["e"] == ("playing", None)  # created playing: no creator kept
    assert database.rows()["c"] == ("waiting", "k1")
