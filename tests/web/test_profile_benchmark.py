"""A smoke test of ``benchmarks/profile_load.py``: tiny numbers, the report's shape, no timings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark_scripts import load_benchmark


def test_the_profile_benchmark_runs_and_reports(capsys: pytest.CaptureFixture[str]) -> None:
    profile_load = load_benchmark("profile_load")
    argv = ["--games", "40", "--accounts", "6", "--requests", "6", "--alone", "2"]
    status = profile_load.main([*argv, "--concurrency", "2", "--breakdown-runs", "1", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0, report
    built = report["build"]
    assert built["tables"] == built["player_results"] == 40
    assert built["accounts"] == 7
    assert built["results"] >= 40
    assert 0 < built["rated_tables"] < 40
    assert report["profile_cold"]["status"] == "200"
    seen = report["profile_answer"]
    assert sum(seen["played"].values()) == 40
    assert seen["history_points"] == built["player_history_points"]
    assert seen["recent"] == 20
    for name, count in (("profile_alone", 2), ("profile", 6), ("leaderboard", 6)):
        phase = report[name]
        assert phase["statuses"] == {"200": count}
        assert set(phase["latency_ms"]) == {"count", "p50", "p95", "p99", "max"}
        assert phase["latency_ms"]["count"] == count
        assert phase["bytes"]["min"] > 0
    assert report["profile"]["bytes"]["min"] == report["profile_cold"]["bytes"]
    assert report["breakdown"]["profile_ms"] > 0
    assert report["server"]["alive"] is True
    assert len(report["load_average"]["before"]) == 3


def test_the_database_is_the_same_for_a_seed(tmp_path: Path) -> None:
    profile_load = load_benchmark("profile_load")
    one = profile_load.build_database(tmp_path / "one", 25, 5, 3)
    two = profile_load.build_database(tmp_path / "two", 25, 5, 3)
    other = profile_load.build_database(tmp_path / "other", 25, 5, 4)
    keys = ("results", "rated_tables", "history_points", "player_history_points", "ratings")
    assert [one[k] for k in keys] == [two[k] for k in keys]
    assert one["tables_by_pool"] == two["tables_by_pool"]
    assert [one[k] for k in keys] != [other[k] for k in keys]
