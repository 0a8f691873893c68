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

from kartentisch.web.guard import DEFLATE_LEVEL, ConnectionGuard
from kartentisch.web.protocol import Act
from kartentisch.web.wire import Encoded, message_text

from .matches import drained, four_people, walk_match


def check(messages: list[dict[str, Any]]) -> int:
    """Every message's text is the dict's ``json.dumps``; how many came pre-encoded."""
    encoded = 0
    for message in messages:
        assert message_text(message) == json.dumps(message, ensure_ascii=False)
        encoded += type(message) is Encoded
    return encoded


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

        def look() -> None:
            nonlocal encoded
            for conn in conns:
                encoded += check(drained(conn))

        await walk_match(table, conns, look, steps=160)
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
