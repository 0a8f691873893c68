"""Slapjack and Irish Snap at web tables: real time through the fair-slap referee.

The server runs on an injected clock. Most tests use a manual one (time moves
only when the test says), so every arrival, correction and release happens at
a known game time; the whole games use a fast clock (100× real time). A
reader thread collects each WebSocket's messages, so a test can wait for a
state with a timeout instead of blocking forever.
"""

from __future__ import annotations

import queue
import re
import threading
import time
from collections.abc import Callable, Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update
from starlette.applications import Starlette
from starlette.testclient import TestClient

from kartentisch.cards import Rank
from kartentisch.errors import IllegalActionError, OptionError
from kartentisch.games.irish_snap.engine import IrishSnapGame, IrishSnapOptions
from kartentisch.games.irish_snap.record import replay as replay_irish
from kartentisch.games.irish_snap.record import summarize as summarize_irish
from kartentisch.games.slapjack.engine import SlapjackGame, SlapjackOptions
from kartentisch.games.slapjack.record import replay as replay_slapjack
from kartentisch.storage.models import TableRow
from kartentisch.web.adapter import RealtimeTableGame, TableGame, table_game_type
from kartentisch.web.app import create_app
from kartentisch.web.i18n import catalog
from kartentisch.web.realtime import ManualTableClock, MonotonicTableClock, RealtimeSettings
from kartentisch.web.tables import ServerSettings

SLAPJACK = table_game_type("slapjack")
IRISH = table_game_type("irish snap")
WINDOW = 200  # the referee's collection window (max_rtt_ms)


# -- helpers -----------------------------------------------------------------------


class Reader:
    """Collects one WebSocket's messages in a thread; the test takes them with a timeout."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.last_state: dict[str, Any] | None = None
        self._sync = 0
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while True:
            try:
                message = self.ws.receive_json()
            except Exception:
                self.messages.put(None)
                return
            self.messages.put(message)

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def next(self, timeout: float = 10.0) -> dict[str, Any]:
        message = self.messages.get(timeout=timeout)
        if message is None:
            raise AssertionError("the connection closed")
        if message["type"] == "state":
            self.last_state = message
        return message

    def wait(
        self,
        kind: str,
        where: Callable[[dict[str, Any]], bool] | None = None,
        timeout: float = 10.0,
    ) -> dict[str, Any]:
        """The next message of type ``kind`` (that satisfies ``where``), skipping others."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {kind} message came (last state: {self.last_state})")
            try:
                message = self.next(left)
            except queue.Empty:
                continue
            if message["type"] == kind and (where is None or where(message)):
                return message

    def state(
        self, where: Callable[[dict[str, Any]], bool] | None = None, timeout: float = 10.0
    ) -> dict[str, Any]:
        return self.wait("state", where, timeout)

    def sync(self) -> list[dict[str, Any]]:
        """Wait until the server has handled everything sent so far; return what came."""
        self._sync += 1
        marker = f"sync-{self._sync}"
        self.send({"type": "ping", "t": marker})
        seen: list[dict[str, Any]] = []
        while True:
            message = self.next()
            if message == {"type": "pong", "t": marker}:
                return seen
            seen.append(message)

    def hello(self, token: str | None = None, lang: str = "en") -> dict[str, Any]:
        self.send({"type": "hello", "token": token, "lang": lang})
        return self.state()

    def pong(self, ping: dict[str, Any]) -> None:
        self.send({"type": "pong", "nonce": ping["nonce"]})
        self.sync()

    def act(self, action: str, version: int) -> None:
        self.send({"type": "act", "action": action, "version": version})
        self.sync()


def build_app(path: Path, clock: Any, **realtime: Any) -> Starlette:
    settings = ServerSettings(
        bot_delay=0,
        grace=None,
        clock=clock,
        realtime=RealtimeSettings(**{"ping_interval_ms": 600_000, **realtime}),
    )
    return create_app(None, data_dir=path, settings=settings)


def open_table(client: TestClient, game: str, seats: list[dict[str, Any]], seed: int) -> Any:
    """A table with the given seats and deal (``seed``), not started yet (one seat is open)."""
    body = {"game": game, "name": "Ann", "seats": seats}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    manager = client.app.state.manager  # type: ignore[attr-defined]
    table = manager.get(created["id"])
    assert table.status == "waiting"
    table.seed = seed
    with manager.store.engine.begin() as connection:
        connection.execute(update(TableRow).where(TableRow.id == table.id).values(seed=seed))
    return created, table


def first_card(seed: int, players: int = 2, game: type[SlapjackGame] = SlapjackGame) -> Any:
    engine = game.from_seed(seed, options={"players": players})
    mover = engine.to_move
    assert mover is not None
    return mover, engine.stack(mover)[0]


def seed_where(test: Callable[[int, Any], bool], players: int = 2) -> int:
    """The first seed whose first mover and first card pass ``test``."""
    return next(s for s in range(10_000) if test(*first_card(s, players)))


def event_types(state: dict[str, Any]) -> list[str]:
    return [e["type"] for e in state["view"]["events"]]


def has_event(kind: str, **fields: Any) -> Callable[[dict[str, Any]], bool]:
    def test(state: dict[str, Any]) -> bool:
        view = state["view"]
        return view is not None and any(
            e["type"] == kind and all(e.get(k) == v for k, v in fields.items())
            for e in view["events"]
        )

    return test


def top_is(card_test: Callable[[str], bool]) -> Callable[[dict[str, Any]], bool]:
    def test(state: dict[str, Any]) -> bool:
        view = state["view"]
        return view is not None and view["top"] is not None and card_test(view["top"])

    return test


def stored(client: TestClient, table_id: str) -> list[tuple[int, str]]:
    loaded = client.app.state.manager.store.load(table_id)  # type: ignore[attr-defined]
    assert loaded is not None
    return list(loaded.actions)


def step_until(
    clock: ManualTableClock,
    reader: Reader,
    where: Callable[[dict[str, Any]], bool],
    step: int = 50,
    limit: int = 20_000,
) -> dict[str, Any]:
    """Let game time run ``step`` ms at a time until a state satisfies ``where``."""
    start = clock.now_ms()
    while clock.now_ms() - start < limit:
        clock.advance(step)
        try:
            return reader.state(where, timeout=0.02)
        except AssertionError:
            continue
    raise AssertionError(f"nothing happened in {limit} ms: {reader.last_state}")


@pytest.fixture
def manual(tmp_path: Path) -> Iterator[tuple[TestClient, ManualTableClock]]:
    clock = ManualTableClock()
    with TestClient(build_app(tmp_path, clock)) as client:
        yield client, clock


# -- the adapter ---------------------------------------------------------------------


def test_the_adapter_is_a_realtime_table_game() -> None:
    options = SLAPJACK.normalize_options({}, seats=3)
    game = SLAPJACK.create(options, ["Ann", "Ben", "Cyd"], 5)
    assert isinstance(game, TableGame) and isinstance(game, RealtimeTableGame)
    mover = game.to_move
    assert mover is not None and game.acting == (mover,)
    assert game.legal(mover) == ["turn"]
    assert game.legal((mover + 1) % 3) == []  # nothing on the pile to slap yet
    with pytest.raises(IllegalActionError) as refused:
        game.precheck((mover + 1) % 3, "turn")
    assert refused.value.rule == "not_your_turn"
    with pytest.raises(IllegalActionError) as refused:
        game.precheck(mover, "shout")
    assert refused.value.rule == "unknown_action"
    game.apply_timed(mover, "turn", 700)
    assert game.version == 1 and game.pile_key() == 1 and game.pile_key(0) == 0
    assert game.pile_key(2) is None
    other = (mover + 2) % 3
    assert game.legal(other) == ["slap"] and game.legal((mover + 1) % 3) == ["turn", "slap"]
    # The view: public counts and the top card, never a stack.
    view = game.view(other)
    assert view["top"] is not None and sum(view["stack_sizes"]) == 51
    engine = game.engine  # type: ignore[attr-defined]
    for seat in range(3):
        hidden = {str(c) for c in engine.stack(seat)}
        assert not any(f"'{card}'" in str(view) for card in hidden)
    assert game.view(None)["legal"] == [] and game.view(None)["seat"] is None
    # The record hides the stacks until the game is over.
    assert "hands" not in game.record(complete=False)
    assert "hands" in game.record(complete=True)
    # Stored actions carry their game time; a replay is exact.
    assert game.actions == [(mover, f"700 s{mover} turn")]
    again = SLAPJACK.replay(options, ["Ann", "Ben", "Cyd"], 5, game.actions)
    assert again.view(None) == game.view(None)


def test_options_presets_and_the_lobby_description() -> None:
    assert SLAPJACK.normalize_options({"preset": "call"}, seats=4) == {"players": 4, "call": True}
    limited = SLAPJACK.normalize_options({"time_limit": 5}, seats=2)
    assert limited == {"players": 2, "time_limit_ms": 300_000}
    for bad in ({"time_limit": 0}, {"preset": "nope"}, {"players": 3}, {"call": "yes"}):
        with pytest.raises(OptionError):
            SLAPJACK.normalize_options(bad, seats=2)
    assert IRISH.normalize_options({"slap_timeout_ms": 1500}, seats=3) == {
        "players": 3,
        "slap_timeout_ms": 1500,
    }
    with pytest.raises(OptionError):
        IRISH.normalize_options({"call": True}, seats=3)
    description = SLAPJACK.describe()
    assert description["realtime"] is True
    assert description["bot_levels"] == ["beginner", "casual", "club", "fast", "expert"]
    assert description["default_bot_level"] == "club"
    assert IRISH.describe()["name"] == "irish-snap"


def test_irish_snap_views_show_the_call() -> None:
    options = IRISH.normalize_options({}, seats=2)
    game = IRISH.create(options, ["Ann", "Ben"], 3)
    assert isinstance(game, RealtimeTableGame)
    mover = game.to_move
    assert mover is not None
    assert game.view(mover)["next_call"] == "A" and game.view(mover)["call"] is None
    game.apply_timed(mover, "turn", 0)
    view = game.view(None)
    assert view["call"] == "A" and view["next_call"] == "2"
    assert view["events"][-1]["type"] == "card_turned" and view["events"][-1]["call"] == "A"
    with pytest.raises(IllegalActionError) as refused:
        game.precheck(1 - mover, "slap!")
    assert refused.value.rule == "no_slap_call"


@pytest.mark.parametrize("lang", ["de", "en", "ru"])
def test_every_slap_text_is_translated(lang: str) -> None:
    static = files("kartentisch.web") / "static"
    script = (static / "games" / "slapjack.js").read_text("utf-8")
    keys = set(re.findall(r'\bt\("([\w.]+)"', script))
    keys |= set(re.findall(r'"((?:sj|snap)\.[\w.]+)"', script))
    assert len(keys) > 30
    for kind in (SLAPJACK, IRISH):
        description = kind.describe()
        keys |= {f"preset.{p}" for p in description["presets"]}
        keys |= {f"level.{level}" for level in description["bot_levels"]}
        for option, spec in description["options"].items():
            keys.add(f"option.{option}")
            for choice in spec.get("choices", []):
                value = str(choice).lower() if isinstance(choice, bool) else choice
                keys.add(f"option.{option}.{value}")
    rules = ["empty_pile", "already_slapped", "player_out", "player_safe", "slap_pending"]
    keys |= {f"rule.{code}" for code in [*rules, "no_slap_call", "game_over"]}
    keys |= {"error.stale_card", "error.too_fast"}
    messages = catalog(lang)
    assert keys <= set(messages), sorted(keys - set(messages))


# -- live tables on a manual clock ---------------------------------------------------


def test_the_human_slaps_a_jack_and_wins_the_pile(
    manual: tuple[TestClient, ManualTableClock],
) -> None:
    client, clock = manual
    seed = seed_where(lambda mover, card: mover == 0 and card.rank == Rank.JACK)
    created, _ = open_table(client, "slapjack", [{"kind": "you"}, {"kind": "open"}], seed)
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        ann = Reader(ws)
        assert ann.hello(created["token"])["view"] is None
        ann.send({"type": "start"})
        state = ann.state(lambda s: s["view"] is not None)
        assert [s["kind"] for s in state["table"]["seats"]] == ["human", "bot"]
        assert state["table"]["seats"][1]["level"] == "club"
        view = state["view"]
        assert view["to_move"] == 0 and view["legal"] == ["turn"] and view["top"] is None
        assert state["live"]["turn_due"] == 2500  # a card not turned in time is turned for you
        ann.pong(ann.wait("ping"))  # a round trip of 0 ms
        ann.act("turn", state["version"])
        clock.advance(WINDOW + 1)  # the collection window passes: the turn is final
        state = ann.state(top_is(lambda card: card.startswith("J")))
        assert state["version"] == 1 and state["view"]["legal"] == ["slap"]
        assert state["live"]["rtt"] == 0
        # Slap at once; the bot needs at least 150 ms.
        ann.act("slap", state["version"])
        clock.advance(WINDOW + 1)
        won = ann.state(has_event("pile_won", seat=0))
        view = won["view"]
        assert view["top"] is None and view["pile_size"] == 0
        assert view["stack_sizes"] == [26, 26]
        assert view["to_move"] == 1  # the winner's left neighbour turns next
        pile_won = next(e for e in view["events"] if e["type"] == "pile_won")
        assert pile_won["n"] == 1 and pile_won["top"].startswith("J")
        assert stored(client, created["id"])[:2] == [(0, "0 s0 turn"), (0, "201 s0 slap")]


def test_a_false_slap_costs_a_card(manual: tuple[TestClient, ManualTableClock]) -> None:
    client, clock = manual
    seed = seed_where(lambda mover, card: mover == 1 and card.rank != Rank.JACK)
    created, _ = open_table(client, "slapjack", [{"kind": "you"}, {"kind": "open"}], seed)
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        ann = Reader(ws)
        ann.hello(created["token"], lang="de")
        ann.send({"type": "start"})
        ann.pong(ann.wait("ping"))
        # The bot turns its card after its own delay.
        state = step_until(clock, ann, top_is(lambda card: True))
        assert state["view"]["top_seat"] == 1
        assert not state["view"]["top"].startswith("J")
        ann.act("slap", state["version"])
        clock.advance(WINDOW + 1)
        state = ann.state(has_event("false_slap", seat=0))
        event = next(e for e in state["view"]["events"] if e["type"] == "false_slap")
        assert event["to"] == 1 and event["slapped"] == state["view"]["top"]
        assert "card" not in event  # the card given goes face down: nobody sees it
        assert state["view"]["stack_sizes"][0] == 25 and state["view"]["slapped"] is True
        # One slap per card: the second is refused at once, in the player's language.
        ann.send({"type": "act", "action": "slap", "version": state["version"]})
        error = ann.wait("error")
        assert error["code"] == "already_slapped"
        assert error["message"] == catalog("de")["rule.already_slapped"]


def test_the_faster_hand_on_the_slower_line_wins(
    manual: tuple[TestClient, ManualTableClock],
) -> None:
    client, clock = manual
    seed = seed_where(lambda mover, card: card.rank == Rank.JACK)
    created, _ = open_table(client, "slapjack", [{"kind": "you"}, {"kind": "open"}], seed)
    joined = client.post(f"/api/tables/{created['id']}/join", json={"name": "Bob"}).json()
    url = f"/ws/tables/{created['id']}"
    with client.websocket_connect(url) as ws_ann, client.websocket_connect(url) as ws_bob:
        ann, bob = Reader(ws_ann), Reader(ws_bob)
        ann.hello(created["token"])
        bob.hello(joined["token"])
        ann_ping, bob_ping = ann.wait("ping"), bob.wait("ping")  # both sent at 0 ms
        clock.advance_to(20)
        ann.pong(ann_ping)  # Ann: a fast line, 20 ms round trip
        clock.advance_to(150)
        bob.pong(bob_ping)  # Bob: a slow line, 150 ms round trip
        mover = ann.last_state["view"]["to_move"]  # type: ignore[index]
        (ann if mover == 0 else bob).act("turn", 0)
        clock.advance_to(400)
        jack = ann.state(top_is(lambda card: card.startswith("J")))
        bob.state(top_is(lambda card: card.startswith("J")))
        assert jack["live"]["rtt"] == 20 and jack["live"]["shown_at"] == 400
        # Ann reacts in 300 ms, Bob in 250 ms; Bob's slap arrives last (80 ms later).
        clock.advance_to(400 + 10 + 300 + 10)
        ann.act("slap", jack["version"])
        clock.advance_to(400 + 75 + 250 + 75)
        bob.act("slap", jack["version"])
        clock.advance_to(1200)
        won = ann.state(has_event("pile_won"))
        pile_won = next(e for e in won["view"]["events"] if e["type"] == "pile_won")
        assert pile_won["seat"] == 1  # Bob: corrected to 650 ms, Ann to 700 ms
        assert has_event("late_slap", seat=0)(won) or has_event("late_slap", seat=0)(
            ann.state(has_event("late_slap", seat=0))
        )
        actions = [text for _, text in stored(client, created["id"])]
        assert actions[1:] == ["650 s1 slap", "700 s0 slap"]


def test_a_slap_on_a_card_that_has_gone_is_refused(
    manual: tuple[TestClient, ManualTableClock],
) -> None:
    client, clock = manual
    seed = seed_where(lambda mover, card: mover == 0)
    created, _ = open_table(client, "slapjack", [{"kind": "you"}, {"kind": "open"}], seed)
    joined = client.post(f"/api/tables/{created['id']}/join", json={"name": "Bob"}).json()
    url = f"/ws/tables/{created['id']}"
    with client.websocket_connect(url) as ws_ann, client.websocket_connect(url) as ws_bob:
        ann, bob = Reader(ws_ann), Reader(ws_bob)
        ann.hello(created["token"])
        bob.hello(joined["token"])
        ann_ping, bob_ping = ann.wait("ping"), bob.wait("ping")
        bob.pong(bob_ping)  # Bob: 0 ms
        clock.advance_to(150)
        ann.pong(ann_ping)  # Ann: 150 ms
        ann.act("turn", 0)
        clock.advance_to(400)
        first = bob.state(lambda s: s["version"] == 1)
        assert first["view"]["to_move"] == 1
        # Made on version 0 (an empty pile), a slap now refers to a card that has gone.
        ann.send({"type": "act", "action": "slap", "version": 0})
        assert ann.wait("error")["code"] == "stale_card"
        ann.send({"type": "act", "action": "slap", "version": 99})
        assert ann.wait("error")["code"] == "stale_card"
        assert ann.state()["version"] == 1  # the state follows a version that never was
        # Bob turns the next card at 500 ms (final at 701); Ann's slap on the first card
        # arrives at 660 ms, when it is still on top, but is corrected to 510 ms: after
        # Bob's turn. It is refused when released, not applied to a card Ann never saw.
        clock.advance_to(500)
        bob.act("turn", 1)
        clock.advance_to(660)
        ann.act("slap", 1)
        clock.advance_to(720)
        error = ann.wait("error")
        assert error["code"] == "stale_card" and error["version"] == 2
        state = ann.state(lambda s: s["version"] == 2)
        assert "false_slap" not in event_types(state) and "pile_won" not in event_types(state)
        assert [text for _, text in stored(client, created["id"])] == ["0 s0 turn", "500 s1 turn"]


def test_spectators_watch_and_cannot_slap(manual: tuple[TestClient, ManualTableClock]) -> None:
    client, clock = manual
    seed = seed_where(lambda mover, card: mover == 1)
    created, _ = open_table(client, "slapjack", [{"kind": "you"}, {"kind": "open"}], seed)
    url = f"/ws/tables/{created['id']}"
    with client.websocket_connect(url) as ws_ann, client.websocket_connect(url) as ws_eve:
        ann, eve = Reader(ws_ann), Reader(ws_eve)
        ann.hello(created["token"])
        ann.send({"type": "start"})
        ann.pong(ann.wait("ping"))
        watched = eve.hello()
        assert watched["table"]["you"] is None and watched["view"]["seat"] is None
        assert watched["view"]["legal"] == [] and watched["live"]["rtt"] is None
        state = step_until(clock, eve, top_is(lambda card: True))
        assert state["view"]["legal"] == [] and state["view"]["slapped"] is False
        eve.send({"type": "act", "action": "slap", "version": state["version"]})
        assert eve.wait("error")["code"] == "not_seated"
        # Spectators are not pinged (they cannot slap).
        assert not [m for m in eve.sync() if m["type"] == "ping"]


def test_a_restart_resumes_the_game_from_the_store(tmp_path: Path) -> None:
    clock = ManualTableClock()
    seed = seed_where(lambda mover, card: mover == 1)
    with TestClient(build_app(tmp_path, clock)) as client:
        created, _ = open_table(client, "slapjack", [{"kind": "you"}, {"kind": "open"}], seed)
        with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            ann = Reader(ws)
            ann.hello(created["token"])
            ann.send({"type": "start"})
            ann.pong(ann.wait("ping"))
            # The bot turns; Ann's cards are turned for her after 2.5 s.
            before = step_until(clock, ann, lambda s: s["version"] >= 4, step=100)
            ann.sync()  # the server handled everything, and what it sent was read
            before = ann.last_state or before
        actions = stored(client, created["id"])
    assert len(actions) == before["version"]
    assert all(re.fullmatch(r"\d+ s[01] (turn|slap!?)", text) for _, text in actions)
    # Ann never pressed a key: her cards were turned for her (2.5 s after each chance).
    assert any(seat == 0 and text.endswith(" s0 turn") for seat, text in actions)
    # A new server on the same database and another clock: the game goes on where it was.
    later = ManualTableClock(start_ms=987_654)
    with TestClient(build_app(tmp_path, later)) as client:
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert listed[created["id"]]["status"] == "playing"
        with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            ann = Reader(ws)
            after = ann.hello(created["token"])
            assert after["version"] == before["version"]
            keep = {k: v for k, v in before["view"].items() if k != "clock"}
            assert {k: v for k, v in after["view"].items() if k != "clock"} == keep
            assert after["live"]["now"] >= int(actions[-1][1].split()[0])
            step_until(later, ann, lambda s: s["version"] >= before["version"] + 2, step=100)
        assert stored(client, created["id"])[: len(actions)] == actions


# -- whole games on a fast clock -------------------------------------------------------


def _short_seed(game: type[SlapjackGame] | type[IrishSnapGame], players: int) -> int:
    """A deal whose game between first-come slappers is short (about 100 cards or less)."""
    from kartentisch.realtime.actions import TimedAction

    for seed in range(200):
        engine = game.from_seed(seed, options={"players": players})
        t = 0
        while not engine.is_over and engine.turned < 120:
            mover = engine.to_move
            if mover is None:  # an Irish Snap match: everyone slaps
                for seat in range(players):
                    action = TimedAction(engine.next_time(seat, t + 300 + 10 * seat), seat, "slap")
                    if engine.can(action):
                        engine.apply(action)
                t += 400
                continue
            engine.apply(TimedAction(engine.next_time(mover, t), mover, "turn"))
            t += 900
            top = engine.top
            if isinstance(engine, SlapjackGame) and top is not None and top.rank == Rank.JACK:
                seat = (mover + 1) % players
                slap = TimedAction(engine.next_time(seat, t - 500), seat, "slap")
                if engine.can(slap):
                    engine.apply(slap)
        if engine.is_over:
            return seed
    raise AssertionError("no short game")


@pytest.mark.parametrize(
    ("game", "engine", "replay"),
    [("slapjack", SlapjackGame, replay_slapjack), ("irish-snap", IrishSnapGame, replay_irish)],
)
def test_a_whole_game_of_bots_reaches_its_end(
    tmp_path: Path, game: str, engine: Any, replay: Any
) -> None:
    clock = MonotonicTableClock(speed=100)
    seed = _short_seed(engine, 3)
    with TestClient(build_app(tmp_path, clock, ping_interval_ms=2000)) as client:
        seats = [{"kind": "you"}, {"kind": "open"}, {"kind": "bot", "level": "hard"}]
        created, _ = open_table(client, game, seats, seed)
        client.post(f"/api/tables/{created['id']}/start", json={"token": created["token"]})
        with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            ann = Reader(ws)
            ann.hello(created["token"])
            # Ann only turns her cards (automatically, by the clock) and never slaps. The
            # test waits for the final state (the timeout only guards against a game
            # that never ends), then finds the table finished.
            final = ann.state(lambda s: s["view"]["over"], timeout=240)
            assert final["live"]["turn_due"] is None and final["view"]["legal"] == []
            table = client.get(f"/api/tables/{created['id']}").json()["table"]
            assert table["status"] == "finished", table
        record = client.get(f"/api/tables/{created['id']}/record").json()
    assert "hands" in record
    # Who made each action: Ann's cards were all turned by the clock, the rest are bots'.
    assert len(record["by"]) == len(record["actions"])
    for text, by in zip(record["actions"], record["by"], strict=True):
        seat = int(text.split()[1].removeprefix("s"))
        assert by == ("timer" if seat == 0 else "bot"), (text, by)
    replayed = replay(record)
    assert replayed.is_over and list(replayed.winners) == final["view"]["winners"]
    if isinstance(replayed, IrishSnapGame):
        # Ann never slaps: every match she must slap is settled by the server's time-out,
        # never by the last slap. (Who takes the pile then is the highest seat still
        # missing: Ann alone when the bots slapped in time; on a loaded machine, where
        # this test's clock runs 100 times faster than the server can keep up with, a
        # bot may miss a match too and take the pile instead.)
        pickups = summarize_irish(replayed)["pickups"]
        assert any(p["reason"] == "too_slow" for p in pickups)
        assert not any(p["reason"] == "last_slap" for p in pickups)
    if isinstance(replayed, SlapjackGame):
        assert replayed.options == SlapjackOptions(players=3)
    else:
        assert replayed.options == IrishSnapOptions(players=3)


# -- feedback on a person's own slaps (the log) ----------------------------------------


def test_a_late_slap_is_told_with_how_late_it_was_and_kept_for_the_log(
    manual: tuple[TestClient, ManualTableClock],
) -> None:
    client, clock = manual
    seed = seed_where(lambda mover, card: mover == 0 and card.rank == Rank.JACK)
    created, _ = open_table(client, "slapjack", [{"kind": "you"}, {"kind": "open"}], seed)
    joined = client.post(f"/api/tables/{created['id']}/join", json={"name": "Bob"}).json()
    url = f"/ws/tables/{created['id']}"
    with client.websocket_connect(url) as ws_ann, client.websocket_connect(url) as ws_bob:
        ann, bob = Reader(ws_ann), Reader(ws_bob)
        ann.hello(created["token"], lang="de")
        bob.hello(joined["token"])
        ann.pong(ann.wait("ping"))  # both lines: 0 ms
        bob.pong(bob.wait("ping"))
        ann.act("turn", 0)
        clock.advance_to(WINDOW + 1)
        jack = bob.state(top_is(lambda card: card.startswith("J")))
        shown = jack["live"]["shown_at"]
        # Bob slaps 250 ms after the jack appeared and wins the pile.
        clock.advance_to(shown + 250)
        bob.act("slap", jack["version"])
        clock.advance_to(shown + 250 + WINDOW + 1)
        ann.state(has_event("pile_won", seat=1))
        # Ann's slap comes 250 ms after Bob's: past the 200 ms of a harmless late slap.
        # It is refused when the referee releases it, and she is told how late it was.
        clock.advance_to(shown + 500)
        ann.act("slap", jack["version"])
        clock.advance_to(shown + 500 + WINDOW + 1)
        error = ann.wait("error")
        assert error["code"] == "empty_pile" and error["late_ms"] == 250 and error["by"] == 1
        assert error["message"] == catalog("de")["error.late_slap"].format(ms=250)
        state = ann.state(lambda s: bool(s["live"]["refused"]))
        assert state["live"]["refused"] == [
            {"t": shown + 500, "rule": "empty_pile", "late_ms": 250, "by": 1}
        ]
        assert "late_slap" not in event_types(state)  # no game event: it never happened
        # Once the next card is on top, a slap on the jack refers to a card that has gone.
        clock.advance_to(shown + 1400)
        ann.act("turn", state["version"])
        clock.advance_to(shown + 1400 + WINDOW + 1)
        ann.state(lambda s: s["version"] == 3)
        ann.send({"type": "act", "action": "slap", "version": jack["version"]})
        error = ann.wait("error")
        assert error["code"] == "stale_card" and error["late_ms"] is None
        assert error["message"] == catalog("de")["error.stale_card"]
        refused = ann.state(lambda s: len(s["live"]["refused"]) == 2)["live"]["refused"]
        assert [(r["rule"], r["late_ms"]) for r in refused] == [
            ("empty_pile", 250),
            ("stale_card", None),
        ]
        # Only Ann's own refusals are hers to see; nothing was stored.
        bob.sync()
        assert bob.last_state is not None and bob.last_state["live"]["refused"] == []
        assert [text for _, text in stored(client, created["id"])] == [
            "0 s0 turn",
            f"{shown + 250} s1 slap",
            f"{shown + 1400} s0 turn",
        ]


def test_a_slap_within_the_late_time_is_a_late_slap_event_of_the_person(
    manual: tuple[TestClient, ManualTableClock],
) -> None:
    client, clock = manual
    seed = seed_where(lambda mover, card: mover == 0 and card.rank == Rank.JACK)
    created, _ = open_table(client, "slapjack", [{"kind": "you"}, {"kind": "open"}], seed)
    joined = client.post(f"/api/tables/{created['id']}/join", json={"name": "Bob"}).json()
    url = f"/ws/tables/{created['id']}"
    with client.websocket_connect(url) as ws_ann, client.websocket_connect(url) as ws_bob:
        ann, bob = Reader(ws_ann), Reader(ws_bob)
        ann.hello(created["token"])
        bob.hello(joined["token"])
        ann.pong(ann.wait("ping"))
        bob.pong(bob.wait("ping"))
        ann.act("turn", 0)
        clock.advance_to(WINDOW + 1)
        jack = bob.state(top_is(lambda card: card.startswith("J")))
        shown = jack["live"]["shown_at"]
        clock.advance_to(shown + 250)
        bob.act("slap", jack["version"])
        clock.advance_to(shown + 350)  # 100 ms after Bob: a harmless late slap
        ann.act("slap", jack["version"])
        clock.advance_to(shown + 350 + WINDOW + 1)
        state = ann.state(has_event("late_slap", seat=0))
        assert state["live"]["refused"] == []
        assert has_event("pile_won", seat=1)(state)
