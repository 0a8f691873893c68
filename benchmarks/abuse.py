"""Abuse: one normal player keeps playing while attacks are replayed against one server.

The benchmark starts one ``kartentisch serve`` process with its defaults (a
fresh temporary SQLite data directory; only ``--bot-delay 0`` and a quiet log
are set, and ``--server-arg`` passes more flags through) on a free port of
127.0.0.1. Everything stays on loopback (127.0.0.0/8), and every part stops
by itself.

* **The normal player** runs in a process of its own, so that the attackers'
  work in this process does not delay its measurements: from 127.0.0.3 it
  creates a Slobberhannes table against three bots (a new one at the start
  of every phase, so that the phases start alike), plays its cards (a think
  time of 0.2–0.6 s, drawn from the seed), says "next" between deals and
  sends the table protocol's ``ping`` ten times a second. Its round trip is
  the time to the matching ``pong``; a ping never answered, or a tick without
  a connection, counts as lost (an infinite round trip in the percentiles).
* **A normal person** uses the lobby from 127.0.0.2 the whole time: every
  second ``GET /api/tables``, every other second ``POST /api/tables`` (a table
  against three bots) whose page it then opens (a WebSocket, its ``hello``, the
  state, closed: its creator came, so the table does not count as waiting),
  each on a new connection, each within 5 s or failed.
* **The attacks** come from 127.0.0.1 (whose ``X-Forwarded-For`` uvicorn
  trusts by default), one after another (``--attacks`` chooses and orders
  them), each for 20 s (``--quick``: 5 s) followed by 5 s (2 s) without it:

  1. ``idle``: 1,000 TCP connections that send nothing (``--idle-sockets``);
  2. ``slowloris``: 300 connections sending a request's headers a byte a
     second per connection;
  3. ``hello``: 20 spectators (127.0.1.x) watch the player's table while one
     client reconnects again and again, saying ``hello`` five times each time;
  4. ``replay``: ``GET /api/tables/{id}/replay`` and ``…/record`` of a long
     finished session (bots playing a Slobberhannes match to 100 at bot
     delay 0, built before the measurements start), four requests at a time;
  5. ``slow-readers``: 50 spectators of the player's table that connect, say
     hello and never read (a 4 KiB receive buffer), for 30 s (8 s);
     afterwards a spectator from 127.0.0.5 tries to watch the table;
  6. ``tables``: ``POST /api/tables`` with a random ``X-Forwarded-For``, as
     fast as the server allows (a refused worker waits its ``Retry-After`` or
     a second). It comes last: where waiting tables never expire, its tables
     stay and would fill the lobby of every later phase.

For each attack: the normal player's round trip p50/p99 during it, whether
the lobby answered the normal person during it and after it, how the attack
fared, and the server's resident memory (``/proc/<pid>/status``) at its
start, its peak (attack and settle) and after it. Targets (issue 14): p99
under 100 ms during every attack, no lobby request of the normal person
refused during or after any attack, the memory after each attack within 10%
of its start.

The server's open-file limit is set to ``--server-nofile`` (1024, the usual
soft limit of a login on Linux) so that the idle sockets meet the same limit
as on a default installation. The raw WebSocket clients of the attacks
(spectators, hello flood, slow readers) speak the protocol byte by byte
without compression, so that they cost this process little and do exactly
what an attacker would.

Run: ``python benchmarks/abuse.py [--quick] [--json] [--attacks idle,hello]
[--server-arg=--flag=value]``:
about 3½ minutes (``--quick``: about a minute). Exit status 0 when every
target is met, 1 when one is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import contextlib
import dataclasses
import inspect
import json
import math
import multiprocessing
import os
import platform
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any, Final

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from web_load import free_port, stop_server, wait_until_serving

P99_TARGET_MS: Final = 100.0
RSS_TARGET: Final = 0.10
SERVER_HOST: Final = "127.0.0.1"
ATTACKER: Final = "127.0.0.1"
PERSON: Final = "127.0.0.2"
PLAYER: Final = "127.0.0.3"
#: Builds the long session and asks the server for figures (not part of any measurement).
OBSERVER: Final = "127.0.0.4"
LATE_SPECTATOR: Final = "127.0.0.5"
#: The table flood last: on a server whose waiting tables never expire, its tables stay.
ATTACKS: Final = ("idle", "slowloris", "hello", "replay", "slow-readers", "tables")
PING_INTERVAL_S: Final = 0.1
REQUEST_TIMEOUT_S: Final = 5.0
#: Loopback needs no proxy (and looking for one in the environment costs time per socket).
NO_PROXY: Final[dict[str, Any]] = (
    {"proxy": None} if "proxy" in inspect.signature(connect).parameters else {}
)


@dataclass(frozen=True)
class Sizes:
    """How long and how big: the defaults, or ``--quick``."""

    baseline_s: float
    attack_s: float
    slow_readers_s: float
    settle_s: float
    idle_sockets: int = 1000
    slowloris_sockets: int = 300
    flood_workers: int = 8
    hello_spectators: int = 20
    hellos_per_connection: int = 5
    replay_workers: int = 4
    slow_readers: int = 50
    session_target: int = 100


FULL: Final = Sizes(baseline_s=10, attack_s=20, slow_readers_s=30, settle_s=5)
QUICK: Final = Sizes(baseline_s=3, attack_s=5, slow_readers_s=8, settle_s=2, session_target=30)


def rng_for(seed: int, purpose: str) -> random.Random:
    """A generator of its own for each purpose, all drawn from ``--seed``."""
    return random.Random(f"{seed}:{purpose}")


def client_event_loop() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop (which uvicorn[standard] brings) when present, else asyncio's own loop."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def percentile(ordered: list[float], q: float) -> float:
    if not ordered:
        return math.nan
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


# -- the server -------------------------------------------------------------------------


def start_server(
    port: int, data_dir: Path, log: Path, extra: list[str], nofile: int
) -> subprocess.Popen[bytes]:
    """``kartentisch serve`` with its defaults but bots without delay; up once /healthz answers."""
    command = [
        sys.executable,
        "-m",
        "kartentisch.cli.main",
        "serve",
        "--host",
        SERVER_HOST,
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
        "--bot-delay",
        "0",
        "--log-level",
        "warning",
        *extra,
    ]
    env = {k: v for k, v in os.environ.items() if k != "FORWARDED_ALLOW_IPS"}

    def limit_files() -> None:
        if nofile > 0:
            _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            wanted = nofile if hard == resource.RLIM_INFINITY else min(nofile, hard)
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))

    with log.open("wb") as out:
        proc = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env=env, preexec_fn=limit_files
        )
    return wait_until_serving(proc, port, log, SERVER_HOST)


def rss_kib(pid: int) -> int:
    """The resident memory of ``pid`` now, in KiB (VmRSS of /proc/<pid>/status)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key == "VmRSS":
                return int(value.split()[0])
    return 0


def raise_own_open_files(wanted: int) -> None:
    """This process holds the attack's sockets: allow them (the server keeps its own limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


# -- the normal player (a process of its own) ---------------------------------------------


@dataclass
class PlayerResult:
    """What the player measured: ``(sent, round trip)`` per ping (``inf``: lost)."""

    samples: list[tuple[float, float]] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    actions: int = 0
    tables: int = 0


def table_body(name: str, level: str, target: int) -> dict[str, Any]:
    """A Slobberhannes table of a person and three bots (it starts at once)."""
    return {
        "game": "slobberhannes",
        "name": name,
        "seats": [{"kind": "you"}] + [{"kind": "bot", "level": level}] * 3,
        "options": {"target": target},
    }


class Player:
    """Plays one table after another and pings its server ten times a second."""

    def __init__(self, base: str, seed: int, stop: Event, events: Connection) -> None:
        self.base = base
        self.rng = rng_for(seed, "player")
        self.stop = stop
        self.events = events
        self.result = PlayerResult()
        self.errors: collections.Counter[str] = collections.Counter()
        self.ws: ClientConnection | None = None
        self.pending: dict[int, float] = {}
        self.pings = 0
        #: The benchmark's last request for a new table, and the last one answered.
        self.wanted = 0
        self.answered = -1
        self.renew = asyncio.Event()
        self.acting: set[asyncio.Task[None]] = set()

    def lose_pending(self) -> None:
        for sent in self.pending.values():
            self.result.samples.append((sent, math.inf))
        self.pending.clear()

    async def pinger(self) -> None:
        """Ten pings a second; a tick without a connection is a lost ping."""
        next_at = time.monotonic()
        while not self.stop.is_set():
            # a tick missed (this process was not given a CPU in time) is skipped, not made up
            next_at = max(next_at + PING_INTERVAL_S, time.monotonic())
            await asyncio.sleep(next_at - time.monotonic())
            now = time.monotonic()
            while self.events.poll():  # the benchmark asks for a new table at each phase
                _, self.wanted = self.events.recv()
                self.renew.set()
            ws = self.ws
            if ws is None:
                self.result.samples.append((now, math.inf))
                continue
            self.pings += 1
            self.pending[self.pings] = now
            # (a lost connection is noticed by the reader, which loses the pending pings)
            with contextlib.suppress(WebSocketException):
                await ws.send(json.dumps({"type": "ping", "t": self.pings}))

    async def create_table(self) -> tuple[str, str]:
        async with httpx.AsyncClient(
            base_url=f"http://{self.base}",
            transport=httpx.AsyncHTTPTransport(local_address=PLAYER),
            timeout=REQUEST_TIMEOUT_S,
        ) as client:
            answer = await client.post("/api/tables", json=table_body("Player", "heuristic", 100))
        if answer.status_code != 201:
            raise OSError(f"http_{answer.status_code}")
        created: dict[str, Any] = answer.json()
        self.result.tables += 1
        return str(created["id"]), str(created["token"])

    async def play_table(self, table_id: str, token: str) -> bool:
        """Play until the match is over (True) or the connection is lost (False)."""
        async with connect(
            f"ws://{self.base}/ws/tables/{table_id}",
            max_size=None,
            ping_interval=None,
            open_timeout=REQUEST_TIMEOUT_S,
            close_timeout=1,
            local_addr=(PLAYER, 0),
            **NO_PROXY,
        ) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            self.ws = ws
            acted = -1
            readied = -1
            async for raw in ws:
                now = time.monotonic()
                message: dict[str, Any] = json.loads(raw)
                kind = message.get("type")
                if kind == "pong":
                    sent = self.pending.pop(message.get("t", -1), None)
                    if sent is not None:
                        self.result.samples.append((sent, now - sent))
                    continue
                if kind == "error":
                    self.errors[str(message.get("code"))] += 1
                    continue
                if kind != "state" or message.get("view") is None:
                    continue
                version: int = message["version"]
                view = message["view"]
                seat = message["table"]["you"]
                if view["over"]:
                    return True
                between = message["table"].get("between_deals")
                if between is not None:
                    if seat not in between["ready"] and version > readied:
                        readied = version
                        await ws.send(json.dumps({"type": "ready", "version": version}))
                elif view["to_move"] == seat and version > acted:
                    acted = version
                    card = self.rng.choice(view["legal"])
                    acting = asyncio.create_task(self.act_later(ws, card, version))
                    self.acting.add(acting)
                    acting.add_done_callback(self.acting.discard)
        return False

    async def act_later(self, ws: ClientConnection, card: str, version: int) -> None:
        await asyncio.sleep(self.rng.uniform(0.2, 0.6))
        with contextlib.suppress(WebSocketException):
            await ws.send(json.dumps({"type": "act", "action": card, "version": version}))
            self.result.actions += 1

    async def next_table(self, table: tuple[str, str] | None) -> tuple[str, str]:
        """A new table; when the server refuses one, the old table (if there is one)."""
        try:
            table = await self.create_table()
        except (OSError, TimeoutError, httpx.HTTPError):
            if table is None:
                raise
            self.errors["new_table_refused"] += 1
        self.answered = self.wanted
        self.renew.clear()
        self.events.send(("table", table[0], self.answered))
        return table

    async def play(self) -> None:
        """Tables one after another: a new one when a match ends or the benchmark asks."""
        table: tuple[str, str] | None = None
        while not self.stop.is_set():
            renewing = False
            try:
                if table is None or self.wanted > self.answered:
                    table = await self.next_table(table)
                playing = asyncio.create_task(self.play_table(*table))
                asked = asyncio.create_task(self.renew.wait())
                await asyncio.wait({playing, asked}, return_when=asyncio.FIRST_COMPLETED)
                asked.cancel()
                if not playing.done():
                    renewing = True
                    playing.cancel()
                    await asyncio.gather(playing, return_exceptions=True)
                elif playing.result():
                    table = None  # the match is over
                else:
                    self.errors["disconnected"] += 1
            except (OSError, TimeoutError, WebSocketException, httpx.HTTPError) as failure:
                self.errors[type(failure).__name__] += 1
            self.ws = None
            self.lose_pending()
            if not renewing:
                await asyncio.sleep(0.5)

    async def run(self) -> PlayerResult:
        playing = asyncio.create_task(self.play())
        await self.pinger()
        playing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await playing
        self.lose_pending()
        self.result.errors = dict(self.errors)
        return self.result


def player_process(base: str, seed: int, stop: Event, events: Connection) -> None:
    """The normal player's process: plays until ``stop``, then sends its result."""
    player = Player(base, seed, stop, events)
    with asyncio.Runner(loop_factory=client_event_loop()) as runner:
        result = runner.run(player.run())
    events.send(("result", asdict(result)))


# -- raw sockets: idle, slowloris and WebSocket clients that do exactly what they are told ----


async def open_socket(port: int, source: str, rcvbuf: int | None = None) -> socket.socket:
    """A TCP connection from ``source`` to the server (non-blocking)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    try:
        if rcvbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.bind((source, 0))
        async with asyncio.timeout(REQUEST_TIMEOUT_S):
            await asyncio.get_running_loop().sock_connect(sock, (SERVER_HOST, port))
    except BaseException:
        sock.close()
        raise
    return sock


def server_closed(sock: socket.socket) -> bool:
    """Whether the server has closed (or answered and closed) this connection by now."""
    try:
        sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except BlockingIOError:
        return False
    except OSError:
        return True
    return True  # the server answered (408, 400 …) or closed it: either way, not held


def text_frame(text: str, rng: random.Random) -> bytes:
    """A masked WebSocket text frame (RFC 6455, as a client must send it)."""
    data = text.encode()
    size = len(data)
    head = bytearray([0x81])
    if size < 126:
        head.append(0x80 | size)
    elif size < 1 << 16:
        head += bytes([0x80 | 126]) + size.to_bytes(2, "big")
    else:
        head += bytes([0x80 | 127]) + size.to_bytes(8, "big")
    mask = rng.randbytes(4)
    return bytes(head) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


async def open_websocket(
    port: int, table_id: str, source: str, rng: random.Random, rcvbuf: int | None = None
) -> tuple[socket.socket, bytes]:
    """A WebSocket to the table without compression: the socket and what followed the 101."""
    loop = asyncio.get_running_loop()
    sock = await open_socket(port, source, rcvbuf)
    try:
        key = base64.b64encode(rng.randbytes(16)).decode()
        request = (
            f"GET /ws/tables/{table_id} HTTP/1.1\r\nHost: {SERVER_HOST}:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        await loop.sock_sendall(sock, request.encode())
        answer = b""
        async with asyncio.timeout(REQUEST_TIMEOUT_S):
            while b"\r\n\r\n" not in answer:
                chunk = await loop.sock_recv(sock, 4096)
                if not chunk:
                    raise ConnectionError("closed during the handshake")
                answer += chunk
        head, _, rest = answer.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(head.split(b"\r\n", 1)[0].decode(errors="replace"))
    except BaseException:
        sock.close()
        raise
    return sock, rest


async def read_frame(sock: socket.socket, buffered: bytes) -> dict[str, Any]:
    """The first text frame the server sends, as JSON (the server's frames are unmasked)."""
    loop = asyncio.get_running_loop()
    data = buffered

    async def need(n: int) -> None:
        nonlocal data
        while len(data) < n:
            chunk = await loop.sock_recv(sock, 1 << 16)
            if not chunk:
                raise ConnectionError("closed")
            data += chunk

    await need(2)
    size, start = data[1] & 0x7F, 2
    if size == 126:
        await need(4)
        size, start = int.from_bytes(data[2:4], "big"), 4
    elif size == 127:
        await need(10)
        size, start = int.from_bytes(data[2:10], "big"), 10
    await need(start + size)
    if data[0] & 0x0F == 0x8:
        return {"type": "closed", "code": int.from_bytes(data[start : start + 2], "big")}
    message: dict[str, Any] = json.loads(data[start : start + size])
    return message


def close_all(sockets: list[socket.socket]) -> None:
    for sock in sockets:
        sock.close()
    sockets.clear()


# -- the run: shared state, the lobby checks, the memory samples --------------------------


@dataclass
class Check:
    """One request of the normal person: when, which, whether it succeeded (and why not)."""

    at: float
    what: str
    ok: bool
    detail: str


@dataclass
class Phase:
    name: str
    #: When the phase began; the attack's window is ``start`` (later, after a set-up) to ``end``.
    begun: float
    start: float
    end: float = 0.0
    settled: float = 0.0
    rss_start_kib: int = 0
    rss_after_kib: int = 0
    fared: dict[str, Any] = field(default_factory=dict)
    #: A window before the attack with its setting alone (the hello flood's spectators).
    quiet: tuple[float, float] | None = None


class Bench:
    """The server, the figures being gathered and the attacks."""

    def __init__(self, port: int, pid: int, sizes: Sizes, seed: int, player: Connection) -> None:
        self.port = port
        self.base = f"{SERVER_HOST}:{port}"
        self.pid = pid
        self.sizes = sizes
        self.seed = seed
        self.player = player
        self.player_table: str | None = None
        self.table_requests = 0
        self.table_answered = -1
        self.checks: list[Check] = []
        self.rss: list[tuple[float, int]] = []
        self.phases: list[Phase] = []
        self.finished_session: str | None = None
        self.session_actions = 0

    def client(self, source: str, *, keepalive: bool = True) -> httpx.AsyncClient:
        limits = httpx.Limits() if keepalive else httpx.Limits(max_keepalive_connections=0)
        return httpx.AsyncClient(
            base_url=f"http://{self.base}",
            transport=httpx.AsyncHTTPTransport(local_address=source, limits=limits),
            timeout=REQUEST_TIMEOUT_S,
        )

    def table_of_player(self) -> str:
        """The normal player's table now (it opens a new one when its match is over)."""
        while self.player.poll():
            kind, table_id, answered = self.player.recv()
            if kind == "table":
                self.player_table = str(table_id)
                self.table_answered = int(answered)
        if self.player_table is None:
            raise RuntimeError("the normal player has no table")
        return self.player_table

    async def fresh_player_table(self) -> None:
        """Have the player open a new table (so that every phase starts alike), and wait."""
        if self.table_requests > 0:
            self.player.send(("new", self.table_requests))
        async with asyncio.timeout(60):
            while self.table_answered < self.table_requests:
                with contextlib.suppress(RuntimeError):
                    self.table_of_player()
                await asyncio.sleep(0.05)
        self.table_requests += 1
        await asyncio.sleep(1)  # its hello, its first pings

    async def person(self) -> None:
        """The normal person: the tables every second, a new table every other second."""
        tick = 0
        while True:
            started = time.monotonic()
            await self.check("GET", "/api/tables")
            if tick % 2 == 0:
                await self.check("POST", "/api/tables")
            tick += 1
            await asyncio.sleep(max(0.0, started + 1.0 - time.monotonic()))

    async def check(self, method: str, path: str) -> None:
        at = time.monotonic()
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT_S):
                async with self.client(PERSON, keepalive=False) as client:
                    if method == "GET":
                        answer = await client.get(path)
                    else:
                        answer = await client.post(path, json=table_body("Visitor", "random", 1))
                ok = answer.is_success
                detail = "" if ok else f"{answer.status_code} {error_code(answer)}"
                if ok and method == "POST":
                    detail = await self.open_table_page(answer.json())
                    ok = not detail
        except (httpx.HTTPError, OSError, WebSocketException, TimeoutError) as failure:
            ok, detail = False, type(failure).__name__
        self.checks.append(Check(at, method, ok, detail))

    async def open_table_page(self, created: dict[str, Any]) -> str:
        """Come to the table just created, as its page would (a table nobody comes to
        counts as waiting): "" once its state is there, else why not."""
        async with connect(
            f"ws://{self.base}/ws/tables/{created['id']}",
            ping_interval=None,
            open_timeout=REQUEST_TIMEOUT_S,
            close_timeout=1,
            local_addr=(PERSON, 0),
            **NO_PROXY,
        ) as ws:
            await ws.send(json.dumps({"type": "hello", "token": created["token"]}))
            while True:
                message = json.loads(await ws.recv())
                if message.get("type") == "state":
                    return ""
                if message.get("type") == "error":
                    return f"ws {message.get('code')}"

    async def sample_memory(self) -> None:
        while True:
            self.rss.append((time.monotonic(), rss_kib(self.pid)))
            await asyncio.sleep(0.25)

    async def spectators_at(self, table_id: str) -> int | None:
        """How many spectators the server counts at the table (None: no answer)."""
        try:
            async with self.client(OBSERVER, keepalive=False) as client:
                answer = await client.get(f"/api/tables/{table_id}")
            return int(answer.json()["table"]["spectators"]) if answer.is_success else None
        except (httpx.HTTPError, KeyError, ValueError):
            return None

    # -- the long finished session (before anything is measured) --

    async def build_session(self) -> None:
        """Four bots play a Slobberhannes match to ``session_target`` penalties."""
        body = {
            "game": "slobberhannes",
            "seats": [{"kind": "bot", "level": "random"}] * 4,
            "options": {"target": self.sizes.session_target},
        }
        async with self.client(OBSERVER) as client:
            answer = await client.post("/api/tables", json=body)
            answer.raise_for_status()
            table_id = str(answer.json()["id"])
            async with asyncio.timeout(300):
                while True:
                    summary = (await client.get(f"/api/tables/{table_id}")).json()["table"]
                    if summary["status"] == "finished":
                        break
                    await asyncio.sleep(0.2)
        self.finished_session = table_id
        self.session_actions = int(summary["version"])

    # -- the phases --

    async def phase(self, name: str, attack: Callable[[Phase], Awaitable[None]]) -> None:
        """Run ``attack`` (it returns when its time is up, its sockets closed), then settle."""
        await self.fresh_player_table()
        now = time.monotonic()
        phase = Phase(name, now, now, rss_start_kib=rss_kib(self.pid))
        self.phases.append(phase)
        await attack(phase)
        phase.end = time.monotonic()
        await asyncio.sleep(self.sizes.settle_s)
        phase.settled = time.monotonic()
        phase.rss_after_kib = rss_kib(self.pid)

    async def quiet(self, phase: Phase) -> None:
        await asyncio.sleep(self.sizes.baseline_s)

    async def until(
        self, deadline: float, worker: Callable[[], Coroutine[Any, Any, None]], n: int
    ) -> None:
        """``n`` copies of ``worker`` until ``deadline``, then cancelled."""
        tasks = [asyncio.create_task(worker()) for _ in range(n)]
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def table_flood(self, phase: Phase) -> None:
        """Tables created under forged client addresses, as fast as the server lets them."""
        rng = rng_for(self.seed, "forged addresses")
        answers: collections.Counter[str] = collections.Counter()
        body = {
            "game": "slobberhannes",
            "name": "Flood",
            "seats": [{"kind": "you"}] + [{"kind": "open"}] * 3,
        }
        deadline = phase.start + self.sizes.attack_s

        async def worker() -> None:
            async with self.client(ATTACKER) as client:
                while True:
                    forged = forged_address(rng)
                    try:
                        answer = await client.post(
                            "/api/tables", json=body, headers={"X-Forwarded-For": forged}
                        )
                    except httpx.HTTPError as failure:
                        answers[type(failure).__name__] += 1
                        await asyncio.sleep(1)
                        continue
                    answers[f"{answer.status_code} {error_code(answer)}".strip()] += 1
                    if not answer.is_success:
                        await asyncio.sleep(retry_after(answer))

        await self.until(deadline, worker, self.sizes.flood_workers)
        phase.fared = {"answers": dict(answers), "tables_created": answers.get("201", 0)}

    async def idle_sockets(self, phase: Phase) -> None:
        """Connections that never send a byte, held for the attack's time."""
        sockets: list[socket.socket] = []
        failed: collections.Counter[str] = collections.Counter()

        async def one() -> None:
            try:
                sockets.append(await open_socket(self.port, ATTACKER))
            except (OSError, TimeoutError) as failure:
                failed[type(failure).__name__] += 1

        try:
            for start in range(0, self.sizes.idle_sockets, 100):
                await asyncio.gather(
                    *(one() for _ in range(min(100, self.sizes.idle_sockets - start)))
                )
            opened = len(sockets)
            await asyncio.sleep(max(0.0, phase.start + self.sizes.attack_s - time.monotonic()))
            held = sum(1 for s in sockets if not server_closed(s))
        finally:
            close_all(sockets)
        phase.fared = {
            "sockets": self.sizes.idle_sockets,
            "connected": opened,
            "connect_failed": dict(failed),
            "held_at_end": held,
        }

    async def slowloris(self, phase: Phase) -> None:
        """Connections sending a request's headers one byte a second, never finishing."""
        loop = asyncio.get_running_loop()
        sockets: list[socket.socket] = []
        request = f"GET /api/tables HTTP/1.1\r\nHost: {self.base}\r\nX-Padding: ".encode()
        deadline = phase.start + self.sizes.attack_s
        sent = 0
        try:
            for _ in range(self.sizes.slowloris_sockets):
                with contextlib.suppress(OSError, TimeoutError):
                    sockets.append(await open_socket(self.port, ATTACKER))
            opened = len(sockets)
            position = 0
            alive = list(sockets)
            while time.monotonic() < deadline:
                byte = request[position : position + 1] or b"a"
                position += 1
                for sock in list(alive):
                    try:
                        await loop.sock_sendall(sock, byte)
                        sent += 1
                    except OSError:
                        alive.remove(sock)
                await asyncio.sleep(min(1.0, max(0.0, deadline - time.monotonic())))
            held = sum(1 for s in alive if not server_closed(s))
        finally:
            close_all(sockets)
        phase.fared = {
            "sockets": self.sizes.slowloris_sockets,
            "connected": opened,
            "bytes_sent": sent,
            "held_at_end": held,
        }

    async def hello_flood(self, phase: Phase) -> None:
        """Spectators watch the player's table; one client says hello there over and over."""
        loop = asyncio.get_running_loop()
        table_id = self.table_of_player()
        rng = rng_for(self.seed, "hello flood")
        received = [0]
        watchers: list[socket.socket] = []
        hello = {"type": "hello"}

        async def watch(i: int) -> None:
            sock, rest = await open_websocket(self.port, table_id, f"127.0.1.{1 + i}", rng)
            watchers.append(sock)
            await loop.sock_sendall(sock, text_frame(json.dumps(hello), rng))
            received[0] += len(rest)
            while chunk := await loop.sock_recv(sock, 1 << 16):
                received[0] += len(chunk)

        tasks = [asyncio.create_task(watch(i)) for i in range(self.sizes.hello_spectators)]
        hellos = connections = refused = 0
        try:
            await asyncio.sleep(1)  # the spectators are in
            received[0] = 0
            quiet = time.monotonic()
            await asyncio.sleep(3)  # what the table sends them without an attack
            quiet_rate = received[0] / (time.monotonic() - quiet)
            phase.quiet = (quiet, time.monotonic())
            received[0] = 0
            phase.start = time.monotonic()  # the attack's window starts now
            deadline = phase.start + self.sizes.attack_s
            frames = b"".join(
                text_frame(json.dumps(hello), rng) for _ in range(self.sizes.hellos_per_connection)
            )
            while time.monotonic() < deadline:
                try:
                    sock, rest = await open_websocket(self.port, table_id, ATTACKER, rng)
                except (OSError, TimeoutError):
                    refused += 1
                    await asyncio.sleep(0.1)
                    continue
                connections += 1
                try:
                    await loop.sock_sendall(sock, frames)
                    hellos += self.sizes.hellos_per_connection
                    if not rest:  # wait for the first answer, then go
                        async with asyncio.timeout(1):
                            await loop.sock_recv(sock, 1 << 16)
                except (OSError, TimeoutError):
                    pass
                finally:
                    sock.close()
            flood_bytes = received[0]
            watching = len(watchers)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            close_all(watchers)
        seconds = time.monotonic() - phase.start
        phase.fared = {
            "spectators": watching,
            "connections": connections,
            "connections_refused": refused,
            "hellos_sent": hellos,
            "bytes_to_spectators": flood_bytes,
            "bytes_to_spectators_per_s": flood_bytes / seconds,
            "bytes_to_spectators_per_s_quiet": quiet_rate,
        }

    async def replay_flood(self, phase: Phase) -> None:
        """The replay and the record of a long finished session, requested again and again."""
        table_id = self.finished_session
        assert table_id is not None
        answers: collections.Counter[str] = collections.Counter()
        received = [0]
        deadline = phase.start + self.sizes.attack_s

        async def worker() -> None:
            async with self.client(ATTACKER) as client:
                for n in range(1 << 30):
                    path = f"/api/tables/{table_id}/{'replay' if n % 2 == 0 else 'record'}"
                    try:
                        answer = await client.get(path)
                    except httpx.HTTPError as failure:
                        answers[type(failure).__name__] += 1
                        await asyncio.sleep(1)
                        continue
                    answers[f"{answer.status_code} {error_code(answer)}".strip()] += 1
                    received[0] += len(answer.content)
                    if not answer.is_success:
                        await asyncio.sleep(retry_after(answer))

        await self.until(deadline, worker, self.sizes.replay_workers)
        phase.fared = {
            "session_actions": self.session_actions,
            "answers": dict(answers),
            "served": answers.get("200", 0),
            "bytes_received": received[0],
        }

    async def slow_readers(self, phase: Phase) -> None:
        """Spectators that say hello and never read; then can someone else still watch?"""
        loop = asyncio.get_running_loop()
        table_id = self.table_of_player()
        rng = rng_for(self.seed, "slow readers")
        readers: list[socket.socket] = []
        failed = 0
        try:
            for _ in range(self.sizes.slow_readers):
                try:
                    sock, _ = await open_websocket(self.port, table_id, ATTACKER, rng, rcvbuf=4096)
                except (OSError, TimeoutError):
                    failed += 1
                    continue
                readers.append(sock)
                with contextlib.suppress(OSError):
                    await loop.sock_sendall(sock, text_frame(json.dumps({"type": "hello"}), rng))
            counted_start = await self.spectators_at(table_id)
            await asyncio.sleep(
                max(0.0, phase.start + self.sizes.slow_readers_s - time.monotonic())
            )
            counted_end = await self.spectators_at(table_id)
            late = await self.late_spectator(table_id, rng)
        finally:
            close_all(readers)
        phase.fared = {
            "readers": self.sizes.slow_readers,
            "connected": self.sizes.slow_readers - failed,
            "spectators_counted_after_hello": counted_start,
            "spectators_counted_at_end": counted_end,
            "another_spectator": late,
        }

    async def late_spectator(self, table_id: str, rng: random.Random) -> str:
        """What a person who comes to watch now gets: ``state``, an error code, or a failure."""
        try:
            sock, rest = await open_websocket(self.port, table_id, LATE_SPECTATOR, rng)
        except (OSError, TimeoutError) as failure:
            return type(failure).__name__
        try:
            loop = asyncio.get_running_loop()
            await loop.sock_sendall(sock, text_frame(json.dumps({"type": "hello"}), rng))
            async with asyncio.timeout(REQUEST_TIMEOUT_S):
                first = await read_frame(sock, rest)
            return "state" if first.get("type") == "state" else str(first.get("code"))
        except (OSError, TimeoutError, ValueError) as failure:
            return type(failure).__name__
        finally:
            sock.close()


def forged_address(rng: random.Random) -> str:
    """A random public-looking IPv4 address (never loopback) for ``X-Forwarded-For``."""
    first = rng.randint(1, 223)
    rest = (rng.randint(0, 255), rng.randint(0, 255), rng.randint(1, 254))
    return ".".join(str(n) for n in (128 if first == 127 else first, *rest))


def error_code(answer: httpx.Response) -> str:
    """The refusal's stable code, if the answer carries one."""
    if answer.is_success:
        return ""
    try:
        return str(answer.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return ""


def retry_after(answer: httpx.Response) -> float:
    """How long a refused attacker waits: the server's Retry-After (at most 5 s), else 1 s."""
    try:
        return min(5.0, max(0.0, float(answer.headers.get("retry-after", "1"))))
    except ValueError:
        return 1.0


# -- the report ---------------------------------------------------------------------------


def rtt_figures(samples: list[tuple[float, float]], start: float, end: float) -> dict[str, Any]:
    """The round trips (ms) of the pings sent in ``[start, end)``; a lost one counts as ∞."""
    ms = sorted(rtt * 1000 for sent, rtt in samples if start <= sent < end)
    return {
        "pings": len(ms),
        "lost": sum(1 for x in ms if math.isinf(x)),
        "p50": percentile(ms, 0.5),
        "p99": percentile(ms, 0.99),
        "max": ms[-1] if ms else math.nan,
    }


def lobby_figures(checks: list[Check], start: float, end: float) -> dict[str, Any]:
    inside = [c for c in checks if start <= c.at < end]
    failures = collections.Counter(f"{c.what} {c.detail}" for c in inside if not c.ok)
    return {
        "requests": len(inside),
        "ok": sum(1 for c in inside if c.ok),
        "failures": dict(failures),
        "usable": bool(inside) and not failures,
    }


def summarize(bench: Bench, player: PlayerResult) -> dict[str, Any]:
    phases: list[dict[str, Any]] = []
    for p in bench.phases:
        rtt = rtt_figures(player.samples, p.start, p.end)
        peak = max([kib for at, kib in bench.rss if p.begun <= at <= p.settled] + [p.rss_after_kib])
        during = lobby_figures(bench.checks, p.start, p.end)
        after = lobby_figures(bench.checks, p.end, p.settled)
        growth = p.rss_after_kib / p.rss_start_kib - 1 if p.rss_start_kib else math.nan
        phases.append(
            {
                "attack": p.name,
                "seconds": round(p.end - p.start, 2),
                "pings": rtt["pings"],
                "lost_pings": rtt["lost"],
                "rtt_ms": rtt,
                "rtt_ms_quiet": None if p.quiet is None else rtt_figures(player.samples, *p.quiet),
                "lobby_during": during,
                "lobby_after": after,
                "rss_mib": {
                    "start": p.rss_start_kib / 1024,
                    "peak": peak / 1024,
                    "after": p.rss_after_kib / 1024,
                    "growth": growth,
                },
                "fared": p.fared,
                "targets": {
                    "p99": rtt["p99"] < P99_TARGET_MS,
                    "lobby": during["usable"] and after["usable"],
                    "rss": growth <= RSS_TARGET,
                },
            }
        )
    attacks = [p for p in phases if p["attack"] != "baseline"]
    return {
        "phases": phases,
        "player": {
            "errors": player.errors,
            "actions": player.actions,
            "tables": player.tables,
        },
        "targets": {
            "p99_under_100ms": all(p["targets"]["p99"] for p in attacks),
            "lobby_never_refused": all(p["targets"]["lobby"] for p in attacks),
            "rss_within_10pct": all(p["targets"]["rss"] for p in attacks),
        },
    }


def fared_text(phase: dict[str, Any]) -> str:
    """How the phase's attack fared, in a line."""
    name, fared = phase["attack"], phase["fared"]
    if name == "tables":
        return f"{fared['tables_created']} tables created; answers {fared['answers']}"
    if name in ("idle", "slowloris"):
        return (
            f"{fared['connected']}/{fared['sockets']} connected, "
            f"{fared['held_at_end']} still open at the end"
        )
    if name == "hello":
        return (
            f"{fared['hellos_sent']} hellos on {fared['connections']} connections; "
            f"{fared['spectators']} spectators got {fared['bytes_to_spectators'] / 1e6:.1f} MB "
            f"({fared['bytes_to_spectators_per_s'] / 1e3:.0f} kB/s, quiet "
            f"{fared['bytes_to_spectators_per_s_quiet'] / 1e3:.0f} kB/s); the player's "
            f"p50 / p99 with the spectators alone {phase['rtt_ms_quiet']['p50']:.1f} / "
            f"{phase['rtt_ms_quiet']['p99']:.1f} ms"
        )
    if name == "replay":
        return (
            f"{fared['served']} served of a {fared['session_actions']}-action session "
            f"({fared['bytes_received'] / 1e6:.1f} MB); answers {fared['answers']}"
        )
    if name == "slow-readers":
        return (
            f"{fared['connected']}/{fared['readers']} connected; spectators counted "
            f"{fared['spectators_counted_after_hello']} → {fared['spectators_counted_at_end']} "
            f"at the end; another spectator: {fared['another_spectator']}"
        )
    return ""


def lobby_text(figures: dict[str, Any]) -> str:
    verdict = "ok" if figures["usable"] else "REFUSED"
    return f"{figures['ok']}/{figures['requests']} {verdict}"


def phase_row(p: dict[str, Any]) -> list[str]:
    rtt, mem = p["rtt_ms"], p["rss_mib"]
    return [
        p["attack"],
        f"{rtt['p50']:.1f}",
        f"{rtt['p99']:.1f}",
        str(p["lost_pings"]),
        lobby_text(p["lobby_during"]),
        lobby_text(p["lobby_after"]),
        f"{mem['start']:.0f} / {mem['peak']:.0f} / {mem['after']:.0f} ({mem['growth']:+.0%})",
    ]


TARGETS: Final = {
    "p99_under_100ms": (
        "p99",
        f"the normal player's p99 < {P99_TARGET_MS:.0f} ms during every attack",
    ),
    "lobby_never_refused": ("lobby", "no attack makes the lobby refuse a normal person"),
    "rss_within_10pct": ("rss", "RSS back within 10% of its start after every attack"),
}


def print_report(r: dict[str, Any]) -> None:
    limit = r["server_nofile"] or "inherited"
    print(
        f"Abuse benchmark ({r['machine']['cpus']} CPUs, Python {r['machine']['python']}, "
        f"server open-file limit {limit})"
    )
    head = ["attack", "p50 ms", "p99 ms", "lost", "lobby during", "lobby after", "RSS MiB"]
    rows = [head] + [phase_row(p) for p in r["phases"]]
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        print("  " + "  ".join(cells))
    print("How the attacks fared:")
    attacks = [p for p in r["phases"] if p["attack"] != "baseline"]
    for p in attacks:
        print(f"  {p['attack']:<13} {fared_text(p)}")
        for when in ("during", "after"):
            if p[f"lobby_{when}"]["failures"]:
                print(f"  {'':<13} lobby refused {when}: {p[f'lobby_{when}']['failures']}")
    player = r["player"]
    print(
        f"Normal player: {player['actions']} actions at {player['tables']} table(s), "
        f"errors: {player['errors'] or 'none'}; the server's log: "
        f"{r['server_tracebacks']} tracebacks"
    )
    for exception, count in r["server_exceptions"].items():
        print(f"  {count} × {exception}")
    for key, (short, text) in TARGETS.items():
        missed = [p["attack"] for p in attacks if not p["targets"][short]]
        print(f"  {text}: {'pass' if r['targets'][key] else 'FAIL (' + ', '.join(missed) + ')'}")


# -- main -------------------------------------------------------------------------------------


async def drive(bench: Bench, attacks: list[str], stop: Event) -> None:
    methods: dict[str, Callable[[Phase], Awaitable[None]]] = {
        "tables": bench.table_flood,
        "idle": bench.idle_sockets,
        "slowloris": bench.slowloris,
        "hello": bench.hello_flood,
        "replay": bench.replay_flood,
        "slow-readers": bench.slow_readers,
    }
    if "replay" in attacks:
        await bench.build_session()
    background = [asyncio.create_task(bench.person()), asyncio.create_task(bench.sample_memory())]
    try:
        await bench.phase("baseline", bench.quiet)
        for name in attacks:
            await bench.phase(name, methods[name])
    finally:
        stop.set()
        for task in background:
            task.cancel()
        await asyncio.gather(*background, return_exceptions=True)


@contextlib.contextmanager
def player_running(
    base: str, seed: int
) -> Iterator[tuple[Connection, Event, Callable[[], PlayerResult]]]:
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    stop = context.Event()
    process = context.Process(target=player_process, args=(base, seed, stop, theirs), daemon=True)
    process.start()

    def result() -> PlayerResult:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if ours.poll(0.5):
                message = ours.recv()  # ("table", id, n) or ("result", fields)
                if message[0] == "result":  # (a dict: the child's classes do not pickle back)
                    return PlayerResult(**message[1])
        raise RuntimeError("the normal player sent no result")

    try:
        yield ours, stop, result
    finally:
        stop.set()
        process.join(timeout=10)
        if process.is_alive():
            process.kill()


def measure(args: argparse.Namespace) -> dict[str, Any]:
    sizes = QUICK if args.quick else FULL
    if args.idle_sockets is not None:
        sizes = dataclasses.replace(sizes, idle_sockets=args.idle_sockets)
    attacks: list[str] = args.attacks
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="kartentisch-abuse-") as tmp:
        port = free_port()
        log = Path(tmp) / "server.log"
        server = start_server(port, Path(tmp), log, args.server_arg, args.server_nofile)
        try:
            raise_own_open_files(sizes.idle_sockets + sizes.slowloris_sockets + 1024)
            with player_running(f"{SERVER_HOST}:{port}", args.seed) as (events, stop, result):
                bench = Bench(port, server.pid, sizes, args.seed, events)
                with asyncio.Runner(loop_factory=client_event_loop()) as runner:
                    runner.run(drive(bench, attacks, stop))
                player = result()
            alive = server.poll() is None
        finally:
            stop_server(server)
        tracebacks = logged_exceptions(log.read_text(errors="replace"))
    report = summarize(bench, player)
    report.update(
        {
            "server_alive": alive,
            "server_tracebacks": sum(tracebacks.values()),
            "server_exceptions": dict(tracebacks),
            "quick": args.quick,
            "seed": args.seed,
            "sizes": asdict(sizes),
            "server_args": args.server_arg,
            "server_nofile": args.server_nofile,
            "load_average": {"before": list(load_before), "after": list(os.getloadavg())},
            "machine": {
                "cpus": os.cpu_count(),
                "python": platform.python_version(),
                "system": f"{platform.system()} {platform.machine()}",
            },
        }
    )
    return report


def logged_exceptions(log: str) -> collections.Counter[str]:
    """The exceptions of the tracebacks in the server's log (their last line), counted."""
    found: collections.Counter[str] = collections.Counter()
    in_traceback = False
    for line in log.splitlines():
        if line.startswith("Traceback (most recent call last):"):
            in_traceback = True
        elif in_traceback and line and not line[0].isspace():
            found[line[:200]] += 1
            in_traceback = False
    return found


def finite(value: Any) -> Any:
    """``value`` with every infinite or NaN float as None (JSON has neither)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value


def attack_list(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in ATTACKS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"choose from {', '.join(ATTACKS)}")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="5 s attacks: about a minute")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--attacks",
        type=attack_list,
        default=list(ATTACKS),
        help=f"which attacks, in this order (default {','.join(ATTACKS)})",
    )
    parser.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="FLAG",
        help="one more flag for kartentisch serve (repeat it; write --server-arg=--flag=value)",
    )
    parser.add_argument(
        "--server-nofile",
        type=int,
        default=1024,
        help="the server's open-file limit (1024; 0: this process's own)",
    )
    parser.add_argument(
        "--idle-sockets",
        type=int,
        help="idle connections of the idle attack (1000)",
    )
    args = parser.parse_args(argv)
    if args.idle_sockets is not None and not 1 <= args.idle_sockets <= 10_000:
        parser.error("--idle-sockets must be 1..10000")
    report = measure(args)
    if args.json:
        print(json.dumps(finite(report), indent=2))
    else:
        print_report(report)
    return 0 if all(report["targets"].values()) and report["server_alive"] else 1


if __name__ == "__main__":
    sys.exit(main())
