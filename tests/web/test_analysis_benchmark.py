"""A smoke test of ``benchmarks/analysis_time.py``: one deal a game, the report's shape."""

from __future__ import annotations

import json

import pytest

from benchmark_scripts import load_benchmark


def test_the_analysis_benchmark_runs_and_reports(capsys: pytest.CaptureFixture[str]) -> None:
    analysis_time = load_benchmark("analysis_time")
    assert analysis_time.main(["--deals", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["deals"] == 1
    for game in ("slobberhannes", "doppelkopf"):
        row = report[game]
        assert 0 < row["median_s"] <= row["p95_s"] <= row["max_s"]
    # The records it analyses are whole and replay: the same seed, the same record.
    assert analysis_time.record("doppelkopf", 5) == analysis_time.record("doppelkopf", 5)
