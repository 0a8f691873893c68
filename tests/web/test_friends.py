"""Friends over HTTP: asking, accepting, the list with who is online, invitations."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from .test_accounts import csrf, sign_up
from .test_ratings_web import Person, _app


@pytest.fixture
def people(tmp_path: Path) -> Iterator[tuple[TestClient, Person, Person]]:
    with TestClient(_app(tmp_path)) as anna:
        bernd, clara = Person(anna), Person(anna)
        for person, name in ((bernd, "Bernd"), (clara, "Clara")):
            with person.acting() as client:
                assert sign_up(client, name).status_code == 201
        assert sign_up(anna, "Anna").status_code == 201
        yield anna, bernd, clara


def test_asking_and_accepting(people: tuple[TestClient, Person, Person]) -> None:
    anna, bernd, _ = people
    asked = anna.post("/api/friends", json={"name": "bernd"}, headers=csrf(anna))
    assert asked.json() == {"name": "Bernd", "result": "asked"}
    assert anna.get("/api/friends").json()["outgoing"] == ["Bernd"]
    with bernd.acting() as client:
        assert client.get("/api/friends").json()["incoming"] == ["Anna"]
        accepted = client.post("/api/friends", json={"name": "Anna"}, headers=csrf(client))
        assert accepted.json()["result"] == "friends"
        listed = client.get("/api/friends").json()
    assert [f["name"] for f in listed["friends"]] == ["Anna"]
    assert listed["friends"][0]["online"] is True  # her login was just seen
    assert listed["incoming"] == listed["outgoing"] == []
    removed = anna.post("/api/friends/remove", json={"name": "Bernd"}, headers=csrf(anna))
    assert removed.json()["removed"] is True
    assert anna.get("/api/friends").json()["friends"] == []


def test_refusals(people: tuple[TestClient, Person, Person]) -> None:
    anna, _, _ = people
    nobody = anna.post("/api/friends", json={"name": "Nobody"}, headers=csrf(anna))
    assert nobody.status_code == 404 and nobody.json()["error"]["code"] == "no_such_player"
    me = anna.post("/api/friends", json={"name": "ANNA"}, headers=csrf(anna))
    assert me.status_code == 400 and me.json()["error"]["code"] == "friend_self"
    no_token = anna.post("/api/friends", json={"name": "Bernd"})
    assert no_token.status_code == 403 and no_token.json()["error"]["code"] == "csrf"
    guest = Person(anna)
    with guest.acting() as client:
        assert client.get("/api/friends").json()["error"]["code"] == "not_logged_in"


def test_inviting_a_friend_to_my_table(people: tuple[TestClient, Person, Person]) -> None:
    anna, bernd, clara = people
    anna.post("/api/friends", json={"name": "Bernd"}, headers=csrf(anna))
    with bernd.acting() as client:
        client.post("/api/friends", json={"name": "Anna"}, headers=csrf(client))
    seats = [{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]
    table = anna.post(
        "/api/tables", json={"game": "slobberhannes", "seats": seats}, headers=csrf(anna)
    ).json()
    sent = anna.post(
        "/api/friends/invite", json={"name": "Bernd", "table": table["id"]}, headers=csrf(anna)
    )
    assert sent.status_code == 200, sent.text
    with bernd.acting() as client:
        [invitation] = client.get("/api/friends").json()["invitations"]
    assert invitation["from"] == "Anna" and invitation["table"] == table["id"]
    assert invitation["game"] == "slobberhannes" and invitation["status"] == "waiting"
    # Clara is no friend of Anna's; and nobody invites to a table they do not sit at.
    stranger = anna.post(
        "/api/friends/invite", json={"name": "Clara", "table": table["id"]}, headers=csrf(anna)
    )
    assert stranger.status_code == 403 and stranger.json()["error"]["code"] == "not_friends"
    with clara.acting() as client:
        foreign = client.post(
            "/api/friends/invite",
            json={"name": "Anna", "table": table["id"]},
            headers=csrf(client),
        )
    assert foreign.status_code == 403 and foreign.json()["error"]["code"] == "not_your_table"
