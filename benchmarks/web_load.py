"""Web app load: many Slobberhannes tables played over real WebSockets against one server.

The benchmark starts one ``kartentisch serve`` process on a free loopback port
(a temporary SQLite data directory, bots without delay) and plays ``--tables``
tables at once. Every seat of every table is a client of this process that
speaks the browser's protocol over its own WebSocket: it says ``hello`` with
its seat token, waits for its turn, thinks for a random time (uniform in
0..2×``--think`` seconds; the default 0.8 s is the pace of the server's own
bots) and sends a random legal card with the state's version. The server's
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

Run: ``python benchmarks/web_load.py [--tables 200] [--seconds 60] [--think 0.8] [--json]``.
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
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

P99_TARGET_MS: Final = 100.0
#: Loopback needs no proxy (and looking for one in the environment costs a millisecond a socket).
NO_PROXY: Final[dict[str, Any]] = (
    {"proxy": None} if "proxy" in inspect.signature(connect).parameters else {}
)
#: A client that hears nothing for this long counts an error and gives up its table.
SILENCE_S: Final = 15.0
SEATS: Final = 4


@dataclass
class Run:
    """What the clients measured; shared by all of them (one event loop)."""

    base: str
    think: float
    max_matches: int
    latencies: list[float] = field(default_factory=list)
    #: How late this process's event loop woke up (10 ms ticks): the clients' own delay.
    lags: list[float] = field(default_factory=list)
    create_latencies: list[float] = field(default_factory=list)
    errors: collections.Counter[str] = field(default_factory=collections.Counter)
    deals: int = 0
    matches: int = 0
    matches_started: int = 0
    stopping: bool = False
    tables: int = 0

    def error(self, code: str) -> None:
        self.errors[code] += 1


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


def start_server(port: int, data_dir: Path, log: Path) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-m",
        "kartentisch.cli.main",
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


def stop_server(server: subprocess.Popen[bytes]) -> None:
    """SIGTERM, and SIGKILL if the server is not gone within 15 s."""
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
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return ticks / os.sysconf("SC_CLK_TCK")


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


async def post(run: Run, path: str, body: dict[str, Any], source: str) -> dict[str, Any]:
    """POST JSON on a connection of its own from address ``source``; the answer's JSON.

    A few lines of HTTP/1.1 on asyncio streams: an HTTP client library would cost
    this process more CPU than the server spends on the request.
    """
    host, port = run.base.rsplit(":", 1)
    data = json.dumps(body).encode()
    reader, writer = await asyncio.open_connection(host, int(port), local_addr=(source, 0))
    try:
        writer.write(
            f"POST {path} HTTP/1.1\r\nHost: {run.base}\r\nContent-Type: application/json\r\n"
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
        "game": "slobberhannes",
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
            f"ws://{run.base}/ws/tables/{table_id}",
            max_size=None,
            ping_interval=None,
            open_timeout=SILENCE_S,
            close_timeout=2,
            local_addr=(client_address(slot, seat), 0),
            **NO_PROXY,
        ) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
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


async def play_seat(
    run: Run, slot: int, table_id: str, seat: int, token: str, rng: random.Random
) -> None:
    """One seat of one table until its match is over."""
    async with open_seat(run, slot, seat, table_id, token) as ws:
        acted = -1  # the version this seat last acted on
        sent_at: float | None = None
        deals = 0
        while True:
            if run.stopping:
                return
            message = await receive(run, ws)
            if message is None:
                return
            if message["type"] == "error":
                run.error(str(message.get("code")))
                continue
            if message["type"] != "state":
                continue
            version: int = message["version"]
            if sent_at is not None and version > acted:
                if not run.stopping:
                    run.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            view = message["view"]
            if view is None:
                continue
            if seat == 0 and len(view["deals"]) > deals:
                run.deals += len(view["deals"]) - deals
                deals = len(view["deals"])
            if view["over"]:
                if seat == 0:
                    run.matches += 1
                return
            if view["to_move"] != seat or version <= acted:
                continue
            if run.think > 0:
                await asyncio.sleep(rng.uniform(0, 2 * run.think))
            if run.stopping:
                return
            acted = version
            action = rng.choice(view["legal"])
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


async def drive(run: Run, tables: int, seconds: float, seed: int, ramp: float) -> float:
    """Play for ``seconds``, then stop every client; return the seconds played."""
    watcher = asyncio.create_task(watch_loop(run))
    start = time.perf_counter()

    async def staggered(i: int) -> None:
        await asyncio.sleep(ramp * i / tables)  # the tables start spread over ``ramp`` seconds
        await table_slot(run, i, seed)

    tasks = [asyncio.create_task(staggered(i)) for i in range(tables)]
    await asyncio.wait(tasks, timeout=seconds)
    elapsed = time.perf_counter() - start
    # Clients see the flag at their next message or turn; whatever still waits is cancelled.
    run.stopping = True
    await cancel_all(tasks)
    watcher.cancel()
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
        server = start_server(port, Path(tmp), Path(tmp) / "server.log")
        try:
            time.sleep(0.5)
            memory_before = memory_kib(server.pid)
            cpu_before = cpu_seconds(server.pid)
            wait_before = cpu_wait_seconds(server.pid)
            run = Run(base=f"127.0.0.1:{port}", think=args.think, max_matches=args.max_matches)
            client_cpu = time.process_time()
            with asyncio.Runner(loop_factory=client_event_loop()) as runner:
                elapsed = runner.run(drive(run, args.tables, args.seconds, args.seed, args.ramp))
            client_cpu = time.process_time() - client_cpu
            time.sleep(0.5)
            server_cpu = cpu_seconds(server.pid) - cpu_before
            server_wait = cpu_wait_seconds(server.pid) - wait_before
            memory_after = memory_kib(server.pid)
            alive = server.poll() is None
        finally:
            stop_server(server)
    if not alive:
        run.error("server_died")
    ordered = sorted(run.latencies)
    lags = sorted(x * 1000 for x in run.lags)
    ms = [x * 1000 for x in ordered]
    create = sorted(run.create_latencies)
    return {
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
        ("tables × clients", f"{r['tables']} × {SEATS} = {r['clients']} WebSockets"),
        ("duration", f"{r['seconds']:.1f} s (think {r['think_s']} s on average)"),
        ("actions", f"{r['actions']:,} ({r['actions_per_s']:,.0f}/s)"),
        (
            "round trip p50 / p90 / p99",
            f"{rt['p50']:.1f} / {rt['p90']:.1f} / {rt['p99']:.1f} ms (max {rt['max']:.0f})",
        ),
        ("errors", f"{r['errors']} {r['error_codes'] or ''}".strip()),
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
