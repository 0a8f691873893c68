"""Hidden information: no connection ever receives a card the rules keep from it.

Complete games of every game type are played over the WebSocket while every
connection's messages are recorded: all seats are people at the turn-based
tables (so each seat's messages are seen; their policies steer Doppelkopf
into a normal game, a solo ouvert, an Armut exchange and a Hochzeit), one
person and two bots at the real-time tables, and a spectator everywhere.

Afterwards each message is compared with the truth: the game replayed
through the engine from the stored actions up to the message's version.
From that true state the test computes the cards hidden from the receiver:

* **Slobberhannes, Doppelkopf**: the cards in the other seats' hands, less
  what the rules have revealed to the receiver (an ouvert soloist's hand once
  play begins; the Armut cards to the two who exchanged them) and less the
  receiver's own cards (Doppelkopf has two of each card). A spectator's
  hidden cards are every hand's.
* **Slapjack, Irish Snap**: every card in any face-down stack that has never
  been turned face up, the receiver's own stack included.

No hidden card may appear anywhere in the message, except in what is public
history (finished deals, the previous deal's last trick), and that history
must equal the truth exactly. The seat's own hand must be exactly its true
hand. The lobby's summary and the record download are checked mid-game too.
"""

from __future__ import annotations

import json
import queue
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from kartentisch.games.irish_snap.engine import IrishSnapGame
from kartentisch.games.slapjack.engine import SlapjackGame
from kartentisch.web.adapter import TableGame, table_game_type
from kartentisch.web.app import create_app
from kartentisch.web.games.doppelkopf import DoppelkopfTable
from kartentisch.web.games.slapjack import SlapTable
from kartentisch.web.games.slobberhannes import SlobberhannesTable
from kartentisch.web.protocol import Limits
from kartentisch.web.realtime import MonotonicTableClock
from kartentisch.web.tables import ServerSettings

from .test_slapjack import _short_seed, build_app, open_table

#: A card code as the views write it; not inside a longer word (a table id, a name).
CARD = re.compile(r"(?<![\w-])(?:10|[2-9JQKA])[CSHD](?![\w-])")
NAMES = ["Ann", "Bob", "Cyd", "Dora"]
EVERY_CARD = [f"{rank}{suit}" for rank in (*"23456789", "10", *"JQKA") for suit in "CSHD"]

Policy = Callable[[dict[str, Any]], str]
Seen = list[tuple[int | None, dict[str, Any]]]


def seed_in(value: Any, seed: int) -> bool:
    """Whether the table's seed (62 random bits, the key to every deal) is in ``value``:
    under a key named ``seed``, or (for a seed too long to turn up by chance) anywhere."""
    text = json.dumps(value)
    if seed >= 10**9 and re.search(rf"(?<!\d){seed}(?!\d)", text):
        return True
    return '"seed":' in text


def codes(value: Any) -> set[str]:
    return set(CARD.findall(json.dumps(value, ensure_ascii=False)))


class Recorder:
    """Every message one connection receives, collected by a thread."""

    def __init__(self, ws: Any, who: int | None) -> None:
        self.ws = ws
        self.who = who
        self.seen: list[dict[str, Any]] = []
        self._queue: queue.Queue[dict[str, Any] | None] = queue.Queue()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while True:
            try:
                message = self.ws.receive_json()
            except Exception:
                self._queue.put(None)
                return
            self.seen.append(message)
            self._queue.put(message)

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def until(self, test: Callable[[dict[str, Any]], bool], timeout: float = 10) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            message = self._queue.get(timeout=max(0.01, end - time.monotonic()))
            assert message is not None, "the connection closed"
            assert message["type"] != "error", message
            if test(message):
                return message


# -- the truth ------------------------------------------------------------------------


class Truth:
    """The game replayed from the stored actions, at any version."""

    def __init__(self, client: TestClient, table_id: str) -> None:
        table = client.app.state.manager.get(table_id)  # type: ignore[attr-defined]
        self.kind = table.kind
        self.options = table.options
        self.names = [s.name for s in table.seats]
        self.seed = table.seed
        stored = client.app.state.manager.store.load(table_id)  # type: ignore[attr-defined]
        self.actions = list(stored.actions)
        self._cache: dict[int, TableGame] = {}

    def at(self, version: int) -> TableGame:
        if version not in self._cache:
            actions = self.actions[:version]
            self._cache[version] = self.kind.replay(self.options, self.names, self.seed, actions)
        return self._cache[version]


def hidden_at_a_card_table(game: TableGame, who: int | None) -> set[str]:
    """The cards ``who`` may not know (None: a spectator), from the true hands."""
    if isinstance(game, DoppelkopfTable):
        deal = game.match.deal
        hands = {s: {str(c) for c in deal.hand(s)} for s in range(deal.num_seats)}
        known: set[str] = set()
        if deal.ouvert and deal.phase in ("play", "done") and deal.soloist is not None:
            known |= hands[deal.soloist]  # the open hand is on the table for everyone
        if who is not None and who in (deal.armut_by, deal.armut_partner):
            known |= {str(c) for c in (*deal.armut_given, *deal.armut_returned)}
    else:
        assert isinstance(game, SlobberhannesTable)
        if waiting_for_the_cut(game):
            return set(EVERY_CARD)  # the deck lies face down: no card may show
        sdeal = game.match.deal
        players = game.match.options.players
        hands = {s: {str(c) for c in sdeal.hand(s)} for s in range(players)}
        known = set()
    if who is not None:
        known |= hands[who]
    others = set().union(*(cards for seat, cards in hands.items() if seat != who))
    return others - known


def waiting_for_the_cut(game: SlobberhannesTable) -> bool:
    """Whether the next deal waits for its cut (the Russian preset): no hand is dealt."""
    return not game.match.deals or game.cutter is not None


def check_card_table_message(message: dict[str, Any], game: TableGame, who: int | None) -> None:
    """``message`` (to ``who``) shows no hidden card; its history is the true history."""
    hidden = hidden_at_a_card_table(game, who)
    view = message.get("view")
    current = dict(message)
    if "log" in current:
        check_log(current.pop("log"), game)
    if view is not None:
        if who is None:
            assert view["hand"] is None and view["legal"] == []
        else:
            assert isinstance(game, DoppelkopfTable | SlobberhannesTable)
            if isinstance(game, SlobberhannesTable) and waiting_for_the_cut(game):
                assert view["hand"] == []
            else:
                own = game.match.deal.hand(who)
                assert sorted(view["hand"]) == sorted(str(c) for c in own)
        history = {k: view[k] for k in ("deals", "last_trick", "trumps", "draw") if k in view}
        current["view"] = {k: v for k, v in view.items() if k not in history}
        check_history(history, game)
        if isinstance(game, DoppelkopfTable):
            # Two of every card: a card played may still be in another hand. The fields
            # that show cards must equal the truth; the rest is scanned as usual.
            shown = check_doppelkopf_cards(view, game, who)
            current["view"] = {k: v for k, v in current["view"].items() if k not in shown}
    leaked = codes(current) & hidden
    assert not leaked, f"{sorted(leaked)} reached seat {who} at version {game.version}"


def check_log(log: dict[str, Any], game: TableGame) -> None:
    """The game log names only cards played in the open: each entry the card its
    action played (a card taken back: one its seat had played), nothing else."""
    actions = game.actions
    for entry in log["entries"]:
        if "note" in entry:
            assert codes(entry) == set(), entry
            continue
        seat, text = actions[entry["v"] - 1]
        assert entry["seat"] == seat
        allowed = {text} if CARD.fullmatch(text) else set()
        for event in entry["events"]:
            if event["type"] == "card_taken_back":
                assert (seat, event["card"]) in actions[: entry["v"] - 1]
                allowed.add(event["card"])
        assert codes(entry) <= allowed, entry


def check_doppelkopf_cards(
    view: dict[str, Any], game: DoppelkopfTable, who: int | None
) -> set[str]:
    """The Doppelkopf fields that show cards hold exactly what the rules show ``who``."""
    deal = game.match.deal
    play = deal.trick_play
    trick = play.trick.freeze().to_dict() if play is not None else None
    if trick is not None:
        assert view["trick"] == trick
    else:
        assert view["trick"]["cards"] == []
    assert view["tricks"] == [t.to_dict() for t in deal.tricks]
    if deal.ouvert and deal.phase in ("play", "done") and deal.soloist is not None:
        assert view["open_hand"] == [str(c) for c in deal.hand(deal.soloist)]
    else:
        assert view["open_hand"] == []
    armut = view["armut"]
    if armut is not None:
        pair = who is not None and who in (deal.armut_by, deal.armut_partner)
        given = sorted(str(c) for c in deal.armut_given) if pair else []
        returned = sorted(str(c) for c in deal.armut_returned) if pair else []
        assert sorted(armut["cards"]) == given and sorted(armut["returned"]) == returned
        assert codes({k: v for k, v in armut.items() if k not in ("cards", "returned")}) == set()
    own = Counter(str(c) for c in deal.hand(who)) if who is not None else Counter()
    for action in view["legal"]:
        assert Counter(CARD.findall(action)) <= own, action
    return {"trick", "tricks", "open_hand", "armut", "legal", "hand"}


def check_history(history: dict[str, Any], game: TableGame) -> None:
    """Finished deals hold exactly the cards that were played in them; nothing else."""
    match = game.match  # type: ignore[attr-defined]
    finished = [d for d in match.deals if d.is_over]
    deals = history.get("deals", [])
    assert len(deals) == len(finished)
    for shown, deal in zip(deals, finished, strict=True):
        assert shown.get("tricks", []) == [t.to_dict() for t in deal.tricks]
        assert codes({k: v for k, v in shown.items() if k != "tricks"}) == set()
    played = [t.to_dict() for d in match.deals for t in d.tricks]
    last = history.get("last_trick")
    assert last is None or last in played
    if "draw" in history:  # the Russian draw for the lead: cards shown face up, then shuffled
        assert isinstance(game, SlobberhannesTable) and game.match.draw is not None
        assert history["draw"] == game.match.draw.to_dict()
    if "trumps" in history:  # which cards are trumps: a rule, nobody's hand
        assert isinstance(game, DoppelkopfTable)
        assert all(CARD.fullmatch(card) for card in history["trumps"])


# -- turn-based games ---------------------------------------------------------------------


def play_card_table(
    tmp_path: Path, game: str, seed: int, options: dict[str, Any], policy: Policy
) -> tuple[Seen, Truth, list[dict[str, Any]]]:
    """A complete game of four people (all steered by ``policy``) and a spectator."""
    settings = ServerSettings(bot_delay=0, grace=None)
    app = create_app(None, data_dir=tmp_path, settings=settings, limits=Limits.unlimited())
    records: list[dict[str, Any]] = []
    with TestClient(app) as client, ExitStack() as stack:
        seats = [{"kind": "you"}, *[{"kind": "open"}] * 3]
        body = {"game": game, "name": NAMES[0], "seats": seats, "options": options}
        response = client.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        created = response.json()
        table = client.app.state.manager.get(created["id"])  # type: ignore[attr-defined]
        _set_seed(client, table, seed)
        tokens = [created["token"]]
        for name in NAMES[1:]:
            joined = client.post(f"/api/tables/{table.id}/join", json={"name": name}).json()
            tokens.append(joined["token"])
        url = f"/ws/tables/{table.id}"
        people = []
        for seat, token in enumerate(tokens):
            person = Recorder(stack.enter_context(client.websocket_connect(url)), seat)
            person.send({"type": "hello", "token": token})
            people.append(person)
        spectator = Recorder(stack.enter_context(client.websocket_connect(url)), None)
        spectator.send({"type": "hello"})
        everyone = [*people, spectator]
        # Wait until everyone has heard every hello.
        latest = [r.until(everybody_there) for r in everyone]
        actions = 0
        while not latest[0]["view"]["over"]:
            version = latest[0]["version"]
            if latest[0]["table"]["between_deals"] is not None:
                # Between deals: everyone says "next" (the summary shows nothing hidden either).
                for person in people:
                    person.send({"type": "ready", "version": version})
                for r in everyone:
                    state = r.until(next_deal)
                    if r.who is not None:
                        latest[r.who] = state
                continue
            mover = latest[0]["view"]["to_move"]
            action = policy(latest[mover]["view"])
            people[mover].send({"type": "act", "action": action, "version": version})
            newer = newer_than(version)
            for r in everyone:
                state = r.until(newer)
                if r.who is not None:
                    latest[r.who] = state
            actions += 1
            if actions == 20:  # mid-game: the lobby and the record show nothing hidden
                records.append(client.get(f"/api/tables/{table.id}").json())
                records.append(client.get(f"/api/tables/{table.id}/record").json())
            assert actions < 2000
        truth = Truth(client, table.id)
    seen: Seen = [(r.who, m) for r in everyone for m in r.seen]
    return seen, truth, records


def newer_than(version: int) -> Callable[[dict[str, Any]], bool]:
    def test(message: dict[str, Any]) -> bool:
        return message["type"] == "state" and int(message["version"]) > version

    return test


def next_deal(message: dict[str, Any]) -> bool:
    return message["type"] == "state" and message["table"]["between_deals"] is None


def everybody_there(message: dict[str, Any]) -> bool:
    """Every seat is connected (a spectator's hello is answered to it alone: the others
    may not have heard of it yet)."""
    table = message["table"] if message["type"] == "state" else None
    return table is not None and all(seat["connected"] for seat in table["seats"])


def _set_seed(client: TestClient, table: Any, seed: int) -> None:
    from sqlalchemy import update

    from kartentisch.storage.models import TableRow

    table.seed = seed
    manager = client.app.state.manager  # type: ignore[attr-defined]
    with manager.store.engine.begin() as connection:
        connection.execute(update(TableRow).where(TableRow.id == table.id).values(seed=seed))


def first_card(view: dict[str, Any]) -> str:
    legal: list[str] = view["legal"]
    cards = [a for a in legal if CARD.fullmatch(a)]
    return cards[0] if cards else legal[0]


def cut_then_card(view: dict[str, Any]) -> str:
    """Cut the deck in the middle when asked (the Russian preset), else the first card."""
    cut = view.get("cut")
    if cut is not None and cut.get("seat") == view["seat"]:
        return f"cut {(cut['max'] + 1) // 2}"
    return first_card(view)


def offered(view: dict[str, Any]) -> list[str]:
    """The reservations the seat's one declaration question offers (none: not asked)."""
    question = view.get("question")
    return list(question["reservations"]) if question else []


def healthy(view: dict[str, Any]) -> str:
    """Gesund (once a deal), then the first legal card; Re or Kontra at the first chance."""
    legal = view["legal"]
    for word in ("re", "kontra"):
        if word in legal and not any(a["seat"] == view["seat"] for a in view["announcements"]):
            return word
    if view.get("question"):
        return "gesund"
    return "pass" if "pass" in legal else first_card(view)


def ouvert(view: dict[str, Any]) -> str:
    return "vorbehalt solo trump ouvert" if "solo trump ouvert" in offered(view) else healthy(view)


def poor(view: dict[str, Any]) -> str:
    if "armut" in offered(view):
        return "vorbehalt armut"
    return "accept" if "accept" in view["legal"] else healthy(view)


def marriage(view: dict[str, Any]) -> str:
    wedding = [a for a in offered(view) if a.startswith("hochzeit")]
    return f"vorbehalt {wedding[0]}" if wedding else healthy(view)


def _dealt(seed: int) -> list[list[str]]:
    kind = table_game_type("doppelkopf")
    game = kind.create(kind.normalize_options({"games": 1}, seats=4), NAMES, seed)
    return [game.view(s)["hand"] for s in range(4)]


def _seed_where(test: Callable[[list[list[str]]], bool]) -> int:
    return next(seed for seed in range(500) if test(_dealt(seed)))


def _trumps(seed: int) -> set[str]:
    kind = table_game_type("doppelkopf")
    game = kind.create(kind.normalize_options({"games": 1}, seats=4), NAMES, seed)
    return set(game.view(0)["trumps"])


def _poor_seed() -> int:
    for seed in range(500):
        trumps = _trumps(seed)
        hands = _dealt(seed)
        if any(sum(c in trumps for c in hand) <= 3 for hand in hands) and not any(
            hand.count("QC") == 2 for hand in hands
        ):
            return seed
    raise AssertionError("no seed deals an Armut")


SCENARIOS: dict[str, tuple[str, int | None, dict[str, Any], Policy]] = {
    "slobberhannes": ("slobberhannes", 3, {"target": 4}, first_card),
    "slobberhannes-cut": ("slobberhannes", 5, {"preset": "russian", "target": 3}, cut_then_card),
    "doppelkopf-normal": ("doppelkopf", 0, {"games": 1}, healthy),
    "doppelkopf-solo-ouvert": ("doppelkopf", 1, {"games": 1}, ouvert),
    "doppelkopf-armut": ("doppelkopf", None, {"games": 1}, poor),
    "doppelkopf-hochzeit": ("doppelkopf", None, {"games": 1}, marriage),
}


def _scenario_seed(name: str) -> int:
    if name == "doppelkopf-armut":
        return _poor_seed()
    if name == "doppelkopf-hochzeit":
        return _seed_where(lambda hands: any(h.count("QC") == 2 for h in hands))
    seed = SCENARIOS[name][1]
    assert seed is not None
    return seed


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_no_seat_and_no_spectator_sees_a_hidden_card(tmp_path: Path, scenario: str) -> None:
    game, _, options, policy = SCENARIOS[scenario]
    seen, truth, records = play_card_table(
        tmp_path, game, _scenario_seed(scenario), options, policy
    )
    final = truth.at(len(truth.actions))
    assert final.is_over
    checked = 0
    for who, message in seen:
        version = message.get("version")
        if version is None:
            assert message["type"] == "pong" or codes(message) == set(), message
            continue
        check_card_table_message(message, truth.at(version), who)
        checked += 1
    # Every connection saw every version sent: all but those the table went past at once,
    # answering a declaration round for a person (the state after it was sent instead).
    sent = {m["version"] for _, m in seen if m.get("version") is not None}
    assert checked > 5 * len(sent) and len(sent) > len(truth.actions) // 2
    # Mid-game, the lobby and the record hold only what is public: not even the seed,
    # from which every hand could be dealt again.
    summary, record = records
    middle = truth.at(summary["table"]["version"])
    assert codes(summary) == set()
    assert not seed_in(summary, truth.seed) and not seed_in(record, truth.seed)
    assert not any(seed_in(message, truth.seed) for _, message in seen)
    assert len(record["deals"]) == len([d for d in middle.match.deals if d.is_over])  # type: ignore[attr-defined]
    # The scenario happened: the solo was ouvert, the Armut exchanged, the Hochzeit held.
    views = [m["view"] for _, m in seen if m.get("type") == "state" and m["view"]]
    if scenario == "doppelkopf-solo-ouvert":
        assert any(v["open_hand"] for v in views)
    if scenario == "doppelkopf-armut":
        assert any(v["armut"] and v["armut"]["cards"] for v in views)
    if scenario == "doppelkopf-hochzeit":
        assert any(v["hochzeit"] for v in views)
    if scenario.startswith("slobberhannes"):
        assert views[-1]["over"] and views[-1]["deal_number"] >= 1
    if scenario == "slobberhannes-cut":
        assert any(a.startswith("cut ") for _, a in truth.actions)


def test_the_check_finds_a_leak() -> None:
    kind = table_game_type("slobberhannes")
    game = kind.create(kind.normalize_options({}, seats=4), NAMES, 3)
    message: dict[str, Any] = {"type": "state", "version": 0, "view": game.view(0)}
    check_card_table_message(message, game, 0)
    other = sorted(hidden_at_a_card_table(game, 0))
    assert len(other) == 24 and not set(other) & set(message["view"]["hand"])
    leaky = json.loads(json.dumps(message))
    leaky["view"]["penalty_events"] = [{"card": other[0]}]
    with pytest.raises(AssertionError):
        check_card_table_message(leaky, game, 0)
    swapped = json.loads(json.dumps(message))
    swapped["view"]["hand"] = game.view(1)["hand"]
    with pytest.raises(AssertionError):
        check_card_table_message(swapped, game, 0)
    seat = game.acting[0]
    game.act(seat, game.legal(seat)[0])
    entry = {"v": 1, "seat": seat, "action": game.actions[0][1], "events": [], "by": "bot"}
    logged: dict[str, Any] = {"type": "state", "log": {"epoch": "e", "from": 0, "entries": [entry]}}
    check_card_table_message(logged, game, None)
    logged["log"]["entries"][0]["events"] = [{"type": "trick_won", "cards": [other[0]]}]
    with pytest.raises(AssertionError):
        check_card_table_message(logged, game, None)
    game = kind.create(kind.normalize_options({}, seats=4), NAMES, 3)
    public: dict[str, Any] = {"type": "state", "version": 0, "view": game.view(None)}
    check_card_table_message(public, game, None)
    public["view"]["last_trick"] = {"cards": message["view"]["hand"][:1]}
    with pytest.raises(AssertionError):
        check_card_table_message(public, game, None)


# -- real-time games ------------------------------------------------------------------------


def hidden_in_the_stacks(game: TableGame) -> set[str]:
    """Cards face down in any stack that have never been turned face up."""
    assert isinstance(game, SlapTable)
    engine = game.engine
    turned = {str(e.card) for e in engine.events if e.type == "card_turned"}  # type: ignore[attr-defined]
    stacked = {str(c) for seat in range(engine.num_seats) for c in engine.stack(seat)}
    return stacked - turned


@pytest.fixture
def fast(tmp_path: Path) -> Iterator[TestClient]:
    clock = MonotonicTableClock(speed=100)
    with TestClient(build_app(tmp_path, clock, ping_interval_ms=2000)) as client:
        yield client


@pytest.mark.parametrize(
    ("game", "engine"), [("slapjack", SlapjackGame), ("irish-snap", IrishSnapGame)]
)
def test_no_face_down_card_is_ever_sent(fast: TestClient, game: str, engine: Any) -> None:
    seats = [{"kind": "you"}, {"kind": "bot", "level": "hard"}, {"kind": "open"}]
    created, table = open_table(fast, game, seats, _short_seed(engine, 3))
    url = f"/ws/tables/{created['id']}"
    records: list[dict[str, Any]] = []
    with ExitStack() as stack:
        ann = Recorder(stack.enter_context(fast.websocket_connect(url)), 0)
        eve = Recorder(stack.enter_context(fast.websocket_connect(url)), None)
        ann.send({"type": "hello", "token": created["token"]})
        eve.send({"type": "hello"})
        ann.until(lambda m: m["type"] == "state")
        eve.until(lambda m: m["type"] == "state")
        fast.post(f"/api/tables/{table.id}/start", json={"token": created["token"]})
        end = time.monotonic() + 30
        while table.status != "finished" and time.monotonic() < end:
            time.sleep(0.01)
            version = table.version
            if version >= 10 and not records and table.status == "playing":
                record = fast.get(f"/api/tables/{table.id}/record").json()
                summary = fast.get(f"/api/tables/{table.id}").json()
                if table.status == "playing":  # (not if the game ended meanwhile)
                    records += [record, summary, {"version": len(record["actions"])}]
        assert table.status == "finished"
        assert records, "the game ended before a look at it in the middle"
        for recorder in (ann, eve):
            recorder.until(lambda m: m["type"] == "state" and bool((m["view"] or {}).get("over")))
        truth = Truth(fast, table.id)
    checked = 0
    for who, recorder in ((0, ann), (None, eve)):
        for message in recorder.seen:
            version = message.get("version")
            if version is None:  # a ping or a pong: no cards at all
                assert codes(message) == set(), message
                continue
            leaked = codes(message) & hidden_in_the_stacks(truth.at(version))
            assert not leaked, f"{sorted(leaked)} reached {who} at version {version}"
            checked += 1
    assert checked > 20
    # Mid-game: the record has no stacks, the lobby no cards.
    record, summary, at = records
    assert "hands" not in record
    assert not codes(record) & hidden_in_the_stacks(truth.at(at["version"]))
    assert not seed_in(record, truth.seed) and not seed_in(summary, truth.seed)
    assert not any(seed_in(m, truth.seed) for r in (ann, eve) for m in r.seen)
    assert codes(summary) == set()


@pytest.mark.parametrize("game", ["slobberhannes", "doppelkopf", "slapjack", "irish-snap"])
def test_the_seed_stays_secret_while_the_game_goes_on(tmp_path: Path, game: str) -> None:
    settings = ServerSettings(bot_delay=3600, grace=None)  # nobody moves
    with TestClient(create_app(None, data_dir=tmp_path, settings=settings)) as client:
        created = client.post("/api/tables", json={"game": game, "name": "Ann"}).json()
        table = client.app.state.manager.get(created["id"])  # type: ignore[attr-defined]
        seed = table.seed
        assert seed >= 10**9 or pytest.skip("a short seed by chance")
        # What the seed gives away: the same deal, every hand.
        again = table.kind.create(table.options, [s.name for s in table.seats], seed)
        assert json.dumps(again.view(1)) == json.dumps(table.game.view(1))
        texts = [
            client.get(f"/api/tables/{table.id}/record").text,
            client.get(f"/api/tables/{table.id}").text,
            client.get("/api/tables").text,
        ]
        with client.websocket_connect(f"/ws/tables/{table.id}") as ws:
            for token in (created["token"], None):
                ws.send_json({"type": "hello", "token": token})
                texts.append(json.dumps(ws.receive_json()))
        for text in texts:
            assert str(seed) not in text and '"seed"' not in text
