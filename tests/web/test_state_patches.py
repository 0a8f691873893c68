"""State patches: made and applied exactly (hypothesis), and over a real socket."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from kartentisch.web.app import create_app
from kartentisch.web.statepatch import apply, apply_patch, diff, patch_message, same
from kartentisch.web.tables import ServerSettings
from kartentisch.web.wire import Encoded, dumps, message_text

from .matches import drained, four_people, walk_match
from .servers import in_thread

_KEYS = st.sampled_from(["a", "b", "c", "version", "view", "x", "ä"])
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from([0.5, 1.0])
    | st.text(max_size=3)
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=20,
)
_OBJECTS = st.dictionaries(_KEYS, _VALUES, max_size=6)


def _text(value: Any) -> str:
    """A JSON value's text with its objects' members sorted: the same value, the same text."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


@settings(max_examples=400, deadline=None)
@given(_OBJECTS, _OBJECTS)
def test_applying_the_diff_gives_the_new_object_exactly(
    old: dict[str, Any], new: dict[str, Any]
) -> None:
    before = _text(old)
    changes, gone = diff(old, new)
    made = apply(old, changes, gone)
    assert _text(made) == _text(new)
    assert _text(old) == before  # the old one is left as it was


@settings(max_examples=300, deadline=None)
@given(_OBJECTS, _OBJECTS, st.integers(0, 5), st.integers(0, 5))
def test_a_patch_message_read_back_from_its_text_gives_the_new_state(
    old: dict[str, Any], new: dict[str, Any], v0: int, v1: int
) -> None:
    old = {**old, "type": "state", "version": v0}
    new = {**new, "type": "state", "version": v1}
    sent = patch_message(old, new)
    received = json.loads(message_text(sent))
    if received["type"] == "state":
        assert _text(received) == _text(new)  # the patch would not have been shorter
        return
    assert received["base"] == v0 and received["version"] == v1
    assert len(message_text(sent)) < len(dumps(new))
    assert _text(apply_patch(json.loads(dumps(old)), received)) == _text(new)


def test_same_tells_apart_what_equals_takes_for_equal() -> None:
    assert same({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]})
    assert not same({"a": [1]}, {"a": [True]}) and not same([1.0], [1]) and not same([0], [False])
    assert not same([1, 2], (1, 2)) and not same({"a": 1, "b": 2}, {"b": 2, "a": 1})
    shared = [{"x": 1}]
    assert same([shared], [shared]) and same(shared, [{"x": 1}])
    assert not same([object()], [object()])


def test_a_patch_against_another_version_is_refused() -> None:
    patch = {"type": "patch", "base": 3, "version": 4, "set": {"version": 4}}
    assert apply_patch({"type": "state", "version": 3}, patch) == {"type": "state", "version": 4}
    with pytest.raises(ValueError, match="version 3, not 2"):
        apply_patch({"type": "state", "version": 2}, patch)


def test_null_and_true_are_values_not_deletions() -> None:
    old = {"type": "state", "version": 1, "a": 1, "b": {"c": [1, 2]}, "d": {"e": 1}}
    new = {"type": "state", "version": 1, "a": True, "b": {"c": [True, 2]}, "d": None}
    changes, gone = diff(old, new)
    assert changes == {"a": True, "b": {"c": [True, 2]}, "d": None} and gone == []
    assert _text(apply(old, changes, gone)) == _text(new)


def test_the_patch_from_one_state_to_the_next_is_made_once() -> None:
    old = Encoded({"type": "state", "version": 1, "big": "x" * 200}, "")
    old.text = dumps(dict(old))
    new = Encoded({"type": "state", "version": 2, "big": "x" * 200}, "")
    new.text = dumps(dict(new))
    first = patch_message(old, new)
    assert first["type"] == "patch" and patch_message(old, new) is first
    assert json.loads(message_text(first)) == {
        "type": "patch",
        "base": 1,
        "version": 2,
        "set": {"version": 2},
    }


# -- over a real socket ------------------------------------------------------------------


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    app = create_app(data_dir=tmp_path, settings=ServerSettings(bot_delay=0, grace=None))
    with in_thread(app, lifespan="on") as address:
        yield address


def receive(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return message


def _table(server: str, game: str = "slobberhannes") -> dict[str, Any]:
    body = {
        "game": game,
        "name": "Ann",
        "seats": [{"kind": "you"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
    }
    created: dict[str, Any] = httpx.post(
        f"http://{server}/api/tables", json=body, timeout=10
    ).json()
    return created


class PatchClient:
    """A client that takes patches, as the page does: its copy of the state."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.patches = 0
        self.wholes = 0
        self.patch_bytes = 0
        self.whole_bytes = 0
        self.drop = False

    def next_state(self) -> dict[str, Any]:
        """The next state, whole or made from a patch (while :attr:`drop` is set, the
        next patch that changes the version is left out, as if it was missed: the
        client then asks again)."""
        while True:
            text = self.ws.recv(timeout=10)
            message: dict[str, Any] = json.loads(text)
            if message["type"] == "state":
                self.wholes += 1
                self.whole_bytes += len(text)
                self.state = message
                return message
            if message["type"] != "patch":
                stale = message["type"] == "error" and message["code"] == "stale_version"
                assert stale or message["type"] in ("chat_history", "pong"), message
                continue
            self.patches += 1
            self.patch_bytes += len(text)
            if self.drop and message["base"] != message["version"]:
                self.drop = False
                continue
            assert self.state is not None
            if self.state["version"] != message["base"]:
                self.ws.send(json.dumps({"type": "resync"}))
                while True:  # patches until the whole state are of no use
                    answer = json.loads(self.ws.recv(timeout=10))
                    if answer["type"] == "state":
                        self.wholes += 1
                        self.state = answer
                        return answer
            self.state = apply_patch(self.state, message)
            return self.state

    def check(self) -> None:
        """Ask for the whole state: it is the state this client made of the patches that
        came before it, exactly."""
        self.ws.send(json.dumps({"type": "resync"}))
        while True:
            message = json.loads(self.ws.recv(timeout=10))
            if message["type"] == "patch":
                assert self.state is not None
                self.state = apply_patch(self.state, message)
            elif message["type"] == "state":
                assert _text(message) == _text(self.state)
                self.state = message
                return


def _play(client: PatchClient, ws: Any, seat: int) -> int:
    """Play this seat's legal cards until the deal is over; how many were played."""
    played = 0
    acted: set[int] = set()
    message = client.state if client.state is not None else client.next_state()
    while True:
        view = message["view"]
        if message["table"].get("between_deals") is not None or view["over"]:
            return played
        if view["to_move"] == seat and message["version"] not in acted:
            client.check()  # the state made of patches is the server's, exactly
            message = client.state or message
            view = message["view"]
            if view["to_move"] != seat or message["version"] in acted:
                continue  # (the state moved on meanwhile: look at it again)
            acted.add(message["version"])
            act = {"type": "act", "action": view["legal"][0], "version": message["version"]}
            ws.send(json.dumps(act))
            played += 1
        message = client.next_state()


def test_a_client_taking_patches_holds_the_servers_state(server: str) -> None:
    created = _table(server)
    with connect(f"ws://{server}/ws/tables/{created['id']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": created["token"], "patches": True}))
        client = PatchClient(ws)
        first = client.next_state()
        assert client.wholes == 1 and client.patches == 0 and first["type"] == "state"
        played = _play(client, ws, 0)
        assert played == 8
        assert client.patches > 20
        # A patch is a small part of a state: about a tenth (the deal's first states
        # are the shortest; late in a match the finished deals make states longer).
        assert client.patch_bytes / client.patches < 0.5 * client.whole_bytes / client.wholes
        client.check()


def test_a_client_that_misses_a_patch_asks_and_gets_the_whole_state(server: str) -> None:
    created = _table(server)
    with connect(f"ws://{server}/ws/tables/{created['id']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": created["token"], "patches": True}))
        client = PatchClient(ws)
        state = client.next_state()
        while state["view"]["to_move"] != 0:
            state = client.next_state()
        act = {"type": "act", "action": state["view"]["legal"][0], "version": state["version"]}
        ws.send(json.dumps(act))
        # An action on a version that never was: refused, and the state sent again (as a
        # patch), so that a patch follows the missed one even when the card just played
        # won a trick and it is this seat's turn again (nobody else moves then).
        ws.send(json.dumps({**act, "version": -1}))
        wholes = client.wholes
        client.drop = True  # the patch of this card is missed: the next is against another base
        while client.wholes == wholes:
            client.next_state()
        assert not client.drop
        client.check()
        _play(client, ws, 0)
        client.check()


def test_a_hello_again_sends_the_state_whole_and_a_plain_client_gets_states(server: str) -> None:
    created = _table(server)
    url = f"ws://{server}/ws/tables/{created['id']}"
    with connect(url) as ws, connect(url) as plain:
        ws.send(json.dumps({"type": "hello", "token": created["token"], "patches": True}))
        client = PatchClient(ws)
        client.next_state()
        plain.send(json.dumps({"type": "hello"}))  # a spectator without patches
        ws.send(json.dumps({"type": "resync"}))
        wholes = client.wholes
        while client.wholes == wholes:
            client.next_state()
        ws.send(json.dumps({"type": "hello", "token": created["token"], "patches": True}))
        wholes = client.wholes
        while client.wholes == wholes:
            client.next_state()  # patches may come first; then the answer, whole
        assert receive(plain)["type"] == "state"


def test_a_resync_before_hello_is_ignored_and_bad_fields_refused(server: str) -> None:
    created = _table(server)
    with connect(f"ws://{server}/ws/tables/{created['id']}") as ws:
        ws.send(json.dumps({"type": "resync"}))
        ws.send(json.dumps({"type": "hello", "patches": "yes"}))
        error = receive(ws)
        assert error["type"] == "error" and error["code"] == "bad_message"
        ws.send(json.dumps({"type": "resync", "version": 3}))
        error = receive(ws)
        assert error["type"] == "error" and error["code"] == "bad_message"
        ws.send(json.dumps({"type": "hello", "patches": True}))
        assert receive(ws)["type"] == "state"  # nothing came before: the resync was ignored


# -- whole games, in process: every patch against what was really sent -------------------


def _hold(conn: Any, held: dict[str, Any] | None) -> dict[str, Any] | None:
    """Apply what ``conn`` was sent to ``held`` (as the page does), then check it is the
    state the connection was sent last, as its text was when it was sent."""
    for message in drained(conn):
        received = json.loads(message_text(message))
        if received["type"] == "state":
            held = received
        elif received["type"] == "patch":
            assert held is not None
            held = apply_patch(held, received)
    if conn.last_state is not None:
        assert _text(held) == _text(json.loads(dumps(dict(conn.last_state))))
    return held


@pytest.mark.parametrize(
    "body",
    [
        {"game": "slobberhannes", "options": {"target": 4}},
        {"game": "slobberhannes", "options": {"cut": True, "target": 3}},
        {"game": "doppelkopf", "options": {"games": 3}},
    ],
    ids=["slobberhannes", "slobberhannes-cut", "doppelkopf"],
)
def test_whole_matches_patched_give_the_states_sent(tmp_path: Path, body: dict[str, Any]) -> None:
    """A state that changed after it was sent (a list the game appends to) would make
    the next patch pass over the change: every patch is checked against the states as
    they were when sent, seat and spectator, over whole matches."""

    async def play() -> None:
        table, conns = await four_people(tmp_path, body)
        for conn in conns:
            conn.take_patches(True)
        table.broadcast()
        held: list[dict[str, Any] | None] = [None] * len(conns)
        patches = 0

        def look() -> None:
            nonlocal patches
            for i, conn in enumerate(conns):
                patches += sum(1 for m in list(conn.queue._queue) if m and m["type"] == "patch")  # type: ignore[attr-defined]
                held[i] = _hold(conn, held[i])

        await walk_match(table, conns, look, steps=400)
        assert table.game.is_over
        assert patches > 100
        await table.manager.close()

    asyncio.run(play())
