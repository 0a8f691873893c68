"""The driver of a live table's automatic turns.

A :class:`TableDriver` runs one task per table: it plays the bots' turns,
lets a stand-in bot play for a person who has been away longer than the grace
time while other people play on, plays for a player whose turn timer (at a
correspondence table: whose move's deadline, if the host allowed it) ran out,
and gives the answers the game forces at once (``auto``). A bot starts
thinking when its turn begins, in a worker thread; its move is applied at the
due time or when it is ready, whichever is later. A real-time table's driver
only watches its people (its :class:`~kartentisch.web.realtime.RealtimeRunner`
plays).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from kartentisch.bots import Bot, make_bot
from kartentisch.errors import IllegalActionError
from kartentisch.web.adapter import is_realtime
from kartentisch.web.moments import epoch_ms as _epoch_ms
from kartentisch.web.moments import now as _now
from kartentisch.web.realtime import RealtimeRunner
from kartentisch.web.saving import StorageFailure

if TYPE_CHECKING:
    from kartentisch.web.livetable import LiveTable

log = logging.getLogger("kartentisch.web")

__all__ = ["CORRESPONDENCE_LOOK", "TableDriver"]

#: The longest a correspondence table's driver sleeps before it looks at the wall clock.
CORRESPONDENCE_LOOK: Final = 60.0


@dataclass
class _Plan:
    seat: int
    due: float
    version: int
    #: Who acts: "bot" (a bot seat), "standin" (a bot for an away person), "timer".
    by: str = "bot"


class TableDriver:
    """A table's driver task: bots, stand-ins, turn timers and forced answers."""

    def __init__(self) -> None:
        #: The task that drives the table (None before its start).
        self.task: asyncio.Task[None] | None = None
        self.bots: dict[int, Bot] = {}
        #: A forced answer (:meth:`forced`) the game refused: not tried again.
        self.forced_refused: tuple[int, int, str] | None = None

    def deadline(self, table: LiveTable) -> float | None:
        """Wall-clock time (ms since the epoch) when the acting person's timer runs out."""
        move = table.move_seconds
        if move is not None:  # a correspondence table: on the wall clock, never paused
            game = table.game
            if game is None or game.is_over or table.attendance.between_deals(table) is not None:
                return None
            if not any(table.seats[s].kind == "human" for s in game.acting):
                return None
            return round((table.turn_wall + move) * 1000)
        turn = table.turn_seconds
        if turn is None or table.game is None or table.game.is_over or is_realtime(table.kind):
            return None
        if table.paused or table.attendance.between_deals(table) is not None:
            return None
        if not any(table.seats[s].kind == "human" for s in table.game.acting):
            return None
        return _epoch_ms(table.turn_started + turn)

    def due(self, table: LiveTable, seat: int) -> tuple[float, str] | None:
        """When the driver acts for ``seat`` and as whom, if it does."""
        info = table.seats[seat]
        base = table.turn_started
        delay = table.manager.settings.bot_delay
        if info.kind == "bot":
            return base + delay, "bot"
        move = table.move_seconds
        if move is not None:
            # A correspondence table: a bot moves for the person once their deadline has
            # passed, if the host allowed it (the wall clock's time, as a monotonic one).
            if not table.deadline_standin:
                return None
            left = table.turn_wall + move - table.manager.settings.wall_clock()
            return _now() + left, "timer"
        candidates: list[tuple[float, str]] = []
        if seat in table.attendance.standins:
            candidates.append((base + delay, "standin"))
        if table.turn_seconds is not None:
            candidates.append((base + table.turn_seconds, "timer"))
        return min(candidates) if candidates else None

    def plan(self, table: LiveTable) -> _Plan | None:
        game = table.game
        if game is None or game.is_over or is_realtime(table.kind):
            return None
        if table.paused or table.attendance.between_deals(table) is not None:
            return None
        best: _Plan | None = None
        for seat in game.acting:
            due = self.due(table, seat)
            if due is not None and (best is None or due[0] < best.due):
                best = _Plan(seat, due[0], game.version, due[1])
        return best

    def still(self, table: LiveTable, plan: _Plan) -> bool:
        """Whether ``plan`` is still what should happen now."""
        now = self.plan(table)
        return (
            now is not None
            and (now.seat, now.version) == (plan.seat, plan.version)
            and now.due <= _now()
        )

    def bot(self, table: LiveTable, seat: int) -> Bot:
        bot = self.bots.get(seat)
        if bot is None:
            level = table.seats[seat].level or table.kind.default_bot_level
            bot = make_bot(table.kind.name, level, random.Random(table.seed * 31 + seat))
            self.bots[seat] = bot
        return bot

    def start(self, table: LiveTable) -> None:
        if table.game is None or table.game.is_over:
            return
        table.attendance.tick(table)
        if is_realtime(table.kind) and (table.runner is None or not table.runner.running):
            settings = table.manager.settings
            table.runner = RealtimeRunner(table, settings.realtime, settings.clock)
            table.runner.start()
        # A real-time table's driver only watches the people (the runner plays).
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(
                self.drive(table), name=f"table-{table.id}"
            )

    async def stop(self, table: LiveTable) -> None:
        table.expiry.cancel()  # (stopped here: the table's next process watches its time)
        if table.runner is not None:
            await table.runner.stop()
        task, self.task = self.task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def forced(self, table: LiveTable) -> tuple[int, int, str] | None:
        """(version, seat, action): what the game answers for a person at once, if anything.

        A game may offer ``forced_action(seat)`` (Doppelkopf: the declaration
        rounds a person's one answer already decides). Bot seats are left to
        their bots.
        """
        game = table.game
        forced = getattr(game, "forced_action", None)
        if game is None or forced is None or game.is_over:
            return None
        if table.paused or table.attendance.between_deals(table) is not None:
            return None  # nothing is played while the table waits
        for seat in game.acting:
            if table.seats[seat].kind == "human":
                text: str | None = forced(seat)
                if text is not None:
                    found = (game.version, seat, text)
                    # One the game refused is not tried again: the seat is played as any other.
                    return None if found == self.forced_refused else found
        return None

    async def drive(self, table: LiveTable) -> None:
        # The bot's choice for the plan it was started for: (seat, version, by), its task.
        thinking: tuple[tuple[int, int, str], asyncio.Task[str]] | None = None
        try:
            while True:
                table.changed.clear()
                if table.attendance.tick(table):
                    table.sender.broadcast(table)
                if table.game is None or table.game.is_over:
                    return
                forced = self.forced(table)
                if forced is not None:
                    # One engine action per version, stored like any other, without delay.
                    async with table.lock:
                        if self.forced(table) == forced:
                            try:
                                await table.apply(forced[1], forced[2], by="auto")
                            except IllegalActionError:
                                log.exception("table %s: a forced action was refused", table.id)
                                self.forced_refused = forced
                                table.sender.broadcast(table)
                            except StorageFailure:
                                await asyncio.sleep(table.manager.settings.storage_retry.first)
                    continue
                plan = self.plan(table)
                if plan is not None and plan.by != "timer":
                    # A bot starts thinking when its turn begins, a turn timer at its time.
                    thinking = await self.think(table, plan, thinking)
                wake = table.attendance.next_tick(table)
                if plan is not None and (wake is None or plan.due < wake):
                    wake = plan.due
                if wake is None:
                    await table.changed.wait()
                    continue
                wait = wake - _now()
                if table.move_seconds is not None:
                    # Hours or days: looked at again now and then, so that a wall clock
                    # that was set meanwhile is followed.
                    wait = min(wait, CORRESPONDENCE_LOOK)
                if wait > 0:
                    try:
                        await asyncio.wait_for(table.changed.wait(), wait)
                        continue
                    except TimeoutError:
                        pass
                else:
                    await asyncio.sleep(0)
                if plan is None or not self.still(table, plan):
                    continue
                # Applied at the due time or when it is ready, whichever is later: how
                # long a bot takes never tells its hand.
                thinking = await self.think(table, plan, thinking)
                text = await thinking[1]
                async with table.lock:
                    if not self.still(table, plan):
                        continue  # a person acted (or came back) meanwhile
                    try:
                        await table.apply(plan.seat, text, plan.by)
                    except StorageFailure:
                        await asyncio.sleep(table.manager.settings.storage_retry.first)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the driver stopped", table.id)
        finally:
            if thinking is not None:
                thinking[1].cancel()

    async def think(
        self,
        table: LiveTable,
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
        return key, asyncio.get_running_loop().create_task(self.choice(table, plan.seat))

    def choice(self, table: LiveTable, seat: int) -> Coroutine[Any, Any, str]:
        """What the bot of ``seat`` plays now, as the game's notation (from the game as it is)."""
        game = table.game
        assert game is not None
        # What the game does for a bot by itself (a Slobberhannes cut), if anything.
        automatic = getattr(game, "bot_action", None)
        text: str | None = automatic(seat) if automatic is not None else None
        if text is None:
            observation = game.observation(seat)
            bot = self.bot(table, seat)

        async def choose() -> str:
            if text is not None:
                return text
            # A bot may think for a while: in a worker thread, on an immutable snapshot.
            choice = await asyncio.to_thread(bot.choose, observation)
            return game.format_action(choice)

        return choose()
