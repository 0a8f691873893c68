"""Web app soak: bot tables of every kind for minutes on end; does the server's memory stay flat?

The benchmark starts one ``kartentisch serve`` process on a free loopback port
(a temporary SQLite data directory, bots without delay; the server of
benchmarks/web_load.py, whose helpers this reuses) and keeps ``--tables``
tables going for ``--minutes``: a mix of Slobberhannes (a short match, to 3
penalties), Doppelkopf (house rules, one game) and Slapjack (a one-minute
time limit), each with one person and server bots. The person is a WebSocket
client of this process: it says ``hello`` with its seat token, thinks
uniform(0, 2×``--think``) seconds on its turn and sends a random legal action
(at Slapjack: turns its card, and slaps a jack at once); between deals it
says ``ready`` at once (the table waits for it). When a table is
over, its slot opens a new one of the next kind, so tables are created and
finished all the time. Every 10 s the server's resident memory (VmRSS) is
sampled.

* actions: every action the server accepted at the tables (the versions the
  person's connection saw), and the person's own
* round trip: from sending ``act`` to the ``state`` with the new version on
  the same connection (p50/p99), at the turn-based tables; at Slapjack the
  referee holds every action for its collection window first, so those are
  reported apart
* errors: every ``error`` message, refused lobby request, dropped connection,
  or a client that hears nothing for 15 s; target: none. Refusals of
  real-time races (a slap on a card that is gone, a second slap, a turn
  that came too late) are normal play and counted apart
* memory: RSS at the start (before the clients), after the warm-up
  (``--warmup`` minutes), at the end, and the slope after the warm-up (least
  squares over the samples, MiB per minute); target: flat (under 1 MiB/min)

Run: ``python benchmarks/web_soak.py [--minutes 10] [--tables 50] [--think 0.8] [--json]``.
Loopback only; it stops by itself after ``--minutes``.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from websockets.exceptions import WebSocketException

from web_load import (
    HTTPFailure,
    Run,
    cancel_all,
    client_address,
    client_event_loop,
    cpu_seconds,
    free_port,
    memory_kib,
    open_seat,
    percentile,
    post,
    raise_open_files,
    receive,
    start_server,
    stop_server,
    watch_loop,
)

#: Seconds between two samples of the server's memory.
SAMPLE_S: Final = 10.0
#: The most the memory may grow after the warm-up and still count as flat.
SLOPE_TARGET_MIB_PER_MIN: Final = 1.0
#: What a real-time table may refuse in a race; normal play, not an error.
RACE_REFUSALS: Final = frozenset(
    {"stale_card", "too_fast", "already_slapped", "not_your_turn", "empty_pile"}
)
ANNOUNCEMENTS: Final = frozenset({"re", "kontra", "no90", "no60", "no30", "schwarz"})


@dataclass(frozen=True)
class Kind:
    """A kind of table in the mix: the lobby request, and whether it runs in real time."""

    name: str
    body: dict[str, Any]
    realtime: bool = False


MIX: Final = (
    Kind(
        "slobberhannes",
        {
            "game": "slobberhannes",
            "options": {"target": 3},
            "seats": [{"kind": "you"}] + [{"kind": "bot"}] * 3,
        },
    ),
    Kind(
        "doppelkopf",
        {
            "game": "doppelkopf",
            "options": {"preset": "house", "games": 1},
            "seats": [{"kind": "you"}] + [{"kind": "bot"}] * 3,
        },
    ),
    Kind(
        "slapjack",
        {
            "game": "slapjack",
            "options": {"time_limit": 1},
            "seats": [{"kind": "you"}] + [{"kind": "bot"}] * 2,
        },
        realtime=True,
    ),
)


@dataclass
class Soak(Run):
    """What the clients measured (one event loop); ``latencies`` holds the turn-based ones."""

    realtime_latencies: list[float] = field(default_factory=list)
    refusals: collections.Counter[str] = field(default_factory=collections.Counter)
    finished: collections.Counter[str] = field(default_factory=collections.Counter)
    started: collections.Counter[str] = field(default_factory=collections.Counter)
    #: Actions accepted at the tables (every seat's), and the person's own.
    actions: int = 0
    own_actions: int = 0


# -- the person at a table --------------------------------------------------------------


def choose(kind: Kind, view: dict[str, Any], rng: random.Random) -> tuple[str, bool] | None:
    """The person's action in ``view`` and whether to send it at once (a slap), or None."""
    legal: list[str] = view["legal"]
    if kind.realtime:
        top = view["top"]
        if "slap" in legal and top is not None and top.startswith("J"):
            return "slap", True
        return ("turn", False) if "turn" in legal else None
    if view["to_move"] != 0:  # the person sits at seat 0
        return None
    moves = [a for a in legal if a not in ANNOUNCEMENTS]
    if kind.name == "doppelkopf" and "pass" in moves:
        return "pass", False  # healthy: mostly normal games
    return (rng.choice(moves), False) if moves else None


async def play_table(soak: Soak, slot: int, kind: Kind, rng: random.Random) -> None:
    """Open one table of ``kind`` and play its person's seat until the table is over."""
    body = {**kind.body, "name": f"Soak {slot}"}
    created = await post(soak, "/api/tables", body, client_address(slot, 0))
    soak.tables += 1
    soak.started[kind.name] += 1
    async with open_seat(soak, slot, 0, created["id"], created["token"]) as ws:
        seen = 0  # the highest version seen
        readied = -1  # the version the person last said ``ready`` on
        acted: set[tuple[int, str]] = set()
        sent_at: float | None = None
        sent_version = -1
        while not soak.stopping:
            message = await receive(soak, ws)
            if message is None:
                return
            if message["type"] == "ping":
                await ws.send(json.dumps({"type": "pong", "nonce": message["nonce"]}))
                continue
            if message["type"] == "error":
                code = str(message.get("code"))
                if kind.realtime and code in RACE_REFUSALS:
                    soak.refusals[code] += 1
                    sent_at = None
                else:
                    soak.error(code)
                continue
            if message["type"] != "state":
                continue
            version: int = message["version"]
            if version > seen:
                soak.actions += version - seen
                seen = version
            if sent_at is not None and version > sent_version:
                elapsed = time.perf_counter() - sent_at
                (soak.realtime_latencies if kind.realtime else soak.latencies).append(elapsed)
                sent_at = None
            view = message["view"]
            if view is None:
                continue
            if view["over"]:
                soak.finished[kind.name] += 1
                return
            between = message["table"].get("between_deals")
            if between is not None:
                # The next deal waits until everyone has seen the last one's summary.
                if 0 in between["waiting"] and version > readied:
                    readied = version
                    await ws.send(json.dumps({"type": "ready", "version": version}))
                continue
            chosen = choose(kind, view, rng)
            if chosen is None or (version, chosen[0]) in acted:
                continue
            action, at_once = chosen
            acted.add((version, action))
            if not at_once and soak.think > 0:
                await asyncio.sleep(rng.uniform(0, 2 * soak.think))
            if soak.stopping:
                return
            sent_at, sent_version = time.perf_counter(), version
            soak.own_actions += 1
            await ws.send(json.dumps({"type": "act", "action": action, "version": version}))


async def table_slot(soak: Soak, index: int, seed: int) -> None:
    """Tables one after another, the kinds in turn, until the soak stops."""
    rng = random.Random(seed * 100_003 + index)
    turn = index
    while not soak.stopping:
        kind = MIX[turn % len(MIX)]
        turn += 1
        try:
            await play_table(soak, index, kind, rng)
        except (HTTPFailure, WebSocketException, OSError, TimeoutError) as failure:
            if not soak.stopping:
                soak.error(
                    str(failure) if isinstance(failure, HTTPFailure) else type(failure).__name__
                )
                await asyncio.sleep(1)


# -- memory ------------------------------------------------------------------------------


@dataclass
class Sample:
    minute: float
    rss_mib: float


async def sample_memory(pid: int, start: float, samples: list[Sample]) -> None:
    while True:
        await asyncio.sleep(SAMPLE_S)
        rss = memory_kib(pid)["VmRSS"] / 1024
        samples.append(Sample((time.perf_counter() - start) / 60, rss))


def slope(samples: list[Sample]) -> float:
    """Least-squares slope of RSS over time, MiB per minute (nan for fewer than 2 samples)."""
    if len(samples) < 2:
        return float("nan")
    xs = [s.minute for s in samples]
    ys = [s.rss_mib for s in samples]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den if den else 0.0


async def drive(soak: Soak, pid: int, args: argparse.Namespace) -> tuple[float, list[Sample]]:
    """Play for ``--minutes``; return the seconds played and the memory samples."""
    start = time.perf_counter()
    samples = [Sample(0.0, memory_kib(pid)["VmRSS"] / 1024)]
    watchers = [
        asyncio.create_task(watch_loop(soak)),
        asyncio.create_task(sample_memory(pid, start, samples)),
    ]

    async def staggered(i: int) -> None:
        await asyncio.sleep(args.ramp * i / args.tables)
        await table_slot(soak, i, args.seed)

    tasks = [asyncio.create_task(staggered(i)) for i in range(args.tables)]
    await asyncio.wait(tasks, timeout=args.minutes * 60)
    elapsed = time.perf_counter() - start
    soak.stopping = True
    await cancel_all(tasks)
    for watcher in watchers:
        watcher.cancel()
    samples.append(Sample(elapsed / 60, memory_kib(pid)["VmRSS"] / 1024))
    return elapsed, samples


# -- the report -------------------------------------------------------------------------------


def measure(args: argparse.Namespace) -> dict[str, Any]:
    raise_open_files(args.tables)  # one client a table
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="kartentisch-soak-") as tmp:
        port = free_port()
        server = start_server(port, Path(tmp), Path(tmp) / "server.log")
        try:
            time.sleep(0.5)
            cpu_before = cpu_seconds(server.pid)
            soak = Soak(base=f"127.0.0.1:{port}", think=args.think, max_matches=0)
            with asyncio.Runner(loop_factory=client_event_loop()) as runner:
                elapsed, samples = runner.run(drive(soak, server.pid, args))
            server_cpu = cpu_seconds(server.pid) - cpu_before
            peak = memory_kib(server.pid)["VmHWM"] / 1024
            alive = server.poll() is None
        finally:
            stop_server(server)
            log = (Path(tmp) / "server.log").read_text(errors="replace")
    if not alive:
        soak.error("server_died")
    tracebacks = log.count("Traceback")
    if tracebacks:
        soak.errors["server_tracebacks"] += tracebacks
    warm = [s for s in samples if s.minute >= args.warmup]
    ms = sorted(x * 1000 for x in soak.latencies)
    rt = sorted(x * 1000 for x in soak.realtime_latencies)
    lags = sorted(x * 1000 for x in soak.lags)
    growth = slope(warm)
    return {
        "tables": args.tables,
        "minutes": round(elapsed / 60, 2),
        "think_s": args.think,
        "warmup_min": args.warmup,
        "seed": args.seed,
        "mix": [k.name for k in MIX],
        "actions": soak.actions,
        "actions_per_s": soak.actions / elapsed,
        "own_actions": soak.own_actions,
        "round_trip_ms": {
            "p50": percentile(ms, 0.50),
            "p99": percentile(ms, 0.99),
            "max": ms[-1] if ms else float("nan"),
            "count": len(ms),
        },
        "realtime_round_trip_ms": {
            "p50": percentile(rt, 0.50),
            "p99": percentile(rt, 0.99),
            "count": len(rt),
        },
        "errors": sum(soak.errors.values()),
        "error_codes": dict(soak.errors),
        "race_refusals": dict(soak.refusals),
        "tables_opened": dict(soak.started),
        "tables_finished": dict(soak.finished),
        "server_rss_mib": {
            "start": samples[0].rss_mib,
            "after_warmup": warm[0].rss_mib if warm else float("nan"),
            "end": samples[-1].rss_mib,
            "peak": peak,
            "slope_after_warmup_mib_per_min": growth,
            "samples": [[round(s.minute, 2), round(s.rss_mib, 1)] for s in samples],
        },
        "server_cpu_s": server_cpu,
        "server_cores": server_cpu / elapsed,
        "client_loop_lag_ms": {"p50": percentile(lags, 0.5), "p99": percentile(lags, 0.99)},
        "load_average": {"before": list(load_before), "after": list(os.getloadavg())},
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "system": f"{platform.system()} {platform.machine()}",
        },
        "memory_flat": bool(warm) and growth < SLOPE_TARGET_MIB_PER_MIN,
    }


def print_table(r: dict[str, Any]) -> None:
    rt = r["round_trip_ms"]
    live = r["realtime_round_trip_ms"]
    mem = r["server_rss_mib"]
    rows = [
        ("tables", f"{r['tables']} at once ({', '.join(r['mix'])} in turn)"),
        ("duration", f"{r['minutes']:.1f} min (think {r['think_s']} s on average)"),
        (
            "actions",
            f"{r['actions']:,} ({r['actions_per_s']:,.0f}/s), the person's {r['own_actions']:,}",
        ),
        (
            "round trip p50 / p99",
            f"{rt['p50']:.1f} / {rt['p99']:.1f} ms (max {rt['max']:.0f}, turn-based, "
            f"{rt['count']:,})",
        ),
        (
            "real time p50 / p99",
            f"{live['p50']:.0f} / {live['p99']:.0f} ms (the referee's window included)",
        ),
        ("errors", f"{r['errors']} {r['error_codes'] or ''}".strip()),
        ("race refusals", str(r["race_refusals"] or "none")),
        ("tables opened", str(r["tables_opened"])),
        ("tables finished", str(r["tables_finished"])),
        (
            "server RSS start / warm / end",
            f"{mem['start']:.0f} / {mem['after_warmup']:.0f} / {mem['end']:.0f} MiB "
            f"(peak {mem['peak']:.0f})",
        ),
        ("RSS slope after warm-up", f"{mem['slope_after_warmup_mib_per_min']:+.2f} MiB/min"),
        ("server CPU", f"{r['server_cpu_s']:.0f} s ({r['server_cores']:.2f} cores)"),
        (
            "client loop lag p50 / p99",
            f"{r['client_loop_lag_ms']['p50']:.1f} / {r['client_loop_lag_ms']['p99']:.1f} ms",
        ),
        (
            "load average before / after",
            " / ".join(
                " ".join(f"{x:.2f}" for x in r["load_average"][k]) for k in ("before", "after")
            ),
        ),
    ]
    width = max(len(k) for k, _ in rows)
    print(f"Web app soak ({r['machine']['cpus']} CPUs, Python {r['machine']['python']})")
    for key, value in rows:
        print(f"  {key:<{width}}  {value}")
    print("  RSS samples (min, MiB): " + ", ".join(f"{m:g}:{v:g}" for m, v in mem["samples"]))
    flat = "flat" if r["memory_flat"] else "GROWING"
    print(
        f"Memory after warm-up: {flat} (target < {SLOPE_TARGET_MIB_PER_MIN:g} MiB/min); "
        f"errors: {r['errors']}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10, help="how long to play (10)")
    parser.add_argument("--tables", type=int, default=50, help="tables at once (50)")
    parser.add_argument(
        "--think", type=float, default=0.8, help="mean think time of the person in s (0.8)"
    )
    parser.add_argument(
        "--warmup", type=float, default=3, help="minutes before memory is judged (3)"
    )
    parser.add_argument("--ramp", type=float, default=10, help="tables start over this many s (10)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 1000 or args.minutes <= 0 or args.think < 0 or args.warmup < 0:
        parser.error(
            "--tables must be 1..1000, --minutes positive, --think and --warmup not negative"
        )
    result = measure(args)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)
    return 1 if result["errors"] or not result["memory_flat"] else 0


if __name__ == "__main__":
    sys.exit(main())
