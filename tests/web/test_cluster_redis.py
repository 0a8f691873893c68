"""Several server processes when Redis fails and comes back (docs/deploy.md).

Two ``kartentisch serve`` processes, A and B, share a throwaway PostgreSQL
schema and a Redis of this test's own (``/usr/bin/redis-server`` on a free
port, nothing saved), so that the machine's Redis is never disturbed. A
Slobberhannes table is created on A; the player at seat 0 plays on A, the one
at seat 1 on B. Then Redis is killed (SIGKILL): A stops running the table
before its lease could run out, the sockets stay open, the lobby list still
answers from PostgreSQL, creating a table answers 503, and an action sent
meanwhile gets no state. Redis is started again, empty, on the same port: the
table is taken again and rebuilt from PostgreSQL, both players are sent the
state again, the action sent during the outage takes effect once (or the
player is told the state and acts again), and play goes on to the end of the
first deal. Every version a player was shown is in the stored actions.

A second test kills Redis for a moment only (less than half a lease) and starts
it again, empty: B must not take the table, whose lease the new Redis lacks,
while A still runs it; a move made meanwhile on A, which B could not be told
of, must still reach the player on B; and each player sees every move.

Without ``/usr/bin/redis-server`` (or PostgreSQL) the test is skipped with a
message, except under ``CI=true``, where it fails.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from . import test_cluster
from .servers import ServerProcess, free_port
from .test_cluster import (
    FIRST_DEAL,
    LEASE,
    Player,
    _redis_reachable,
    first_legal,
    play,
    seated_players,
    settled,
)

#: The fixture of test_cluster.py that starts A and B; here it is given the ``redis_url``
#: of this module (the private Redis).
servers = test_cluster.servers

REDIS_SERVER = Path("/usr/bin/redis-server")
TRACEBACK = "Traceback (most recent call last)"


class PrivateRedis:
    """A ``redis-server`` of this test's own on a free port, keeping nothing on disk."""

    def __init__(self, log_path: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10) -> None:
        """Start it (empty) and wait until it answers."""
        command = [
            str(REDIS_SERVER),
            "--port",
            str(self.port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--bind",
            "127.0.0.1",
        ]
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"redis-server exited:\n{self.log()}")
            if _redis_reachable(self.url):
                return
            time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer within {timeout} s:\n{self.log()}")

    def kill(self) -> None:
        """Stop it at once, as a crash would (SIGKILL): everything in it is lost."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def get(self, key: str) -> str | None:
        import redis

        client = redis.Redis.from_url(self.url, decode_responses=True, socket_timeout=5)
        try:
            value: str | None = client.get(key)
        finally:
            client.close()
        return value

    def log(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-4000:]
        except OSError:
            return ""


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    missing = None
    if not REDIS_SERVER.exists():
        missing = f"{REDIS_SERVER} is not installed (Debian's redis-server)"
    else:
        try:
            import redis  # noqa: F401
        except ImportError:
            missing = "the redis package is not installed"
    if missing is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(missing + ": CI=true requires it")
        pytest.skip(missing)
    server = PrivateRedis(tmp_path / "redis.log")
    server.start()
    try:
        yield server
    finally:
        server.kill()
        print(f"--- redis-server ---\n{server.log()}")


@pytest.fixture
def redis_url(private_redis: PrivateRedis) -> str:
    """The Redis of the servers (``servers`` asks for this one)."""
    return private_redis.url


def full_log(server: ServerProcess) -> str:
    return server.log_path.read_text(encoding="utf-8", errors="replace")


def wait_for_log(server: ServerProcess, text: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while text not in full_log(server):
        assert time.monotonic() < deadline, f"{text!r} not logged by {server.name} in {timeout} s"
        time.sleep(0.05)


def quiet(players: list[Player], seconds: float) -> list[dict[str, Any]]:
    """What the players are sent within ``seconds`` (besides answers to pings)."""
    sent: list[dict[str, Any]] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for player in players:
            message = player.receive(0.05)
            if message is not None and message["type"] != "pong":
                sent.append({"seat": player.seat, **message})
    return sent


def check_seen_is_stored(player: Player, stored: list[str]) -> int:
    """Every card ``player`` was shown as played in the first deal is stored, in its place.

    A version is the number of actions so far; a view shows the trick under
    way and the last trick. Returns how many versions of the first deal were checked.
    """
    checked = 0
    for version, view in player.views.items():
        assert version <= len(stored) or view["deal_number"] > 1, (player.seat, version)
        if view["deal_number"] != 1:
            continue
        current: list[str] = view["trick"]["cards"]
        start = version - len(current)
        assert stored[start:version] == current, (player.seat, version, "trick")
        if view["last_trick"] is not None:
            last: list[str] = view["last_trick"]["cards"]
            assert stored[start - len(last) : start] == last, (player.seat, version, "last")
        checked += 1
    for view in player.views.values():
        if view["deals"]:  # the first deal, once it is over, as the player was shown it
            cards = [c for trick in view["deals"][0]["tricks"] for c in trick["cards"]]
            assert cards == stored, player.seat
    return checked


def test_redis_fails_and_comes_back_and_nothing_is_lost(
    servers: tuple[ServerProcess, ServerProcess],
    private_redis: PrivateRedis,
) -> None:
    a, b = servers

    # -- Slobberhannes: Ann on A (the owner), Bo on B -----------------------------------------
    table_id, ann, bo = seated_players(a, b, "slobberhannes")
    lease = f"kartentisch:lease:{table_id}"
    assert private_redis.get(lease) is not None
    players = [ann, bo]

    # A few moves each, until Bo (whose socket is on B) is to move and both saw the same version.
    play(
        players,
        first_legal,
        lambda: len(ann.acted) >= 2 and len(bo.acted) >= 2 and bo.my_turn() and settled(ann, bo),
    )
    before = bo.version
    assert ann.version == before
    views_before = {p.seat: p.views[before] for p in players}

    # -- Redis fails ---------------------------------------------------------------------------
    private_redis.kill()
    # A stops running the table before its lease could run out (at half of it, unrenewed),
    # by its own clock: the time since its last renewal, which it logs.
    wait_for_log(a, "stopping 1 table(s)", 20)
    late = re.search(r"leases not renewed for ([\d.]+) s: stopping 1 table", full_log(a))
    assert late is not None and LEASE / 2 <= float(late[1]) < LEASE, full_log(a)[-2000:]

    # The sockets stay open: a ping is answered where the socket is.
    for n, player in enumerate(players):
        player.send({"type": "ping", "t": n})
        assert player.until(lambda m: m["type"] == "pong", 5)["t"] == n
    # The lobby list answers from PostgreSQL, with every action stored; no lease, no new table.
    seats = [{"kind": "you"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
    for server in (a, b):
        listed = httpx.get(f"{server.url}/api/tables", timeout=15)
        assert listed.status_code == 200, listed.text
        table = {t["id"]: t for t in listed.json()["tables"]}[table_id]
        assert table["status"] == "playing" and table["version"] == before
        body = {"game": "slobberhannes", "name": "Cy", "seats": seats}
        created = httpx.post(f"{server.url}/api/tables", json=body, timeout=15)
        assert created.status_code == 503, created.text
        assert created.json()["error"]["code"] == "server_error"

    # Bo acts: the action waits, and nobody is sent a state while Redis is down.
    assert bo.my_turn() and bo.version == before
    assert bo.state is not None
    card = first_legal(bo.state["view"])
    bo.act(card)
    assert quiet(players, 1.5) == [], "a state changed while Redis was down"
    assert a.running and b.running

    # -- Redis comes back, empty, on the same port ------------------------------------------
    back = time.monotonic()
    private_redis.start()
    for player in players:
        resumed = player.until(lambda m: m["type"] == "state", 20)
        assert resumed["version"] >= before, "a version that was shown is lost"
        if resumed["version"] == before:
            assert resumed["view"] == views_before[player.seat], "the table came back changed"
    taken_back = time.monotonic() - back
    assert private_redis.get(lease) is not None, "nobody holds the table's lease"

    # Bo's action from the outage took effect (once), or Bo was told the state and acts again.
    # (The state Bo resumed with may already be past it: the bots can have played on.)
    try:
        if bo.version <= before:
            bo.until(lambda m: m["type"] == "state" and m["version"] > before, 5)
        outage_action = "took effect"
    except AssertionError:
        assert bo.version == before and bo.state is not None
        assert bo.state["view"]["to_move"] == 1 and card in bo.state["view"]["legal"]
        bo.acted.remove(before)
        outage_action = "was told the state and acted again"
    print(f"back after {taken_back:.2f} s; the action sent during the outage {outage_action}")

    # Play goes on to the end of the first deal; each sees the other's moves live.
    since = {p.seat: len(p.acted) for p in players}

    def dealt() -> bool:
        return all(
            p.state is not None and (p.state["view"]["deal_number"] > 1 or p.state["view"]["over"])
            for p in players
        ) and settled(ann, bo)

    play(players, first_legal, dealt)
    # Each saw the other's moves live, unless the table changed hands again (its owner stopped
    # for want of renewals, as it may on a loaded machine); the game log has every move anyway.
    moved_again = any(full_log(s).count("stopping") > (s is a) for s in (a, b))
    for me, other in ((ann, bo), (bo, ann)):
        assert me.acted[since[me.seat] :], "nobody acted after Redis came back"
        live = all(v + 1 in other.views for v in me.acted[since[me.seat] :])
        assert live or moved_again, "a move not seen"
    assert len(ann.acted) == len(bo.acted) == FIRST_DEAL
    shown = a.get(f"/api/tables/{table_id}")["table"]["version"]
    assert ann.version == bo.version == shown

    # Nothing anyone was shown is lost: every version is in the stored actions, in its place.
    record = a.get(f"/api/tables/{table_id}/record")
    assert record == b.get(f"/api/tables/{table_id}/record")
    stored: list[str] = record["deals"][0]["actions"]
    assert len(stored) == 4 * FIRST_DEAL
    assert stored[before] == card and stored.count(card) == 1, "the outage's action is not once"
    for player in players:
        assert check_seen_is_stored(player, stored) > 4
        assert player.versions == sorted(player.versions), f"seat {player.seat}: out of order"
        assert player.moves()[: len(stored)] == stored, f"seat {player.seat}: a move not logged"
    # Nobody took the lease of a table its owner still ran.
    for server in (a, b):
        assert "the lease went to another process" not in full_log(server), server.name
    ann.close()
    bo.close()

    # Neither process died, and neither logged a traceback.
    for server in (a, b):
        assert server.running, f"{server.name} died"
        assert TRACEBACK not in full_log(server), f"{server.name} logged a traceback"


def test_a_short_redis_outage_loses_no_state(
    servers: tuple[ServerProcess, ServerProcess],
    private_redis: PrivateRedis,
) -> None:
    """Redis is away for a moment: no process takes the table while its owner runs it, and
    each player sees every move, the one B could not be told of included.

    Redis comes back empty: the table's lease is gone until A, which kept running the table
    (the outage is far shorter than half a lease), takes it back at its next renewal. B looks
    for the table meanwhile (it lost its subscription, and its lease check finds no holder)
    and must not take it: a Redis that has just started holds every takeover for a lease.
    Whether or not the table moves (under load A may miss renewals and stop running it), each
    player's states come in order, every version shown is stored, and each player's game log
    holds every stored action; while A runs the table throughout, each player is also sent
    the state after every move.
    """
    a, b = servers
    table_id, ann, bo = seated_players(a, b, "slobberhannes")
    lease = f"kartentisch:lease:{table_id}"
    owner = private_redis.get(lease)
    assert owner is not None
    players = [ann, bo]
    play(players, first_legal, lambda: len(bo.acted) >= 1 and ann.my_turn() and settled(ann, bo))
    before = ann.version

    # Ann (on A, the owner) moves while Redis is away: A stores the move and shows it to her,
    # but cannot tell B.
    killed = time.monotonic()
    private_redis.kill()
    assert ann.state is not None
    card = first_legal(ann.state["view"])
    ann.act(card)
    moved = ann.until(lambda m: m["type"] == "state" and m["version"] > before, 5)["version"]
    private_redis.start()
    print(f"Redis was away for {time.monotonic() - killed:.2f} s")

    # Bo is sent the state with Ann's move (his socket on B missed it), and play goes on to
    # the end of the first deal (its record is public then).
    bo.until(lambda m: m["type"] == "state" and m["version"] >= moved, 10)
    since = {p.seat: len(p.acted) for p in players}

    def dealt() -> bool:
        return len({p.version for p in players}) == 1 and all(
            p.state is not None and p.state["view"]["deals"] for p in players
        )

    play(players, first_legal, dealt)
    assert all(len(p.acted) > since[p.seat] + 1 for p in players)
    version = a.get(f"/api/tables/{table_id}")["table"]["version"]
    assert ann.version == bo.version == version == 4 * FIRST_DEAL
    record = a.get(f"/api/tables/{table_id}/record")
    assert record == b.get(f"/api/tables/{table_id}/record")
    stored: list[str] = record["deals"][0]["actions"]
    assert len(stored) == version and stored[before] == card
    for player in players:
        assert player.versions == sorted(player.versions), f"seat {player.seat}: out of order"
        assert check_seen_is_stored(player, stored) > 4
        assert player.moves() == stored, f"seat {player.seat}: a move not in the game log"

    # Nobody took the lease of a table its owner still ran; if A ran it throughout (it never
    # stopped for want of renewals), each player was sent the state after every move too.
    for server in (a, b):
        assert "the lease went to another process" not in full_log(server), server.name
    kept = "stopping" not in full_log(a)
    print(f"the table {'stayed with A' if kept else 'moved'}")
    if kept:
        assert private_redis.get(lease) == owner
        for me, other in ((ann, bo), (bo, ann)):
            assert all(v + 1 in other.views for v in me.acted[since[me.seat] :]), "a move not seen"
    ann.close()
    bo.close()
    for server in (a, b):
        assert server.running, f"{server.name} died"
        assert TRACEBACK not in full_log(server), f"{server.name} logged a traceback"
