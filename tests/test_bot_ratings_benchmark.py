"""A smoke test of ``benchmarks/bot_ratings.py``: tiny seeded runs, the real output, no timings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark_scripts import load_benchmark


def _run(module: object, argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert module.main(argv) == 0  # type: ignore[attr-defined]
    return json.loads(capsys.readouterr().out)


def test_slapjack_bots_are_rated_by_speed_and_club_is_the_anchor(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bot_ratings = load_benchmark("bot_ratings")
    report = _run(bot_ratings, ["--pool", "slapjack", "--games", "6", "--json"], capsys)
    assert report["pool"] == "slapjack" and report["seed"] == 1
    assert report["options"] == {"players": 5}
    assert report["played"] == report["games"] == 6
    assert report["results"] == 6 * 5  # one rated game per rotation
    assert (report["anchor"], report["anchor_mu"]) == ("club", 25.0)
    rows = {row["level"]: row for row in report["levels"]}
    assert list(rows) == ["beginner", "casual", "club", "fast", "expert"]
    assert rows["club"]["mu"] == 25.0 and rows["club"]["fixed"] == 25.0
    # with this seed the slowest level is rated lowest and the fastest highest
    assert rows["beginner"]["mu"] < rows["club"]["mu"] < rows["expert"]["mu"]
    assert rows["beginner"]["mu"] == min(row["mu"] for row in rows.values())
    assert rows["expert"]["mu"] == max(row["mu"] for row in rows.values())
    for row in rows.values():
        assert row["results"] == 30 and row["sigma"] > 0
        assert row["low"] <= row["mu"] <= row["high"]
        assert row["fixed"] * 2 == round(row["fixed"] * 2)


def test_random_ends_below_heuristic_in_slobberhannes_matches(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bot_ratings = load_benchmark("bot_ratings")
    argv = [
        "--pool", "slobberhannes", "--levels", "random", "heuristic", "strong",
        "--option", "target=3", "--games", "2", "--seed", "2", "--batches", "2", "--json",
    ]  # fmt: skip
    report = _run(bot_ratings, argv, capsys)
    assert report["options"] == {"target": 3, "players": 3}
    assert report["results"] == 2 * 3  # one rated match per rotation
    rows = {row["level"]: row for row in report["levels"]}
    assert rows["heuristic"]["mu"] == 23.0  # the anchor
    assert rows["random"]["mu"] < rows["heuristic"]["mu"]
    assert rows["random"]["mean_place"] > rows["heuristic"]["mean_place"]


def test_a_saved_run_resumes_with_the_same_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot_ratings = load_benchmark("bot_ratings")
    save = tmp_path / "games.jsonl"
    argv = ["--pool", "irish-snap", "--levels", "beginner", "club", "expert", "--json"]
    _run(bot_ratings, [*argv, "--games", "3", "--save", str(save)], capsys)
    # two more games: the first three come from the file, and the same as a fresh run
    resumed = _run(bot_ratings, [*argv, "--games", "5", "--save", str(save)], capsys)
    fresh = _run(bot_ratings, [*argv, "--games", "5"], capsys)
    assert resumed == fresh and resumed["results"] == 5 * 3
    assert len(save.read_text().splitlines()) == 1 + 5
    # another run's file is refused
    with pytest.raises(SystemExit, match="another run"):
        bot_ratings.main([*argv, "--games", "1", "--seed", "3", "--save", str(save)])
