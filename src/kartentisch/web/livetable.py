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

Every action is stored with who made it (``by``: ``person``, ``bot``,
``standin``, ``timer``, ``auto``). A turn-based table keeps the **game log**:
one public entry per action (from the adapter's ``log_entries``) with its
version and ``by``, and notes of what happened between actions
(:meth:`LiveTable.log_note`). State messages carry only the entries a
connection lacks (docs/web-protocol.md, "The game log").

A table **waiting for players** expires when it has not started within
:attr:`ServerSettings.waiting_expiry`: it is marked ``expired`` in the store
(its row is kept; a restart does not bring it back), leaves the lobby, and
its connections are told ``table_expired`` and closed; a join or start is
answered ``410``.

A table that no person has come to yet (:attr:`LiveTable.unseen`: no seated
person's hello since it was created, such as one of "you" and bots whose
creator's page never connected) counts as waiting too, even once it plays:
its row keeps its ``creator`` until the first person's hello, and it expires
as a waiting table would. A table of bots alone has no creator: neither.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hmac
import logging
import random
import secrets
import time
import weakref
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

from kartentisch.bots import Bot, make_bot
from kartentisch.errors import IllegalActionError, KartentischError
from kartentisch.records import ACTORS
from kartentisch.storage import (
    StorageError,
    TableNotWaiting,
    TableStore,
    passing,
)
from kartentisch.web.adapter import TableGame, TableGameType, is_realtime
from kartentisch.web.i18n import refusal, translate
from kartentisch.web.lobby import AWAY_POLICIES

#: Chat messages a table keeps for those who come later (in memory only).
from kartentisch.web.moments import epoch_ms as _epoch_ms
from kartentisch.web.moments import now as _now
from kartentisch.web.protocol import (
    Act,
    Chat,
    ClientMessage,
    Hello,
    Hint,
    Ping,
    Pong,
    Ready,
    Report,
    Start,
    TokenBucket,
)
from kartentisch.web.realtime import (
    RealtimeRunner,
)
from kartentisch.web.saving import StorageFailure
from kartentisch.web.saving import first_line as _first_line
from kartentisch.web.saving import notice as _notice
from kartentisch.web.seats import Connection, Seat, TableError, hash_token
from kartentisch.web.seats import bot_name as _bot_name
from kartentisch.web.statepatch import Overlay, reuse_equal
from kartentisch.web.wire import Encoded, SplitObject, dumps, object_text

if TYPE_CHECKING:
    from kartentisch.web.manager import TableManager

CHAT_KEPT: Final = 50

__all__ = ["CHAT_KEPT", "LiveTable"]

log = logging.getLogger("kartentisch.web")

#: Seconds before a table's expiry is tried again when the store could not take it.
EXPIRY_RETRY: Final = 5.0
#: The longest a correspondence table's driver sleeps before it looks at the wall clock.
CORRESPONDENCE_LOOK: Final = 60.0


@dataclass
class _Plan:
    seat: int
    due: float
    version: int
    #: Who acts: "bot" (a bot seat), "standin" (a bot for an away person), "timer".
    by: str = "bot"


class _SharedParts:
    """What every seat's state message of one broadcast shares, encoded once."""

    __slots__ = ("_log_text", "_table", "log", "summary")

    def __init__(self, summary: dict[str, Any], log: dict[str, Any] | None) -> None:
        self.summary = summary
        self._table: SplitObject | None = None
        self.log = log
        self._log_text: str | None = None

    @property
    def table(self) -> SplitObject:
        """The summary's text but for ``you`` (made when a whole state is first sent)."""
        if self._table is None:
            self._table = SplitObject(self.summary, "you")
        return self._table

    def log_text(self) -> str:
        if self._log_text is None:
            self._log_text = dumps(self.log)
        return self._log_text


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
        #: The summary of the last broadcast (its parts are reused while they are equal).
        self._summary_sent: dict[str, Any] | None = None
        self.lock = asyncio.Lock()
        self._changed = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self._turn_started = _now()
        #: A correspondence table's: when (wall clock) the move now due began.
        self._turn_wall = manager.settings.wall_clock()
        #: Connections whose hint is being worked out (one at a time each).
        self._hinting: weakref.WeakSet[Connection] = weakref.WeakSet()
        #: A correspondence table's seats whose due move was told (:meth:`_tell_turns`).
        self._told_due: set[int] = set()
        self._away_since: dict[int, float] = {}
        self._bots: dict[int, Bot] = {}
        #: The driver of a real-time game (None for turn-based games).
        self.runner: RealtimeRunner | None = None
        self.created = time.time()
        #: A change is being committed: state messages wait until it is stored.
        self._saving = False
        self._held_back = False
        #: Taken out of service (:meth:`_withdraw`): stores and sends nothing more.
        self.withdrawn = False
        #: Since when (monotonic) a change waits for storage to come back; None: it does not.
        self._storage_wait_since: float | None = None
        #: The connections told that the table waits for storage.
        self._storage_told: set[Connection] = set()
        #: A forced answer (:meth:`_forced`) the game refused: not tried again.
        self._forced_refused: tuple[int, int, str] | None = None
        #: The latest chat messages (in memory only: docs/web-protocol.md, "Chat").
        self.chat_log: collections.deque[dict[str, Any]] = collections.deque(maxlen=CHAT_KEPT)
        self._chat_count = 0
        self._chat_buckets: weakref.WeakKeyDictionary[Connection, TokenBucket] = (
            weakref.WeakKeyDictionary()
        )
        self._spectator_numbers: weakref.WeakKeyDictionary[Connection, int] = (
            weakref.WeakKeyDictionary()
        )
        #: Who made each of the game's actions (parallel to ``game.actions``).
        self.by: list[str] = []
        #: The game log (turn-based games): entries of actions and notes, in order.
        self.log: list[dict[str, Any]] = []
        #: Names this log; a new one (after a restart or a rebuild) starts again from 0.
        self.log_epoch = secrets.token_urlsafe(6)
        #: How many entries of the log every connection has been sent.
        self._log_sent = 0
        #: Actions of the game already in the log.
        self._logged = 0
        #: Connections that said hello and wait for the log: (epoch, entries they hold).
        self._log_wanted: dict[Connection, tuple[str | None, int]] = {}
        # -- presence (docs/web.md, "Leaving and coming back") --
        #: Away persons' seats a stand-in bot plays now.
        self._standins: set[int] = set()
        #: Since when (monotonic) the table is paused; None while it runs.
        self._paused_since: float | None = None
        #: A pause that began before any person came in this process (after a start or
        #: a restart): neither it nor its end is told as an event.
        self._quiet_pause = False
        self._people_seen = False
        #: The last presence events (kind, seat, version), newest last.
        self.presence_events: list[tuple[str, int | None, int]] = []
        # -- between deals --
        #: The version the current wait between deals began at, since when, who is ready.
        self._gate_version: int | None = None
        self._gate_since = 0.0
        self._ready: set[int] = set()
        #: The version at which the wait between deals ended: the next deal may start.
        self._gate_passed: int | None = None
        # -- spectators (their hellos are answered to them alone) --
        #: The spectator count everyone was last sent; the update waiting to tell a new one.
        self._spectators_told = 0
        self._spectator_update: asyncio.TimerHandle | None = None
        # -- waiting for players --
        #: When (monotonic) the table expires if it has not started; None: never.
        self.expires_at: float | None = None
        self._expiry: asyncio.TimerHandle | None = None
        #: No person has come to the table since it was created (its row keeps its
        #: ``creator``): it counts as waiting, and expires as a waiting table, even playing.
        self.unseen = False
        #: Its expiry is being stored: a person coming now does not keep it.
        self._expiring = False

    # -- facts ----------------------------------------------------------------

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
        return self._paused_since is not None

    @property
    def storage_waiting(self) -> bool:
        """Whether a change waits to be stored (storage is failing): nothing is played,
        shown or stored meanwhile (:meth:`_wait_for_storage`)."""
        return self._storage_wait_since is not None

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
        return self.seats[seat].kind == "bot" or seat in self._standins

    def presence(self, seat: int) -> str | None:
        """A person's seat: ``present``, ``away`` or ``standin`` (away, a bot playing for
        them); None for bot and open seats."""
        if self.seats[seat].kind != "human":
            return None
        if self.connected(seat):
            return "present"
        return "standin" if seat in self._standins else "away"

    @property
    def spectator_count(self) -> int:
        return sum(1 for c in self.connections if c.seat is None)

    def _seats_connected(self) -> set[int]:
        return {c.seat for c in self.connections if c.seat is not None}

    def open_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "open"]

    def summary(self, you: int | None = None) -> dict[str, Any]:
        """The public facts of the table, for the lobby and every state message."""
        deadline = self._deadline()
        connected = {c.seat for c in self.connections}
        playing = self.status == "playing"
        gate = self._between_deals()
        between: dict[str, Any] | None = None
        if gate is not None:
            ends = self._gate_deadline()
            between = {
                "deal": gate,
                "ready": sorted(self._ready),
                "waiting": self._waiting_for(),
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

    def _encoded_state(
        self, seat: int | None, shared: _SharedParts, *, whole: bool = True
    ) -> Encoded:
        """:meth:`state_message` for ``seat`` with its JSON text, the parts that every
        seat's message shares (the summary, the log, what the game's view shares)
        encoded once (:mod:`kartentisch.web.wire`).

        ``whole=False``: the text is made only if asked for before the message is
        sealed (a connection that takes patches is sent a patch instead, made of the
        message, not of its text).
        """
        game = self.game
        view: dict[str, Any] | None
        view_text: str | None = None
        encoded_view = getattr(game, "encoded_view", None) if game is not None else None
        if game is None:
            view, view_text = None, "null"
        elif encoded_view is not None and whole:
            view, view_text = encoded_view(seat)
        else:
            view = game.view(seat)
        message: dict[str, Any] = {
            "type": "state",
            "version": self.version,
            "view": view,
            # (the summary with this seat: its patch is made once for every seat)
            "table": Overlay(shared.summary, "you", seat),
        }
        live: dict[str, Any] | None = None
        if shared.log is not None:
            message["log"] = shared.log
        if self.runner is not None:
            live = message["live"] = self.runner.live(seat)

        def text() -> str:
            nonlocal view_text
            if view_text is None:
                view_text = encoded_view(seat)[1] if encoded_view is not None else dumps(view)
            items = [
                ("type", '"state"'),
                ("version", dumps(self.version)),
                ("view", view_text),
                ("table", shared.table.text(seat)),
            ]
            if shared.log is not None:
                items.append(("log", shared.log_text()))
            if live is not None:
                items.append(("live", dumps(live)))
            return object_text(items)

        return Encoded(message, text() if whole else text)

    def broadcast(self) -> None:
        """Send every joined connection its own seat's state.

        While a change is being stored nothing is sent (it would tell of
        what is not stored yet); the broadcast after the commit sends it.
        Each seat's message is made once; the game log's new entries (the
        same for everyone) ride along, and a connection that has just said
        hello gets the log from where its own copy ends.
        """
        if self._saving:
            self._held_back = True
            if self.storage_waiting:
                self._tell_storage_wait()  # a connection that came meanwhile hears why
            return
        if self._forced() is not None and self._driver is not None and not self._driver.done():
            # The table answers for a person at once (its driver, next): everyone hears of
            # both together; a state in between would offer a turn that is not theirs.
            self._changed.set()
            return
        self._held_back = False
        self._spectators_told = self.spectator_count
        log: dict[str, Any] | None = None
        if self.keeps_log:
            log = self.log_part(min(self._log_sent, len(self.log)))
            self._log_sent = len(self.log)
        cache: dict[int | None, Encoded] = {}
        shared: _SharedParts | None = None
        for conn in list(self.connections):
            message: dict[str, Any] | None = cache.get(conn.seat)
            if message is None:
                if shared is None:
                    summary = self.summary()
                    # (what did not change is the same object: patches pass it over)
                    reuse_equal(self._summary_sent, summary)
                    self._summary_sent = summary
                    shared = _SharedParts(summary, log)
                # (A connection that takes patches needs the state's text only when the
                # patch would be long: it is made then, while the parts are the same.)
                whole = not conn.patches or conn.last_state is None
                message = cache[conn.seat] = self._encoded_state(conn.seat, shared, whole=whole)
            wanted = self._log_wanted.pop(conn, None)
            if wanted is not None and log is not None:
                epoch, held = wanted
                start = held if epoch == self.log_epoch and held <= len(self.log) else 0
                if start != log["from"]:
                    message = {**message, "log": self.log_part(start)}
            conn.send(message)
        for made in cache.values():
            made.sealed()  # (the game moves on: a text asked for later is made of the message)
        if self.runner is not None:
            self.runner.notify()

    # -- the game log -----------------------------------------------------------

    @property
    def keeps_log(self) -> bool:
        """Whether this table keeps a game log (a turn-based game under way)."""
        return self.game is not None and hasattr(self.game, "log_entries")

    def log_part(self, start: int) -> dict[str, Any]:
        """The log from entry ``start`` on, as a state message carries it."""
        return {"epoch": self.log_epoch, "from": start, "entries": self.log[start:]}

    def log_note(self, kind: str, seat: int | None, **fields: Any) -> None:
        """Note in the log what happened between actions (``standin_on``, ``standin_off``,
        ``paused``, ``resumed`` …) for ``seat``; the next broadcast sends it.

        Notes live in memory: after a restart the log holds the actions only.
        """
        if self.keeps_log:
            self.log.append({"v": self.version, "seat": seat, "note": kind, **fields})

    def _extend_log(self) -> None:
        """Add the actions applied since the last call to the log."""
        game = self.game
        entries = getattr(game, "log_entries", None)
        if game is None or entries is None:
            return
        start = self._logged
        for i, entry in enumerate(entries(start), start=start):
            by = self.by[i] if i < len(self.by) else "person"
            self.log.append({"v": i + 1, **entry, "by": by})
        self._logged = game.version

    def _new_log(self) -> None:
        """Start the log again from the game's actions (a new game, a restore, a rebuild)."""
        self.log = []
        self.log_epoch = secrets.token_urlsafe(6)
        self._log_sent = 0
        self._logged = 0
        self._extend_log()

    def record(self, *, complete: bool) -> dict[str, Any]:
        """The game record (:meth:`TableGame.record`) with who made each action.

        Refused (``storage_wait``) while a change waits to be stored: it would tell of it.
        """
        if self.storage_waiting:
            raise TableError("storage_wait", 503)
        assert self.game is not None
        return self.game.record(complete=complete, by=self.by)

    # -- lobby ----------------------------------------------------------------

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
            self._away_since[seat] = _now()
            if not self.open_seats():
                await self._start_locked()
            else:
                await self._stored(self.store.save_update(self.id, seats=self._seats_json()))
                self.broadcast()
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
            await self._start_locked()

    async def _start_locked(self) -> None:
        level = self.kind.default_bot_level
        for i in self.open_seats():
            self.seats[i] = Seat("bot", _bot_name(i, self.seats), level)
        self.game = self.kind.create(self.options, [s.name for s in self.seats], self.seed)
        self.by = []
        self._new_log()
        self.status = "playing"
        turn_wall = self.manager.settings.wall_clock()
        turns = self._turns_due(turn_wall)
        await self._stored(
            self.store.save_update(
                self.id,
                seats=self._seats_json(),
                status=self.status,
                unseen=self.unseen,
                turns=turns,
            )
        )
        if not self.unseen:  # (unseen, it keeps its time: its people may never come)
            self._cancel_expiry()
            self.expires_at = None
        self._turn_started = _now()
        self._turn_wall = turn_wall
        self.start_driver()
        self.broadcast()
        self._tell_turns(turns)

    # -- waiting for players ------------------------------------------------------

    def watch_expiry(self, due: float) -> None:
        """Expire the table at ``due`` (monotonic) unless it has started by then."""
        self._cancel_expiry()
        self.expires_at = due
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # (a table read outside the server's loop: nothing to watch)
            return
        self._expiry = loop.call_later(max(0.0, due - _now()), self._expiry_due)

    def _cancel_expiry(self) -> None:
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None

    def _expiry_due(self) -> None:
        self._expiry = None
        self.manager._spawn(self.expire(), f"expire-{self.id}")

    def _came(self) -> None:
        """A seated person said hello: the table is no longer :attr:`unseen`.

        A playing table stops counting as waiting (the store forgets its creator) and
        no longer expires; a waiting one still does both until it starts.
        """
        if not self.unseen or self._expiring:
            return
        self.unseen = False
        if self.status != "playing":
            return  # (its start forgets the creator)
        self._cancel_expiry()
        self.expires_at = None
        self.store.save_seen(self.id).add_done_callback(self._seen_stored)

    def _seen_stored(self, saving: asyncio.Future[None]) -> None:
        if saving.cancelled():
            return
        error = saving.exception()
        if error is not None:
            # It plays on; the store still counts it as waiting (a restart would expire
            # it if nobody comes back within its time).
            log.warning("table %s: cannot store that a person came (%s)", self.id, error)

    async def expire(self) -> bool:
        """The table waited too long for players (or, playing, for its people to come at
        all): stored ``expired`` (its row is kept), out of the lobby and of memory; every
        connection is told ``table_expired`` and closed, its drivers stop.

        False if it started (or a person came) meanwhile, or is no longer run here. If the
        store cannot take the change, it is tried again after :data:`EXPIRY_RETRY` seconds.
        """
        async with self.lock:
            if not self.expirable or self.withdrawn or self.manager.tables.get(self.id) is not self:
                return False
            self._expiring = True
            try:
                await self.store.save_expired(self.id)
            except TableNotWaiting:
                # Another process started it (it lost this one its lease): read it again.
                log.warning("table %s: does not wait in the store any more", self.id)
                self._withdraw()
                return False
            except Exception:
                log.exception("table %s: cannot store that it expired; trying again", self.id)
                self.watch_expiry(_now() + EXPIRY_RETRY)
                return False
            finally:
                self._expiring = False
            unstarted = self.status == "waiting"
            self.status = "expired"
            self._cancel_expiry()
            self.expires_at = None
            del self.manager.tables[self.id]
            for conn in list(self.connections):
                conn.error("table_expired", translate(conn.lang, "error.table_expired"))
                conn.close()
            self.connections.clear()
            self._log_wanted.clear()
            if self._driver is not None:
                self._driver.cancel()
                self._driver = None
            if self.runner is not None:
                self.runner.halt()
                self.runner = None
            why = "nobody started it" if unstarted else "no person came to it"
            log.info("table %s: expired, %s", self.id, why)
        if self.manager.release is not None:
            await self.manager.release(self.id)
        return True

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
                if self.status == "expired" or self.overdue:
                    conn.error("table_expired", translate(conn.lang, "error.table_expired"))
                    return
                if self.status != "waiting":
                    conn.error("table_started", translate(conn.lang, "error.table_started"))
                    return
                try:
                    await self._start_locked()
                except StorageError:
                    conn.error("storage_error", translate(conn.lang, "error.storage_error"))
            return
        if isinstance(message, Act):
            await self._act(conn, message)
        elif isinstance(message, Ready):
            await self._ready_for_next(conn, message)
        elif isinstance(message, Chat):
            self._chat(conn, message)
        elif isinstance(message, Report):
            await self._report(conn, message)
        elif isinstance(message, Hint):
            self._hint(conn, message)

    # -- hints ---------------------------------------------------------------------

    @property
    def hints(self) -> bool:
        """Whether the host allowed hints (never at a rated table)."""
        return bool(self.settings.get("hints")) and not self.rated

    def _hint(self, conn: Connection, message: Hint) -> None:
        """Answer a seat's ``hint`` with the strong bot's suggestion (computed by the
        manager's :attr:`TableManager.on_hint`, in a worker: the table plays on)."""
        lang = conn.lang
        game = self.game
        if not self.hints or self.manager.on_hint is None:
            conn.error("hints_off", translate(lang, "error.hints_off"))
        elif conn.seat is None:
            conn.error("not_seated", translate(lang, "error.not_seated"))
        elif message.version != self.version:
            self._refuse_stale(conn, self.version)
        elif (
            game is None
            or game.is_over
            or conn.seat not in game.acting
            or self.paused
            or self._between_deals() is not None
        ):
            conn.error("hint_not_your_turn", translate(lang, "error.hint_not_your_turn"))
        elif conn in self._hinting:
            conn.error("hint_pending", translate(lang, "error.hint_pending"))
        else:
            self._hinting.add(conn)
            self.manager._spawn(self._answer_hint(conn, conn.seat, game), f"hint-{self.id}")

    async def _answer_hint(self, conn: Connection, seat: int, game: TableGame) -> None:
        version = game.version
        asked = self.manager.on_hint
        assert asked is not None
        try:
            answer = await asked(self, seat, conn.lang)
        except TableError as exc:
            conn.error(exc.code, exc.message(conn.lang))
            return
        finally:
            self._hinting.discard(conn)
        conn.send({"type": "hint", "version": version, **answer})

    # -- chat ----------------------------------------------------------------------

    @property
    def spectator_chat(self) -> str:
        """``separate`` (spectators talk among themselves) or ``off`` (the host's choice)."""
        return "off" if self.settings.get("spectator_chat") == "off" else "separate"

    def _chat(self, conn: Connection, message: Chat) -> None:
        """A chat message: the players' reach everyone at the table, the spectators'
        only the spectators (never the players: no help from outside)."""
        settings = self.manager.settings
        bucket = self._chat_buckets.get(conn)
        if bucket is None:
            bucket = TokenBucket(settings.chats_per_second, settings.chat_burst)
            self._chat_buckets[conn] = bucket
        if conn.seat is None and self.spectator_chat == "off":
            conn.error("chat_off", translate(conn.lang, "error.chat_off"))
            return
        if not bucket.take():
            every = f"{1 / settings.chats_per_second:g}"
            conn.error(
                "chat_rate_limited", translate(conn.lang, "error.chat_rate_limited", every=every)
            )
            return
        self._chat_count += 1
        said: dict[str, Any] = {
            "type": "chat",
            "id": self._chat_count,
            "channel": "players" if conn.seat is not None else "spectators",
            "seat": conn.seat,
            "from": self.seats[conn.seat].name if conn.seat is not None else None,
            "spectator": None if conn.seat is not None else self._spectator_number(conn),
            "text": message.text,
            "phrase": message.phrase,
            "at": int(time.time() * 1000),
        }
        self.chat_log.append(said)
        for other in self.connections:
            if other.joined and self._reads(other, said):
                other.send(said)

    @staticmethod
    def _reads(conn: Connection, said: dict[str, Any]) -> bool:
        return said["channel"] == "players" or conn.seat is None

    def _spectator_number(self, conn: Connection) -> int:
        number = self._spectator_numbers.get(conn)
        if number is None:
            number = len(self._spectator_numbers) + 1
            self._spectator_numbers[conn] = number
        return number

    def chat_history(self, conn: Connection) -> list[dict[str, Any]]:
        """The latest chat messages ``conn`` may read."""
        return [said for said in self.chat_log if self._reads(conn, said)]

    async def _report(self, conn: Connection, message: Report) -> None:
        """Keep a chat message ``conn`` could read for the admin (``kartentisch admin reports``)."""
        said = next((m for m in self.chat_history(conn) if m["id"] == message.id), None)
        if said is None:
            conn.error("no_such_chat", translate(conn.lang, "error.no_such_chat"))
            return
        await self.manager.chat_reported(self, said, conn.seat)
        conn.send({"type": "reported", "id": message.id})

    async def _hello(self, conn: Connection, hello: Hello) -> None:
        if hello.lang is not None:
            conn.lang = hello.lang
        if self.status == "expired":
            conn.error("table_expired", translate(conn.lang, "error.table_expired"))
            conn.close()
            return
        seat: int | None = None
        if hello.token is not None:
            seat = self.seat_of_token(hello.token)
            if seat is None:
                # Refused, and nothing else changes: the connection may say hello again.
                conn.error("bad_token", translate(conn.lang, "error.bad_token"))
                return
        was_connected = conn.seat is not None and conn.joined
        old_seat = conn.seat
        seats_before = self._seats_connected()
        conn.seat = seat
        conn.joined = True
        self.connections.add(conn)
        self._log_wanted[conn] = (hello.log_epoch, hello.log_from or 0)
        if seat is not None:
            self._away_since.pop(seat, None)
            if self.seats[seat].kind == "human":
                self._people_seen = True
                self._came()
        if was_connected and old_seat is not None and old_seat != seat:
            self._left(old_seat)
        changed = self._presence_tick()
        self._changed.set()
        if changed or self._seats_connected() != seats_before:
            self.broadcast()  # a seat came (or went): everyone is told
        else:
            # A spectator, or a seat's further connection: nothing the others see changed
            # but the spectator count, which follows (:meth:`_spectators_changed`).
            self._send_state(conn)
            self._spectators_changed()
        if self.runner is not None:
            self.runner.joined(conn)
        self._send_chat_history(conn)

    def _send_state(self, conn: Connection) -> None:
        """Send ``conn`` alone its state (after its hello), with the log it lacks."""
        pending_log = self.keeps_log and self._log_sent < len(self.log)
        driving = self._driver is not None and not self._driver.done()
        forced = driving and self._forced() is not None
        if self._saving or pending_log or forced:
            self.broadcast()  # the others are owed this state too (or it waits for a commit)
            return
        log: dict[str, Any] | None = None
        wanted = self._log_wanted.pop(conn, None)
        if self.keeps_log:
            epoch, held = wanted or (None, 0)
            start = held if epoch == self.log_epoch and held <= len(self.log) else 0
            log = self.log_part(start)
        conn.send(self.state_message(conn.seat, log=log))

    def _send_chat_history(self, conn: Connection) -> None:
        history = self.chat_history(conn)
        if history:
            conn.send({"type": "chat_history", "messages": history})

    def _spectators_changed(self) -> None:
        """The spectator count changed without a broadcast: tell it within
        ``ServerSettings.spectator_update`` seconds (one update for any number of changes)."""
        delay = self.manager.settings.spectator_update
        if delay is None or self._spectator_update is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._spectator_update = loop.call_later(delay, self._tell_spectators)

    def _tell_spectators(self) -> None:
        self._spectator_update = None
        if self.withdrawn or not self.connections:
            return
        if self.spectator_count != self._spectators_told:
            self.broadcast()

    def detach(self, conn: Connection) -> None:
        """A connection closed: the seat stays reserved; a bot may take over after the grace."""
        if conn not in self.connections:
            return
        seats_before = self._seats_connected()
        self.connections.discard(conn)
        self._log_wanted.pop(conn, None)
        conn.close()
        if conn.seat is not None:
            self._left(conn.seat)
        changed = self._presence_tick()
        self._changed.set()
        if changed or self._seats_connected() != seats_before:
            self.broadcast()
        else:
            self._spectators_changed()  # a spectator (or a seat's second connection) left
        self._forget_if_finished()
        self.manager._gc.closed()

    def _forget_if_finished(self) -> None:
        """A finished table that nobody watches leaves memory (``get`` reads it from the store)."""
        if self.status == "finished":
            self._changed.set()  # the driver's task ends (it refers to the table)
        finished = self.status == "finished" and not self.connections
        if finished and self.manager.tables.get(self.id) is self:
            del self.manager.tables[self.id]
            # A real-time table and its runner refer to each other: parted, both are freed
            # at once instead of at the next full garbage collection (rare while serving).
            self.runner = None

    def _left(self, seat: int) -> None:
        if not self.connected(seat):
            self._away_since[seat] = _now()

    async def _act(self, conn: Connection, act: Act) -> None:
        lang = conn.lang
        if conn.seat is None:
            conn.error("not_seated", translate(lang, "error.not_seated"))
            return
        if self.storage_waiting:
            # (At once: the change that waits holds the lock until it is stored.)
            conn.error("storage_wait", translate(lang, "error.storage_wait"))
            return
        async with self.lock:
            game = self.game
            if game is None:
                conn.error("not_started", translate(lang, "error.not_started"))
                return
            if game.is_over:
                conn.error("table_over", translate(lang, "error.table_over"))
                return
            if self.runner is None and act.version != game.version:
                self._refuse_stale(conn, game.version)
                return
            if self.paused:
                conn.error("table_paused", translate(lang, "error.table_paused"))
                return
            if self._between_deals() is not None:
                conn.error(
                    "between_deals", translate(lang, "error.between_deals"), version=game.version
                )
                return
            if self.runner is not None:
                # Real time: the version names the card the action was made on.
                self.runner.act(conn, act)
                return
            try:
                await self._apply(conn.seat, act.action)
            except IllegalActionError as exc:
                conn.error(exc.rule, refusal(exc, lang), version=game.version)
            except StorageFailure:
                conn.error("storage_error", translate(lang, "error.storage_error"))

    async def _ready_for_next(self, conn: Connection, ready: Ready) -> None:
        """Between deals: the seat is ready for the next one."""
        lang = conn.lang
        if conn.seat is None:
            conn.error("not_seated", translate(lang, "error.not_seated"))
            return
        async with self.lock:
            game = self.game
            if game is None:
                conn.error("not_started", translate(lang, "error.not_started"))
                return
            if self._between_deals() is None:
                conn.error(
                    "not_between_deals",
                    translate(lang, "error.not_between_deals"),
                    version=game.version,
                )
                return
            if ready.version != game.version:
                self._refuse_stale(conn, game.version)
                return
            self._ready.add(conn.seat)
            self._presence_tick()
            self.broadcast()

    def _refuse_stale(self, conn: Connection, version: int) -> None:
        """A message made on another version than ``version``: refused, and the state sent."""
        conn.error(
            "stale_version",
            translate(conn.lang, "error.stale_version", version=version),
            version=version,
        )
        conn.send(self.state_message(conn.seat))

    async def _apply(self, seat: int, text: str, by: str = "person") -> None:
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
        turns = self._turns_due(turn_wall)

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
            await self._stored(saving(), again=saving)
        except Exception as exc:
            raise StorageFailure() from exc
        self._extend_log()
        if over:
            self.status = "finished"
            await self.manager.table_ended(self)
        self._turn_started = _now()
        self._turn_wall = turn_wall
        self._changed.set()
        self._presence_tick()  # a deal that ended may need nobody's "next"
        self.broadcast()
        self._tell_turns(turns)
        self._forget_if_finished()

    def _turns_due(self, since: float) -> list[dict[str, Any]] | None:
        """A correspondence table's moves due now (rows of the store's ``turns``: the
        acting seats with an account); None at any other table."""
        move = self.move_seconds
        game = self.game
        if move is None or game is None:
            return None
        if game.is_over:
            return []
        start = datetime.fromtimestamp(since, UTC)
        end = datetime.fromtimestamp(since + move, UTC)
        return [
            {
                "seat": seat,
                "account_id": self.seats[seat].account,
                "game": self.kind.name,
                "since": start,
                "deadline": end,
            }
            for seat in sorted(set(game.acting))
            if self.seats[seat].kind == "human" and self.seats[seat].account is not None
        ]

    def _tell_turns(self, turns: list[dict[str, Any]] | None) -> None:
        """Tell the manager's :attr:`TableManager.on_turn` whose move is newly due while
        they are not at the table (no connection to their seat now), for the mail to them.

        A seat is told once while its moves follow each other (a declaration and the
        next): it counts as told until its move is no longer due. A move the table
        answers for the person at once (a forced one) is not told.
        """
        if turns is None:
            return
        due = {int(row["seat"]) for row in turns}
        forced = self._forced()
        self._told_due &= due
        new = sorted(s for s in due - self._told_due if forced is None or forced[1] != s)
        self._told_due.update(new)
        away = [seat for seat in new if not self.connected(seat)]
        if away and self.manager.on_turn is not None:
            self.manager._spawn(self.manager.on_turn(self, away), f"turn-{self.id}")

    def _seats_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.seats]

    async def _stored(
        self,
        saving: asyncio.Future[None],
        again: Callable[[], asyncio.Future[None]] | None = None,
    ) -> None:
        """Wait until a change already made in memory is stored; meanwhile send nothing.

        If the store failed for a reason that passes (:func:`passing`: the
        database is down, locked, its disk full) and ``again`` makes the write
        anew, the table waits for storage to come back (:meth:`_wait_for_storage`).
        Otherwise, if it cannot be stored, it did not happen: the table is
        rebuilt from the store, everyone is sent that, and the error is raised
        (if the store cannot be read either, the table is withdrawn). If the
        waiting task is cancelled (the server stops), the write still
        completes, and its outcome is handled then.
        """
        self._saving = True
        try:
            try:
                await self._written(saving)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if again is None or not passing(exc):
                    raise
                await self._wait_for_storage(exc, again)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._saving = False
            self._not_stored(exc)
            raise
        finally:
            self._saving = False

    async def _written(self, saving: asyncio.Future[None]) -> None:
        """Wait until the write ``saving`` is done; if the waiting task is cancelled (the
        server stops), the write still completes and its outcome is handled then."""
        try:
            await asyncio.shield(saving)
        except asyncio.CancelledError:
            saving.add_done_callback(self._stored_late)
            raise

    async def _wait_for_storage(
        self, error: BaseException, again: Callable[[], asyncio.Future[None]]
    ) -> None:
        """Hold the table until the change it holds in memory is stored.

        The write failed for a reason that passes (``error``). Everyone at the
        table is told ``storage_wait`` (a ``notice``; whoever comes meanwhile
        too); nothing is played, shown or stored meanwhile (a real-time
        table's game time stands still); the write is tried again after each
        delay of :attr:`ServerSettings.storage_retry` until it is stored. Then
        everyone is told ``storage_back`` and the caller sends the new state.
        Raises what a try raised if it failed for a reason that does not pass
        (the caller rebuilds the table from the store). Call with
        :attr:`_saving` set.
        """
        self._storage_wait_since = _now()
        self._storage_told = set()
        log.error(
            "table %s: cannot store a change (%s); waiting for storage to come back",
            self.id,
            _first_line(error),
        )
        if self.runner is not None:
            self.runner.pause("storage")
        self._tell_storage_wait()
        tries = 0
        try:
            for delay in self.manager.settings.storage_retry.delays():
                await asyncio.sleep(delay)
                tries += 1
                try:
                    await self._written(again())
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    if not passing(exc):
                        raise
                    if tries % 20 == 0:
                        log.warning(
                            "table %s: still cannot store (%d tries): %s",
                            self.id,
                            tries,
                            _first_line(exc),
                        )
                    continue
                log.info(
                    "table %s: stored after %.1f s (%d tries); play goes on",
                    self.id,
                    _now() - self._storage_wait_since,
                    tries,
                )
                return
        finally:
            self._storage_wait_since = None
            told, self._storage_told = self._storage_told, set()
            for conn in told:
                if conn in self.connections:
                    conn.send(_notice(conn.lang, "storage_back"))
            if self.runner is not None:
                self.runner.resume("storage")

    def _tell_storage_wait(self) -> None:
        """Tell every connection not yet told that the table waits for storage."""
        for conn in self.connections:
            if conn.joined and conn not in self._storage_told:
                self._storage_told.add(conn)
                conn.send(_notice(conn.lang, "storage_wait"))

    def _stored_late(self, saving: asyncio.Future[None]) -> None:
        error = None if saving.cancelled() else saving.exception()
        if error is not None:
            self._not_stored(error)
        elif self._held_back:
            self.broadcast()

    def _not_stored(self, error: BaseException) -> None:
        """A change could not be stored, for good: what is not stored did not happen.

        The table is rebuilt from the store (a real-time table gets a new
        runner: the old one's referee, clock and bots knew of the change)
        and everyone is sent its state; if the store cannot be read, the
        table is withdrawn.
        """
        log.error("table %s: cannot store a change", self.id, exc_info=error)
        try:
            self._reload()
        except Exception:
            log.exception("table %s: cannot be read back from the store", self.id)
            self._withdraw()
            return
        if self.runner is not None:
            self.runner.halt()
            self.runner = None
            if self.status == "playing":
                self.start_driver()
        self.broadcast()

    def _withdraw(self) -> None:
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
        self._cancel_expiry()
        log.error("table %s: withdrawn until the store can be read", self.id)
        if self.manager.tables.get(self.id) is self:
            del self.manager.tables[self.id]
        for conn in list(self.connections):
            conn.error("storage_error", translate(conn.lang, "error.storage_error"))
            conn.close()
        self.connections.clear()
        if self._driver is not None:
            self._driver.cancel()
        if self.runner is not None:
            self.runner.halt()

    def _reload(self) -> None:
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
        self._new_log()

    # -- automatic turns --------------------------------------------------------

    def _deadline(self) -> float | None:
        """Wall-clock time (ms since the epoch) when the acting person's timer runs out."""
        move = self.move_seconds
        if move is not None:  # a correspondence table: on the wall clock, never paused
            game = self.game
            if game is None or game.is_over or self._between_deals() is not None:
                return None
            if not any(self.seats[s].kind == "human" for s in game.acting):
                return None
            return round((self._turn_wall + move) * 1000)
        turn = self.turn_seconds
        if turn is None or self.game is None or self.game.is_over or is_realtime(self.kind):
            return None
        if self.paused or self._between_deals() is not None:
            return None
        if not any(self.seats[s].kind == "human" for s in self.game.acting):
            return None
        return _epoch_ms(self._turn_started + turn)

    def _due(self, seat: int) -> tuple[float, str] | None:
        """When the driver acts for ``seat`` and as whom, if it does."""
        info = self.seats[seat]
        base = self._turn_started
        delay = self.manager.settings.bot_delay
        if info.kind == "bot":
            return base + delay, "bot"
        move = self.move_seconds
        if move is not None:
            # A correspondence table: a bot moves for the person once their deadline has
            # passed, if the host allowed it (the wall clock's time, as a monotonic one).
            if not self.deadline_standin:
                return None
            left = self._turn_wall + move - self.manager.settings.wall_clock()
            return _now() + left, "timer"
        candidates: list[tuple[float, str]] = []
        if seat in self._standins:
            candidates.append((base + delay, "standin"))
        if self.turn_seconds is not None:
            candidates.append((base + self.turn_seconds, "timer"))
        return min(candidates) if candidates else None

    def _plan(self) -> _Plan | None:
        game = self.game
        if game is None or game.is_over or is_realtime(self.kind):
            return None
        if self.paused or self._between_deals() is not None:
            return None
        best: _Plan | None = None
        for seat in game.acting:
            due = self._due(seat)
            if due is not None and (best is None or due[0] < best.due):
                best = _Plan(seat, due[0], game.version, due[1])
        return best

    # -- presence and the wait between deals -------------------------------------

    def _should_pause(self) -> bool:
        """Whether the table must wait for its people: all of them are away, or (policy
        ``pause``) one is. A table of bots alone never pauses."""
        game = self.game
        if self.status != "playing" or game is None or game.is_over:
            return False
        if self.move_seconds is not None:
            return False  # a correspondence table: people come and go
        people = [i for i, s in enumerate(self.seats) if s.kind == "human"]
        away = [i for i in people if not self.connected(i)]
        if not away:
            return False
        return len(away) == len(people) or self.away_policy == "pause"

    def _presence_event(self, kind: str, seat: int | None) -> None:
        """A stand-in started (``standin_on``) or stopped (``standin_off``: handed back), or
        the table ``paused`` or ``resumed``. The caller sends everyone the new state."""
        log.info("table %s: %s%s", self.id, kind, "" if seat is None else f" (seat {seat})")
        self.presence_events.append((kind, seat, self.version))
        del self.presence_events[:-32]
        self.log_note(kind, seat)  # the game log tells it in words

    def _presence_tick(self) -> bool:
        """Bring the pause, the stand-ins and the wait between deals up to date.

        Called whenever a connection comes or goes, after every action and by the
        driver when a grace time or the wait between deals runs out. Time paused
        does not count: on resuming, the turn timer, the grace times and the wait
        between deals go on where they stood. Returns whether anything changed.
        """
        now = _now()
        changed = False
        if self._should_pause():
            if self._paused_since is None:
                self._paused_since = now
                self._quiet_pause = not self._people_seen
                changed = True
                if not self._quiet_pause:
                    self._presence_event("paused", None)
                if self.runner is not None:
                    self.runner.pause()
        elif self._paused_since is not None:
            length = now - self._paused_since
            self._paused_since = None
            self._turn_started += length
            self._gate_since += length
            for seat in self._away_since:
                self._away_since[seat] += length
            changed = True
            if not self._quiet_pause:
                self._presence_event("resumed", None)
            if self.runner is not None:
                self.runner.resume()
        grace = self.grace
        for seat, info in enumerate(self.seats):
            if seat in self._standins:
                if info.kind == "human" and not self.connected(seat):
                    continue
                # Back: the seat is theirs again, their turn too (with a fresh turn timer).
                self._standins.discard(seat)
                changed = True
                self._presence_event("standin_off", seat)
                if self.game is not None and seat in self.game.acting:
                    self._turn_started = now
                continue
            due = self._standin_due(seat, grace)
            if due is not None and now >= due:
                self._standins.add(seat)
                changed = True
                self._presence_event("standin_on", seat)
        if self._open_gate(now):
            changed = True
        return changed

    def _standin_due(self, seat: int, grace: float | None) -> float | None:
        """When a stand-in will start playing for ``seat`` if nothing changes; else None."""
        if (
            grace is None
            or self.paused
            or self.move_seconds is not None
            or self.away_policy != "standin"
            or seat in self._standins
            or self.seats[seat].kind != "human"
            or self.status != "playing"
            or self.connected(seat)
        ):
            return None
        since = self._away_since.get(seat)
        return None if since is None else since + grace

    def _between_deals(self) -> int | None:
        """The deal just finished whose summary holds the next deal back, or None."""
        game = self.game
        if game is None or self.status != "playing":
            return None
        deal: int | None = getattr(game, "between_deals", None)
        if deal is None or self._gate_passed == game.version:
            return None
        if self._gate_version != game.version:
            self._gate_version = game.version
            # (Begun while paused, the wait counts from the end of the pause.)
            paused = self._paused_since
            self._gate_since = _now() if paused is None else paused
            self._ready = set()
        return deal

    def _waiting_for(self) -> list[int]:
        """Between deals: the people at the table who have not said they are ready."""
        return [
            i
            for i, s in enumerate(self.seats)
            if s.kind == "human" and i not in self._ready and self.connected(i)
        ]

    def _gate_deadline(self) -> float | None:
        limit = self.ready_seconds
        return None if limit is None else self._gate_since + limit

    def _open_gate(self, now: float) -> bool:
        """Start the next deal if everyone present is ready or the wait is over."""
        if self.paused or self._between_deals() is None:
            return False
        deadline = self._gate_deadline()
        if self._waiting_for() and (deadline is None or now < deadline):
            return False
        assert self.game is not None
        self._gate_passed = self.game.version
        self._ready = set()
        self._turn_started = now
        self._changed.set()
        return True

    def _next_tick(self) -> float | None:
        """When time alone will next start a stand-in or end the wait between deals."""
        if self.paused:
            return None
        grace = self.grace
        times = [self._standin_due(seat, grace) for seat in range(len(self.seats))]
        if self._between_deals() is not None:
            times.append(self._gate_deadline())
        wanted = [t for t in times if t is not None]
        return min(wanted) if wanted else None

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
        if self.game is None or self.game.is_over:
            return
        self._presence_tick()
        if is_realtime(self.kind) and (self.runner is None or not self.runner.running):
            settings = self.manager.settings
            self.runner = RealtimeRunner(self, settings.realtime, settings.clock)
            self.runner.start()
        # A real-time table's driver only watches the people (the runner plays).
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(
                self._drive(), name=f"table-{self.id}"
            )

    async def stop_driver(self) -> None:
        self._cancel_expiry()  # (stopped here: the table's next process watches its time)
        if self.runner is not None:
            await self.runner.stop()
        task, self._driver = self._driver, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _forced(self) -> tuple[int, int, str] | None:
        """(version, seat, action): what the game answers for a person at once, if anything.

        A game may offer ``forced_action(seat)`` (Doppelkopf: the declaration
        rounds a person's one answer already decides). Bot seats are left to
        their bots.
        """
        game = self.game
        forced = getattr(game, "forced_action", None)
        if game is None or forced is None or game.is_over:
            return None
        if self.paused or self._between_deals() is not None:
            return None  # nothing is played while the table waits
        for seat in game.acting:
            if self.seats[seat].kind == "human":
                text: str | None = forced(seat)
                if text is not None:
                    found = (game.version, seat, text)
                    # One the game refused is not tried again: the seat is played as any other.
                    return None if found == self._forced_refused else found
        return None

    async def _drive(self) -> None:
        # The bot's choice for the plan it was started for: (seat, version, by), its task.
        thinking: tuple[tuple[int, int, str], asyncio.Task[str]] | None = None
        try:
            while True:
                self._changed.clear()
                if self._presence_tick():
                    self.broadcast()
                if self.game is None or self.game.is_over:
                    return
                forced = self._forced()
                if forced is not None:
                    # One engine action per version, stored like any other, without delay.
                    async with self.lock:
                        if self._forced() == forced:
                            try:
                                await self._apply(forced[1], forced[2], by="auto")
                            except IllegalActionError:
                                log.exception("table %s: a forced action was refused", self.id)
                                self._forced_refused = forced
                                self.broadcast()
                            except StorageFailure:
                                await asyncio.sleep(self.manager.settings.storage_retry.first)
                    continue
                plan = self._plan()
                if plan is not None and plan.by != "timer":
                    # A bot starts thinking when its turn begins, a turn timer at its time.
                    thinking = await self._think(plan, thinking)
                wake = self._next_tick()
                if plan is not None and (wake is None or plan.due < wake):
                    wake = plan.due
                if wake is None:
                    await self._changed.wait()
                    continue
                wait = wake - _now()
                if self.move_seconds is not None:
                    # Hours or days: looked at again now and then, so that a wall clock
                    # that was set meanwhile is followed.
                    wait = min(wait, CORRESPONDENCE_LOOK)
                if wait > 0:
                    try:
                        await asyncio.wait_for(self._changed.wait(), wait)
                        continue
                    except TimeoutError:
                        pass
                else:
                    await asyncio.sleep(0)
                if plan is None or not self._still(plan):
                    continue
                # Applied at the due time or when it is ready, whichever is later: how
                # long a bot takes never tells its hand.
                thinking = await self._think(plan, thinking)
                text = await thinking[1]
                async with self.lock:
                    if not self._still(plan):
                        continue  # a person acted (or came back) meanwhile
                    try:
                        await self._apply(plan.seat, text, plan.by)
                    except StorageFailure:
                        await asyncio.sleep(self.manager.settings.storage_retry.first)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the driver stopped", self.id)
        finally:
            if thinking is not None:
                thinking[1].cancel()

    async def _think(
        self,
        plan: _Plan,
        thinking: tuple[tuple[int, int, str], asyncio.Task[str]] | None,
    ) -> tuple[tuple[int, int, str], asyncio.Task[str]]:
        """The bot's choice for ``plan``, started now unless it is under way already.

        A choice for an older plan still being thought out is waited for first
        (its answer is dropped): one bot never thinks twice at once.
        """
        key = (plan.seat, plan.version, plan.by)
        if thinking is not None:
            if thinking[0] == key:
                return thinking
            with contextlib.suppress(Exception):
                await thinking[1]
        return key, asyncio.get_running_loop().create_task(self._choice(plan.seat))

    def _choice(self, seat: int) -> Coroutine[Any, Any, str]:
        """What the bot of ``seat`` plays now, as the game's notation (from the game as it is)."""
        game = self.game
        assert game is not None
        # What the game does for a bot by itself (a Slobberhannes cut), if anything.
        automatic = getattr(game, "bot_action", None)
        text: str | None = automatic(seat) if automatic is not None else None
        if text is None:
            observation = game.observation(seat)
            bot = self._bot(seat)

        async def choose() -> str:
            if text is not None:
                return text
            # A bot may think for a while: in a worker thread, on an immutable snapshot.
            choice = await asyncio.to_thread(bot.choose, observation)
            return game.format_action(choice)

        return choose()
