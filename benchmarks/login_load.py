"""Logins: what one Argon2id hash costs, and how the server fares under a flood of logins.

Three measurements, on loopback only (127.0.0.1):

1. **One hash**: ``HASHER.hash`` and ``HASHER.verify``
   (:mod:`kartentisch.accounts.passwords`) timed here, in this process,
   ``--hash-runs`` times each (median, p95, min, max). The parameters are meant
   to make one take 50–100 ms on the 2-core machine the server is measured on.
2. **Logins under load**: one server process (``uvicorn.run(create_app(...))`` on a
   free port, a fresh temporary data directory, the rate limits of logins and
   sign-ups lifted because all the load comes from one address: what is measured
   is the hashing path, at most ``HASH_SLOTS`` hashes at once and ``busy`` (503)
   when more than ``MAX_HASH_QUEUE`` wait). First ``--accounts`` accounts are
   signed up (``user0001``…, one password; a few at a time, a ``busy`` answer is
   retried). Then this process offers logins at ``--rate`` a second for
   ``--seconds`` on an open-loop schedule: each login starts at its scheduled time
   whatever happened to the earlier ones, for an account drawn from
   ``random.Random(--seed)``, with the CSRF header that ``GET /api/me`` gave.
   Each answer is counted by status (200, 401, 503 ``busy``, another status, or an
   error: no answer within 10 s of sending it, a refused or dropped connection)
   and timed from its scheduled start (so that a late start of the client counts
   too): p50/p95/p99/max of the successful logins, of the ``busy`` answers and of
   all. This process's own lateness (sending, event-loop lag) is reported apart.
3. **The server stays responsive**: during the logins, ``GET /healthz`` is asked
   every 100 ms (also open-loop) and timed; its p50/p99/max and failures. The
   server's CPU time (``/proc/<pid>/stat``, utime + stime) over the login phase,
   divided by its wall time, gives the cores it used; this process's own CPU time
   and the load average (``os.getloadavg()``) before and after show what else ran.

Run: ``.venv/bin/python benchmarks/login_load.py --seconds 30`` (options:
``--rate 100 --seconds 30 --accounts 200 --seed 0 --json``); about a minute with
the defaults. It stops by itself: the server is terminated and the data directory
removed at the end. Exit status 1 when no login succeeded, a request failed (no
answer, a connection error) or the server died; 0 otherwise (``busy`` answers are
the server protecting itself, not failures).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import http.client
import http.cookiejar
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import httpx

from kartentisch.accounts.passwords import HASHER
from kartentisch.web.accounts import HASH_SLOTS, MAX_HASH_QUEUE

sys.path.insert(0, str(Path(__file__).resolve().parent))

from web_load import free_port, stop_server, wait_until_serving

PASSWORD: Final = "benchmark password"
#: A request unanswered this long after it was sent counts as an error (``timeout``).
REQUEST_TIMEOUT_S: Final = 10.0
#: The load generator's event loop is woken this often to see how late it runs.
LAG_TICK_S: Final = 0.01
HEALTH_INTERVAL_S: Final = 0.1
#: Sign-ups in flight at once: enough to keep the hash slots busy, few enough to stay
#: under the queue limit.
SIGNUP_CONCURRENCY: Final = 2 * HASH_SLOTS

#: The server: ``create_app`` with every login and sign-up limit lifted, on uvicorn.
SERVER_SCRIPT: Final = """
import dataclasses, sys
import uvicorn
from kartentisch.web.app import create_app
from kartentisch.web.protocol import Limits

big = 10**9
limits = dataclasses.replace(
    Limits(),
    login_burst=big,
    logins_per_second=big,
    account_login_burst=big,
    account_logins_per_second=big,
    signup_burst=big,
    signups_per_second=big,
)
app = create_app(data_dir=sys.argv[1], limits=limits)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


# -- the server ---------------------------------------------------------------------


def start_server(port: int, data_dir: Path, log: Path) -> subprocess.Popen[bytes]:
    """The server in a process of its own, once its ``/healthz`` answers."""
    command = [sys.executable, "-c", SERVER_SCRIPT, str(data_dir), str(port)]
    with log.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    return wait_until_serving(proc, port, log)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of ``pid`` so far."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return ticks / os.sysconf("SC_CLK_TCK")


def cpu_wait_seconds(pid: int) -> float:
    """How long the threads of ``pid`` alive now (the event loop and the hashing threads)
    have waited, runnable, for a CPU: the sum of the kernel's schedstat run delays."""
    total = 0.0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat", encoding="ascii") as schedstat:
                total += int(schedstat.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return float("nan")
    return total


# -- statistics ---------------------------------------------------------------------


def percentile(ordered: list[float], q: float) -> float:
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary_ms(seconds: list[float]) -> dict[str, float | int]:
    ms = sorted(x * 1000 for x in seconds)
    return {
        "count": len(ms),
        "p50": percentile(ms, 0.50),
        "p95": percentile(ms, 0.95),
        "p99": percentile(ms, 0.99),
        "max": ms[-1] if ms else float("nan"),
    }


# -- 1. one hash ----------------------------------------------------------------------


def time_hashing(runs: int) -> dict[str, Any]:
    """``HASHER.hash`` and ``HASHER.verify``, ``runs`` times each, in this process."""
    hashes: list[float] = []
    verifies: list[float] = []
    stored = HASHER.hash(PASSWORD)  # (a first call, not timed)
    for _ in range(runs):
        start = time.perf_counter()
        stored = HASHER.hash(PASSWORD)
        hashes.append(time.perf_counter() - start)
        start = time.perf_counter()
        HASHER.verify(stored, PASSWORD)
        verifies.append(time.perf_counter() - start)

    def stats(values: list[float]) -> dict[str, float]:
        ms = sorted(x * 1000 for x in values)
        return {
            "p50": statistics.median(ms),
            "p95": percentile(ms, 0.95),
            "min": ms[0],
            "max": ms[-1],
        }

    return {
        "runs": runs,
        "parameters": {
            "type": HASHER.type.name,
            "time_cost": HASHER.time_cost,
            "memory_kib": HASHER.memory_cost,
            "parallelism": HASHER.parallelism,
        },
        "hash_ms": stats(hashes),
        "verify_ms": stats(verifies),
    }


# -- 2. and 3. the load -------------------------------------------------------------


@dataclass
class Load:
    """What the load generator saw; shared by its tasks (one event loop)."""

    offered: int = 0
    statuses: collections.Counter[str] = field(default_factory=collections.Counter)
    ok_latencies: list[float] = field(default_factory=list)
    busy_latencies: list[float] = field(default_factory=list)
    answer_latencies: list[float] = field(default_factory=list)
    #: How late each login was sent after its scheduled time (this process's own delay).
    send_lags: list[float] = field(default_factory=list)
    health_latencies: list[float] = field(default_factory=list)
    health_failures: collections.Counter[str] = field(default_factory=collections.Counter)
    #: How late this process's event loop woke up (10 ms ticks).
    loop_lags: list[float] = field(default_factory=list)


def new_client(base: str, connections: int) -> httpx.AsyncClient:
    """A client that keeps no cookies (each request names its own) and trusts no proxy."""
    no_cookies = http.cookiejar.CookieJar(
        policy=http.cookiejar.DefaultCookiePolicy(allowed_domains=[])
    )
    return httpx.AsyncClient(
        base_url=base,
        timeout=REQUEST_TIMEOUT_S,
        limits=httpx.Limits(max_connections=connections, max_keepalive_connections=connections),
        cookies=no_cookies,
        trust_env=False,
    )


async def csrf_headers(client: httpx.AsyncClient) -> dict[str, str]:
    """The CSRF cookie and header, as the page sends them after ``GET /api/me``."""
    me = await client.get("/api/me")
    me.raise_for_status()
    token: str = me.json()["csrf"]
    return {"cookie": f"kt_csrf={token}", "x-csrf-token": token}


def account(index: int) -> str:
    return f"user{index + 1:04d}"


def classify(response: httpx.Response) -> str:
    """``200``, ``401``, ``503 busy`` or the status and error code of another answer."""
    if response.status_code in (200, 401):
        return str(response.status_code)
    try:
        code = response.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        code = "?"
    return f"{response.status_code} {code}"


async def sign_up_all(client: httpx.AsyncClient, count: int) -> dict[str, Any]:
    """Sign up ``count`` accounts, a few at a time; a ``busy`` answer is tried again."""
    headers = await csrf_headers(client)
    todo = list(range(count))
    retries: collections.Counter[str] = collections.Counter()
    start = time.perf_counter()

    async def worker() -> None:
        while todo:
            name = account(todo.pop())
            for attempt in range(100):
                try:
                    response = await client.post(
                        "/api/accounts", json={"name": name, "password": PASSWORD}, headers=headers
                    )
                except httpx.TransportError as exc:
                    retries[type(exc).__name__] += 1
                    await asyncio.sleep(0.2)
                    continue
                # 409: an earlier attempt that seemed to fail did sign it up.
                if response.status_code in (201, 409):
                    break
                retries[classify(response)] += 1
                await asyncio.sleep(min(1.0, 0.05 * (attempt + 1)))
            else:
                raise RuntimeError(f"could not sign up {name}: {dict(retries)}")

    async with asyncio.TaskGroup() as workers:
        for _ in range(min(SIGNUP_CONCURRENCY, count)):
            workers.create_task(worker())
    elapsed = time.perf_counter() - start
    return {
        "accounts": count,
        "seconds": elapsed,
        "per_s": count / elapsed,
        "retries": dict(retries),
    }


async def log_in(
    load: Load,
    client: httpx.AsyncClient,
    headers: dict[str, str],
    name: str,
    scheduled: float,
) -> None:
    """One login, timed from ``scheduled`` (a perf_counter time)."""
    load.send_lags.append(time.perf_counter() - scheduled)
    try:
        # (httpx's timeout is per step: connect, write, each read; this one is the whole)
        async with asyncio.timeout(REQUEST_TIMEOUT_S):
            response = await client.post(
                "/api/login", json={"name": name, "password": PASSWORD}, headers=headers
            )
    except (httpx.TimeoutException, TimeoutError):
        load.statuses["error timeout"] += 1
        return
    except httpx.TransportError as exc:
        load.statuses[f"error {type(exc).__name__}"] += 1
        return
    elapsed = time.perf_counter() - scheduled
    kind = classify(response)
    load.statuses[kind] += 1
    load.answer_latencies.append(elapsed)
    if kind == "200":
        load.ok_latencies.append(elapsed)
    elif kind == "503 busy":
        load.busy_latencies.append(elapsed)


async def health_check(load: Load, client: httpx.AsyncClient, scheduled: float) -> None:
    try:
        async with asyncio.timeout(REQUEST_TIMEOUT_S):
            response = await client.get("/healthz")
    except (httpx.TimeoutException, TimeoutError):
        load.health_failures["timeout"] += 1
        return
    except httpx.TransportError as exc:
        load.health_failures[type(exc).__name__] += 1
        return
    if response.status_code != 200:
        load.health_failures[f"http {response.status_code}"] += 1
        return
    load.health_latencies.append(time.perf_counter() - scheduled)


async def sleep_until(moment: float) -> None:
    delay = moment - time.perf_counter()
    if delay > 0:
        await asyncio.sleep(delay)


async def offer_logins(
    load: Load, base: str, rate: float, seconds: float, accounts: int, seed: int
) -> float:
    """Logins at ``rate`` a second for ``seconds`` (open loop), ``GET /healthz`` every
    100 ms meanwhile; the seconds until the last answer."""
    rng = random.Random(seed)
    total = round(rate * seconds)
    # Every login may be in flight at once (up to the request timeout): no waiting for a
    # connection in this process.
    connections = max(16, min(total, round(rate * REQUEST_TIMEOUT_S) + 16))
    async with new_client(base, connections) as logins, new_client(base, 8) as health:
        headers = await csrf_headers(logins)
        tasks: list[asyncio.Task[None]] = []
        start = time.perf_counter()

        async def checks() -> None:
            tick = 0
            while True:
                scheduled = start + tick * HEALTH_INTERVAL_S
                await sleep_until(scheduled)
                tasks.append(asyncio.create_task(health_check(load, health, scheduled)))
                tick += 1

        async def watch_loop() -> None:
            while True:
                before = time.perf_counter()
                await asyncio.sleep(LAG_TICK_S)
                load.loop_lags.append(time.perf_counter() - before - LAG_TICK_S)

        checker = asyncio.create_task(checks())
        watcher = asyncio.create_task(watch_loop())
        try:
            for i in range(total):
                scheduled = start + i / rate
                await sleep_until(scheduled)
                name = account(rng.randrange(accounts))
                load.offered += 1
                tasks.append(asyncio.create_task(log_in(load, logins, headers, name, scheduled)))
            await asyncio.gather(*list(tasks))  # the logins still in flight (and checks)
        finally:
            checker.cancel()
            watcher.cancel()
            for task in tasks:
                task.cancel()
            await asyncio.gather(checker, watcher, *tasks, return_exceptions=True)
        return time.perf_counter() - start


def client_event_loop() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop (the server's own event loop) when present, to spare the shared cores."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvicorn[standard] brings it on Linux
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def measure(args: argparse.Namespace) -> dict[str, Any]:
    load_before = os.getloadavg()
    hashing = time_hashing(args.hash_runs)
    load = Load()
    with tempfile.TemporaryDirectory(prefix="kartentisch-login-") as tmp:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = start_server(port, Path(tmp), Path(tmp) / "server.log")
        try:
            with asyncio.Runner(loop_factory=client_event_loop()) as runner:

                async def sign_ups() -> dict[str, Any]:
                    async with new_client(base, SIGNUP_CONCURRENCY) as client:
                        return await sign_up_all(client, args.accounts)

                signup = runner.run(sign_ups())
                load_at_start = os.getloadavg()
                cpu_before = cpu_seconds(server.pid)
                wait_before = cpu_wait_seconds(server.pid)
                client_cpu = time.process_time()
                wall = time.perf_counter()
                elapsed = runner.run(
                    offer_logins(load, base, args.rate, args.seconds, args.accounts, args.seed)
                )
                wall = time.perf_counter() - wall
                client_cpu = time.process_time() - client_cpu
                server_cpu = cpu_seconds(server.pid) - cpu_before
                server_wait = cpu_wait_seconds(server.pid) - wait_before
            alive = server.poll() is None
        finally:
            stop_server(server)
    offered = load.offered
    answered = len(load.answer_latencies)
    ok = len(load.ok_latencies)
    errors = sum(n for k, n in load.statuses.items() if k.startswith("error"))
    return {
        "rate": args.rate,
        "seconds": args.seconds,
        "seed": args.seed,
        "hashing": hashing,
        "signup": signup,
        "server": {"hash_slots": HASH_SLOTS, "max_hash_queue": MAX_HASH_QUEUE, "alive": alive},
        "logins": {
            "offered": offered,
            "offered_per_s": offered / args.seconds,
            "answered": answered,
            "answered_per_s": answered / max(elapsed, args.seconds),
            "succeeded": ok,
            "succeeded_per_s": ok / max(elapsed, args.seconds),
            "busy": load.statuses["503 busy"],
            "unauthorized": load.statuses["401"],
            "errors": errors,
            "statuses": dict(sorted(load.statuses.items())),
            "elapsed_s": elapsed,
            "latency_ok_ms": summary_ms(load.ok_latencies),
            "latency_busy_ms": summary_ms(load.busy_latencies),
            "latency_all_ms": summary_ms(load.answer_latencies),
            "send_lag_ms": summary_ms(load.send_lags),
            "client_loop_lag_ms": summary_ms(load.loop_lags),
        },
        "health": {
            "interval_ms": HEALTH_INTERVAL_S * 1000,
            "latency_ms": summary_ms(load.health_latencies),
            "failures": dict(load.health_failures),
        },
        "server_cpu_s": server_cpu,
        "server_cores": server_cpu / wall,
        "server_cpu_wait_s": server_wait,
        "client_cpu_s": client_cpu,
        "client_cores": client_cpu / wall,
        "load_average": {
            "before": list(load_before),
            "at_start": list(load_at_start),
            "after": list(os.getloadavg()),
        },
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "system": f"{platform.system()} {platform.machine()}",
        },
    }


# -- the report -----------------------------------------------------------------------


def _latency(
    s: dict[str, Any], quantiles: tuple[str, ...] = ("p50", "p95", "p99"), digits: int = 0
) -> str:
    if not s["count"]:
        return "none"
    figures = " / ".join(f"{s[q]:.{digits}f}" for q in quantiles)
    return f"{figures} ms (max {s['max']:.{digits}f}; {s['count']:,})"


def print_report(r: dict[str, Any]) -> None:
    h = r["hashing"]
    p = h["parameters"]
    lg = r["logins"]
    su = r["signup"]
    health = r["health"]
    load = r["load_average"]
    rows = [
        (
            "Argon2 parameters",
            f"{p['type']}, {p['memory_kib'] // 1024} MiB, {p['time_cost']} passes, "
            f"{p['parallelism']} lane",
        ),
        (
            "hash p50 / p95 (min, max)",
            f"{h['hash_ms']['p50']:.1f} / {h['hash_ms']['p95']:.1f} ms "
            f"({h['hash_ms']['min']:.1f}, {h['hash_ms']['max']:.1f}; {h['runs']} runs)",
        ),
        (
            "verify p50 / p95 (min, max)",
            f"{h['verify_ms']['p50']:.1f} / {h['verify_ms']['p95']:.1f} ms "
            f"({h['verify_ms']['min']:.1f}, {h['verify_ms']['max']:.1f})",
        ),
        (
            "sign-ups",
            f"{su['accounts']} in {su['seconds']:.1f} s ({su['per_s']:.1f}/s), "
            f"retried: {su['retries'] or 'none'}",
        ),
        (
            "server",
            f"{r['server']['hash_slots']} hash slots, {r['server']['max_hash_queue']} may wait",
        ),
        ("logins offered", f"{lg['offered']:,} ({lg['offered_per_s']:.1f}/s, open loop)"),
        (
            "answered",
            f"{lg['answered']:,} ({lg['answered_per_s']:.1f}/s over {lg['elapsed_s']:.1f} s)",
        ),
        ("succeeded (200)", f"{lg['succeeded']:,} ({lg['succeeded_per_s']:.1f}/s)"),
        ("503 busy", f"{lg['busy']:,}"),
        ("401", f"{lg['unauthorized']:,}"),
        ("errors (no answer)", f"{lg['errors']:,}"),
        ("all statuses", json.dumps(lg["statuses"])),
        ("succeeded p50 / p95 / p99", _latency(lg["latency_ok_ms"])),
        ("503 busy p50 / p95 / p99", _latency(lg["latency_busy_ms"])),
        ("all answers p50 / p95 / p99", _latency(lg["latency_all_ms"])),
        ("client send lag p50 / p99", _latency(lg["send_lag_ms"], ("p50", "p99"), 1)),
        ("client loop lag p50 / p99", _latency(lg["client_loop_lag_ms"], ("p50", "p99"), 1)),
        (
            "/healthz p50 / p99 (every 100 ms)",
            _latency(health["latency_ms"], ("p50", "p99"), 1)
            + (f", failed: {health['failures']}" if health["failures"] else ", none failed"),
        ),
        (
            "server CPU",
            f"{r['server_cpu_s']:.1f} s ({r['server_cores']:.2f} cores), "
            f"waited for a CPU {r['server_cpu_wait_s']:.1f} s (all threads)",
        ),
        ("load generator CPU", f"{r['client_cpu_s']:.1f} s ({r['client_cores']:.2f} cores)"),
        (
            "load average before / start / after",
            " / ".join(
                " ".join(f"{x:.2f}" for x in load[k]) for k in ("before", "at_start", "after")
            ),
        ),
    ]
    width = max(len(k) for k, _ in rows)
    m = r["machine"]
    print(
        f"Logins at {r['rate']:g}/s for {r['seconds']:g} s "
        f"({m['cpus']} CPUs, Python {m['python']}, seed {r['seed']})"
    )
    for key, value in rows:
        print(f"  {key:<{width}}  {value}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=100, help="logins offered a second (100)")
    parser.add_argument("--seconds", type=float, default=30, help="how long to offer them (30)")
    parser.add_argument("--accounts", type=int, default=200, help="accounts signed up (200)")
    parser.add_argument("--hash-runs", type=int, default=20, help="timed hashes (20)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.rate <= 0 or args.seconds <= 0 or not 1 <= args.accounts <= 9999:
        parser.error("--rate and --seconds must be positive, --accounts 1..9999")
    if args.hash_runs < 1:
        parser.error("--hash-runs must be at least 1")
    result = measure(args)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_report(result)
    failed = (
        not result["logins"]["succeeded"]
        or result["logins"]["errors"]
        or not result["server"]["alive"]
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
