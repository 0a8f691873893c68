"""A smoke test of ``benchmarks/web_cluster.py``: tiny numbers, the report's shape, no timings.

One and two ``kartentisch serve`` processes sharing PostgreSQL (a throwaway schema) and
Redis play two tables until 40 actions have been counted (an event, not a time); the
players of the two-process run are spread over both processes, so actions and views
cross Redis. Without PostgreSQL or Redis the test is skipped with a message, except under
``CI=true`` (as tests/web/test_cluster.py).
"""

from __future__ import annotations

import json
import math
import os

import pytest

from benchmark_scripts import load_benchmark

from .test_cluster import _redis_reachable, _redis_url
from .test_storage import _postgres_url

ACTIONS = 40


def _services() -> tuple[str, str]:
    """The PostgreSQL and Redis URLs, or a skip (a failure under CI=true) naming what is
    missing."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        postgres = None
    else:
        postgres = _postgres_url()
    redis = _redis_url()
    missing = []
    if postgres is None:
        missing.append(
            "PostgreSQL is not reachable at 127.0.0.1:5432 (database test, user postgres or "
            "root, trust auth; or set KARTENTISCH_TEST_PG), or psycopg is not installed"
        )
    if not _redis_reachable(redis):
        missing.append(
            f"Redis is not reachable at {redis} (set $KARTENTISCH_TEST_REDIS for another), "
            "or the redis package is not installed"
        )
    if missing:
        message = "; ".join(missing)
        if os.environ.get("CI") == "true":
            pytest.fail(message + ": CI=true requires them")
        pytest.skip(message)
    assert postgres is not None
    return postgres, redis


def test_the_cluster_benchmark_runs_and_reports(capsys: pytest.CaptureFixture[str]) -> None:
    postgres, redis = _services()
    web_cluster = load_benchmark("web_cluster")
    argv = [
        *("--processes", "1,2", "--tables", "2", "--routing", "any"),
        *("--actions", str(ACTIONS), "--seconds", "240", "--think", "0.02"),
        *("--ramp", "0", "--settle", "0.5", "--db", postgres, "--redis", redis, "--json"),
    ]
    status = web_cluster.main(argv)
    report = json.loads(capsys.readouterr().out)
    assert status == 0, report
    configurations = report["configurations"]
    assert [c["processes"] for c in configurations] == [1, 2]
    for c in configurations:
        assert c["tables"] == 2 and c["routing"] == "any"
        # The window ended on the count of actions, not on the time cap.
        assert c["stopped_by"] == "actions", c
        assert c["actions"] >= ACTIONS
        assert c["errors"] == 0, c["error_codes"]
        assert c["actions_per_s"] > 0
        rt = c["round_trip_ms"]
        assert set(rt) == {"p50", "p90", "p99", "max"}
        assert 0 < rt["p50"] <= rt["p99"] <= rt["max"]
        servers = c["servers"]
        assert len(servers) == c["processes"]
        assert sum(s["owned_tables"] for s in servers) == 2
        assert sum(s["actions"] for s in servers) == c["actions"]
        for s in servers:
            assert s["actions"] > 0  # every process owns one of the tables
            assert s["cpu_s"] >= 0 and s["rss_mib"]["peak"] >= s["rss_mib"]["before"] > 0
            assert not math.isnan(s["cpu_ms_per_action"])
        pg = c["postgres"]
        # Every action is stored before anyone hears of it.
        assert 0 < pg["action_transactions"] <= pg["action_rows"]
        assert pg["backends"] >= c["processes"]
        assert c["redis"]["channels"] >= c["processes"]
        assert c["clients"]["processes"] == 1
        assert len(c["load_average"]["window_start"]) == 3
    # Two processes: the players of each table sit on both, so messages cross Redis.
    assert configurations[1]["redis"]["publish_per_action"] > 0
    assert report["find_max"] is None
