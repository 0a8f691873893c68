"""``--rules FILE`` on the commands: ``rules``, ``play``, ``simulate`` and ``replay``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kartentisch.cli import doppelkopf as cli
from kartentisch.cli.main import main
from kartentisch.games.doppelkopf import DoppelkopfMatch, DoppelkopfOptions
from kartentisch.i18n import translate
from kartentisch.rulesets import load_rules, rules_lines

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "rules"
NINES = str(EXAMPLES / "with-nines.toml")
HEAD = 'kartentisch-rules = 1\ngame = "doppelkopf"\n'


def write(tmp_path: Path, text: str, name: str = "rules.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# -- kartentisch rules GAME --rules FILE ---------------------------------------------------


@pytest.mark.parametrize("lang", ["de", "en", "ru"])
def test_rules_prints_a_rule_set_group_by_group(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", "doppelkopf", "--rules", NINES, "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert out == "\n".join(rules_lines(load_rules(NINES), lang)) + "\n"
    first = {"de": "Regelsatz: Mit Neunen", "en": "Rule set: Mit Neunen"}
    assert out.splitlines()[0] == first.get(lang, "Свод правил: Mit Neunen")
    assert sum(1 for line in out.splitlines() if line.startswith("  * ")) == 2


def test_rules_without_a_file_is_the_rules_document(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "doppelkopf", "--lang", "en"]) == 0
    assert "--rules ddv" in capsys.readouterr().out


def test_rules_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "doko", "--rules", NINES, "--check"]) == 0
    captured = capsys.readouterr()
    assert captured.out == f"{NINES}: a valid rule set for Doppelkopf (preset house).\n"
    assert main(["rules", "doppelkopf", "--rules", NINES, "--check", "--lang", "de"]) == 0
    assert (
        capsys.readouterr().out
        == translate("de", "term.rules.valid", file=NINES, game="Doppelkopf", preset="house") + "\n"
    )

    bad = write(tmp_path, HEAD + 'preset = "ddv"\n[options]\narmut = true\n')
    assert main(["rules", "doppelkopf", "--rules", bad, "--check"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"kartentisch: error: {bad}: options: option armut needs")
    assert "declarations: sheet" in captured.err

    broken = write(tmp_path, HEAD + "[options]\nnines = \n", "broken.toml")
    assert main(["rules", "doppelkopf", "--rules", broken, "--check"]) == 2
    assert "malformed TOML" in (err := capsys.readouterr().err) and "line 4, column 9" in err

    unknown = write(
        tmp_path,
        '{"kartentisch-rules": 1, "game": "doppelkopf", "options": {"nine": true}}',
        "unknown.json",
    )
    assert main(["rules", "doppelkopf", "--rules", unknown]) == 2
    assert "unknown Doppelkopf option 'nine'; known options: " in capsys.readouterr().err

    assert main(["rules", "slobberhannes", "--rules", NINES, "--check"]) == 2
    assert "is for doppelkopf, not slobberhannes" in capsys.readouterr().err
    assert main(["rules", "doppelkopf", "--rules", str(tmp_path / "none.toml")]) == 2
    assert "no such rule-set file" in capsys.readouterr().err
    assert main(["rules", "doppelkopf", "--check"]) == 2
    assert "--check needs --rules FILE" in capsys.readouterr().err


# -- kartentisch play doppelkopf --rules FILE ----------------------------------------------


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The options of the session ``play`` would start (it is not played)."""
    seen: dict[str, Any] = {}

    def fake_run(self: cli.TerminalGame) -> int:
        seen["options"] = self.match.options
        return 0

    monkeypatch.setattr(cli.TerminalGame, "run", fake_run)
    return seen


def test_play_under_a_rule_set_file(played: dict[str, Any]) -> None:
    assert main(["play", "doppelkopf", "--rules", NINES, "--seed", "3"]) == 0
    assert played["options"] == DoppelkopfOptions.from_dict({"nines": True, "bock": False})
    assert played["options"].hand_size == 12


@pytest.mark.parametrize(
    ("flags", "preset", "players", "table_mode"),
    [
        ([], "house", 4, False),
        (["--rules", "ddv"], "ddv", 4, False),  # a preset's name, as before files
        (["--preset", "ddv", "--players", "5"], "ddv", 5, False),
        (["--rules", "ddv", "--preset", "ddv", "--table-mode"], "ddv", 4, True),
    ],
)
def test_play_with_a_preset(
    played: dict[str, Any], flags: list[str], preset: str, players: int, table_mode: bool
) -> None:
    assert main(["play", "doppelkopf", "--seed", "1", *flags]) == 0
    options = played["options"]
    assert (options.preset, options.players, options.table_mode) == (preset, players, table_mode)


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        (["--rules", NINES, "--preset", "ddv"], "--preset cannot go with it"),
        (["--rules", NINES, "--players", "5"], "--players cannot go with it"),
        (["--rules", NINES, "--table-mode"], "--table-mode cannot go with it"),
        (["--rules", NINES, "--preset", "house", "--players", "4"], "--preset, --players"),
        (["--rules", "house", "--preset", "ddv"], "name two presets"),
        (["--rules", "no-such-file.toml"], "no such rule-set file: no-such-file.toml"),
    ],
)
def test_play_refuses_flags_that_conflict_with_the_file(
    played: dict[str, Any], flags: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "doppelkopf", *flags]) == 2
    assert words in capsys.readouterr().err
    assert "options" not in played


# -- kartentisch simulate doppelkopf --rules FILE ------------------------------------------


def simulated(capsys: pytest.CaptureFixture[str], *flags: str) -> dict[str, Any]:
    bots = "random,heuristic,random,random"
    argv = ["simulate", "doppelkopf", "--bots", bots, "--deals", "2", "--seed", "5", "--json"]
    assert main([*argv, *flags]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def test_simulate_under_a_rule_set_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ddv = str(EXAMPLES / "ddv.toml")
    with_file = simulated(capsys, "--rules", ddv)
    assert with_file == simulated(capsys, "--option", "preset=ddv")
    assert with_file["results"] != simulated(capsys)["results"]  # (house rules)
    nines = write(tmp_path, HEAD + 'preset = "ddv"\n[options]\nnines = false\n', "ddv40.toml")
    assert simulated(capsys, "--rules", nines) == simulated(
        capsys, "--option", "preset=ddv", "--option", "nines=false"
    )

    argv = ["simulate", "doppelkopf", "--bots", "random,random,random,random", "--deals", "1"]
    assert main([*argv, "--rules", NINES, "--option", "nines=true"]) == 2
    assert "--option cannot go with it" in capsys.readouterr().err
    five = write(tmp_path, HEAD + "[options]\nplayers = 5\n")
    assert main([*argv, "--rules", five]) == 2
    assert "is for 5 players, but --bots names 4 bots" in capsys.readouterr().err
    assert (
        main(["simulate", "slobberhannes", "--bots", "random,random,random", "--rules", NINES]) == 2
    )
    assert "the rule set is for doppelkopf, not slobberhannes" in capsys.readouterr().err


# -- kartentisch replay FILE --rules FILE --------------------------------------------------


def solo_record(tmp_path: Path) -> str:
    """A house-rules deal in which seat 1 plays a queens solo (its 5th action)."""
    match = DoppelkopfMatch(seed=2, first_dealer=0)
    deal = match.deal
    solo = False
    while not deal.is_over:
        legal = deal.legal_actions()
        pick = None if solo else next((a for a in legal if str(a) == "solo queens"), None)
        solo = solo or pick is not None
        match.apply(pick or next((a for a in legal if str(a) == "pass"), legal[0]))
    record = deal.to_record()
    assert record["actions"][4] == "solo queens" and record["options"]["preset"] == "house"
    return write(tmp_path, json.dumps(record), "deal.json")


def test_replay_under_a_rule_set_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = solo_record(tmp_path)
    assert main(["replay", record, "--json"]) == 0
    own = json.loads(capsys.readouterr().out)

    ddv_count = write(tmp_path, HEAD + '[options]\nscoring = "ddv"\n')
    assert main(["replay", record, "--json", "--rules", ddv_count]) == 0
    under_file = json.loads(capsys.readouterr().out)
    data = json.loads(Path(record).read_text(encoding="utf-8"))
    data["options"]["scoring"] = "ddv"
    edited = write(tmp_path, json.dumps(data), "edited.json")
    assert main(["replay", edited, "--json"]) == 0
    assert under_file == json.loads(capsys.readouterr().out)
    assert under_file["points"] != own["points"]

    # An action the file's rules refuse is reported as replay reports one.
    jacks_only = write(tmp_path, HEAD + '[options]\nsoli = ["jacks"]\n', "jacks.toml")
    assert main(["replay", record, "--rules", jacks_only]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"kartentisch: error: illegal action in {record}: action 5: seat 1")
    assert "solo queens" in err
    assert main(["replay", record, "--rules", jacks_only, "--lang", "de"]) == 2
    assert "solo queens" in capsys.readouterr().err

    # Hands of 10 cards are no deal under the nines.
    assert main(["replay", record, "--rules", NINES]) == 2
    assert f"cannot replay {record}: hands" in capsys.readouterr().err
    # A rule set of another game, or no rule set at all.
    slob = tmp_path / "slob.json"
    slob.write_text(
        json.dumps(
            {
                "format": "kartentisch-record/1",
                "game": "slobberhannes",
                "dealer": 0,
                "hands": [[], [], [], []],
                "actions": [],
            }
        ),
        encoding="utf-8",
    )
    assert main(["replay", str(slob), "--rules", NINES]) == 2
    assert "rule set is for doppelkopf, but the record is of slobberhannes" in (
        capsys.readouterr().err
    )
    assert main(["replay", record, "--rules", record]) == 2
    assert f"{record}: not a rule set" in capsys.readouterr().err
