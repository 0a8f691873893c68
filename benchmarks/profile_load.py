"""The profile page's API with a player who has thousands of stored games: latency under load.

What the issue asks for: the profile page's p99 with 10,000 stored games for the player.
Four steps; traffic on loopback only (127.0.0.1):

1. **A database** in a temporary data directory (SQLite, ``sqlite_url``, migrated by
   ``TableStore.migrate``): the account ``Marathon`` and ``--accounts`` others
   (``Player001``…), then ``--games`` finished tables (Slobberhannes, Doppelkopf house
   rules and DDV rules) with Marathon at each and, in about half the other seats,
   another account (bots in the rest). Each table gets what ``RatingStore.record_table``
   writes: a ``table_results`` row per account's seat with the game's statistics
   (Slobberhannes ``deals``, ``penalties``; Doppelkopf ``deals``, ``re``, ``kontra``,
   ``deals_won``, ``soli``, ``soli_won``, ``announcements``, ``announcements_won``),
   and, for about a third (rated), the accounts' new ratings from
   :func:`kartentisch.ratings.rate` (bots at their fixed ratings) and a point of each
   one's history. Everything is drawn from ``random.Random(--seed)`` and written with
   bulk inserts (SQLAlchemy Core) in one transaction; the time it took is reported.
2. **The server** in a process of its own (``uvicorn.run(create_app(data_dir=...))``
   on a free port, the lobby's rate limit, which the player routes count against,
   lifted: all the load comes from one address).
3. **The load**, from this process: one cold ``GET /api/players/Marathon`` (the
   server's first; reported apart), ``--alone`` more one at a time (what one answer
   takes when nothing waits beside it), then ``--requests`` more at ``--concurrency``
   in flight (closed loop: each worker sends the next as soon as its answer is in),
   each timed from sending to the whole body read: p50/p95/p99/max, requests a second,
   the answer's size in bytes. Likewise ``GET /api/leaderboard/slobberhannes?page=K``
   for pages drawn at random. The server's CPU time (``/proc/<pid>/stat``) over each
   phase gives the cores it used; the load average (``os.getloadavg()``) before, after
   the build and at the end says what else ran (the load generator shares the cores).
4. **Where the time goes**, in this process, one call at a time on the same
   database: ``RatingStore.profile`` as a whole, its queries alone (the statistics
   rows fetched with and without decoding their JSON, the other queries), the
   summing of the statistics in Python, and the JSON rendering of the answer
   (``JSONResponse``); medians of ``--breakdown-runs`` runs.

Run: ``.venv/bin/python benchmarks/profile_load.py`` (options: ``--games 10000
--accounts 200 --requests 300 --concurrency 4 --alone 30 --breakdown-runs 20 --seed 0
--json``); under a minute with the defaults. It stops by itself: the server is
terminated and the data directory removed at the end. Exit status 1 when a request
failed (not 200, no answer) or the server died; 0 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final, cast

import httpx
from sqlalchemy import Table, func, insert, select
from starlette.responses import JSONResponse

from kartentisch.accounts import account_name
from kartentisch.ratings import Participant, Rating, bot, rate
from kartentisch.storage import TableStore, sqlite_url
from kartentisch.storage.models import (
    AccountRow,
    PlayerTotalsRow,
    RatingHistoryRow,
    RatingRow,
    TableResultRow,
    TableRow,
)
from kartentisch.storage.ratings import RatingStore

sys.path.insert(0, str(Path(__file__).resolve().parent))

from web_load import free_port, stop_server, wait_until_serving

PLAYER: Final = "Marathon"
#: A request unanswered this long counts as an error (``timeout``).
REQUEST_TIMEOUT_S: Final = 30.0
#: The first stored table finishes then; the next ones 20 to 120 minutes apart.
START: Final = datetime(2025, 1, 1, tzinfo=UTC)
TRICK_LEVELS: Final = ("random", "heuristic", "strong")
#: The columns of the profile's latest tables (``RatingStore.profile``).
RECENT_COLUMNS: Final = ("table_id", "game", "seat", "rank", "won", "rated", "finished")

_ACCOUNTS: Final = cast(Table, AccountRow.__table__)
_TABLES: Final = cast(Table, TableRow.__table__)
_RESULTS: Final = cast(Table, TableResultRow.__table__)
_TOTALS: Final = cast(Table, PlayerTotalsRow.__table__)
_RATINGS: Final = cast(Table, RatingRow.__table__)
_HISTORY: Final = cast(Table, RatingHistoryRow.__table__)

#: The server: ``create_app`` with the lobby's rate (the player routes') lifted, on uvicorn.
SERVER_SCRIPT: Final = """
import dataclasses, sys
import uvicorn
from kartentisch.web.app import create_app
from kartentisch.web.protocol import Limits

big = 10**9
limits = dataclasses.replace(Limits(), lobby_burst=big, lobby_per_second=big)
app = create_app(data_dir=sys.argv[1], limits=limits)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


# -- 1. the database -------------------------------------------------------------------


def _slobberhannes(rng: random.Random, seats: int) -> tuple[list[int], list[dict[str, int]]]:
    """Ranks (0 best: fewest penalty chips) and statistics per seat of one match."""
    deals = rng.choice((4, 8, 12, 16))
    penalties = [rng.randint(0, 2 * deals) for _ in range(seats)]
    order = sorted(set(penalties))
    ranks = [order.index(p) for p in penalties]
    return ranks, [{"deals": deals, "penalties": p} for p in penalties]


def _doppelkopf(rng: random.Random) -> tuple[list[int], list[dict[str, int]]]:
    """Ranks (0 best: most points) and statistics per seat of one session of four."""
    deals = rng.choice((4, 8, 12, 24))
    stats: list[dict[str, int]] = []
    points: list[int] = []
    for _ in range(4):
        re = sum(rng.random() < 0.5 for _ in range(deals))
        won = sum(rng.random() < 0.5 for _ in range(deals))
        soli = sum(rng.random() < 0.05 for _ in range(deals))
        said = sum(rng.random() < 0.3 for _ in range(deals))
        stats.append(
            {
                "deals": deals,
                "re": re,
                "kontra": deals - re,
                "deals_won": won,
                "soli": soli,
                "soli_won": sum(rng.random() < 0.5 for _ in range(soli)),
                "announcements": said,
                "announcements_won": sum(rng.random() < 0.6 for _ in range(said)),
            }
        )
        points.append(2 * won - deals + rng.randint(-3, 3))
    order = sorted(set(points), reverse=True)
    return [order.index(p) for p in points], stats


def build_database(data_dir: Path, games: int, others: int, seed: int) -> dict[str, Any]:
    """The player ``PLAYER``, ``others`` accounts and ``games`` finished tables, in one
    transaction; what was written and how long it took."""
    rng = random.Random(seed)
    started = time.perf_counter()
    store = TableStore(sqlite_url(data_dir))
    try:
        store.migrate()
        names = [PLAYER] + [f"Player{i + 1:03d}" for i in range(others)]
        since = START - timedelta(days=30)
        account_rows = []
        for name in names:
            parsed = account_name(name)
            account_rows.append(
                {
                    "name": parsed.display,
                    "name_key": parsed.key,
                    "skeleton": parsed.skeleton,
                    "password_hash": "!",  # no password logs in
                    "blocked": False,
                    "created": since,
                }
            )
        tables: list[dict[str, Any]] = []
        results: list[dict[str, Any]] = []
        history: list[dict[str, Any]] = []
        pools: dict[str, dict[str, Rating]] = {}
        with store.transaction() as connection:
            connection.execute(insert(_ACCOUNTS), account_rows)
            ids = {str(r.name): int(r.id) for r in connection.execute(select(_ACCOUNTS))}
            named = {account: name for name, account in ids.items()}
            me = ids[PLAYER]
            other_ids = [ids[name] for name in names[1:]]
            rated_tables = 0
            by_pool: Counter[str] = Counter()
            when = START
            for number in range(games):
                when += timedelta(minutes=rng.uniform(20, 120))
                table_id = f"bench{number:06d}"
                kind = rng.random()
                if kind < 0.5:
                    game, pool, options = "slobberhannes", "slobberhannes", {"preset": "standard"}
                    count = rng.choice((3, 4, 4, 5))
                    ranks, stats = _slobberhannes(rng, count)
                else:
                    ddv = kind > 0.85
                    game = "doppelkopf"
                    pool = "doppelkopf-ddv" if ddv else "doppelkopf-house"
                    options = {"preset": "ddv" if ddv else "house"}
                    count = 4
                    ranks, stats = _doppelkopf(rng)
                mine = rng.randrange(count)
                guests = iter(rng.sample(other_ids, count))
                accounts: dict[int, int] = {}
                seats: list[dict[str, Any]] = []
                levels: dict[int, str] = {}
                for seat in range(count):
                    if seat == mine or rng.random() < 0.5:
                        account = me if seat == mine else next(guests)
                        accounts[seat] = account
                        seats.append(
                            {
                                "kind": "human",
                                "name": named[account],
                                "level": None,
                                "token_hash": f"{rng.getrandbits(128):032x}",
                                "account": account,
                            }
                        )
                    else:
                        levels[seat] = rng.choice(TRICK_LEVELS)
                        name = f"Bot {seat + 1}"
                        seats.append(
                            {"kind": "bot", "name": name, "level": levels[seat], "token_hash": None}
                        )
                tables.append(
                    {
                        "id": table_id,
                        "game": game,
                        "options": options,
                        "settings": {},
                        "seats": seats,
                        "seed": rng.getrandbits(63),
                        "status": "finished",
                        "creator": None,
                        "created": when - timedelta(minutes=rng.uniform(10, 60)),
                        "updated": when,
                    }
                )
                rated = rng.random() < 1 / 3
                all_tied = len(set(ranks)) == 1
                for seat, account in accounts.items():
                    results.append(
                        {
                            "table_id": table_id,
                            "seat": seat,
                            "account_id": account,
                            "game": game,
                            "pool": pool,
                            "rank": ranks[seat],
                            "won": ranks[seat] == 0 and not all_tied,
                            "rated": rated,
                            "stats": stats[seat],
                            "finished": when,
                        }
                    )
                by_pool[pool] += 1
                if not rated:
                    continue
                rated_tables += 1
                current = pools.setdefault(pool, {})
                teams: list[list[Participant]] = [
                    [str(accounts[s])] if s in accounts else [bot(pool, levels[s])]
                    for s in range(count)
                ]
                new = rate(current, teams, [r + 1 for r in ranks])
                current.update(new)
                for key, rating in new.items():
                    history.append(
                        {
                            "account_id": int(key),
                            "pool": pool,
                            "table_id": table_id,
                            "mu": rating.mu,
                            "sigma": rating.sigma,
                            "display": rating.display,
                            "created": when,
                        }
                    )
            ratings = [
                {
                    "account_id": int(key),
                    "pool": pool,
                    "mu": rating.mu,
                    "sigma": rating.sigma,
                    "provisional": rating.provisional,
                    "games": rating.games,
                }
                for pool, current in pools.items()
                for key, rating in current.items()
            ]
            drawn = time.perf_counter()
            connection.execute(insert(_TABLES), tables)
            connection.execute(insert(_RESULTS), results)
            # The sums RatingStore.record_table keeps per account and game.
            sums: dict[tuple[int, str], dict[str, Any]] = {}
            for row in results:
                total = sums.setdefault(
                    (row["account_id"], row["game"]),
                    {
                        "account_id": row["account_id"],
                        "game": row["game"],
                        "played": 0,
                        "won": 0,
                        "stats": {},
                    },
                )
                total["played"] += 1
                total["won"] += int(row["won"])
                for name, value in row["stats"].items():
                    total["stats"][name] = total["stats"].get(name, 0) + value
            connection.execute(insert(_TOTALS), list(sums.values()))
            if history:
                connection.execute(insert(_HISTORY), history)
            if ratings:
                connection.execute(insert(_RATINGS), ratings)
        written = time.perf_counter()
        with store.reading() as connection:
            mine_count = connection.execute(
                select(func.count()).select_from(_RESULTS).where(_RESULTS.c.account_id == me)
            ).scalar_one()
    finally:
        store.close()
    database = Path(sqlite_url(data_dir).removeprefix("sqlite:///"))
    size = sum(p.stat().st_size for p in database.parent.glob(database.name + "*"))
    player_points = Counter(h["pool"] for h in history if h["account_id"] == me)
    return {
        "seconds": written - started,
        "drawing_s": drawn - started,
        "inserting_s": written - drawn,
        "accounts": len(names),
        "tables": len(tables),
        "player_results": int(mine_count),
        "results": len(results),
        "rated_tables": rated_tables,
        "history_points": len(history),
        "player_history_points": dict(sorted(player_points.items())),
        "ratings": len(ratings),
        "tables_by_pool": dict(sorted(by_pool.items())),
        "database_bytes": size,
        "player_id": me,
    }


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


# -- 3. the load ----------------------------------------------------------------------


def new_client(base: str, connections: int) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=base,
        timeout=REQUEST_TIMEOUT_S,
        limits=httpx.Limits(max_connections=connections, max_keepalive_connections=connections),
        trust_env=False,
    )


async def timed_get(client: httpx.AsyncClient, path: str) -> tuple[float, str, bytes]:
    """Seconds from sending to the whole body read, the status (or error) and the body."""
    start = time.perf_counter()
    try:
        async with asyncio.timeout(REQUEST_TIMEOUT_S):
            response = await client.get(path)
    except (httpx.TimeoutException, TimeoutError):
        return time.perf_counter() - start, "error timeout", b""
    except httpx.TransportError as exc:
        return time.perf_counter() - start, f"error {type(exc).__name__}", b""
    return time.perf_counter() - start, str(response.status_code), response.content


async def closed_loop(
    client: httpx.AsyncClient, paths: Sequence[str], concurrency: int
) -> dict[str, Any]:
    """``paths`` asked by ``concurrency`` workers, each one request at a time."""
    latencies: list[float] = []
    statuses: Counter[str] = Counter()
    sizes: list[int] = []
    todo = iter(paths)

    async def worker() -> None:
        for path in todo:  # (one iterator shared: each path is taken once)
            seconds, status, body = await timed_get(client, path)
            statuses[status] += 1
            if status == "200":
                latencies.append(seconds)
                sizes.append(len(body))

    start = time.perf_counter()
    async with asyncio.TaskGroup() as workers:
        for _ in range(min(concurrency, len(paths))):
            workers.create_task(worker())
    elapsed = time.perf_counter() - start
    return {
        "requests": len(paths),
        "concurrency": concurrency,
        "elapsed_s": elapsed,
        "per_s": len(paths) / elapsed,
        "statuses": dict(sorted(statuses.items())),
        "latency_ms": summary_ms(latencies),
        "bytes": {"min": min(sizes, default=0), "max": max(sizes, default=0)},
    }


def client_event_loop() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop (the server's own event loop) when present, to spare the shared cores."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvicorn[standard] brings it on Linux
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def run_load(base: str, server_pid: int, args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed + 1)
    profile_path = f"/api/players/{PLAYER}"

    async def everything() -> dict[str, Any]:
        async with new_client(base, args.concurrency) as client:
            out: dict[str, Any] = {}
            cpu = cpu_seconds(server_pid)
            seconds, status, body = await timed_get(client, profile_path)
            out["profile_cold"] = {
                "ms": seconds * 1000,
                "status": status,
                "bytes": len(body),
                "server_cpu_s": cpu_seconds(server_pid) - cpu,
            }
            answer = json.loads(body) if status == "200" else {}
            out["profile_answer"] = {
                "played": {g: v["played"] for g, v in answer.get("games", {}).items()},
                "history_points": {
                    p: len(v["history"]) for p, v in answer.get("ratings", {}).items()
                },
                "recent": len(answer.get("recent", [])),
            }
            out["profile_alone"] = await phase(client, [profile_path] * args.alone, 1)
            out["profile"] = await phase(client, [profile_path] * args.requests)
            seconds, status, body = await timed_get(client, "/api/leaderboard/slobberhannes")
            pages = json.loads(body)["pages"] if status == "200" else 1
            out["leaderboard_cold"] = {"ms": seconds * 1000, "status": status, "bytes": len(body)}
            board = [
                f"/api/leaderboard/slobberhannes?page={rng.randint(1, pages)}"
                for _ in range(args.requests)
            ]
            out["leaderboard"] = await phase(client, board)
            out["leaderboard"]["pages"] = pages
            return out

    async def phase(
        client: httpx.AsyncClient, paths: list[str], concurrency: int | None = None
    ) -> dict[str, Any]:
        cpu = cpu_seconds(server_pid)
        mine = time.process_time()
        result = await closed_loop(client, paths, concurrency or args.concurrency)
        result["server_cpu_s"] = cpu_seconds(server_pid) - cpu
        result["server_cores"] = result["server_cpu_s"] / result["elapsed_s"]
        result["client_cpu_s"] = time.process_time() - mine
        result["client_cores"] = result["client_cpu_s"] / result["elapsed_s"]
        return result

    with asyncio.Runner(loop_factory=client_event_loop()) as runner:
        return runner.run(everything())


# -- 4. where the time goes -----------------------------------------------------------


def _median_ms(call: Callable[[], object], runs: int) -> float:
    call()  # (a first call, not timed: caches)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def breakdown(data_dir: Path, account: int, runs: int) -> dict[str, float]:
    """A profile's cost, timed one call at a time in this process (medians, ms): the
    store's queries (``RatingStore.profile``) and rendering an answer of that size."""
    store = TableStore(sqlite_url(data_dir))
    try:
        ratings = RatingStore(store)
        profile = ratings.profile(account)
        answer = {
            "games": profile.games,
            "points": [
                [str(at), shown, table]
                for history in profile.ratings.values()
                for at, shown, table in history.points
            ],
        }
        return {
            "profile_ms": _median_ms(lambda: ratings.profile(account), runs),
            "json_render_ms": _median_ms(lambda: JSONResponse(answer), runs),
        }
    finally:
        store.close()


# -- all of it ------------------------------------------------------------------------


def measure(args: argparse.Namespace) -> dict[str, Any]:
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="kartentisch-profile-") as tmp:
        data_dir = Path(tmp) / "data"
        built = build_database(data_dir, args.games, args.accounts, args.seed)
        load_built = os.getloadavg()
        port = free_port()
        server = start_server(port, data_dir, Path(tmp) / "server.log")
        try:
            load = run_load(f"http://127.0.0.1:{port}", server.pid, args)
            alive = server.poll() is None
        finally:
            stop_server(server)
        load_after = os.getloadavg()
        parts = breakdown(data_dir, built["player_id"], args.breakdown_runs)
    return {
        "games": args.games,
        "seed": args.seed,
        "build": built,
        **load,
        "breakdown": parts,
        "server": {"alive": alive},
        "load_average": {
            "before": list(load_before),
            "after_build": list(load_built),
            "after_load": list(load_after),
        },
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "system": f"{platform.system()} {platform.machine()}",
        },
    }


# -- the report -----------------------------------------------------------------------


def _latency(s: dict[str, Any]) -> str:
    if not s["count"]:
        return "none"
    figures = " / ".join(f"{s[q]:.1f}" for q in ("p50", "p95", "p99"))
    return f"{figures} ms (max {s['max']:.1f}; {s['count']:,})"


def _phase_rows(name: str, p: dict[str, Any]) -> list[tuple[str, str]]:
    size = p["bytes"]
    shown = f"{size['min']:,}" if size["min"] == size["max"] else f"{size['min']:,}–{size['max']:,}"
    return [
        (f"{name} p50 / p95 / p99", _latency(p["latency_ms"])),
        (
            f"{name} throughput",
            f"{p['per_s']:.1f}/s ({p['requests']:,} in {p['elapsed_s']:.1f} s, "
            f"{p['concurrency']} in flight), statuses {json.dumps(p['statuses'])}",
        ),
        (f"{name} answer", f"{shown} bytes"),
        (
            f"{name} CPU",
            f"server {p['server_cpu_s']:.1f} s ({p['server_cores']:.2f} cores), "
            f"load generator {p['client_cpu_s']:.1f} s ({p['client_cores']:.2f} cores)",
        ),
    ]


def print_report(r: dict[str, Any]) -> None:
    b = r["build"]
    cold = r["profile_cold"]
    seen = r["profile_answer"]
    lcold = r["leaderboard_cold"]
    parts = r["breakdown"]
    load = r["load_average"]
    rows = [
        (
            "database built",
            f"{b['seconds']:.1f} s (drawing and rating {b['drawing_s']:.1f} s, "
            f"inserting {b['inserting_s']:.1f} s), {b['database_bytes'] / 2**20:.1f} MiB",
        ),
        (
            "stored",
            f"{b['accounts']:,} accounts, {b['tables']:,} finished tables "
            f"({json.dumps(b['tables_by_pool'])}), {b['rated_tables']:,} rated",
        ),
        (
            "rows",
            f"{b['results']:,} results ({b['player_results']:,} the player's), "
            f"{b['history_points']:,} history points "
            f"(the player's {json.dumps(b['player_history_points'])}), {b['ratings']:,} ratings",
        ),
        (
            "profile cold (first request)",
            f"{cold['ms']:.1f} ms, {cold['status']}, {cold['bytes']:,} bytes, "
            f"server CPU {cold['server_cpu_s']:.2f} s",
        ),
        (
            "profile shows",
            f"played {json.dumps(seen['played'])}, chart points "
            f"{json.dumps(seen['history_points'])}, {seen['recent']} recent tables",
        ),
        *_phase_rows("profile alone", r["profile_alone"])[:2],
        *_phase_rows("profile", r["profile"]),
        (
            "leaderboard cold (page 1)",
            f"{lcold['ms']:.1f} ms, {lcold['status']}, {lcold['bytes']:,} bytes, "
            f"{r['leaderboard']['pages']} pages",
        ),
        *_phase_rows("leaderboard", r["leaderboard"]),
        ("in-process: RatingStore.profile", f"{parts['profile_ms']:.1f} ms"),
        ("  rendering JSON", f"{parts['json_render_ms']:.1f} ms (JSONResponse)"),
        ("server alive at the end", "yes" if r["server"]["alive"] else "NO"),
        (
            "load average before / built / after",
            " / ".join(
                " ".join(f"{x:.2f}" for x in load[k])
                for k in ("before", "after_build", "after_load")
            ),
        ),
    ]
    width = max(len(k) for k, _ in rows)
    m = r["machine"]
    print(
        f"Profile of a player with {r['games']:,} stored games "
        f"({m['cpus']} CPUs, Python {m['python']}, {m['system']}, seed {r['seed']})"
    )
    for key, value in rows:
        print(f"  {key:<{width}}  {value}")


def failed(result: dict[str, Any]) -> bool:
    """A request not answered 200, or the server gone."""
    return (
        any(set(result[name]["statuses"]) - {"200"} for name in ("profile", "leaderboard"))
        or result["profile_cold"]["status"] != "200"
        or result["leaderboard_cold"]["status"] != "200"
        or not result["server"]["alive"]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="the player's tables (10000)")
    parser.add_argument("--accounts", type=int, default=200, help="other accounts (200)")
    parser.add_argument("--requests", type=int, default=300, help="requests per route (300)")
    parser.add_argument("--concurrency", type=int, default=4, help="requests in flight (4)")
    parser.add_argument(
        "--alone", type=int, default=30, help="profile requests one at a time first (30)"
    )
    parser.add_argument("--breakdown-runs", type=int, default=20, help="in-process runs (20)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if min(args.games, args.requests, args.concurrency, args.alone, args.breakdown_runs) < 1:
        parser.error("--games, --requests, --concurrency, --alone, --breakdown-runs: from 1")
    if not 5 <= args.accounts <= 999:
        parser.error("--accounts must be 5..999 (a table has up to four others)")
    result = measure(args)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_report(result)
    return 1 if failed(result) else 0


if __name__ == "__main__":
    sys.exit(main())
