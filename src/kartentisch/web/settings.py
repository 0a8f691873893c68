"""How a server runs its tables: :class:`ServerSettings`.

Tests set what they need (``bot_delay`` 0, an injected wall clock, a fixed
sequence of table seeds); ``kartentisch serve`` sets the rest from its options.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from kartentisch.storage import Backoff
from kartentisch.web.realtime import MonotonicTableClock, RealtimeSettings, TableClock

__all__ = ["SPECTATOR_UPDATE_SECONDS", "ServerSettings"]

#: ``kartentisch serve``'s :attr:`ServerSettings.spectator_update`.
SPECTATOR_UPDATE_SECONDS: Final = 5.0


@dataclass
class ServerSettings:
    """How the server runs; tests set ``bot_delay`` to 0."""

    #: Seconds a bot waits before it acts (so people can follow the play).
    bot_delay: float = 0.8
    #: Seconds after a player's last connection closes before a stand-in bot plays for them
    #: while other people play on (a table's own ``grace_seconds`` wins); None: never.
    grace: float | None = 30.0
    #: Between deals: seconds the table waits for every person present to say they are
    #: ready before the next deal starts anyway (a table's own ``ready_seconds`` wins);
    #: None: no time limit.
    ready_seconds: float | None = 60.0
    #: Chat messages per connection: this many at once, then ``chats_per_second``.
    chat_burst: int = 5
    chats_per_second: float = 0.5
    #: Most tables waiting or playing at once (a table is small, but not free): the last
    #: guard, after the cap per address.
    max_live_tables: int = 1000
    #: Most tables waiting for players that one address key (an IPv4 address, an IPv6 /64)
    #: may have opened; None: no cap. A table that no person has come to yet counts as
    #: waiting while it plays; a table of bots alone never waits.
    max_waiting_per_address: int | None = 5
    #: Seconds a table may wait for players before it expires unstarted (or, playing,
    #: unseen: no person came to it); None: never.
    waiting_expiry: float | None = 1800.0
    #: The wall clock (seconds since the epoch) stored times are compared with (how long a
    #: stored table has waited); tests inject one.
    wall_clock: Callable[[], float] = time.time
    #: Real-time tables (Slapjack, Irish Snap): referee window, automatic turns, pings.
    realtime: RealtimeSettings = field(default_factory=RealtimeSettings)
    #: The clock of real-time tables; tests inject a manual or a fast one.
    clock: TableClock = field(default_factory=MonotonicTableClock)
    #: Shorter and rarer garbage-collection pauses while serving (:class:`GCTuning`).
    tune_gc: bool = True
    #: How often a table whose change could not be stored tries again while it waits
    #: for storage to come back (docs/web.md, "When the server cannot save").
    storage_retry: Backoff = field(default_factory=Backoff)
    #: Finished tables kept in memory for their review (the least recently read leave first).
    finished_kept: int = 64
    #: Seconds between the updates of a table's spectator count while only spectators come
    #: and go (their hellos are answered to them alone); None: it follows at the next state
    #: only (``kartentisch serve`` sets :data:`SPECTATOR_UPDATE_SECONDS`).
    spectator_update: float | None = None
    #: Where a new table's seed (its deal, its bots) comes from: a fresh random number by
    #: default; tests inject a fixed sequence, so that every table they open replays the same.
    table_seed: Callable[[], int] = field(default=lambda: secrets.randbits(62))
