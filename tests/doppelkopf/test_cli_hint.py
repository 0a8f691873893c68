"""`kartentisch play doppelkopf --hint`: the strong bot's advice at each of the human's turns."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from kartentisch.bots import make_bot
from kartentisch.cards import Card
from kartentisch.cli import doppelkopf as cli
from kartentisch.cli.main import build_parser
from kartentisch.games.doppelkopf import DoppelkopfMatch
from kartentisch.games.doppelkopf.actions import Action
from kartentisch.games.doppelkopf.question import Answer
from kartentisch.i18n import LANGUAGES, t


def test_hints_are_legal_and_followed_through_a_deal() -> None:
    match = DoppelkopfMatch(seats=["You", "Ben", "Carla", "Dan"], seed=4, start=False)
    bots = {s: make_bot("doppelkopf", "heuristic", s) for s in range(1, 4)}
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=False)
    followed: list[Action] = []
    answered: list[Answer] = []
    game: cli.TerminalGame

    def read(prompt: str) -> str:
        if "lift" in prompt:
            return "5"
        if "next" in prompt.lower():
            return "q"
        advice = game.suggestions(match.deal)
        assert advice, "a hint at every turn of the human"
        action = advice[-1][0]  # the card after an announcement the bot would make
        if isinstance(action, Answer):
            # The declaration question: an answer the table takes, for every round.
            game.answers.check(match.deal, 0, action)
            answered.append(action)
            return str(action)
        assert action in match.deal.legal_actions(0)
        followed.append(action)
        return str(action)

    game = cli.TerminalGame(match, bots, "en", None, console, read, hint=True)
    assert game.run() == 0
    text = out.getvalue()
    assert match.deal.is_over and match.deal.outcome == "played"
    cards = [a for a in followed if isinstance(a, Card)]
    assert len(cards) == match.options.hand_size  # every card of the human was hinted
    hints = [line for line in text.splitlines() if line.startswith("Hint: ")]
    assert len(answered) <= 1 and len(hints) >= len(followed) + len(answered)
    assert any("expected" in line and "points (next best" in line for line in hints)
    assert any("the search starts 6 tricks before the end" in line for line in hints)
    # The question, answered once for the deal: Gesund, nothing worth weighing.
    assert answered == [Answer()]
    assert hints[0] == "Hint: pass (healthy) — no reservation worth weighing with this hand"


def test_play_command_with_hint(capsys: pytest.CaptureFixture[str]) -> None:
    args = build_parser().parse_args(["play", "doppelkopf", "--seed", "3", "--hint"])
    assert args.hint is True
    answers = iter(["", "q"])
    assert cli.play(args, read=lambda prompt: next(answers, "q")) == 0
    assert "Hint: " in capsys.readouterr().out


def test_play_command_without_hint(capsys: pytest.CaptureFixture[str]) -> None:
    args = build_parser().parse_args(["play", "doppelkopf", "--seed", "3"])
    answers = iter(["", "q"])
    assert cli.play(args, read=lambda prompt: next(answers, "q")) == 0
    assert "Hint: " not in capsys.readouterr().out


def test_hint_texts_in_every_language() -> None:
    for lang in LANGUAGES:
        assert t(lang, "hint_points", value="+10.0", other="Q♣", other_value="-20.0")
        assert t(lang, "hint_not_searched")
        assert "6" in t(lang, "hint_early", n=6)


def test_a_declaration_hint_gives_the_bots_estimates() -> None:
    from kartentisch.games.doppelkopf import Call

    from .scripted import script
    from .test_analysis import BLUNDER

    deal = script(BLUNDER, dealer=3).deal()
    for _ in range(4):
        deal.apply(Call("pass"))  # the Scharfe round; the soli now, the human first
    match = DoppelkopfMatch(seats=["You", "Ben", "Carla", "Dan"], seed=4, start=False)
    for lang, text in (
        ("en", " points expected over sampled deals; next best trump solo: -"),
        ("de", " Punkte im Erwartungswert über gezogene Blätter; zweitbeste Wahl Trumpfsolo: -"),
    ):
        console = Console(file=io.StringIO(), width=120, force_terminal=False)
        game = cli.TerminalGame(match, {}, lang, None, console, lambda prompt: "q", hint=True)
        [(action, reason)] = game.suggestions(deal)
        assert action == Answer()  # the question, for the solo and the marriage rounds
        assert reason.startswith("+") and text in reason, reason
