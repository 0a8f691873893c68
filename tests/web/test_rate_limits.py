"""Rate limits across connections, hellos that tell no one else, replays computed once.

Every test runs the app under uvicorn on a free localhost port and talks to
it over real sockets (httpx, a websockets client). The limits are set so
that nothing refills while a test runs (a rate of one per thousands of
seconds): what is counted is exact, however slow the machine. Nothing here
waits for time to pass; a test waits for the message it needs.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import kartentisch.web.api_analysis as api_analysis
from kartentisch.web.app import create_app
from kartentisch.web.i18n import catalog
from kartentisch.web.protocol import Limits
from kartentisch.web.ratelimits import Rate, RateLimiter
from kartentisch.web.replay import replay_record
from kartentisch.web.table_socket import LIMITED_CLOSE_CODE
from kartentisch.web.tables import ServerSettings, TableManager

from . import test_cluster
from .servers import free_port, in_thread
from .test_storage import postgres_schema

#: Redis at ``$KARTENTISCH_TEST_REDIS`` or the default (test_cluster.py); skipped without it.
redis_url = test_cluster.redis_url

#: A rate that does not refill while a test runs.
NEVER = 0.0001
ALL_BOTS = [{"kind": "bot", "level": "random"}] * 4
WAITING = [{"kind": "you"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}]


class Server:
    """The app under uvicorn in a thread: its address, app and helpers."""

    def __init__(self, app: Starlette, address: str) -> None:
        self.app = app
        self.address = address
        self.http = httpx.Client(base_url=f"http://{self.address}", timeout=30)
        self.sockets = ExitStack()

    @property
    def manager(self) -> TableManager:
        manager: TableManager = self.app.state.manager
        return manager

    def create(self, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        body = {"game": "slobberhannes", "name": "Ann", "seats": seats, **extra}
        response = self.http.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        return created

    def socket(self, table_id: str) -> ClientConnection:
        """A WebSocket to the table, closed at the end if not before."""
        url = f"ws://{self.address}/ws/tables/{table_id}"
        return self.sockets.enter_context(connect(url, open_timeout=30))


@contextmanager
def serving(
    tmp_path: Path,
    limits: Limits | None = None,
    *,
    db: str | None = None,
    redis: str | None = None,
    **settings: Any,
) -> Iterator[Server]:
    """The app on ``tmp_path``'s SQLite, or one process of a cluster on ``db`` and ``redis``."""
    options: dict[str, Any] = {"bot_delay": 0, "grace": None, **settings}
    app = create_app(
        db,
        data_dir=tmp_path,
        settings=ServerSettings(**options),
        limits=limits,
        redis_url=redis,
        lease=2.0 if redis else None,
    )
    with in_thread(app, timeout=30, lifespan="on") as address:
        server = Server(app, address)
        try:
            yield server
        finally:
            server.sockets.close()
            server.http.close()


def receive(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=30))
    return message


def hello(ws: ClientConnection, token: str | None = None, lang: str = "en") -> None:
    ws.send(json.dumps({"type": "hello", "token": token, "lang": lang}))


def until(ws: ClientConnection, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    for _ in range(10_000):
        message = receive(ws)
        if wanted(message):
            return message
    raise AssertionError("the message never came")


def closed_code(ws: ClientConnection) -> int | None:
    """Read until the server closes ``ws``; the close code."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            ws.recv(timeout=30)
    return closed.value.rcvd.code if closed.value.rcvd is not None else None


def finished_table(server: Server) -> str:
    """A Slobberhannes match of bots played to its end; its id (watched to the end)."""
    created = server.create(ALL_BOTS, options={"target": 1})
    with server.socket(created["id"]) as ws:
        hello(ws)
        until(ws, lambda m: m["type"] == "state" and m["table"]["status"] == "finished")
    return str(created["id"])


def a_finished_table(tmp_path: Path) -> str:
    """:func:`finished_table` made by a server without limits, on ``tmp_path``'s data."""
    with serving(tmp_path, Limits.unlimited()) as server:
        return finished_table(server)


# -- hellos -----------------------------------------------------------------------------


def test_reconnecting_a_hundred_times_buys_no_more_hellos(tmp_path: Path) -> None:
    limits = Limits(hello_burst=4, hellos_per_second=NEVER, address_hello_burst=1000)
    with serving(tmp_path, limits) as server:
        created = server.create(WAITING)
        table_id, token = created["id"], created["token"]
        watcher = server.socket(table_id)
        hello(watcher)
        assert receive(watcher)["type"] == "state"
        answers: list[str] = []
        for _ in range(100):
            with server.socket(table_id) as ws:
                hello(ws, token, lang="de")
                first = receive(ws)
                answers.append(first["type"] if first["type"] == "state" else first["code"])
                if first["type"] == "error":
                    text = catalog("de")["error.rate_limited_hello"]
                    assert first["message"] == text.format(burst=4, every="10000")
                    assert first["retry_after"] >= 1
                    # Not at the table: closed, and the page reconnects after its back-off.
                    assert closed_code(ws) == LIMITED_CLOSE_CODE
        # The seat's four hellos, however many sockets it opens: then refusals only.
        assert answers == ["state"] * 4 + ["rate_limited"] * 96
        # The watcher heard of the seat's comings and goings: at most two per hello let in.
        watcher.send(json.dumps({"type": "ping", "t": "done"}))
        heard = []
        while (message := receive(watcher))["type"] != "pong":
            heard.append(message["type"])
        assert heard and set(heard) == {"state"} and len(heard) <= 8
        watcher.close()


def test_reconnecting_spectators_are_limited_per_address(tmp_path: Path) -> None:
    limits = Limits(address_hello_burst=10, address_hellos_per_second=NEVER)
    with serving(tmp_path, limits) as server:
        created = server.create(WAITING)
        answers: list[str] = []
        for _ in range(20):
            with server.socket(created["id"]) as ws:
                hello(ws)
                first = receive(ws)
                answers.append(first["type"] if first["type"] == "state" else first["code"])
                if first["type"] == "error":
                    text = catalog("en")["error.rate_limited_hello_address"]
                    assert first["message"] == text.format(rate="0.0001", burst=10)
                    assert closed_code(ws) == LIMITED_CLOSE_CODE
        assert answers == ["state"] * 10 + ["rate_limited"] * 10
        # The address has no hello left, for a seat either.
        with server.socket(created["id"]) as ws:
            hello(ws, created["token"])
            assert receive(ws)["code"] == "rate_limited"


def test_spectators_are_not_sent_a_state_per_other_spectators_hello(tmp_path: Path) -> None:
    with serving(tmp_path, Limits.unlimited()) as server:
        created = server.create(WAITING)
        table_id = created["id"]
        seat = server.socket(table_id)
        hello(seat, created["token"])
        assert receive(seat)["type"] == "state"
        watchers = [server.socket(table_id) for _ in range(3)]
        for ws in watchers:
            hello(ws)
            assert receive(ws)["table"]["open_seats"] == [1, 2, 3]
        # Twenty more spectators come (and ten go): each is answered alone.
        newcomers = [server.socket(table_id) for _ in range(20)]
        for n, ws in enumerate(newcomers):
            hello(ws)
            assert receive(ws)["table"]["spectators"] == 4 + n
        for ws in newcomers[:10]:
            ws.close()
        # A seat's second connection changes nobody's view either.
        again = server.socket(table_id)
        hello(again, created["token"])
        assert receive(again)["table"]["you"] == 0
        # Then Bob joins: everyone is sent that, and it is the first thing they hear since.
        joined = server.http.post(f"/api/tables/{table_id}/join", json={"name": "Bob"})
        assert joined.status_code == 200
        for ws in [seat, again, *watchers, *newcomers[10:]]:
            message = receive(ws)
            assert message["type"] == "state" and message["table"]["open_seats"] == [2, 3]
        last = message["table"]["spectators"]
        assert 13 <= last <= 23  # (the ten that left may not all be detached yet)
        for ws in [seat, again, *watchers, *newcomers[10:]]:
            ws.close()


def test_the_spectator_count_follows_in_one_update(tmp_path: Path) -> None:
    with serving(tmp_path, Limits.unlimited(), spectator_update=0.05) as server:
        created = server.create(WAITING)
        seat = server.socket(created["id"])
        hello(seat, created["token"])
        assert receive(seat)["table"]["spectators"] == 0
        watchers = [server.socket(created["id"]) for _ in range(5)]
        for ws in watchers:
            hello(ws)
            receive(ws)
        # No state per hello: the count follows in an update (a few at most, however slow).
        counts = []
        while not counts or counts[-1] != 5:
            counts.append(until(seat, lambda m: m["type"] == "state")["table"]["spectators"])
        assert counts == sorted(counts) and len(counts) <= 5
        for ws in [seat, *watchers]:
            ws.close()


# -- HTTP limits: the codes ---------------------------------------------------------------


def test_lobby_replays_and_finished_tables_are_refused_with_their_codes(tmp_path: Path) -> None:
    done = a_finished_table(tmp_path)
    limits = Limits(lobby_burst=2, lobby_per_second=NEVER, replay_burst=4, replays_per_second=NEVER)
    with serving(tmp_path, limits) as server:
        live = server.create(WAITING)
        join = server.http.post(f"/api/tables/{live['id']}/join", json={"name": "Bob"})
        assert join.status_code == 200
        refused = server.http.post(
            "/api/tables?lang=ru", json={"game": "slobberhannes", "name": "Ann"}
        )
        assert refused.status_code == 429
        error = refused.json()["error"]
        assert error["code"] == "too_many_requests"
        assert error["message"] == catalog("ru")["error.too_many_requests"].format(
            rate="0.0001", burst=2
        )
        assert int(refused.headers["retry-after"]) == error["retry_after"] >= 1
        # Replays, records and reading a finished table share one budget of four.
        assert server.http.get(f"/api/tables/{done}/replay").status_code == 200
        assert server.http.get(f"/api/tables/{done}/record").status_code == 200
        assert server.http.get(f"/api/tables/{done}").status_code == 200
        with server.socket(done) as ws:  # the fourth: a spectator of the finished table
            hello(ws)
            assert receive(ws)["view"]["over"]
        record = server.http.get(f"/api/tables/{done}/record?lang=de")
        assert record.status_code == 429
        assert record.json()["error"]["code"] == "too_many_replays"
        assert record.json()["error"]["message"] == catalog("de")["error.too_many_replays"].format(
            rate="0.0001", burst=4
        )
        for answer in (
            server.http.get(f"/api/tables/{done}/replay"),
            server.http.get(f"/api/tables/{done}"),
            server.http.post("/api/replay", json={"format": "kartentisch-record/1"}),
            server.http.get("/api/tables/nosuchtable"),  # (unknown ids are no way round it)
        ):
            assert answer.status_code == 429, answer.text
            assert answer.json()["error"]["code"] == "too_many_replays"
            assert "retry-after" in answer.headers
        with server.socket(done) as ws:
            message = receive(ws)
            assert message["type"] == "error" and message["code"] == "too_many_replays"
            assert closed_code(ws) == LIMITED_CLOSE_CODE
        # A live table is read without limit, over HTTP and its socket.
        for _ in range(10):
            shown = server.http.get(f"/api/tables/{live['id']}")
            assert shown.status_code == 200 and shown.json()["table"]["status"] == "waiting"
        with server.socket(live["id"]) as ws:
            hello(ws)
            assert receive(ws)["type"] == "state"


# -- replays computed once ------------------------------------------------------------------


class Spy:
    """Counts the calls of a function it wraps (:meth:`method`: of a method)."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.calls = 0
        self.lock = threading.Lock()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with self.lock:
            self.calls += 1
        return self.function(*args, **kwargs)

    def method(self) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            return self(*args, **kwargs)

        return counted


def test_a_finished_tables_replays_and_record_are_computed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    replays = Spy(replay_record)
    monkeypatch.setattr(api_analysis, "replay_record", replays)
    rebuilt = Spy(TableManager._from_stored)
    monkeypatch.setattr(TableManager, "_from_stored", rebuilt.method())
    with serving(tmp_path, Limits.unlimited()) as server:
        table_id = finished_table(server)
        deadline = time.monotonic() + 30
        while table_id in server.manager.tables:  # the watcher is gone: it leaves memory
            assert time.monotonic() < deadline, "the finished table stayed in memory"
            time.sleep(0.02)
        path = f"/api/tables/{table_id}/replay"
        # Ten requests at once, in English: one replay.
        url = f"http://{server.address}{path}?lang=en"
        with ThreadPoolExecutor(10) as pool:
            english = list(pool.map(lambda _: httpx.get(url, timeout=30), range(10)))
        assert {r.status_code for r in english} == {200}
        assert len({r.content for r in english}) == 1
        assert replays.calls == 1
        german = [server.http.get(f"{path}?lang=de") for _ in range(3)]
        assert len({r.content for r in german}) == 1 and german[0].content != english[0].content
        assert replays.calls == 2
        records = [server.http.get(f"/api/tables/{table_id}/record") for _ in range(3)]
        assert len({r.content for r in records}) == 1
        disposition = records[0].headers["content-disposition"]
        assert disposition == f'attachment; filename="slobberhannes-{table_id}.json"'
        # The answers are those of a replay made now, from the record.
        fresh = replay_record(records[0].json(), "de")
        expected = json.loads(json.dumps({**fresh, "table": table_id, "finished": True}))
        assert german[0].json() == expected
        # The table itself was rebuilt from the store once, for all of these and more.
        for _ in range(5):
            assert server.http.get(f"/api/tables/{table_id}").json()["table"]["status"] == (
                "finished"
            )
            with server.socket(table_id) as ws:
                hello(ws)
                assert receive(ws)["view"]["over"]
        assert rebuilt.calls == 1
        assert replays.calls == 2


def test_an_unfinished_tables_replay_is_kept_per_version_and_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    replays = Spy(replay_record)
    monkeypatch.setattr(api_analysis, "replay_record", replays)
    seats = [{"kind": "you"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
    # (no time limit between deals: the table stands still while Ann is asked)
    with serving(tmp_path, Limits.unlimited(), ready_seconds=None) as server:
        created = server.create(seats, options={"target": 100})
        table_id = created["id"]
        ws = server.socket(table_id)
        hello(ws, created["token"])
        # Ann plays the first deal to its end (the replay shows whole deals).
        while True:
            state = until(ws, lambda m: m["type"] == "state")
            if state["table"]["between_deals"] is not None:
                break
            if state["view"]["to_move"] == 0 and state["view"]["legal"]:
                action = state["view"]["legal"][0]
                ws.send(json.dumps({"type": "act", "action": action, "version": state["version"]}))
        version = state["version"]
        path = f"/api/tables/{table_id}/replay"
        first = [server.http.get(path) for _ in range(3)]
        assert {r.status_code for r in first} == {200}
        assert len({r.content for r in first}) == 1 and replays.calls == 1
        assert first[0].json()["finished"] is False
        assert [server.http.get(f"{path}?lang=ru").status_code for _ in range(2)] == [200, 200]
        assert replays.calls == 2
        # Ann is ready for the next deal; at her next turn (the table waits for her) the
        # version is another one, replayed anew.
        ws.send(json.dumps({"type": "ready", "version": version}))
        while True:
            state = until(ws, lambda m: m["type"] == "state")
            view = state["view"]
            if state["table"]["between_deals"] is None and view["to_move"] == 0 and view["legal"]:
                if state["version"] > version:
                    break
                ws.send(json.dumps({"type": "act", "action": view["legal"][0], "version": version}))
        later = [server.http.get(path) for _ in range(3)]
        assert {r.status_code for r in later} == {200} and len({r.content for r in later}) == 1
        assert replays.calls == 3


# -- several processes ------------------------------------------------------------------------


def test_two_processes_count_one_seats_hellos_together(tmp_path: Path, redis_url: str) -> None:
    """Two processes of a cluster (PostgreSQL and Redis): a seat's hellos at one count at
    the other, and so do an address's replays."""
    limits = Limits(
        hello_burst=3, hellos_per_second=NEVER, replay_burst=2, replays_per_second=NEVER
    )
    with (
        postgres_schema() as db,
        serving(tmp_path / "a", limits, db=db, redis=redis_url) as a,
        serving(tmp_path / "b", limits, db=db, redis=redis_url) as b,
    ):
        created = a.create(WAITING)
        table_id, token = created["id"], created["token"]
        answers = []
        for server in (a, b, a, b, a, b):
            with server.socket(table_id) as ws:
                hello(ws, token)
                first = receive(ws)
                answers.append(first["type"] if first["type"] == "state" else first["code"])
        assert answers == ["state"] * 3 + ["rate_limited"] * 3
        # The replays of one address: one at each process, then refused at both.
        done = b.http.get(f"/api/tables/{table_id}/replay")
        assert done.status_code == 409  # (the table has not started: counted all the same)
        assert a.http.get(f"/api/tables/{table_id}/record").status_code == 409
        for server in (a, b):
            refused = server.http.get(f"/api/tables/{table_id}/replay")
            assert refused.status_code == 429
            assert refused.json()["error"]["code"] == "too_many_replays"


# -- the counters themselves ---------------------------------------------------------------


def test_the_counters_in_redis_are_shared_and_a_redis_outage_counts_here(
    redis_url: str,
) -> None:
    """Two limiters on one Redis (two processes of a cluster) share their counters; one on
    a Redis that cannot be reached counts in memory meanwhile."""

    async def scenario() -> None:
        prefix = f"kartentisch-limits-test:{time.monotonic_ns()}"
        one, two = RateLimiter(redis_url, prefix=prefix), RateLimiter(redis_url, prefix=prefix)
        rate = Rate("demo", burst=3, per_second=NEVER)
        assert one.shared and two.shared
        answers = [await limiter.hit(rate, "192.0.2.7") for limiter in (one, two, one, two)]
        assert answers[:3] == [None, None, None] and answers[3] is not None
        assert await one.blocked(rate, "192.0.2.7") is not None
        assert await one.hit(rate, "192.0.2.8") is None  # another address: its own count
        await one.close()
        await two.close()
        gone = RateLimiter(f"redis://127.0.0.1:{free_port()}/0", prefix=prefix)
        answers = [await gone.hit(rate, "192.0.2.7") for _ in range(4)]
        assert answers[:3] == [None, None, None] and answers[3] is not None
        await gone.close()

    asyncio.run(scenario())
