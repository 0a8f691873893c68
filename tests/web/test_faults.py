"""Faults: a server killed mid-game, a lost database connection, a client that drops.

Most tests run ``kartentisch serve`` in a subprocess (:class:`ServerProcess`)
and play over real sockets: each seat of a person is a WebSocket client of
this process that records every state it is sent. What a client was sent is
what the server acknowledged, so after a fault the stored action log must
extend it: replaying the stored actions through the engine gives, at every
version a client saw, the very view it saw. PostgreSQL runs in a throwaway
schema (skipped without a server, except under ``CI=true``); the server's
connections carry an application name of their own, so that terminating
them touches nobody else's.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import inspect
import json
import random
import secrets
import socket
import sqlite3
import struct
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError
from starlette.applications import Starlette
from starlette.testclient import TestClient
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from kartentisch.storage import Backoff, StoredTable, TableStore, sqlite_url
from kartentisch.web.adapter import is_realtime, table_game_type
from kartentisch.web.app import create_app
from kartentisch.web.gc_tuning import GC_FULL_AFTER_CLOSED, GCTuning
from kartentisch.web.lobby import parse_new_table
from kartentisch.web.realtime import MonotonicTableClock
from kartentisch.web.tables import ServerSettings, TableManager

from .helpers import AppFactory, new_table, next_state, until_my_turn
from .servers import ServerProcess, in_thread
from .test_storage import postgres_schema

#: Loopback needs no proxy (websockets ≥ 15 would look for one in the environment).
NO_PROXY: dict[str, Any] = (
    {"proxy": None} if "proxy" in inspect.signature(connect).parameters else {}
)
ANNOUNCEMENTS = frozenset({"re", "kontra", "no90", "no60", "no30", "schwarz"})
#: Refusals a real-time seat may meet in a race with the bots (the card went meanwhile).
RACE_ERRORS = frozenset({"stale_card", "too_fast", "already_slapped", "not_your_turn"})

Policy = Callable[[dict[str, Any], int, random.Random], str | None]


# -- how a person plays each game --------------------------------------------------


def turn_based(view: dict[str, Any], seat: int, rng: random.Random) -> str | None:
    """A legal action on the seat's turn (never an optional announcement)."""
    if view["over"] or view["to_move"] != seat:
        return None
    moves = [a for a in view["legal"] if a not in ANNOUNCEMENTS]
    return rng.choice(moves) if moves else None


def slapper(view: dict[str, Any], seat: int, rng: random.Random) -> str | None:
    """Slap a jack, else turn on the seat's turn."""
    legal = view["legal"]
    top = view["top"]
    if "slap" in legal and top is not None and top.startswith("J"):
        return "slap"
    return "turn" if "turn" in legal else None


def only_turn(view: dict[str, Any], seat: int, rng: random.Random) -> str | None:
    """Turn on the seat's turn until a jack is on top; then wait."""
    top = view["top"]
    if top is not None and top.startswith("J"):
        return None
    return "turn" if "turn" in view["legal"] else None


# -- a client of the real server ------------------------------------------------------


class Player:
    """One WebSocket: hello with a seat token, play the seat, record every state."""

    def __init__(
        self,
        address: str,
        table_id: str,
        token: str | None,
        seat: int | None,
        policy: Policy | None = None,
        *,
        think: float = 0.0,
        seed: int = 0,
    ) -> None:
        self.address = address
        self.table_id = table_id
        self.token = token
        self.seat = seat
        self.policy = policy
        self.think = think
        self.rng = random.Random(seed)
        #: Every view seen, by version.
        self.views: dict[int, list[dict[str, Any]]] = {}
        self.errors: list[dict[str, Any]] = []
        #: The ``notice`` messages (``storage_wait``, ``storage_back``) with the version
        #: the client had seen when each came.
        self.notices: list[tuple[str, int]] = []
        self.last: dict[str, Any] | None = None
        self.ws: ClientConnection | None = None
        self.paused = False
        self._acted: set[tuple[int, str]] = set()

    @property
    def version(self) -> int:
        """The highest version this client was sent (-1: none yet)."""
        return max(self.views, default=-1)

    async def open(self) -> dict[str, Any]:
        """Connect, say hello and return the first state."""
        self.ws = await connect(
            f"ws://{self.address}/ws/tables/{self.table_id}",
            open_timeout=10,
            ping_interval=None,
            **NO_PROXY,
        )
        await self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        while True:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
            await self._note(message)
            if message["type"] == "state":
                return message

    async def run(self) -> None:
        """Play until the connection closes or is dropped."""
        assert self.ws is not None
        with contextlib.suppress(ConnectionClosed, OSError):
            if self.last is not None:
                await self._play(self.last)  # the state ``open`` returned
            async for raw in self.ws:
                message = json.loads(raw)
                await self._note(message)
                if message["type"] == "state":
                    await self._play(message)

    async def send(self, action: str, version: int) -> None:
        await self.ws_send({"type": "act", "action": action, "version": version})

    async def ws_send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(message))

    def drop(self) -> None:
        """Drop the connection as a crashed client does: no close frame, a TCP reset."""
        assert self.ws is not None
        transport = self.ws.transport
        sock = transport.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        transport.abort()

    def cut_off(self, action: str, version: int) -> None:
        """Send the first half of an ``act`` frame, then drop: the server never gets it whole."""
        assert self.ws is not None
        payload = json.dumps({"type": "act", "action": action, "version": version}).encode()
        assert len(payload) < 126
        mask = secrets.token_bytes(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        frame = bytes([0x81, 0x80 | len(payload)]) + mask + masked  # text, final, masked
        self.ws.transport.write(frame[: len(frame) // 2])
        self.drop()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def _note(self, message: dict[str, Any]) -> None:
        if message["type"] == "error":
            self.errors.append(message)
        elif message["type"] == "notice":
            self.notices.append((message["code"], self.version))
        elif message["type"] == "ping" and self.ws is not None:
            await self.ws.send(json.dumps({"type": "pong", "nonce": message["nonce"]}))
        elif message["type"] == "state":
            self.views.setdefault(message["version"], []).append(message["view"])
            self.last = message

    async def _play(self, message: dict[str, Any]) -> None:
        view = message["view"]
        if self.policy is None or self.paused or view is None or self.seat is None:
            return
        version: int = message["version"]
        table = message["table"]
        if table["paused"]:
            return
        if table["between_deals"] is not None:
            # The next deal waits for "next", as a person presses it.
            if self.seat in table["between_deals"]["waiting"] and (version, "") not in self._acted:
                self._acted.add((version, ""))
                with contextlib.suppress(ConnectionClosed):
                    await self.ws_send({"type": "ready", "version": version})
            return
        action = self.policy(view, self.seat, self.rng)
        if action is None or (version, action) in self._acted:
            return
        self._acted.add((version, action))
        if self.think:
            await asyncio.sleep(self.think)
        with contextlib.suppress(ConnectionClosed):
            await self.send(action, version)


async def until(condition: Callable[[], bool], what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)


async def open_and_run(players: dict[str, Player]) -> list[asyncio.Task[None]]:
    """Each player says hello, then plays on in a task of its own."""
    for player in players.values():
        await player.open()
    return [asyncio.create_task(p.run()) for p in players.values()]


# -- the tables -----------------------------------------------------------------------


@dataclass
class Game:
    """A table of one person and bots, and how the person plays."""

    body: dict[str, Any]
    policy: Policy
    think: float
    #: Kill when the table has reached this version.
    progress: int


GAMES = {
    "slobberhannes": Game(
        {
            "game": "slobberhannes",
            "options": {"target": 100},  # a match that outlasts any test
            "seats": [{"kind": "you"}] + [{"kind": "bot"}] * 3,
        },
        turn_based,
        think=0.1,
        progress=40,
    ),
    "doppelkopf": Game(
        {
            "game": "doppelkopf",
            "options": {"preset": "house"},
            "seats": [{"kind": "you"}] + [{"kind": "bot"}] * 3,
        },
        turn_based,
        think=0.1,
        progress=30,
    ),
    "slapjack": Game(
        {"game": "slapjack", "seats": [{"kind": "you"}] + [{"kind": "bot"}] * 2},
        slapper,
        think=0.0,
        progress=3,
    ),
}


def open_tables(server: ServerProcess) -> dict[str, Player]:
    """One table of each game with a person at seat 0: its player, not connected yet."""
    players: dict[str, Player] = {}
    for i, (name, game) in enumerate(GAMES.items()):
        created = server.post("/api/tables", {**game.body, "name": "Ann"})
        players[name] = Player(
            server.address,
            created["id"],
            created["token"],
            0,
            game.policy,
            think=game.think,
            seed=i,
        )
    return players


# -- checking against the store -----------------------------------------------------------


def comparable(view: dict[str, Any], realtime: bool) -> dict[str, Any]:
    """A view without what moves with time alone (a real-time game's clock)."""
    if not realtime:
        return view
    return {k: v for k, v in view.items() if k != "clock"}


def load(url: str, table_id: str) -> StoredTable:
    store = TableStore(url)
    try:
        stored = store.load(table_id)
    finally:
        store.close()
    assert stored is not None, f"table {table_id} is not stored"
    return stored


def check_log_extends(stored: StoredTable, player: Player) -> None:
    """Replaying the stored actions gives, at every version ``player`` saw, the view it saw."""
    kind = table_game_type(stored.game)
    realtime = is_realtime(kind)
    assert player.version <= len(stored.actions), (
        f"{stored.game}: a client saw version {player.version}, "
        f"but only {len(stored.actions)} actions are stored"
    )
    game = kind.create(stored.options, [s["name"] for s in stored.seats], stored.seed)
    for version in range(player.version + 1):
        for seen in player.views.get(version, []):
            mine = game.view(player.seat)
            assert comparable(seen, realtime) == comparable(mine, realtime), (
                f"{stored.game}: the view of version {version} differs from the stored log"
            )
        if version < len(stored.actions):
            game.act(*stored.actions[version])


# -- the databases -----------------------------------------------------------------------


@dataclass
class Database:
    """Where a server stores its tables."""

    #: The URL the test reads the store with.
    url: str
    #: What the server is given as ``--db`` (None: SQLite in its data directory).
    server_url: str | None = None
    #: PostgreSQL: the application name of the server's connections.
    application: str | None = None

    def server(self, data_dir: Path) -> ServerProcess:
        return ServerProcess(data_dir, db=self.server_url)


@contextlib.contextmanager
def postgresql() -> Iterator[Database]:
    with postgres_schema() as url:
        application = f"kt_faults_{secrets.token_hex(4)}"
        yield Database(url, f"{url}&application_name={application}", application)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        yield Database(sqlite_url(tmp_path))
        return
    with postgresql() as db:
        yield db


@pytest.fixture
def postgres(tmp_path: Path) -> Iterator[Database]:
    with postgresql() as db:
        yield db


def terminate_connections(db: Database) -> int:
    """End every database connection of the server (as a database restart or a
    network cut would); returns how many there were."""
    engine = create_engine(db.url)
    try:
        with engine.begin() as connection:
            ended: int = connection.execute(
                text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND application_name = :name "
                    "AND pid <> pg_backend_pid()"
                ),
                {"name": db.application},
            ).scalar_one()
    finally:
        engine.dispose()
    return ended


# -- 1. kill -9 in the middle of three games ------------------------------------------------


def test_a_killed_server_resumes_every_table_at_its_last_accepted_action(
    database: Database, tmp_path: Path
) -> None:
    server = database.server(tmp_path)
    server.start()
    try:
        players = open_tables(server)

        async def play_then_kill() -> None:
            tasks = await open_and_run(players)
            await until(
                lambda: all(p.version >= GAMES[n].progress for n, p in players.items()),
                "every table to get going",
            )
            # Bots and people are acting at every table: kill now.
            server.kill()
            await asyncio.wait_for(asyncio.gather(*tasks), 10)

        asyncio.run(play_then_kill())
        seen = {name: p.version for name, p in players.items()}
        assert not any(p.last is not None and p.last["view"]["over"] for p in players.values())

        server.start()
        resumed = {
            name: Player(p.address, p.table_id, p.token, 0, p.policy, think=p.think)
            for name, p in players.items()
        }

        async def resume() -> dict[str, int]:
            firsts = {name: (await p.open())["version"] for name, p in resumed.items()}
            tasks = [asyncio.create_task(p.run()) for p in resumed.values()]
            # Every table carries on from there.
            await until(
                lambda: all(p.version > firsts[n] for n, p in resumed.items()),
                "every table to carry on",
            )
            for player in resumed.values():
                await player.close()
            await asyncio.wait_for(asyncio.gather(*tasks), 10)
            return firsts

        firsts = asyncio.run(resume())
        for name, player in players.items():
            assert firsts[name] >= seen[name], f"{name}: an acknowledged action was lost"
            stored = load(database.url, player.table_id)
            check_log_extends(stored, player)
            check_log_extends(stored, resumed[name])
            turn_based_errors = [e for e in player.errors if e["code"] not in RACE_ERRORS]
            assert turn_based_errors == [], f"{name}: {turn_based_errors}"
    finally:
        server.stop()


# -- 2. the database connection is lost ------------------------------------------------------


def test_a_lost_database_connection_is_survived(postgres: Database, tmp_path: Path) -> None:
    server = postgres.server(tmp_path)
    server.start()
    try:
        players = open_tables(server)

        async def play_through_cuts() -> int:
            tasks = await open_and_run(players)
            cuts = 0
            for _ in range(3):
                before = {n: p.version for n, p in players.items()}
                cuts += await asyncio.to_thread(terminate_connections, postgres)
                # Play goes on at every table, storing as before.
                await until(
                    lambda before=before: all(  # type: ignore[misc]
                        p.version > before[n] + (0 if n == "slapjack" else 3)
                        for n, p in players.items()
                    ),
                    "play to go on after the connections were cut",
                )
            server.kill()
            await asyncio.wait_for(asyncio.gather(*tasks), 10)
            return cuts

        cuts = asyncio.run(play_through_cuts())
        assert cuts >= 3, "the server held no database connection to cut"
        for name, player in players.items():
            errors = [e for e in player.errors if e["code"] not in RACE_ERRORS]
            assert errors == [], f"{name}: {errors}"
        log = server.log()
        assert "trying again" in log and "Traceback" not in log
        # Nothing acknowledged was lost: a restart finds all of it.
        server.start()
        for name, player in players.items():
            stored = load(postgres.url, player.table_id)
            check_log_extends(stored, player)
            assert stored.status == "playing", name
    finally:
        server.stop()


SLOBBERHANNES = {"game": "slobberhannes", "name": "Ann", **GAMES["slobberhannes"].body}


def my_turn(player: Player) -> bool:
    view = None if player.last is None else player.last["view"]
    return view is not None and not view["over"] and view["to_move"] == player.seat


@contextlib.contextmanager
def serving(
    data_dir: Path, settings: ServerSettings | None = None, db_url: str | None = None
) -> Iterator[tuple[str, Starlette]]:
    """The app in this process (its store can be tampered with), uvicorn on a real socket."""
    settings = settings or ServerSettings(bot_delay=0, grace=None)
    app = create_app(db_url, data_dir=data_dir, settings=settings)
    with in_thread(app) as address:
        yield address, app


#: Bots without delay, no stand-ins, and quick tries while storage is down.
QUICK = ServerSettings(bot_delay=0, grace=None, storage_retry=Backoff(0.01, 2.0, 0.05))


def disk_error() -> OperationalError:
    return OperationalError("INSERT", {}, sqlite3.OperationalError("disk I/O error"))


def test_a_transaction_that_fails_once_is_tried_again(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite: the action's transaction fails after its statements ran; the retry stores
    it once, and the player hears of it once, as if nothing had happened."""
    app = make_app()
    with TestClient(app) as client:
        created = new_table(client)
        store: TableStore = app.state.manager.store
        failed: list[int] = []
        real = TableStore._execute

        def fails_once(connection: Any, *args: Any) -> None:
            real(connection, *args)
            if not failed:
                failed.append(1)
                raise disk_error()  # rolled back: the statements above are undone

        with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            ws.send_json({"type": "hello", "token": created["token"]})
            state = until_my_turn(ws, 0, next_state(ws))
            version = state["version"]
            retries = store.writer.retries
            monkeypatch.setattr(store, "_execute", fails_once)
            ws.send_json({"type": "act", "action": state["view"]["legal"][0], "version": version})
            after = next_state(ws)  # no error first
            assert after["version"] == version + 1
            assert failed == [1] and store.writer.retries == retries + 1
        stored = store.load(created["id"])
        assert stored is not None and len(stored.actions) >= version + 1
        assert stored.actions[version] == (0, state["view"]["legal"][0])


def test_nothing_is_told_while_the_database_is_down(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite: the database can be neither written nor read. The action is not shown: the
    table waits (``storage_wait``), trying again, and once the database is back the action
    is stored and everyone is sent it (``storage_back``, then the state)."""
    with serving(tmp_path, QUICK) as (address, app):
        created = httpx.post(f"http://{address}/api/tables", json=SLOBBERHANNES, timeout=10).json()
        table_id = created["id"]
        manager = app.state.manager
        store: TableStore = manager.store
        tries: list[int] = []

        def down(*args: Any) -> Any:
            tries.append(1)
            raise disk_error()

        async def scenario() -> None:
            player = Player(address, table_id, created["token"], 0)
            await player.open()
            listening = asyncio.create_task(player.run())
            await until(lambda: my_turn(player), "the person's turn")
            assert player.last is not None
            version = player.version
            action = player.last["view"]["legal"][0]
            monkeypatch.setattr(store, "_execute", down)
            monkeypatch.setattr(store, "load", down)
            await player.send(action, version)
            await until(lambda: bool(player.notices), "the storage_wait notice")
            assert player.notices == [("storage_wait", version)]
            await until(lambda: len(tries) >= 3, "the table to try again")
            assert player.version == version, "an action that was not stored was shown"
            assert manager.tables[table_id].storage_waiting
            monkeypatch.undo()  # the database is back
            await until(lambda: player.version > version, "the action to be shown")
            assert [code for code, _ in player.notices] == ["storage_wait", "storage_back"]
            assert player.notices[1][1] == version  # told before the state
            assert [e["code"] for e in player.errors] == []
            await player.close()
            await listening
            stored = store.load(table_id)
            assert stored is not None and stored.actions[version] == (0, action)
            check_log_extends(stored, player)

        asyncio.run(scenario())


def test_a_real_time_table_waits_while_the_database_is_down(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite, Slapjack: the next card cannot be stored and the store cannot be read. The
    referee's driver shows nothing more and its game time stands still while the table
    tries again; once the database is back it carries on by itself."""
    with serving(tmp_path, QUICK) as (address, app):
        body = {"game": "slapjack", "name": "Ann", "seats": [{"kind": "you"}, {"kind": "bot"}]}
        created = httpx.post(f"http://{address}/api/tables", json=body, timeout=10).json()
        table_id = created["id"]
        manager = app.state.manager
        store: TableStore = manager.store
        tries: list[int] = []

        def down(*args: Any) -> Any:
            tries.append(1)
            raise disk_error()

        async def scenario() -> None:
            player = Player(address, table_id, created["token"], 0, slapper)
            await player.open()
            listening = asyncio.create_task(player.run())
            await until(lambda: player.version >= 2, "the game to get going")
            monkeypatch.setattr(store, "_execute", down)
            monkeypatch.setattr(store, "load", down)
            await until(lambda: bool(player.notices), "the storage_wait notice")
            await until(lambda: len(tries) >= 3, "the table to try again")
            seen = player.version
            assert table_id in manager.tables and manager.tables[table_id].storage_waiting
            monkeypatch.undo()  # the database is back
            await until(lambda: player.version > seen + 1, "the game to go on")
            assert [code for code, _ in player.notices] == ["storage_wait", "storage_back"]
            assert {e["code"] for e in player.errors} - RACE_ERRORS - {"storage_wait"} == set()
            await player.close()
            await listening
            stored = store.load(table_id)
            assert stored is not None
            check_log_extends(stored, player)

        asyncio.run(scenario())


# -- 3. a client drops at the worst moment --------------------------------------------------


def is_jack(view: dict[str, Any] | None) -> bool:
    return view is not None and view["top"] is not None and view["top"].startswith("J")


def test_a_slapper_who_drops_inside_the_slap_window_comes_back_to_one_decision(
    tmp_path: Path,
) -> None:
    """Two people at Slapjack. When a jack is turned, Ann slaps and her connection drops
    at once (a reset, no close), before the referee has decided; Ben slaps too. Ann
    comes back with her token: she is sent the state the stored log gives, and the
    jack was won once."""
    server = ServerProcess(tmp_path)
    server.start()
    try:
        body = {"game": "slapjack", "name": "Ann", "seats": [{"kind": "you"}, {"kind": "open"}]}
        created = server.post("/api/tables", body)
        table_id = created["id"]
        joined = server.post(f"/api/tables/{table_id}/join", {"name": "Ben", "seat": 1})
        ann = Player(server.address, table_id, created["token"], 0, only_turn)
        ben = Player(server.address, table_id, joined["token"], 1, only_turn)

        async def scenario() -> tuple[Player, int]:
            for player in (ann, ben):
                await player.open()
            tasks = [asyncio.create_task(p.run()) for p in (ann, ben)]
            await until(lambda: is_jack(ann.last and ann.last["view"]), "a jack", timeout=30)
            assert ann.last is not None
            jack = ann.last["version"]
            await ann.send("slap", jack)
            ann.drop()
            await ben.send("slap", jack)
            # Back at once, most likely while the referee still holds the slaps.
            back = Player(server.address, table_id, created["token"], 0)
            await back.open()
            tasks.append(asyncio.create_task(back.run()))
            # (Ben, never away, saw the pile won; Ann is back once she was sent a state:
            # the next card may already be turned when she is.)
            await until(
                lambda: (
                    back.last is not None
                    and any(
                        view["pile_size"] == 0
                        for version, views in ben.views.items()
                        if version > jack
                        for view in views
                    )
                ),
                "the jack to be won",
            )
            for player in (back, ben):
                await player.close()
            await asyncio.wait_for(asyncio.gather(*tasks), 10)
            return back, jack

        back, jack = asyncio.run(scenario())
        stored = load(sqlite_url(tmp_path), table_id)
        for player in (ann, ben, back):
            check_log_extends(stored, player)
        # The jack was decided once: one pile won between it and the next card.
        slaps = [a for a in stored.actions[jack:] if a[1].endswith("slap")]
        assert len(slaps) <= 2 and len({seat for seat, _ in slaps}) == len(slaps)
        kind = table_game_type("slapjack")
        game = kind.replay(stored.options, ["Ann", "Ben"], stored.seed, stored.actions)
        events = [e.type for e in game.engine.events]  # type: ignore[attr-defined]
        turned = [i for i, e in enumerate(events) if e == "card_turned"]
        after_jack = events[turned[jack - 1] + 1 :]
        next_card = after_jack.index("card_turned") if "card_turned" in after_jack else None
        assert after_jack[:next_card].count("pile_won") == 1
        assert [e["code"] for e in back.errors] == []
    finally:
        server.stop()


@pytest.mark.parametrize("whole", [True, False], ids=["sent", "cut-off"])
def test_an_announcer_who_drops_at_once_announces_once_or_not_at_all(
    whole: bool, tmp_path: Path
) -> None:
    """Doppelkopf: Ann sends her party's word (Re or Kontra) and her connection drops at
    once (a reset), or drops in the middle of the message. Back with her token she is sent
    the state the stored log gives; the word was said once or not at all, and saying it
    again is refused if it was."""
    server = ServerProcess(tmp_path)
    server.start()
    try:
        body = {"name": "Ann", **GAMES["doppelkopf"].body}
        created = server.post("/api/tables", body)
        table_id = created["id"]

        def word_on_her_turn(view: dict[str, Any]) -> str | None:
            """Re or Kontra, whichever is hers now, on her turn (her first card of a game)."""
            if view["to_move"] != 0:
                return None
            return next((w for w in ("re", "kontra") if w in view["legal"]), None)

        def until_word(view: dict[str, Any], seat: int, rng: random.Random) -> str | None:
            if word_on_her_turn(view) is not None:
                return None  # the test says it, on her turn (the bots wait meanwhile)
            if "pass" in view["legal"] and view["to_move"] == seat:
                return "pass"  # no solo of hers: a game with a party for her
            return turn_based(view, seat, rng)

        ann = Player(server.address, table_id, created["token"], 0, until_word, think=0.06)

        async def scenario() -> tuple[Player, bool, str]:
            await ann.open()
            task = asyncio.create_task(ann.run())
            # Her party's word is hers on her first turn of most games (not in a bot's solo).
            await until(
                lambda: ann.last is not None and word_on_her_turn(ann.last["view"]) is not None,
                "Ann's turn with Re or Kontra to say",
                timeout=40,
            )
            assert ann.last is not None
            word = word_on_her_turn(ann.last["view"])
            assert word is not None
            if whole:
                await ann.send(word, ann.last["version"])
                ann.drop()
            else:
                ann.cut_off(word, ann.last["version"])
            await asyncio.wait_for(task, 10)
            back = Player(server.address, table_id, created["token"], 0)
            state = await back.open()
            task = asyncio.create_task(back.run())
            mine = [a for a in state["view"]["announcements"] if a["seat"] == 0]
            assert len(mine) <= 1
            said = bool(mine)
            # A client that is not sure says it again: refused if it was said.
            await back.send(word, state["version"])
            await until(
                lambda: bool(back.errors) or back.version > state["version"],
                f"an answer to {word}",
            )
            if said:
                assert [e["code"] for e in back.errors] == ["already_announced"]
            else:
                assert back.errors == [] and back.version == state["version"] + 1
            await back.close()
            await asyncio.wait_for(task, 10)
            return back, said, word

        back, said, word = asyncio.run(scenario())
        if not whole:
            assert not said, f"half a message was taken for {word}"
        stored = load(sqlite_url(tmp_path), table_id)
        assert stored.actions.count((0, word)) == 1
        for player in (ann, back):
            check_log_extends(stored, player)
        assert back.last is not None
        view = back.last["view"]
        assert [a["word"] for a in view["announcements"] if a["seat"] == 0] == [word]
    finally:
        server.stop()


# -- 4. memory over many tables (what the soak found) ------------------------------------------


def test_a_finished_real_time_table_is_freed_at_once(tmp_path: Path) -> None:
    """A Slapjack table played by bots to its end leaves memory, with its runner, without
    waiting for the garbage collector (which a serving process runs rarely)."""

    async def play() -> None:
        store = TableStore(sqlite_url(tmp_path))
        store.migrate()
        clock = MonotonicTableClock(speed=200)
        manager = TableManager(store, ServerSettings(bot_delay=0, grace=None, clock=clock))
        request = parse_new_table(
            {"game": "slapjack", "seats": [{"kind": "bot"}] * 3, "options": {"time_limit": 1}}
        )
        table, _, _ = await manager.create(request)
        assert table.runner is not None
        table_ref, runner_ref = weakref.ref(table), weakref.ref(table.runner)
        del table
        gc.disable()
        try:
            await until(lambda: table_ref() is None, "the finished table to be freed")
            await until(lambda: runner_ref() is None, "its runner to be freed")
        finally:
            gc.enable()
        assert manager.tables == {}
        stored = store.unfinished()
        assert stored == []
        await manager.close()
        store.close()

    asyncio.run(play())


def test_closed_connections_bring_a_full_collection(tmp_path: Path) -> None:
    """A closed WebSocket leaves cyclic garbage (the library's protocol and its parser);
    while serving, every so many closed connections a full collection frees it."""
    tuning = GCTuning()
    tuning.start()
    GCTuning._closed = 0  # other servers of this test session may have counted some
    try:
        full = gc.get_stats()[2]["collections"]
        for _ in range(GC_FULL_AFTER_CLOSED - 1):
            tuning.closed()
        assert gc.get_stats()[2]["collections"] == full
        tuning.closed()
        assert gc.get_stats()[2]["collections"] == full + 1
    finally:
        tuning.stop()
