"""The ``kartentisch`` command end to end: replay, rules and play."""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kartentisch.cards import piquet_deck
from kartentisch.cli.main import main
from kartentisch.cli.slobberhannes import play as sb_play
from kartentisch.errors import IllegalActionError
from kartentisch.i18n import describe_refusal, t

from .scripted import DATA, SEED004_TRICK_WINNERS

SCRIPT = Path(sys.executable).with_name("kartentisch")
SEED004_FILE = DATA / "seed004_russian.json"
REPO = DATA.parent.parent


def run(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed console script."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "120", "NO_COLOR": "1"}
    return subprocess.run(
        [str(SCRIPT), *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        env=env,
        cwd=cwd,
        check=False,
    )


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``main`` in this process; return (status, stdout, stderr)."""
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def write(tmp_path: Path, name: str, record: Any) -> str:
    path = tmp_path / name
    path.write_text(record if isinstance(record, str) else json.dumps(record), "utf-8")
    return str(path)


def seed004() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SEED004_FILE.read_text("utf-8"))
    return data


class TestReplay:
    def test_console_script_json(self) -> None:
        result = run("replay", "tests/data/seed004_russian.json", "--json", cwd=REPO)
        assert result.returncode == 0, result.stderr
        assert result.stderr == ""
        summary = json.loads(result.stdout)
        assert summary["points"] == [0, 0, 2, 1]
        assert len(summary["tricks"]) == 8
        for trick in summary["tricks"]:
            assert set(trick) == {"leader", "cards", "winner"}
            assert len(trick["cards"]) == 4
        assert [t["winner"] for t in summary["tricks"]] == list(SEED004_TRICK_WINNERS)
        assert summary["tricks"][0] == {"leader": 0, "cards": ["8C", "9C", "7C", "JC"], "winner": 3}
        assert summary["tricks"][7] == {"leader": 2, "cards": ["8H", "8S", "7H", "7S"], "winner": 2}

    def test_text(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = cli(capsys, "replay", str(SEED004_FILE))
        assert status == 0 and err == ""
        lines = out.splitlines()
        assert lines[0] == "Deal 1 — Геннадий deals, Алексей leads"
        assert "  Trick 1: Алексей 8♣, Борис 9♣, Владимир 7♣, Геннадий J♣ → Геннадий" in lines
        assert "      Геннадий pays 1 for the first trick" in lines
        assert "  Trick 5: Геннадий 7♦, Алексей Q♣, Борис 8♦, Владимир 9♦ → Владимир" in lines
        assert "      Владимир pays 1 for the queen of clubs" in lines
        assert "  Trick 8: Владимир 8♥, Геннадий 8♠, Алексей 7♥, Борис 7♠ → Владимир" in lines
        assert "      Владимир pays 1 for the last trick" in lines
        assert lines[-1] == "  Penalties: Алексей 0, Борис 0, Владимир 2, Геннадий 1"
        assert sum(line.lstrip().startswith("Trick ") for line in lines) == 8

    @pytest.mark.parametrize(
        ("lang", "expected"),
        [
            (
                "ru",
                [
                    "Взятка 1:",
                    "Геннадий: ремиз 1 за первую взятку",
                    "Владимир: ремиз 1 за даму треф",
                ],
            ),
            ("de", ["Stich 1:", "Геннадий zahlt 1 für den ersten Stich", "Strafpunkte:"]),
        ],
    )
    def test_text_in_other_languages(
        self, capsys: pytest.CaptureFixture[str], lang: str, expected: list[str]
    ) -> None:
        status, out, _ = cli(capsys, "replay", str(SEED004_FILE), "--lang", lang)
        assert status == 0
        for text in expected:
            assert text in out

    def test_match_record(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = cli(capsys, "replay", str(DATA / "match_first_to_ten.json"))
        assert status == 0
        lines = out.splitlines()
        assert sum(line.startswith("Deal ") for line in lines) == 6
        assert "Standings: Anna 10, Ben 1, Carla 0, Dan 11" in lines
        assert "Anna reached 10 and loses the match." in lines
        assert lines[-1] == "Settlement: Anna -19, Ben +9, Carla +10, Dan +0"
        status, out, _ = cli(capsys, "replay", str(DATA / "match_first_to_ten.json"), "--json")
        summary = json.loads(out)
        assert summary["points"] == [10, 1, 0, 11]
        assert len(summary["deals"]) == 6
        assert summary["deals"][5]["tricks"][0]["winner"] == 0
        assert summary["settlement"] == [-19, 9, 10, 0]

    def test_revoke_record(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = cli(capsys, "replay", str(DATA / "revoke_penalty.json"))
        assert status == 0
        assert out.count("Ben pays 1 for a revoke") == 2
        assert out.index("Anna pays 1 for the last trick") < out.index("Ben pays 1 for a revoke")

    def test_illegal_action(self, tmp_path: Path) -> None:
        record = seed004()
        record["actions"][2] = "QH"  # Владимир holds 7♣ 10♣
        path = write(tmp_path, "bad.json", record)
        result = run("replay", path)
        assert result.returncode == 2
        assert result.stdout == ""
        assert "Traceback" not in result.stderr
        assert result.stderr.strip() == (
            f"kartentisch: error: illegal action in {path}: action 3: seat 2 (Владимир) QH: "
            "must follow ♣: Q♥ does not follow and seat 2 holds ♣ [must_follow_suit]"
        )

    def test_illegal_action_in_a_match(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        record = json.loads((DATA / "match_first_to_ten.json").read_text("utf-8"))
        record["deals"][2]["actions"][5] = "AS"
        path = write(tmp_path, "bad.json", record)
        status, out, err = cli(capsys, "replay", path, "--json")
        assert status == 2 and out == ""
        assert "deal 3, action 6: seat 0 (Anna) AS: A♠ is not in seat 0's hand [not_in_hand]" in err


def _malformed() -> list[tuple[str, str, str]]:
    good = seed004()
    cases: list[tuple[str, Any, str]] = [
        ("not_json", '{"format": "kartentisch-record/1",', "not valid JSON"),
        ("empty", "", "not valid JSON"),
        ("array", "[]", "a record must be a JSON object"),
        ("wrong_format", {**good, "format": "kartentisch/2"}, "unsupported record format"),
        ("no_format", {k: v for k, v in good.items() if k != "format"}, 'no "format" field'),
        ("unknown_game", {**good, "game": "skat"}, "unknown game 'skat'"),
        ("missing_hands", {k: v for k, v in good.items() if k != "hands"}, 'missing field "hands"'),
        ("dealer_text", {**good, "dealer": "3"}, 'field "dealer" in the record must be a whole'),
        ("hands_text", {**good, "hands": "AC KC"}, 'field "hands" in the record must be a list'),
        ("action_number", {**good, "actions": [8]}, "action 1 must be a card written as text"),
        (
            "duplicate",
            {
                **good,
                "hands": [good["hands"][0], ["AC", *good["hands"][1][1:]], *good["hands"][2:]],
            },
            "A♣ is dealt twice",
        ),
        (
            "unknown_option",
            {**good, "options": {"trumps": "hearts"}},
            "unknown Slobberhannes option",
        ),
        ("bad_option", {**good, "options": {"players": 9}}, "players must be a whole number"),
        ("too_many", {**good, "actions": [*good["actions"], "AS"]}, "the deal is over"),
    ]
    return [(n, r if isinstance(r, str) else json.dumps(r), m) for n, r, m in cases]


MALFORMED = _malformed()


class TestMalformed:
    @pytest.mark.parametrize(
        ("text", "message"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED]
    )
    def test_in_process(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, message: str
    ) -> None:
        path = write(tmp_path, "record.json", text)
        status, out, err = cli(capsys, "replay", path)
        assert status == 2
        assert out == ""
        assert err.startswith("kartentisch: error: ")
        assert path in err
        assert message in err
        assert err.count("\n") == 1

    def test_console_script(self, tmp_path: Path) -> None:
        for name, text, message in MALFORMED[:4]:
            path = write(tmp_path, f"{name}.json", text)
            result = run("replay", path, "--json")
            assert result.returncode == 2, name
            assert result.stdout == ""
            assert message in result.stderr
            assert "Traceback" not in result.stderr

    def test_missing_file_and_directory(self, tmp_path: Path) -> None:
        result = run("replay", str(tmp_path / "nope.json"))
        assert result.returncode == 2
        assert f"no such record file: {tmp_path / 'nope.json'}" in result.stderr
        assert "Traceback" not in result.stderr
        result = run("replay", str(tmp_path))
        assert result.returncode == 2
        assert "is a directory, not a record file" in result.stderr
        assert "Traceback" not in result.stderr

    def test_not_utf8(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = tmp_path / "latin1.json"
        path.write_bytes('{"seats": ["Jürgen"]}'.encode("latin-1"))
        status, _, err = cli(capsys, "replay", str(path))
        assert status == 2 and "is not UTF-8 text" in err

    def test_deeply_nested(self, tmp_path: Path) -> None:
        path = write(tmp_path, "deep.json", "[" * 100_000 + "]" * 100_000)
        result = run("replay", path)
        assert result.returncode == 2
        assert "Traceback" not in result.stderr

    def test_usage_errors(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit) as info:
            main(["replay"])
        assert info.value.code == 2
        assert "usage: kartentisch replay" in capsys.readouterr().err
        with pytest.raises(SystemExit) as info:
            main(["replay", str(SEED004_FILE), "--lang", "fr"])
        assert info.value.code == 2


class TestRules:
    @pytest.mark.parametrize(
        ("lang", "titles"),
        [
            ("de", ("Slobberhannes",)),
            ("en", ("Slobberhannes",)),
            ("ru", ("Слобберханнс", "Slobberhannes")),
        ],
    )
    def test_rules(
        self, capsys: pytest.CaptureFixture[str], lang: str, titles: tuple[str, ...]
    ) -> None:
        status, out, _ = cli(capsys, "rules", "slobberhannes", "--lang", lang)
        assert status == 0
        assert any(title in out for title in titles)
        assert len(out) > 200

    def test_console_script(self) -> None:
        result = run("rules", "slobberhannes", "--lang", "de")
        assert result.returncode == 0
        assert "Slobberhannes" in result.stdout

    def test_unknown_game(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = cli(capsys, "rules", "chess")
        assert status == 2 and out == ""
        assert "unknown game 'chess'" in err


def _cycle_input(rounds: int) -> str:
    """Every card name of the deck, then an empty line, ``rounds`` times; then q."""
    names = [str(c) for c in piquet_deck()]
    lines: list[str] = []
    for _ in range(rounds):
        lines += [*names, ""]
    return "\n".join([*lines, "q"]) + "\n"


class TestPlay:
    def test_console_script(self, tmp_path: Path) -> None:
        save = tmp_path / "games" / "match.json"
        result = run(
            "play", "slobberhannes", "--seed", "5", "--save", str(save), stdin=_cycle_input(400)
        )
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
        out = result.stdout
        assert "Deal 1 — " in out
        assert "Not allowed: " in out
        assert "is not in your hand" in out
        assert f"Record saved to {save}" in out
        record = json.loads(save.read_text("utf-8"))
        assert record["format"] == "kartentisch-record/1"
        assert record["seed"] == 5
        assert record["seats"][0] == "Player"
        assert len(record["deals"]) >= 1
        replayed = run("replay", str(save), "--json")
        assert replayed.returncode == 0, replayed.stderr
        summary = json.loads(replayed.stdout)
        assert len(summary["deals"]) == len(record["deals"])
        # the human's cards were accepted only when legal: the replay checked every one
        assert summary["finished"] is True
        loser = record["seats"][summary["losers"][0]]
        assert f"{loser} reached 10 and loses the match." in out
        assert max(summary["points"]) >= 10

    def test_seeded_games_repeat(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        records = []
        for name in ("a.json", "b.json"):
            monkeypatch.setattr(sys, "stdin", io.StringIO(_cycle_input(60)))
            status = main(["play", "slobberhannes", "--seed", "9", "--save", str(tmp_path / name)])
            assert status == 0
            records.append(json.loads((tmp_path / name).read_text("utf-8")))
        capsys.readouterr()
        assert records[0] == records[1]

    @pytest.mark.parametrize(
        ("args", "expected"),
        [
            (["--lang", "ru"], ["Ваша карта", "Нельзя: ", "Борис", "Сдача 1 — "]),
            (["--lang", "de"], ["Deine Karte", "Nicht erlaubt: ", "Spiel 1 — "]),
            (["--preset", "russian"], ["Drawing for the lead: "]),
            (["--players", "3"], ["Deal 1 — "]),
            (["--players", "7", "--bots", "random"], ["Greta"]),
            (["--revokes", "penalty"], ["Deal 1 — "]),
            (["--partnership"], ["Deal 1 — "]),
        ],
    )
    def test_options(
        self,
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch,
        args: list[str],
        expected: list[str],
    ) -> None:
        save = tmp_path / "match.json"
        monkeypatch.setattr(sys, "stdin", io.StringIO(_cycle_input(150)))
        status = main(["play", "slobberhannes", "--seed", "3", "--save", str(save), *args])
        out, err = capsys.readouterr()
        assert status == 0
        assert "Traceback" not in out + err
        for text in expected:
            assert text in out
        status, summary, _ = cli(capsys, "replay", str(save), "--json")
        assert status == 0
        assert json.loads(summary)["game"] == "slobberhannes"

    def test_quit_at_once(self, tmp_path: Path) -> None:
        save = tmp_path / "m.json"
        result = run("play", "slobberhannes", "--seed", "1", "--save", str(save), stdin="q\n")
        assert result.returncode == 0
        assert "Goodbye." in result.stdout
        record = json.loads(save.read_text("utf-8"))
        assert len(record["deals"]) == 1
        assert len(record["deals"][0]["actions"]) < 4  # only bots before seat 0 played
        replayed = run("replay", str(save), "--json")
        assert replayed.returncode == 0
        assert json.loads(replayed.stdout)["finished"] is False

    def test_end_of_input_quits(self) -> None:
        result = run("play", "slobberhannes", "--seed", "1", stdin="")
        assert result.returncode == 0
        assert "Traceback" not in result.stderr


class TestRefusalTexts:
    def test_must_follow_in_three_languages(self) -> None:
        error = IllegalActionError("must_follow_suit", "x", seat=1, action=None, suit=0)
        assert describe_refusal(error, "en") == "you must follow ♣"
        assert describe_refusal(error, "de") == "du musst ♣ bedienen"
        assert describe_refusal(error, "ru") == "нужно ходить в масть ♣"
        assert t("en", "refused", reason="x") == "Not allowed: x."

    def test_unknown_rule_falls_back_to_the_message(self) -> None:
        error = IllegalActionError("strange_rule", "the message")
        assert describe_refusal(error, "de") == "the message"


def _namespace(**changes: Any) -> argparse.Namespace:
    values: dict[str, Any] = {
        "players": None,
        "seed": 5,
        "save": None,
        "preset": "standard",
        "revokes": None,
        "partnership": False,
        "scoring": None,
        "bots": "heuristic",
        "name": None,
        "lang": "en",
    }
    values.update(changes)
    return argparse.Namespace(**values)


def _reader(lines: list[str]) -> Callable[[str], str]:
    feed = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return read


class TestTerminalGame:
    """The terminal game driven in this process through its ``read`` hook."""

    def test_bad_partnership(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, err = cli(
            capsys, "play", "slobberhannes", "--partnership", "--players", "5", "--seed", "1"
        )
        assert status == 2 and out == ""
        assert "partnership" in err and "Traceback" not in err

    def test_junk_input_is_explained(self, capsys: pytest.CaptureFixture[str]) -> None:
        read = _reader(["zz", "h", "hand", "q"])
        assert sb_play(_namespace(), read=read) == 0
        out = capsys.readouterr().out
        assert "cannot read 'zz': write rank then suit" in out
        assert "Type a card as rank and suit" in out
        assert "Goodbye." in out

    def test_markup_typed_at_the_prompt(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert sb_play(_namespace(), read=_reader(["[/]", "q"])) == 0
        assert "[/]" in capsys.readouterr().out

    def test_markup_in_the_name(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert sb_play(_namespace(name="[/]"), read=_reader(["q"])) == 0
        assert "[/]" in capsys.readouterr().out

    def test_messages_about_the_human_are_grammatical(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        lines = ([str(c) for c in piquet_deck()] + [""]) * 400
        assert sb_play(_namespace(seed=5), read=_reader(lines)) == 0
        out = capsys.readouterr().out
        assert "You wins" not in out and "You pays" not in out and "You reached" not in out
