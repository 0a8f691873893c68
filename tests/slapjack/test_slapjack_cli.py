"""The terminal game with an injected clock and keys, and the command line."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from kartentisch.bots.reaction import ReactionBot
from kartentisch.cli.main import build_parser, main
from kartentisch.cli.slapjack import ScriptedKeys, SlapTable, TerminalKeys, play
from kartentisch.games.irish_snap.engine import IrishSnapGame, PileTaken
from kartentisch.games.slapjack.engine import PileWon, SlapjackGame
from kartentisch.realtime.clock import ManualClock
from kartentisch.records import load_record


def console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=120, highlight=False, color_system=None), out


def args(game: str, *extra: str) -> argparse.Namespace:
    parsed = build_parser().parse_args(["play", game, *extra])
    return parsed


def table(
    game: SlapjackGame | IrishSnapGame, script: list[tuple[int, str]], **kw: object
) -> tuple[SlapTable, io.StringIO, ManualClock]:
    clock = ManualClock()
    con, out = console()
    n = game.num_seats
    bots = {s: ReactionBot("hard", 100 + s) for s in range(1, n)}
    names = ["You", *["Anna", "Ben", "Carla"][: n - 1]]
    t = SlapTable(
        game,
        bots,
        lang="en",
        console=con,
        keys=ScriptedKeys(clock, script, eof=bool(kw.pop("eof", True))),
        clock=clock,
        names=names,
        **kw,  # type: ignore[arg-type]
    )
    return t, out, clock


def test_a_whole_game_against_bots_runs_without_sleeping(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    clock = ManualClock()
    con, out = console()
    keys = ScriptedKeys(clock, [], eof=False)
    a = args("slapjack", "--seed", "7", "--players", "3", "--bots", "hard", "--save", str(save))
    a.time_limit = 900.0
    assert play(a, "slapjack", console=con, keys=keys, clock=clock) == 0
    assert keys.closed
    text = out.getvalue()
    assert "turns" in text and "Cards:" in text and "Record saved" in text
    record = load_record(save)
    assert record["game"] == "slapjack"
    assert all(isinstance(a, str) for a in record["actions"])
    # The record replays to the same end.
    assert main(["replay", str(save), "--json"]) == 0


def test_replay_json_prints_points_and_winner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "g.json"
    clock = ManualClock()
    con, _ = console()
    a = args("irish-snap", "--seed", "3", "--players", "4", "--bots", "normal", "--save", str(save))
    assert (
        play(a, "irish-snap", console=con, keys=ScriptedKeys(clock, [], eof=False), clock=clock)
        == 0
    )
    capsys.readouterr()
    assert main(["replay", str(save), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == "irish-snap" and summary["finished"]
    assert sum(summary["points"]) + summary["pile"] == 52
    assert summary["loser"] is not None and summary["winner"] == summary["safe"][0]
    assert main(["replay", str(save), "--lang", "de"]) == 0
    assert "verliert" in capsys.readouterr().out


def test_q_quits_cleanly_and_saves_the_unfinished_game(tmp_path: Path) -> None:
    save = tmp_path / "q.json"
    clock = ManualClock()
    con, out = console()
    keys = ScriptedKeys(clock, [(4000, "q")])
    a = args("slapjack", "--seed", "1", "--save", str(save))
    assert play(a, "slapjack", console=con, keys=keys, clock=clock) == 0
    assert "Goodbye." in out.getvalue() and keys.closed
    assert clock.now_ms() == 4000
    record = load_record(save)
    assert record["clock"] >= 3000 and record["actions"]
    assert main(["replay", str(save), "--json"]) == 0


def test_end_of_input_quits_cleanly() -> None:
    clock = ManualClock()
    con, out = console()
    a = args("irish-snap", "--seed", "2")
    assert play(a, "irish-snap", console=con, keys=ScriptedKeys(clock, []), clock=clock) == 0
    assert "Goodbye." in out.getvalue()


def test_the_human_slaps_a_jack_first() -> None:
    game = SlapjackGame.from_tops(["JS", "2C", "3C"], dealer=2)
    t, out, _ = table(game, [(100, "\n"), (230, " "), (3000, "q")])
    t.run()
    won = [e for e in game.events if isinstance(e, PileWon)]
    assert won and won[0].seat == 0 and won[0].t == 230
    assert game.actions[0].t == 100  # turned by key, before the automatic turn
    assert "You wins the pile (1 card)" in out.getvalue()


def test_the_call_key_in_the_call_variant() -> None:
    game = SlapjackGame.from_tops(["JS", "2C"], dealer=1, options={"call": True})
    t, _, _ = table(game, [(0, "t"), (200, "c"), (2000, "q")])
    t.run()
    assert game.actions[1].call
    assert [e.seat for e in game.events if isinstance(e, PileWon)] == [0]


def test_automatic_turn_after_the_delay() -> None:
    game = SlapjackGame.from_tops(["5S", "2C"], dealer=1)
    t, _, _ = table(game, [(5000, "q")], auto_turn_ms=1200)
    t.run()
    assert str(game.actions[0]) == "1200 s0 turn"


def test_manual_turns_only_when_auto_turn_is_off() -> None:
    game = SlapjackGame.from_tops(["5S", "2C"], dealer=1)
    t, _, clock = table(game, [(9000, "q")], auto_turn_ms=0)
    t.run()
    assert game.actions == [] and clock.now_ms() == 9000


def test_refusals_are_explained_and_other_keys_ignored() -> None:
    game = SlapjackGame.from_tops(["5S", "2C"], dealer=1)
    t, out, _ = table(game, [(50, " "), (60, "x"), (70, "h"), (80, "q")])
    t.run()
    text = out.getvalue()
    assert "Not allowed: there is no card on the pile to slap" in text
    assert text.count("Keys:") == 2  # at the start and for h


def test_irish_snap_human_slaps_a_match_in_time() -> None:
    game = IrishSnapGame.from_tops(["AC", "5D", "9H"], dealer=2)
    t, out, _ = table(game, [(0, "\n"), (140, " "), (5000, "q")])
    t.run()
    taken = [e for e in game.events if isinstance(e, PileTaken)]
    assert taken and taken[0].seat != 0 and taken[0].reason == "last_slap"
    assert "SNAP!" in out.getvalue()


def test_irish_snap_human_too_slow_takes_the_pile() -> None:
    game = IrishSnapGame.from_tops(["AC", "5D", "9H"], dealer=2, options={"slap_timeout_ms": 1000})
    t, out, _ = table(game, [(0, "\n"), (4000, "q")])
    t.run()
    taken = [e for e in game.events if isinstance(e, PileTaken)]
    assert taken[0] == PileTaken(1000, 0, "too_slow", taken[0].cards)
    assert "did not slap in time" in out.getvalue()


def test_terminal_keys_read_lines_when_not_a_terminal() -> None:
    keys = TerminalKeys(io.StringIO(" c\n\nq\n"))
    got = []
    try:
        while True:
            key = keys.get(1.0)
            if key is not None:
                got.append(key)
    except EOFError:
        pass
    keys.close()
    assert got == [" ", "c", "\n", "\n", "q", "\n"]
    with pytest.raises(EOFError):
        keys.get(0.01)


@pytest.mark.parametrize("lang", ["de", "en", "ru"])
@pytest.mark.parametrize("name", ["slapjack", "irish-snap", "irish_snap"])
def test_rules_in_three_languages(name: str, lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", name, "--lang", lang]) == 0
    text = capsys.readouterr().out
    assert len(text) > 1500
    assert (
        ("Irish" in text or "Ирланд" in text)
        if "irish" in name
        else "Slapjack" in text or "Слэпджек" in text
    )


def test_play_options_reach_the_game() -> None:
    a = args("slapjack", "--players", "6", "--bots", "easy", "--call", "--time-limit", "90")
    assert (a.players, a.bots, a.call, a.time_limit) == (6, "easy", True, 90.0)
    b = args("irish-snap", "--slap-timeout", "1500", "--auto-turn", "0")
    assert (b.slap_timeout, b.auto_turn) == (1500, 0)
    with pytest.raises(SystemExit):
        args("slapjack", "--players", "11")


def test_names_with_markup_are_printed_as_they_are() -> None:
    clock = ManualClock()
    con, out = console()
    a = args("slapjack", "--seed", "4", "--name", "[red]Evil[/]")
    assert (
        play(a, "slapjack", console=con, keys=ScriptedKeys(clock, [(3000, "q")]), clock=clock) == 0
    )
    assert "[red]Evil[/]" in out.getvalue()


def test_terminal_keys_in_cbreak_mode_on_a_terminal() -> None:
    pty = pytest.importorskip("pty")
    termios = pytest.importorskip("termios")
    import os

    master, slave = pty.openpty()
    stream = os.fdopen(slave, "r", closefd=False)
    before = termios.tcgetattr(slave)
    keys = TerminalKeys(stream)
    try:
        assert not termios.tcgetattr(slave)[3] & termios.ICANON  # cbreak: no line editing
        os.write(master, b" c")  # no ENTER needed
        got = [keys.get(5.0), keys.get(5.0)]
        assert got == [" ", "c"]
        assert keys.get(0.01) is None
        os.write(master, b"\x04")  # Ctrl-D ends the input
        with pytest.raises(EOFError):
            keys.get(5.0)
    finally:
        keys.close()
        assert termios.tcgetattr(slave) == before  # restored
        stream.close()
        os.close(slave)
        os.close(master)
