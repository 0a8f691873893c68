"""Rate limits across connections: counters kept by the ``limits`` library.

A :class:`Rate` allows ``burst`` requests at once and then ``per_second``
a second, for one key (an address key of :mod:`kartentisch.web.addresses`,
a seat, …). It is counted as a *sliding window counter* (``limits``'
``sliding-window-counter`` strategy) of ``burst`` hits in ``burst /
per_second`` seconds: after a burst the requests go on at the steady rate
as the window slides, and each key costs two counters, whatever its
traffic.

One process keeps its counters in memory; several processes sharing their
tables (``kartentisch serve --redis``) keep them in Redis, through the
``redis`` package's asyncio client (``limits``' ``redispy``
implementation), so that a limit holds for the whole cluster. While Redis
cannot be reached, each process counts in its own memory meanwhile (a limit
per process rather than none) and says so once in its log.

>>> import asyncio
>>> async def burst() -> list[bool]:
...     limiter = RateLimiter()
...     rate = Rate("demo", burst=3, per_second=0.01)
...     answers = [await limiter.hit(rate, "192.0.2.7") is None for _ in range(4)]
...     await limiter.close()
...     return answers
>>> asyncio.run(burst())
[True, True, True, False]
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from dataclasses import dataclass
from typing import Any, Final

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from limits.errors import StorageError

__all__ = ["UNLIMITED", "Rate", "RateLimiter", "deployment_prefix"]

log = logging.getLogger("kartentisch.web")

#: A burst this large (``Limits.unlimited()``) is not counted at all.
UNLIMITED: Final = 10**9
#: Seconds a Redis command of the limits may take before it counts as failed.
REDIS_TIMEOUT: Final = 1.0


@dataclass(frozen=True, slots=True)
class Rate:
    """``burst`` at once, then ``per_second`` a second; ``name`` separates its counters.

    >>> Rate("lobby", burst=60, per_second=1.0).window
    60
    >>> Rate("hello", burst=5, per_second=0.5).window
    10
    """

    name: str
    burst: int
    per_second: float

    @property
    def window(self) -> int:
        """The counting window in whole seconds: ``burst / per_second``, at least 1."""
        return max(1, math.ceil(self.burst / self.per_second))

    @property
    def unlimited(self) -> bool:
        return self.burst >= UNLIMITED

    def item(self) -> RateLimitItem:
        return RateLimitItemPerSecond(self.burst, self.window, namespace=self.name)


def deployment_prefix(db_url: str) -> str:
    """The prefix of the counters in Redis of the server processes on ``db_url``.

    The processes of one cluster share a database, so they share their
    counters; two deployments on one Redis (or the tests' throwaway
    schemas) do not. The URL itself is not stored, only a digest of it.

    >>> deployment_prefix("postgresql://db/kt") == deployment_prefix("postgresql://db/kt")
    True
    >>> deployment_prefix("postgresql://db/kt").startswith("kartentisch-limits:")
    True
    """
    digest = hashlib.sha256(db_url.encode("utf-8")).hexdigest()[:16]
    return f"kartentisch-limits:{digest}"


def _redis_storage_uri(redis_url: str) -> str:
    """``limits``' asyncio storage URI for a ``redis://`` (``rediss://``, ``unix://``) URL."""
    if redis_url.startswith("unix://"):
        return "async+redis+unix://" + redis_url.removeprefix("unix://")
    return "async+" + redis_url


class RateLimiter:
    """Counts :class:`Rate` hits per key: in memory, or in Redis with ``redis_url``."""

    def __init__(self, redis_url: str | None = None, *, prefix: str = "kartentisch-limits") -> None:
        self._memory = MemoryStorage()
        self._local = SlidingWindowCounterRateLimiter(self._memory)
        self._pool: Any = None
        self._shared: SlidingWindowCounterRateLimiter | None = None
        #: Whether Redis failed last time (the outage is logged once).
        self._outage = False
        if redis_url is not None:
            import redis.asyncio as aioredis

            self._pool = aioredis.ConnectionPool.from_url(
                redis_url, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT
            )
            options: dict[str, Any] = {"connection_pool": self._pool}
            storage: Storage = RedisStorage(
                _redis_storage_uri(redis_url),
                wrap_exceptions=True,
                implementation="redispy",
                key_prefix=prefix,
                **options,
            )
            self._shared = SlidingWindowCounterRateLimiter(storage)

    @property
    def shared(self) -> bool:
        """Whether the counters are kept in Redis (for every process of a cluster)."""
        return self._shared is not None

    async def hit(self, rate: Rate, *key: str) -> float | None:
        """Count one request of ``key``: None if it is allowed, else seconds to wait."""
        return await self._ask(rate, key, count=True)

    async def blocked(self, rate: Rate, *key: str) -> float | None:
        """Whether ``key`` is at its limit now, counting nothing: None if not, else seconds
        to wait (a request whose cost is known only once it is done asks first)."""
        return await self._ask(rate, key, count=False)

    async def _ask(self, rate: Rate, key: tuple[str, ...], *, count: bool) -> float | None:
        if rate.unlimited:
            return None
        item = rate.item()
        if self._shared is not None:
            try:
                wait = await _ask(self._shared, item, key, count)
            except StorageError as exc:
                if not self._outage:
                    self._outage = True
                    log.warning("rate limits: Redis cannot be reached (%s); counting here", exc)
            else:
                if self._outage:
                    self._outage = False
                    log.warning("rate limits: Redis is back")
                return wait
        return await _ask(self._local, item, key, count)

    async def close(self) -> None:
        """Close the connections to Redis (the memory counters need nothing)."""
        if self._pool is not None:
            await self._pool.aclose()
            self._pool = None


async def _ask(
    limiter: SlidingWindowCounterRateLimiter,
    item: RateLimitItem,
    key: tuple[str, ...],
    count: bool,
) -> float | None:
    allowed = await (limiter.hit(item, *key) if count else limiter.test(item, *key))
    if allowed:
        return None
    stats = await limiter.get_window_stats(item, *key)
    return float(max(1, math.ceil(stats.reset_time - time.time())))
