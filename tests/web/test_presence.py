"""Leaving and coming back, and the wait between deals (docs/web.md).

A table whose people are all away pauses: no bot plays on for them, not even
its own bot seats, and a real-time table's game time stands still. At a table
where other people play on, a stand-in bot plays for an away person once the
grace time has passed and hands the seat back the moment they return. Between
deals the next deal waits until every person present has said "next" (or the
table's time runs out); bots and away persons never hold it up.

Every wait here is for a message of the server (a state showing the pause, a
stand-in, a deal over); no test sleeps to let something happen.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

from starlette.testclient import TestClient

from kartentisch.web.app import create_app
from kartentisch.web.protocol import ProtocolError, Ready, parse_client_message
from kartentisch.web.realtime import MonotonicTableClock, RealtimeSettings
from kartentisch.web.tables import LiveTable, ServerSettings

from .helpers import AppFactory, new_table, next_error, next_state, until_my_turn

#: Two people (Ann at seat 0, Bob joins seat 1) and two bots.
TWO_PEOPLE = [{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]
#: A long match: bots without delay must not reach its end while a test looks.
LONG = {"target": 100}
#: The most a test waits for one message: only a message that never comes takes this long.
PATIENCE = 60.0

State = dict[str, Any]


def hello(ws: Any, token: str | None = None) -> State:
    ws.send_json({"type": "hello", "token": token, "lang": "en"})
    return next_state(ws)


def until(ws: Any, test: Callable[[State], bool], limit: int = 4000) -> State:
    """The next state (skipping errors) that passes ``test``."""
    for _ in range(limit):
        state = next_state(ws, skip_errors=True)
        if test(state):
            return state
    raise AssertionError("the state never came")


def held(state: State) -> bool:
    return bool(state["table"]["paused"]) or state["table"]["between_deals"] is not None


class Player:
    """One WebSocket read in a thread. With ``auto`` it plays its seat's turns (the first
    legal action) and says "next" between deals, as a person at the table would; with
    ``ready`` it only says "next". The test looks at the states it was sent
    (:meth:`until`) and the errors (:meth:`error`)."""

    def __init__(
        self, ws: Any, seat: int | None, *, auto: bool = False, ready: bool = False
    ) -> None:
        self.ws = ws
        self.seat = seat
        self.auto = auto
        self.ready = ready or auto
        self.states: queue.Queue[State | None] = queue.Queue()
        self.errors: queue.Queue[State] = queue.Queue()
        self._said: set[int] = set()
        self._acted: set[int] = set()
        self.last: State | None = None
        threading.Thread(target=self._run, daemon=True).start()

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def _run(self) -> None:
        while True:
            try:
                message = self.ws.receive_json()
            except Exception:
                self.states.put(None)
                return
            if message["type"] == "error":
                self.errors.put(message)
            elif message["type"] == "state":
                if self.ready:
                    try:
                        self._play(message)
                    except Exception:  # the connection closed meanwhile
                        self.states.put(None)
                        return
                self.states.put(message)

    def _play(self, state: State) -> None:
        view, table, version = state["view"], state["table"], state["version"]
        if view is None or view["over"] or table["paused"]:
            return
        gate = table["between_deals"]
        if gate is not None:
            if self.seat in gate["waiting"] and version not in self._said:
                self._said.add(version)
                self.send({"type": "ready", "version": version})
        elif (
            self.auto
            and view["to_move"] == self.seat
            and view["legal"]
            and version not in self._acted
        ):
            self._acted.add(version)
            self.send({"type": "act", "action": view["legal"][0], "version": version})

    def until(self, test: Callable[[State], bool]) -> State:
        """The first state, from the latest one looked at on, that passes ``test``."""
        if self.last is not None and test(self.last):
            return self.last
        while True:
            state = self.states.get(timeout=PATIENCE)
            if state is None:
                raise AssertionError(f"the connection closed; the last state: {self.last}")
            self.last = state
            if test(state):
                return state

    def error(self) -> State:
        return self.errors.get(timeout=PATIENCE)


def live_table(client: TestClient, table_id: str) -> LiveTable:
    table: LiveTable = client.app.state.manager.get(table_id)  # type: ignore[attr-defined]
    return table


def two_people(client: TestClient, **extra: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A table of Ann (seat 0), Bob (seat 1) and two bots; both seated, nobody connected."""
    created = new_table(client, seats=TWO_PEOPLE, options=LONG, **extra)
    joined = client.post(f"/api/tables/{created['id']}/join", json={"name": "Bob"})
    assert joined.status_code == 200, joined.text
    return created, joined.json()


@contextlib.contextmanager
def joined(
    url: str,
    client: TestClient,
    token: str | None,
    seat: int | None,
    *,
    auto: bool = False,
    ready: bool = False,
) -> Iterator[Player]:
    """The connection of ``token``'s seat (a spectator without one), once it said hello."""
    with client.websocket_connect(url) as ws:
        player = Player(ws, seat, auto=auto, ready=ready)
        player.send({"type": "hello", "token": token, "lang": "en"})
        player.until(lambda s: s["table"]["you"] == seat)
        yield player


# -- a table whose people are away ----------------------------------------------------


def test_a_table_whose_only_person_left_pauses_and_resumes_when_they_are_back(
    make_app: AppFactory,
) -> None:
    # No grace time at all: before, a bot took the seat of a person who left at once.
    with TestClient(make_app(grace=0.0)) as client:
        created = new_table(client, options=LONG)
        table_id = created["id"]
        url = f"/ws/tables/{table_id}"
        # Opened from the lobby, the table waits for its person before anything is played.
        assert created["table"]["paused"] is True and created["table"]["version"] == 0
        with client.websocket_connect(url) as watcher:
            assert hello(watcher)["table"]["paused"] is True
            with client.websocket_connect(url) as ws:
                state = until_my_turn(ws, 0, hello(ws, created["token"]))
                assert state["table"]["paused"] is False
                assert state["table"]["seats"][0]["presence"] == "present"
            # The tab is closed at the person's turn: the table pauses at once.
            paused = until(watcher, lambda s: s["table"]["paused"])
            assert paused["version"] == state["version"]
            assert paused["table"]["seats"][0]["presence"] == "away"
            assert paused["table"]["seats"][0]["bot_playing"] is False
            assert paused["table"]["turn_deadline"] is None
            # Another look changes nothing (a hello wakes the table's driver).
            again = hello(watcher)
            assert again["table"]["paused"] is True and again["version"] == state["version"]
            summary = client.get(f"/api/tables/{table_id}").json()["table"]
            assert summary["paused"] is True and summary["version"] == state["version"]
            with client.websocket_connect(url) as ws:
                back = hello(ws, created["token"])
                # Nothing was played meanwhile: the same turn, the same hand, the person's.
                assert back["table"]["paused"] is False
                assert back["version"] == state["version"]
                assert back["view"]["hand"] == state["view"]["hand"]
                assert back["view"]["to_move"] == 0
                card = back["view"]["legal"][0]
                ws.send_json({"type": "act", "action": card, "version": back["version"]})
                after = until(ws, lambda s: s["version"] > back["version"])
                assert card not in after["view"]["hand"]
                # The wait for the first hello is no event; the pause and its end are.
                kinds = [kind for kind, _, _ in live_table(client, table_id).presence_events]
                assert kinds == ["paused", "resumed"]


def test_a_paused_table_plays_not_even_its_own_bots(make_app: AppFactory) -> None:
    with TestClient(make_app(delay=0.2)) as client:
        created = new_table(client, options=LONG)
        url = f"/ws/tables/{created['id']}"
        with client.websocket_connect(url) as watcher:
            hello(watcher)
            with client.websocket_connect(url) as ws:
                state = until_my_turn(ws, 0, hello(ws, created["token"]))
                card = state["view"]["legal"][0]
                ws.send_json({"type": "act", "action": card, "version": state["version"]})
                until(ws, lambda s: s["version"] > state["version"])
            # Gone right after the card: the bot to move next waits with the table.
            paused = until(watcher, lambda s: s["table"]["paused"])
            stopped = paused["version"]
            assert hello(watcher)["version"] == stopped
            with client.websocket_connect(url) as ws:
                back = hello(ws, created["token"])
                assert back["version"] == stopped and back["table"]["paused"] is False
                # Back: the bots go on, up to the person's next turn.
                turn = until_my_turn(ws, 0, back)
                assert turn["version"] > state["version"]


def test_a_realtime_table_stops_its_clock_while_its_person_is_away(tmp_path: Any) -> None:
    settings = ServerSettings(
        bot_delay=0,
        grace=0.0,
        clock=MonotonicTableClock(speed=20),
        realtime=RealtimeSettings(ping_interval_ms=600_000),
    )
    app = create_app(None, data_dir=tmp_path, settings=settings)
    with TestClient(app) as client:
        body = {"game": "slapjack", "name": "Ann", "seats": [{"kind": "you"}, {"kind": "bot"}]}
        created = client.post("/api/tables", json=body).json()
        url = f"/ws/tables/{created['id']}"
        with client.websocket_connect(url) as watcher:
            hello(watcher)
            with client.websocket_connect(url) as ws:
                state = hello(ws, created["token"])
                assert state["live"]["paused"] is False
                # The game runs: cards are turned (the person's automatically, too).
                until(ws, lambda s: s["version"] >= 2)
            paused = until(watcher, lambda s: s["table"]["paused"])
            assert paused["live"]["paused"] is True and paused["live"]["turn_due"] is None
            stood = paused["live"]["now"]
            # Game time stands still (at 20 times real time a moment would show); nothing
            # is turned or slapped.
            look = hello(watcher)
            assert look["live"]["now"] == stood and look["version"] == paused["version"]
            assert not look["view"]["over"]
            with client.websocket_connect(url) as ws:
                ws.send_json({"type": "hello", "token": created["token"], "lang": "en"})
                back = until(ws, lambda s: s["table"]["you"] == 0)
                assert back["table"]["paused"] is False and back["live"]["paused"] is False
                assert back["version"] == paused["version"]
                assert back["live"]["now"] >= stood
                later = until(ws, lambda s: s["version"] > back["version"])
                assert later["live"]["now"] > stood


# -- a stand-in while other people play on ------------------------------------------------


def test_a_stand_in_plays_for_an_away_person_after_the_grace_time_and_hands_back(
    make_app: AppFactory,
) -> None:
    with TestClient(make_app(grace=0.3)) as client:
        created, bob = two_people(client)
        table_id = created["id"]
        url = f"/ws/tables/{table_id}"
        # Bob plays his turns and says "next" by himself.
        with joined(url, client, bob["token"], 1, auto=True) as bob_ws:
            # Ann says "next" between deals by herself, and plays no card yet.
            with joined(url, client, created["token"], 0, ready=True) as ann_ws:
                at_ann = ann_ws.until(
                    lambda s: (
                        s["view"]["to_move"] == 0
                        and not held(s)
                        and s["table"]["seats"][0]["presence"] == "present"
                    )
                )
            # Ann's tab is closed at her turn. Bob plays on (no pause); nobody plays for her yet.
            bob_ws.until(
                lambda s: (
                    s["version"] == at_ann["version"]
                    and s["table"]["seats"][0]["presence"] == "present"
                )
            )
            left = bob_ws.until(lambda s: s["table"]["seats"][0]["presence"] != "present")
            assert left["table"]["paused"] is False
            assert left["table"]["seats"][0]["presence"] == "away"
            assert left["version"] == at_ann["version"]
            # After the grace time the stand-in comes, at the turn Ann left at, and plays it.
            standin = bob_ws.until(lambda s: s["table"]["seats"][0]["presence"] == "standin")
            assert standin["version"] == at_ann["version"]
            assert standin["table"]["seats"][0]["bot_playing"] is True
            played = bob_ws.until(lambda s: s["version"] > at_ann["version"])
            actions = live_table(client, table_id).game.actions  # type: ignore[union-attr]
            assert actions[at_ann["version"]][0] == 0  # the stand-in's card, for seat 0
            assert played["table"]["seats"][0]["presence"] == "standin"
            # Ann is back: the seat is hers at once, her next turn too.
            with joined(url, client, created["token"], 0, ready=True) as ann_ws:
                back = ann_ws.last
                assert back is not None
                assert back["table"]["seats"][0]["presence"] == "present"
                assert back["table"]["seats"][0]["bot_playing"] is False
                bob_ws.until(lambda s: s["table"]["seats"][0]["presence"] == "present")
                turn = ann_ws.until(lambda s: s["view"]["to_move"] == 0 and not held(s))
                card = turn["view"]["legal"][0]
                ann_ws.send({"type": "act", "action": card, "version": turn["version"]})
                mine = ann_ws.until(lambda s: s["version"] > turn["version"])
                assert card not in mine["view"]["hand"]
                game = live_table(client, table_id).game
                assert game is not None and game.actions[turn["version"]] == (0, card)
                events = [(k, s) for k, s, _ in live_table(client, table_id).presence_events]
                # (A stand-in may also have played for Ann before she first came.)
                assert events[-2:] == [("standin_on", 0), ("standin_off", 0)]


def test_with_the_pause_policy_the_table_waits_for_an_away_person(make_app: AppFactory) -> None:
    with TestClient(make_app(grace=0.0)) as client:
        created, bob = two_people(client, away="pause")
        url = f"/ws/tables/{created['id']}"
        with joined(url, client, bob["token"], 1, ready=True) as bob_ws:
            # Ann has not come: the table waits for her.
            first = bob_ws.last
            assert first is not None
            assert first["table"]["paused"] is True and first["table"]["away"] == "pause"
            with joined(url, client, created["token"], 0, auto=True):
                at_bob = bob_ws.until(lambda s: s["view"]["to_move"] == 1 and not held(s))
            paused = bob_ws.until(lambda s: s["table"]["paused"])
            assert paused["version"] == at_bob["version"]
            assert paused["table"]["seats"][0]["presence"] == "away"
            card = paused["view"]["legal"][0]
            bob_ws.send({"type": "act", "action": card, "version": paused["version"]})
            assert bob_ws.error()["code"] == "table_paused"
            with joined(url, client, created["token"], 0, auto=True):
                resumed = bob_ws.until(lambda s: not s["table"]["paused"])
                assert resumed["version"] == paused["version"]
                bob_ws.send({"type": "act", "action": card, "version": resumed["version"]})
                after = bob_ws.until(lambda s: s["version"] > resumed["version"])
                assert card not in after["view"]["hand"]


# -- between deals ------------------------------------------------------------------------


def deal_over(state: State) -> bool:
    return state["table"]["between_deals"] is not None


def test_the_next_deal_waits_until_both_people_said_next(make_app: AppFactory) -> None:
    with TestClient(make_app(ready=None)) as client:
        created, bob = two_people(client)
        table_id = created["id"]
        url = f"/ws/tables/{table_id}"
        bob_seat = joined(url, client, bob["token"], 1, auto=True)
        with bob_seat, joined(url, client, created["token"], 0) as ann_ws:
            # Ann plays her cards herself; Bob his by himself, and he says "next" at once.
            state = ann_ws.last
            assert state is not None
            while not deal_over(state):
                if state["view"]["to_move"] == 0 and not held(state):
                    card = state["view"]["legal"][0]
                    ann_ws.send({"type": "act", "action": card, "version": state["version"]})
                state = ann_ws.until(lambda s, v=state["version"]: s["version"] > v)
            version = state["version"]
            assert state["table"]["between_deals"]["deal"] == 1
            assert state["view"]["deals"][0]["number"] == 1
            assert state["table"]["turn_deadline"] is None
            # Bob said next: the table waits for Ann alone, however long she looks.
            half = ann_ws.until(
                lambda s: deal_over(s) and s["table"]["between_deals"]["ready"] == [1]
            )
            assert half["table"]["between_deals"]["waiting"] == [0]
            assert half["table"]["between_deals"]["deadline"] is None
            assert half["version"] == version
            # Nothing of the next deal happens before, not even an action of a person.
            game = live_table(client, table_id).game
            assert game is not None
            mover = game.acting[0]
            if mover == 0:
                ann_ws.send({"type": "act", "action": game.legal(0)[0], "version": version})
                assert ann_ws.error()["code"] == "between_deals"
            # A "next" made on another version is refused as stale.
            ann_ws.send({"type": "ready", "version": version - 1})
            assert ann_ws.error()["code"] == "stale_version"
            assert live_table(client, table_id).version == version
            # Ann says next: the next deal starts.
            ann_ws.send({"type": "ready", "version": version})
            started = ann_ws.until(lambda s: not deal_over(s))
            assert started["version"] == version and started["view"]["deal_number"] == 2
            ann_ws.send({"type": "ready", "version": version})
            assert ann_ws.error()["code"] == "not_between_deals"


def test_an_away_person_does_not_hold_up_the_next_deal(make_app: AppFactory) -> None:
    # Bob has gone; a stand-in plays for him (a short grace), but "next" is Ann's alone.
    with TestClient(make_app(grace=0.01, ready=None)) as client:
        created, _ = two_people(client)
        url = f"/ws/tables/{created['id']}"
        with joined(url, client, created["token"], 0) as ann_ws:
            state = ann_ws.last
            assert state is not None
            while not deal_over(state):
                if state["view"]["to_move"] == 0 and not held(state):
                    card = state["view"]["legal"][0]
                    ann_ws.send({"type": "act", "action": card, "version": state["version"]})
                state = ann_ws.until(lambda s, v=state["version"]: s["version"] > v)
            assert state["table"]["between_deals"]["waiting"] == [0]
            assert state["table"]["seats"][1]["presence"] == "standin"
            ann_ws.send({"type": "ready", "version": state["version"]})
            started = ann_ws.until(lambda s: not deal_over(s))
            assert started["version"] == state["version"]
            assert started["view"]["deal_number"] == 2


def test_the_next_deal_starts_after_the_tables_time_without_next(make_app: AppFactory) -> None:
    with TestClient(make_app(ready=0.3)) as client:
        created = new_table(client, options=LONG)
        url = f"/ws/tables/{created['id']}"
        with joined(url, client, created["token"], 0) as ws:
            state = ws.last
            assert state is not None
            while not deal_over(state):
                if state["view"]["to_move"] == 0 and not held(state):
                    card = state["view"]["legal"][0]
                    ws.send({"type": "act", "action": card, "version": state["version"]})
                state = ws.until(lambda s, v=state["version"]: s["version"] > v)
            assert state["table"]["between_deals"]["waiting"] == [0]
            assert state["table"]["between_deals"]["deadline"] is not None
            # Nobody says next: after the table's time the next deal starts by itself.
            started = ws.until(lambda s: not deal_over(s))
            assert started["version"] == state["version"]
            if started["view"]["to_move"] == 0:  # the person leads the next deal
                card = started["view"]["legal"][0]
                ws.send({"type": "act", "action": card, "version": started["version"]})
            moved = ws.until(lambda s: s["version"] > state["version"])
            assert moved["view"]["deal_number"] == 2


def test_the_wait_between_deals_holds_the_russian_cut(make_app: AppFactory) -> None:
    with TestClient(make_app(ready=None)) as client:
        created = new_table(client, options={"preset": "russian", "target": 100})
        url = f"/ws/tables/{created['id']}"
        with joined(url, client, created["token"], 0) as ws:
            state = ws.last
            assert state is not None
            while not deal_over(state):
                view = state["view"]
                if view["to_move"] == 0 and not held(state) and view["legal"]:
                    ws.send(
                        {"type": "act", "action": view["legal"][0], "version": state["version"]}
                    )
                state = ws.until(lambda s, v=state["version"]: s["version"] > v)
            # The deck waits for its cut, and the cut for "next".
            cut = state["view"]["cut"]
            assert cut is not None and cut["deal"] == 2
            ws.send({"type": "ready", "version": state["version"]})
            started = ws.until(lambda s: not deal_over(s))
            assert started["view"]["cut"] == cut and started["version"] == state["version"]
            if cut["seat"] == 0:
                ws.send({"type": "act", "action": "cut 5", "version": started["version"]})
            after = ws.until(lambda s: s["version"] > state["version"])
            assert after["view"]["cuts"][-1]["deal"] == 2


# -- the table's settings -------------------------------------------------------------------


def test_the_hosts_choices_are_checked_stored_and_kept_after_a_restart(
    make_app: AppFactory,
) -> None:
    with TestClient(make_app(grace=30.0)) as client:
        for body, code in (
            ({"away": "later"}, "bad_away"),
            ({"grace_seconds": 2}, "bad_grace_seconds"),
            ({"grace_seconds": "30"}, "bad_grace_seconds"),
            ({"ready_seconds": 3}, "bad_ready_seconds"),
            ({"ready_seconds": True}, "bad_ready_seconds"),
        ):
            response = client.post(
                "/api/tables?lang=en",
                json={"game": "slobberhannes", "name": "Ann", "seats": TWO_PEOPLE, **body},
            )
            assert response.status_code == 400, body
            assert response.json()["error"]["code"] == code
        defaults = client.get("/api/games").json()["defaults"]
        assert defaults == {"away": "standin", "grace_seconds": 30.0, "ready_seconds": 60.0}
        chosen = new_table(
            client, seats=TWO_PEOPLE, away="pause", grace_seconds=45, ready_seconds=0
        )
        plain = new_table(client, seats=TWO_PEOPLE)
        table = chosen["table"]
        assert (table["away"], table["grace_seconds"], table["ready_seconds"]) == (
            "pause",
            45.0,
            None,
        )
        table = plain["table"]
        assert (table["away"], table["grace_seconds"], table["ready_seconds"]) == (
            "standin",
            30.0,
            60.0,
        )
    with TestClient(make_app(grace=10.0, ready=20.0)) as client:
        table = client.get(f"/api/tables/{chosen['id']}").json()["table"]
        assert (table["away"], table["grace_seconds"], table["ready_seconds"]) == (
            "pause",
            45.0,
            None,
        )
        # Without a choice of its own a table follows the server's settings.
        table = client.get(f"/api/tables/{plain['id']}").json()["table"]
        assert (table["away"], table["grace_seconds"], table["ready_seconds"]) == (
            "standin",
            10.0,
            20.0,
        )


def test_ready_messages_are_checked() -> None:
    assert parse_client_message('{"type": "ready", "version": 7}') == Ready(7)
    for text in (
        '{"type": "ready"}',
        '{"type": "ready", "version": "7"}',
        '{"type": "ready", "version": true}',
        '{"type": "ready", "version": 7, "seat": 1}',
    ):
        try:
            parse_client_message(text)
        except ProtocolError as exc:
            assert exc.code == "bad_message", text
        else:
            raise AssertionError(f"{text} was read")


def test_a_spectator_cannot_say_next(client: TestClient) -> None:
    created = new_table(client, options=LONG)
    with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
        state = hello(ws)
        ws.send_json({"type": "ready", "version": state["version"]})
        assert next_error(ws)["code"] == "not_seated"
