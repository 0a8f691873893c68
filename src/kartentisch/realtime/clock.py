"""Clocks for real-time loops: the real one and a manual one for tests.

>>> clock = ManualClock()
>>> clock.sleep(0.25); clock.now_ms()
250
"""

from __future__ import annotations

import time
from typing import Protocol

__all__ = ["Clock", "ManualClock", "MonotonicClock"]


class Clock(Protocol):
    """Game time in whole milliseconds since the clock was started."""

    def now_ms(self) -> int: ...

    def sleep(self, seconds: float) -> None: ...


class MonotonicClock:
    """Wall time from :func:`time.monotonic`, counted from creation."""

    def __init__(self) -> None:
        self._start = time.monotonic()

    def now_ms(self) -> int:
        return int((time.monotonic() - self._start) * 1000)

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class ManualClock:
    """A clock that only moves when told to (``sleep`` advances it at once)."""

    def __init__(self, start_ms: int = 0) -> None:
        self._now = start_ms

    def now_ms(self) -> int:
        return self._now

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            self._now += max(1, round(seconds * 1000))

    def advance_to(self, ms: int) -> None:
        self._now = max(self._now, ms)
