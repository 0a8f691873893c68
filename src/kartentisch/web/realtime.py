"""Real-time tables: the fair-slap referee, the game clock, automatic turns and bots.

A turn-based table waits for one seat; a Slapjack or Irish Snap table runs on
a clock. Its :class:`RealtimeRunner` (one per live table, started by
:class:`~kartentisch.web.livetable.LiveTable`) does, on the table's event loop:

* **Latency.** Every seated connection is pinged when it says hello and then
  every ``ping_interval_ms``: ``{"type": "ping", "nonce": …}``; the page
  answers ``{"type": "pong", "nonce": …}`` at once. The referee
  (:class:`~kartentisch.realtime.referee.Referee`) keeps each seat's rolling
  minimum round trip.
* **Arrivals.** A live action (``turn``, ``slap``, ``slap!``) is checked
  against the version it names (the card on top then must still be on top:
  else ``stale_card``) and against the rules (a refusal goes back at once),
  then handed to the referee, stamped with the server's game time and
  corrected by the seat's round trip.
* **Release.** The driver task releases what the referee holds once its
  collection window has passed, in corrected order, checks the card again
  (a slap is never applied to a later card than the one it was made on),
  applies it at its corrected time, stores it (``table_actions``, in the
  engine's timed notation) and sends every connection its state; then it
  lets game time run to the referee's safe time (Irish Snap time-outs, a
  Slapjack time limit).
* **Automatic turns.** A person who does not turn their card within
  ``auto_turn_ms`` has it turned for them (an action of the server, not
  corrected).
* **Bots.** Each seat has a bot task. It acts for bot seats, and for an away
  person whose stand-in plays (:meth:`LiveTable.bot_playing_for`). It looks
  once at each new card, through the public observation, draws a seeded
  reaction time and slaps then (if the card is still on top, by the same
  stale check as everyone else); on its turn it turns after its level's
  delay, not sooner than ``pace_ms`` after the last card.

* **Pause.** While the table is paused (its people are away:
  :attr:`LiveTable.paused`) game time stands still: nothing is released,
  turned or slapped, no ping is sent and pongs are not measured; on resuming,
  game time goes on from where it stood (:meth:`RealtimeRunner.pause`,
  :meth:`RealtimeRunner.resume`).
* **Storage.** An action that cannot be stored because the database
  failed (down, locked, its disk full) is kept, unshown: game time stands
  still (a pause of its own, ``storage``) while the table tries again to
  store it (:meth:`TableSaving.wait_for_storage`); once stored, everyone is
  sent the state and play goes on. The actions the referee released after
  it wait their turn. An action refused by the store for good did not
  happen: the table is rebuilt from the store with a new runner.

Game time is the table's own: milliseconds since the game started, taken from
a :class:`TableClock`. It stands still while the server is down: after a
restart the game resumes at the time of its last stored action. Tests inject
a :class:`ManualTableClock` (time moves only when told) or a fast
:class:`MonotonicTableClock` (``speed=100``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

from kartentisch.bots.reaction import ReactionBot
from kartentisch.errors import IllegalActionError
from kartentisch.realtime.actions import ActionType, TimedAction
from kartentisch.realtime.referee import DEFAULT_MAX_RTT_MS, Referee
from kartentisch.storage import passing
from kartentisch.web.adapter import RealtimeTableGame
from kartentisch.web.i18n import refusal, translate
from kartentisch.web.protocol import Act

if TYPE_CHECKING:
    from kartentisch.web.livetable import LiveTable
    from kartentisch.web.seats import Connection

__all__ = [
    "ManualTableClock",
    "MonotonicTableClock",
    "RealtimeRunner",
    "RealtimeSettings",
    "TableClock",
]

log = logging.getLogger("kartentisch.web")

#: A bot task looks at the table at least this often (game ms), to notice the grace time.
BOT_RECHECK_MS = 1000
#: How many of a seat's own refused slaps its state messages carry (``live.refused``).
REFUSED_KEPT = 5


class TableClock(Protocol):
    """The clock of real-time tables: whole milliseconds, never going back."""

    def now_ms(self) -> int: ...

    async def wait(self, until_ms: int | None, wake: asyncio.Event) -> None:
        """Return when ``wake`` is set or the clock reaches ``until_ms`` (None: only ``wake``)."""
        ...


class MonotonicTableClock:
    """Wall time from :func:`time.monotonic`; ``speed`` > 1 runs it faster (for tests)."""

    def __init__(self, speed: float = 1.0) -> None:
        if speed <= 0:
            raise ValueError("a clock's speed must be positive")
        self.speed = speed
        self._start = time.monotonic()

    def now_ms(self) -> int:
        return int((time.monotonic() - self._start) * 1000 * self.speed)

    async def wait(self, until_ms: int | None, wake: asyncio.Event) -> None:
        if until_ms is None:
            await wake.wait()
            return
        # A little past the millisecond, so that now_ms() has reached it on waking.
        seconds = (until_ms - self.now_ms() + 0.5) / 1000 / self.speed
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), seconds)


class ManualTableClock:
    """A clock that moves only when told (:meth:`advance`), from any thread."""

    def __init__(self, start_ms: int = 0) -> None:
        self._now = start_ms

    def now_ms(self) -> int:
        return self._now

    def advance(self, ms: int) -> int:
        """Move the clock ``ms`` forward; returns the new time."""
        self._now += max(0, ms)
        return self._now

    def advance_to(self, ms: int) -> int:
        self._now = max(self._now, ms)
        return self._now

    async def wait(self, until_ms: int | None, wake: asyncio.Event) -> None:
        while not wake.is_set() and (until_ms is None or self._now < until_ms):
            await asyncio.sleep(0.001)


@dataclass
class RealtimeSettings:
    """How real-time tables run (game milliseconds)."""

    #: The referee's largest corrected round trip and collection window.
    max_rtt_ms: int = DEFAULT_MAX_RTT_MS
    #: A person's card is turned for them after this long.
    auto_turn_ms: int = 2500
    #: Bots turn no sooner than this after the last card, so people can follow.
    pace_ms: int = 900
    #: How often each seated connection is pinged.
    ping_interval_ms: int = 2000


@dataclass
class _Pending:
    """What the server knows of an action waiting in the referee's buffer."""

    seat: int
    key: int
    conn: Connection | None
    auto: bool = False
    kind: ActionType = "turn"
    #: Who made it (``person``, ``bot``, ``standin``, ``timer``), stored with it.
    by: str = "person"


class RealtimeRunner:
    """Drives one real-time table: referee, clock, automatic turns, bots, pings."""

    def __init__(self, table: LiveTable, settings: RealtimeSettings, clock: TableClock) -> None:
        self.table = table
        self.settings = settings
        self.clock = clock
        #: The game time at which the table paused; None while it runs.
        self._paused_at: int | None = None
        #: Why it is paused: ``away`` (its people), ``storage`` (a change waits to be stored).
        self._pauses: set[str] = set()
        #: Released by the referee, not applied yet (behind an action waiting to be stored).
        self._backlog: deque[tuple[TimedAction, _Pending | None]] = deque()
        #: An action applied whose write failed for a passing reason: the error, and how to
        #: make the write again (the driver waits until it is stored).
        self._unstored: tuple[BaseException, Callable[[], asyncio.Future[None]]] | None = None
        game = self.game
        self.base = clock.now_ms() - game.clock
        self._last_now = game.clock
        self.referee = Referee(len(table.seats), max_rtt_ms=settings.max_rtt_ms)
        self._pending: dict[int, _Pending] = {}
        self._wake = asyncio.Event()
        self._bots_wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._next_ping: dict[Connection, int] = {}
        now = self.now()
        self._key = game.pile_key()
        #: When the card on top was shown (game time).
        self.shown_at = now
        self._slot: tuple[int, ...] | None = game.turn_slot()
        self._slot_since = now
        self._auto_sent = False
        self._stopped = False
        #: Each seat's own refused slaps (too late, the card gone), newest last.
        self._refused: dict[int, deque[dict[str, Any]]] = {}

        #: Nonces of the pings sent (unanswered), and of those sent before the last pause,
        #: whose pongs would measure the pause and are ignored.
        self._pinged: set[str] = set()
        self._void: set[str] = set()

    # -- facts ----------------------------------------------------------------

    @property
    def game(self) -> RealtimeTableGame:
        return cast(RealtimeTableGame, self.table.game)

    @property
    def running(self) -> bool:
        return bool(self._tasks) and not all(task.done() for task in self._tasks)

    @property
    def paused(self) -> bool:
        return self._paused_at is not None

    def now(self) -> int:
        """The game time now (ms since the game started; it never goes back, and it
        stands still while the table is paused)."""
        if self._paused_at is not None:
            return self._paused_at
        self._last_now = max(self._last_now, self.clock.now_ms() - self.base)
        return self._last_now

    def pause(self, why: str = "away") -> None:
        """Stop game time: nothing happens until :meth:`resume` (for each ``why`` given)."""
        self._pauses.add(why)
        if self._paused_at is None:
            self._paused_at = self.now()
            # A pong that comes after the pause would measure the pause.
            self._void = self._pinged
            self._pinged = set()
            self._wake.set()
            self.notify()

    def resume(self, why: str = "away") -> None:
        """Let game time go on from where it stood, once no other reason holds it."""
        self._pauses.discard(why)
        paused_at = self._paused_at
        if paused_at is not None and not self._pauses:
            self._paused_at = None
            self.base = self.clock.now_ms() - paused_at
            self._last_now = paused_at
            self._wake.set()
            self.notify()

    def turn_due(self) -> int | None:
        """When a person's card will be turned for them (game time), if it will."""
        slot = self._slot
        if slot is None or self._auto_sent or self.table.seats[slot[0]].kind == "bot":
            return None
        return self._slot_since + self.settings.auto_turn_ms

    def live(self, seat: int | None) -> dict[str, Any]:
        """The real-time part of a state message for ``seat``."""
        now = self.now()
        return {
            "now": now,
            "paused": self.paused,
            "shown_at": self.shown_at,
            "turn_due": None if self.paused else self.turn_due(),
            "auto_turn_ms": self.settings.auto_turn_ms,
            "window_ms": self.referee.max_rtt_ms,
            "rtt": self.referee.rtt(seat, now) if seat is not None else None,
            "refused": list(self._refused.get(seat, ())) if seat is not None else [],
        }

    # -- lifecycle ------------------------------------------------------------

    def start(self) -> None:
        if self.table.paused:
            self.pause()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._drive(), name=f"table-{self.table.id}")]
        for seat in range(len(self.table.seats)):
            self._tasks.append(
                loop.create_task(self._bot_loop(seat), name=f"table-{self.table.id}-bot-{seat}")
            )

    def halt(self) -> None:
        """Stop now, from anywhere (the table was withdrawn); :meth:`stop` waits for the tasks."""
        self._stopped = True
        for task in self._tasks:
            task.cancel()

    async def stop(self) -> None:
        self._stopped = True
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def notify(self) -> None:
        """Something changed at the table: the bots look again."""
        self._bots_wake.set()
        self._bots_wake = asyncio.Event()

    # -- connections ------------------------------------------------------------

    def joined(self, conn: Connection) -> None:
        """A connection said hello: measure its line at once."""
        if conn.seat is not None and not self.paused:
            self._ping(conn, self.now())
        self._wake.set()

    def _ping(self, conn: Connection, now: int) -> None:
        assert conn.seat is not None
        # The referee's clock never goes back: stamp with the time now, not ``now``.
        nonce = self.referee.ping(conn.seat, max(now, self.now()))
        if len(self._pinged) > 1024:  # pings never answered
            self._pinged.clear()
        self._pinged.add(nonce)
        self._next_ping[conn] = now + self.settings.ping_interval_ms
        conn.send({"type": "ping", "nonce": nonce})

    def pong(self, conn: Connection, nonce: str) -> None:
        if conn.seat is None or self.paused or nonce in self._void:
            self._void.discard(nonce)
            return
        self._pinged.discard(nonce)
        self.referee.pong(conn.seat, nonce, self.now())

    def act(self, conn: Connection, act: Act) -> None:
        """A person's live action: check it and hand it to the referee."""
        seat = conn.seat
        assert seat is not None
        lang = conn.lang
        game = self.game
        key = game.pile_key(act.version)
        slap = act.action.strip().lower() in ("slap", "slap!")
        if key is None or key != game.pile_key():
            if slap and key is not None:
                self._refused_slap(seat, "stale_card", self._corrected(seat), conn)
                return
            conn.error("stale_card", translate(lang, "error.stale_card"), version=game.version)
            if key is None:
                conn.send(self.table.state_message(seat))
            return
        try:
            kind, call = game.precheck(seat, act.action)
        except IllegalActionError as exc:
            if slap and exc.rule == "empty_pile":
                self._refused_slap(seat, "empty_pile", self._corrected(seat), conn)
                return
            conn.error(exc.rule, refusal(exc, lang), version=game.version)
            return
        if not self._submit(seat, kind, call, key, conn):
            conn.error("too_fast", translate(lang, "error.too_fast"), version=game.version)

    def _submit(
        self,
        seat: int,
        kind: ActionType,
        call: bool,
        key: int,
        conn: Connection | None,
        *,
        local: bool = False,
        auto: bool = False,
        by: str = "person",
    ) -> bool:
        if key != self.game.pile_key():
            return False  # a bot's slap on a card that has gone: it never saw the new one
        arrival = self.referee.submit(seat, kind, self.now(), call=call, local=local)
        if arrival is None:
            return False
        self._pending[arrival.seq] = _Pending(seat, key, conn, auto, kind, by)
        self._wake.set()
        return True

    def _corrected(self, seat: int) -> int:
        """The game time a slap arriving now from ``seat`` is judged at (as the referee will)."""
        now = self.now()
        return max(0, now - self.referee.correction(seat, now))

    def _refused_slap(self, seat: int, rule: str, t: int, conn: Connection | None) -> None:
        """A person's slap came too late: the pile was taken (``empty_pile``) or the card
        had gone (``stale_card``). Tell them why and how late, and keep it for their log."""
        note: dict[str, Any] = {"t": t, "rule": rule, "late_ms": None, "by": None}
        taken = self.game.last_taken()
        if taken is not None and rule == "empty_pile":
            note["late_ms"] = max(0, t - taken[0])
            note["by"] = taken[1]
        notes = self._refused.setdefault(seat, deque(maxlen=REFUSED_KEPT))
        notes.append(note)
        if conn is None or conn.dropped:
            return
        lang, version = conn.lang, self.game.version
        if note["late_ms"] is not None:
            text = translate(lang, "error.late_slap", ms=note["late_ms"])
        elif rule == "stale_card":
            text = translate(lang, "error.stale_card")
        else:
            text = refusal(IllegalActionError(rule, rule), lang)
        conn.error(rule, text, version=version, late_ms=note["late_ms"], by=note["by"])
        # The page logs the refusal from its state (``live.refused``): send it one now.
        conn.send(self.table.state_message(seat))

    def _refuse(
        self, pending: _Pending | None, error: IllegalActionError, t: int | None = None
    ) -> None:
        if pending is None:
            return
        if pending.auto:
            self._auto_sent = False
            self._slot_since = self.now()
        conn = pending.conn
        if (
            conn is not None
            and pending.kind == "slap"
            and error.rule in ("empty_pile", "stale_card")
            and t is not None
        ):
            self._refused_slap(pending.seat, error.rule, t, conn)
            return
        if conn is None or conn.dropped:
            return
        version = self.game.version
        if error.rule == "stale_card":
            conn.error("stale_card", translate(conn.lang, "error.stale_card"), version=version)
        else:
            conn.error(error.rule, refusal(error, conn.lang), version=version)

    # -- the driver ---------------------------------------------------------------

    async def _drive(self) -> None:
        try:
            while not self._stopped:
                self._wake.clear()
                if self.paused:
                    await self._wake.wait()
                    continue
                now = self.now()
                changed = self._release(now)
                if self._stopped:
                    return  # the table was rebuilt (a new runner) or withdrawn
                if self._unstored is not None:
                    if await self._stored_later():
                        self.table.broadcast()
                    continue
                game = self.game
                if game.is_over:
                    self._finish()
                    return
                if self._track(now):
                    changed = True
                self._auto_turn(now)
                next_ping = self._pings(now)
                if changed:
                    self.table.broadcast()
                due = [
                    self.referee.release_time(),
                    self.turn_due(),
                    next_ping,
                ]
                deadline = game.deadline()
                if deadline is not None:
                    due.append(deadline + self.referee.max_rtt_ms + 1)
                wanted = [d for d in due if d is not None]
                await self._wait(min(wanted) if wanted else None, self._wake)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the real-time driver stopped", self.table.id)

    async def _wait(self, until: int | None, wake: asyncio.Event) -> None:
        await self.clock.wait(None if until is None else until + self.base, wake)

    def _release(self, now: int) -> bool:
        """Apply what the referee releases at ``now``, store it; let game time run."""
        referee = self.referee
        window = referee.max_rtt_ms
        ready = [a for a in referee.pending if now > a.corrected + window]
        released = referee.release(now)
        if len(ready) != len(released):  # pragma: no cover - the referee's documented rule
            log.error("table %s: the referee released unexpected actions", self.table.id)
            ready = []
        for i, action in enumerate(released):
            pending = self._pending.pop(ready[i].seq, None) if ready else None
            self._backlog.append((action, pending))
        changed = False
        while self._backlog and self._unstored is None:
            action, pending = self._backlog.popleft()
            game = self.game
            if game.is_over:
                self._refuse(pending, IllegalActionError("game_over", "the game is over"))
                continue
            if pending is not None and pending.key != game.pile_key():
                stale = IllegalActionError("stale_card", "the card has gone")
                self._refuse(pending, stale, action.t)
                continue
            text = "turn" if action.type == "turn" else "slap!" if action.call else "slap"
            try:
                game.apply_timed(action.seat, text, action.t)
            except IllegalActionError as exc:
                self._refuse(pending, exc, action.t)
                continue
            changed = True
            if not self._store(pending) and (self.table.withdrawn or self._stopped):
                return False
        if self._unstored is not None:
            return changed  # time stands still until it is stored
        game = self.game
        if not game.is_over and game.advance(referee.safe_time(now)):
            changed = True
        if game.is_over:
            self._mark_finished()
        return changed

    def _store(self, pending: _Pending | None) -> bool:
        """Store the action just applied. If the database failed (:func:`passing`), the
        driver waits until it is stored (:meth:`_stored_later`); on another failure the
        table is rebuilt from the store (or, if it cannot be read, withdrawn:
        :meth:`LiveTable.withdraw`)."""
        table = self.table
        game = self.game
        seat, text = game.actions[-1]
        if table.withdrawn:
            return False
        by = pending.by if pending is not None else "person"
        table.by.append(by)
        version = game.version
        try:
            table.store.append_action(table.id, version, seat, text, by=by)
        except Exception as exc:
            if passing(exc):
                store = table.store
                self._unstored = (
                    exc,
                    lambda: store.save_action(table.id, version, seat, text, by=by),
                )
                return False
            if pending is not None and pending.conn is not None:
                conn = pending.conn
                conn.error("storage_error", translate(conn.lang, "error.storage_error"))
            # What is not stored did not happen.
            table.saving.not_stored(table, exc)
            return False
        return True

    async def _stored_later(self) -> bool:
        """Wait until the action whose write failed is stored (the table tells everyone
        meanwhile); False if it failed for good (the table was rebuilt or withdrawn)."""
        assert self._unstored is not None
        (error, again), self._unstored = self._unstored, None
        table = self.table
        table.saving.pending = True
        try:
            await table.saving.wait_for_storage(table, error, again)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            table.saving.pending = False
            table.saving.not_stored(table, exc)
            return False
        finally:
            table.saving.pending = False
        return not self._stopped

    def _mark_finished(self) -> None:
        table = self.table
        if table.status == "finished" or table.withdrawn:
            return
        table.status = "finished"
        try:
            table.store.update_table(table.id, status=table.status)
        except Exception as exc:
            if passing(exc):
                store = table.store
                self._unstored = (exc, lambda: store.save_update(table.id, status="finished"))
                return
            log.exception("table %s: cannot store the end", table.id)

    def _finish(self) -> None:
        self._mark_finished()
        if self.table.status == "finished":
            self.table.manager.table_ended_later(self.table)
        self._stopped = True
        self.table.broadcast()
        self.notify()
        # Nobody watches (the bots played to the end): the table leaves memory now.
        self.table.forget_if_finished()

    def _track(self, now: int) -> bool:
        """Note when a new card appeared and when a new chance to turn began."""
        game = self.game
        changed = False
        key = game.pile_key()
        if key != self._key:
            self._key = key
            self.shown_at = now
        slot = game.turn_slot()
        if slot != self._slot:
            self._slot = slot
            self._slot_since = now
            self._auto_sent = False
            changed = True
        return changed

    def _auto_turn(self, now: int) -> None:
        """Turn a person's card for them when they have waited too long."""
        slot = self._slot
        due = self.turn_due()
        if slot is None or due is None or now < due:
            return
        mover = slot[0]
        self._auto_sent = True
        if any(a.seat == mover and a.type == "turn" for a in self.referee.pending):
            return  # their own turn is on its way
        game = self.game
        key = cast(int, game.pile_key())
        self._submit(mover, "turn", False, key, None, local=True, auto=True, by="timer")

    def _pings(self, now: int) -> int | None:
        connections = self.table.connections
        for conn in [c for c in self._next_ping if c not in connections]:
            del self._next_ping[conn]
        soonest: int | None = None
        for conn in list(connections):
            if conn.seat is None or not conn.joined or conn.dropped:
                continue
            due = self._next_ping.get(conn)
            if due is None or now >= due:
                self._ping(conn, now)
                due = self._next_ping[conn]
            soonest = due if soonest is None else min(soonest, due)
        return soonest

    # -- bots -----------------------------------------------------------------------

    async def _bot_loop(self, seat: int) -> None:
        """Play ``seat`` while a bot plays it: slap what it has seen, turn on its turn."""
        table = self.table
        pace = self.settings.pace_ms
        seen: int | None = None
        slap: tuple[int, bool, int] | None = None
        turn_slot: tuple[int, ...] | None = None
        turn_due: int | None = None
        try:
            while not self._stopped:
                wake = self._bots_wake
                game = self.game
                if game.is_over:
                    return
                if self.paused:
                    # A slap or turn planned goes on at the same game time after the pause.
                    await wake.wait()
                    continue
                now = self.now()
                key = cast(int, game.pile_key())
                if table.bot_playing_for(seat):
                    bot = table.driver.bot(table, seat)
                    assert isinstance(bot, ReactionBot)
                    if key != seen:
                        # A new card: look at it once, as every player sees it.
                        seen = key
                        slap = None
                        observation = game.observation(seat)
                        reaction = bot.react(observation)
                        if reaction is not None and reaction.type == "slap":
                            slap = (self.shown_at + reaction.delay_ms, reaction.call, key)
                    slot = game.turn_slot() if game.to_move == seat else None
                    if slot != turn_slot:
                        turn_slot = slot
                        turn_due = None
                        if slot is not None:
                            earliest = self.shown_at + pace if key else 0
                            turn_due = max(now + bot.turn_delay(), earliest)
                else:
                    seen, slap, turn_slot, turn_due = key, None, None, None
                by = "bot" if table.seats[seat].kind == "bot" else "standin"
                if slap is not None and now >= slap[0]:
                    _, call, card = slap
                    slap = None
                    self._submit(seat, "slap", call, card, None, local=True, by=by)
                    continue
                if turn_due is not None and now >= turn_due:
                    turn_due = None
                    if not any(a.seat == seat and a.type == "turn" for a in self.referee.pending):
                        self._submit(seat, "turn", False, key, None, local=True, by=by)
                    continue
                wanted = [d for d in (slap[0] if slap else None, turn_due) if d is not None]
                if table.seats[seat].kind == "human":
                    wanted.append(now + BOT_RECHECK_MS)
                await self._wait(min(wanted) if wanted else None, wake)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the bot of seat %d stopped", table.id, seat)
