"""The Russian cut at a web table: before every deal the seat to the dealer's right cuts.

The adapter in process, then tables over the WebSocket: a person's cut, the
bots' own cuts, refusals with their rule codes, a turn timer and a restart.
"""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from kartentisch.errors import IllegalActionError
from kartentisch.games.slobberhannes.match import SlobberhannesMatch
from kartentisch.games.slobberhannes.options import SlobberhannesOptions
from kartentisch.web.adapter import table_game_type
from kartentisch.web.games.slobberhannes import SlobberhannesTable
from kartentisch.web.i18n import refusal, translate

from .helpers import AppFactory, held, new_table, next_error, next_state, say_ready

KIND = table_game_type("slobberhannes")
NAMES = ["Ann", "Ben", "Cyd", "Dora"]
RUSSIAN = KIND.normalize_options({"preset": "russian"}, seats=4)


def russian(seed: int = 8) -> SlobberhannesTable:
    game = KIND.create(RUSSIAN, NAMES, seed)
    assert isinstance(game, SlobberhannesTable)
    return game


def hands(game: SlobberhannesTable) -> list[list[str]]:
    return [game.view(seat)["hand"] for seat in range(4)]


def refused(game: SlobberhannesTable, seat: int, text: str) -> IllegalActionError:
    version, view = game.version, game.view(None)
    with pytest.raises(IllegalActionError) as caught:
        game.act(seat, text)
    assert (game.version, game.view(None)) == (version, view)  # nothing changed
    return caught.value


# -- the adapter ---------------------------------------------------------------------------


def test_the_seat_to_the_dealers_right_cuts_before_the_first_deal() -> None:
    game = russian()
    view = game.view(None)
    dealer = view["draw"]["dealer"]
    cutter = (dealer - 1) % 4
    assert game.acting == (cutter,)
    assert view["cut"] == {"seat": cutter, "dealer": dealer, "deal": 1, "max": 31}
    assert view["to_move"] == cutter and view["dealer"] == dealer and view["deal_number"] == 1
    assert view["hand_sizes"] == [0, 0, 0, 0] and view["trick"]["cards"] == []
    assert view["cuts"] == [] and view["deals"] == []
    assert view["scoring"] == "sheet"  # the preset's rule, though its options do not name it
    assert game.legal(cutter) == [f"cut {n}" for n in range(1, 32)]
    for seat in range(4):
        mine = game.view(seat)
        assert mine["hand"] == []
        assert mine["legal"] == (game.legal(cutter) if seat == cutter else [])
        if seat != cutter:
            assert game.legal(seat) == []


def test_the_cut_deals_the_cut_deck() -> None:
    options = SlobberhannesOptions.from_dict(RUSSIAN)
    dealt = {}
    for lifted in (1, 12, 31):
        game = russian()
        cutter = game.acting[0]
        game.act(cutter, f"cut {lifted}")
        expected = SlobberhannesMatch(options, seats=NAMES, seed=8, start=False)
        expected.start_deal(cut=lifted)
        deal = expected.deal
        assert hands(game) == [[str(c) for c in deal.observation(s).hand] for s in range(4)]
        assert game.actions == [(cutter, f"cut {lifted}")]
        view = game.view(None)
        assert view["cut"] is None and view["hand_sizes"] == [8, 8, 8, 8]
        assert view["cuts"] == [{"deal": 1, "seat": cutter, "n": lifted}]
        assert game.acting == (view["to_move"],) and view["to_move"] == (view["dealer"] + 1) % 4
        dealt[lifted] = hands(game)
    assert dealt[1] != dealt[12] != dealt[31]


def test_wrong_cuts_are_refused_with_their_rule_and_change_nothing() -> None:
    game = russian()
    cutter = game.acting[0]
    other = (cutter + 1) % 4
    assert refused(game, other, "cut 5").rule == "not_your_turn"
    assert refused(game, cutter, "QC").rule == "cut_first"
    too_many = refused(game, cutter, "cut 32")
    assert too_many.rule == "bad_cut" and too_many.params == {"low": 1, "high": 31}
    assert refused(game, cutter, "cut 0").rule == "bad_cut"
    assert refused(game, cutter, "cut").rule == "cut_first"
    game.act(cutter, " Cut 7 ")
    assert game.actions[-1] == (cutter, "cut 7")
    assert refused(game, game.acting[0], "cut 5").rule == "no_cut"
    # The texts of the new rule codes, in every language.
    for lang in ("de", "en", "ru"):
        assert refusal(too_many, lang) == translate(lang, "rule.bad_cut", low=1, high=31)
        assert "31" in refusal(too_many, lang)
        for code in ("cut_first", "no_cut"):
            assert translate(lang, f"rule.{code}") != f"rule.{code}"


def test_every_deal_waits_for_its_cut_and_the_match_replays() -> None:
    game = russian(seed=21)
    deals = 0
    while not game.is_over:
        (seat,) = game.acting
        automatic = game.bot_action(seat)
        view = game.view(None)
        if view["cut"] is not None:
            deals += 1
            assert view["deal_number"] == deals
            assert seat == (view["dealer"] - 1) % 4 == view["cut"]["seat"]
            assert automatic is not None and automatic == game.bot_action(seat)  # stable
            assert automatic in game.legal(seat)
            assert game.bot_action((seat + 1) % 4) is None
            game.act(seat, automatic)
        else:
            assert automatic is None
            game.act(seat, game.legal(seat)[0])
    view = game.view(None)
    assert deals == len(view["deals"]) >= 2
    assert [c["deal"] for c in view["cuts"]] == list(range(1, deals + 1))
    assert [c["seat"] for c in view["cuts"]] == [(d["dealer"] - 1) % 4 for d in view["deals"]]
    assert game.acting == () and view["cut"] is None
    again = KIND.replay(RUSSIAN, NAMES, 21, game.actions)
    assert again.view(None) == view and again.record(complete=True) == game.record(complete=True)


def test_without_the_cut_nobody_cuts() -> None:
    options = KIND.normalize_options({"preset": "russian", "cut": False}, seats=4)
    game = KIND.create(options, NAMES, 8)
    assert isinstance(game, SlobberhannesTable)
    view = game.view(None)
    assert view["cut"] is None and view["cuts"] == [] and view["hand_sizes"] == [8, 8, 8, 8]
    assert game.bot_action(game.acting[0]) is None


# -- over the WebSocket ----------------------------------------------------------------------

#: The table's seed is its own: played to 30, not 5, the match lasts until every seat has cut.
LONG_RUSSIAN = {"preset": "russian", "target": 30}


def hello(ws: Any, token: str | None = None, lang: str = "en") -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token, "lang": lang})
    return next_state(ws)


def until_my_cut(ws: Any, state: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    """Play the person's cards (bots cut and play by themselves) until ``seat`` is due to cut.

    With a short turn timer the timer may play a card before the person's action arrives:
    that action is refused as stale, and the state after the timer's card comes anyway.
    """
    said: set[int] = set()
    for _ in range(600):
        view = state["view"]
        assert not view["over"], "the match ended before the person cut"
        if held(state):  # the cut comes after the wait between deals: say "next"
            say_ready(ws, state, seat, said)
        elif view["cut"] is not None and view["cut"]["seat"] == seat:
            return state
        elif view["to_move"] == seat and view["cut"] is None:
            ws.send_json({"type": "act", "action": view["legal"][0], "version": state["version"]})
        message = ws.receive_json()
        while message["type"] == "error" and message["code"] == "stale_version":
            message = ws.receive_json()
        assert message["type"] == "state", message
        state = message
    raise AssertionError("the cut never came to the person")


def test_a_person_cuts_and_bots_cut_by_themselves(client: TestClient) -> None:
    created = new_table(client, options=LONG_RUSSIAN)
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        state = until_my_cut(ws, hello(ws, created["token"], lang="de"))
        view = state["view"]
        number = view["cut"]["deal"]
        # Every deal before this one was cut, by the bot to its dealer's right.
        assert [c["deal"] for c in view["cuts"]] == list(range(1, number))
        assert all(c["seat"] != 0 for c in view["cuts"])
        assert view["legal"] == [f"cut {n}" for n in range(1, 32)] and view["hand"] == []

        ws.send_json({"type": "act", "action": "cut 40", "version": state["version"]})
        error = next_error(ws)
        assert error["code"] == "bad_cut"
        assert error["message"] == translate("de", "rule.bad_cut", low=1, high=31)
        ws.send_json({"type": "act", "action": "7S", "version": state["version"]})
        assert next_error(ws)["code"] == "cut_first"

        ws.send_json({"type": "act", "action": "cut 9", "version": state["version"]})
        after = next_state(ws)
        while after["version"] == state["version"]:
            after = next_state(ws)
        assert after["version"] == state["version"] + 1
        cut = after["view"]
        assert cut["cut"] is None and cut["deal_number"] == number
        assert cut["cuts"][-1] == {"deal": number, "seat": 0, "n": 9}
        assert len(cut["hand"]) == 8


def test_a_turn_timer_cuts_for_the_person(make_app: AppFactory) -> None:
    app = make_app()
    with TestClient(app) as client:
        created = new_table(client, options=LONG_RUSSIAN, turn_seconds=5)
        table = app.state.manager.get(created["id"])
        table.settings["turn_seconds"] = 0.3  # the API's minimum is 5 s; tests are quicker
        with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            state = until_my_cut(ws, hello(ws, created["token"]))
            assert state["table"]["turn_deadline"] is not None
            after = next_state(ws)  # nobody acts: the timer cuts for seat 0
            assert after["version"] == state["version"] + 1
            assert after["view"]["cuts"][-1]["seat"] == 0
            assert 1 <= after["view"]["cuts"][-1]["n"] <= 31


def test_an_absent_person_is_cut_for_and_a_restart_keeps_the_cuts(make_app: AppFactory) -> None:
    with TestClient(make_app(grace=0.1)) as client:
        seats = [{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]
        created = new_table(client, seats=seats, options=LONG_RUSSIAN)
        url = f"/ws/tables/{created['id']}"
        joined = client.post(f"/api/tables/{created['id']}/join", json={"name": "Bob"}).json()
        # Ann (seat 0) never comes; Bob plays on: after the grace time a stand-in plays
        # seat 0, and cuts for it too.
        with client.websocket_connect(url) as ws:
            state = hello(ws, joined["token"])
            said: set[int] = set()
            while not any(c["seat"] == 0 for c in state["view"]["cuts"]):
                view = state["view"]
                assert not view["over"], "seat 0 never cut"
                if held(state):
                    say_ready(ws, state, 1, said)
                elif view["to_move"] == 1 and view["legal"]:
                    ws.send_json(
                        {"type": "act", "action": view["legal"][0], "version": state["version"]}
                    )
                state = next_state(ws, skip_errors=True)
            view = state["view"]
            assert state["table"]["seats"][0]["presence"] == "standin"
        assert any(c["seat"] == 0 for c in view["cuts"])
        record = client.get(f"/api/tables/{created['id']}/record").json()
    with TestClient(make_app()) as client:
        with client.websocket_connect(url) as ws:
            again = hello(ws)["view"]
        assert again["cuts"][: len(view["cuts"])] == view["cuts"]
        assert (
            client.get(f"/api/tables/{created['id']}/record").json()["deals"][
                : len(record["deals"])
            ]
            == record["deals"]
        )
