"""The table store on SQLite and on a real PostgreSQL (a throwaway schema)."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import IntegrityError, OperationalError
from starlette.testclient import TestClient

from kartentisch.storage import TableStore, sqlite_url
from kartentisch.storage import database as database_module

from .helpers import AppFactory, new_table, next_state, until_my_turn

#: Where the tests look for PostgreSQL (trust auth); KARTENTISCH_TEST_PG overrides.
PG_CANDIDATES = (
    "postgresql+psycopg://postgres@127.0.0.1:5432/test",
    "postgresql+psycopg://root@127.0.0.1:5432/test",
)


def exercise(store: TableStore) -> None:
    seats = [{"kind": "human", "name": "Ann", "token_hash": "x"}, {"kind": "bot", "name": "Ben"}]
    store.create_table("a", "slobberhannes", {"players": 3}, {}, [*seats, {"kind": "open"}], 2**61)
    store.create_table("b", "slobberhannes", {"players": 3}, {"turn_seconds": 30}, seats * 2, 1)
    store.append_action("a", 1, 1, "QC")
    store.append_action("a", 2, 2, "10H")
    with pytest.raises(IntegrityError):
        store.append_action("a", 2, 2, "9H")
    store.update_table("b", status="finished")
    store.update_table("a", status="playing", seats=seats * 2)
    loaded = store.load("a")
    assert loaded is not None
    assert loaded.seed == 2**61
    assert loaded.actions == [(1, "QC"), (2, "10H")]
    assert loaded.status == "playing"
    assert loaded.seats == seats * 2
    assert [t.id for t in store.unfinished()] == ["a"]
    assert store.load("nope") is None
    with pytest.raises(KeyError):
        store.update_table("nope", status="finished")


def test_sqlite_schema_by_migration(tmp_path: Path) -> None:
    store = TableStore(sqlite_url(tmp_path / "data"))
    store.migrate()
    store.migrate()  # running it again changes nothing
    names = set(inspect(store.engine).get_table_names())
    assert {"tables", "table_actions", "alembic_version"} <= names
    exercise(store)
    store.close()
    assert (tmp_path / "data" / "kartentisch.sqlite3").exists()


def test_in_memory_sqlite() -> None:
    store = TableStore("sqlite://")
    store.migrate()
    exercise(store)


def _postgres_url() -> str | None:
    candidates = (
        [os.environ["KARTENTISCH_TEST_PG"]] if os.environ.get("KARTENTISCH_TEST_PG") else []
    )
    candidates += PG_CANDIDATES
    for url in candidates:
        try:
            engine = create_engine(url, connect_args={"connect_timeout": 3})
            with engine.connect() as conn:
                conn.execute(text("select 1"))
            engine.dispose()
            return url
        except Exception:
            continue
    return None


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A URL whose search_path is a fresh schema, dropped afterwards."""
    with postgres_schema() as url:
        yield url


@contextlib.contextmanager
def postgres_schema() -> Iterator[str]:
    """A URL whose search_path is a fresh schema, dropped afterwards (skips without one)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        url = None
    else:
        url = _postgres_url()
    if url is None:
        message = (
            "PostgreSQL is not reachable at 127.0.0.1:5432 (database test, user postgres or "
            "root, trust auth; or set KARTENTISCH_TEST_PG), or psycopg is not installed"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(message + ": CI=true requires it")
        pytest.skip(message)
    schema = f"kt_test_{secrets.token_hex(4)}"
    admin = create_engine(url)
    with admin.begin() as conn:
        conn.execute(text(f'create schema "{schema}"'))
    try:
        yield f"{url}?options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'drop schema "{schema}" cascade'))
        admin.dispose()


def test_postgresql_store(postgres_url: str) -> None:
    store = TableStore(postgres_url)
    store.migrate()
    try:
        names = set(inspect(store.engine).get_table_names())
        assert {"tables", "table_actions", "alembic_version"} <= names
        exercise(store)
    finally:
        store.close()


def test_plain_postgresql_urls_use_psycopg() -> None:
    store = TableStore("postgresql://nobody@127.0.0.1:1/none")
    assert store.engine.dialect.driver == "psycopg"


def test_a_silent_postgresql_server_times_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that accepts the connection and never answers fails the write within the
    connect timeout (each of the writer's tries), instead of holding the event loop for the
    operating system's TCP timeout."""
    monkeypatch.setattr(database_module, "CONNECT_TIMEOUT", 1)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        store = TableStore(f"postgresql://nobody@127.0.0.1:{port}/none")
        store.writer._retry_delays = (0.0,)  # two tries of one second each
        errors: list[BaseException] = []

        def write() -> None:
            try:
                store.create_table("a", "slobberhannes", {}, {}, [], 1)
            except BaseException as exc:  # handed to the test's thread
                errors.append(exc)

        # In a thread of its own: without the timeout the write would hang, not fail.
        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        writer.join(timeout=6)
        assert not writer.is_alive(), "the write still waits for the silent server"
        assert len(errors) == 1 and isinstance(errors[0], OperationalError), errors
        assert "timeout" in str(errors[0])
        assert store.writer.retries == 1
        store.close()


def test_the_app_on_postgresql_survives_a_restart(postgres_url: str, make_app: AppFactory) -> None:
    with TestClient(make_app(postgres_url)) as client:
        created = new_table(client)
        with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            ws.send_json({"type": "hello", "token": created["token"]})
            state = until_my_turn(ws, 0, next_state(ws))
            ws.send_json(
                {"type": "act", "action": state["view"]["legal"][0], "version": state["version"]}
            )
            before = until_my_turn(ws, 0, next_state(ws))
    with (
        TestClient(make_app(postgres_url)) as client,
        client.websocket_connect(f"/ws/tables/{created['id']}") as ws,
    ):
        ws.send_json({"type": "hello", "token": created["token"]})
        after = next_state(ws)
        assert after["version"] == before["version"] > 1
        assert after["view"] == before["view"]
