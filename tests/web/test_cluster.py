"""Several server processes: two ``kartentisch serve`` sharing PostgreSQL and Redis.

Process A and process B run on different ports with the same ``--db`` and
``--redis``. A table created on A is joined through B; the player at seat 0
plays on A, the one at seat 1 on B, and each sees the other's moves live.
Refusals through B are those of A; a spectator through B sees no hand. Then A,
the owner, is killed (SIGKILL): B takes the table over once A's lease has run
out, both players carry on from where they were, and nothing is lost.

Needs PostgreSQL (as tests/web/test_storage.py: a throwaway schema) and
Redis at ``redis://127.0.0.1:6379/0`` (or ``$KARTENTISCH_TEST_REDIS``); without
them the tests are skipped with a message, except under ``CI=true``.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from kartentisch.cli.main import main

from .servers import ServerProcess
from .test_storage import postgres_schema

#: Seconds a table's lease lasts in these tests (how long a dead owner's tables wait).
LEASE = 2.0
REDIS_DEFAULT = "redis://127.0.0.1:6379/0"
FIRST_DEAL = 8  # cards each of four players plays in a Slobberhannes deal


def _redis_url() -> str:
    return os.environ.get("KARTENTISCH_TEST_REDIS") or REDIS_DEFAULT


def _redis_reachable(url: str) -> bool:
    try:
        import redis
    except ImportError:
        return False
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2)
        client.ping()
        client.close()
    except Exception:
        return False
    return True


@pytest.fixture
def redis_url() -> str:
    url = _redis_url()
    if not _redis_reachable(url):
        message = (
            f"Redis is not reachable at {url} (set $KARTENTISCH_TEST_REDIS for another), "
            "or the redis package is not installed"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(message + ": CI=true requires it")
        pytest.skip(message)
    return url


@pytest.fixture
def servers(redis_url: str, tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    with postgres_schema() as db:
        started = [
            ServerProcess(tmp_path, db=db, redis=redis_url, lease=LEASE, name=name) for name in "AB"
        ]
        try:
            # Both at once: the schema is created by one of them, the other waits for it.
            for server in started:
                server.launch()
            for server in started:
                # (a generous deadline: on a loaded machine two starts and a migration take long)
                server.wait_ready(timeout=120)
            yield started[0], started[1]
        finally:
            for server in started:
                if server.running:
                    server.stop(signal.SIGKILL)
                print(f"--- server {server.name} ---\n{server.log()}")


Message = dict[str, Any]


class Player:
    """A WebSocket client at one seat (or a spectator), keeping what it was sent."""

    def __init__(self, server: ServerProcess, table_id: str, seat: int | None, token: str | None):
        self.seat = seat
        self.token = token
        self._stack = contextlib.ExitStack()
        url = f"ws://{server.address}/ws/tables/{table_id}"
        self.ws: ClientConnection = self._stack.enter_context(connect(url))
        self.state: dict[str, Any] | None = None
        #: Every version this client was sent a state of, with that state's view.
        self.views: dict[int, dict[str, Any]] = {}
        #: The versions of the states this client was sent, in the order they came.
        self.versions: list[int] = []
        #: The game log as the client keeps it (docs/web-protocol.md, "The game log").
        self.log: list[dict[str, Any]] = []
        self.log_epoch: str | None = None
        self.errors: list[dict[str, Any]] = []
        #: The versions this player acted on (legally).
        self.acted: list[int] = []
        #: Versions of states sent to this client alone: the answer to a refused action.
        self.replies: set[int] = set()
        self._refused = False
        #: The versions this player said "next" at, between deals.
        self.readied: set[int] = set()

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def hello(self) -> None:
        self.send({"type": "hello", "token": self.token, "lang": "en"})

    def receive(self, timeout: float) -> dict[str, Any] | None:
        try:
            raw = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        message: dict[str, Any] = json.loads(raw)
        if message["type"] == "state":
            self.state = message
            self.views[message["version"]] = message["view"]
            self.versions.append(message["version"])
            part = message.get("log")
            if part is not None:
                # A new log (the table was read from the store again) is sent from its start.
                assert part["epoch"] == self.log_epoch or part["from"] == 0, part
                self.log_epoch = part["epoch"]
                del self.log[part["from"] :]
                self.log.extend(part["entries"])
            if self._refused:
                self.replies.add(message["version"])
                self._refused = False
        elif message["type"] == "error":
            self.errors.append(message)
            self._refused = message.get("code") == "stale_version"
        return message

    def until(self, wanted: Callable[[Message], bool], timeout: float = 15) -> Message:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self.receive(0.2)
            if message is not None and wanted(message):
                return message
        raise AssertionError(f"seat {self.seat}: not received in {timeout} s; last {self.state}")

    def error(self) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "error")

    def rebuilt(self, timeout: float = 20) -> Message:
        """The first state of the table as another process (or this one again) rebuilt it.

        A rebuilt table's game log has a new epoch. A state of the old owner's
        table may still come first: when a process stops, its own players'
        sockets close before it hands its tables over, and the table tells the
        others that a seat left. Until this state came, the socket is not at the
        rebuilt table, and what is played there meanwhile reaches it only as the
        state it is sent on arrival.
        """
        old = self.log_epoch

        def new(m: Message) -> bool:
            return m["type"] == "state" and m.get("log") is not None and m["log"]["epoch"] != old

        return self.until(new, timeout)

    @property
    def version(self) -> int:
        assert self.state is not None
        version: int = self.state["version"]
        return version

    def moves(self) -> list[str]:
        """The actions in this client's game log, checked to be numbered 1, 2, 3 …"""
        entries = [e for e in self.log if "action" in e]
        assert [e["v"] for e in entries] == list(range(1, len(entries) + 1)), self.seat
        return [e["action"] for e in entries]

    def my_turn(self) -> bool:
        if self.state is None:
            return False
        view = self.state["view"]
        return (
            not view["over"]
            and view["to_move"] == self.seat
            and bool(view["legal"])
            and self.version not in self.acted
        )

    def awaited(self) -> bool:
        """Whether the table waits for this seat's "next" between deals (not yet said)."""
        if self.state is None or self.seat is None:
            return False
        gate = self.state["table"].get("between_deals")
        return (
            gate is not None and self.seat in gate["waiting"] and self.version not in self.readied
        )

    def act(self, action: str) -> None:
        self.acted.append(self.version)
        self.send({"type": "act", "action": action, "version": self.version})

    def close(self) -> None:
        self._stack.close()


Policy = Callable[[dict[str, Any]], str]


def play(
    players: list[Player], policy: Policy, done: Callable[[], bool], timeout: float = 30
) -> None:
    """The players act on their turns (by ``policy``) until ``done()``.

    A player acts only once every player has been sent the same version: each
    sees every move of the others before the next one.
    """
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, [p.state for p in players]
        for player in players:
            while player.receive(0.005) is not None:
                pass
        if done():
            return
        if len({p.version for p in players if p.state is not None}) != 1:
            continue
        for player in players:
            if player.my_turn():
                assert player.state is not None
                player.act(policy(player.state["view"]))
            elif player.awaited():
                # Between deals the next one waits for every person's "next".
                player.readied.add(player.version)
                player.send({"type": "ready", "version": player.version})


def settled(*players: Player) -> bool:
    """All were sent the same version, and one of them is to move: nothing is under way."""
    return len({p.version for p in players}) == 1 and any(p.my_turn() for p in players)


def first_legal(view: dict[str, Any]) -> str:
    legal: list[str] = view["legal"]
    return legal[0]


def moves_seen_live(mover: Player, watcher: Player) -> bool:
    """Whether ``watcher`` was sent the state that first showed each of ``mover``'s moves.

    That is the next version ``mover`` was sent to everyone after the move (not a
    state sent to it alone with a refusal): a Doppelkopf table answers a
    declaration round a person has no choice in at once, and the state between
    the two actions is broadcast to nobody (docs/web.md, Doppelkopf).
    """
    for version in mover.acted:
        shown = [v for v in mover.views if v > version and v not in mover.replies]
        if shown and min(shown) not in watcher.views:
            return False
    return True


def doppelkopf_choice(view: dict[str, Any]) -> str:
    """Say gesund, take an Armut, pass the suggested cards, play the first card."""
    legal: list[str] = view["legal"]
    cards = [a for a in legal if len(a) <= 3 and a[-1] in "CSHD"]
    if view["phase"] == "play" and cards:
        return cards[0]
    for word in ("pass", "accept"):
        if word in legal:
            return word
    return legal[0]


def seated_table(
    a: ServerProcess, b: ServerProcess, game: str, level: str | None = None
) -> tuple[str, str, str]:
    """A table created on A for two people and two bots (of ``level``, or the default),
    its seat 1 joined through B: its id and the two seats' tokens."""
    bot = {"kind": "bot"} if level is None else {"kind": "bot", "level": level}
    seats = [{"kind": "you"}, {"kind": "open"}, bot, bot]
    created = a.post("/api/tables", {"game": game, "name": "Ann", "seats": seats}, 201)
    table_id = created["id"]
    # B's lobby lists A's table (from PostgreSQL), and B asks A for its summary.
    listed = {t["id"]: t for t in b.get("/api/tables")["tables"]}
    assert listed[table_id]["open_seats"] == [1]
    assert b.get(f"/api/tables/{table_id}")["table"]["status"] == "waiting"
    joined = b.post(f"/api/tables/{table_id}/join", {"name": "Bo"})
    assert joined["seat"] == 1 and joined["id"] == table_id
    # Taking a seat that is gone is refused through B as it would be on A.
    refused = httpx.post(f"{b.url}/api/tables/{table_id}/join", json={"name": "Cy"}, timeout=15)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "table_started"
    assert a.get(f"/api/tables/{table_id}")["table"]["status"] == "playing"
    return table_id, created["token"], joined["token"]


def seated_players(a: ServerProcess, b: ServerProcess, game: str) -> tuple[str, Player, Player]:
    """:func:`seated_table` with Ann connected to A and Bo to B: each has had a state, and
    A, the owner, counts Bo (connected to B) as connected. The table's id and both players."""
    table_id, ann_token, bo_token = seated_table(a, b, game)
    ann = Player(a, table_id, 0, ann_token)
    bo = Player(b, table_id, 1, bo_token)
    for player in (ann, bo):
        player.hello()
        player.until(lambda m: m["type"] == "state")
    ann.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["connected"])
    return table_id, ann, bo


def test_two_processes_share_a_table_and_survive_the_owner(
    servers: tuple[ServerProcess, ServerProcess], redis_url: str
) -> None:
    import redis

    a, b = servers
    leases = redis.Redis.from_url(redis_url, decode_responses=True)

    # -- Slobberhannes: Ann on A, Bo on B -------------------------------------------------
    table_id, ann, bo = seated_players(a, b, "slobberhannes")
    # A, the owner, counts Bo (connected to B) as connected.
    both = ann.state
    assert both is not None and both["table"]["seats"][1]["connected"]
    assert both["table"]["you"] == 0 and bo.state is not None and bo.state["table"]["you"] == 1

    # Refusals through B are A's: a stale version, a forged action, a forged field.
    refusals: dict[str, list[tuple[str, Any]]] = {"A": [], "B": []}
    for name, player in (("A", ann), ("B", bo)):
        play([ann, bo], first_legal, player.my_turn)
        version = player.version
        assert player.state is not None
        action = first_legal(player.state["view"])
        player.send({"type": "act", "action": action, "version": version + 7})
        stale = player.error()
        player.send({"type": "act", "action": "9Z", "version": version})
        forged = player.error()
        player.send({"type": "act", "action": "QC", "version": version, "seat": 2})
        field = player.error()
        for error in (stale, forged, field):
            refusals[name].append((error["code"], error.get("version")))
        assert stale["code"] == "stale_version" and stale["version"] == version
        assert forged["version"] == version and player.version == version
    assert [c for c, _ in refusals["A"]] == [c for c, _ in refusals["B"]]
    assert [c for c, _ in refusals["B"]] == ["stale_version", "bad_notation", "bad_message"]

    # A forged token through B is refused by the owner; a spectator through B sees no hand.
    intruder = Player(b, table_id, None, "forged-token-forged-token")
    intruder.hello()
    assert intruder.error()["code"] == "bad_token"
    intruder.send({"type": "act", "action": "QC", "version": 1})
    assert intruder.error()["code"] == "hello_first"
    intruder.token = None  # no token: a spectator
    intruder.hello()
    watched = intruder.until(lambda m: m["type"] == "state")
    assert watched["table"]["you"] is None and watched["view"]["hand"] is None
    intruder.send({"type": "act", "action": "QC", "version": watched["version"]})
    assert intruder.error()["code"] == "not_seated"
    intruder.close()

    # The first deal, to its end: each sees every move of the other live.
    def dealt() -> bool:
        return all(
            p.state is not None and (p.state["view"]["deal_number"] > 1 or p.state["view"]["over"])
            for p in (ann, bo)
        )

    play([ann, bo], first_legal, dealt)
    assert len(ann.acted) == len(bo.acted) == FIRST_DEAL
    for me, other in ((ann, bo), (bo, ann)):
        assert all(v + 1 in me.views for v in other.acted), "a move was not seen live"
    # Hidden information: each saw only its own hand, at every version both saw.
    for version in ann.views.keys() & bo.views.keys():
        mine, theirs = ann.views[version], bo.views[version]
        assert mine["seat"] == 0 and theirs["seat"] == 1
        assert not set(mine["hand"]) & set(theirs["hand"])
    assert ann.state is not None and bo.state is not None
    assert ann.state["view"]["deals"][0] == bo.state["view"]["deals"][0]
    assert len(ann.state["view"]["deals"][0]["tricks"]) == FIRST_DEAL
    record = a.get(f"/api/tables/{table_id}/record")
    assert record == b.get(f"/api/tables/{table_id}/record")
    assert len(record["deals"]) >= 1 and len(record["deals"][0]["actions"]) == 4 * FIRST_DEAL
    ann.close()
    bo.close()
    slobberhannes = table_id

    # -- Doppelkopf: A, the owner, dies in the middle of the game ---------------------------
    table_id, ann_token, bo_token = seated_table(a, b, "doppelkopf")
    # A created both tables: it owns them.
    owner_a = leases.get(f"kartentisch:lease:{table_id}")
    assert owner_a is not None and leases.get(f"kartentisch:lease:{slobberhannes}") == owner_a
    ann = Player(a, table_id, 0, ann_token)
    bo = Player(b, table_id, 1, bo_token)
    for player in (ann, bo):
        player.hello()
        player.until(lambda m: m["type"] == "state")

    def quiet() -> bool:
        """Both have acted a few times, and nothing is under way."""
        return len(ann.acted) >= 3 and len(bo.acted) >= 3 and settled(ann, bo)

    play([ann, bo], doppelkopf_choice, quiet)
    before = ann.version
    views_before = {p.seat: p.state["view"] for p in (ann, bo) if p.state is not None}
    assert a.get(f"/api/tables/{table_id}")["table"]["version"] == before

    killed = time.monotonic()
    assert a.stop(signal.SIGKILL) == -signal.SIGKILL
    # Ann's connection went down with A: she comes back through B (as a balancer would send her).
    ann.close()
    ann = Player(b, table_id, 0, ann.token)
    ann.hello()
    for player in (ann, bo):
        resumed = player.rebuilt()
        assert resumed["version"] == before, "an action was lost"
        assert resumed["view"] == views_before[player.seat], "the table came back changed"
    print(f"B took the table over {time.monotonic() - killed:.2f} s after A was killed")
    assert b.get(f"/api/tables/{table_id}")["table"]["version"] == before
    owner_b = leases.get(f"kartentisch:lease:{table_id}")
    assert owner_b not in (None, owner_a)

    # Play carries on at B, and Bo (whose socket never closed) sees Ann's moves.
    ann.acted.clear()
    bo.acted.clear()
    # (settled: Bo was sent Ann's last move too before anything is compared)
    play(
        [ann, bo],
        doppelkopf_choice,
        lambda: len(ann.acted) >= 2 and len(bo.acted) >= 2 and settled(ann, bo),
    )
    assert all(v + 1 in bo.views for v in ann.acted)
    assert bo.version > before
    ann.close()
    bo.close()

    # The Slobberhannes table, which nobody watches, was taken over too (B's sweep).
    keys = [f"kartentisch:lease:{t}" for t in (table_id, slobberhannes)]
    deadline = time.monotonic() + 20  # (the sweep comes every one to two leases)
    while leases.get(keys[1]) != owner_b and time.monotonic() < deadline:
        time.sleep(0.1)
    assert leases.mget(keys) == [owner_b, owner_b]

    # B stops cleanly and gives its leases back.
    # (uvicorn shuts down gracefully, then ends by the signal it caught)
    assert b.stop() in (0, -signal.SIGTERM)
    assert leases.mget(keys) == [None, None], "the leases were not given back"
    leases.close()
    leases.close()


def test_a_process_that_stops_hands_its_tables_over_at_once(
    servers: tuple[ServerProcess, ServerProcess], redis_url: str
) -> None:
    import redis

    a, b = servers
    table_id, ann, bo = seated_players(a, b, "doppelkopf")
    play([ann, bo], doppelkopf_choice, lambda: bool(ann.acted and bo.acted) and settled(ann, bo))
    before = bo.version
    leases = redis.Redis.from_url(redis_url, decode_responses=True)
    key = f"kartentisch:lease:{table_id}"
    owner_a = leases.get(key)
    assert owner_a is not None
    assert a.stop() in (0, -signal.SIGTERM)
    # A gave its lease back (it did not leave it to run out) and told B: Bo's table moves
    # without waiting for the lease.
    assert leases.get(key) != owner_a, "A did not give its lease back"
    # (Bo may first hear from A that Ann's socket closed; the state that counts is B's.)
    resumed = bo.rebuilt()
    assert resumed["version"] == before
    ann.close()
    ann = Player(b, table_id, 0, ann.token)
    ann.hello()
    assert ann.until(lambda m: m["type"] == "state")["version"] == before
    ann.acted.clear()
    bo.acted.clear()
    play([ann, bo], doppelkopf_choice, lambda: bool(ann.acted and bo.acted) and settled(ann, bo))
    assert moves_seen_live(ann, bo)

    # Another process takes B's lease (as after a long stall of B): B stops running the
    # table at its next renewal; once that lease runs out, the table comes back, unchanged.
    owner_b = leases.get(key)
    play([ann, bo], doppelkopf_choice, lambda: settled(ann, bo))
    before = bo.version
    assert leases.set(key, "another-process", xx=True, px=round(LEASE * 1000))
    for player in (ann, bo):
        resumed = player.rebuilt()
        assert resumed["version"] == before
    assert leases.get(key) == owner_b
    assert "the lease went to another process" in b.log()
    leases.close()
    ann.acted.clear()
    play([ann, bo], doppelkopf_choice, lambda: bool(ann.acted))
    ann.close()
    bo.close()


def test_serve_refuses_redis_without_postgresql(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--redis", REDIS_DEFAULT]) == 2
    assert "--redis needs --db postgresql" in capsys.readouterr().err
    assert main(["serve", "--redis", REDIS_DEFAULT, "--db", "sqlite:///tables.sqlite3"]) == 2
    assert "SQLite" in capsys.readouterr().err
    args = ["serve", "--redis", REDIS_DEFAULT, "--db", "postgresql://u@h/d", "--lease", "0"]
    assert main(args) == 2
    assert "--lease must be positive" in capsys.readouterr().err
