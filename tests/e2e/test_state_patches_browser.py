"""State patches in a real browser: the page's patch.js makes of the server's patches
exactly the states the server sent, and the table page takes patches as it plays."""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING, Any

from websockets.sync.client import connect

from kartentisch.web.statepatch import patch_message
from kartentisch.web.wire import message_text

from .conftest import ServerProcess
from .pages import hand, play_one

if TYPE_CHECKING:
    from playwright.sync_api import Page, WebSocket

SEATS = [{"kind": "you"}] + [{"kind": "bot", "level": "random"}] * 3

#: Each [old, patch] applied by the page's own patch.js: the states it makes (null: refused).
APPLY = """async (cases) => {
  const { applyPatch } = await import('/static/patch.js');
  return cases.map(([old, patch]) => {
    const frozen = JSON.stringify(old);
    const made = applyPatch(old, patch);
    if (JSON.stringify(old) !== frozen) throw new Error('the old state was changed');
    return made;
  });
}"""


def _value(rng: random.Random, depth: int) -> Any:
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.randrange(-2, 3)
    if kind in (3, 4):
        return rng.choice(["", "a", "QC", "ä", "null"])
    if kind == 5:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(3))]
    return _object(rng, depth + 1)


def _object(rng: random.Random, depth: int) -> dict[str, Any]:
    keys = rng.sample(["a", "b", "c", "view", "table", "log"], rng.randrange(5))
    return {key: _value(rng, depth) for key in keys}


def _changed(rng: random.Random, value: Any, depth: int) -> Any:
    """``value`` with a few of its parts changed, removed or added (an object stays one
    at the top)."""
    if isinstance(value, dict) and (depth == 0 or rng.random() < 0.8):
        out = {
            k: (_changed(rng, v, depth + 1) if rng.random() < 0.4 else v) for k, v in value.items()
        }
        for key in list(out):
            if rng.random() < 0.15:
                del out[key]
        if rng.random() < 0.3:
            out[rng.choice(["a", "d", "view"])] = _value(rng, depth)
        return out
    return _value(rng, depth) if rng.random() < 0.7 else value


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def test_the_pages_patch_js_makes_the_servers_states_exactly(
    server: ServerProcess, page: Page
) -> None:
    rng = random.Random(19)
    cases: list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = []
    while len(cases) < 300:
        old = {"type": "state", "version": rng.randrange(4), **_object(rng, 0)}
        new = {**_changed(rng, old, 0), "type": "state", "version": rng.randrange(4)}
        sent = json.loads(message_text(patch_message(old, new)))
        if sent["type"] == "patch":
            cases.append((old, sent, new))
    page.goto(f"{server.url}/")
    page.wait_for_selector("form.create")
    made = page.evaluate(APPLY, [[old, patch] for old, patch, _ in cases])
    for (old, patch, new), state in zip(cases, made, strict=True):
        assert _text(state) == _text(new), (old, patch)
    # A patch against another version is refused: the page asks for the whole state.
    old, patch, _ = cases[0]
    refused = page.evaluate(APPLY, [[{**old, "version": patch["base"] + 1}, patch]])
    assert refused == [None]


def test_the_table_page_plays_on_patches(server: ServerProcess, page: Page) -> None:
    frames: list[str] = []

    def watch(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(str(payload)))

    page.on("websocket", watch)
    created = server.post("/api/tables", {"game": "slobberhannes", "name": "Ann", "seats": SEATS})
    page.goto(f"{server.url}/t/{created['id']}#seat={created['seat']}&token={created['token']}")
    page.wait_for_selector(".hand-card.playable")
    for _ in range(3):
        play_one(page)
    page.wait_for_selector(".hand-card.playable")
    kinds = [json.loads(frame)["type"] for frame in frames]
    assert kinds.count("patch") >= 3, kinds
    assert kinds.count("state") == 1, kinds  # the whole state once, on hello
    # What the page shows is the server's state: the hand a whole state of the seat holds.
    drawn = int(page.eval_on_selector("#app", "el => el.dataset.version"))
    with connect(f"ws://{server.address}/ws/tables/{created['id']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": created["token"]}))
        while True:
            message = json.loads(ws.recv(timeout=10))
            if message["type"] == "state":
                break
    assert message["version"] == drawn  # (the page's turn: nothing moves until it plays)
    assert sorted(hand(page)) == sorted(message["view"]["hand"])
