"""Web app cluster load: 1, 2, 4 … ``kartentisch serve`` processes sharing PostgreSQL and Redis.

For every configuration (``--processes`` × ``--tables`` × ``--routing``) the
benchmark starts the processes on free 127.0.0.1 ports with one throwaway
PostgreSQL schema (created for the configuration, dropped after it) and one
Redis (by default a private ``redis-server`` on a free port, so that its
counters are the cluster's alone; ``--redis URL`` for an existing one), and
plays ``--tables`` Slobberhannes tables (``--game``) of four WebSocket players
at the bots' pace with the clients of benchmarks/web_load.py (its ``Run``,
``table_slot`` and the rest are imported, not copied). The clients run in
``--client-processes`` processes of their own (this script with ``--worker``),
so that the measuring process only samples.

* **spreading the tables**: table slot *k* is created through process
  *k* mod *N*, which therefore owns it (a table is owned by the process that
  created it).
* **routing** (``--routing``): ``any`` — seat *s* of a table owned by process *o*
  talks (lobby joins and WebSocket) to process (*o* + *s*) mod *N*, so with
  2 processes half the players, with 4 three in four, sit on a process that
  does not own their table, and their messages cross Redis to the owner and
  back, as behind a balancer that is not sticky; ``owner`` — every seat talks to the owner, as
  behind the sticky balancer of examples/deploy/nginx-kartentisch.conf
  (docs/deploy.md, "A load balancer in front") once a table's hashed process
  owns it; ``other`` — every seat talks to one process that is not the owner,
  (*o* + 1) mod *N*, as behind that balancer when the table's hashed process is
  not the one that created it (for *N* − 1 of *N* new tables: the creating
  request is not hashed by a table id), so every view crosses Redis.
* **the window**: once every table is set up and ``--settle`` seconds have
  passed, everything is sampled; play is measured for ``--seconds`` (or until
  ``--actions`` actions have been counted, whichever comes first); then
  everything is sampled again and the clients stop. All per-second and
  per-action figures are of this window.

Before the clients come, each process's CPU without tables is measured for
``--idle`` seconds. Per configuration it reports the actions per second, the round trip from
``act`` to the new state on the same socket (p50/p90/p99/max; target p99
< 50 ms), errors (as benchmarks/web_load.py counts them), and for each server
process its CPU time (``/proc/<pid>/stat``) per action of the tables it owns,
its time waiting for a CPU (``/proc/<pid>/schedstat``) and its RSS (before
the clients, peak, end). PostgreSQL: the transactions that stored actions
and the action rows (exact: the rows of the schema's ``table_actions`` whose
inserting transaction falls in the window), the database's
``pg_stat_database`` deltas (``xact_commit``, ``tup_inserted``,
``tup_updated``; database-wide, so they include anyone else using the same
database, and PostgreSQL publishes a backend's counts up to a second late) and the
CPU time of the PostgreSQL backends serving the processes' connections. Redis
(``INFO``): commands, ``PUBLISH`` calls (the messages on the processes'
channels), network bytes and its CPU time; exact with the private Redis.
Also the clients' CPU and event-loop lag, and the load average.

``--find-max`` raises the tables of each configuration from the first
``--tables`` value by ``--step`` (×1.5) until p99 reaches 50 ms or errors
occur (or ``--max-tables``), and reports the last count under the target.

Run: ``python benchmarks/web_cluster.py [--processes 1,2,4] [--tables 100]
[--routing any,owner,other] [--seconds 40] [--think 0.8] [--find-max] [--json]``.
Needs PostgreSQL (``--db``, default the first of postgresql://postgres@ and
postgresql://root@127.0.0.1:5432/test that answers) and ``redis-server`` on the
PATH or ``--redis URL``. Loopback only; every wait has a deadline, so it
stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import platform
import queue
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final, cast
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from web_load import (
    GAMES,
    SEATS,
    Run,
    cancel_all,
    client_event_loop,
    cpu_user_system,
    cpu_wait_seconds,
    free_port,
    memory_kib,
    percentile,
    raise_open_files,
    stop_server,
    table_slot,
    wait_until_serving,
    watch_loop,
)

P99_TARGET_MS: Final = 50.0
PG_CANDIDATES: Final = (
    "postgresql://postgres@127.0.0.1:5432/test",
    "postgresql://root@127.0.0.1:5432/test",
)
ROUTINGS: Final = ("any", "owner", "other")
#: Deadlines of the steps between the processes (a run must end by itself).
START_S: Final = 120.0
STOP_S: Final = 60.0


# -- the clients (``--worker``): a process of their own ----------------------------


def emit(event: str, **data: Any) -> None:
    """A line to the measuring process."""
    sys.stdout.write(json.dumps({"event": event, **data}) + "\n")
    sys.stdout.flush()


def seat_processes(owner: int, processes: int, routing: str) -> list[int]:
    """The process each seat of a table owned by ``owner`` talks to.

    >>> seat_processes(0, 4, "any"), seat_processes(1, 2, "any"), seat_processes(3, 4, "owner")
    ([0, 1, 2, 3], [1, 0, 1, 0], [3, 3, 3, 3])
    >>> seat_processes(3, 4, "other"), seat_processes(0, 1, "other")
    ([0, 0, 0, 0], [0, 0, 0, 0])
    """
    if routing == "owner":
        return [owner] * SEATS
    if routing == "other":
        return [(owner + 1) % processes] * SEATS
    return [(owner + seat) % processes for seat in range(SEATS)]


async def worker(config: dict[str, Any]) -> None:
    """Play the slots of ``config`` until told to stop; talk over stdin and stdout.

    One :class:`web_load.Run` per owning process (its ``base``), the seats routed by
    ``config["routing"]``. Lines in: ``mark`` (the window starts), ``stop``. Lines out:
    ``ready`` (every slot's first table set up, or failed), ``marked``, ``reached``
    (``config["actions"]`` actions in the window), ``result``.
    """
    bases: list[str] = config["bases"]
    processes = len(bases)
    slots: list[int] = config["slots"]
    runs: dict[int, Run] = {}
    for owner in sorted({slot % processes for slot in slots}):
        seats = seat_processes(owner, processes, config["routing"])
        runs[owner] = Run(
            base=bases[owner],
            think=config["think"],
            max_matches=10_000,
            game=config["game"],
            seat_bases=tuple(bases[p] for p in seats),
        )
    every = list(runs.values())
    watcher = asyncio.create_task(watch_loop(every[0]))

    async def staggered(i: int, slot: int) -> None:
        await asyncio.sleep(config["ramp"] * i / len(slots))
        await table_slot(runs[slot % processes], slot, config["seed"])

    tasks = [asyncio.create_task(staggered(i, slot)) for i, slot in enumerate(slots)]

    def settled() -> int:
        return sum(r.tables + sum(r.errors.values()) for r in every)

    while settled() < len(slots):
        await asyncio.sleep(0.05)
    emit("ready", tables=sum(r.tables for r in every))

    async def command() -> str:
        return (await asyncio.to_thread(sys.stdin.readline)).strip() or "stop"

    if (await command()) == "mark":
        marks = {owner: len(r.latencies) for owner, r in runs.items()}
        cpu = time.process_time()
        lags = len(every[0].lags)
        deals = sum(r.deals for r in every)
        emit("marked")

        async def reach() -> None:
            wanted: int | None = config["actions"]
            if wanted is None:
                return
            while sum(len(r.latencies) - marks[o] for o, r in runs.items()) < wanted:
                await asyncio.sleep(0.02)
            emit("reached")

        reaching = asyncio.create_task(reach())
        await command()  # "stop" (or the end of stdin)
        window = {owner: r.latencies[marks[owner] :] for owner, r in runs.items()}
        deals = sum(r.deals for r in every) - deals
        cpu = time.process_time() - cpu
        lag = sorted(x * 1000 for x in every[0].lags[lags:])
        reaching.cancel()
    else:
        window, cpu, lag, deals = {}, 0.0, [], 0
    for r in every:
        r.stopping = True
    await cancel_all(tasks)
    watcher.cancel()
    errors: dict[str, int] = {}
    races: dict[str, int] = {}
    for r in every:
        for code, n in r.errors.items():
            errors[code] = errors.get(code, 0) + n
        for code, n in r.races.items():
            races[code] = races.get(code, 0) + n
    emit(
        "result",
        latencies_ms={str(o): [x * 1000 for x in xs] for o, xs in window.items()},
        errors=errors,
        races=races,
        deals=deals,
        tables=sum(r.tables for r in every),
        cpu_s=cpu,
        lag_ms={"p50": percentile(lag, 0.5), "p99": percentile(lag, 0.99)},
    )


def worker_main() -> int:
    config: dict[str, Any] = json.loads(sys.stdin.readline())
    raise_open_files(len(config["slots"]) * SEATS)
    with asyncio.Runner(loop_factory=client_event_loop()) as runner:
        runner.run(worker(config))
    return 0


class Worker:
    """A client process seen from the measuring process: its lines, with deadlines."""

    def __init__(self, config: dict[str, Any], log: Path) -> None:
        self.log = log
        with log.open("wb") as err:
            self.proc = subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), "--worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
            )
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send(json.dumps(config))

    def _read(self) -> None:
        stdout: IO[str] | None = self.proc.stdout
        assert stdout is not None
        for line in stdout:
            self.lines.put(json.loads(line))
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass

    def expect(self, event: str, timeout: float) -> dict[str, Any]:
        """The next line, which must be ``event``, within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(
                    f"a client process sent no {event!r} in {timeout:.0f} s"
                ) from None
            # (a window cut short by --seconds: its "reached" may still come)
            if line is None or line["event"] != "reached" or event == "reached":
                break
        if line is None or line["event"] != event:
            tail = self.log.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"a client process sent {line} instead of {event!r}:\n{tail}")
        return line

    def end(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


# -- the shared services -------------------------------------------------------------


def postgres_url(wanted: str | None) -> str:
    """The first PostgreSQL URL that answers (``wanted``, or the usual local ones)."""
    import psycopg

    problems: list[str] = []
    for url in [wanted] if wanted else PG_CANDIDATES:
        url = url.replace("postgresql+psycopg://", "postgresql://", 1)  # (SQLAlchemy's form)
        try:
            with psycopg.connect(url, connect_timeout=3) as conn:
                conn.execute("select 1")
            return url
        except psycopg.Error as problem:
            problems.append(f"{url}: {problem}".strip())
    raise SystemExit("PostgreSQL is not reachable:\n" + "\n".join(problems))


@contextmanager
def postgres_schema(url: str) -> Iterator[str]:
    """A fresh schema (its name), dropped afterwards."""
    import psycopg

    schema = f"kt_bench_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'create schema "{schema}"')
    try:
        yield schema
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'drop schema "{schema}" cascade')


def with_search_path(url: str, schema: str) -> str:
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{schema}"


@contextmanager
def redis_server(wanted: str, data_dir: Path) -> Iterator[tuple[str, bool]]:
    """A Redis URL and whether it is private: ``redis-server`` on a free port if ``wanted``
    is ``private`` (stopped afterwards), else ``wanted`` itself."""
    if wanted != "private":
        yield wanted, False
        return
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not on the PATH: give --redis URL")
    port = free_port()
    command = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    command += ["--appendonly", "no", "--dir", str(data_dir)]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        import redis

        deadline = time.monotonic() + 30
        while True:
            try:
                redis.Redis.from_url(url, socket_connect_timeout=1).ping()
                break
            except redis.RedisError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit("the private redis-server did not start") from None
                time.sleep(0.05)
        yield url, True
    finally:
        stop_server(proc)


def redis_counters(url: str) -> dict[str, float]:
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=3)
    try:
        stats = cast(dict[str, Any], client.info("stats"))
        cpu = cast(dict[str, Any], client.info("cpu"))
        commands = cast(dict[str, Any], client.info("commandstats"))
        channels = cast(list[Any], client.pubsub_channels("kartentisch:*"))
    finally:
        client.close()
    publish = commands.get("cmdstat_publish", {})
    return {
        "commands": float(stats["total_commands_processed"]),
        "publish": float(publish.get("calls", 0) if isinstance(publish, dict) else 0),
        "net_in": float(stats["total_net_input_bytes"]),
        "net_out": float(stats["total_net_output_bytes"]),
        "cpu_s": float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]),
        "channels": float(len(channels)),
        # the calls of each command so far ("cmd:evalsha" …)
        **{
            "cmd:" + name.removeprefix("cmdstat_"): float(stat.get("calls", 0))
            for name, stat in commands.items()
            if isinstance(stat, dict)
        },
    }


def postgres_counters(url: str, schema: str) -> dict[str, float]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "select xact_commit, tup_inserted, tup_updated,"
            " pg_snapshot_xmax(pg_current_snapshot())::text::bigint % 4294967296"
            " from pg_stat_database where datname = current_database()"
        ).fetchone()
        assert row is not None
    return {
        "xact_commit": float(row[0]),
        "tup_inserted": float(row[1]),
        "tup_updated": float(row[2]),
        "next_xid": float(row[3]),
    }


def action_writes(url: str, schema: str, first_xid: float, end_xid: float) -> tuple[int, int]:
    """The action rows stored by transactions in ``[first_xid, end_xid)`` and those
    transactions (the inserting transaction id of each row, xmin)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            f'select count(*), count(distinct xmin::text) from "{schema}".table_actions'
            " where xmin::text::bigint >= %s and xmin::text::bigint < %s",
            (int(first_xid), int(end_xid)),
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def socket_ports(pid: int, remote_port: int) -> set[int]:
    """The local ports of ``pid``'s TCP connections to ``remote_port`` (from /proc)."""
    inodes = set()
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with_target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if with_target.startswith("socket:["):
                inodes.add(with_target[8:-1])
    except OSError:
        return set()
    ports = set()
    for table in ("tcp", "tcp6"):
        try:
            with open(f"/proc/{pid}/net/{table}", encoding="ascii") as lines:
                next(lines)
                for line in lines:
                    fields = line.split()
                    if fields[9] in inodes and int(fields[2].rsplit(":", 1)[1], 16) == remote_port:
                        ports.add(int(fields[1].rsplit(":", 1)[1], 16))
        except OSError:
            continue
    return ports


def backend_cpu(url: str, server_pids: Sequence[int]) -> dict[int, float]:
    """CPU seconds so far of the PostgreSQL backends serving the servers' connections."""
    import psycopg

    ports: set[int] = set()
    for pid in server_pids:
        ports |= socket_ports(pid, urlsplit(url).port or 5432)
    if not ports:
        return {}
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "select pid from pg_stat_activity where client_port = any(%s)", (sorted(ports),)
        ).fetchall()
    found: dict[int, float] = {}
    for (pid,) in rows:
        try:
            found[int(pid)] = sum(cpu_user_system(int(pid)))
        except (OSError, IndexError, ValueError):
            continue
    return found


# -- one configuration -------------------------------------------------------------------


@dataclass
class Sample:
    """Everything sampled at one end of the window."""

    at: float
    cpu: list[tuple[float, float]]
    wait: list[float]
    postgres: dict[str, float]
    backends: dict[int, float]
    redis: dict[str, float]
    load: tuple[float, float, float] = field(default_factory=os.getloadavg)


def sample(pids: Sequence[int], db: str, schema: str, redis_url: str) -> Sample:
    return Sample(
        at=time.perf_counter(),
        cpu=[cpu_user_system(pid) for pid in pids],
        wait=[cpu_wait_seconds(pid) for pid in pids],
        postgres=postgres_counters(db, schema),
        backends=backend_cpu(db, pids),
        redis=redis_counters(redis_url),
    )


def launch_server(port: int, data_dir: Path, options: Sequence[str]) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "kartentisch.cli.main", "serve", "--port", str(port)]
    command += ["--data-dir", str(data_dir), "--bot-delay", "0", "--grace", "3600"]
    command += ["--log-level", "warning", *options]
    with (data_dir / f"server-{port}.log").open("wb") as out:
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)


def run_config(
    args: argparse.Namespace, db: str, processes: int, tables: int, routing: str
) -> dict[str, Any]:
    """Start the cluster, play, sample, stop; the figures of one configuration."""
    raise_open_files(tables * SEATS * 2)
    load_before = os.getloadavg()
    with (
        tempfile.TemporaryDirectory(prefix="kartentisch-cluster-") as tmp,
        redis_server(args.redis, Path(tmp)) as (redis_url, private),
        postgres_schema(db) as schema,
    ):
        data = Path(tmp)
        options = ["--db", with_search_path(db, schema), "--redis", redis_url]
        ports = [free_port() for _ in range(processes)]
        servers = [launch_server(port, data, options) for port in ports]
        workers: list[Worker] = []
        try:
            for server, port in zip(servers, ports, strict=True):
                wait_until_serving(server, port, data / f"server-{port}.log")
            # Each process's own cost with no tables (leases, sweeps, timers) over --idle s.
            idle_start = [sum(cpu_user_system(s.pid)) for s in servers]
            time.sleep(args.idle)
            idle = [
                (sum(cpu_user_system(s.pid)) - before) / args.idle
                for s, before in zip(servers, idle_start, strict=True)
            ]
            memory_before = [memory_kib(s.pid) for s in servers]
            bases = [f"127.0.0.1:{port}" for port in ports]
            count = max(1, min(args.client_processes, tables))
            per_worker = math.ceil(args.actions / count) if args.actions else None
            for index in range(count):
                config = {
                    "bases": bases,
                    "slots": list(range(index, tables, count)),
                    "routing": routing,
                    "think": args.think,
                    "game": args.game,
                    "seed": args.seed,
                    "ramp": args.ramp,
                    "actions": per_worker,
                }
                workers.append(Worker(config, data / f"clients-{index}.log"))
            setup_s = START_S + tables * 0.5
            for w in workers:
                w.expect("ready", setup_s)
            time.sleep(args.settle)
            pids = [s.pid for s in servers]
            start = sample(pids, db, schema, redis_url)
            for w in workers:
                w.send("mark")
            for w in workers:
                w.expect("marked", STOP_S)
            stopped_by = "seconds"
            deadline = time.monotonic() + args.seconds
            if per_worker is not None:
                waiting = list(workers)
                while waiting and time.monotonic() < deadline:
                    try:
                        waiting[0].expect("reached", max(0.0, deadline - time.monotonic()))
                        waiting.pop(0)
                    except RuntimeError:
                        break
                if not waiting:
                    stopped_by = "actions"
            else:
                time.sleep(args.seconds)
            end = sample(pids, db, schema, redis_url)
            for w in workers:
                w.send("stop")
            results = [w.expect("result", STOP_S) for w in workers]
            memory_after = [memory_kib(s.pid) for s in servers]
            alive = [s.poll() is None for s in servers]
            writes = action_writes(db, schema, start.postgres["next_xid"], end.postgres["next_xid"])
        finally:
            for w in workers:
                w.end()
            for s in servers:  # the figures are taken: no graceful handover
                if s.poll() is None:
                    s.send_signal(signal.SIGKILL)
                s.wait()
    return report(
        args=args,
        processes=processes,
        tables=tables,
        routing=routing,
        private_redis=private,
        start=start,
        end=end,
        results=results,
        memory_before=memory_before,
        memory_after=memory_after,
        idle=idle,
        alive=alive,
        writes=writes,
        stopped_by=stopped_by,
        load_before=load_before,
    )


def report(
    *,
    args: argparse.Namespace,
    processes: int,
    tables: int,
    routing: str,
    private_redis: bool,
    start: Sample,
    end: Sample,
    results: list[dict[str, Any]],
    memory_before: list[dict[str, int]],
    memory_after: list[dict[str, int]],
    idle: list[float],
    alive: list[bool],
    writes: tuple[int, int],
    stopped_by: str,
    load_before: tuple[float, float, float],
) -> dict[str, Any]:
    window = end.at - start.at
    per_owner = [0] * processes
    latencies: list[float] = []
    errors: dict[str, int] = {}
    races: dict[str, int] = {}
    for r in results:
        for owner, xs in r["latencies_ms"].items():
            per_owner[int(owner)] += len(xs)
            latencies += xs
        for key, into in (("errors", errors), ("races", races)):
            for code, n in r[key].items():
                into[code] = into.get(code, 0) + n
    for i, ok in enumerate(alive):
        if not ok:
            errors[f"server_{i}_died"] = 1
    ms = sorted(latencies)
    actions = len(ms)
    servers: list[dict[str, Any]] = []
    for i in range(processes):
        user = end.cpu[i][0] - start.cpu[i][0]
        system = end.cpu[i][1] - start.cpu[i][1]
        cpu = user + system
        servers.append(
            {
                "owned_tables": len(range(i, tables, processes)),
                "actions": per_owner[i],
                "cpu_s": cpu,
                "cores": cpu / window,
                "cpu_ms_per_action": cpu * 1000 / per_owner[i] if per_owner[i] else math.nan,
                "system_share": system / cpu if cpu else math.nan,
                "cpu_wait_s": end.wait[i] - start.wait[i],
                # its CPU with no tables yet, in cores (before the clients came)
                "idle_cores": idle[i],
                "rss_mib": {
                    "before": memory_before[i]["VmRSS"] / 1024,
                    "peak": memory_after[i]["VmHWM"] / 1024,
                    "end": memory_after[i]["VmRSS"] / 1024,
                },
                "rss_kib_per_table": (memory_after[i]["VmHWM"] - memory_before[i]["VmRSS"])
                / max(1, len(range(i, tables, processes))),
            }
        )
    server_cpu = sum(s["cpu_s"] for s in servers)
    rows, transactions = writes
    pg0, pg1 = start.postgres, end.postgres
    backend_cpu_s = sum(cpu - start.backends.get(pid, 0.0) for pid, cpu in end.backends.items())
    r0, r1 = start.redis, end.redis

    def per_action(x: float) -> float:
        return x / actions if actions else math.nan

    result: dict[str, Any] = {
        "processes": processes,
        "routing": routing,
        "game": args.game,
        "tables": tables,
        "players": tables * SEATS,
        "think_s": args.think,
        "window_s": window,
        "stopped_by": stopped_by,
        "actions": actions,
        "actions_per_s": actions / window,
        "actions_per_s_per_table": actions / window / tables,
        "round_trip_ms": {
            "p50": percentile(ms, 0.50),
            "p90": percentile(ms, 0.90),
            "p99": percentile(ms, 0.99),
            "max": ms[-1] if ms else math.nan,
        },
        "errors": sum(errors.values()),
        "error_codes": errors,
        "race_refusals": races,
        "deals": sum(r["deals"] for r in results),
        "tables_set_up": sum(r["tables"] for r in results),
        "servers": servers,
        "server_cpu_s": server_cpu,
        "server_cores": server_cpu / window,
        "server_cpu_ms_per_action": per_action(server_cpu * 1000),
        "server_rss_mib_peak_sum": sum(s["rss_mib"]["peak"] for s in servers),
        "postgres": {
            # exact: the schema's action rows whose inserting transaction is in the window
            "action_rows": rows,
            "action_transactions": transactions,
            "action_transactions_per_s": transactions / window,
            "actions_per_transaction": rows / transactions if transactions else math.nan,
            "action_transactions_per_s_per_table": transactions / window / tables,
            # database-wide (anyone else on the database counts too), published late
            "db_xact_commit_per_s": (pg1["xact_commit"] - pg0["xact_commit"]) / window,
            "db_tup_inserted_per_s": (pg1["tup_inserted"] - pg0["tup_inserted"]) / window,
            "db_tup_updated_per_s": (pg1["tup_updated"] - pg0["tup_updated"]) / window,
            "backends": len(end.backends),
            "backend_cpu_s": backend_cpu_s,
            "backend_cpu_ms_per_action": per_action(backend_cpu_s * 1000),
        },
        "redis": {
            "private": private_redis,
            "commands_per_s": (r1["commands"] - r0["commands"]) / window,
            "publish_per_s": (r1["publish"] - r0["publish"]) / window,
            "commands_per_action": per_action(r1["commands"] - r0["commands"]),
            "publish_per_action": per_action(r1["publish"] - r0["publish"]),
            "bytes_out_per_action": per_action(r1["net_out"] - r0["net_out"]),
            "bytes_in_per_action": per_action(r1["net_in"] - r0["net_in"]),
            "cpu_ms_per_action": per_action((r1["cpu_s"] - r0["cpu_s"]) * 1000),
            "channels": int(r1["channels"]),
            "calls_per_action": {
                name.removeprefix("cmd:"): per_action(calls - r0.get(name, 0.0))
                for name, calls in sorted(r1.items())
                if name.startswith("cmd:") and calls > r0.get(name, 0.0)
            },
        },
        "clients": {
            "processes": len(results),
            "cpu_s": sum(r["cpu_s"] for r in results),
            "loop_lag_p99_ms": max((r["lag_ms"]["p99"] for r in results), default=math.nan),
        },
        "load_average": {
            "before": list(load_before),
            "window_start": list(start.load),
            "window_end": list(end.load),
        },
        "target_p99_ms": P99_TARGET_MS,
    }
    result["target_met"] = (
        bool(ms) and result["round_trip_ms"]["p99"] < P99_TARGET_MS and not errors
    )
    return result


def print_result(r: dict[str, Any]) -> None:
    rt = r["round_trip_ms"]
    pg = r["postgres"]
    rd = r["redis"]
    load = r["load_average"]
    print(
        f"{r['processes']} process(es), routing {r['routing']}, {r['tables']} {r['game']} tables"
        f" ({r['window_s']:.1f} s window, stopped by {r['stopped_by']}; load average"
        f" {load['window_start'][0]:.2f} → {load['window_end'][0]:.2f})"
    )
    print(
        f"  actions {r['actions']:,} ({r['actions_per_s']:.1f}/s,"
        f" {r['actions_per_s_per_table']:.2f}/s a table); round trip p50 / p90 / p99"
        f" {rt['p50']:.1f} / {rt['p90']:.1f} / {rt['p99']:.1f} ms (max {rt['max']:.0f});"
        f" errors {r['errors']} {r['error_codes'] or ''}".rstrip()
    )
    for i, s in enumerate(r["servers"]):
        m = s["rss_mib"]
        print(
            f"  server {i}: {s['owned_tables']} tables, {s['actions']:,} actions,"
            f" CPU {s['cpu_ms_per_action']:.2f} ms/action ({s['cores']:.2f} cores,"
            f" {s['idle_cores']:.3f} idle,"
            f" {s['system_share']:.0%} kernel), waited {s['cpu_wait_s']:.1f} s for a CPU;"
            f" RSS {m['before']:.0f} / {m['peak']:.0f} / {m['end']:.0f} MiB"
            f" ({s['rss_kib_per_table']:.0f} KiB/table)"
        )
    print(
        f"  servers: {r['server_cpu_ms_per_action']:.2f} ms CPU per action in all,"
        f" {r['server_cores']:.2f} cores"
    )
    print(
        f"  PostgreSQL: {pg['action_transactions_per_s']:.1f} action commits/s"
        f" ({pg['actions_per_transaction']:.2f} actions each), database-wide"
        f" {pg['db_xact_commit_per_s']:.1f} commits/s, {pg['db_tup_inserted_per_s']:.1f} rows"
        f" inserted/s, {pg['db_tup_updated_per_s']:.1f} updated/s; backends"
        f" {pg['backend_cpu_ms_per_action']:.2f} ms CPU per action ({pg['backends']} backends)"
    )
    print(
        f"  Redis{'' if rd['private'] else ' (shared: others count too)'}:"
        f" {rd['commands_per_s']:.1f} commands/s ({rd['commands_per_action']:.2f} an action),"
        f" {rd['publish_per_s']:.1f} messages/s ({rd['publish_per_action']:.2f} an action,"
        f" {rd['bytes_out_per_action']:.0f} B out), {rd['cpu_ms_per_action']:.3f} ms CPU"
        f" per action, {rd['channels']} channels"
    )
    c = r["clients"]
    print(
        f"  clients: {c['processes']} process(es), {c['cpu_s']:.1f} s CPU,"
        f" loop lag p99 {c['loop_lag_p99_ms']:.1f} ms"
    )
    print(
        f"  target p99 < {r['target_p99_ms']:.0f} ms with no errors:"
        f" {'met' if r['target_met'] else 'MISSED'}"
    )


def progress(r: dict[str, Any]) -> None:
    """One line on stderr per configuration (the JSON comes at the end)."""
    rt = r["round_trip_ms"]
    print(
        f"{r['processes']} × {r['routing']} × {r['tables']}: {r['actions_per_s']:.0f} actions/s,"
        f" p50/p99 {rt['p50']:.1f}/{rt['p99']:.0f} ms, {r['errors']} errors,"
        f" {r['server_cpu_ms_per_action']:.2f} ms CPU/action",
        file=sys.stderr,
        flush=True,
    )


def int_list(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--worker"]:
        return worker_main()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int_list, default=[1, 2, 4], help="1,2,4")
    parser.add_argument(
        "--tables", type=int_list, default=[100], help="tables at once, a list (100)"
    )
    parser.add_argument(
        "--routing",
        type=lambda s: s.split(","),
        default=["any"],
        help="any (seats spread over the processes), owner (all at the table's owner), "
        "other (all at one other process), or a list: any,owner (any)",
    )
    parser.add_argument("--game", choices=sorted(GAMES), default="slobberhannes")
    parser.add_argument("--seconds", type=float, default=40, help="the window's length (40)")
    parser.add_argument(
        "--actions", type=int, default=None, help="end the window after this many actions"
    )
    parser.add_argument("--think", type=float, default=0.8, help="mean think time in s (0.8)")
    parser.add_argument("--ramp", type=float, default=5, help="tables start over this many s (5)")
    parser.add_argument("--settle", type=float, default=3, help="s after setup before the window")
    parser.add_argument(
        "--idle", type=float, default=3, help="s the processes' CPU is measured without tables"
    )
    parser.add_argument("--client-processes", type=int, default=1, help="client processes (1)")
    parser.add_argument("--db", default=None, help="PostgreSQL URL (postgresql://…)")
    parser.add_argument(
        "--redis", default="private", help="a Redis URL, or private: redis-server on a free port"
    )
    parser.add_argument("--find-max", action="store_true", help="raise tables until p99 ≥ 50 ms")
    parser.add_argument("--step", type=float, default=1.5, help="--find-max's factor (1.5)")
    parser.add_argument("--max-tables", type=int, default=1000, help="--find-max's cap (1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if (
        not args.processes
        or min(args.processes) < 1
        or not args.tables
        or min(args.tables) < 1
        or max(args.tables) > 1000
        or args.seconds <= 0
        or args.think < 0
        or not set(args.routing) <= set(ROUTINGS)
        or args.step <= 1
        or args.idle <= 0
    ):
        parser.error(
            "--processes and --tables must be positive (tables at most 1000), --seconds "
            "positive, --think not negative, --idle positive, --routing any, owner and/or "
            "other, --step above 1"
        )
    db = postgres_url(args.db)
    configs: list[dict[str, Any]] = []
    found: list[dict[str, Any]] = []
    for routing in args.routing:
        for processes in args.processes:
            if not args.find_max:
                for tables in args.tables:
                    configs.append(run_config(args, db, processes, tables, routing))
                    (progress if args.json else print_result)(configs[-1])
                continue
            tables, best = args.tables[0], None
            while True:
                configs.append(run_config(args, db, processes, tables, routing))
                (progress if args.json else print_result)(configs[-1])
                if not configs[-1]["target_met"]:
                    break
                best = tables
                if tables >= args.max_tables:
                    break
                tables = min(args.max_tables, max(tables + 1, round(tables * args.step)))
            found.append({"processes": processes, "routing": routing, "tables_held": best})
            if not args.json:
                print(f"=> {processes} process(es), routing {routing}: held {best} tables")
    summary = {
        "configurations": configs,
        "find_max": found if args.find_max else None,
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "system": f"{platform.system()} {platform.machine()}",
            "client_event_loop": "asyncio" if client_event_loop() is None else "uvloop",
        },
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    return 1 if any(c["errors"] for c in configs) else 0


if __name__ == "__main__":
    sys.exit(main())
