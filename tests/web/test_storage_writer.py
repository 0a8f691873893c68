"""The store's writer: group commit, failures one by one, nothing told before it is stored."""

from __future__ import annotations

import asyncio
import gc
import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.exc import IntegrityError, OperationalError
from starlette.testclient import TestClient
from websockets.sync.client import connect

from kartentisch.storage import TableStore, sqlite_url
from kartentisch.storage.store import passing
from kartentisch.storage.writer import RETRY_DELAYS
from kartentisch.web.app import create_app
from kartentisch.web.gc_tuning import GC_FULL_AFTER, GCTuning
from kartentisch.web.lobby import parse_new_table
from kartentisch.web.protocol import Act, Hello
from kartentisch.web.seats import Connection
from kartentisch.web.tables import ServerSettings, TableManager

from .helpers import AppFactory, new_table, next_error, next_state, until_my_turn
from .servers import in_thread
from .test_storage import postgres_schema

SEATS = [{"kind": "human", "name": "Ann", "token_hash": "x"}, {"kind": "bot", "name": "Ben"}] * 2


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TableStore]:
    """A migrated store on a SQLite file or on PostgreSQL (a throwaway schema)."""
    if request.param == "sqlite":
        opened = TableStore(sqlite_url(tmp_path))
        opened.migrate()
        yield opened
        opened.close()
        return
    with postgres_schema() as url:
        opened = TableStore(url)
        opened.migrate()
        try:
            yield opened
        finally:
            opened.close()


def make_tables(store: TableStore, count: int) -> list[str]:
    ids = [f"t{i}" for i in range(count)]
    for table_id in ids:
        store.create_table(table_id, "slobberhannes", {"players": 4}, {}, SEATS, 1, "playing")
    return ids


def test_the_writes_of_one_turn_of_the_loop_share_one_transaction(store: TableStore) -> None:
    ids = make_tables(store, 20)

    async def play() -> None:
        before = store.writer.transactions
        saved = [store.save_action(t, 1, 0, "QC") for t in ids]
        saved += [store.save_action(t, 2, 1, "KC") for t in ids]
        await asyncio.gather(*saved)
        assert store.writer.transactions == before + 1

    asyncio.run(play())
    for table_id in ids:
        loaded = store.load(table_id)
        assert loaded is not None
        assert loaded.actions == [(0, "QC"), (1, "KC")]


def test_a_bad_write_fails_alone(store: TableStore) -> None:
    ids = make_tables(store, 3)
    store.append_action(ids[0], 1, 0, "QC")

    async def play() -> list[BaseException | None]:
        saved = [
            store.save_action(ids[0], 1, 1, "9H"),  # seq 1 is taken
            store.save_action(ids[1], 1, 0, "AS"),
            store.save_action("nowhere", 1, 0, "AS"),  # no such table
            store.save_update("nowhere", status="finished"),
            store.save_action(ids[2], 1, 0, "10D", status="finished"),
        ]
        results = await asyncio.gather(*saved, return_exceptions=True)
        return [r if isinstance(r, BaseException) else None for r in results]

    errors = asyncio.run(play())
    assert isinstance(errors[0], IntegrityError)
    assert errors[1] is None
    assert isinstance(errors[2], IntegrityError)
    assert isinstance(errors[3], KeyError)
    assert errors[4] is None
    first, second, third = (store.load(t) for t in ids)
    assert first is not None and first.actions == [(0, "QC")]
    assert second is not None and second.actions == [(0, "AS")]
    # The last action and the table's end are stored together.
    assert third is not None and third.actions == [(0, "10D")] and third.status == "finished"
    assert [t.id for t in store.unfinished()] == ids[:2]


def test_a_blocking_write_comes_after_what_the_loop_has_queued(store: TableStore) -> None:
    (table_id,) = make_tables(store, 1)

    async def play() -> None:
        queued = store.save_action(table_id, 1, 0, "QC")
        store.append_action(table_id, 2, 1, "KC")  # commits the queued action first
        assert queued.done()
        await queued

    asyncio.run(play())
    loaded = store.load(table_id)
    assert loaded is not None and loaded.actions == [(0, "QC"), (1, "KC")]


def test_an_acknowledged_action_survives_a_crash(tmp_path: Path) -> None:
    """A write is durable when its future is done: another process sees it, no close needed."""
    store = TableStore(sqlite_url(tmp_path))
    store.migrate()
    (table_id,) = make_tables(store, 1)

    async def play() -> None:
        for seq in range(1, 9):
            await store.save_action(table_id, seq, seq % 4, f"{seq}C")

    asyncio.run(play())
    # The first store is never closed (the server was killed); a new one reads the file.
    reopened = TableStore(sqlite_url(tmp_path))
    loaded = reopened.load(table_id)
    assert loaded is not None and [seq for seq, _ in loaded.actions] == [s % 4 for s in range(1, 9)]
    reopened.close()


def test_a_closed_store_refuses_writes(tmp_path: Path) -> None:
    store = TableStore(sqlite_url(tmp_path))
    store.migrate()
    store.close()
    with pytest.raises(RuntimeError):
        store.update_table("t0", status="finished")


# -- tables: nothing is told before it is stored ---------------------------------------


async def seated_table(tmp_path: Path) -> tuple[TableManager, Any, list[Connection]]:
    """A playing table of four people, all connected."""
    store = TableStore(sqlite_url(tmp_path))
    store.migrate()
    manager = TableManager(store, ServerSettings(bot_delay=0, grace=None))
    request = parse_new_table(
        {
            "game": "slobberhannes",
            "name": "Ann",
            "seats": [{"kind": "you"}] + [{"kind": "open"}] * 3,
        }
    )
    table, _, token = await manager.create(request)
    assert token is not None
    tokens = [token] + [(await table.join(f"P{s}", s))[1] for s in (1, 2, 3)]
    conns = [Connection() for _ in tokens]
    for conn, tok in zip(conns, tokens, strict=True):
        await table.handle(conn, Hello(tok, None))
    for conn in conns:
        drain(conn)
    return manager, table, conns


def drain(conn: Connection) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    while not conn.queue.empty():
        message = conn.queue.get_nowait()
        assert message is not None
        messages.append(message)
    return messages


def test_nobody_hears_of_an_action_before_it_is_stored(tmp_path: Path) -> None:
    async def play() -> None:
        manager, table, conns = await seated_table(tmp_path)
        store = manager.store
        gate = asyncio.Event()
        real_save = store.save_action

        def slow_save(*args: Any, **kwargs: Any) -> asyncio.Future[None]:
            async def later() -> None:
                await gate.wait()
                await real_save(*args, **kwargs)

            return asyncio.ensure_future(later())

        store.save_action = slow_save  # type: ignore[method-assign]
        seat = table.game.acting[0]
        version = table.version
        acting = asyncio.create_task(
            table.handle(conns[seat], Act(table.game.legal(seat)[0], version))
        )
        await asyncio.sleep(0.01)
        # The action is applied in memory, not stored yet: a newcomer hears nothing of it.
        spectator = Connection()
        await table.handle(spectator, Hello(None, None))
        assert drain(spectator) == []
        assert all(drain(c) == [] for c in conns)
        gate.set()
        await acting
        stored = store.load(table.id)
        assert stored is not None and len(stored.actions) == version + 1
        assert drain(spectator)[-1]["version"] == version + 1
        assert all(drain(c)[-1]["version"] == version + 1 for c in conns)
        store.close()

    asyncio.run(play())


def test_an_action_that_cannot_be_stored_did_not_happen(make_app: AppFactory) -> None:
    """The store refuses the action for good (not a failure that passes, which the table
    waits out: test_storage_failures.py): it did not happen, and the table goes on."""
    app = make_app()
    with TestClient(app) as client:
        created = new_table(client)
        writer = app.state.manager.store.writer
        real_apply = writer._apply_batch

        def failing(writes: Any) -> None:
            if any(w.kind == "action" for w in writes):
                raise IntegrityError("insert", {}, Exception("refused"))
            real_apply(writes)

        with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            ws.send_json({"type": "hello", "token": created["token"]})
            state = until_my_turn(ws, 0, next_state(ws))
            version = state["version"]
            writer._apply_batch = failing
            ws.send_json({"type": "act", "action": state["view"]["legal"][0], "version": version})
            assert next_error(ws)["code"] == "storage_error"
            table = app.state.manager.get(created["id"])
            assert table.version == version  # rebuilt from the store
            writer._apply_batch = real_apply
            ws.send_json({"type": "act", "action": state["view"]["legal"][0], "version": version})
            after = next_state(ws, skip_errors=True)
            while after["version"] == version:
                after = next_state(ws)
            assert after["version"] == version + 1
            before_restart = until_my_turn(ws, 0, after)
    with (
        TestClient(make_app()) as client,
        client.websocket_connect(f"/ws/tables/{created['id']}") as ws,
    ):
        ws.send_json({"type": "hello", "token": created["token"]})
        resumed = next_state(ws)
        assert resumed["version"] == before_restart["version"]
        assert resumed["view"] == before_restart["view"]


def test_the_collector_is_tuned_while_serving_and_set_back_after(tmp_path: Path) -> None:
    before = gc.get_threshold()
    assert GCTuning._active == 0

    async def serve() -> None:
        store = TableStore(sqlite_url(tmp_path))
        store.migrate()
        first = TableManager(store, ServerSettings())
        second = TableManager(store, ServerSettings())
        untuned = TableManager(store, ServerSettings(tune_gc=False))
        await first.restore()
        await second.restore()
        await untuned.restore()
        assert gc.get_threshold() == (before[0], before[1], GC_FULL_AFTER)
        assert gc.get_freeze_count() > 0
        await first.close()
        assert gc.get_threshold()[2] == GC_FULL_AFTER  # the second still serves
        await untuned.close()
        await second.close()
        store.close()

    asyncio.run(serve())
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


# -- the hot statements on the driver's cursor (TableStore._HotStatements) ---------------


def test_the_driver_statements_store_what_the_core_statements_stored(store: TableStore) -> None:
    """An action and its table's ``updated`` written on the driver's cursor are the bytes the
    SQLAlchemy Core statements wrote (the same time, the same columns, the same types)."""
    fixed = datetime(2026, 12, 6, 20, 35, 8, 887487, tzinfo=UTC)
    store.clock = lambda: fixed
    core, driver = make_tables(store, 2)
    hot = store._hot
    assert hot is not None

    async def play(table_id: str) -> None:
        await store.save_action(table_id, 1, 0, "QC")
        await store.save_action(table_id, 2, 1, "KC", by="bot")

    store._hot = None
    asyncio.run(play(core))
    store._hot = hot
    asyncio.run(play(driver))

    def rows(table_id: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        # Read as the driver returns them: no type of SQLAlchemy's converts anything.
        with store.reading() as connection:
            actions = connection.exec_driver_sql(
                "SELECT seq, seat, action, made_by, created FROM table_actions "
                f"WHERE table_id = '{table_id}' ORDER BY seq"
            ).all()
            updated = connection.exec_driver_sql(
                f"SELECT updated FROM tables WHERE id = '{table_id}'"
            ).all()
        return [tuple(r) for r in actions], [tuple(r) for r in updated]

    assert rows(driver) == rows(core)
    assert rows(driver)[1] != [(None,)]  # (the table's row was bumped)
    loaded = store.load(driver)
    assert loaded is not None and loaded.actions == [(0, "QC"), (1, "KC")]
    assert loaded.by == ["person", "bot"]


def test_the_driver_statements_fail_as_sqlalchemy_would(store: TableStore) -> None:
    """A taken action number is an IntegrityError (the write's fault: final); the same
    errors, classified alike, as the Core statements raised."""
    (table_id,) = make_tables(store, 1)
    assert store._hot is not None
    store.append_action(table_id, 1, 0, "QC")

    async def play() -> BaseException | None:
        results = await asyncio.gather(
            store.save_action(table_id, 1, 1, "KC"), return_exceptions=True
        )
        return results[0] if isinstance(results[0], BaseException) else None

    error = asyncio.run(play())
    assert isinstance(error, IntegrityError) and not passing(error)
    loaded = store.load(table_id)
    assert loaded is not None and loaded.actions == [(0, "QC")]


def test_a_database_error_on_the_driver_path_may_pass(tmp_path: Path) -> None:
    """What the database (not the write) gets wrong is an OperationalError there too, which
    the writer tries again and the table waits out (test_storage_failures.py)."""
    store = TableStore(sqlite_url(tmp_path))
    store.migrate()
    (table_id,) = make_tables(store, 1)
    assert store._hot is not None
    with store.transaction() as connection:
        connection.exec_driver_sql("ALTER TABLE table_actions RENAME TO kept_aside")

    async def play() -> BaseException | None:
        results = await asyncio.gather(
            store.save_action(table_id, 1, 0, "QC"), return_exceptions=True
        )
        return results[0] if isinstance(results[0], BaseException) else None

    error = asyncio.run(play())
    assert isinstance(error, OperationalError) and passing(error)
    assert store.writer.retries == len(RETRY_DELAYS)
    with store.transaction() as connection:
        connection.exec_driver_sql("ALTER TABLE kept_aside RENAME TO table_actions")
    store.append_action(table_id, 1, 0, "QC")  # storage is back: the same write is stored
    loaded = store.load(table_id)
    assert loaded is not None and loaded.actions == [(0, "QC")]
    store.close()


def test_an_action_the_database_refuses_is_heard_of_by_nobody(tmp_path: Path) -> None:
    """Over a real socket: the database itself refuses one action (a trigger, so the
    driver's own statement fails in the group commit, nothing is patched); the player
    hears ``storage_error``, a spectator never hears of the card, and the other card
    played in its place is what everyone then sees."""
    app = create_app(data_dir=tmp_path, settings=ServerSettings(bot_delay=0, grace=None))
    database = tmp_path / "kartentisch.sqlite3"
    with in_thread(app) as server:
        body = {
            "game": "slobberhannes",
            "name": "Ann",
            "seats": [{"kind": "you"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
        }
        created = httpx.post(f"http://{server}/api/tables", json=body, timeout=10).json()
        url = f"ws://{server}/ws/tables/{created['id']}"
        with connect(url) as player, connect(url) as spectator:
            spectator.send(json.dumps({"type": "hello"}))
            assert receive_state(spectator)["version"] >= 0
            player.send(json.dumps({"type": "hello", "token": created["token"]}))
            state = receive_state(player)
            said: set[int] = set()
            while True:
                view, between = state["view"], state["table"].get("between_deals")
                if between is not None:
                    if 0 in between["waiting"] and state["version"] not in said:
                        said.add(state["version"])
                        player.send(json.dumps({"type": "ready", "version": state["version"]}))
                elif view["to_move"] == 0 and len(view["legal"]) > 1:
                    break  # a turn with a choice: one card is refused, the other played
                elif view["to_move"] == 0 and state["version"] not in said:
                    said.add(state["version"])  # (once per version: a state may come twice)
                    act = {"type": "act", "action": view["legal"][0], "version": state["version"]}
                    player.send(json.dumps(act))
                state = receive_state(player)
            version = state["version"]
            refused, played = state["view"]["legal"][0], state["view"]["legal"][-1]
            with closing(sqlite3.connect(database)) as db:
                db.execute(
                    "CREATE TRIGGER refuse BEFORE INSERT ON table_actions "
                    f"WHEN NEW.action = '{refused}' AND NEW.seq = {version + 1} "
                    "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
                )
                db.commit()
            act = {"type": "act", "action": refused, "version": version}
            player.send(json.dumps(act))
            heard = receive(player)
            while heard["type"] == "state":
                assert heard["version"] == version
                heard = receive(player)
            assert heard["type"] == "error" and heard["code"] == "storage_error"
            with closing(sqlite3.connect(database)) as db:
                db.execute("DROP TRIGGER refuse")
                db.commit()
            player.send(json.dumps({**act, "action": played}))
            # Everything the spectator heard up to the new version knows nothing of the card.
            seen = receive_state(spectator)
            while seen["version"] <= version:
                assert all(e["action"] != refused or e["v"] <= version for e in entries(seen))
                seen = receive_state(spectator)
            [first] = [e for e in entries(seen) if e["v"] == version + 1]
            assert first["action"] == played and first["seat"] == 0
    stored = TableStore(sqlite_url(tmp_path))
    loaded = stored.load(created["id"])
    assert loaded is not None and loaded.actions[version] == (0, played)
    stored.close()


def entries(message: dict[str, Any]) -> list[dict[str, Any]]:
    log: dict[str, Any] | None = message.get("log")
    return [] if log is None else list(log["entries"])


def receive(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return message


def receive_state(ws: Any) -> dict[str, Any]:
    """The next ``state`` message (pongs and the like skipped; an error fails)."""
    while True:
        message = receive(ws)
        assert message["type"] != "error", message
        if message["type"] == "state":
            return message


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_connection_the_driver_failed_on_is_dropped_not_reset(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The driver fails on the writer's connection (as when the database ends it while
    PostgreSQL's pipeline is busy): the connection is dropped (invalidated), not handed
    back to the pool, whose reset would roll back on it and, with psycopg stuck in
    pipeline mode, log a traceback. The write is tried again on a new connection and
    stored."""
    from sqlalchemy import event

    def check(store: TableStore) -> None:
        (table_id,) = make_tables(store, 1)
        store.append_action(table_id, 1, 0, "QC")  # opens the writer's connection
        hot = store._hot
        assert hot is not None
        real_run = hot.run
        failed_on: list[Any] = []

        def failing_run(connection: Any, sql: str, rows: list[tuple[Any, ...]]) -> None:
            if failed_on:
                real_run(connection, sql, rows)
                return
            failed_on.append(connection.connection.dbapi_connection)
            error = OSError("the driver failed (simulated)")
            raise OperationalError(sql, rows, error) from error

        resets: list[Any] = []
        invalidated: list[Any] = []
        event.listen(store.engine, "reset", lambda dbapi, *_: resets.append(dbapi))
        event.listen(store.engine, "invalidate", lambda dbapi, *_: invalidated.append(dbapi))
        monkeypatch.setattr(type(hot), "run", staticmethod(failing_run))
        store.append_action(table_id, 2, 1, "KC")
        loaded = store.load(table_id)
        assert loaded is not None and loaded.actions == [(0, "QC"), (1, "KC")]
        assert len(failed_on) == 1 and store.writer.retries >= 1
        assert invalidated == failed_on
        assert not any(dbapi is failed_on[0] for dbapi in resets)

    if kind == "sqlite":
        store = TableStore(sqlite_url(tmp_path))
        store.migrate()
        try:
            check(store)
        finally:
            store.close()
        return
    with postgres_schema() as url:
        store = TableStore(url)
        store.migrate()
        try:
            check(store)
        finally:
            store.close()
