"""A live table: the authoritative master of one game being played.

A :class:`LiveTable` holds one table's game (through its
:class:`~kartentisch.web.adapter.TableGame` adapter), its seats and its
connections. Every accepted action is stored before anyone hears of it, then
each connection is sent its own seat's view (spectators the public view);
a hello that changes nothing the others see (a spectator's, a seat's second
connection's) is answered to that connection alone.
An action is queued with the store's writer, which commits it together with
the other tables' actions of the same turn of the event loop; until then the
table's lock is held and its state messages are held back.
A driver task per table plays the bots' turns, lets a stand-in bot play for a
person who has been away longer than the grace time while other people play
on, plays for a player whose turn timer ran out, pauses the table while its
people are away, and holds the next deal until every person present is ready
(docs/web.md, "Leaving and coming back" and "Between deals").

The table's parts live in modules of their own, each holding its own state:
its presence, pause and wait between deals (:mod:`~kartentisch.web.presence`),
the driver (:mod:`~kartentisch.web.driver`), the game log
(:mod:`~kartentisch.web.gamelog`), the chat (:mod:`~kartentisch.web.tablechat`),
the sending of state (:mod:`~kartentisch.web.sending`) and the storing of
changes (:mod:`~kartentisch.web.saving`). A part is handed the table at each
call and keeps no reference to it: a table that leaves memory is freed at once,
without waiting for the garbage collector.

Every action is stored with who made it (``by``), and a turn-based table keeps
the game log (:mod:`~kartentisch.web.gamelog`).

A table waiting for players (or, playing, for its first person) expires
(:mod:`~kartentisch.web.expiry`); a correspondence table tells whose move is
due (:mod:`~kartentisch.web.duemoves`); a seat may ask for a hint
(:mod:`~kartentisch.web.tablehints`).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any

from kartentisch.errors import KartentischError
from kartentisch.records import ACTORS
from kartentisch.storage import (
    TableStore,
)
from kartentisch.web import tablemessages
from kartentisch.web.adapter import TableGame, TableGameType, is_realtime
from kartentisch.web.driver import TableDriver
from kartentisch.web.duemoves import DueMoves
from kartentisch.web.expiry import TableExpiry
from kartentisch.web.gamelog import GameLog
from kartentisch.web.i18n import translate
from kartentisch.web.lobby import AWAY_POLICIES
from kartentisch.web.moments import epoch_ms as _epoch_ms
from kartentisch.web.moments import now as _now
from kartentisch.web.presence import Attendance
from kartentisch.web.protocol import (
    ClientMessage,
)
from kartentisch.web.realtime import (
    RealtimeRunner,
)
from kartentisch.web.saving import StorageFailure, TableSaving
from kartentisch.web.seats import Connection, Seat, TableError, hash_token
from kartentisch.web.seats import bot_name as _bot_name
from kartentisch.web.sending import StateSender
from kartentisch.web.tablechat import TableChat
from kartentisch.web.tablehints import TableHints

if TYPE_CHECKING:
    from kartentisch.web.manager import TableManager


__all__ = ["LiveTable"]

log = logging.getLogger("kartentisch.web")


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
        #: Set when anything changed that the driver may have to act on.
        self.changed = asyncio.Event()
        #: When (monotonic) the turn now due began.
        self.turn_started = _now()
        #: A correspondence table's: when (wall clock) the move now due began.
        self.turn_wall = manager.settings.wall_clock()
        #: The driver of a real-time game (None for turn-based games).
        self.runner: RealtimeRunner | None = None
        self.created = time.time()
        #: Taken out of service (:meth:`withdraw`): stores and sends nothing more.
        self.withdrawn = False
        #: Who made each of the game's actions (parallel to ``game.actions``).
        self.by: list[str] = []
        # -- the parts (each in a module of its own) --
        #: Presence, pause, stand-ins and the wait between deals.
        self.attendance = Attendance()
        #: The driver of automatic turns.
        self.driver = TableDriver()
        #: The game log (turn-based games).
        self.gamelog = GameLog()
        #: The chat at the table.
        self.chat = TableChat()
        #: What is sent to the connections.
        self.sender = StateSender()
        #: The changes being stored, and the wait for storage.
        self.saving = TableSaving()
        #: The hints being worked out.
        self.hinting = TableHints()
        #: A correspondence table's moves due, and whom they were told to.
        self.moves = DueMoves()
        #: The table's expiry while it waits for players (or, unseen, for its people).
        self.expiry = TableExpiry()
        # -- waiting for players --
        #: When (monotonic) the table expires if it has not started; None: never.
        self.expires_at: float | None = None
        #: No person has come to the table since it was created (its row keeps its
        #: ``creator``): it counts as waiting, and expires as a waiting table, even playing.
        self.unseen = False

    @property
    def store(self) -> TableStore:
        return self.manager.store

    @property
    def version(self) -> int:
        return self.game.version if self.game is not None else 0

    @property
    def rules_name(self) -> str | None:
        """The name of the rule set the table was opened with, if it had one."""
        value = self.settings.get("rules_name")
        return value if isinstance(value, str) and value else None

    @property
    def turn_seconds(self) -> float | None:
        value = self.settings.get("turn_seconds")
        return float(value) if value else None

    @property
    def move_seconds(self) -> float | None:
        """A correspondence table's time for each move (seconds); None: not one.

        At a correspondence table people come and go: it never pauses for them and no
        stand-in plays for an away person; each move has its deadline on the wall clock
        (kept across restarts), and a bot moves for a person whose deadline has passed
        only if the host allowed it (:attr:`deadline_standin`).
        """
        value = self.settings.get("move_seconds")
        return float(value) if value else None

    @property
    def deadline_standin(self) -> bool:
        """At a correspondence table: a bot moves for a person whose deadline passed."""
        return bool(self.settings.get("deadline_standin"))

    @property
    def rated(self) -> bool:
        """Agreed before the start: the table changes its players' ratings."""
        return bool(self.settings.get("rated"))

    @property
    def needs_account(self) -> str | None:
        """Why a guest may not sit down here (a refusal's code), or None if they may: a
        rated table, and a correspondence table, seat accounts only."""
        if self.rated:
            return "rated_needs_account"
        if self.move_seconds is not None:
            return "correspondence_needs_account"
        return None

    @property
    def private(self) -> bool:
        """Whether the table is left out of the lobby's list (reached by its invite link)."""
        return bool(self.settings.get("private"))

    @property
    def away_policy(self) -> str:
        """``standin`` (a bot plays for an away person after the grace time, while other
        people play on) or ``pause`` (the table waits while any person is away)."""
        value = self.settings.get("away")
        return value if value in AWAY_POLICIES else "standin"

    @property
    def grace(self) -> float | None:
        """Seconds a person may be away before a stand-in plays for them (None: never)."""
        value = self.settings.get("grace_seconds")
        return float(value) if value else self.manager.settings.grace

    @property
    def ready_seconds(self) -> float | None:
        """Between deals, the longest wait for everyone's "next" (None: no time limit)."""
        if "ready_seconds" in self.settings:
            value = self.settings["ready_seconds"]
            return float(value) if value else None
        return self.manager.settings.ready_seconds

    @property
    def expirable(self) -> bool:
        """Whether the table expires when its time is up: it waits for players, or it
        plays and no person has come to it (:attr:`unseen`)."""
        return self.status == "waiting" or (self.status == "playing" and self.unseen)

    @property
    def overdue(self) -> bool:
        """Whether the table has waited for players (or, unseen, for its people) past its
        time (it is about to expire)."""
        due = self.expires_at
        return self.expirable and due is not None and _now() >= due

    @property
    def paused(self) -> bool:
        """Whether the table waits for its people: nothing is played while it does."""
        return self.attendance.paused_since is not None

    @property
    def presence_events(self) -> list[tuple[str, int | None, int]]:
        """The last presence events (kind, seat, version), newest last."""
        return self.attendance.events

    def _between_deals(self) -> int | None:
        """The deal just finished whose summary holds the next deal back, or None."""
        return self.attendance.between_deals(self)

    def log_note(self, kind: str, seat: int | None, **fields: Any) -> None:
        """Note in the game log what happened between actions (:meth:`GameLog.note`)."""
        self.gamelog.note(self, kind, seat, **fields)

    def broadcast(self) -> None:
        """Send every joined connection its own seat's state (:meth:`StateSender.broadcast`)."""
        self.sender.broadcast(self)

    def start_driver(self) -> None:
        """Start the driver of automatic turns (and a real-time game's runner)."""
        self.driver.start(self)

    def watch_expiry(self, due: float) -> None:
        """Expire the table at ``due`` (monotonic) unless it has started by then."""
        self.expiry.watch(self, due)

    async def expire(self) -> bool:
        """Expire the table now if it still waits (:meth:`TableExpiry.expire`)."""
        return await self.expiry.expire(self)

    async def stop_driver(self) -> None:
        """Stop the driver (and the runner); the table's expiry is no longer watched."""
        await self.driver.stop(self)

    @property
    def storage_waiting(self) -> bool:
        """Whether a change waits to be stored (storage is failing): nothing is played,
        shown or stored meanwhile (:meth:`TableSaving.wait_for_storage`)."""
        return self.saving.wait_since is not None

    def seat_of_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for i, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return i
        return None

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)

    def bot_playing_for(self, seat: int) -> bool:
        """Whether a bot plays ``seat``: a bot seat, or an away person's with a stand-in.

        A stand-in starts only while the table runs (other people are there) and the
        person has been away the grace time; it stops the moment they are back.
        """
        return self.seats[seat].kind == "bot" or seat in self.attendance.standins

    def presence(self, seat: int) -> str | None:
        """A person's seat: ``present``, ``away`` or ``standin`` (away, a bot playing for
        them); None for bot and open seats."""
        if self.seats[seat].kind != "human":
            return None
        if self.connected(seat):
            return "present"
        return "standin" if seat in self.attendance.standins else "away"

    @property
    def spectator_count(self) -> int:
        return sum(1 for c in self.connections if c.seat is None)

    def seats_connected(self) -> set[int]:
        return {c.seat for c in self.connections if c.seat is not None}

    def open_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "open"]

    def summary(self, you: int | None = None) -> dict[str, Any]:
        """The public facts of the table, for the lobby and every state message."""
        deadline = self.driver.deadline(self)
        connected = {c.seat for c in self.connections}
        playing = self.status == "playing"
        gate = self.attendance.between_deals(self)
        between: dict[str, Any] | None = None
        if gate is not None:
            ends = self.attendance.gate_deadline(self)
            between = {
                "deal": gate,
                "ready": sorted(self.attendance.ready),
                "waiting": self.attendance.waiting_for(self),
                "deadline": None if ends is None or self.paused else _epoch_ms(ends),
            }
        realtime = is_realtime(self.kind)
        return {
            "id": self.id,
            "game": self.kind.name,
            "titles": dict(self.kind.titles),
            "status": self.status,
            "version": self.version,
            "options": self.options,
            "turn_seconds": self.turn_seconds,
            "correspondence": (
                None
                if self.move_seconds is None
                else {"move_seconds": self.move_seconds, "standin": self.deadline_standin}
            ),
            # The server's wall clock (ms): the page counts down deadlines from it.
            "now": round(self.manager.settings.wall_clock() * 1000),
            "private": self.private,
            "rated": self.rated,
            "hints": self.hints,
            "spectator_chat": self.spectator_chat,
            "you": you,
            "seats": [
                {
                    "name": s.name,
                    "kind": s.kind,
                    "level": s.level,
                    "connected": i in connected,
                    "bot_playing": playing and self.bot_playing_for(i),
                    "presence": self.presence(i),
                    "account": s.account is not None,
                }
                for i, s in enumerate(self.seats)
            ],
            "open_seats": self.open_seats(),
            "turn_deadline": deadline,
            "spectators": self.spectator_count,
            "away": self.away_policy,
            "grace_seconds": self.grace,
            "ready_seconds": None if realtime else self.ready_seconds,
            "rules_name": self.rules_name,
            "paused": self.paused,
            "between_deals": between,
        }

    def state_message(
        self,
        seat: int | None,
        summary: dict[str, Any] | None = None,
        log: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """What ``seat`` is sent: its view and the table's ``summary`` (made if not given).

        ``log``: the game log's part to send along (:meth:`log_part`), if any.
        """
        view = self.game.view(seat) if self.game is not None else None
        table = self.summary(seat) if summary is None else {**summary, "you": seat}
        message = {
            "type": "state",
            "version": self.version,
            "view": view,
            "table": table,
        }
        if log is not None:
            message["log"] = log
        if self.runner is not None:
            message["live"] = self.runner.live(seat)
        return message

    def record(self, *, complete: bool) -> dict[str, Any]:
        """The game record (:meth:`TableGame.record`) with who made each action.

        Refused (``storage_wait``) while a change waits to be stored: it would tell of it.
        """
        if self.storage_waiting:
            raise TableError("storage_wait", 503)
        assert self.game is not None
        return self.game.record(complete=complete, by=self.by)

    async def join(
        self, name: str, seat: int | None, account: int | None = None
    ) -> tuple[int, str]:
        """Take an open seat (the first if none is named); return it and its token.

        ``account``: the account of a person logged in (kept with the seat)."""
        async with self.lock:
            if self.status == "expired" or self.overdue:
                raise TableError("table_expired", 410)
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
            self.seats[seat] = Seat("human", name, None, hash_token(token), account)
            self.attendance.away_since[seat] = _now()
            if not self.open_seats():
                await self.start_locked()
            else:
                await self.saving.stored(
                    self, self.store.save_update(self.id, seats=self._seats_json())
                )
                self.sender.broadcast(self)
            return seat, token

    async def start(self, token: str | None) -> None:
        """Start now (asked by a seated player): bots take the open seats."""
        async with self.lock:
            if self.status == "expired" or self.overdue:
                raise TableError("table_expired", 410)
            if token is None or self.seat_of_token(token) is None:
                raise TableError("bad_token", 403)
            if self.status != "waiting":
                raise TableError("table_started", 409)
            await self.start_locked()

    async def start_locked(self) -> None:
        level = self.kind.default_bot_level
        for i in self.open_seats():
            self.seats[i] = Seat("bot", _bot_name(i, self.seats), level)
        self.game = self.kind.create(self.options, [s.name for s in self.seats], self.seed)
        self.by = []
        self.gamelog.renew(self)
        self.status = "playing"
        turn_wall = self.manager.settings.wall_clock()
        turns = self.moves.due(self, turn_wall)
        await self.saving.stored(
            self,
            self.store.save_update(
                self.id,
                seats=self._seats_json(),
                status=self.status,
                unseen=self.unseen,
                turns=turns,
            ),
        )
        if not self.unseen:  # (unseen, it keeps its time: its people may never come)
            self.expiry.cancel()
            self.expires_at = None
        self.turn_started = _now()
        self.turn_wall = turn_wall
        self.start_driver()
        self.sender.broadcast(self)
        self.moves.tell(self, turns)

    @property
    def hints(self) -> bool:
        """Whether the host allowed hints (never at a rated table)."""
        return bool(self.settings.get("hints")) and not self.rated

    @property
    def spectator_chat(self) -> str:
        """``separate`` (spectators talk among themselves) or ``off`` (the host's choice)."""
        return "off" if self.settings.get("spectator_chat") == "off" else "separate"

    async def handle(self, conn: Connection, message: ClientMessage) -> None:
        """Carry out one parsed client message (:func:`tablemessages.handle`)."""
        await tablemessages.handle(self, conn, message)

    def detach(self, conn: Connection) -> None:
        """A connection closed (:func:`tablemessages.detach`)."""
        tablemessages.detach(self, conn)

    def forget_if_finished(self) -> None:
        """A finished table that nobody watches leaves memory (``get`` reads it from the store)."""
        if self.status == "finished":
            self.changed.set()  # the driver's task ends (it refers to the table)
        finished = self.status == "finished" and not self.connections
        if finished and self.manager.tables.get(self.id) is self:
            del self.manager.tables[self.id]
            # A real-time table and its runner refer to each other: parted, both are freed
            # at once instead of at the next full garbage collection (rare while serving).
            self.runner = None

    def refuse_stale(self, conn: Connection, version: int) -> None:
        """A message made on another version than ``version``: refused, and the state sent."""
        conn.error(
            "stale_version",
            translate(conn.lang, "error.stale_version", version=version),
            version=version,
        )
        conn.send(self.state_message(conn.seat))

    async def apply(self, seat: int, text: str, by: str = "person") -> None:
        """Apply, store, then tell everyone; hold the lock while calling this.

        ``by`` says who made the action: ``person`` (the seat's player),
        ``bot`` (a bot seat), ``standin`` (a bot for a person away past the
        grace time), ``timer`` (the person's turn timer ran out) or ``auto``
        (a forced answer the table gives for the person).
        """
        if by not in ACTORS:
            raise ValueError(f"by must be one of {', '.join(ACTORS)}, not {by!r}")
        game = self.game
        assert game is not None
        if self.withdrawn:
            raise StorageFailure()
        game.act(seat, text)
        self.by.append(by)
        stored_seat, stored_text = game.actions[-1]
        over = game.is_over
        version = game.version
        turn_wall = self.manager.settings.wall_clock()
        turns = self.moves.due(self, turn_wall)

        def saving() -> asyncio.Future[None]:
            # The action, the moves it made due (a correspondence table) and, after the
            # last one, the table's end: one transaction.
            return self.store.save_action(
                self.id,
                version,
                stored_seat,
                stored_text,
                status="finished" if over else None,
                by=by,
                turns=turns,
            )

        try:
            await self.saving.stored(self, saving(), again=saving)
        except Exception as exc:
            raise StorageFailure() from exc
        self.gamelog.extend(self)
        if over:
            self.status = "finished"
            await self.manager.table_ended(self)
        self.turn_started = _now()
        self.turn_wall = turn_wall
        self.changed.set()
        self.attendance.tick(self)  # a deal that ended may need nobody's "next"
        self.sender.broadcast(self)
        self.moves.tell(self, turns)
        self.forget_if_finished()

    def _seats_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.seats]

    def withdraw(self) -> None:
        """Take the table out of service: it holds a change the store lacks, and the
        store cannot be read to undo it.

        Nothing more is sent (it would tell of what is not stored) or stored
        (an action after a missing one would make a gap): every connection is
        told ``storage_error`` and closed, the drivers stop, and the table
        leaves memory; :meth:`TableManager.get` reads it from the store again
        when it is next asked for (the page reconnects by itself).
        """
        if self.withdrawn:
            return
        self.withdrawn = True
        self.expiry.cancel()
        log.error("table %s: withdrawn until the store can be read", self.id)
        if self.manager.tables.get(self.id) is self:
            del self.manager.tables[self.id]
        for conn in list(self.connections):
            conn.error("storage_error", translate(conn.lang, "error.storage_error"))
            conn.close()
        self.connections.clear()
        if self.driver.task is not None:
            self.driver.task.cancel()
        if self.runner is not None:
            self.runner.halt()

    def reload(self) -> None:
        stored = self.store.load(self.id)
        if stored is None:
            raise KartentischError(f"table {self.id} is missing from the store")
        self.status = stored.status
        self.seats = [Seat.from_json(s) for s in stored.seats]
        if self.status in ("playing", "finished"):
            self.game = self.kind.replay(
                self.options, [s.name for s in self.seats], self.seed, stored.actions
            )
        else:
            self.game = None
        self.by = list(stored.by)
        self.gamelog.renew(self)
