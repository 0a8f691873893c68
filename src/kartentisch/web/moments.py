"""The moments a live table counts with: the monotonic clock and the page's wall clock.

A table's timers (turns, grace times, the wait between deals, expiry) run on
:func:`now` (monotonic: a wall clock set meanwhile does not move them); what the
page is told is :func:`epoch_ms` of such a moment.
"""

from __future__ import annotations

import time

__all__ = ["epoch_ms", "now"]


def now() -> float:
    return time.monotonic()


def epoch_ms(moment: float) -> int:
    """A moment of :func:`now` as wall-clock milliseconds since the epoch (for the page)."""
    return round((time.time() + max(0.0, moment - now())) * 1000)
