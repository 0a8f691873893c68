"""The game log: who made each action (stored, restored, in the record) and the feed.

Every state message carries the log entries a connection lacks; a client
merges them as the page does (:func:`merge`). The tests check that the merged
log holds every action once, in order, with who made it (a person, a bot, the
turn timer, a stand-in), that a reconnect and a restart complete it, and that
it never names a card another seat could not see.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect, text
from starlette.testclient import TestClient

from kartentisch.errors import RecordError
from kartentisch.games import get_game
from kartentisch.records import check_record
from kartentisch.storage import TableStore, migrate, sqlite_url
from kartentisch.web.adapter import table_game_type
from kartentisch.web.protocol import Hello, ProtocolError, parse_client_message

from .helpers import AppFactory, cli_summary, new_table, next_state
from .test_storage import postgres_schema

#: Four Slobberhannes seats: the person at 0, three quick bots.
SEATS = [{"kind": "you"}] + [{"kind": "bot", "level": "heuristic"}] * 3
CARD = re.compile(r"^(10|[2-9JQKA])[CSHD]$")


class ClientLog:
    """The log as a client holds it: merged from the ``log`` parts of state messages."""

    def __init__(self) -> None:
        self.epoch: str | None = None
        self.entries: list[dict[str, Any]] = []

    def merge(self, message: dict[str, Any]) -> None:
        part = message.get("log")
        if part is None:
            return
        if part["epoch"] != self.epoch:
            assert part["from"] == 0, "a new log must come whole"
            self.epoch, self.entries = part["epoch"], []
        assert part["from"] <= len(self.entries), "a gap in the log"
        del self.entries[part["from"] :]
        self.entries.extend(part["entries"])

    def hello(self) -> dict[str, Any]:
        if self.epoch is None:
            return {}
        return {"log_epoch": self.epoch, "log_from": len(self.entries)}

    def actions(self) -> list[dict[str, Any]]:
        return [e for e in self.entries if "note" not in e]


def hello(ws: Any, token: str | None, log: ClientLog, **extra: Any) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token, "lang": "en", **log.hello(), **extra})
    state = next_state(ws)
    log.merge(state)
    return state


def receive(ws: Any, log: ClientLog) -> dict[str, Any]:
    """The next message; a state's log is merged."""
    message: dict[str, Any] = ws.receive_json()
    if message["type"] == "state":
        log.merge(message)
    return message


def check_complete(log: ClientLog, table: Any, *, exact: bool = True) -> None:
    """Every action stored so far once, in order, with its seat, text and who made it.

    ``exact``: the table waits (for the person) and the log must hold all of its
    actions; otherwise (a table that goes on meanwhile) every action up to the
    newest entry the client has.
    """
    actions = log.actions()
    stored = table.store.load(table.id)
    count = len(stored.actions) if exact else len(actions)
    assert count <= len(stored.actions)
    assert [e["v"] for e in actions] == list(range(1, count + 1))
    assert [e["by"] for e in actions] == stored.by[:count]
    assert [e["seat"] for e in actions] == [seat for seat, _ in stored.actions[:count]]
    for entry, (_, written) in zip(actions, stored.actions, strict=False):
        # Slobberhannes: the action is the card (or the cut) as stored.
        assert entry["action"] == written


def play_until(ws: Any, log: ClientLog, state: dict[str, Any], versions: int) -> dict[str, Any]:
    """Play the person's first legal card on each turn until ``versions`` actions were made;
    return at the person's turn (the bots wait for it: the table stands still) or the end."""
    for _ in range(5000):
        view = state["view"]
        mine = view["to_move"] == 0 and bool(view["legal"])
        if view["over"] or (state["version"] >= versions and mine):
            return state
        if mine:
            ws.send_json({"type": "act", "action": view["legal"][0], "version": state["version"]})
        message = receive(ws, log)
        while message["type"] != "state":
            assert message["code"] == "stale_version", message
            message = receive(ws, log)
        state = message
    raise AssertionError("the table never got that far")


def test_the_log_has_every_action_once_in_order_with_who_made_it(make_app: AppFactory) -> None:
    # The next deal starts at once (no wait for "next"): the log runs across deals.
    app = make_app(ready=0)
    with TestClient(app) as client:
        created = new_table(client, SEATS)
        table = app.state.manager.get(created["id"])
        log = ClientLog()
        with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            state = play_until(ws, log, hello(ws, created["token"], log), 40)
            check_complete(log, table)
        by_seat = {(e["seat"], e["by"]) for e in log.actions()}
        assert by_seat == {(0, "person"), (1, "bot"), (2, "bot"), (3, "bot")}
        # What followed the cards: every trick won, the first deal's penalties and its end.
        events = [ev for e in log.actions() for ev in e["events"]]
        assert state["version"] >= 40 and not state["view"]["over"]
        assert sum(1 for ev in events if ev["type"] == "trick_won") == state["version"] // 4
        reasons = {ev["reason"] for ev in events if ev["type"] == "penalty"}
        assert {"first_trick", "queen_of_clubs", "last_trick"} <= reasons
        assert [ev["type"] for ev in events].count("deal_ended") == 1


def test_a_reconnect_gets_only_the_rest_and_a_restart_keeps_who_made_each_action(
    make_app: AppFactory,
) -> None:
    app = make_app()
    with TestClient(app) as client:
        created = new_table(client, SEATS)
        url = f"/ws/tables/{created['id']}"
        table = app.state.manager.get(created["id"])
        log = ClientLog()
        with client.websocket_connect(url) as ws:
            play_until(ws, log, hello(ws, created["token"], log), 12)
        held = len(log.entries)
        with client.websocket_connect(url) as ws:
            # Back with what it holds: the server sends the entries from there on only.
            ws.send_json({"type": "hello", "token": created["token"], **log.hello()})
            state = next_state(ws)
            assert state["log"]["from"] == held
            log.merge(state)
            play_until(ws, log, state, 24)
        check_complete(log, table)
        # A spectator without a log gets it whole, the same.
        with client.websocket_connect(url) as ws:
            fresh = ClientLog()
            hello(ws, None, fresh)
        assert fresh.actions()[: len(log.actions())] == log.actions()
        before = [dict(e) for e in log.actions()]
        epoch = log.epoch
    with TestClient(make_app()) as client:
        with client.websocket_connect(url) as ws:
            # After a restart the log is another one: sent whole again, who made what kept.
            state = hello(ws, created["token"], log)
            assert state["log"]["from"] == 0 and log.epoch != epoch
        assert log.actions()[: len(before)] == before


def test_a_turn_timer_plays_and_the_log_says_so(make_app: AppFactory) -> None:
    app = make_app()
    with TestClient(app) as client:
        created = new_table(client, SEATS, turn_seconds=5)
        table = app.state.manager.get(created["id"])
        table.settings["turn_seconds"] = 0.2  # the API's minimum is 5 s; tests are quicker
        log = ClientLog()
        with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            hello(ws, created["token"], log)
            # The person never acts: each of their cards is played by the timer.
            for _ in range(2000):
                if any(e["seat"] == 0 for e in log.actions()):
                    break
                receive(ws, log)
            mine = [e for e in log.actions() if e["seat"] == 0]
            assert mine and all(e["by"] == "timer" for e in mine)
            check_complete(log, table, exact=False)
        stored = table.store.load(table.id)
        timed = {b for (seat, _), b in zip(stored.actions, stored.by, strict=True) if seat == 0}
        assert timed == {"timer"}


def test_a_stand_in_plays_for_an_away_person_and_is_marked(make_app: AppFactory) -> None:
    app = make_app(grace=0.05, ready=0)
    with TestClient(app) as client:
        seats = [{"kind": "you"}, {"kind": "open"}, *SEATS[2:]]
        created = new_table(client, seats)
        table = app.state.manager.get(created["id"])
        joined = client.post(f"/api/tables/{created['id']}/join", json={"name": "Bo"}).json()
        log = ClientLog()
        # Ann never connects; Bo plays on (a table whose people are all away would pause),
        # and a stand-in plays Ann's seat after the grace time.
        with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            state = hello(ws, joined["token"], log)
            for _ in range(2000):
                if sum(1 for e in log.actions() if e["seat"] == 0) >= 2:
                    break
                view = state["view"]
                if view["to_move"] == 1 and view["legal"]:
                    ws.send_json(
                        {"type": "act", "action": view["legal"][0], "version": state["version"]}
                    )
                message = receive(ws, log)
                while message["type"] != "state":
                    assert message["code"] == "stale_version", message
                    message = receive(ws, log)
                state = message
            mine = [e for e in log.actions() if e["seat"] == 0]
            assert len(mine) >= 2 and all(e["by"] == "standin" for e in mine)
            bos = [e for e in log.actions() if e["seat"] == 1]
            assert bos and all(e["by"] == "person" for e in bos)
            check_complete(log, table, exact=False)
        notes = [e["note"] for e in log.entries if "note" in e and e["seat"] == 0]
        assert "standin_on" in notes


def test_notes_between_actions_reach_everyone_once(make_app: AppFactory) -> None:
    app = make_app()
    with TestClient(app) as client:
        # Three people and no timer: nothing moves until someone plays.
        created = new_table(client, [{"kind": "you"}, {"kind": "open"}, {"kind": "open"}])
        for name in ("Bob", "Cyd"):
            assert client.post(f"/api/tables/{created['id']}/join", json={"name": name}).is_success
        table = app.state.manager.get(created["id"])
        log = ClientLog()

        def note() -> None:
            table.log_note("standin_on", 1)
            table.broadcast()

        with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            hello(ws, created["token"], log)
            assert table.version == 0 and log.entries == []
            client.portal.call(note)  # on the server's event loop, as presence would
            message = receive(ws, log)
            assert message["log"]["entries"][-1] == {
                "v": table.version,
                "seat": 1,
                "note": "standin_on",
            }
            client.portal.call(table.broadcast)
            again = receive(ws, log)
            assert again["log"]["entries"] == []  # sent once
        assert [e for e in log.entries if "note" in e] == [
            {"v": table.version, "seat": 1, "note": "standin_on"}
        ]


# -- no hidden information --------------------------------------------------------------


def public_cards(view: dict[str, Any]) -> set[str]:
    """Every card anyone at the table can see in the public view."""
    seen: set[str] = set()
    tricks = [view["trick"], *(view.get("tricks") or [])]
    if view.get("last_trick"):
        tricks.append(view["last_trick"])
    for deal in view.get("deals", []):
        tricks.extend(deal.get("tricks", []))
    for trick in tricks:
        seen.update(trick["cards"])
    seen.update(view.get("open_hand") or [])
    return seen


def cards_in(value: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(value, str):
        for word in value.split():
            if CARD.match(word):
                found.add(word)
    elif isinstance(value, dict):
        for item in value.values():
            found |= cards_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= cards_in(item)
    return found


def random_games(game: str, options: dict[str, Any], seeds: range, actions: int) -> int:
    """Play random legal actions; after each, the new log entry names only public cards.

    Returns how many Armut exchanges were logged (their cards go face down).
    """
    kind = table_game_type(game)
    players = options.get("players", 4)
    normalized = kind.normalize_options(options, seats=players)
    exchanges = 0
    for seed in seeds:
        table: Any = kind.create(normalized, [f"P{i}" for i in range(players)], seed)
        rng = random.Random(seed)
        for _ in range(actions):
            if table.is_over:
                break
            acting = table.acting[0]
            legal = table.legal(acting)
            # Sometimes an announcement of another seat, as people make them.
            others = [(s, a) for s in range(players) for a in table.legal(s) if s != acting]
            if others and rng.random() < 0.05:
                seat, text = rng.choice(others)
            else:
                # A word first, then its form: the many solo kinds do not crowd out the rest.
                words = sorted({a.split()[0] for a in legal})
                if "solo" in words and len(words) > 1 and rng.random() < 0.9:
                    words.remove("solo")  # else the solos would end most deals early
                word = rng.choice(words)
                seat, text = acting, rng.choice([a for a in legal if a.split()[0] == word])
            table.act(seat, text)
            entry = table.log_entries(table.version - 1)
            assert len(entry) == 1
            visible = public_cards(table.view(None))
            leaked = cards_in(entry[0]) - visible
            assert not leaked, (seed, text, entry[0], leaked)
            if text.startswith(("give", "return")):
                exchanges += 1
                assert entry[0]["action"] in ("give", "return")
        assert len(table.log_entries()) == table.version
    return exchanges


def test_the_doppelkopf_log_never_names_a_hidden_card() -> None:
    # Few trumps are common enough in random deals: the Armut is offered and exchanged.
    exchanges = random_games("doppelkopf", {"preset": "house", "games": 4}, range(40), 400)
    assert exchanges > 0, "no Armut exchange was played: the test saw no hidden cards"


def test_the_slobberhannes_log_never_names_a_hidden_card() -> None:
    random_games("slobberhannes", {"preset": "russian", "target": 6}, range(10), 300)


# -- storage ---------------------------------------------------------------------------


def test_an_old_database_without_who_made_each_action_is_upgraded(tmp_path: Path) -> None:
    upgrade_an_old_database(sqlite_url(tmp_path))


def test_an_old_postgresql_database_is_upgraded() -> None:
    with postgres_schema() as url:
        upgrade_an_old_database(url)


def upgrade_an_old_database(url: str) -> None:
    """A database of the first schema, with an action, upgraded to the newest."""
    old = TableStore(url)
    engine = old.engine
    migrate(engine, "0001")  # the schema before ``made_by``
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO tables (id, game, options, settings, seats, seed, status, created,"
                " updated) VALUES ('old', 'slobberhannes', '{\"players\": 3}', '{}', '[]', 5,"
                " 'playing', '2026-11-01 10:00:00', '2026-11-01 10:00:00')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO table_actions (table_id, seq, seat, action, created)"
                " VALUES ('old', 1, 0, 'QC', '2026-11-01 10:00:01')"
            )
        )
    old.close()
    store = TableStore(url)
    store.migrate()
    columns = {c["name"] for c in inspect(store.engine).get_columns("table_actions")}
    assert "made_by" in columns
    store.append_action("old", 2, 1, "KC", by="standin")
    store.append_action("old", 3, 2, "AC", by="timer")
    loaded = store.load("old")
    assert loaded is not None
    assert loaded.actions == [(0, "QC"), (1, "KC"), (2, "AC")]
    assert loaded.by == ["person", "standin", "timer"]
    with pytest.raises(ValueError, match="person, bot, standin, timer, auto"):
        store.append_action("old", 4, 0, "9C", by="robot")
    store.close()


# -- the record ------------------------------------------------------------------------


def test_the_record_says_who_made_each_action_and_old_records_still_replay(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app(ready=0)  # the next deal starts at once
    with TestClient(app) as client:
        created = new_table(client, SEATS, options={"target": 10})
        table = app.state.manager.get(created["id"])
        log = ClientLog()
        with client.websocket_connect(f"/ws/tables/{created['id']}") as ws:
            state = hello(ws, created["token"], log)
            # One whole deal (32 cards) and a little of the next.
            play_until(ws, log, state, 33)
        public = client.get(f"/api/tables/{created['id']}/record").json()
        complete = table.record(complete=True)
    spec = get_game("slobberhannes")
    # ``kartentisch replay`` reads it, and the same without ``by``: the same summary.
    path = tmp_path / "table.json"
    path.write_text(json.dumps(complete), encoding="utf-8")
    summary = cli_summary(path)
    for deal in complete["deals"]:
        deal["old"] = deal.pop("by")
    path.write_text(json.dumps(complete), encoding="utf-8")
    assert cli_summary(path) == summary
    for deal in complete["deals"]:
        deal["by"] = deal.pop("old")
    for record in (public, complete):
        assert record["deals"], record
        for deal in record["deals"]:
            assert len(deal["by"]) == len(deal["actions"])
        check_record(record)
        spec.replay(record)  # accepted with ``by``
        old = json.loads(json.dumps(record))
        for deal in old["deals"]:
            del deal["by"]
        spec.replay(old)  # and without it
    flat = [b for deal in complete["deals"] for b in deal["by"]]
    assert flat == table.by
    assert set(flat) == {"person", "bot"}
    bad = json.loads(json.dumps(complete))
    bad["deals"][0]["by"][0] = "robot"
    with pytest.raises(RecordError, match='field "by" in deal 1: entry 1 must be one of'):
        spec.replay(bad)
    bad["deals"][0]["by"] = ["person"]
    with pytest.raises(RecordError, match="must name who made each of the"):
        spec.replay(bad)


def test_a_doppelkopf_record_carries_who_made_each_action() -> None:
    kind = table_game_type("doppelkopf")
    options = kind.normalize_options({"preset": "ddv", "games": 1}, seats=4)
    game: Any = kind.create(options, ["A", "B", "C", "D"], 11)
    rng = random.Random(3)
    by: list[str] = []
    while not game.is_over:
        seat = game.acting[0]
        game.act(seat, rng.choice(game.legal(seat)))
        by.append("bot" if seat else "person")
    record = game.record(complete=True, by=by)
    assert [b for d in record["deals"] if "actions" in d for b in d["by"]] == by
    get_game("doppelkopf").replay(record)


# -- the protocol ------------------------------------------------------------------------


def test_hello_names_the_log_it_holds() -> None:
    assert parse_client_message('{"type": "hello", "log_epoch": "abc", "log_from": 12}') == Hello(
        None, None, "abc", 12
    )
    for bad in ('"log_from": -1', '"log_from": "3"', '"log_from": true', '"log_epoch": 5'):
        with pytest.raises(ProtocolError, match="log_"):
            parse_client_message('{"type": "hello", ' + bad + "}")


# -- the panel's texts -------------------------------------------------------------------


def test_every_text_the_log_can_show_is_in_every_language() -> None:
    from kartentisch.games.doppelkopf.actions import ANNOUNCEMENTS
    from kartentisch.games.doppelkopf.scoring_base import GAME_TYPES
    from kartentisch.games.slobberhannes.deal import REASONS
    from kartentisch.web.i18n import catalog

    source = (
        Path(__file__).parents[2] / "src" / "kartentisch" / "web" / "static" / "gamelog.js"
    ).read_text(encoding="utf-8")
    keys = set(re.findall(r"""\bt\(\s*["']([\w.]+)["']""", source))
    keys |= {f"log.rank.{r}" for r in "JQKA"}
    keys |= {f"log.augen.{form}" for form in ("one", "few", "many", "other")}
    keys |= {f"log.note.{n}" for n in ("standin_on", "standin_off", "paused", "resumed")}
    keys |= {f"log.by.{b}" for b in ("standin", "timer", "auto")}
    keys |= {f"reason.{r}" for r in REASONS}
    keys |= {f"dk.word.{w}" for w in ANNOUNCEMENTS}
    keys |= {f"dk.game.{g}" for g in GAME_TYPES}
    keys |= {f"dk.call.{c}" for c in ("pass", "vorbehalt", "armut", "redeal", "accept")}
    keys |= {f"dk.call.{c}" for c in ("refuse", "take_back", "hochzeit")}
    keys |= {f"dk.redeal.{r}" for r in ("kings", "armut_refused")}
    keys |= {f"dk.party.{p}" for p in ("re", "kontra")}
    assert len(keys) > 60
    english = catalog("en")
    for lang in ("de", "en", "ru"):
        messages = catalog(lang)
        assert keys <= set(messages), (lang, sorted(keys - set(messages)))
        if lang != "en":
            # Translated: the sentences of the log differ from the English ones.
            same = [k for k in keys if k.startswith("log.") and messages[k] == english[k]]
            assert set(same) <= {"log.says", "log.rank.K", "log.rank.A", "log.rank.J"}, same
    russian = catalog("ru")
    assert [
        russian[f"log.augen.{f}"].format(n=n) for f, n in (("one", 21), ("few", 3), ("many", 25))
    ] == [
        "21 очко",
        "3 очка",
        "25 очков",
    ]
