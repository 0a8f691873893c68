"""Web app load: many tables played over real WebSockets against one server.

The benchmark starts one ``kartentisch serve`` process on a free loopback port
(a temporary SQLite data directory, bots without delay) and plays ``--tables``
tables of ``--game`` at once (Slobberhannes; Doppelkopf, house rules; Slapjack in
real time). Every seat of every table is a client of this process that
speaks the browser's protocol over its own WebSocket: it says ``hello`` with
its seat token, waits for its turn, thinks for a random time (uniform in
0..2×``--think`` seconds; the default 0.8 s is the pace of the server's own
bots) and sends a random legal card with the state's version (Doppelkopf: healthy,
no announcements; Slapjack: it turns its card after thinking and slaps a jack at
once, and races it loses are counted apart). The server's
own bots take no seat, so every action is a person's action and goes the
whole way: parse, the table's lock, the version check, the engine, the store
(committed in SQLite before anyone is told; the actions of one turn of the
server's event loop share a transaction), then a view per seat sent to all
four connections. When a match ends the table's four clients open the next
table; after ``--seconds`` every client stops and the figures are taken.
Each player connects from a loopback address of its own (127.x.y.z), as
people do from their own computers, so the server's limits per address
apply per player. The clients run in this one process (on uvloop when it is
installed); their event loop's lag is reported so that a client that cannot
keep up shows.

* round trip: from sending ``act`` to receiving the ``state`` with the new
  version on the same connection (p50/p90/p99/max); target: p99 under 100 ms
* errors: every ``error`` message (by code), refused request (by HTTP
  status), dropped connection, a lobby request or WebSocket opening unanswered
  for 15 s, or a client hearing nothing for 15 s; target: none
* deals (32 cards) and matches (until someone has 10 penalties) completed per
  second
* the server's resident memory (``/proc/<pid>/status``) before the clients
  come, its peak, and after they have gone; its CPU time, and how long it was
  runnable but waited for a CPU (``/proc/<pid>/schedstat``); the load average

Run: ``python benchmarks/web_load.py [--tables 200] [--game slobberhannes] [--seconds 60]
[--think 0.8] [--profile FILE] [--json]``. With ``--profile`` the server runs under the
sampling profiler of ``benchmarks/profiled_serve.py``, which keeps the samples from
the steady state on (3 s after the last table's setup) to the clients' stop.
Loopback only; it stops by itself after ``--seconds`` (or ``--max-matches``).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import http.client
import inspect
import json
import os
import platform
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from kartentisch.web.statepatch import apply_patch

P99_TARGET_MS: Final = 100.0
#: Loopback needs no proxy (and looking for one in the environment costs a millisecond a socket).
NO_PROXY: Final[dict[str, Any]] = (
    {"proxy": None} if "proxy" in inspect.signature(connect).parameters else {}
)
#: A client that hears nothing for this long counts an error and gives up its table.
SILENCE_S: Final = 15.0
SEATS: Final = 4
#: The lobby request of each game's tables (``--game``), the seats added.
GAMES: Final[dict[str, dict[str, Any]]] = {
    "slobberhannes": {"game": "slobberhannes"},
    "doppelkopf": {"game": "doppelkopf", "options": {"preset": "house"}},
    "slapjack": {"game": "slapjack", "options": {"time_limit": 2}},
}
#: Doppelkopf's announcements: the clients never make them (any seat may, at any time).
ANNOUNCEMENTS: Final = frozenset({"re", "kontra", "no90", "no60", "no30", "schwarz"})
#: What a real-time table refuses in a race (a card turned or slapped meanwhile): play,
#: counted apart, not an error.
RACE_REFUSALS: Final = frozenset(
    {"stale_card", "too_fast", "already_slapped", "not_your_turn", "empty_pile"}
)
#: Seconds after the last table's setup before the steady state's CPU time is counted.
STEADY_AFTER_S: Final = 3.0


@dataclass
class Run:
    """What the clients measured; shared by all of them (one event loop)."""

    base: str
    think: float
    max_matches: int
    game: str = "slobberhannes"
    #: Whether the clients take state patches (as the browser does) or whole states only.
    patches: bool = False
    #: Real-time race refusals by code (:data:`RACE_REFUSALS`).
    races: collections.Counter[str] = field(default_factory=collections.Counter)
    latencies: list[float] = field(default_factory=list)
    #: How late this process's event loop woke up (10 ms ticks): the clients' own delay.
    lags: list[float] = field(default_factory=list)
    create_latencies: list[float] = field(default_factory=list)
    #: The server's CPU seconds and the actions measured when every table had been set up
    #: and play had settled (the steady state's start), if the run got that far.
    steady_mark: tuple[float, int] | None = None
    #: The server's system CPU seconds at the steady mark; at the end, those since then.
    steady_system: float | None = None
    #: Whether the server runs under benchmarks/profiled_serve.py.
    profiled: bool = False
    #: The same when the clients stopped.
    steady_end: tuple[float, int] | None = None
    errors: collections.Counter[str] = field(default_factory=collections.Counter)
    deals: int = 0
    matches: int = 0
    matches_started: int = 0
    stopping: bool = False
    tables: int = 0
    #: The server (``host:port``) each seat talks to, lobby and WebSocket, when the
    #: seats talk to different processes of a cluster (benchmarks/web_cluster.py); the
    #: table is created through ``base``. Empty: every seat talks to ``base``.
    seat_bases: tuple[str, ...] = ()

    def error(self, code: str) -> None:
        self.errors[code] += 1

    def seat_base(self, seat: int) -> str:
        """The server seat ``seat`` talks to."""
        return self.seat_bases[seat] if self.seat_bases else self.base


def client_event_loop() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop, the server's own event loop (uvicorn[standard]), when present; else asyncio's."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvicorn[standard] brings it on Linux
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


# -- the server -----------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(
    port: int,
    data_dir: Path,
    log: Path,
    profile: Path | None = None,
    options: Sequence[str] = (),
) -> subprocess.Popen[bytes]:
    """``kartentisch serve`` on ``port`` with more ``options`` of ``serve``; under a
    sampling profiler (its stacks written to ``profile`` when the server stops) if
    ``profile`` is given."""
    # (A profiled server runs under benchmarks/profiled_serve.py, its sampling profiler.)
    profiler = [str(Path(__file__).with_name("profiled_serve.py")), str(profile), "--"]
    command = [
        sys.executable,
        *(["-m", "kartentisch.cli.main"] if profile is None else profiler),
        "serve",
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
        "--bot-delay",
        "0",
        "--grace",
        "3600",
        "--log-level",
        "warning",
        *options,
    ]
    with log.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    return wait_until_serving(proc, port, log)


def wait_until_serving(
    proc: subprocess.Popen[bytes], port: int, log: Path, host: str = "127.0.0.1"
) -> subprocess.Popen[bytes]:
    """``proc`` once its /healthz answers (its log is shown if it exits first)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("the server exited:\n" + log.read_text(errors="replace"))
        try:
            probe = http.client.HTTPConnection(host, port, timeout=1)
            try:
                probe.request("GET", "/healthz")
                if probe.getresponse().status == 200:
                    return proc
            finally:
                probe.close()
        except OSError:
            pass
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the server did not start within 60 s")


def raise_open_files(clients: int) -> None:
    """Allow the open files ``clients`` WebSockets take: 2 sockets per client, here and in
    the server (which inherits the limit), with room to spare."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, max(soft, 4 * clients + 256))
    if wanted > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def stop_server(server: subprocess.Popen[bytes], interrupt: bool = False) -> None:
    """SIGTERM (SIGINT if ``interrupt``: a profiled server then writes its statistics), and
    SIGKILL if the server is not gone within 15 s."""
    if interrupt:
        server.send_signal(signal.SIGINT)
    else:
        server.terminate()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def memory_kib(pid: int) -> dict[str, int]:
    """VmRSS (now) and VmHWM (peak) of ``pid`` in KiB, from /proc."""
    found: dict[str, int] = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0])
    return found


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of ``pid`` so far."""
    user, system = cpu_user_system(pid)
    return user + system


def cpu_user_system(pid: int) -> tuple[float, float]:
    """User and system (the kernel's, for the process) CPU time of ``pid`` so far."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick  # utime, stime (fields 14 and 15)


def cpu_wait_seconds(pid: int) -> float:
    """How long ``pid`` has waited, runnable, for a CPU (the kernel's schedstat run delay)."""
    try:
        with open(f"/proc/{pid}/schedstat", encoding="ascii") as schedstat:
            return int(schedstat.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return float("nan")


# -- the clients ------------------------------------------------------------------


class HTTPFailure(Exception):
    """A lobby request that was not answered with success."""


def client_address(slot: int, seat: int) -> str:
    """The loopback address seat ``seat`` of table slot ``slot`` connects from.

    Every player is a client address of its own (all of 127.0.0.0/8 is
    loopback), as people at their own computers are: the server's limits per
    address (lobby requests) apply to each player, not to the whole benchmark.
    """
    return f"127.{1 + slot // 250}.{1 + slot % 250}.{1 + seat}"


async def post(
    run: Run, path: str, body: dict[str, Any], source: str, base: str | None = None
) -> dict[str, Any]:
    """POST JSON to ``base`` (``run.base`` if not given) on a connection of its own from
    address ``source``; the answer's JSON.

    A few lines of HTTP/1.1 on asyncio streams: an HTTP client library would cost
    this process more CPU than the server spends on the request.
    """
    base = base or run.base
    host, port = base.rsplit(":", 1)
    data = json.dumps(body).encode()
    reader, writer = await asyncio.open_connection(host, int(port), local_addr=(source, 0))
    try:
        writer.write(
            f"POST {path} HTTP/1.1\r\nHost: {base}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode()
            + data
        )
        await writer.drain()
        async with asyncio.timeout(SILENCE_S):
            answer = await reader.read()
    finally:
        writer.close()
    head, _, payload = answer.partition(b"\r\n\r\n")
    status = head.split(b" ", 2)[1] if head.startswith(b"HTTP/") else b"?"
    if not status.startswith(b"2"):
        raise HTTPFailure(f"http_{status.decode(errors='replace')}")
    result: dict[str, Any] = json.loads(payload)
    return result


async def new_table(run: Run, slot: int) -> tuple[str, list[str]]:
    """A table of four open seats taken by four clients: its id and the seat tokens."""
    start = time.perf_counter()
    body = {
        **GAMES[run.game],
        "name": "Seat 1",
        "seats": [{"kind": "you"}] + [{"kind": "open"}] * (SEATS - 1),
    }
    created = await post(run, "/api/tables", body, client_address(slot, 0))
    tokens = [created["token"]]
    for seat in range(1, SEATS):
        joined = await post(
            run,
            f"/api/tables/{created['id']}/join",
            {"name": f"Seat {seat + 1}", "seat": seat},
            client_address(slot, seat),
            run.seat_base(seat),
        )
        tokens.append(joined["token"])
    run.create_latencies.append(time.perf_counter() - start)
    run.tables += 1
    table_id: str = created["id"]
    return table_id, tokens


def open_seat(
    run: Run, slot: int, seat: int, table_id: str, token: str
) -> AbstractAsyncContextManager[ClientConnection]:
    """A WebSocket to ``table_id`` from the client address of ``slot``/``seat``; it says hello."""

    @contextlib.asynccontextmanager
    async def opened() -> AsyncIterator[ClientConnection]:
        async with connect(
            f"ws://{run.seat_base(seat)}/ws/tables/{table_id}",
            max_size=None,
            ping_interval=None,
            open_timeout=SILENCE_S,
            close_timeout=2,
            local_addr=(client_address(slot, seat), 0),
            **NO_PROXY,
        ) as ws:
            hello: dict[str, Any] = {"type": "hello", "token": token}
            if run.patches:
                hello["patches"] = True  # as the browser says it
            await ws.send(json.dumps(hello))
            yield ws

    return opened()


async def receive(run: Run, ws: ClientConnection) -> dict[str, Any] | None:
    """The next message, or None after ``SILENCE_S`` of silence (an error unless stopping)."""
    try:
        # (not asyncio.wait_for: in Python 3.11 it can swallow a cancellation)
        async with asyncio.timeout(SILENCE_S):
            raw = await ws.recv()
    except TimeoutError:
        if not run.stopping:
            run.error("silence")
        return None
    message: dict[str, Any] = json.loads(raw)
    return message


def choose(
    game: str, seat: int, view: dict[str, Any], rng: random.Random
) -> tuple[str, bool] | None:
    """The seat's action in ``view`` and whether to send it at once, or None.

    Slobberhannes: a random legal card on its turn. Doppelkopf: healthy when asked,
    else a random legal action but an announcement. Slapjack (real time): a jack on
    top is slapped at once; otherwise the seat to turn turns after thinking.
    """
    legal: list[str] = view["legal"]
    if game == "slapjack":
        top = view.get("top")
        if "slap" in legal and top is not None and top.startswith("J"):
            return "slap", True
        return ("turn", False) if "turn" in legal else None
    if view["to_move"] != seat or not legal:
        return None
    if game == "doppelkopf":
        moves = [a for a in legal if a not in ANNOUNCEMENTS]
        if "pass" in moves:
            return "pass", False
        return (rng.choice(moves), False) if moves else None
    return rng.choice(legal), False


async def play_seat(
    run: Run, slot: int, table_id: str, seat: int, token: str, rng: random.Random
) -> None:
    """One seat of one table until its match is over."""
    async with open_seat(run, slot, seat, table_id, token) as ws:
        acted = -1  # the version this seat last acted on
        readied = -1  # the version this seat last said ``ready`` on
        sent_at: float | None = None
        deals = 0
        held: dict[str, Any] | None = None  # the state as this seat holds it (patches)
        resyncing = False
        while True:
            if run.stopping:
                return
            message = await receive(run, ws)
            if message is None:
                return
            if message["type"] == "ping":
                await ws.send(json.dumps({"type": "pong", "nonce": message["nonce"]}))
                continue
            if message["type"] == "error":
                code = str(message.get("code"))
                if run.game == "slapjack" and code in RACE_REFUSALS:
                    run.races[code] += 1
                    sent_at = None
                else:
                    run.error(code)
                continue
            if message["type"] == "patch":
                # The state as the browser makes it: the one held with the changes applied.
                if held is None or held["version"] != message["base"]:
                    if not resyncing:
                        resyncing = True
                        await ws.send(json.dumps({"type": "resync"}))
                    continue
                if resyncing:
                    continue
                message = apply_patch(held, message)
            elif message["type"] == "state":
                resyncing = False
            else:
                continue
            held = message
            version: int = message["version"]
            if sent_at is not None and version > acted:
                if not run.stopping:
                    run.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            view = message["view"]
            if view is None:
                continue
            finished = len(view.get("deals") or ())
            if seat == 0 and finished > deals:
                run.deals += finished - deals
                deals = finished
            if view["over"]:
                if seat == 0:
                    run.matches += 1
                return
            between = message["table"].get("between_deals")
            if between is not None:
                # The next deal waits until everyone has seen the last one's summary.
                if seat in between["waiting"] and version > readied:
                    readied = version
                    await ws.send(json.dumps({"type": "ready", "version": version}))
                continue
            chosen = choose(run.game, seat, view, rng)
            if chosen is None or version <= acted:
                continue
            action, at_once = chosen
            if run.think > 0 and not at_once:
                await asyncio.sleep(rng.uniform(0, 2 * run.think))
            if run.stopping:
                return
            acted = version
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "action": action, "version": version}))


async def table_slot(run: Run, index: int, seed: int) -> None:
    """Tables one after another, four clients each, until cancelled."""
    rng = random.Random(seed * 100_003 + index)
    while not run.stopping and run.matches_started < run.max_matches:
        run.matches_started += 1
        try:
            table_id, tokens = await new_table(run, index)
            async with asyncio.TaskGroup() as seats:  # one seat failing ends the table's others
                for s in range(SEATS):
                    seats.create_task(play_seat(run, index, table_id, s, tokens[s], rng))
        except* (HTTPFailure, WebSocketException, OSError, TimeoutError) as failures:
            for failure in failures.exceptions:
                run.error(
                    str(failure) if isinstance(failure, HTTPFailure) else type(failure).__name__
                )
            await asyncio.sleep(1)


async def watch_loop(run: Run) -> None:
    """Measure how late the clients' event loop wakes up: if it lags, so do the round trips."""
    while True:
        start = time.perf_counter()
        await asyncio.sleep(0.01)
        run.lags.append(time.perf_counter() - start - 0.01)


async def mark_steady(run: Run, server_pid: int, tables: int) -> None:
    """Note the server's CPU time and the actions so far once every table has been set up
    and ``STEADY_AFTER_S`` more have passed: from then on the server only plays."""
    while run.tables < tables:
        await asyncio.sleep(0.1)
    await asyncio.sleep(STEADY_AFTER_S)
    run.steady_mark = (cpu_seconds(server_pid), len(run.latencies))
    run.steady_system = cpu_user_system(server_pid)[1]
    if run.profiled:
        os.kill(server_pid, signal.SIGUSR1)  # the profile: from now on (profiled_serve.py)


async def drive(
    run: Run, tables: int, seconds: float, seed: int, ramp: float, server_pid: int
) -> float:
    """Play for ``seconds``, then stop every client; return the seconds played."""
    watcher = asyncio.create_task(watch_loop(run))
    steady = asyncio.create_task(mark_steady(run, server_pid, tables))
    start = time.perf_counter()

    async def staggered(i: int) -> None:
        await asyncio.sleep(ramp * i / tables)  # the tables start spread over ``ramp`` seconds
        await table_slot(run, i, seed)

    tasks = [asyncio.create_task(staggered(i)) for i in range(tables)]
    await asyncio.wait(tasks, timeout=seconds)
    elapsed = time.perf_counter() - start
    # Clients see the flag at their next message or turn; whatever still waits is cancelled.
    run.stopping = True
    run.steady_end = (cpu_seconds(server_pid), len(run.latencies))
    if run.steady_system is not None:
        run.steady_system = cpu_user_system(server_pid)[1] - run.steady_system
    if run.profiled:
        os.kill(server_pid, signal.SIGUSR2)  # the profile ends here
    await cancel_all(tasks)
    watcher.cancel()
    steady.cancel()
    return elapsed


async def cancel_all(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel the tasks not done yet, again until every one has ended."""
    pending = {t for t in tasks if not t.done()}
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=5)


# -- the report ---------------------------------------------------------------------


def percentile(ordered: list[float], q: float) -> float:
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(args: argparse.Namespace) -> dict[str, Any]:
    raise_open_files(args.tables * SEATS)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="kartentisch-load-") as tmp:
        port = free_port()
        server = start_server(port, Path(tmp), Path(tmp) / "server.log", args.profile)
        try:
            time.sleep(0.5)
            memory_before = memory_kib(server.pid)
            cpu_before = cpu_seconds(server.pid)
            wait_before = cpu_wait_seconds(server.pid)
            run = Run(
                base=f"127.0.0.1:{port}",
                think=args.think,
                max_matches=args.max_matches,
                game=args.game,
                patches=not args.full_states,
                profiled=args.profile is not None,
            )
            client_cpu = time.process_time()
            with asyncio.Runner(loop_factory=client_event_loop()) as runner:
                elapsed = runner.run(
                    drive(run, args.tables, args.seconds, args.seed, args.ramp, server.pid)
                )
            client_cpu = time.process_time() - client_cpu
            time.sleep(0.5)
            server_cpu = cpu_seconds(server.pid) - cpu_before
            server_wait = cpu_wait_seconds(server.pid) - wait_before
            memory_after = memory_kib(server.pid)
            alive = server.poll() is None
        finally:
            stop_server(server, interrupt=args.profile is not None)
    if not alive:
        run.error("server_died")
    ordered = sorted(run.latencies)
    lags = sorted(x * 1000 for x in run.lags)
    ms = [x * 1000 for x in ordered]
    create = sorted(run.create_latencies)
    steady: dict[str, float] | None = None
    if run.steady_mark is not None and run.steady_end is not None:
        cpu = run.steady_end[0] - run.steady_mark[0]
        actions = run.steady_end[1] - run.steady_mark[1]
        steady = {
            "cpu_s": cpu,
            "actions": actions,
            "cpu_ms_per_action": cpu * 1000 / actions if actions else float("nan"),
            # Of which in the kernel (sockets, the database's file): system CPU time.
            "system_cpu_s": run.steady_system or 0.0,
        }
    return {
        "game": args.game,
        "patches": not args.full_states,
        "tables": args.tables,
        "clients": args.tables * SEATS,
        "seconds": round(elapsed, 2),
        "think_s": args.think,
        "seed": args.seed,
        "actions": len(ordered),
        "actions_per_s": len(ordered) / elapsed,
        "round_trip_ms": {
            "p50": percentile(ms, 0.50),
            "p90": percentile(ms, 0.90),
            "p99": percentile(ms, 0.99),
            "max": ms[-1] if ms else float("nan"),
            "mean": statistics.fmean(ms) if ms else float("nan"),
        },
        "table_setup_ms": {
            "p50": percentile(create, 0.5) * 1000,
            "p99": percentile(create, 0.99) * 1000,
            "count": run.tables,
        },
        "errors": sum(run.errors.values()),
        "error_codes": dict(run.errors),
        "race_refusals": dict(run.races),
        "deals": run.deals,
        "deals_per_s": run.deals / elapsed,
        "matches": run.matches,
        "matches_per_s": run.matches / elapsed,
        "server_rss_mib": {
            "before": memory_before["VmRSS"] / 1024,
            "peak": memory_after["VmHWM"] / 1024,
            "after": memory_after["VmRSS"] / 1024,
        },
        "server_cpu_s": server_cpu,
        "server_cores": server_cpu / elapsed,
        "server_cpu_wait_s": server_wait,
        "server_cpu_ms_per_action": server_cpu * 1000 / len(ordered) if ordered else float("nan"),
        # Play alone: from STEADY_AFTER_S after the last table's setup to the end.
        "server_steady": steady,
        "server_rss_kib_per_table": (memory_after["VmHWM"] - memory_before["VmRSS"]) / args.tables,
        "client_loop_lag_ms": {"p50": percentile(lags, 0.5), "p99": percentile(lags, 0.99)},
        "client_cpu_s": client_cpu,
        "load_average": {"before": list(load_before), "after": list(os.getloadavg())},
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "system": f"{platform.system()} {platform.machine()}",
            "client_event_loop": "asyncio" if client_event_loop() is None else "uvloop",
        },
        "target_p99_ms": P99_TARGET_MS,
        "target_met": bool(ms) and percentile(ms, 0.99) < P99_TARGET_MS and not run.errors,
    }


def print_table(r: dict[str, Any]) -> None:
    rt = r["round_trip_ms"]
    mem = r["server_rss_mib"]
    load = r["load_average"]
    rows = [
        (
            "tables × clients",
            f"{r['tables']} {r['game']} × {SEATS} = {r['clients']} WebSockets",
        ),
        ("duration", f"{r['seconds']:.1f} s (think {r['think_s']} s on average)"),
        ("actions", f"{r['actions']:,} ({r['actions_per_s']:,.0f}/s)"),
        (
            "round trip p50 / p90 / p99",
            f"{rt['p50']:.1f} / {rt['p90']:.1f} / {rt['p99']:.1f} ms (max {rt['max']:.0f})",
        ),
        ("errors", f"{r['errors']} {r['error_codes'] or ''}".strip()),
        ("real-time race refusals", f"{sum(r['race_refusals'].values())} {r['race_refusals']}"),
        ("deals completed", f"{r['deals']:,} ({r['deals_per_s']:.2f}/s)"),
        ("matches completed", f"{r['matches']:,} ({r['matches_per_s']:.3f}/s)"),
        (
            "table setup p50 / p99",
            f"{r['table_setup_ms']['p50']:.0f} / {r['table_setup_ms']['p99']:.0f} ms "
            f"({r['table_setup_ms']['count']} tables: create + 3 joins)",
        ),
        (
            "server RSS before / peak / after",
            f"{mem['before']:.0f} / {mem['peak']:.0f} / {mem['after']:.0f} MiB",
        ),
        (
            "server CPU",
            f"{r['server_cpu_s']:.1f} s ({r['server_cores']:.2f} cores, "
            f"{r['server_cpu_ms_per_action']:.1f} ms per action, setup included)",
        ),
        (
            "server CPU per action, play alone",
            "n/a (the run ended before the tables were all set up)"
            if r["server_steady"] is None
            else f"{r['server_steady']['cpu_ms_per_action']:.2f} ms "
            f"({r['server_steady']['actions']:,} actions from {STEADY_AFTER_S:.0f} s after "
            "the last table's setup; "
            f"{r['server_steady']['system_cpu_s'] / max(r['server_steady']['cpu_s'], 1e-9):.0%} "
            "in the kernel)",
        ),
        ("server RSS per table", f"{r['server_rss_kib_per_table']:.0f} KiB (peak - before)"),
        (
            "server waiting for a CPU",
            f"{r['server_cpu_wait_s']:.1f} s (runnable, but other processes had the cores)",
        ),
        (
            "clients: CPU, loop lag p50 / p99",
            f"{r['client_cpu_s']:.1f} s, {r['client_loop_lag_ms']['p50']:.1f} / "
            f"{r['client_loop_lag_ms']['p99']:.1f} ms",
        ),
        (
            "load average before / after",
            " / ".join(" ".join(f"{x:.2f}" for x in load[k]) for k in ("before", "after")),
        ),
    ]
    width = max(len(k) for k, _ in rows)
    print(f"Web app load ({r['machine']['cpus']} CPUs, Python {r['machine']['python']})")
    for key, value in rows:
        print(f"  {key:<{width}}  {value}")
    verdict = "met" if r["target_met"] else "MISSED"
    print(f"Target p99 < {P99_TARGET_MS:.0f} ms with no errors: {verdict}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables at once (200)")
    parser.add_argument(
        "--game", choices=sorted(GAMES), default="slobberhannes", help="the tables' game"
    )
    parser.add_argument("--seconds", type=float, default=60, help="how long to play (60)")
    parser.add_argument(
        "--think",
        type=float,
        default=0.8,
        help="mean think time per action in s (0.8: the pace of the server's own bots)",
    )
    parser.add_argument("--ramp", type=float, default=5, help="tables start over this many s (5)")
    parser.add_argument(
        "--max-matches", type=int, default=10_000, help="stop opening tables after this many"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="run the server under a sampling profiler (benchmarks/profiled_serve.py) and "
        "write the stacks it found to this file, one line per stack with its count",
    )
    parser.add_argument(
        "--full-states",
        action="store_true",
        help="the clients take whole states only (no state patches: the protocol before them)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 1000 or args.seconds <= 0 or args.think < 0:
        parser.error("--tables must be 1..1000, --seconds positive, --think not negative")
    result = measure(args)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)
    return 1 if result["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
