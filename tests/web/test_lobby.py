"""The lobby API, rules, catalogs and the page, in process over httpx."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from importlib.resources import files
from typing import Any

import httpx
import pytest

from kartentisch.games import rules_text

from .helpers import AppFactory

pytestmark = pytest.mark.anyio


@pytest.fixture
async def http(make_app: AppFactory) -> AsyncIterator[httpx.AsyncClient]:
    app = make_app()
    # ASGITransport sends no lifespan events: run the app's lifespan around the client.
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield client


async def create(http: httpx.AsyncClient, **body: Any) -> httpx.Response:
    return await http.post("/api/tables", json={"game": "slobberhannes", "name": "Ann", **body})


async def test_games_describe_presets_and_bots(http: httpx.AsyncClient) -> None:
    games = (await http.get("/api/games")).json()["games"]
    assert [g["name"] for g in games] == ["slobberhannes", "doppelkopf", "slapjack", "irish-snap"]
    assert games[0]["bot_levels"][:2] == ["random", "heuristic"]
    assert games[0]["default_bot_level"] in games[0]["bot_levels"]
    assert set(games[0]["presets"]) == {"standard", "russian"}


async def test_create_join_start_and_list(http: httpx.AsyncClient) -> None:
    seats = [{"kind": "you"}, {"kind": "open"}, {"kind": "open"}, {"kind": "bot"}]
    response = await create(http, seats=seats, options={"preset": "standard"}, turn_seconds=30)
    assert response.status_code == 201
    created = response.json()
    assert created["seat"] == 0 and len(created["token"]) > 20
    assert created["url"] == f"/t/{created['id']}"
    table_id = created["id"]
    listed = (await http.get("/api/tables")).json()["tables"]
    mine = next(t for t in listed if t["id"] == table_id)
    assert mine["status"] == "waiting" and mine["open_seats"] == [1, 2]
    assert all("token" not in str(seat) for seat in mine["seats"])

    joined = (await http.post(f"/api/tables/{table_id}/join", json={"name": " Bob\t"})).json()
    assert joined["seat"] == 1
    taken = await http.post(f"/api/tables/{table_id}/join?lang=de", json={"name": "Cyd", "seat": 1})
    assert taken.status_code == 409
    assert taken.json()["error"] == {"code": "seat_taken", "message": "Platz 1 ist schon besetzt."}
    refused = await http.post(f"/api/tables/{table_id}/start", json={"token": "wrong"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "bad_token"
    started = await http.post(f"/api/tables/{table_id}/start", json={"token": joined["token"]})
    table = started.json()["table"]
    assert table["status"] == "playing"
    assert [s["kind"] for s in table["seats"]] == ["human", "human", "bot", "bot"]
    assert table["seats"][1]["name"] == "Bob"
    assert table["turn_seconds"] == 30
    again = await http.post(f"/api/tables/{table_id}/join", json={"name": "Late"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "table_started"
    shown = (await http.get(f"/api/tables/{table_id}")).json()["table"]
    assert shown["id"] == table_id and shown["version"] >= 0


async def test_filling_the_last_seat_starts_the_table(http: httpx.AsyncClient) -> None:
    created = (
        await create(http, seats=[{"kind": "you"}, {"kind": "bot"}, {"kind": "open"}])
    ).json()
    assert created["table"]["status"] == "waiting"
    await http.post(f"/api/tables/{created['id']}/join", json={"name": "Bob"})
    shown = (await http.get(f"/api/tables/{created['id']}")).json()["table"]
    assert shown["status"] == "playing"
    full = await http.post(f"/api/tables/{created['id']}/join", json={"name": "Cyd"})
    assert full.status_code == 409


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess"}, "unknown_game"),
        ({"game": 7}, "unknown_game"),
        ({"game": "slobberhannes", "seats": [{"kind": "you"}]}, "bad_seats"),
        (
            {"game": "slobberhannes", "seats": [{"kind": "you"}, {"kind": "you"}, {"kind": "bot"}]},
            "bad_seats",
        ),
        ({"game": "slobberhannes", "seats": [{"kind": "bot", "level": "genius"}] * 4}, "bad_level"),
        (
            {
                "game": "slobberhannes",
                "name": "",
                "seats": [{"kind": "you"}] + [{"kind": "bot"}] * 3,
            },
            "bad_name",
        ),
        ({"game": "slobberhannes", "name": "A", "options": {"revokes": "often"}}, "bad_options"),
        ({"game": "slobberhannes", "name": "A", "options": {"players": 5}}, "bad_options"),
        ({"game": "slobberhannes", "name": "A", "turn_seconds": 1}, "bad_turn_seconds"),
        ([1, 2], "bad_request"),
    ],
)
async def test_bad_tables_are_refused_clearly(
    http: httpx.AsyncClient, body: Any, code: str
) -> None:
    response = await http.post("/api/tables", json=body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == code
    assert error["message"] and not error["message"].startswith("error.")


async def test_malformed_json_and_unknown_tables(http: httpx.AsyncClient) -> None:
    response = await http.post("/api/tables", content=b"{nope", headers={"accept-language": "ru"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_json"
    assert "JSON" in response.json()["error"]["message"]
    missing = await http.get("/api/tables/doesnotexist")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_such_table"
    big = await http.post("/api/tables", content=b"{" + b" " * 70_000 + b"}")
    assert big.status_code == 413


async def test_record_download(http: httpx.AsyncClient) -> None:
    created = (
        await create(http, seats=[{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}])
    ).json()
    early = await http.get(f"/api/tables/{created['id']}/record")
    assert early.status_code == 409
    await http.post(f"/api/tables/{created['id']}/start", json={"token": created["token"]})
    record = await http.get(f"/api/tables/{created['id']}/record")
    assert record.status_code == 200
    assert "attachment" in record.headers["content-disposition"]
    data = record.json()
    assert data["format"] == "kartentisch-record/1" and data["game"] == "slobberhannes"
    assert data["deals"] == []  # the deal in progress stays hidden


@pytest.mark.parametrize("lang", ["de", "en", "ru"])
async def test_rules_in_every_language(http: httpx.AsyncClient, lang: str) -> None:
    markdown = await http.get(f"/api/rules/slobberhannes/{lang}")
    assert markdown.status_code == 200 and markdown.text.startswith("#")
    html = await http.get(f"/api/rules/slobberhannes/{lang}?format=html")
    assert html.text.startswith("<h1>") and "<table>" in html.text
    assert (await http.get(f"/api/rules/slobberhannes/{lang}?format=html")).text == html.text
    missing = await http.get(f"/api/rules/chess/{lang}")
    assert missing.status_code == 404
    for game in (await http.get("/api/games")).json()["rules"]:
        response = await http.get(f"/api/rules/{game['name']}/{lang}?format=html")
        assert response.status_code == 200 and "<h" in response.text, game


#: Every game's web rules page is checked for command-line flags.
WEB_RULES_GAMES = ("slobberhannes", "doppelkopf", "slapjack", "irish-snap")


@pytest.mark.parametrize("lang", ["de", "en", "ru"])
@pytest.mark.parametrize("game", WEB_RULES_GAMES)
async def test_web_rules_speak_of_the_table_not_of_flags(
    http: httpx.AsyncClient, game: str, lang: str
) -> None:
    page = (await http.get(f"/api/rules/{game}/{lang}")).text
    assert not re.search(r"(?<![-|])--[a-z]", page), re.findall(r".*--[a-z].*", page)
    assert "kartentisch play" not in page and "<!--" not in page
    terminal = rules_text(game, lang)
    assert "--" in terminal and "<!--" not in terminal


async def test_catalogs_for_the_page(http: httpx.AsyncClient) -> None:
    catalogs = {}
    for lang in ("de", "en", "ru"):
        response = await http.get(f"/api/i18n/{lang}")
        assert response.status_code == 200
        catalogs[lang] = response.json()["messages"]
    assert catalogs["en"]["ui.your_turn"].startswith("Your turn")
    assert catalogs["de"]["ui.your_turn"].startswith("Du bist dran")
    assert catalogs["ru"]["ui.your_turn"].startswith("Ваш ход")
    assert set(catalogs["de"]) == set(catalogs["en"]) == set(catalogs["ru"])
    assert (await http.get("/api/i18n/fr")).status_code == 404


def _js_keys() -> set[str]:
    static = files("kartentisch.web") / "static"
    keys: set[str] = set()
    for name in ("app.js", "table.js", "lobby.js", "rules.js"):
        keys |= set(re.findall(r'\bt\("([\w.]+)"', (static / name).read_text("utf-8")))
    games = static / "games" / "slobberhannes.js"
    keys |= set(re.findall(r'\bt\("([\w.]+)"', games.read_text("utf-8")))
    return keys


async def test_every_text_the_page_uses_is_translated(http: httpx.AsyncClient) -> None:
    keys = _js_keys()
    assert len(keys) > 40
    for lang in ("de", "en", "ru"):
        messages = (await http.get(f"/api/i18n/{lang}")).json()["messages"]
        assert keys <= set(messages), keys - set(messages)
        description = (await http.get("/api/games")).json()["games"][0]
        for preset in description["presets"]:
            assert f"preset.{preset}" in messages
        for level in description["bot_levels"]:
            assert f"level.{level}" in messages
        for option, spec in description["options"].items():
            assert f"option.{option}" in messages
            for choice in spec.get("choices", []):
                value = str(choice).lower() if isinstance(choice, bool) else choice
                assert f"option.{option}.{value}" in messages


async def test_the_page_and_its_files(http: httpx.AsyncClient) -> None:
    for path in ("/", "/t/abc", "/rules/slobberhannes"):
        page = await http.get(path)
        assert page.status_code == 200
        assert '<script type="module" src="/static/app.js">' in page.text
        assert "default-src 'self'" in page.headers["content-security-policy"]
    for name in (
        "app.js",
        "cards.js",
        "i18n.js",
        "table.js",
        "games/slobberhannes.js",
        "style.css",
    ):
        response = await http.get(f"/static/{name}")
        assert response.status_code == 200, name
    cards = (await http.get("/static/cards.js")).text
    assert "export function cardSVG" in cards and "http" not in cards
    assert (await http.get("/healthz")).json()["ok"] is True


async def test_a_private_table_is_reached_by_its_link_only(http: httpx.AsyncClient) -> None:
    seats = [{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]
    private = (await create(http, seats=seats, private=True)).json()
    public = (await create(http, seats=seats)).json()
    listed = {t["id"] for t in (await http.get("/api/tables")).json()["tables"]}
    assert public["id"] in listed and private["id"] not in listed
    shown = (await http.get(f"/api/tables/{private['id']}")).json()["table"]
    assert shown["private"] is True and shown["open_seats"] == [1]
    joined = await http.post(f"/api/tables/{private['id']}/join", json={"name": "Bo"})
    assert joined.status_code == 200, joined.text
    refused = await create(http, seats=seats, private="yes")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "bad_private"


async def test_option_errors_are_plain_words_in_the_language(http: httpx.AsyncClient) -> None:
    body = {
        "game": "doppelkopf",
        "name": "Ann",
        "options": {"preset": "ddv", "armut": True},
    }
    german = (await http.post("/api/tables?lang=de", json=body)).json()["error"]
    assert german["code"] == "bad_options"
    assert german["message"].startswith("Armut braucht die Reihenfolge der Vorbehalte")
    russian = (await http.post("/api/tables?lang=ru", json=body)).json()["error"]["message"]
    assert "DDV" in russian and "declarations" not in russian and "sheet" not in russian
    body = {"game": "slobberhannes", "name": "Ann", "options": {"target": 0}}
    german = (await http.post("/api/tables?lang=de", json=body)).json()["error"]["message"]
    assert "wähle eine ganze Zahl" in german and "target" not in german
