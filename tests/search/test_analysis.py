"""`kartentisch analyze` and the play hint."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kartentisch.analysis import analyze_slobberhannes
from kartentisch.cli.main import build_parser, main
from kartentisch.errors import KartentischError
from kartentisch.games import get_game
from kartentisch.records import load_record

DATA = Path(__file__).parent.parent / "data"


def test_analysis_of_the_narrated_russian_deal() -> None:
    deal = get_game("slobberhannes").replay(load_record(DATA / "seed004_russian.json"))
    decisions = analyze_slobberhannes(deal, samples=10)
    assert len(decisions) == 32
    for d in decisions:
        assert d.full_cost == d.full_values[d.played] - min(d.full_values.values())
        assert d.full_cost >= 0 and d.expected_cost >= 0
        if d.forced:
            assert d.full_cost == 0 and d.expected_cost == 0
    # The last trick is forced for everyone.
    assert all(d.forced for d in decisions if d.trick == 8)
    only = analyze_slobberhannes(deal, seat=2, samples=5)
    assert {d.seat for d in only} == {2} and len(only) == 8
    with pytest.raises(KartentischError, match="no seat 9"):
        analyze_slobberhannes(deal, seat=9)


def test_analyze_command_json_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(DATA / "seed004_russian.json")
    assert main(["analyze", path, "--seat", "2", "--samples", "6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "slobberhannes"
    assert [d["seat"] for d in out["decisions"]] == [2] * 8
    first = out["decisions"][0]
    assert set(first) >= {"played", "full_information", "seat_information", "trick"}
    assert main(["analyze", path, "--samples", "4"]) == 0
    text = capsys.readouterr().out
    assert "Владимир" in text and "chips lost to perfect play" in text
    assert main(["analyze", path, "--samples", "4", "--lang", "ru"]) == 0
    russian = capsys.readouterr().out
    assert "сдача 1, взятка 1: Владимир сыграл(а)" in russian
    assert "фишек потеряно против идеальной игры" in russian
    assert "chips" not in russian and "played" not in russian


def test_analyze_refuses_a_bad_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "kartentisch-record/1", "game": "slobberhannes"}')
    result = subprocess.run(
        [sys.executable, "-m", "kartentisch.cli.main", "analyze", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_play_with_hint_shows_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    from kartentisch.cli.slobberhannes import play

    args = build_parser().parse_args(["play", "slobberhannes", "--seed", "3", "--hint"])
    lines = iter(["q"])
    assert play(args, read=lambda prompt: next(lines)) == 0
    assert "Hint: " in capsys.readouterr().out
