"""A smoke test of ``benchmarks/openspiel_vs_strong.py``: tiny runs, the report's shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmark_scripts import load_benchmark

pytest.importorskip("pyspiel", reason="the OpenSpiel games need the 'openspiel' extra")


def test_slobberhannes_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark("openspiel_vs_strong")
    assert bench.main(["--deals", "1", "--simulations", "2"]) == 0
    text = capsys.readouterr().out
    assert "OpenSpiel ISMCTS vs the strong bot: Slobberhannes, 1 duplicate deals" in text
    assert "| ismcts | 1 |" in text
    assert "| strong | 3 |" in text
    assert "**ismcts − strong** (paired per deal)" in text


@pytest.mark.parametrize("rules", ["house", "ddv"])
def test_a_tiny_doppelkopf_run(
    rules: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_benchmark("openspiel_vs_strong")
    log = tmp_path / "deals.jsonl"
    argv = ["--game", "doppelkopf", "--rules", rules, "--deals", "1", "--simulations", "2"]
    assert bench.main([*argv, "--log", str(log), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "doppelkopf"
    assert report["rules"] == rules
    assert report["options"]["preset"] == rules
    assert report["bots"] == ["strong", "ismcts", "strong", "ismcts"]
    assert report["lower_is_better"] is False
    assert [(r["bot"], r["seats"]) for r in report["results"]] == [("strong", 2), ("ismcts", 2)]
    margin = report["margin"]
    assert (margin["first"], margin["second"], margin["samples"]) == ("strong", "ismcts", 1)
    assert report["deals_played"] == 1
    # The log holds the deal: a second run replays nothing and reports the same.
    assert len(log.read_text().splitlines()) == 1
    assert bench.main([*argv, "--log", str(log), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["deals_played"] == 0
    assert again["results"] == report["results"]
    assert again["margin"] == report["margin"]


def test_doppelkopf_rules_from_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark("openspiel_vs_strong")
    ddv = Path(__file__).resolve().parents[2] / "examples" / "rules" / "ddv.toml"
    assert bench.rule_options("doppelkopf", str(ddv))["preset"] == "ddv"
    assert bench.rule_options("doppelkopf", None) == {"preset": "house", "players": 4}
    with pytest.raises(ValueError):
        bench.rule_options("slobberhannes", "ddv")
    with pytest.raises(SystemExit):
        bench.main(["--rules", "ddv"])  # (Slobberhannes has no --rules)
    assert "--rules is for Doppelkopf" in capsys.readouterr().err


def test_a_thrown_in_deal_is_logged() -> None:
    """A deal thrown in before any game (five kings) has no game facts: the log says
    so instead of failing. House rules, seed 1, deal 1: seat 2 holds five kings, and
    the strong bot throws them in wherever it sits there (every rotation but the
    second, where ISMCTS sits in seat 2)."""
    bench = load_benchmark("openspiel_vs_strong")
    setup = bench.Setup(
        game="doppelkopf",
        simulations=2,
        options={"preset": "house", "players": 4},
        ismcts_seats=1,
    )
    result = bench.play_deal(1, 1, setup)
    for rotation in (0, 2, 3):
        detail = result.details[rotation]
        assert (detail["game"], detail["reason"], detail["by"]) == ("redeal", "kings", 2)
        assert detail["points"] == [0.0, 0.0, 0.0, 0.0]


def test_a_strong_variant_is_logged_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--strong`` plays a variant of the strong Slobberhannes bot; its deals are
    logged with the variant, so a run of another variant replays them."""
    bench = load_benchmark("openspiel_vs_strong")
    log = tmp_path / "deals.jsonl"
    argv = ["--deals", "1", "--simulations", "2", "--log", str(log), "--json"]
    variant = ["--strong", "samples:4,min_samples:2,epsilon:0.3"]
    assert bench.main([*argv, *variant]) == 0
    assert json.loads(capsys.readouterr().out)["deals_played"] == 1
    entry = json.loads(log.read_text().splitlines()[0])
    assert entry["settings"]["strong"] == {"samples": 4, "min_samples": 2, "epsilon": 0.3}
    assert bench.main([*argv, *variant]) == 0
    assert json.loads(capsys.readouterr().out)["deals_played"] == 0
    assert bench.main([*argv, "--strong", "samples:4,min_samples:2"]) == 0
    assert json.loads(capsys.readouterr().out)["deals_played"] == 1
    with pytest.raises(SystemExit):
        bench.main(["--game", "doppelkopf", "--strong", "epsilon:0.3"])
    assert "--strong is for Slobberhannes" in capsys.readouterr().err
