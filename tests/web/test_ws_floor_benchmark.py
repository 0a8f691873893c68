"""A smoke test of ``benchmarks/ws_floor.py``: tiny numbers, the report's shape, no timings.

Both stacks (uvicorn with Starlette as ``serve`` runs them, and the ``websockets``
server alone) serve two groups of four until 30 actions have been counted (an
event, not a time): every action's answer came back to its actor.
"""

from __future__ import annotations

import json

import pytest

from benchmark_scripts import load_benchmark


@pytest.mark.parametrize("stack", ["uvicorn", "websockets"])
def test_the_floor_benchmark_serves_and_reports(
    stack: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ws_floor = load_benchmark("ws_floor")
    argv = ["--groups", "2", "--think", "0.01", "--actions", "30", "--settle", "0"]
    assert ws_floor.main([*argv, "--stack", stack, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["stack"] == stack and report["deflate"] is True and report["fanout"] == 4
    assert report["actions"] >= 30
    # (CPU time comes in clock ticks: a few dozen actions may read as none.)
    assert report["server_cpu_ms_per_action"] >= 0
    assert report["rtt_p50_ms"] <= report["rtt_p99_ms"]


def test_an_answer_is_about_the_size_asked_and_reaches_the_actor_first() -> None:
    ws_floor = load_benchmark("ws_floor")
    for n in (1, 7, 59, 300):
        text = ws_floor.patch_text(n, 350)
        assert 350 <= len(text) < 350 + 80
        assert json.loads(text)["version"] == n
    members = ["a", "b", "c", "d"]
    assert ws_floor.receivers(members, "c", 4) == ["c", "a", "b", "d"]
    assert ws_floor.receivers(members, "c", 1) == ["c"]
