"""Whole matches played in process, for tests that look at every message sent.

:func:`four_people` opens a table with four people seated (no bots) and a
spectator; :func:`walk_match` plays its match to the end, each seat taking its
first legal action (``pass`` where it may), and lets the test look at what the
connections were sent (:func:`drained`) before every step and once after the last.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kartentisch.storage import TableStore, sqlite_url
from kartentisch.web.lobby import parse_new_table
from kartentisch.web.protocol import Act, Hello, Ready
from kartentisch.web.seats import Connection
from kartentisch.web.tables import ServerSettings, TableManager

__all__ = ["NAMES", "drained", "four_people", "walk_match"]

#: Names that JSON escapes (a quote, a backslash, a line separator) or keeps (Cyrillic).
NAMES = ['Ann "A"', "Бор", "C\\d\u2028", "Dee"]


async def four_people(tmp_path: Path, body: dict[str, Any]) -> tuple[Any, list[Connection]]:
    """A new table of ``body`` with :data:`NAMES` in its four seats; its connections,
    one per seat in seat order, then a spectator's."""
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


def drained(conn: Connection) -> list[dict[str, Any]]:
    """The messages queued for ``conn`` since it was last drained, in order."""
    messages: list[dict[str, Any]] = []
    while not conn.queue.empty():
        message = conn.queue.get_nowait()
        assert message is not None
        messages.append(message)
    return messages


async def walk_match(
    table: Any, conns: list[Connection], look: Callable[[], None], *, steps: int
) -> None:
    """Play ``table``'s match for at most ``steps`` steps (or until it is over): the
    seat to act takes ``pass`` if legal, else its first legal action; between deals
    every seat says it is ready. ``look()`` is called before every step and once after
    the last (to read what ``conns`` were sent)."""
    for _ in range(steps):
        look()
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
    look()
