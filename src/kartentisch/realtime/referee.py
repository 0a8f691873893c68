"""The fair-slap referee: who slapped first, judged by the server.

Every action a client sends is stamped with its *arrival* time on the server
and corrected by that connection's measured latency: ``corrected = arrival -
min(rtt, max_rtt_ms)``, where ``rtt`` is the rolling minimum round trip of the
last pings. A reaction to a card is thereby measured from the moment the
server showed the card: the card travels down, the slap travels up, one
round trip. The referee holds every action until no later arrival can be
corrected to an earlier time (``max_rtt_ms`` after its corrected time, the
collection window) and then releases the actions in order of corrected time
(ties by seat), ready for :meth:`TimedGame.apply`. See docs/referee.md for the
parameters and the bounds: what a player can and cannot gain by delaying,
lying or flooding.

Times are whole milliseconds of game time on the server's clock; the referee
never reads a clock itself (``now`` is always passed in).

>>> ref = Referee(2, max_rtt_ms=200, rng=random.Random(1))
>>> nonce = ref.ping(1, now=0)
>>> ref.pong(1, nonce, now=160)   # seat 1 is on a slow line: 160 ms round trip
160
>>> ref.submit(0, "slap", now=1320)  # seat 0: fast line, reacted in 300 ms
Arrival(seq=0, seat=0, type='slap', call=False, arrived=1320, correction=0)
>>> ref.release(now=1400)            # held: a slower line's slap may still overtake it
[]
>>> ref.submit(1, "slap", now=1410)  # seat 1: reacted in 250 ms, arrives later
Arrival(seq=1, seat=1, type='slap', call=False, arrived=1410, correction=160)
>>> [str(a) for a in ref.release(now=1600)]  # the faster hand wins
['1250 s1 slap', '1320 s0 slap']
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from kartentisch.engine import Event
from kartentisch.errors import IllegalActionError
from kartentisch.realtime.actions import ActionType, TimedAction
from kartentisch.realtime.base import TimedGame

__all__ = [
    "DEFAULT_MAX_RTT_MS",
    "Arrival",
    "LatencyTracker",
    "Referee",
    "apply_released",
    "step",
]

#: The largest round trip that is corrected for, and the collection window.
DEFAULT_MAX_RTT_MS: Final = 200
#: How many recent ping samples the rolling minimum looks at.
DEFAULT_SAMPLES: Final = 10
#: Samples older than this are forgotten (the line may have changed).
DEFAULT_SAMPLE_MAX_AGE_MS: Final = 30_000
#: A pong later than this after its ping is ignored.
DEFAULT_PING_TIMEOUT_MS: Final = 5_000
#: Unanswered pings kept per seat; older ones are forgotten.
MAX_OUTSTANDING_PINGS: Final = 8


class LatencyTracker:
    """The rolling minimum of one connection's round-trip times.

    >>> lt = LatencyTracker(samples=3)
    >>> for now, rtt in [(0, 60), (1000, 90), (2000, 120), (3000, 100)]:
    ...     lt.add(rtt, now)
    >>> lt.min_rtt(3000)  # 60 has left the window of 3 samples
    90
    """

    def __init__(
        self, samples: int = DEFAULT_SAMPLES, max_age_ms: int = DEFAULT_SAMPLE_MAX_AGE_MS
    ) -> None:
        if samples < 1 or max_age_ms < 1:
            raise ValueError("a latency tracker needs at least one sample and a positive age")
        self.max_age_ms = max_age_ms
        self._samples: deque[tuple[int, int]] = deque(maxlen=samples)

    def add(self, rtt: int, now: int) -> None:
        if rtt < 0:
            raise ValueError(f"a round trip cannot be negative ({rtt} ms)")
        self._samples.append((now, rtt))

    def min_rtt(self, now: int) -> int | None:
        """The smallest recent round trip, or None without a recent sample."""
        recent = [rtt for at, rtt in self._samples if now - at <= self.max_age_ms]
        return min(recent) if recent else None

    def __len__(self) -> int:
        return len(self._samples)


@dataclass(frozen=True, slots=True)
class Arrival:
    """An action as it reached the server, waiting in the referee's buffer."""

    seq: int
    seat: int
    type: ActionType
    call: bool
    arrived: int
    correction: int

    @property
    def corrected(self) -> int:
        return max(0, self.arrived - self.correction)

    @property
    def order(self) -> tuple[int, int, int]:
        return (self.corrected, self.seat, self.seq)


class Referee:
    """Orders the actions of one table fairly across connections of different latency.

    ``max_rtt_ms`` caps the correction and is also the hold: an action is
    released once ``now > corrected + max_rtt_ms``, when every action that can
    still arrive is corrected to a later time. The released times therefore
    never decrease and ties cannot be broken by a late arrival.
    """

    def __init__(
        self,
        seats: int,
        *,
        max_rtt_ms: int = DEFAULT_MAX_RTT_MS,
        samples: int = DEFAULT_SAMPLES,
        sample_max_age_ms: int = DEFAULT_SAMPLE_MAX_AGE_MS,
        ping_timeout_ms: int = DEFAULT_PING_TIMEOUT_MS,
        max_pending_per_seat: int = 2,
        rng: random.Random | None = None,
    ) -> None:
        if seats < 1:
            raise ValueError("a referee needs at least one seat")
        if max_rtt_ms < 0 or ping_timeout_ms < 1 or max_pending_per_seat < 1:
            raise ValueError("referee limits must be positive")
        self.seats = seats
        self.max_rtt_ms = max_rtt_ms
        self.ping_timeout_ms = ping_timeout_ms
        self.max_pending_per_seat = max_pending_per_seat
        self._rng = rng if rng is not None else random.SystemRandom()
        self._trackers = [LatencyTracker(samples, sample_max_age_ms) for _ in range(seats)]
        self._pings: list[dict[str, int]] = [{} for _ in range(seats)]
        self._buffer: list[Arrival] = []
        self._seq = 0
        self._now = 0
        self._last: tuple[int, int] = (-1, -1)
        #: Actions dropped per seat because the seat flooded the buffer.
        self.dropped = [0] * seats
        #: Pongs ignored per seat (unknown nonce, wrong seat, too late).
        self.bad_pongs = [0] * seats

    # -- latency -------------------------------------------------------------

    def _seat(self, seat: int) -> int:
        if not 0 <= seat < self.seats:
            raise ValueError(f"no seat {seat} at this table")
        return seat

    def _tick(self, now: int) -> None:
        if now < self._now:
            raise ValueError(f"the server clock went back from {self._now} to {now} ms")
        self._now = now

    def ping(self, seat: int, now: int) -> str:
        """A fresh unpredictable nonce to send to ``seat``; the client echoes it in a pong."""
        self._tick(now)
        pings = self._pings[self._seat(seat)]
        nonce = f"{self._rng.getrandbits(64):016x}"
        pings[nonce] = now
        while len(pings) > MAX_OUTSTANDING_PINGS:
            del pings[next(iter(pings))]
        return nonce

    def pong(self, seat: int, nonce: str, now: int) -> int | None:
        """Record the round trip of an answered ping; returns it (None if ignored)."""
        self._tick(now)
        sent = self._pings[self._seat(seat)].pop(nonce, None)
        if sent is None or now - sent > self.ping_timeout_ms:
            self.bad_pongs[seat] += 1
            return None
        rtt = now - sent
        self._trackers[seat].add(rtt, now)
        return rtt

    def rtt(self, seat: int, now: int) -> int | None:
        """The rolling minimum round trip of ``seat``'s connection (None before any pong)."""
        return self._trackers[self._seat(seat)].min_rtt(now)

    def correction(self, seat: int, now: int) -> int:
        """How many ms are taken off ``seat``'s arrival times: its rtt, at most max_rtt_ms."""
        rtt = self.rtt(seat, now)
        return 0 if rtt is None else min(rtt, self.max_rtt_ms)

    # -- actions -------------------------------------------------------------

    def submit(
        self, seat: int, type: ActionType, now: int, *, call: bool = False, local: bool = False
    ) -> Arrival | None:
        """An action from ``seat`` arrived at ``now``; None if dropped as a flood.

        ``local`` actions come from the server itself (an automatic turn) and
        are not corrected. A seat may have at most one slap and
        ``max_pending_per_seat`` actions waiting; more are dropped and counted.
        """
        self._tick(now)
        self._seat(seat)
        mine = [a for a in self._buffer if a.seat == seat]
        if len(mine) >= self.max_pending_per_seat or (
            type == "slap" and any(a.type == "slap" for a in mine)
        ):
            self.dropped[seat] += 1
            return None
        arrival = Arrival(
            self._seq, seat, type, call, now, 0 if local else self.correction(seat, now)
        )
        self._seq += 1
        self._buffer.append(arrival)
        return arrival

    @property
    def pending(self) -> tuple[Arrival, ...]:
        """The actions waiting, in the order they will be released."""
        return tuple(sorted(self._buffer, key=lambda a: a.order))

    def release_time(self) -> int | None:
        """The server time at which the next waiting action becomes final."""
        if not self._buffer:
            return None
        return min(a.corrected for a in self._buffer) + self.max_rtt_ms + 1

    def safe_time(self, now: int) -> int:
        """The game time up to which the order is final at ``now``.

        No action can still arrive with an earlier corrected time, so a
        server lets the engine's clock run to here (never to ``now``):
        ``game.advance(referee.safe_time(now))``.
        """
        return now - self.max_rtt_ms - 1

    def release(self, now: int) -> list[TimedAction]:
        """The actions whose order is final at ``now``, in order, with corrected times."""
        self._tick(now)
        ready = sorted(
            (a for a in self._buffer if now > a.corrected + self.max_rtt_ms), key=lambda a: a.order
        )
        return self._emit(ready)

    def flush(self) -> list[TimedAction]:
        """Release everything now (the table closes); order is kept, times never go back."""
        return self._emit(sorted(self._buffer, key=lambda a: a.order))

    def _emit(self, ready: list[Arrival]) -> list[TimedAction]:
        out: list[TimedAction] = []
        taken = {a.seq for a in ready}
        self._buffer = [a for a in self._buffer if a.seq not in taken]
        for a in ready:
            t = a.corrected
            if (t, a.seat) < self._last:
                t = self._last[0] if a.seat > self._last[1] else self._last[0] + 1
            self._last = (t, a.seat)
            out.append(TimedAction(t, a.seat, a.type, a.call))
        return out


def apply_released(
    game: TimedGame[Any], actions: Iterable[TimedAction]
) -> list[tuple[TimedAction, list[Event] | IllegalActionError]]:
    """Apply released actions in order; a refused one is reported, not raised.

    A server uses this: a slap on an empty pile or a turn out of turn from a
    client is simply refused and does not enter the record.
    """
    out: list[tuple[TimedAction, list[Event] | IllegalActionError]] = []
    for action in actions:
        try:
            out.append((action, game.apply(action)))
        except IllegalActionError as exc:
            out.append((action, exc))
    return out


def step(
    game: TimedGame[Any], referee: Referee, now: int
) -> tuple[list[tuple[TimedAction, list[Event] | IllegalActionError]], list[Event]]:
    """One tick of a server table at ``now``: apply what the referee releases,
    then let the game's clock run to the referee's safe time.

    Returns the applied actions with their events (or refusals) and the
    events that time alone caused (an Irish Snap time-out, a time limit).
    """
    results = apply_released(game, referee.release(now))
    timed = game.advance(referee.safe_time(now)) if not game.is_over else []
    return results, timed
