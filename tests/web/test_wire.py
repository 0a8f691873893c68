"""The state messages' JSON, made once per broadcast from shared parts, is byte for byte what
``json.dumps(message, ensure_ascii=False)`` writes for the message as a dict."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from uvicorn.server import ServerState
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

from kartentisch.storage import TableStore, sqlite_url
from kartentisch.web.guard import DEFLATE_LEVEL, ConnectionGuard
from kartentisch.web.lobby import parse_new_table
from kartentisch.web.protocol import Act, Hello, Ready
from kartentisch.web.seats import Connection
from kartentisch.web.tables import ServerSettings, TableManager
from kartentisch.web.wire import Encoded, message_text

#: Names that JSON escapes (a quote, a backslash, a line separator) or keeps (Cyrillic).
NAMES = ['Ann "A"', "Бор", "C\\d\u2028", "Dee"]


def drained(conn: Connection) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    while not conn.queue.empty():
        message = conn.queue.get_nowait()
        assert message is not None
        messages.append(message)
    return messages


def check(messages: list[dict[str, Any]]) -> int:
    """Every message's text is the dict's ``json.dumps``; how many came pre-encoded."""
    encoded = 0
    for message in messages:
        assert message_text(message) == json.dumps(message, ensure_ascii=False)
        encoded += type(message) is Encoded
    return encoded


async def four_people(tmp_path: Path, body: dict[str, Any]) -> tuple[Any, list[Connection]]:
    store = TableStore(sqlite_url(tmp_path))
    store.migrate()
    manager = TableManager(store, ServerSettings(bot_delay=0, grace=None))
    seats = [{"kind": "you"}] + [{"kind": "open"}] * 3
    table, _, token = await manager.create(
        parse_new_table({**body, "name": NAMES[0], "seats": seats})
    )
    assert token is not None
    tokens = [token] + [(await table.join(NAMES[s], s))[1] for s in (1, 2, 3)]
    conns = [Connection() for _ in tokens]
    for conn, tok in zip(conns, tokens, strict=True):
        await table.handle(conn, Hello(tok, None))
    spectator = Connection()
    await table.handle(spectator, Hello(None, None))
    return table, [*conns, spectator]


@pytest.mark.parametrize(
    "body",
    [
        {"game": "slobberhannes"},
        {"game": "slobberhannes", "options": {"cut": True, "target": 3}},
        {"game": "doppelkopf"},
    ],
    ids=["slobberhannes", "slobberhannes-cut", "doppelkopf"],
)
def test_state_messages_are_encoded_as_json_dumps_would(
    tmp_path: Path, body: dict[str, Any]
) -> None:
    async def play() -> None:
        table, conns = await four_people(tmp_path, body)
        encoded = 0
        for _ in range(160):
            for conn in conns:
                encoded += check(drained(conn))
            game = table.game
            if game.is_over:
                break
            if table._between_deals() is not None:
                for seat in range(4):
                    await table.handle(conns[seat], Ready(game.version))
                continue
            seat = game.acting[0]
            legal = game.legal(seat)
            action = "pass" if "pass" in legal else legal[0]
            await table.handle(conns[seat], Act(action, game.version))
        for conn in conns:
            encoded += check(drained(conn))
        assert encoded > 100
        await table.manager.close()

    asyncio.run(play())


def test_real_time_state_messages_are_encoded_as_json_dumps_would(tmp_path: Path) -> None:
    async def play() -> None:
        table, conns = await four_people(tmp_path, {"game": "slapjack"})
        assert table.runner is not None
        table.broadcast()
        seat = table.game.to_move
        await table.handle(conns[seat], Act("turn", table.game.version))
        messages = [m for conn in conns for m in drained(conn)]
        assert check(messages) >= 5
        assert all("live" in m for m in messages if m["type"] == "state")
        await table.manager.close()

    asyncio.run(play())


def test_the_servers_websockets_compress_at_the_chosen_level() -> None:
    async def protocol_settings() -> dict[str, Any]:
        _, ws = ConnectionGuard().protocols()
        config = uvicorn.Config(_no_app, ws=ws)
        config.load()
        protocol = ws(config=config, server_state=ServerState(), app_state={})
        [factory] = protocol.conn.available_extensions or []
        assert isinstance(factory, ServerPerMessageDeflateFactory)
        return dict(factory.compress_settings or {})

    settings = asyncio.run(protocol_settings())
    assert settings["level"] == DEFLATE_LEVEL
    assert settings["memLevel"] == 5  # uvicorn's own setting is kept


async def _no_app(scope: Any, receive: Any, send: Any) -> None:
    """An ASGI app that is never called."""
