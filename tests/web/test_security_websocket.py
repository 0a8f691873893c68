"""Hostile WebSocket clients: every bad message is refused, the table stays as it was.

The table of these tests has three people and no bot, no timer and no grace
time: nothing changes unless a person acts. One connection per seat and a
spectator watch while another sends garbage, acts out of turn, on stale
versions, with another table's token, for a forged seat, or floods the
server. Each message must be answered with a clear error (a known code, a
text in the connection's language); afterwards the version, every seat's
view and the other connections are exactly as before. Hypothesis fuzzes the
messages of a seat that is not to move and of a spectator.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from kartentisch.web.app import create_app
from kartentisch.web.i18n import catalog
from kartentisch.web.protocol import Limits
from kartentisch.web.table_socket import FLOOD_CLOSE_CODE, FLOOD_CLOSE_REASON
from kartentisch.web.tables import ServerSettings

THREE_PEOPLE = [{"kind": "you"}, {"kind": "open"}, {"kind": "open"}]
#: Every error code a refused message may carry here (the engine's rule codes included).
CODES = {
    "bad_json",
    "bad_message",
    "unknown_type",
    "too_large",
    "hello_first",
    "bad_token",
    "not_seated",
    "table_started",
    "stale_version",
    "not_your_turn",
    "not_in_hand",
    "bad_notation",
    "must_follow_suit",
    "rate_limited",
    "too_many_spectators",
}


def build(path: Path, limits: Limits | None = None) -> TestClient:
    settings = ServerSettings(bot_delay=0, grace=None)
    return TestClient(create_app(None, data_dir=path, settings=settings, limits=limits))


class Socket:
    """A test client's WebSocket with the helpers these tests need."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self._marker = 0

    def send(self, message: Any) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        return message

    def hello(self, token: str | None = None, lang: str = "en") -> dict[str, Any]:
        self.send({"type": "hello", "token": token, "lang": lang})
        return self.state()

    def state(self) -> dict[str, Any]:
        while True:
            message = self.receive()
            if message["type"] == "state":
                return message

    def sync(self) -> list[dict[str, Any]]:
        """Everything the server sent before it answered a ping sent now."""
        self._marker += 1
        marker = f"sync-{self._marker}"
        self.send({"type": "ping", "t": marker})
        seen: list[dict[str, Any]] = []
        while True:
            message = self.receive()
            if message == {"type": "pong", "t": marker}:
                return seen
            seen.append(message)

    def refused(self, message: Any, code: str | None = None) -> dict[str, Any]:
        """Send ``message``; the answer must be one error (and a state after stale_version)."""
        self.send(message)
        answers = self.sync()
        errors = [a for a in answers if a["type"] == "error"]
        assert len(errors) == 1, answers
        error = errors[0]
        assert error["code"] in CODES, error
        assert error["message"] and not error["message"].startswith("error."), error
        assert "{" not in error["message"], error
        others = [a for a in answers if a["type"] != "error"]
        if error["code"] == "stale_version":
            assert [a["type"] for a in others] == ["state"]
        else:
            assert others == [], answers
        if code is not None:
            assert error["code"] == code, error
        return error


class Table:
    """A started Slobberhannes table of three people, each connected, and a spectator."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        created = client.post(
            "/api/tables", json={"game": "slobberhannes", "name": "Ann", "seats": THREE_PEOPLE}
        ).json()
        self.id = created["id"]
        self.tokens = [created["token"]]
        for name in ("Bob", "Cyd"):
            joined = client.post(f"/api/tables/{self.id}/join", json={"name": name}).json()
            self.tokens.append(joined["token"])
        self.url = f"/ws/tables/{self.id}"

    @property
    def live(self) -> Any:
        return self.client.app.state.manager.get(self.id)  # type: ignore[attr-defined]

    def views(self) -> list[Any]:
        game = self.live.game
        return [json.dumps(game.view(seat), sort_keys=True) for seat in (None, 0, 1, 2)]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with build(tmp_path) as test_client:
        yield test_client


def test_every_bad_message_is_refused_and_changes_nothing(client: TestClient) -> None:
    table = Table(client)
    other_table = Table(client)
    with (
        client.websocket_connect(table.url) as w0,
        client.websocket_connect(table.url) as w1,
        client.websocket_connect(table.url) as w2,
        client.websocket_connect(table.url) as w_eve,
        client.websocket_connect(table.url) as w_new,
    ):
        people = [Socket(w) for w in (w0, w1, w2)]
        states = [p.hello(table.tokens[i], lang="de") for i, p in enumerate(people)]
        eve, stranger = Socket(w_eve), Socket(w_new)
        eve.hello(lang="ru")
        for person in people:
            person.sync()  # the hellos of the others, each a state
        version = table.live.version
        view = table.live.game.view(None)
        mover = view["to_move"]
        idle = (mover + 1) % 3
        hands = [table.live.game.view(s)["hand"] for s in range(3)]
        before = table.views()
        m, i = people[mover], people[idle]
        deck = {c for hand in hands for c in hand}
        not_mine = sorted(deck - set(hands[mover]))[0]

        # Not JSON, not an object, wrong types, missing and extra fields, too long.
        i.refused("{oops", "bad_json")
        i.refused("[" * 2000 + "]" * 2000, "bad_json")
        i.refused('{"type": "act", "action": "QC", "version": NaN}', "bad_json")
        i.refused("[]", "bad_message")
        i.refused({"type": None}, "bad_message")
        i.refused({"type": "act", "action": hands[idle][0]}, "bad_message")
        i.refused({"type": "act", "action": ["QC"], "version": version}, "bad_message")
        i.refused({"type": "act", "action": hands[idle][0], "version": "1"}, "bad_message")
        i.refused({"type": "ping", "t": {"deep": [1]}}, "bad_message")
        i.refused({"type": "hello", "token": 5}, "bad_message")
        i.refused({"type": "slap"}, "unknown_type")
        i.refused("x" * 10_000, "too_large")
        i.refused(json.dumps({"type": "ping", "t": "é" * 4000}), "too_large")
        # Acting out of turn, for a forged seat, with a card that is not one's own.
        error = i.refused({"type": "act", "action": hands[idle][0], "version": version})
        assert error["code"] == "not_your_turn" and error["version"] == version
        assert error["message"] == "du bist nicht an der Reihe"
        forged = {"type": "act", "action": hands[mover][0], "version": version, "seat": mover}
        error = i.refused(forged, "bad_message")
        assert "seat" in error["message"]
        m.refused({"type": "act", "action": not_mine, "version": version}, "not_in_hand")
        m.refused({"type": "act", "action": "ZZ", "version": version}, "bad_notation")
        m.refused({"type": "act", "action": "turn", "version": version}, "bad_notation")
        m.refused({"type": "act", "action": "<script>", "version": version}, "bad_notation")
        # Stale versions: before, after, far away; the state follows.
        for stale in (version - 1, version + 1, -(2**60), 2**60):
            error = m.refused({"type": "act", "action": hands[mover][0], "version": stale})
            assert error["code"] == "stale_version" and error["version"] == version
        # Seats and tokens: another table's token, a spectator, a stranger, start again.
        i.refused({"type": "hello", "token": other_table.tokens[idle]}, "bad_token")
        i.refused({"type": "hello", "token": table.tokens[idle][:-1]}, "bad_token")
        i.refused({"type": "act", "action": hands[idle][0], "version": version}, "not_your_turn")
        eve.refused({"type": "act", "action": hands[mover][0], "version": version}, "not_seated")
        eve.refused({"type": "start"}, "not_seated")
        stranger.refused({"type": "act", "action": hands[mover][0], "version": version})
        stranger.refused({"type": "start"}, "hello_first")
        i.refused({"type": "start"}, "table_started")

        # Nothing changed, and nobody else heard of any of it.
        assert table.live.version == version
        assert table.views() == before
        for watcher in (people[3 - mover - idle], eve):
            assert watcher.sync() == []
        # The connections still work: the mover plays a legal card.
        legal = table.live.game.view(mover)["legal"]
        m.send({"type": "act", "action": legal[0], "version": version})
        after = m.state()
        assert after["version"] == version + 1
        assert people[idle].state()["version"] == version + 1
        assert all(s["table"]["id"] == table.id for s in states)


def test_fuzzed_messages_never_change_the_table(tmp_path: Path) -> None:
    with build(tmp_path, Limits.unlimited()) as client:
        table = Table(client)
        with (
            client.websocket_connect(table.url) as w0,
            client.websocket_connect(table.url) as w1,
            client.websocket_connect(table.url) as w2,
            client.websocket_connect(table.url) as w_eve,
        ):
            people = [Socket(w) for w in (w0, w1, w2)]
            for seat, person in enumerate(people):
                person.hello(table.tokens[seat])
            eve = Socket(w_eve)
            eve.hello()
            for person in people:
                person.sync()
            mover = table.live.game.view(None)["to_move"]
            idle = [people[(mover + 1) % 3], eve]
            watcher = people[(mover + 2) % 3]
            version = table.live.version
            before = table.views()
            hand = table.live.game.view((mover + 1) % 3)["hand"]
            cards = st.sampled_from([*hand, "QC", "10H", "7S", "A♠", "q c", ""])
            values = st.none() | st.booleans() | st.integers() | st.text(max_size=20) | cards
            versions = st.sampled_from([version, version - 1, version + 1]) | values
            message = st.one_of(
                st.fixed_dictionaries(
                    {"type": st.just("act"), "action": cards | values, "version": versions},
                    optional={"seat": st.integers(-1, 3), "token": values},
                ),
                st.fixed_dictionaries(
                    {"type": st.sampled_from(["start", "pong", "ping", "slap", "act", "hi"])},
                    optional={"nonce": values, "t": values, "action": values},
                ),
                st.dictionaries(st.text(max_size=6), values, max_size=3),
                st.lists(values, max_size=3),
                values,
            )

            @settings(
                max_examples=250,
                deadline=None,
                suppress_health_check=[HealthCheck.too_slow],
            )
            @given(st.sampled_from(idle), message, st.booleans())
            def send(who: Socket, data: Any, raw: bool) -> None:
                text = json.dumps(data)
                who.send(text[:-1] if raw and len(text) > 1 else text)
                answers = who.sync()
                codes = {a.get("code") for a in answers}
                for answer in answers:
                    if answer["type"] == "pong":
                        continue
                    if answer["type"] == "state":  # sent again after a stale version
                        assert "stale_version" in codes and answer["version"] == version
                        continue
                    assert answer["type"] == "error", answer
                    assert answer["code"] in CODES, answer
                    assert answer["message"] and "{" not in answer["message"], answer
                assert table.live.version == version

            send()
            assert table.views() == before
            assert watcher.sync() == []


def test_a_message_flood_is_throttled_then_closed(client: TestClient) -> None:
    table = Table(client)
    limits = Limits()
    with (
        client.websocket_connect(table.url) as w0,
        client.websocket_connect(table.url) as w1,
    ):
        ann, bob = Socket(w0), Socket(w1)
        ann.hello(table.tokens[0])
        bob.hello(table.tokens[1], lang="de")
        ann.sync()
        version = table.live.version
        for n in range(400):
            bob.send({"type": "ping", "t": n})
        answers: list[dict[str, Any]] = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                answers.append(bob.receive())
        assert closed.value.code == FLOOD_CLOSE_CODE
        assert closed.value.reason == FLOOD_CLOSE_REASON
        pongs = [a for a in answers if a["type"] == "pong"]
        errors = [a for a in answers if a["type"] == "error"]
        # The burst is answered; then one refusal that says why; then the connection closes.
        assert limits.message_burst - 1 <= len(pongs) < limits.message_burst + 20  # - hello
        # (the refusal is said at most once a second: again if the flood takes longer)
        codes = [e["code"] for e in errors]
        assert codes == ["rate_limited"] * (len(codes) - 1) + ["message_flood"] and len(codes) >= 2
        assert errors[0]["message"] == catalog("de")["error.rate_limited"].format(rate=20, burst=40)
        assert errors[-1]["message"] == catalog("de")["error.message_flood"]
        assert answers[-1]["code"] == "message_flood"
        # Ann heard only that Bob left; the table is as it was, Bob's seat still his.
        heard = ann.sync()
        assert [m["type"] for m in heard] == ["state"]
        assert heard[0]["table"]["seats"][1]["connected"] is False
        assert table.live.version == version
    with client.websocket_connect(table.url) as again:
        assert Socket(again).hello(table.tokens[1])["table"]["you"] == 1


def test_a_hello_flood_does_not_flood_the_others(client: TestClient) -> None:
    table = Table(client)
    with (
        client.websocket_connect(table.url) as w0,
        client.websocket_connect(table.url) as w_eve,
    ):
        ann, eve = Socket(w0), Socket(w_eve)
        ann.hello(table.tokens[0])
        eve.hello()
        ann.sync()
        for _ in range(30):
            eve.send({"type": "hello"})
        answers = eve.sync()
        states = [a for a in answers if a["type"] == "state"]
        errors = [a for a in answers if a["type"] == "error"]
        # One went into the first hello; a slow run may have earned one more meanwhile.
        assert Limits().hello_burst - 1 <= len(states) <= Limits().hello_burst
        assert errors and {e["code"] for e in errors} == {"rate_limited"}
        assert "hello" in errors[0]["message"]
        # A spectator's hello is answered to the spectator alone: Ann was sent nothing.
        assert ann.sync() == []


def test_the_spectators_of_a_table_are_limited_but_seats_always_get_in(tmp_path: Path) -> None:
    with build(tmp_path, Limits(max_spectators=2)) as client:
        table = Table(client)
        with (
            client.websocket_connect(table.url) as a,
            client.websocket_connect(table.url) as b,
            client.websocket_connect(table.url) as c,
        ):
            Socket(a).hello()
            Socket(b).hello()
            third = Socket(c)
            error = third.refused({"type": "hello"}, None)
            assert error["code"] == "too_many_spectators" and "2" in error["message"]
            assert third.hello(table.tokens[2])["table"]["you"] == 2
            # A spectator that says hello again keeps its place.
            assert Socket(a).hello()["table"]["you"] is None
