"""A smoke test of ``benchmarks/login_load.py``: tiny numbers, the report's shape, no timings."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "login_load.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("login_load", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up)
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def test_the_login_benchmark_runs_and_reports(capsys: pytest.CaptureFixture[str]) -> None:
    login_load = _load()
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
