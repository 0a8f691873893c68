"""A smoke test of ``benchmarks/login_load.py``: tiny numbers, the report's shape, no timings."""

from __future__ import annotations

import json

import pytest

from benchmark_scripts import load_benchmark


def test_the_login_benchmark_runs_and_reports(capsys: pytest.CaptureFixture[str]) -> None:
    login_load = load_benchmark("login_load")
    argv = ["--rate", "5", "--seconds", "1", "--accounts", "3", "--hash-runs", "2", "--json"]
    status = login_load.main(argv)
    report = json.loads(capsys.readouterr().out)
    assert status == 0, report
    assert set(report["hashing"]) >= {"runs", "parameters", "hash_ms", "verify_ms"}
    assert set(report["hashing"]["hash_ms"]) == {"p50", "p95", "min", "max"}
    assert report["signup"]["accounts"] == 3
    logins = report["logins"]
    assert logins["offered"] == 5
    assert logins["succeeded"] > 0
    assert logins["errors"] == 0
    assert logins["succeeded"] + logins["busy"] + logins["unauthorized"] <= logins["answered"]
    assert logins["answered"] == sum(
        n for kind, n in logins["statuses"].items() if not kind.startswith("error")
    )
    for key in ("latency_ok_ms", "latency_all_ms"):
        assert set(logins[key]) == {"count", "p50", "p95", "p99", "max"}
    assert report["health"]["latency_ms"]["count"] > 0
    assert report["server"]["alive"] is True
    assert report["server_cpu_s"] >= 0
    assert len(report["load_average"]["before"]) == 3
