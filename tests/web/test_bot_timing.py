"""A bot's decision time never tells its hand (docs/bots.md, "At a web table").

The table starts a bot's computation when its turn begins and applies the
choice at the due time (turn start + bot delay) or when it is ready,
whichever is later. These tests use no wall-clock bound: a bot delay of an
hour shows the bot is asked long before it may act; every lower bound
(an action never comes before its due time) holds however loaded the machine.
"""

from __future__ import annotations

import queue
import threading
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from kartentisch.bots import make_bot

from .helpers import AppFactory, new_table, next_state

BOTS = [{"kind": "you"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
#: Long enough that no test can wait for it.
HOUR = 3600.0


class RecordingBot:
    """The heuristic bot's choice; says when it was asked and may wait to answer."""

    name = "recording"

    def __init__(self, asked: queue.Queue[tuple[int, float]], release: threading.Event) -> None:
        self.asked = asked
        self.release = release
        self.answered: list[float] = []
        self.inner = make_bot("slobberhannes", "heuristic", 1)

    def choose(self, observation: Any) -> Any:
        self.asked.put((observation.seat, time.monotonic()))
        assert self.release.wait(timeout=120)
        choice = self.inner.choose(observation)
        self.answered.append(time.monotonic())
        return choice


@pytest.fixture
def recording(
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[queue.Queue[tuple[int, float]], threading.Event, list[RecordingBot]]:
    """Every bot at a table is a :class:`RecordingBot`; the event lets them answer."""
    asked: queue.Queue[tuple[int, float]] = queue.Queue()
    release = threading.Event()
    made: list[RecordingBot] = []

    def fake_make_bot(game: str, level: str, seed: object = None) -> RecordingBot:
        bot = RecordingBot(asked, release)
        made.append(bot)
        return bot

    monkeypatch.setattr("kartentisch.web.driver.make_bot", fake_make_bot)
    return asked, release, made


def _hello(ws: Any, token: str) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token, "lang": "en"})
    return next_state(ws)


def _play_until_a_bot_moves(ws: Any, state: dict[str, Any]) -> dict[str, Any]:
    """Ann plays her first legal card whenever she is to move, until a bot is."""
    while state["view"]["to_move"] == 0:
        ws.send_json(
            {"type": "act", "action": state["view"]["legal"][0], "version": state["version"]}
        )
        state = next_state(ws)
    return state


def test_a_bot_thinks_from_the_start_of_its_turn_and_acts_only_when_due(
    make_app: AppFactory,
    recording: tuple[queue.Queue[tuple[int, float]], threading.Event, list[RecordingBot]],
) -> None:
    asked, release, made = recording
    release.set()
    with TestClient(make_app(delay=HOUR)) as client:
        created = new_table(client, BOTS, options={"target": 100})
        with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            state = _play_until_a_bot_moves(ws, _hello(ws, created["token"]))
            # Asked although its due time is an hour away, and answered at once.
            seat, _ = asked.get(timeout=60)
            assert seat == state["view"]["to_move"]
            for _ in range(600):
                if any(bot.answered for bot in made):
                    break
                time.sleep(0.05)
            assert any(bot.answered for bot in made)
            # The choice is ready, but it waits for the due time: nothing was played.
            with client.websocket_connect(f"/ws/tables/{created['id']}") as second:
                again = _hello(second, created["token"])
            assert again["version"] == state["version"]
            assert again["view"]["to_move"] == seat
        assert asked.empty()  # asked once, not again at every wake-up of the table


def test_every_bot_action_waits_the_delay_after_the_turn_began(make_app: AppFactory) -> None:
    delay = 0.15
    with TestClient(make_app(delay=delay)) as client:
        created = new_table(client, BOTS, options={"target": 100})
        with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            state = _hello(ws, created["token"])
            checked = 0
            while checked < 12 and not state["view"]["over"]:
                if state["table"].get("between_deals") is not None:
                    break
                if state["view"]["to_move"] != 0:
                    state = next_state(ws)
                    continue
                sent = time.monotonic()
                version = state["version"]
                ws.send_json(
                    {"type": "act", "action": state["view"]["legal"][0], "version": version}
                )
                state = next_state(ws)
                # Each bot's turn begins when the action before it is played: the k-th bot
                # action after Ann's comes no sooner than k delays after she sent hers,
                # whatever its hand (the last trick's single cards included).
                while state["view"]["to_move"] != 0 and state["table"].get("between_deals") is None:
                    state = next_state(ws)
                    bots_played = state["version"] - version - 1
                    if bots_played > 0:
                        assert time.monotonic() - sent >= bots_played * delay
                        checked += 1
                    if state["view"]["over"]:
                        break
            assert checked >= 6


def test_a_slow_choice_is_played_when_it_is_ready(
    make_app: AppFactory,
    recording: tuple[queue.Queue[tuple[int, float]], threading.Event, list[RecordingBot]],
) -> None:
    asked, release, made = recording
    with TestClient(make_app(delay=0)) as client:
        created = new_table(client, BOTS, options={"target": 100})
        with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            state = _play_until_a_bot_moves(ws, _hello(ws, created["token"]))
            seat, _ = asked.get(timeout=60)
            assert seat == state["view"]["to_move"]
            # Its due time has passed; the bot has not answered: the table waits for it.
            release.set()
            played = next_state(ws)
            while played["version"] == state["version"]:
                played = next_state(ws)
            arrived = time.monotonic()
            answered = next(bot.answered[0] for bot in made if bot.answered)
            assert arrived >= answered
            assert played["version"] == state["version"] + 1
