"""The slap games' log tells the person's own refused (too-late) slaps, in the page's language.

The server side (the error with ``late_ms`` and ``live.refused`` in the state)
is tested in tests/web/test_slapjack.py. Here the page's part: the table's
WebSocket is passed through Playwright, which adds two refused slaps to
``live.refused`` of every state the server sends, as the server does after
refusing them; the log must show both, in words, in German, English and
Russian, at a desktop and a phone size.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from .conftest import WAIT_MS, ServerProcess, shot
from .pages import catalog, fill

if TYPE_CHECKING:
    from playwright.sync_api import Browser, WebSocketRoute

TABLE = {
    "game": "slapjack",
    "seats": [{"kind": "you"}, {"kind": "bot", "level": "beginner"}],
    "options": {"preset": "classic"},
}


def with_refusals(text: str | bytes) -> str | bytes:
    """A server message, with two refused slaps added to a state's ``live``: one too
    late on a taken pile, one on a card that had gone, just now (so that they are the
    newest lines of the log whatever the bot has done meanwhile)."""
    if isinstance(text, bytes):
        return text
    message: dict[str, Any] = json.loads(text)
    live = message.get("live")
    if message.get("type") == "patch":  # (a state patch: its live part, merged)
        live = (message.get("set") or {}).get("live")
    if message.get("type") in ("state", "patch") and isinstance(live, dict) and "now" in live:
        now = live["now"]
        live["refused"] = [
            {"t": now + 1, "rule": "empty_pile", "late_ms": 250, "by": 1},
            {"t": now + 2, "rule": "stale_card", "late_ms": None, "by": None},
        ]
    return json.dumps(message)


@pytest.mark.parametrize(
    ("lang", "width", "height"), [("de", 1280, 800), ("en", 390, 844), ("ru", 1280, 800)]
)
def test_the_log_tells_the_persons_own_late_slaps(
    server: ServerProcess, browser: Browser, lang: str, width: int, height: int
) -> None:
    texts = catalog(server, lang)
    context = browser.new_context(locale="en-US", viewport={"width": width, "height": height})
    context.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))

        def route(ws: WebSocketRoute) -> None:
            upstream = ws.connect_to_server()
            ws.on_message(lambda message: upstream.send(message))
            upstream.on_message(lambda message: ws.send(with_refusals(message)))

        page.route_web_socket("**/ws/tables/**", route)
        created = server.post("/api/tables", {"name": "Ann", **TABLE})
        page.goto(
            f"{server.url}/t/{created['id']}?lang={lang}"
            f"#seat={created['seat']}&token={created['token']}"
        )
        page.wait_for_selector(".sj-log li.refused")
        me = f"Ann ({texts['ui.you']})"
        late = fill(texts["sj.ev.refused_late"], name=me, ms=250)
        stale = fill(texts["sj.ev.refused_stale"], name=me)
        items = page.locator(".sj-log li.refused")
        page.wait_for_function("() => document.querySelectorAll('.sj-log li.refused').length === 2")
        shown = [items.nth(i).inner_text() for i in range(2)]
        # newest first, each with its game time in the page's own way, marked as bad news
        assert shown[0].endswith(stale) and shown[1].endswith(late), shown
        seconds = texts["sj.log_time"].replace("{s}", "")
        assert all(seconds in text.removesuffix(stale).removesuffix(late) for text in shown)
        assert all("bad" in (items.nth(i).get_attribute("class") or "") for i in range(2))
        shot(page, f"slapjack-log-refused-{lang}-{width}")
        assert not errors, errors
    finally:
        context.close()
