"""The terminal game and the ``kartentisch`` commands for Doppelkopf."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from kartentisch.bots import make_bot
from kartentisch.cli import doppelkopf as cli
from kartentisch.cli.main import main
from kartentisch.games.doppelkopf import DoppelkopfMatch, DoppelkopfOptions


def run_session(
    tmp_path: Path, rules: str, players: int, deals: int = 2, table_mode: bool = False
) -> str:
    options = DoppelkopfOptions.from_dict(
        {"preset": rules, "players": players, "table_mode": table_mode}
    )
    match = DoppelkopfMatch(
        options, seats=["You", "Ben", "Carla", "Dan", "Eva"][:players], seed=4, start=False
    )
    bots = {s: make_bot("doppelkopf", "heuristic", s) for s in range(1, players)}
    played = 0

    def read(prompt: str) -> str:
        nonlocal played
        if "lift" in prompt:
            return "5"
        if "Kulanz" in prompt:
            return "y"
        if "next" in prompt.lower():
            played += 1
            return "q" if played >= deals else ""
        if prompt.startswith("Healthy or reservation?"):
            return "g"  # once a deal: the table declares the other rounds
        legal = match.deal.legal_actions(0)
        cards = [a for a in legal if not hasattr(a, "word")]
        return str(cards[0] if cards else legal[0])

    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=False)
    save = tmp_path / "session.json"
    status = cli.TerminalGame(match, bots, "en", str(save), console, read).run()
    assert status == 0
    assert save.exists()
    return out.getvalue()


@pytest.mark.parametrize(("rules", "players"), [("house", 4), ("house", 5), ("ddv", 4)])
def test_terminal_session(
    tmp_path: Path, rules: str, players: int, capsys: pytest.CaptureFixture[str]
) -> None:
    text = run_session(tmp_path, rules, players)
    assert "Score sheet" in text and "Game:" in text
    assert main(["replay", str(tmp_path / "session.json"), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == "doppelkopf" and len(summary["points"]) == players


def test_one_question_a_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = DoppelkopfMatch(seats=["You", "Ben", "Carla", "Dan"], seed=6, start=False)
    bots = {s: make_bot("doppelkopf", "heuristic", s) for s in range(1, 4)}
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=False)
    asked: list[int] = []  # the deal of every question asked
    solo: dict[int, str] = {}

    def read(prompt: str) -> str:
        deal = len(match.history)
        if "lift" in prompt:
            return ""
        if "next" in prompt.lower():
            return "q" if deal >= 3 else ""
        if prompt.startswith("Healthy or reservation?"):
            asked.append(deal)
            # The first deal healthy; later ones a reservation: a solo.
            return "g" if deal == 1 else "v"
        if prompt.startswith("Your reservation"):
            listed = out.getvalue().splitlines()
            number, name = next(
                line.split(None, 1) for line in reversed(listed) if line.endswith("queens solo")
            )
            solo[deal] = name
            return number
        assert match.deal.declaration_round is None, f"asked {prompt!r} in the declarations"
        legal = match.deal.legal_actions(0)
        cards = [a for a in legal if not hasattr(a, "word")]
        return str(cards[0] if cards else legal[0])

    save = tmp_path / "session.json"
    assert cli.TerminalGame(match, bots, "en", str(save), console, read).run() == 0
    assert asked and len(asked) == len(set(asked))  # never twice in one deal
    first = match.deals[0]
    assert {str(c) for s, c in first.declarations if s == 0} == {"pass"}
    assert sum(1 for s, _ in first.declarations if s == 0) > 1  # rounds declared for you
    later = [d for d in match.deals[1:] if d.declarations]
    assert solo and any(
        "solo queens" in [str(c) for s, c in d.declarations if s == 0] for d in later
    )
    # The record keeps the notation: it replays.
    assert main(["replay", str(save), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == "doppelkopf"


def test_play_command_parses_options(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, object] = {}

    def fake_run(self: cli.TerminalGame) -> int:
        seen["options"] = self.match.options
        seen["names"] = self.match.seat_names
        return 0

    monkeypatch.setattr(cli.TerminalGame, "run", fake_run)
    assert main(["play", "doppelkopf", "--rules", "ddv", "--players", "5", "--seed", "3"]) == 0
    options = seen["options"]
    assert isinstance(options, DoppelkopfOptions)
    assert options.preset == "ddv" and options.players == 5


def test_rules_command(capsys: pytest.CaptureFixture[str]) -> None:
    for lang in ("de", "en", "ru"):
        assert main(["rules", "doppelkopf", "--lang", lang]) == 0
        assert "Doppelkopf" in capsys.readouterr().out or lang == "ru"
    assert main(["rules", "doko"]) == 0


def test_replay_text_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = DoppelkopfMatch(seed=2, first_dealer=0)
    deal = match.deal
    while not deal.is_over:
        match.apply(deal.legal_actions()[0])
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal.to_record()), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Deal 1" in out and "Points" in out
    record = deal.to_record()
    record["actions"] = ["QC", *record["actions"]]
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert "action 1" in capsys.readouterr().err


def test_args_namespace_defaults() -> None:
    parser = argparse.ArgumentParser()
    cli.add_play_arguments(parser)
    args = parser.parse_args([])
    # Unset rule flags are None (a rule-set file refuses any that is given) ...
    assert (args.rules, args.preset, args.players, args.bots, args.table_mode) == (
        None,
        None,
        None,
        "heuristic",
        False,
    )
    # ... and mean the house rules with four players.
    assert cli.play_options(args) == DoppelkopfOptions()


def test_refusals_in_three_languages() -> None:
    from kartentisch.errors import IllegalActionError
    from kartentisch.games.doppelkopf.text import refusal_text

    error = IllegalActionError("wrong_party", "seat 1 plays Kontra and cannot say Re")
    # the catalog's words (rule.wrong_party), not the engine's English message
    assert refusal_text(error, "en") == "that is the other party's announcement"
    unknown = IllegalActionError("no_such_rule_code", "the engine's own words")
    assert refusal_text(unknown, "de") == "the engine's own words"
    assert "Partei" in refusal_text(error, "de")
    assert "партии" in refusal_text(error, "ru")
