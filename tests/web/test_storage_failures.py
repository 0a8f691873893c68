"""Storage failures: a table waits for storage and goes on, bad rows are set aside,
a lost database file is refused, and every failure is a refusal with its code.

Writes are failed by a wrapper around the store's statements (:class:`Outage`):
it fails every transaction while it is down, then lets them through. The
tests wait for what the server sends (the ``storage_wait`` notice, then
``storage_back`` and the play going on), never for time to pass.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.asyncio.client import connect

from kartentisch.cli.main import main
from kartentisch.storage import Backoff, TableStore, sqlite_url
from kartentisch.storage.writer import StoreWriter, Write
from kartentisch.web.app import create_app
from kartentisch.web.tables import ServerSettings

from .helpers import new_table, next_state, until_my_turn
from .test_faults import (
    NO_PROXY,
    QUICK,
    RACE_ERRORS,
    Player,
    check_log_extends,
    serving,
    slapper,
    turn_based,
    until,
)
from .test_storage import postgres_schema


class Outage:
    """Fails every transaction of ``store`` while :attr:`down` (as a full disk does)."""

    def __init__(self, store: TableStore, monkeypatch: pytest.MonkeyPatch) -> None:
        self.down = False
        #: Transactions failed.
        self.failed = 0
        real = store._execute

        def execute(*args: Any) -> None:
            if self.down:
                self.failed += 1
                raise OperationalError(
                    "INSERT", {}, sqlite3.OperationalError("database or disk is full")
                )
            real(*args)

        monkeypatch.setattr(store, "_execute", execute)


TABLES = {
    "slapjack": {"game": "slapjack", "seats": [{"kind": "you"}, {"kind": "bot"}, {"kind": "bot"}]},
    "irish-snap": {"game": "irish-snap", "seats": [{"kind": "you"}, {"kind": "bot"}]},
    "doppelkopf": {
        "game": "doppelkopf",
        "options": {"preset": "house"},
        "seats": [{"kind": "you"}] + [{"kind": "bot"}] * 3,
    },
}


# -- 1. a failed write freezes no table -------------------------------------------------------


@pytest.mark.parametrize("game", list(TABLES))
def test_a_table_waits_for_storage_and_goes_on_by_itself(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk is full for a while: the table tells everyone it waits (``storage_wait``),
    shows nothing that is not stored, refuses a move meanwhile with ``storage_wait``, tries
    again, and goes on by itself once writes work (``storage_back``, then the play)."""
    with serving(tmp_path, QUICK) as (address, app):
        body = {**TABLES[game], "name": "Ann"}
        created = httpx.post(f"http://{address}/api/tables", json=body, timeout=10).json()
        table_id = created["id"]
        store: TableStore = app.state.manager.store
        outage = Outage(store, monkeypatch)
        realtime = game != "doppelkopf"

        async def scenario() -> None:
            policy = slapper if realtime else turn_based
            player = Player(address, table_id, created["token"], 0, policy, think=0.02)
            await player.open()
            listening = asyncio.create_task(player.run())
            await until(lambda: player.version >= 3, "the game to get going", timeout=40)
            outage.down = True
            await until(lambda: bool(player.notices), "the storage_wait notice", timeout=40)
            assert player.notices[0][0] == "storage_wait"
            failed = outage.failed
            await until(lambda: outage.failed >= failed + 2, "the table to try again")
            seen = player.version
            stored = store.load(table_id)
            assert stored is not None and seen <= len(stored.actions), "shown, not stored"
            # Someone who comes meanwhile hears why nothing happens; a move is refused.
            spectator = await _meanwhile(address, table_id, None, None)
            assert [(m["type"], m["code"]) for m in spectator] == [("notice", "storage_wait")]
            # (From a second page of Ann's: the first may be the one whose move waits.)
            move = "turn" if realtime else "pass"
            second = await _meanwhile(address, table_id, created["token"], (move, seen))
            assert [(m["type"], m["code"]) for m in second] == [
                ("notice", "storage_wait"),
                ("error", "storage_wait"),
            ]
            assert player.version == seen
            outage.down = False
            await until(lambda: player.version > seen + 1, "the game to go on", timeout=40)
            codes = [code for code, _ in player.notices]
            assert codes[:2] == ["storage_wait", "storage_back"]
            assert player.notices[1][1] == seen  # told before the state
            assert {e["code"] for e in player.errors} - RACE_ERRORS - {"storage_wait"} == set()
            await player.close()
            await listening
            stored = store.load(table_id)
            assert stored is not None
            if game == "irish-snap":
                # (Its views also change with game time alone, a time-out between actions:
                # those of a version are not all the replay's at that version.)
                assert player.version <= len(stored.actions)
            else:
                check_log_extends(stored, player)

        asyncio.run(scenario())


async def _meanwhile(
    address: str, table_id: str, token: str | None, move: tuple[str, int] | None
) -> list[dict[str, Any]]:
    """While the table waits for storage: a connection's hello (with ``token``) and, if
    given, its ``move`` (action, version); the messages it gets for them."""
    async with connect(f"ws://{address}/ws/tables/{table_id}", **NO_PROXY) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        got: list[dict[str, Any]] = [json.loads(await asyncio.wait_for(ws.recv(), 20))]
        if move is not None:
            action, version = move
            await ws.send(json.dumps({"type": "act", "action": action, "version": version}))
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 20)))
        return got


def test_a_failing_writer_holds_the_loop_no_more(tmp_path: Path) -> None:
    """Once a transaction has failed after its quick tries, the next ones are tried once
    (no waiting on the event loop) until one commits; then the quick tries are back."""
    attempts: list[int] = []
    down = [True]

    def apply(writes: Any) -> None:
        attempts.append(len(writes))
        if down[0]:
            raise OperationalError("INSERT", {}, Exception("disk full"))

    writer = StoreWriter(apply, transient=lambda e: isinstance(e, OperationalError))
    write = Write("update", "t", {"status": "playing"})
    with pytest.raises(OperationalError):
        writer.run(write)
    assert len(attempts) == 4 and writer.failing  # once, then after each of 3 delays
    with pytest.raises(OperationalError):
        writer.run(write)
    assert len(attempts) == 5 and writer.retries == 3
    down[0] = False
    writer.run(write)
    assert not writer.failing and writer.transactions == 1


def test_backoff_delays() -> None:
    delays = Backoff(0.1, 3.0, 1.0).delays()
    assert [next(delays) for _ in range(4)] == [0.1, pytest.approx(0.3), pytest.approx(0.9), 1.0]
    with pytest.raises(ValueError):
        Backoff(0.0)


# -- 2. a table that cannot be read is set aside ----------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield sqlite_url(tmp_path)
        return
    with postgres_schema() as url:
        yield url


def _damage(url: str, bad_row: str, bad_actions: str) -> None:
    """Damage one table's row (so it cannot be read) and another's actions (no replay)."""
    engine = create_engine(url)
    sqlite = engine.dialect.name == "sqlite"
    with engine.begin() as db:
        if sqlite:  # not JSON at all
            db.execute(text("UPDATE tables SET options = '{bad' WHERE id = :id"), {"id": bad_row})
        else:  # JSON, but no list of seats
            db.execute(text("UPDATE tables SET seats = '5' WHERE id = :id"), {"id": bad_row})
        seq = db.execute(
            text("SELECT coalesce(max(seq), 0) FROM table_actions WHERE table_id = :id"),
            {"id": bad_actions},
        ).scalar_one()
        db.execute(
            text(
                "INSERT INTO table_actions (table_id, seq, seat, action, made_by, created) "
                "VALUES (:id, :seq, 0, 'no-such-card', 'person', CURRENT_TIMESTAMP)"
            ),
            {"id": bad_actions, "seq": seq + 1},
        )
    engine.dispose()


def test_a_table_that_cannot_be_read_is_set_aside(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One table's row is damaged, another's actions do not replay: the server starts with
    the good one, refuses the two with ``table_unreadable`` (HTTP 409, and on the WebSocket
    an error and close 4409), keeps their rows, and the admin command lists them."""
    settings = ServerSettings(bot_delay=0, grace=None)
    with TestClient(create_app(db_url, data_dir=tmp_path, settings=settings)) as client:
        # (Ann and three bots: each table is playing at once.)
        ids = [new_table(client)["id"] for _ in range(3)]
        good, bad_row, bad_actions = ids
    _damage(db_url, bad_row, bad_actions)
    raw_before = _raw(db_url, bad_row)

    with TestClient(create_app(db_url, data_dir=tmp_path, settings=settings)) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert good in manager.tables
        assert bad_row not in manager.tables and bad_actions not in manager.tables
        assert client.get(f"/api/tables/{good}").status_code == 200
        for table_id in (bad_row, bad_actions):
            for path in ("", "/record", "/replay"):
                response = client.get(f"/api/tables/{table_id}{path}")
                assert response.status_code == 409, response.text
                assert response.json()["error"]["code"] == "table_unreadable"
                assert response.json()["error"]["message"]
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                message = ws.receive_json()
                assert message["type"] == "error" and message["code"] == "table_unreadable"
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == 4409
    assert _raw(db_url, bad_row) == raw_before, "a set-aside table's rows were changed"

    where = ["--db", db_url]
    assert main(["admin", "tables", "--set-aside", *where]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sorted(line.split("\t")[0] for line in lines) == sorted([bad_row, bad_actions])
    assert all(line.split("\t")[1] == "slobberhannes" and line.split("\t")[3] for line in lines)
    assert main(["admin", "tables", "--json", *where]) == 0
    listed = {t["id"]: t for t in json.loads(capsys.readouterr().out)["tables"]}
    assert set(listed) >= set(ids)
    assert not listed[good]["set_aside"] and listed[good]["reason"] is None
    assert listed[bad_actions]["set_aside"] and listed[bad_actions]["status"] == "playing"
    # (An id may begin with "-": after "--" it is not taken for an option.)
    assert main(["admin", "export", *where, "--", bad_row]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(raw_before))
    assert main(["admin", "export", *where, "--", bad_actions]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported["table"]["id"] == bad_actions
    assert exported["actions"][-1]["action"] == "no-such-card"
    assert main(["admin", "export", "nope", *where]) == 2


def _raw(url: str, table_id: str) -> Any:
    store = TableStore(url)
    try:
        return store.raw(table_id)
    finally:
        store.close()


def test_the_admin_command_reads_a_data_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = TableStore(sqlite_url(tmp_path))
    store.migrate()
    store.create_table("t1", "no-such-game", {}, {}, [], 1)
    store.close()
    assert main(["admin", "tables", "--set-aside", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("t1\tno-such-game\tset aside\t")
    missing = tmp_path / "elsewhere"
    assert main(["admin", "tables", "--data-dir", str(missing)]) == 2
    assert "no data directory" in capsys.readouterr().err
    assert not missing.exists(), "the admin command made a data directory"


# -- 3. a lost database file is refused ----------------------------------------------------------


@pytest.mark.parametrize("loss", ["missing", "empty"])
def test_a_lost_database_file_is_refused(
    loss: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A fresh data directory starts (and gets its marker); once tables were kept there, a
    missing or 0-byte database file stops ``serve`` with exit 2 and says what to do."""
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, **kw: None)
    with TestClient(create_app(data_dir=tmp_path)) as client:
        new_table(client)
    database = tmp_path / "kartentisch.sqlite3"
    marker = tmp_path / "kartentisch.sqlite3.created"
    assert marker.exists() and database.stat().st_size > 0
    for leftover in tmp_path.glob("kartentisch.sqlite3-*"):
        leftover.unlink()  # the journal files go with the database
    if loss == "missing":
        database.unlink()
    else:
        database.write_bytes(b"")
    assert main(["serve", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert str(database) in err and "back" in err and str(marker) in err
    assert (database.exists() and database.stat().st_size == 0) == (loss == "empty")
    assert not database.exists() or database.stat().st_size == 0, "replaced by an empty one"
    # Whoever means to start again with no tables deletes the marker.
    marker.unlink()
    assert main(["serve", "--data-dir", str(tmp_path)]) == 0


def test_a_fresh_data_directory_starts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, **kw: None)
    assert main(["serve", "--data-dir", str(tmp_path / "new")]) == 0


# -- 4. every storage failure over HTTP is a 503 with its code ------------------------------


def test_storage_failures_over_http_are_503_with_a_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Creating a table on a full disk, joining one, reading one while the database is
    down: 503 ``storage_error`` in the usual shape, translated."""
    settings = ServerSettings(bot_delay=0, grace=None)
    app = create_app(data_dir=tmp_path, settings=settings)
    with TestClient(app) as client:
        open_seat = new_table(client, [{"kind": "you"}, {"kind": "open"}] + [{"kind": "bot"}] * 2)
        manager = app.state.manager
        outage = Outage(manager.store, monkeypatch)
        outage.down = True
        seats = [{"kind": "you"}, {"kind": "bot"}, {"kind": "bot"}]
        body = {"game": "slobberhannes", "name": "Ann", "seats": seats}
        for response in (
            client.post("/api/tables", json=body),
            client.post("/api/tables", json=body, headers={"accept-language": "de"}),
            client.post(f"/api/tables/{open_seat['id']}/join", json={"name": "Ben"}),
        ):
            assert response.status_code == 503, response.text
            error = response.json()["error"]
            assert error["code"] == "storage_error" and error["message"]
        assert (
            "speichern" in client.post("/api/tables?lang=de", json=body).json()["error"]["message"]
        )
        # The table is as it was: the seat is still open.
        assert manager.tables[open_seat["id"]].open_seats() == [1]
        outage.down = False

        def unreadable(*args: Any) -> Any:
            raise OperationalError("SELECT", {}, sqlite3.OperationalError("disk I/O error"))

        monkeypatch.setattr(manager.store, "load", unreadable)
        response = client.get("/api/tables/not-loaded-yet")
        assert response.status_code == 503 and response.json()["error"]["code"] == "storage_error"
        with client.websocket_connect("/ws/tables/not-loaded-yet") as ws:
            assert ws.receive_json()["code"] == "storage_error"
        monkeypatch.undo()
        created = new_table(client)
        with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            ws.send_json({"type": "hello", "token": created["token"]})
            assert until_my_turn(ws, 0, next_state(ws))["version"] >= 0
