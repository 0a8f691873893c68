"""Python's garbage collector tuned for a serving process (:class:`GCTuning`)."""

from __future__ import annotations

import gc
from typing import Final

__all__ = ["GC_FULL_AFTER", "GC_FULL_AFTER_CLOSED", "GCTuning"]

#: While serving, a full garbage collection is considered after this many collections of
#: the middle generation (Python's default: 10).
GC_FULL_AFTER: Final = 100
#: While serving, a full garbage collection is also made after this many WebSockets closed.
GC_FULL_AFTER_CLOSED: Final = 256


class GCTuning:
    """Python's garbage collector set for a server's latency, and set back afterwards.

    A full collection walks every object of the process: with 200 tables and
    their 800 connections, some 250,000 objects, 100-200 ms during which no
    table is served, and Python runs one each time the long-lived objects
    have grown by a quarter, every few seconds while tables open. While
    serving, the objects of the started server (modules, classes, restored
    tables; some 90,000) are moved out of the collector's sight
    (:func:`gc.freeze`), which makes a full collection about half as long,
    and a full collection is considered only after :data:`GC_FULL_AFTER`
    collections of the middle generation instead of 10 (at 200 tables about
    once a minute rather than every few seconds; cyclic garbage waits that
    long). A closed WebSocket is such garbage: the WebSocket library's
    protocol object and its parser refer to each other, and hold the
    connection's compression buffers (some 50 KiB). At a quiet server the
    middle generation is rarely collected (at 50 tables, a full collection
    came about every 40 minutes), so a full collection is also made after every
    :data:`GC_FULL_AFTER_CLOSED` closed connections (:meth:`closed`): memory
    stays flat, for one pause (tens of ms) per so many connections.
    Young objects are collected as usual. Process-wide: the first server to
    start sets it, the last to stop sets the collector back.
    """

    _active = 0
    _saved: tuple[int, int, int] | None = None
    #: Connections closed since the last full collection made by :meth:`closed`.
    _closed = 0

    def __init__(self) -> None:
        self._on = False

    def start(self) -> None:
        if self._on:
            return
        self._on = True
        if GCTuning._active == 0:
            GCTuning._saved = gc.get_threshold()
            young, middle, _ = GCTuning._saved
            gc.freeze()
            gc.set_threshold(young, middle, GC_FULL_AFTER)
        GCTuning._active += 1

    def stop(self) -> None:
        if not self._on:
            return
        self._on = False
        GCTuning._active -= 1
        if GCTuning._active == 0 and GCTuning._saved is not None:
            gc.set_threshold(*GCTuning._saved)
            gc.unfreeze()
            GCTuning._saved = None

    def closed(self) -> None:
        """A connection closed: a full collection after every :data:`GC_FULL_AFTER_CLOSED`."""
        if not self._on:
            return
        GCTuning._closed += 1
        if GCTuning._closed >= GC_FULL_AFTER_CLOSED:
            GCTuning._closed = 0
            gc.collect()
