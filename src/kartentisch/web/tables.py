"""Live tables: the authoritative master of every game being played.

A :class:`LiveTable` holds one table's game (through its
:class:`~kartentisch.web.adapter.TableGame` adapter), its seats and its
connections. Every accepted action is stored before anyone hears of it, then
each connection is sent its own seat's view (spectators the public view).
A driver task per table plays the bots' turns, takes over for a player who
has been disconnected longer than the grace time, and plays for a player
whose turn timer ran out. The :class:`TableManager` creates, finds and
restores tables; after a restart every unfinished table is rebuilt from the
store by replaying its actions through the engine.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import random
import secrets
import time
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from kartentisch.bots import Bot, make_bot
from kartentisch.errors import IllegalActionError, KartentischError
from kartentisch.storage import StoredTable, TableStore
from kartentisch.web.adapter import TableGame, TableGameType, is_realtime, table_game_type
from kartentisch.web.i18n import refusal, translate
from kartentisch.web.protocol import (
    Act,
    ClientMessage,
    Hello,
    Ping,
    Pong,
    ProtocolError,
    Start,
    error_message,
)
from kartentisch.web.realtime import (
    MonotonicTableClock,
    RealtimeRunner,
    RealtimeSettings,
    TableClock,
)

__all__ = [
    "Connection",
    "LiveTable",
    "Seat",
    "ServerSettings",
    "TableError",
    "TableManager",
]

log = logging.getLogger("kartentisch.web")

BOT_NAMES: Final = ("Anna", "Ben", "Carla", "Dan", "Eva", "Felix", "Greta")
MAX_NAME_CHARS: Final = 24
#: A connection whose outgoing queue grows past this is too slow and is dropped.
MAX_QUEUED_MESSAGES: Final = 256


@dataclass
class ServerSettings:
    """How the server runs; tests set ``bot_delay`` to 0."""

    #: Seconds a bot waits before it acts (so people can follow the play).
    bot_delay: float = 0.8
    #: Seconds after a player's last connection closes before a bot plays for them;
    #: None: never.
    grace: float | None = 30.0
    #: Most tables waiting or playing at once (a table is small, but not free).
    max_live_tables: int = 1000
    #: Real-time tables (Slapjack, Irish Snap): referee window, automatic turns, pings.
    realtime: RealtimeSettings = field(default_factory=RealtimeSettings)
    #: The clock of real-time tables; tests inject a manual or a fast one.
    clock: TableClock = field(default_factory=MonotonicTableClock)


class TableError(KartentischError):
    """A lobby or table request that is refused; ``code`` keys its translated message."""

    def __init__(self, code: str, status: int = 400, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.status = status
        self.params = params

    def message(self, lang: str) -> str:
        return translate(lang, f"error.{self.code}", **self.params)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def clean_name(value: Any, fallback: str | None = None) -> str:
    """A display name: printable, single-spaced, at most 24 characters."""
    if value is None and fallback is not None:
        return fallback
    if not isinstance(value, str):
        raise TableError("bad_name")
    text = "".join(
        " " if ch.isspace() else ch
        for ch in value
        if ch.isspace() or not unicodedata.category(ch).startswith("C")
    )
    text = " ".join(text.split())[:MAX_NAME_CHARS]
    if not text:
        if fallback is not None:
            return fallback
        raise TableError("bad_name")
    return text


@dataclass
class Seat:
    """Who sits at a seat: nobody yet (``open``), a person (``human``) or a ``bot``."""

    kind: str
    name: str
    level: str | None = None
    token_hash: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "token_hash": self.token_hash,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Seat:
        return cls(
            kind=str(data.get("kind", "open")),
            name=str(data.get("name", "")),
            level=data.get("level"),
            token_hash=data.get("token_hash"),
        )


class Connection:
    """One WebSocket: its seat (None for a spectator), language and outgoing queue."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self.seat: int | None = None
        self.joined = False
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.dropped = False

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message``; the connection's writer sends it."""
        if self.dropped:
            return
        if self.queue.qsize() >= MAX_QUEUED_MESSAGES:
            self.close()
            return
        self.queue.put_nowait(message)

    def close(self) -> None:
        """Ask the writer to stop after what is queued."""
        if not self.dropped:
            self.dropped = True
            self.queue.put_nowait(None)

    def error(self, code: str, message: str, **extra: Any) -> None:
        self.send(error_message(code, message, **extra))


@dataclass
class _Plan:
    seat: int
    due: float
    version: int


class LiveTable:
    """One table: seats, the game, the connections and the driver of automatic turns."""

    def __init__(
        self,
        manager: TableManager,
        *,
        table_id: str,
        kind: TableGameType,
        options: dict[str, Any],
        settings: dict[str, Any],
        seats: list[Seat],
        seed: int,
        status: str,
    ) -> None:
        self.manager = manager
        self.id = table_id
        self.kind = kind
        self.options = options
        self.settings = settings
        self.seats = seats
        self.seed = seed
        self.status = status
        self.game: TableGame | None = None
        self.connections: set[Connection] = set()
        self.lock = asyncio.Lock()
        self._changed = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self._turn_started = _now()
        self._away_since: dict[int, float] = {}
        self._bots: dict[int, Bot] = {}
        #: The driver of a real-time game (None for turn-based games).
        self.runner: RealtimeRunner | None = None
        self.created = time.time()

    # -- facts ----------------------------------------------------------------

    @property
    def store(self) -> TableStore:
        return self.manager.store

    @property
    def version(self) -> int:
        return self.game.version if self.game is not None else 0

    @property
    def turn_seconds(self) -> float | None:
        value = self.settings.get("turn_seconds")
        return float(value) if value else None

    def seat_of_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for i, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return i
        return None

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)

    def bot_playing_for(self, seat: int) -> bool:
        """Whether a bot plays ``seat`` now: a bot seat, or a person away past the grace time."""
        info = self.seats[seat]
        if info.kind == "bot":
            return True
        grace = self.manager.settings.grace
        if info.kind != "human" or grace is None or self.connected(seat):
            return False
        since = self._away_since.get(seat)
        return since is not None and _now() >= since + grace

    def open_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "open"]

    def summary(self, you: int | None = None) -> dict[str, Any]:
        """The public facts of the table, for the lobby and every state message."""
        deadline = self._deadline()
        return {
            "id": self.id,
            "game": self.kind.name,
            "titles": dict(self.kind.titles),
            "status": self.status,
            "version": self.version,
            "options": self.options,
            "turn_seconds": self.turn_seconds,
            "you": you,
            "seats": [
                {
                    "name": s.name,
                    "kind": s.kind,
                    "level": s.level,
                    "connected": self.connected(i),
                    "bot_playing": self.status == "playing" and self.bot_playing_for(i),
                }
                for i, s in enumerate(self.seats)
            ],
            "open_seats": self.open_seats(),
            "turn_deadline": deadline,
            "spectators": sum(1 for c in self.connections if c.seat is None),
        }

    def state_message(self, seat: int | None) -> dict[str, Any]:
        view = self.game.view(seat) if self.game is not None else None
        message = {
            "type": "state",
            "version": self.version,
            "view": view,
            "table": self.summary(seat),
        }
        if self.runner is not None:
            message["live"] = self.runner.live(seat)
        return message

    def broadcast(self) -> None:
        """Send every joined connection its own seat's state."""
        cache: dict[int | None, dict[str, Any]] = {}
        for conn in list(self.connections):
            if conn.seat not in cache:
                cache[conn.seat] = self.state_message(conn.seat)
            conn.send(cache[conn.seat])
        if self.runner is not None:
            self.runner.notify()

    # -- lobby ----------------------------------------------------------------

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Take an open seat (the first if none is named); return it and its token."""
        async with self.lock:
            if self.status != "waiting":
                raise TableError("table_started", 409)
            open_seats = self.open_seats()
            if seat is None:
                if not open_seats:
                    raise TableError("no_open_seat", 409)
                seat = open_seats[0]
            elif not 0 <= seat < len(self.seats):
                raise TableError("no_such_seat", 400, seat=seat)
            elif seat not in open_seats:
                raise TableError("seat_taken", 409, seat=seat)
            token = secrets.token_urlsafe(24)
            self.seats[seat] = Seat("human", name, None, hash_token(token))
            self._away_since[seat] = _now()
            if not self.open_seats():
                await self._start_locked()
            else:
                self.store.update_table(self.id, seats=[s.to_json() for s in self.seats])
                self.broadcast()
            return seat, token

    async def start(self, token: str | None) -> None:
        """Start now (asked by a seated player): bots take the open seats."""
        async with self.lock:
            if token is None or self.seat_of_token(token) is None:
                raise TableError("bad_token", 403)
            if self.status != "waiting":
                raise TableError("table_started", 409)
            await self._start_locked()

    async def _start_locked(self) -> None:
        level = self.kind.default_bot_level
        for i in self.open_seats():
            self.seats[i] = Seat("bot", _bot_name(i, self.seats), level)
        self.game = self.kind.create(self.options, [s.name for s in self.seats], self.seed)
        self.status = "playing"
        self.store.update_table(
            self.id, seats=[s.to_json() for s in self.seats], status=self.status
        )
        self._turn_started = _now()
        self.start_driver()
        self.broadcast()

    # -- connections -----------------------------------------------------------

    async def handle(self, conn: Connection, message: ClientMessage) -> None:
        """Carry out one parsed client message."""
        if isinstance(message, Ping):
            conn.send({"type": "pong", "t": message.t})
            return
        if isinstance(message, Pong):
            if conn.joined and self.runner is not None:
                self.runner.pong(conn, message.nonce)
            return
        if isinstance(message, Hello):
            await self._hello(conn, message)
            return
        if not conn.joined:
            conn.error("hello_first", translate(conn.lang, "error.hello_first"))
            return
        if isinstance(message, Start):
            if conn.seat is None:
                conn.error("not_seated", translate(conn.lang, "error.not_seated"))
                return
            async with self.lock:
                if self.status != "waiting":
                    conn.error("table_started", translate(conn.lang, "error.table_started"))
                    return
                await self._start_locked()
            return
        if isinstance(message, Act):
            await self._act(conn, message)

    async def _hello(self, conn: Connection, hello: Hello) -> None:
        if hello.lang is not None:
            conn.lang = hello.lang
        seat: int | None = None
        if hello.token is not None:
            seat = self.seat_of_token(hello.token)
            if seat is None:
                # Refused, and nothing else changes: the connection may say hello again.
                conn.error("bad_token", translate(conn.lang, "error.bad_token"))
                return
        was_connected = conn.seat is not None and conn.joined
        old_seat = conn.seat
        conn.seat = seat
        conn.joined = True
        self.connections.add(conn)
        if seat is not None:
            self._away_since.pop(seat, None)
        if was_connected and old_seat is not None and old_seat != seat:
            self._left(old_seat)
        self._changed.set()
        self.broadcast()
        if self.runner is not None:
            self.runner.joined(conn)

    def detach(self, conn: Connection) -> None:
        """A connection closed: the seat stays reserved; a bot may take over after the grace."""
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        conn.close()
        if conn.seat is not None:
            self._left(conn.seat)
        self._changed.set()
        self.broadcast()
        self._forget_if_finished()

    def _forget_if_finished(self) -> None:
        """A finished table that nobody watches leaves memory (``get`` reads it from the store)."""
        finished = self.status == "finished" and not self.connections
        if finished and self.manager.tables.get(self.id) is self:
            del self.manager.tables[self.id]

    def _left(self, seat: int) -> None:
        if not self.connected(seat):
            self._away_since[seat] = _now()

    async def _act(self, conn: Connection, act: Act) -> None:
        lang = conn.lang
        if conn.seat is None:
            conn.error("not_seated", translate(lang, "error.not_seated"))
            return
        async with self.lock:
            game = self.game
            if game is None:
                conn.error("not_started", translate(lang, "error.not_started"))
                return
            if game.is_over:
                conn.error("table_over", translate(lang, "error.table_over"))
                return
            if self.runner is not None:
                # Real time: the version names the card the action was made on.
                self.runner.act(conn, act)
                return
            if act.version != game.version:
                conn.error(
                    "stale_version",
                    translate(lang, "error.stale_version", version=game.version),
                    version=game.version,
                )
                conn.send(self.state_message(conn.seat))
                return
            try:
                await self._apply(conn.seat, act.action)
            except IllegalActionError as exc:
                conn.error(exc.rule, refusal(exc, lang), version=game.version)
            except _StorageFailure:
                conn.error("storage_error", translate(lang, "error.storage_error"))

    async def _apply(self, seat: int, text: str) -> None:
        """Apply, store, then tell everyone; hold the lock while calling this."""
        game = self.game
        assert game is not None
        game.act(seat, text)
        stored_seat, stored_text = game.actions[-1]
        try:
            self.store.append_action(self.id, game.version, stored_seat, stored_text)
            if game.is_over:
                self.status = "finished"
                self.store.update_table(self.id, status=self.status)
        except Exception as exc:
            log.exception("table %s: cannot store action %d", self.id, game.version)
            # What is not stored did not happen: rebuild the game from what is.
            self._reload()
            self.broadcast()
            raise _StorageFailure() from exc
        self._turn_started = _now()
        self._changed.set()
        self.broadcast()
        self._forget_if_finished()

    def _reload(self) -> None:
        stored = self.store.load(self.id)
        if stored is None:
            raise KartentischError(f"table {self.id} is missing from the store")
        self.status = stored.status
        self.game = self.kind.replay(
            self.options, [s.name for s in self.seats], self.seed, stored.actions
        )

    # -- automatic turns --------------------------------------------------------

    def _deadline(self) -> float | None:
        """Wall-clock time (ms since the epoch) when the acting person's timer runs out."""
        turn = self.turn_seconds
        if turn is None or self.game is None or self.game.is_over or is_realtime(self.kind):
            return None
        if not any(self.seats[s].kind == "human" for s in self.game.acting):
            return None
        left = self._turn_started + turn - _now()
        return round((time.time() + max(0.0, left)) * 1000)

    def _due(self, seat: int) -> float | None:
        info = self.seats[seat]
        base = self._turn_started
        delay = self.manager.settings.bot_delay
        if info.kind == "bot":
            return base + delay
        candidates: list[float] = []
        grace = self.manager.settings.grace
        if grace is not None and not self.connected(seat):
            away = self._away_since.get(seat, base)
            candidates.append(max(away + grace, base + delay))
        if self.turn_seconds is not None:
            candidates.append(base + self.turn_seconds)
        return min(candidates) if candidates else None

    def _plan(self) -> _Plan | None:
        game = self.game
        if game is None or game.is_over:
            return None
        best: _Plan | None = None
        for seat in game.acting:
            due = self._due(seat)
            if due is not None and (best is None or due < best.due):
                best = _Plan(seat, due, game.version)
        return best

    def _still(self, plan: _Plan) -> bool:
        """Whether ``plan`` is still what should happen now."""
        now = self._plan()
        return (
            now is not None
            and (now.seat, now.version) == (plan.seat, plan.version)
            and now.due <= _now()
        )

    def _bot(self, seat: int) -> Bot:
        bot = self._bots.get(seat)
        if bot is None:
            level = self.seats[seat].level or self.kind.default_bot_level
            bot = make_bot(self.kind.name, level, random.Random(self.seed * 31 + seat))
            self._bots[seat] = bot
        return bot

    def start_driver(self) -> None:
        if is_realtime(self.kind):
            if self.game is None or self.game.is_over:
                return
            if self.runner is None or not self.runner.running:
                settings = self.manager.settings
                self.runner = RealtimeRunner(self, settings.realtime, settings.clock)
                self.runner.start()
            return
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(
                self._drive(), name=f"table-{self.id}"
            )

    async def stop_driver(self) -> None:
        if self.runner is not None:
            await self.runner.stop()
        task, self._driver = self._driver, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _drive(self) -> None:
        try:
            while True:
                self._changed.clear()
                plan = self._plan()
                if plan is None:
                    if self.game is None or self.game.is_over:
                        return
                    await self._changed.wait()
                    continue
                wait = plan.due - _now()
                if wait > 0:
                    try:
                        await asyncio.wait_for(self._changed.wait(), wait)
                        continue
                    except TimeoutError:
                        pass
                else:
                    await asyncio.sleep(0)
                if not self._still(plan):
                    continue
                assert self.game is not None
                observation = self.game.observation(plan.seat)
                bot = self._bot(plan.seat)
                # A bot may think for a while: in a worker thread, on an immutable snapshot.
                choice = await asyncio.to_thread(bot.choose, observation)
                async with self.lock:
                    if not self._still(plan):
                        continue  # a person acted (or came back) meanwhile
                    try:
                        await self._apply(plan.seat, self.game.format_action(choice))
                    except _StorageFailure:
                        await asyncio.sleep(1.0)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the driver stopped", self.id)


class _StorageFailure(Exception):
    pass


def _now() -> float:
    return time.monotonic()


def _bot_name(seat: int, seats: Sequence[Seat]) -> str:
    taken = {s.name for s in seats}
    for name in (BOT_NAMES[seat % len(BOT_NAMES)], *BOT_NAMES):
        if name not in taken:
            return name
    return f"Bot {seat + 1}"


@dataclass
class SeatRequest:
    """One seat as the lobby asks for it: ``you``, ``open`` or ``bot`` (with a level)."""

    kind: str
    level: str | None = None


@dataclass
class NewTable:
    """A checked lobby request."""

    kind: TableGameType
    options: dict[str, Any]
    seats: list[SeatRequest]
    name: str | None
    turn_seconds: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def parse_new_table(body: Any) -> NewTable:
    """Check the JSON body of ``POST /api/tables``; raise TableError naming the problem."""
    if not isinstance(body, dict):
        raise TableError("bad_request", detail="the body must be a JSON object")
    game = body.get("game")
    if not isinstance(game, str):
        raise TableError("unknown_game", game=str(game))
    try:
        kind = table_game_type(game)
    except KartentischError:
        raise TableError("unknown_game", game=game[:40]) from None
    raw_seats = body.get("seats")
    if raw_seats is None:
        # You and three bots (as many as the game needs, as few as it allows).
        bots = max(kind.min_seats, min(kind.max_seats, 4)) - 1
        raw_seats = [{"kind": "you"}] + [{"kind": "bot"}] * bots
    if not isinstance(raw_seats, list) or not kind.min_seats <= len(raw_seats) <= kind.max_seats:
        raise TableError("bad_seats", low=kind.min_seats, high=kind.max_seats)
    seats: list[SeatRequest] = []
    for item in raw_seats:
        if not isinstance(item, dict) or item.get("kind") not in ("you", "open", "bot"):
            raise TableError("bad_seats", low=kind.min_seats, high=kind.max_seats)
        level = item.get("level")
        if item["kind"] == "bot":
            level = level if level is not None else kind.default_bot_level
            if level not in kind.bot_levels:
                raise TableError("bad_level", level=str(level)[:40])
        seats.append(SeatRequest(item["kind"], level if item["kind"] == "bot" else None))
    if sum(1 for s in seats if s.kind == "you") > 1:
        raise TableError("bad_seats", low=kind.min_seats, high=kind.max_seats)
    name = None
    if any(s.kind == "you" for s in seats):
        name = clean_name(body.get("name"))
    try:
        options = kind.normalize_options(body.get("options"), seats=len(seats))
    except KartentischError as exc:
        raise TableError("bad_options", detail=str(exc)) from None
    turn = body.get("turn_seconds")
    if turn is not None and (
        not isinstance(turn, int) or isinstance(turn, bool) or not 5 <= turn <= 3600
    ):
        raise TableError("bad_turn_seconds")
    return NewTable(kind, options, seats, name, turn)


class TableManager:
    """All live tables of one server, backed by the store."""

    def __init__(self, store: TableStore, settings: ServerSettings | None = None) -> None:
        self.store = store
        self.settings = settings or ServerSettings()
        self.tables: dict[str, LiveTable] = {}

    async def restore(self) -> int:
        """Rebuild every unfinished table from the store; return how many."""
        count = 0
        for stored in self.store.unfinished():
            try:
                table = self._from_stored(stored)
            except Exception:
                log.exception("table %s cannot be restored", stored.id)
                continue
            self.tables[table.id] = table
            if table.status == "playing":
                table.start_driver()
            count += 1
        return count

    def _from_stored(self, stored: StoredTable) -> LiveTable:
        kind = table_game_type(stored.game)
        table = LiveTable(
            self,
            table_id=stored.id,
            kind=kind,
            options=stored.options,
            settings=stored.settings,
            seats=[Seat.from_json(s) for s in stored.seats],
            seed=stored.seed,
            status=stored.status,
        )
        if stored.status in ("playing", "finished"):
            names = [s.name for s in table.seats]
            table.game = kind.replay(stored.options, names, stored.seed, stored.actions)
        now = _now()
        # Nobody is connected after a restart: the grace time starts now.
        for i, seat in enumerate(table.seats):
            if seat.kind == "human":
                table._away_since[i] = now
        return table

    def get(self, table_id: str) -> LiveTable | None:
        """A live table, or a finished one loaded from the store (for its review)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if len(table_id) > 32:
            return None
        stored = self.store.load(table_id)
        if stored is None:
            return None
        table = self._from_stored(stored)
        if table.status == "finished":
            return table  # nothing changes any more: not kept in memory (see _forget_if_finished)
        self.tables[table.id] = table
        if table.status == "playing":
            table.start_driver()
        return table

    def live(self) -> list[LiveTable]:
        return [t for t in self.tables.values() if t.status in ("waiting", "playing")]

    async def create(self, request: NewTable) -> tuple[LiveTable, int | None, str | None]:
        """Open a new table; return it with the creator's seat and token (if seated)."""
        if len(self.live()) >= self.settings.max_live_tables:
            raise TableError("too_many_tables", 503)
        table_id = secrets.token_urlsafe(6)
        while table_id in self.tables:
            table_id = secrets.token_urlsafe(6)
        seats: list[Seat] = []
        you: int | None = None
        token: str | None = None
        for i, wanted in enumerate(request.seats):
            if wanted.kind == "you":
                assert request.name is not None
                token = secrets.token_urlsafe(24)
                seats.append(Seat("human", request.name, None, hash_token(token)))
                you = i
            elif wanted.kind == "open":
                seats.append(Seat("open", ""))
            else:
                seats.append(Seat("bot", "", wanted.level))
        for i, seat in enumerate(seats):
            if seat.kind == "bot":
                seat.name = _bot_name(i, seats)
        settings: dict[str, Any] = {}
        if request.turn_seconds is not None and not is_realtime(request.kind):
            settings["turn_seconds"] = request.turn_seconds
        table = LiveTable(
            self,
            table_id=table_id,
            kind=request.kind,
            options=request.options,
            settings=settings,
            seats=seats,
            seed=secrets.randbits(62),
            status="waiting",
        )
        self.store.create_table(
            table_id,
            request.kind.name,
            request.options,
            settings,
            [s.to_json() for s in seats],
            table.seed,
        )
        self.tables[table_id] = table
        if you is not None:
            table._away_since[you] = _now()
        if not table.open_seats():
            async with table.lock:
                await table._start_locked()
        return table, you, token

    async def close(self) -> None:
        """Stop every driver and close every connection (server shutdown)."""
        for table in list(self.tables.values()):
            await table.stop_driver()
            for conn in list(table.connections):
                conn.close()


def handle_protocol_error(conn: Connection, error: ProtocolError) -> None:
    conn.error(
        error.code,
        translate(conn.lang, f"error.{error.code}", detail=error.detail, **error.params),
    )
