"""Hostile players at real-time tables: slap floods, forged times, bogus pongs.

Two people play Slapjack (or Irish Snap) on a manual clock, so every arrival
has a known game time. One of them floods the server with slaps, sends
actions in the stored timed notation (a time and a seat of their choosing),
or answers pings that were never sent. The flood must gain nothing (one slap
per card and seat reaches the referee, the rest are refused as ``too_fast``
or by the rules), the other player's single slap must count as if nobody
had flooded, and nothing forged may reach the game or the store.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from kartentisch.cards import Rank
from kartentisch.games.irish_snap.engine import IrishSnapGame
from kartentisch.web.realtime import ManualTableClock

from .test_slapjack import (
    WINDOW,
    Reader,
    build_app,
    first_card,
    has_event,
    open_table,
    seed_where,
    stored,
    top_is,
)


def two_people(client: TestClient, game: str, seed: int) -> tuple[str, list[str]]:
    created, _ = open_table(client, game, [{"kind": "you"}, {"kind": "open"}], seed)
    joined = client.post(f"/api/tables/{created['id']}/join", json={"name": "Bob"}).json()
    return created["id"], [created["token"], joined["token"]]


def connect(client: TestClient, table_id: str, tokens: list[str], stack: Any) -> list[Reader]:
    readers = []
    for token in tokens:
        ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{table_id}"))
        reader = Reader(ws)
        reader.hello(token)
        readers.append(reader)
    for reader in readers:
        reader.pong(reader.wait("ping"))  # both lines: a round trip of 0 ms
    return readers


def runner(client: TestClient, table_id: str) -> Any:
    return client.app.state.manager.get(table_id).runner  # type: ignore[attr-defined]


def test_a_slap_flood_gains_nothing_and_harms_nobody(tmp_path: Path) -> None:
    from contextlib import ExitStack

    clock = ManualTableClock()
    seed = seed_where(lambda mover, card: card.rank == Rank.JACK)
    mover, _ = first_card(seed)
    with TestClient(build_app(tmp_path, clock)) as client, ExitStack() as stack:
        table_id, tokens = two_people(client, "slapjack", seed)
        ann, bob = connect(client, table_id, tokens, stack)
        (ann, bob)[mover].act("turn", 0)
        clock.advance_to(WINDOW + 1)
        jack = ann.state(top_is(lambda card: card.startswith("J")))
        bob.state(top_is(lambda card: card.startswith("J")))
        version = jack["version"]
        # Bob slaps once at 400 ms; Ann hammers the server with 25 slaps at 410 ms.
        clock.advance_to(400)
        bob.act("slap", version)
        clock.advance_to(410)
        for _ in range(25):
            ann.send({"type": "act", "action": "slap", "version": version})
        answers = ann.sync()
        codes = [a["code"] for a in answers if a["type"] == "error"]
        assert codes == ["too_fast"] * 24
        assert runner(client, table_id).referee.dropped == [24, 0]
        assert [m for m in bob.sync() if m["type"] == "error"] == []
        # The faster hand wins, flood or not; Ann's one slap is a harmless late slap.
        clock.advance_to(1000)
        won = bob.state(has_event("pile_won"))
        pile_won = next(e for e in won["view"]["events"] if e["type"] == "pile_won")
        assert pile_won["seat"] == 1
        slaps = [text for _, text in stored(client, table_id) if "slap" in text]
        assert slaps == ["400 s1 slap", "410 s0 slap"]


def test_forged_times_seats_and_versions_never_reach_the_game(tmp_path: Path) -> None:
    from contextlib import ExitStack

    clock = ManualTableClock()
    seed = seed_where(lambda mover, card: mover == 0 and card.rank != Rank.JACK)
    with TestClient(build_app(tmp_path, clock)) as client, ExitStack() as stack:
        table_id, tokens = two_people(client, "slapjack", seed)
        ann, bob = connect(client, table_id, tokens, stack)
        for action in ("0 s0 turn", "0 s1 turn", "1 s1 slap", "turn turn", "slap!!", "<b>"):
            ann.send({"type": "act", "action": action, "version": 0})
            assert ann.wait("error")["code"] == "unknown_action"
        # Not Bob's turn: refused at once, whatever version he names.
        for version in (0, 1, -1, 10**12):
            bob.send({"type": "act", "action": "turn", "version": version})
            assert bob.wait("error")["code"] in ("not_your_turn", "stale_card")
        ann.send({"type": "act", "action": "turn", "version": 0, "seat": 1})
        error = ann.wait("error")
        assert error["code"] == "bad_message" and "seat" in error["message"]
        clock.advance_to(5 * WINDOW)
        assert stored(client, table_id) == []  # nothing was applied
        assert runner(client, table_id).game.version == 0
        # A slap made on a card that never was: stale.
        ann.act("turn", 0)
        clock.advance_to(10 * WINDOW)
        state = ann.state(top_is(lambda card: True))
        bob.send({"type": "act", "action": "slap", "version": state["version"] + 5})
        assert bob.wait("error")["code"] == "stale_card"
        assert [text for _, text in stored(client, table_id)] == ["1000 s0 turn"]


def test_bogus_pongs_never_make_a_line_look_faster(tmp_path: Path) -> None:
    from contextlib import ExitStack

    clock = ManualTableClock()
    seed = seed_where(lambda mover, card: True)
    with TestClient(build_app(tmp_path, clock)) as client, ExitStack() as stack:
        table_id, tokens = two_people(client, "slapjack", seed)
        ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{table_id}"))
        ann = Reader(ws)
        ann.hello(tokens[0])
        ping = ann.wait("ping")
        clock.advance_to(150)
        ann.pong(ping)  # a true round trip of 150 ms
        referee = runner(client, table_id).referee
        assert referee.rtt(0, clock.now_ms()) == 150
        # Guessed nonces, a replayed one, one of another seat's: all ignored.
        for nonce in ("0" * 16, "ffffffffffffffff", ping["nonce"], "x"):
            ann.send({"type": "pong", "nonce": nonce})
        ann.sync()
        assert referee.rtt(0, clock.now_ms()) == 150
        assert referee.bad_pongs[0] == 4


def test_an_irish_snap_slap_flood_costs_the_flooder_only(tmp_path: Path) -> None:
    from contextlib import ExitStack

    clock = ManualTableClock()
    seed, mover = next(
        (s, e.to_move)
        for s in range(1000)
        if (e := IrishSnapGame.from_seed(s, options={"players": 2})).to_move is not None
        and e.stack(e.to_move)[0].rank != Rank.ACE  # the first call is "Ace": no match
    )
    with TestClient(build_app(tmp_path, clock)) as client, ExitStack() as stack:
        table_id, tokens = two_people(client, "irish-snap", seed)
        ann, bob = connect(client, table_id, tokens, stack)
        (ann, bob)[mover].act("turn", 0)
        clock.advance_to(WINDOW + 1)
        state = ann.state(top_is(lambda card: True))
        before = state["view"]["stack_sizes"]
        clock.advance_to(400)
        for _ in range(20):
            ann.send({"type": "act", "action": "slap", "version": state["version"]})
        codes = [a["code"] for a in ann.sync() if a["type"] == "error"]
        assert codes == ["too_fast"] * 19
        clock.advance_to(1000)
        taken = ann.state(has_event("pile_taken", seat=0))
        sizes = taken["view"]["stack_sizes"]
        assert sizes[0] == before[0] + 1 and sizes[1] == before[1]  # Ann took the one card
        # Once the slap is applied every further one is refused by the rules.
        ann.send({"type": "act", "action": "slap", "version": taken["version"]})
        assert ann.wait("error")["code"] in ("empty_pile", "already_slapped", "stale_card")
        assert [t for _, t in stored(client, table_id) if "slap" in t] == ["400 s0 slap"]
