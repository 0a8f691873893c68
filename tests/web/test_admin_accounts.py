"""``kartentisch admin accounts | block | unblock | delete`` on a server's database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from kartentisch.cli.main import main
from kartentisch.storage import TableStore, sqlite_url
from kartentisch.storage.accounts import DELETED_NAME

from .helpers import new_table
from .test_accounts import _app, csrf, log_in, sign_up


def test_list_block_unblock_and_delete(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    where = ["--data-dir", str(tmp_path)]
    with TestClient(_app(tmp_path)) as client:
        table = new_table(client)
        claim = [{"table": table["id"], "token": table["token"]}]
        assert sign_up(client, "Anna", claim=claim).status_code == 201
        client.post("/api/logout", headers=csrf(client))
        assert sign_up(client, "Bernd").status_code == 201
        capsys.readouterr()

        assert main(["admin", "accounts", "--json", *where]) == 0
        listed = json.loads(capsys.readouterr().out)["accounts"]
        assert [(a["name"], a["blocked"]) for a in listed] == [("Anna", False), ("Bernd", False)]

        assert main(["admin", "block", "BERND", *where]) == 0
        assert "Bernd: blocked" in capsys.readouterr().out
        assert client.get("/api/me").json()["account"] is None  # his login ended
        assert log_in(client, "Bernd").json()["error"]["code"] == "account_blocked"
        assert main(["admin", "accounts", *where]) == 0
        assert "Bernd\tblocked" in capsys.readouterr().out
        assert main(["admin", "unblock", "bernd", *where]) == 0
        assert log_in(client, "Bernd").status_code == 200

        # Anna sits at a table still being played: not deleted, the table named.
        assert main(["admin", "delete", "anna", *where]) == 2
        assert table["id"] in capsys.readouterr().err
    store = TableStore(sqlite_url(tmp_path))
    try:
        store.update_table(table["id"], status="finished")
    finally:
        store.close()
    assert main(["admin", "delete", "anna", *where]) == 0
    assert "1 stored table(s)" in capsys.readouterr().out
    store = TableStore(sqlite_url(tmp_path))
    try:
        stored = store.load(table["id"])
        assert stored is not None and stored.seats[table["seat"]]["name"] == DELETED_NAME
        assert len(stored.actions) == len(store.load(table["id"]).actions)  # type: ignore[union-attr]
    finally:
        store.close()
    assert main(["admin", "delete", "anna", *where]) == 2
    assert "no account is called 'anna'" in capsys.readouterr().err


def test_a_database_before_accounts_is_told_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sqlalchemy import create_engine

    from kartentisch.storage.database import migrate

    engine = create_engine(sqlite_url(tmp_path))
    migrate(engine, "0003_waiting")
    engine.dispose()
    assert main(["admin", "accounts", "--data-dir", str(tmp_path)]) == 2
    assert "no accounts yet" in capsys.readouterr().err
