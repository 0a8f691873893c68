"""Correspondence tables: deadlines on the wall clock, the "your turn" list, mails, stand-ins.

The server's wall clock is injected (a list the test sets), and a local SMTP
server (aiosmtpd) started by the test receives the mails. The tests wait for
the messages and mails they need, never for time to pass.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from kartentisch.web.app import create_app
from kartentisch.web.mail import SmtpSettings
from kartentisch.web.protocol import Limits
from kartentisch.web.tables import ServerSettings

from .helpers import next_state
from .smtp import Inbox, smtp_server
from .test_accounts import csrf, sign_up
from .test_ratings_web import Person

#: Monday, 7 December 2026, 09:00 UTC: the injected clock's start.
T0 = 1_796_634_000.0
DAY = 86_400.0
DOKO_SEATS = [{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    with smtp_server() as (box, port):
        yield box, port


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


def _app(tmp_path: Path, clock: Clock, smtp_port: int | None) -> Any:
    seeds = iter(range(11, 99))
    settings = ServerSettings(
        bot_delay=0, grace=0, table_seed=lambda: next(seeds), wall_clock=clock
    )
    limits = dataclasses.replace(Limits(), signup_burst=50)
    mail = None
    if smtp_port is not None:
        mail = SmtpSettings("127.0.0.1", smtp_port, "tisch@example.org", security="none")
    return create_app(
        data_dir=tmp_path,
        settings=settings,
        limits=limits,
        mail=mail,
        public_url="https://karten.example.org",
    )


@contextlib.contextmanager
def two_people(
    tmp_path: Path, clock: Clock, smtp_port: int | None = None
) -> Iterator[tuple[TestClient, Person]]:
    with TestClient(_app(tmp_path, clock, smtp_port)) as anna:
        bernd = Person(anna)
        with bernd.acting() as client:
            assert sign_up(client, "Bernd").status_code == 201
        assert sign_up(anna, "Anna").status_code == 201
        yield anna, bernd


def open_table(anna: TestClient, bernd: Person, **extra: Any) -> tuple[str, str, str]:
    """Anna's correspondence Doppelkopf table, Bernd joined: its id and both tokens."""
    body = {"game": "doppelkopf", "seats": DOKO_SEATS, "move_hours": 24, **extra}
    created = anna.post("/api/tables", json=body, headers=csrf(anna))
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    with bernd.acting() as client:
        joined = client.post(f"/api/tables/{table_id}/join", json={}, headers=csrf(client))
    assert joined.status_code == 200, joined.text
    return table_id, created.json()["token"], joined.json()["token"]


def person_due(ws: Any) -> dict[str, Any]:
    """The next state in which a person's move is due (the bots have moved)."""
    while True:
        state = next_state(ws)
        to_move = state["view"]["to_move"]
        if to_move is not None and state["table"]["seats"][to_move]["kind"] == "human":
            return state


def settled(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    """Once a person's move is due at the table (a look through ``token``'s seat)."""
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        return person_due(ws)


def turns(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/turns")
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def whose_turn(anna: TestClient, bernd: Person) -> tuple[str, dict[str, Any]]:
    """Who owes the table's move (the "your turn" lists say), and the entry."""
    mine = turns(anna)["turns"]
    with bernd.acting() as client:
        his = turns(client)["turns"]
    assert len(mine) + len(his) == 1, (mine, his)
    return ("anna", mine[0]) if mine else ("bernd", his[0])


def move(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    """Connect to the table, make the first legal move, and return the state after it
    where a person's move is due again (the bots have moved meanwhile)."""
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        state = next_state(ws)
        assert state["view"]["legal"], state["view"]
        version = state["version"]
        ws.send_json({"type": "act", "action": state["view"]["legal"][0], "version": version})
        while True:
            after = person_due(ws)
            if after["version"] > version:
                return after


def test_a_correspondence_table_seats_accounts_only_and_turn_based_games(
    tmp_path: Path,
) -> None:
    clock = Clock()
    with two_people(tmp_path, clock) as (anna, _bernd):
        for wrong, code in [
            (
                {"game": "slapjack", "seats": [{"kind": "you"}, {"kind": "bot"}]},
                "correspondence_realtime",
            ),
            ({"game": "doppelkopf", "move_hours": 0}, "bad_move_hours"),
            ({"game": "doppelkopf", "move_hours": 721}, "bad_move_hours"),
            ({"game": "doppelkopf", "move_hours": 1.5}, "bad_move_hours"),
            ({"game": "doppelkopf", "move_hours": 24, "turn_seconds": 30}, "bad_request"),
            ({"game": "doppelkopf", "move_hours": None, "deadline_standin": True}, "bad_request"),
        ]:
            body = {"move_hours": 24, **wrong}
            refused = anna.post("/api/tables", json=body, headers=csrf(anna))
            assert refused.status_code == 400, (wrong, refused.text)
            assert refused.json()["error"]["code"] == code
        created = anna.post(
            "/api/tables",
            json={"game": "doppelkopf", "seats": DOKO_SEATS, "move_hours": 48},
            headers=csrf(anna),
        )
        assert created.status_code == 201
        table = created.json()["table"]
        assert table["correspondence"] == {"move_seconds": 48 * 3600, "standin": False}
        # A guest may neither open one nor sit at one; the refusal is in their language.
        with Person(anna).acting() as guest:
            body = {"game": "doppelkopf", "name": "Gast", "move_hours": 24}
            refused = guest.post("/api/tables?lang=de", json=body)
            assert refused.status_code == 403
            assert refused.json()["error"]["code"] == "correspondence_needs_account"
            assert "Konto" in refused.json()["error"]["message"]
            joined = guest.post(f"/api/tables/{created.json()['id']}/join", json={"name": "Gast"})
            assert joined.status_code == 403
            assert joined.json()["error"]["code"] == "correspondence_needs_account"
            assert guest.get("/api/turns").status_code == 401


def test_moves_on_two_days_are_listed_and_mailed(tmp_path: Path, inbox: tuple[Inbox, int]) -> None:
    mails, port = inbox
    clock = Clock()
    with two_people(tmp_path, clock, port) as (anna, bernd):
        settings = anna.post(
            "/api/mail?lang=de",
            json={"email": "anna@Example.ORG", "notify": True},
            headers=csrf(anna),
        )
        assert settings.status_code == 200, settings.text
        assert settings.json() == {
            "email": "anna@example.org",
            "notify": True,
            "lang": "de",
            "server_sends": True,
        }
        with bernd.acting() as client:
            refused = client.post(
                "/api/mail", json={"email": "bernd@", "notify": True}, headers=csrf(client)
            )
            assert refused.status_code == 400
            assert refused.json()["error"]["code"] == "bad_email"
            answer = client.post(
                "/api/mail?lang=ru",
                json={"email": "bernd@example.org", "notify": True},
                headers=csrf(client),
            )
            assert answer.status_code == 200
        table_id, anna_token, bernd_token = open_table(anna, bernd)
        tokens = {"anna": anna_token, "bernd": bernd_token}
        addresses = {"anna": "anna@example.org", "bernd": "bernd@example.org"}
        # Nobody is at the table: the first person due is mailed once the bots have moved.
        mail = mails.next()
        who, due = whose_turn(anna, bernd)
        assert mail["To"] == addresses[who]
        assert due["table"] == table_id and due["game"] == "doppelkopf"
        assert due["since"] == T0 * 1000
        assert due["deadline"] == (T0 + DAY) * 1000
        assert mail["From"] == "tisch@example.org"
        body = mail.get_content()
        assert f"https://karten.example.org/t/{table_id}" in body
        assert "2026-12-08 09:00 UTC" in body  # the deadline, a day later
        if who == "anna":
            assert "du bist am Zug" in body and "Doppelkopf" in str(mail["Subject"])
        else:
            assert "Ваш ход" in body
        # Day 1, two hours later, and day 2: each moves when they get to it.
        seen = {who}
        for moment in (T0 + 2 * 3600, T0 + DAY + 2 * 3600):
            clock.now = moment
            who, due = whose_turn(anna, bernd)
            person = anna if who == "anna" else None
            with contextlib.ExitStack() as stack:
                client = person or stack.enter_context(bernd.acting())
                after = move(client, table_id, tokens[who])
            assert after["table"]["correspondence"]["move_seconds"] == 24 * 3600
            now_due = whose_turn(anna, bernd)
            # The next move is due from this one's time, for a day.
            assert now_due[1]["since"] == moment * 1000
            assert now_due[1]["deadline"] == (moment + DAY) * 1000
            if now_due[0] != who:
                mail = mails.next()
                assert mail["To"] == addresses[now_due[0]]
                seen.add(now_due[0])
        assert mails.mails.empty()  # one mail per move due, none to the person who is here
        assert seen == {"anna", "bernd"}
        # The table's record keeps every action; the summary tells the deadline.
        shown = anna.get(f"/api/tables/{table_id}").json()["table"]
        assert shown["now"] == clock.now * 1000
        assert shown["turn_deadline"] == now_due[1]["deadline"]


def test_no_mail_without_asking_or_without_a_mail_server(
    tmp_path: Path, inbox: tuple[Inbox, int]
) -> None:
    mails, port = inbox
    clock = Clock()
    with two_people(tmp_path / "a", clock, port) as (anna, bernd):
        # Anna gives an address but wants no mail; Bernd gives none.
        anna.post(
            "/api/mail", json={"email": "anna@example.org", "notify": False}, headers=csrf(anna)
        )
        table_id, anna_token, _bernd_token = open_table(anna, bernd)
        settled(anna, table_id, anna_token)
        who, _ = whose_turn(anna, bernd)
        assert who in ("anna", "bernd")
        assert mails.mails.empty()
    with two_people(tmp_path / "b", clock, None) as (anna, bernd):
        answer = anna.post(
            "/api/mail", json={"email": "anna@example.org", "notify": True}, headers=csrf(anna)
        )
        assert answer.json()["server_sends"] is False
        table_id, anna_token, _ = open_table(anna, bernd)
        settled(anna, table_id, anna_token)
        whose_turn(anna, bernd)
    assert mails.mails.empty()


def test_a_bot_moves_for_a_person_past_the_deadline_if_the_host_allowed_it(
    tmp_path: Path,
) -> None:
    clock = Clock()
    with two_people(tmp_path, clock) as (anna, bernd):
        table_id, anna_token, _ = open_table(anna, bernd, deadline_standin=True)
        with anna.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": anna_token})
            state = person_due(ws)
            _who, due = whose_turn(anna, bernd)
            version = state["version"]
            assert state["table"]["turn_deadline"] == due["deadline"]
            # A day and a second later: the deadline has passed; the table's clock moved.
            clock.now = T0 + DAY + 1
            manager = anna.app.state.manager  # type: ignore[attr-defined]
            assert anna.portal is not None
            anna.portal.call(manager.clock_moved)
            while True:
                state = next_state(ws)
                if state["version"] > version:
                    break
            entry = [e for e in state["log"]["entries"] if "by" in e][-1]
            assert entry["by"] == "timer" and entry["v"] == version + 1
        # The next move is due from the stand-in's move.
        assert whose_turn(anna, bernd)[1]["since"] == (T0 + DAY + 1) * 1000


def test_without_the_hosts_leave_the_table_waits_past_the_deadline(tmp_path: Path) -> None:
    clock = Clock()
    with two_people(tmp_path, clock) as (anna, bernd):
        table_id, anna_token, bernd_token = open_table(anna, bernd)
        settled(anna, table_id, anna_token)
        who, due = whose_turn(anna, bernd)
        clock.now = T0 + 3 * DAY
        manager = anna.app.state.manager  # type: ignore[attr-defined]
        assert anna.portal is not None
        anna.portal.call(manager.clock_moved)
        # Still that person's move, overdue; their move is taken when they come.
        assert whose_turn(anna, bernd) == (who, due)
        token = anna_token if who == "anna" else bernd_token
        with contextlib.ExitStack() as stack:
            client = anna if who == "anna" else stack.enter_context(bernd.acting())
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                ws.send_json({"type": "hello", "token": token})
                state = next_state(ws)
                assert state["table"]["turn_deadline"] == due["deadline"]
                assert state["table"]["turn_deadline"] < state["table"]["now"]
                assert not state["table"]["paused"]


def test_the_deadline_outlives_a_restart(tmp_path: Path) -> None:
    clock = Clock()
    with two_people(tmp_path, clock) as (anna, bernd):
        table_id, anna_token, _ = open_table(anna, bernd)
        settled(anna, table_id, anna_token)
        _, due = whose_turn(anna, bernd)
    clock.now = T0 + 5 * 3600
    with TestClient(_app(tmp_path, clock, None)) as again:
        shown = again.get(f"/api/tables/{table_id}").json()["table"]
        assert shown["status"] == "playing"
        assert shown["turn_deadline"] == due["deadline"] == (T0 + DAY) * 1000


def test_a_person_sits_at_several_correspondence_tables_at_once(tmp_path: Path) -> None:
    clock = Clock()
    with two_people(tmp_path, clock) as (anna, bernd):
        opened = [open_table(anna, bernd, move_hours=hours) for hours in (24, 72)]
        for table_id, anna_token, _ in opened:
            settled(anna, table_id, anna_token)
        mine = turns(anna)["turns"]
        with bernd.acting() as client:
            his = turns(client)["turns"]
        due = {turn["table"]: turn for turn in mine + his}
        assert set(due) == {table_id for table_id, _, _ in opened}
        hours = {table_id: h for (table_id, _, _), h in zip(opened, (24, 72), strict=True)}
        for table_id, turn in due.items():
            assert turn["deadline"] - turn["since"] == hours[table_id] * 3600 * 1000
        # The list is the nearest deadline first.
        for listed in (mine, his):
            assert listed == sorted(listed, key=lambda turn: turn["deadline"])
