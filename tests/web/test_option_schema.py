"""One schema per game checks every option, whatever name it is sent under and by whatever path.

Every whole-number option of every game, under each of its names, out of range:
refused by the web lobby (over HTTP and through the adapter), by a record's
options (``from_dict``) and by the command line (``simulate --option``), each
time naming the option as it was sent and its range under that name.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from kartentisch.cli.main import main
from kartentisch.errors import OptionError
from kartentisch.games.doppelkopf.options import SCHEMA as DOPPELKOPF
from kartentisch.games.doppelkopf.options import DoppelkopfOptions
from kartentisch.games.irish_snap.engine import IrishSnapOptions
from kartentisch.games.slapjack.engine import SlapjackOptions
from kartentisch.games.slobberhannes.options import SCHEMA as SLOBBERHANNES
from kartentisch.games.slobberhannes.options import SlobberhannesOptions
from kartentisch.options import Option, OptionSchema
from kartentisch.web.adapter import table_game_type
from kartentisch.web.games.doppelkopf import GAMES

#: Each game: its schema, how a record's options are read, the seats of a web table.
GAMES_UNDER_TEST: dict[str, tuple[OptionSchema, Any, int]] = {
    "slobberhannes": (SLOBBERHANNES, SlobberhannesOptions.from_dict, 4),
    "doppelkopf": (DOPPELKOPF, DoppelkopfOptions.from_dict, 4),
    "slapjack": (SlapjackOptions.schema, SlapjackOptions.from_dict, 4),
    "irish-snap": (IrishSnapOptions.schema, IrishSnapOptions.from_dict, 4),
}

#: (game, option, a name it is sent under) for every whole-number option of every game.
WHOLE = [
    (game, option, name)
    for game, (schema, _, _) in GAMES_UNDER_TEST.items()
    for option in schema.options
    if option.kind == "whole"
    for name in option.names
]
OTHERS = [
    (game, option)
    for game, (schema, _, _) in GAMES_UNDER_TEST.items()
    for option in schema.options
    if option.kind != "whole"
]


def _fields(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


def test_the_schemas_know_every_option_each_game_has() -> None:
    names = {
        game: {o.name for o in schema.options} for game, (schema, _, _) in GAMES_UNDER_TEST.items()
    }
    assert names["slobberhannes"] == _fields(SlobberhannesOptions) - {"preset"}
    assert names["doppelkopf"] == _fields(DoppelkopfOptions) - {"preset"}
    assert names["slapjack"] == _fields(SlapjackOptions)
    assert names["irish-snap"] == _fields(IrishSnapOptions)
    # The lobby's minutes are the engine's milliseconds, with the same range.
    limit = SlapjackOptions.schema.option("time_limit")
    assert limit.name == "time_limit_ms" and limit.bounds("time_limit") == (1, 60)
    assert limit.bounds("time_limit_ms") == (10_000, 3_600_000)


def _outside(option: Option, name: str) -> st.SearchStrategy[int]:
    low, high = option.bounds(name)
    return st.one_of(
        st.integers(max_value=low - 1),
        st.integers(min_value=high + 1),
        st.sampled_from([low - 1, high + 1, 10**20]),
    )


def _assert_names_the_range(error: OptionError, name: str, option: Option) -> None:
    low, high = option.bounds(name)
    assert error.code == "range"
    assert error.params == {"option": name, "low": low, "high": high}
    assert f"{name} must be a whole number from {low} to {high}" in str(error)


@pytest.mark.parametrize(("game", "option", "name"), WHOLE, ids=[f"{g}-{n}" for g, _, n in WHOLE])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_whole_number_out_of_range_is_refused_on_every_path(
    game: str, option: Option, name: str, data: st.DataObject
) -> None:
    _, from_dict, seats = GAMES_UNDER_TEST[game]
    value = data.draw(_outside(option, name))
    # A record's options (and every engine path that reads them).
    with pytest.raises(OptionError) as record:
        from_dict({name: value})
    _assert_names_the_range(record.value, name, option)
    if name == "players":
        return  # a web table's players are its seats (players_mismatch), tested below
    # The web lobby's adapter.
    with pytest.raises(OptionError) as lobby:
        table_game_type(game).normalize_options({name: value}, seats=seats)
    _assert_names_the_range(lobby.value, name, option)


@pytest.mark.parametrize(("game", "option", "name"), WHOLE, ids=[f"{g}-{n}" for g, _, n in WHOLE])
def test_wrong_types_are_refused_under_every_name(game: str, option: Option, name: str) -> None:
    _, from_dict, _ = GAMES_UNDER_TEST[game]
    low, _ = option.bounds(name)
    for value in (True, float(low), str(low), [low]):
        with pytest.raises(OptionError) as refused:
            from_dict({name: value})
        _assert_names_the_range(refused.value, name, option)


@pytest.mark.parametrize(("game", "option"), OTHERS, ids=[f"{g}-{o.name}" for g, o in OTHERS])
def test_flags_and_choices_refuse_what_they_do_not_offer(game: str, option: Option) -> None:
    _, from_dict, seats = GAMES_UNDER_TEST[game]
    expected = option.code or option.kind
    for value in (1, "yes", None, ["nope"]):
        for read in (
            lambda v: from_dict({option.name: v}),
            lambda v: table_game_type(game).normalize_options({option.name: v}, seats=seats),
        ):
            with pytest.raises(OptionError) as refused:
                read(value)
            assert refused.value.code == expected
            assert refused.value.params["option"] == option.name


@pytest.mark.parametrize("value", [0, 101, 10**20, -5])
def test_the_web_only_games_option_has_its_range(value: int) -> None:
    with pytest.raises(OptionError) as refused:
        table_game_type("doppelkopf").normalize_options({"games": value}, seats=4)
    _assert_names_the_range(refused.value, "games", GAMES)


def test_in_range_the_names_mean_the_same() -> None:
    slapjack = table_game_type("slapjack")
    minutes = slapjack.normalize_options({"time_limit": 5}, seats=2)
    assert minutes == slapjack.normalize_options({"time_limit_ms": 300_000}, seats=2)
    assert SlapjackOptions.from_dict({"time_limit": 5, "players": 2}) == SlapjackOptions.from_dict(
        minutes
    )
    with pytest.raises(OptionError) as twice:
        slapjack.normalize_options({"time_limit": 5, "time_limit_ms": 300_000}, seats=2)
    assert twice.value.code == "invalid"


@pytest.mark.parametrize(
    ("game", "options", "words"),
    [
        ("slapjack", {"time_limit_ms": 1}, "10000"),
        ("slapjack", {"time_limit_ms": 10**20}, "3600000"),
        ("slapjack", {"time_limit": 10**20}, "60"),
        ("slapjack", {"late_ms": 10**20}, "2000"),
        ("irish-snap", {"slap_timeout_ms": 1}, "250"),
        ("irish-snap", {"late_ms": -1}, "2000"),
        ("slobberhannes", {"target": 101}, "100"),
        ("doppelkopf", {"kings_redeal": 9}, "8"),
    ],
)
def test_the_lobby_refuses_over_http_naming_the_range(
    client: TestClient, game: str, options: dict[str, Any], words: str
) -> None:
    body = {"game": game, "name": "Ann", "options": options}
    response = client.post("/api/tables", json=body, headers={"Accept-Language": "en"})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == "bad_options"
    assert words in error["message"], error


def test_the_command_line_refuses_through_the_same_schema(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["simulate", "slobberhannes", "--bots", "random,random,random,random", "--deals", "1"]
    assert main([*args, "--option", "target=1000"]) == 2
    assert "target must be a whole number from 1 to 100" in capsys.readouterr().err
    assert (
        main(
            [
                "simulate",
                "doppelkopf",
                "--bots",
                "random,random,random,random",
                "--deals",
                "1",
                "--option",
                "kings_redeal=99",
            ]
        )
        == 2
    )
    assert "kings_redeal must be a whole number from 0 to 8" in capsys.readouterr().err
