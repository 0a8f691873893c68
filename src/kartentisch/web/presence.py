"""Who is at a table: the pause, the stand-ins and the wait between deals.

A live table's :class:`Attendance` (docs/web.md, "Leaving and coming back" and
"Between deals"): while a person is away past the grace time and other people
play on, a stand-in bot plays for them; the table pauses while all its people
are away (or, policy ``pause``, while one is); after a deal, the next one waits
until every person present is ready or the wait is over. Time paused does not
count. Each change is noted in the game log and told with the next state.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from kartentisch.web.moments import now as _now

if TYPE_CHECKING:
    from kartentisch.web.livetable import LiveTable

log = logging.getLogger("kartentisch.web")

__all__ = ["Attendance"]


class Attendance:
    """The presence of a table's people, its pause, stand-ins and wait between deals."""

    def __init__(self) -> None:
        #: Since when (monotonic) each away person's seat is empty.
        self.away_since: dict[int, float] = {}
        #: Away persons' seats a stand-in bot plays now.
        self.standins: set[int] = set()
        #: Since when (monotonic) the table is paused; None while it runs.
        self.paused_since: float | None = None
        #: A pause that began before any person came in this process (after a start or
        #: a restart): neither it nor its end is told as an event.
        self.quiet_pause = False
        self.people_seen = False
        #: The last presence events (kind, seat, version), newest last.
        self.events: list[tuple[str, int | None, int]] = []
        # -- between deals --
        #: The version the current wait between deals began at, since when, who is ready.
        self.gate_version: int | None = None
        self.gate_since = 0.0
        self.ready: set[int] = set()
        #: The version at which the wait between deals ended: the next deal may start.
        self.gate_passed: int | None = None

    def should_pause(self, table: LiveTable) -> bool:
        """Whether the table must wait for its people: all of them are away, or (policy
        ``pause``) one is. A table of bots alone never pauses."""
        game = table.game
        if table.status != "playing" or game is None or game.is_over:
            return False
        if table.move_seconds is not None:
            return False  # a correspondence table: people come and go
        people = [i for i, s in enumerate(table.seats) if s.kind == "human"]
        away = [i for i in people if not table.connected(i)]
        if not away:
            return False
        return len(away) == len(people) or table.away_policy == "pause"

    def event(self, table: LiveTable, kind: str, seat: int | None) -> None:
        """A stand-in started (``standin_on``) or stopped (``standin_off``: handed back), or
        the table ``paused`` or ``resumed``. The caller sends everyone the new state."""
        log.info("table %s: %s%s", table.id, kind, "" if seat is None else f" (seat {seat})")
        self.events.append((kind, seat, table.version))
        del self.events[:-32]
        table.gamelog.note(table, kind, seat)  # the game log tells it in words

    def tick(self, table: LiveTable) -> bool:
        """Bring the pause, the stand-ins and the wait between deals up to date.

        Called whenever a connection comes or goes, after every action and by the
        driver when a grace time or the wait between deals runs out. Time paused
        does not count: on resuming, the turn timer, the grace times and the wait
        between deals go on where they stood. Returns whether anything changed.
        """
        now = _now()
        changed = False
        if self.should_pause(table):
            if self.paused_since is None:
                self.paused_since = now
                self.quiet_pause = not self.people_seen
                changed = True
                if not self.quiet_pause:
                    self.event(table, "paused", None)
                if table.runner is not None:
                    table.runner.pause()
        elif self.paused_since is not None:
            length = now - self.paused_since
            self.paused_since = None
            table.turn_started += length
            self.gate_since += length
            for seat in self.away_since:
                self.away_since[seat] += length
            changed = True
            if not self.quiet_pause:
                self.event(table, "resumed", None)
            if table.runner is not None:
                table.runner.resume()
        grace = table.grace
        for seat, info in enumerate(table.seats):
            if seat in self.standins:
                if info.kind == "human" and not table.connected(seat):
                    continue
                # Back: the seat is theirs again, their turn too (with a fresh turn timer).
                self.standins.discard(seat)
                changed = True
                self.event(table, "standin_off", seat)
                if table.game is not None and seat in table.game.acting:
                    table.turn_started = now
                continue
            due = self.standin_due(table, seat, grace)
            if due is not None and now >= due:
                self.standins.add(seat)
                changed = True
                self.event(table, "standin_on", seat)
        if self.open_gate(table, now):
            changed = True
        return changed

    def standin_due(self, table: LiveTable, seat: int, grace: float | None) -> float | None:
        """When a stand-in will start playing for ``seat`` if nothing changes; else None."""
        if (
            grace is None
            or table.paused
            or table.move_seconds is not None
            or table.away_policy != "standin"
            or seat in self.standins
            or table.seats[seat].kind != "human"
            or table.status != "playing"
            or table.connected(seat)
        ):
            return None
        since = self.away_since.get(seat)
        return None if since is None else since + grace

    def between_deals(self, table: LiveTable) -> int | None:
        """The deal just finished whose summary holds the next deal back, or None."""
        game = table.game
        if game is None or table.status != "playing":
            return None
        deal: int | None = getattr(game, "between_deals", None)
        if deal is None or self.gate_passed == game.version:
            return None
        if self.gate_version != game.version:
            self.gate_version = game.version
            # (Begun while paused, the wait counts from the end of the pause.)
            paused = self.paused_since
            self.gate_since = _now() if paused is None else paused
            self.ready = set()
        return deal

    def waiting_for(self, table: LiveTable) -> list[int]:
        """Between deals: the people at the table who have not said they are ready."""
        return [
            i
            for i, s in enumerate(table.seats)
            if s.kind == "human" and i not in self.ready and table.connected(i)
        ]

    def gate_deadline(self, table: LiveTable) -> float | None:
        limit = table.ready_seconds
        return None if limit is None else self.gate_since + limit

    def open_gate(self, table: LiveTable, now: float) -> bool:
        """Start the next deal if everyone present is ready or the wait is over."""
        if table.paused or self.between_deals(table) is None:
            return False
        deadline = self.gate_deadline(table)
        if self.waiting_for(table) and (deadline is None or now < deadline):
            return False
        assert table.game is not None
        self.gate_passed = table.game.version
        self.ready = set()
        table.turn_started = now
        table.changed.set()
        return True

    def next_tick(self, table: LiveTable) -> float | None:
        """When time alone will next start a stand-in or end the wait between deals."""
        if table.paused:
            return None
        grace = table.grace
        times = [self.standin_due(table, seat, grace) for seat in range(len(table.seats))]
        if self.between_deals(table) is not None:
            times.append(self.gate_deadline(table))
        wanted = [t for t in times if t is not None]
        return min(wanted) if wanted else None
