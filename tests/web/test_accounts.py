"""Accounts over HTTP: sign up, log in and out, passwords, CSRF, rate limits, names, claims."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from kartentisch.storage import TableStore, sqlite_url
from kartentisch.storage.accounts import DELETED_NAME, AccountStore
from kartentisch.web.app import create_app
from kartentisch.web.protocol import Limits

from .helpers import WITH_BOTS, new_table

PASSWORD = "a good password"


def _app(tmp_path: Path, **limits: Any) -> Any:
    return create_app(data_dir=tmp_path, limits=dataclasses.replace(Limits(), **limits))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(_app(tmp_path)) as test_client:
        yield test_client


def csrf(client: TestClient) -> dict[str, str]:
    """The header the page sends: the CSRF cookie's value, as ``GET /api/me`` gives it."""
    token = client.get("/api/me").json()["csrf"]
    assert client.cookies.get("kt_csrf") == token
    return {"x-csrf-token": token}


def sign_up(client: TestClient, name: str, password: str = PASSWORD, **extra: Any) -> Any:
    return client.post(
        "/api/accounts", json={"name": name, "password": password, **extra}, headers=csrf(client)
    )


def log_in(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    return client.post(
        "/api/login", json={"name": name, "password": password}, headers=csrf(client)
    )


def _cookie_header(response: Any, name: str) -> str:
    found = [
        v for k, v in response.headers.multi_items() if k == "set-cookie" and v.startswith(name)
    ]
    assert len(found) == 1, response.headers
    return found[0]


def test_sign_up_logs_in_with_a_safe_cookie(client: TestClient) -> None:
    assert client.get("/api/me").json()["account"] is None
    response = sign_up(client, "  Jürgen   K. ")
    assert response.status_code == 201, response.text
    assert response.json()["account"]["name"] == "Jürgen K."
    cookie = _cookie_header(response, "kt_session=").lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
    assert "secure" not in cookie  # plain HTTP here
    assert "max-age=2592000" in cookie
    assert client.get("/api/me").json()["account"]["name"] == "Jürgen K."


def test_the_session_cookie_is_secure_over_https(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path), base_url="https://testserver") as client:
        response = sign_up(client, "Anna")
        assert response.status_code == 201, response.text
        assert "secure" in _cookie_header(response, "kt_session=").lower()
    with TestClient(_app(tmp_path), base_url="https://testserver") as fresh:
        assert "secure" in _cookie_header(fresh.get("/api/me"), "kt_csrf=").lower()


def test_the_database_keeps_only_a_hash_of_the_password_and_the_session(
    client: TestClient, tmp_path: Path
) -> None:
    assert sign_up(client, "Anna").status_code == 201
    secret = client.cookies.get("kt_session")
    assert secret
    data = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())  # (and the WAL)
    assert PASSWORD.encode() not in data
    assert secret.encode() not in data
    assert b"$argon2id$" in data


def test_log_out_ends_the_login_for_good(client: TestClient) -> None:
    assert sign_up(client, "Anna").status_code == 201
    secret = client.cookies.get("kt_session")
    assert client.post("/api/logout", headers=csrf(client)).status_code == 200
    assert client.get("/api/me").json()["account"] is None
    # The old cookie, sent again (stolen, say), is no login any more.
    client.cookies.set("kt_session", str(secret))
    assert client.get("/api/me").json()["account"] is None
    client.cookies.clear()
    assert log_in(client, "anna").json()["account"]["name"] == "Anna"


def test_wrong_names_and_passwords_are_one_refusal(client: TestClient) -> None:
    assert sign_up(client, "Anna").status_code == 201
    client.post("/api/logout", headers=csrf(client))
    wrong = log_in(client, "Anna", "not the password")
    unknown = log_in(client, "Nobody", PASSWORD)
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json()["error"]["code"] == unknown.json()["error"]["code"] == "login_failed"
    assert log_in(client, "ANNA").status_code == 200


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("", "name_missing"),
        ("A", "name_short"),
        ("x" * 25, "name_long"),
        ("Anna<script>", "name_character"),
        ("-Anna", "name_start"),
        ("Anna\u202eX", "name_character"),
    ],
)
def test_bad_names_are_refused_with_what_is_wrong(client: TestClient, name: str, code: str) -> None:
    response = sign_up(client, name)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["message"]


def test_taken_and_look_alike_names_are_refused(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path, signup_burst=20)) as client:
        _taken_and_look_alike(client)


def _taken_and_look_alike(client: TestClient) -> None:
    assert sign_up(client, "Paul").status_code == 201
    taken = sign_up(client, "PAUL")
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "name_taken"
    assert "Paul" in taken.json()["error"]["message"]
    for look_alike in ("Pаul", "Ｐａｕｌ", "PauI"):  # Cyrillic а; full-width; capital I for l
        response = sign_up(client, look_alike)
        assert response.status_code == 409, look_alike
        assert response.json()["error"]["code"] in ("name_confusable", "name_taken")
    assert sign_up(client, "Paula").status_code == 201


def test_short_and_long_passwords_are_refused(client: TestClient) -> None:
    short = sign_up(client, "Anna", "short")
    assert short.json()["error"]["code"] == "password_short"
    long = sign_up(client, "Anna", "x" * 257)
    assert long.json()["error"]["code"] == "password_long"


def test_german_and_russian_refusals(client: TestClient) -> None:
    sign_up(client, "Paul")
    de = client.post(
        "/api/accounts?lang=de", json={"name": "paul", "password": PASSWORD}, headers=csrf(client)
    )
    assert de.json()["error"]["message"] == "Der Name Paul ist vergeben. Bitte wähle einen anderen."
    ru = client.post(
        "/api/accounts?lang=ru", json={"name": "paul", "password": PASSWORD}, headers=csrf(client)
    )
    assert ru.json()["error"]["message"] == "Имя Paul уже занято. Выберите другое."


# -- CSRF --------------------------------------------------------------------------------


def test_account_forms_need_the_csrf_token(client: TestClient) -> None:
    body = {"name": "Anna", "password": PASSWORD}
    missing = client.post("/api/accounts", json=body)
    assert missing.status_code == 403 and missing.json()["error"]["code"] == "csrf"
    csrf(client)  # the cookie is there now, but the header is not
    assert client.post("/api/accounts", json=body).status_code == 403
    wrong = client.post("/api/accounts", json=body, headers={"x-csrf-token": "guess"})
    assert wrong.status_code == 403
    assert client.get("/api/me").json()["account"] is None
    assert sign_up(client, "Anna").status_code == 201


def test_a_request_from_another_site_is_refused_even_with_the_token(client: TestClient) -> None:
    headers = {**csrf(client), "origin": "https://evil.example"}
    response = client.post(
        "/api/accounts", json={"name": "Anna", "password": PASSWORD}, headers=headers
    )
    assert response.status_code == 403 and response.json()["error"]["code"] == "csrf"


def test_a_logged_in_request_that_changes_state_needs_the_token(client: TestClient) -> None:
    assert sign_up(client, "Anna").status_code == 201
    body = {"game": "slobberhannes", "name": "Anna", "seats": WITH_BOTS}
    refused = client.post("/api/tables", json=body)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "csrf"
    assert client.post("/api/tables", json=body, headers=csrf(client)).status_code == 201
    # A guest (no login cookie) has no ambient authority: no token is needed.
    guest = TestClient(client.app)
    assert guest.post("/api/tables", json=body).status_code == 201


# -- rate limits -------------------------------------------------------------------------


def test_wrong_passwords_are_limited_per_account(tmp_path: Path) -> None:
    # (A counting window of hours: however slow a loaded machine, the tries fall in it.)
    limits = {"account_login_burst": 3, "account_logins_per_second": 3 / 36000}
    with TestClient(_app(tmp_path, login_burst=100, **limits)) as client:
        assert sign_up(client, "Anna").status_code == 201
        for _ in range(3):
            assert log_in(client, "Anna", "wrong password").status_code == 401
        limited = log_in(client, "anna", PASSWORD)  # even the right one, for now
        assert limited.status_code == 429
        error = limited.json()["error"]
        assert error["code"] == "too_many_logins_account"
        assert error["retry_after"] >= 1
        assert int(limited.headers["retry-after"]) == error["retry_after"]
        assert f"{error['retry_after']} s" in error["message"]
        # Another account is not held up by Anna's.
        assert sign_up(client, "Bernd").status_code == 201
        assert log_in(client, "Bernd").status_code == 200


def test_logins_are_limited_per_address(tmp_path: Path) -> None:
    # Four at once, then one an hour: the counting window (burst / rate) is an hour, so
    # however slowly a loaded machine checks the passwords, all five fall in it (with the
    # default rate it is 50 s, and a sliding window weighs the tries before it less).
    with TestClient(_app(tmp_path, login_burst=4, logins_per_second=4 / 3600)) as client:
        for n in range(4):
            assert log_in(client, f"Name{n}", PASSWORD).status_code == 401
        limited = log_in(client, "Name9", PASSWORD)
        assert limited.status_code == 429
        assert limited.json()["error"]["code"] == "too_many_logins"


def test_sign_ups_are_limited_per_address(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path, signup_burst=2, signups_per_second=2 / 36000)) as client:
        assert sign_up(client, "Anna").status_code == 201
        assert sign_up(client, "Bernd").status_code == 201
        limited = sign_up(client, "Clara")
        assert limited.status_code == 429 and limited.json()["error"]["code"] == "too_many_signups"


# -- passwords ---------------------------------------------------------------------------


def test_changing_the_password_ends_the_other_logins(tmp_path: Path) -> None:
    # Two servers on one database: a phone and a laptop need not reach the same process.
    with TestClient(_app(tmp_path)) as phone, TestClient(_app(tmp_path)) as laptop:
        assert sign_up(phone, "Anna").status_code == 201
        assert log_in(laptop, "Anna").status_code == 200
        wrong = phone.post(
            "/api/password",
            json={"old": "not it at all", "new": "a new password"},
            headers=csrf(phone),
        )
        assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "wrong_password"
        changed = phone.post(
            "/api/password", json={"old": PASSWORD, "new": "a new password"}, headers=csrf(phone)
        )
        assert changed.status_code == 200, changed.text
        assert phone.get("/api/me").json()["account"]["name"] == "Anna"
        assert laptop.get("/api/me").json()["account"] is None
        assert log_in(laptop, "Anna").status_code == 401
        assert log_in(laptop, "Anna", "a new password").status_code == 200


def test_changing_the_password_needs_a_login(client: TestClient) -> None:
    response = client.post(
        "/api/password", json={"old": PASSWORD, "new": "another one"}, headers=csrf(client)
    )
    assert response.status_code == 401 and response.json()["error"]["code"] == "not_logged_in"


# -- a guest's seats, the admin's commands ---------------------------------------------------


def test_a_guest_claims_the_seats_taken_in_this_browser(client: TestClient, tmp_path: Path) -> None:
    first = new_table(client)
    second = new_table(client)
    forged = {"table": second["id"], "token": "not the token"}
    seats = [
        {"table": first["id"], "token": first["token"]},
        {"table": second["id"], "token": second["token"]},
        forged,
        {"table": "nosuchtable", "token": "x"},
    ]
    response = sign_up(client, "Anna", claim=seats)
    assert response.status_code == 201, response.text
    claimed = response.json()["claimed"]
    assert claimed == [
        {"table": first["id"], "seat": first["seat"]},
        {"table": second["id"], "seat": second["seat"]},
    ]
    # Claiming again (or by someone else) takes nothing more.
    again = client.post("/api/claim", json={"seats": seats}, headers=csrf(client))
    assert again.json() == {"claimed": []}
    store = TableStore(sqlite_url(tmp_path))
    try:
        accounts = AccountStore(store)
        anna = accounts.named("anna")
        assert sorted(accounts.seats_of(anna.id)) == sorted(
            [(first["id"], first["seat"]), (second["id"], second["seat"])]
        )
    finally:
        store.close()


def test_blocking_ends_the_logins_and_refuses_new_ones(client: TestClient, tmp_path: Path) -> None:
    assert sign_up(client, "Anna").status_code == 201
    store = TableStore(sqlite_url(tmp_path))
    try:
        accounts = AccountStore(store)
        accounts.block(accounts.named("Anna").id)
    finally:
        store.close()
    assert client.get("/api/me").json()["account"] is None
    refused = log_in(client, "Anna")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "account_blocked"


def test_deleting_an_account_keeps_its_games_without_its_name(
    client: TestClient, tmp_path: Path
) -> None:
    table = new_table(client)
    assert sign_up(client, "Anna", claim=[{"table": table["id"], "token": table["token"]}]).json()[
        "claimed"
    ]
    store = TableStore(sqlite_url(tmp_path))
    try:
        accounts = AccountStore(store)
        anna = accounts.named("Anna")
        with pytest.raises(Exception, match="still being played"):
            accounts.delete(anna.id)  # the table is being played
        store.update_table(table["id"], status="finished")
        assert accounts.delete(anna.id) == 1
        stored = store.load(table["id"])
        assert stored is not None
        assert stored.seats[table["seat"]]["name"] == DELETED_NAME
        assert [s["name"] for s in stored.seats if s["kind"] == "bot"]  # the others as they were
        assert accounts.find("anna") is None
    finally:
        store.close()
    assert client.get("/api/me").json()["account"] is None
    assert sign_up(client, "Anna").status_code == 201  # the name is free again


def test_a_person_logged_in_sits_down_as_their_account(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path)) as anna:
        assert sign_up(anna, "Anna").status_code == 201
        seats = [{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]
        body = {"game": "slobberhannes", "name": "Somebody else", "seats": seats}
        created = anna.post("/api/tables", json=body, headers=csrf(anna))
        assert created.status_code == 201, created.text
        table = created.json()
        names = [s["name"] for s in table["table"]["seats"]]
        assert names[0] == "Anna"  # the account's name, not the one typed
    store = TableStore(sqlite_url(tmp_path))
    try:
        accounts = AccountStore(store)
        assert accounts.seats_of(accounts.named("Anna").id) == [(table["id"], 0)]
        stored = store.load(table["id"])
        assert stored is not None and stored.seats[0]["account"] == accounts.named("Anna").id
    finally:
        store.close()


def test_joining_logged_in_links_the_seat(client: TestClient, tmp_path: Path) -> None:
    guest = TestClient(client.app)
    seats = [{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]
    table = new_table(guest, seats=seats)
    assert sign_up(client, "Bernd").status_code == 201
    joined = client.post(f"/api/tables/{table['id']}/join", json={}, headers=csrf(client))
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    shown = client.get(f"/api/tables/{table['id']}").json()["table"]
    assert shown["seats"][1]["name"] == "Bernd"
    store = TableStore(sqlite_url(tmp_path))
    try:
        accounts = AccountStore(store)
        assert accounts.seats_of(accounts.named("Bernd").id) == [(table["id"], 1)]
    finally:
        store.close()
