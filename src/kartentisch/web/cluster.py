"""Several server processes sharing their tables through PostgreSQL and Redis.

``kartentisch serve --db postgresql://… --redis redis://…`` may run as many
times as wanted, behind any load balancer: a player connected to one process
sits at the same table, live, as a player connected to another. How it is
deployed and what happens when a part fails: docs/deploy.md.

**Ownership.** Exactly one process runs (owns) a table at a time: the one
holding the table's lease, the Redis key ``kartentisch:lease:<id>`` whose
value is the process's id (taken with ``SET NX PX``). The owner renews its
leases every quarter of the lease time, by a script that renews only the
keys still holding its id (and takes back a free one). A process that cannot
renew for half the lease time stops running its tables before anyone else
may take them; a process that dies stops renewing, and once the lease has run
out the next process that needs the table (a player's connection, a lobby
request, or the periodic sweep for unowned unfinished tables) takes it and
rebuilds it from PostgreSQL exactly as a restart does. A Redis that has just
started (restarted, empty or from a snapshot, or flushed) may have lost leases
whose owners still run their tables: for one lease time after it met the
cluster (:data:`SINCE_KEY`, and its uptime) nobody takes over a table, and the
owners take their leases back at their next renewal. Every action is stored
before anyone hears of it, so nothing a player saw is lost. The primary key
of ``table_actions`` (table, number) is the last fence: two owners can never
both store action number *n*; the loser rebuilds its table from the store.

**Connections.** A WebSocket stays with the process the load balancer gave it
to. Every table socket goes through a :class:`TableLink`: when this process
owns the table, messages go to the :class:`~kartentisch.web.livetable.LiveTable`
as without a cluster; otherwise they are forwarded to the owner over Redis
(pub/sub, one channel per process: ``kartentisch:proc:<id>``), where a
:class:`RemoteConnection` stands for the socket. The owner treats it like any
connection (seat, grace time, spectator count, real-time pings) and what it
sends it is published on the channel of the one process that holds the
socket, addressed to that socket. When the owner changes (it died, it shut
down, it lost its lease), the link finds the table again, says the socket's
last accepted ``hello`` there and sends what the client sent meanwhile.

**Hidden information.** The owner computes every view itself, one per
connection, exactly as a single process does; a view travels only to the
process that holds that seat's socket, addressed to that socket, and no
process ever receives a view meant for a seat it does not serve. Redis, like
PostgreSQL, is inside the trust boundary: it carries views and seat tokens
(a ``hello`` forwarded, a token answered to a ``join``) and must not be
reachable by players.

**The lobby.** Tables and their seat tokens (as hashes) are in PostgreSQL:
the list comes from there; joining, starting and showing a table are carried
out by its owner (a request over Redis, answered on the asker's channel).

**Tables waiting for players.** The per-address cap counts the rows in
PostgreSQL; a process counting and storing an address's new waiting table
holds a Redis lock for that address's key (``kartentisch:creating:<hash>``),
so two processes never both take its last place. A waiting table's owner
expires it when its time is up, and gives its lease back at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import time
import weakref
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError, ResponseError
from sqlalchemy import and_, func, or_, select

from kartentisch.errors import KartentischError
from kartentisch.storage.models import TableActionRow, TableRow
from kartentisch.storage.store import UNFINISHED
from kartentisch.web.adapter import table_game_type
from kartentisch.web.cluster_link import RemoteConnection, TableLink, decode, encode
from kartentisch.web.livetable import LiveTable
from kartentisch.web.manager import TableManager
from kartentisch.web.protocol import Hello
from kartentisch.web.seats import Connection, Seat, TableError

__all__ = ["DEFAULT_LEASE", "Cluster", "RemoteConnection", "TableLink", "redacted"]

log = logging.getLogger("kartentisch.web.cluster")

PREFIX: Final = "kartentisch:"
#: Seconds a table's lease lasts without renewal (how long a dead owner's tables wait).
DEFAULT_LEASE: Final = 5.0
#: Messages waiting to be published; past this, messages to other processes are dropped.
MAX_OUTBOX: Final = 100_000
#: Seconds to wait for the owner's answer to a lobby request.
CALL_TIMEOUT: Final = 5.0
#: Seconds before subscribing again after the subscription was lost, doubled up to the last.
RESUBSCRIBE_FIRST: Final = 0.05
RESUBSCRIBE_LAST: Final = 0.5
#: Checks for a dead edge process before its connections are let go.
EDGE_STRIKES: Final = 2

#: Admits a ``hello`` at a table, or refuses it and tells the connection (spectators full).
Gate = Callable[[LiveTable, Connection, Hello], bool]

#: Notes, once, when this Redis's data first met the cluster (its own clock, in ms).
#: KEYS[1]: :data:`SINCE_KEY`. A Redis that restarted empty, or was flushed, lacks it.
_SINCE: Final = """
local now = redis.call('time')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local since = tonumber(redis.call('get', KEYS[1]))
if not since then
  since = ms
  redis.call('set', KEYS[1], since)
end
"""
#: KEYS: the marker, then the leases; ARGV: this process, the lease (ms).
_RENEW: Final = (
    _SINCE
    + """
local out = {}
for i = 2, #KEYS do
  local holder = redis.call('get', KEYS[i])
  if holder == ARGV[1] then
    redis.call('pexpire', KEYS[i], ARGV[2])
    out[i - 1] = 1
  elseif not holder then
    redis.call('set', KEYS[i], ARGV[1], 'px', ARGV[2])
    out[i - 1] = 1
  else
    out[i - 1] = 0
  end
end
return out
"""
)
#: Takes the lease of a table that exists (KEYS: the marker, the lease; ARGV: this
#: process, the lease in ms): 1 taken, 0 held by another, -1 not yet (this Redis met
#: the cluster less than a lease ago: the owners may still take their leases back).
_TAKE_OVER: Final = (
    _SINCE
    + """
if ms - since < tonumber(ARGV[2]) then
  return -1
end
if redis.call('set', KEYS[2], ARGV[1], 'nx', 'px', ARGV[2]) then
  return 1
end
return 0
"""
)
_RELEASE: Final = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


#: The marker of :data:`_SINCE` (no expiry: it lasts as long as the Redis's data).
SINCE_KEY: Final = f"{PREFIX}since"


def lease_key(table_id: str) -> str:
    return f"{PREFIX}lease:{table_id}"


def _channel(process: str) -> str:
    return f"{PREFIX}proc:{process}"


def redacted(url: str) -> str:
    """``url`` without its password (for logs and the startup line).

    >>> redacted("redis://user:secret@cache:6379/0")
    'redis://user:***@cache:6379/0'
    >>> redacted("redis://127.0.0.1:6379/0")
    'redis://127.0.0.1:6379/0'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port is not None else ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))


# -- lobby requests carried out by a table's owner ----------------------------------


async def _show(table: LiveTable, args: dict[str, Any]) -> dict[str, Any]:
    return {"table": table.summary()}


async def _join(table: LiveTable, args: dict[str, Any]) -> dict[str, Any]:
    seat = args.get("seat")
    wanted = seat if isinstance(seat, int) and not isinstance(seat, bool) else None
    account = args.get("account")
    logged_in = account if isinstance(account, int) and not isinstance(account, bool) else None
    needs = table.needs_account
    if logged_in is None and needs is not None:
        raise TableError(needs, 403)
    number, token = await table.join(str(args.get("name")), wanted, logged_in)
    return {"id": table.id, "seat": number, "token": token}


async def _start(table: LiveTable, args: dict[str, Any]) -> dict[str, Any]:
    token = args.get("token")
    await table.start(token if isinstance(token, str) else None)
    return {"table": table.summary()}


_CALLS: Final[dict[str, Callable[[LiveTable, dict[str, Any]], Awaitable[dict[str, Any]]]]] = {
    "show": _show,
    "join": _join,
    "start": _start,
}


class Cluster:
    """This process's part of a cluster: leases, links, remote connections, the Redis bus.

    Made and started by the app's lifespan when ``--redis`` is given; it sets
    :attr:`TableManager.claim`, so that the manager restores and creates only
    tables whose lease this process holds.
    """

    def __init__(
        self,
        manager: TableManager,
        url: str,
        *,
        gate: Gate | None = None,
        lease: float = DEFAULT_LEASE,
    ) -> None:
        if lease <= 0:
            raise ValueError("a lease must last a positive number of seconds")
        self.manager = manager
        self.url = url
        self.gate: Gate = gate or (lambda table, conn, hello: True)
        self.lease = lease
        self.lease_ms = max(1, round(lease * 1000))
        #: This process in the cluster (new at every start).
        self.id = secrets.token_hex(8)
        self.channel = _channel(self.id)
        self.redis: aioredis.Redis = aioredis.Redis.from_url(
            url, decode_responses=True, socket_connect_timeout=3, socket_timeout=10
        )
        #: The subscription's own client, which never retries by itself: a lost
        #: connection always reaches :meth:`_listen` (see :meth:`_subscribed_again`).
        self._subscriber: aioredis.Redis = aioredis.Redis.from_url(
            url,
            decode_responses=True,
            socket_connect_timeout=3,
            socket_timeout=10,
            retry=Retry(NoBackoff(), 0),
        )
        self._renew = self.redis.register_script(_RENEW)
        self._take_over_script = self.redis.register_script(_TAKE_OVER)
        self._release_script = self.redis.register_script(_RELEASE)
        #: Tables whose lease this process holds, with when it took each (monotonic).
        self.owned: dict[str, float] = {}
        #: Tables this process stopped running (a link or a request must not use them).
        self._retired: weakref.WeakSet[LiveTable] = weakref.WeakSet()
        #: Messages being handled at each table (a table is let go when they are done).
        self._busy: dict[LiveTable, int] = {}
        self._links: dict[int, TableLink] = {}
        self._remote: dict[tuple[str, int], RemoteConnection] = {}
        self._calls: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._numbers = itertools.count(1)
        self._outbox: deque[tuple[str, str, Callable[[], None] | None]] = deque()
        #: Messages posted and not yet published.
        self._unsent = 0
        #: Processes a message reached nobody at lately (dead, or briefly away from Redis).
        self._silent: dict[str, float] = {}
        self._outbox_ready = asyncio.Event()
        self._subscribed = asyncio.Event()
        self._locks = [asyncio.Lock() for _ in range(64)]
        self._tasks: list[asyncio.Task[None]] = []
        self._timers: list[asyncio.Task[None]] = []
        self._answering: set[asyncio.Task[None]] = set()
        self._renewed_at = time.monotonic()
        self._strikes: dict[str, int] = {}
        self._dropped_outbox = 0
        self.closing = False

    # -- life -----------------------------------------------------------------------

    async def start(self) -> None:
        """Reach Redis, listen on this process's channel, start the timers."""
        try:
            await self.redis.ping()
        except (RedisError, OSError) as exc:
            raise KartentischError(f"cannot reach Redis at {redacted(self.url)}: {exc}") from exc
        self.manager.claim = self.claim
        self.manager.release = self._release
        self.manager.one_creator = self._one_creator
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen(), name="cluster-listen"),
            loop.create_task(self._send_loop(), name="cluster-send"),
        ]
        await asyncio.wait_for(self._subscribed.wait(), 10)
        self._timers = [
            loop.create_task(self._keep_leases(), name="cluster-leases"),
            loop.create_task(self._watch(), name="cluster-watch"),
            loop.create_task(self._sweep(), name="cluster-sweep"),
        ]
        log.info("process %s joined the cluster at %s", self.id, redacted(self.url))

    async def migrate(self) -> None:
        """Upgrade the schema, one process of the cluster at a time."""
        lock = self.redis.lock(f"{PREFIX}migrate", timeout=300, blocking_timeout=300)
        async with lock:
            self.manager.store.migrate()

    async def close(self) -> None:
        """Let go of every table (the other processes take them at once), then leave."""
        self.closing = True
        for task in self._timers:
            task.cancel()
        for task in self._timers:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for table_id in list(self.owned):
            await self._drop(table_id, release=True)
        # What is queued (the word to other processes that their tables moved) goes out first.
        deadline = time.monotonic() + 2
        while self._unsent and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for future in self._calls.values():
            if not future.done():
                future.set_result({})
        for client in (self._subscriber, self.redis):
            with contextlib.suppress(RedisError, OSError):
                await client.aclose()
        self.manager.claim = None
        self.manager.release = None
        self.manager.one_creator = None

    # -- leases -------------------------------------------------------------------

    async def claim(self, table_id: str) -> bool:
        """Take the lease of ``table_id`` if nobody holds it."""
        try:
            taken = await self.redis.set(lease_key(table_id), self.id, nx=True, px=self.lease_ms)
        except (RedisError, OSError) as exc:
            log.warning("cannot take the lease of table %s: %s", table_id, exc)
            raise TableError("server_error", 503) from exc
        if taken:
            self.owned[table_id] = time.monotonic()
        return bool(taken)

    @contextlib.asynccontextmanager
    async def _one_creator(self, creator: str) -> AsyncIterator[None]:
        """Held while this process counts and stores a waiting table of ``creator``."""
        # (Held for a count and a commit: milliseconds; waited for as long as a lobby call.)
        lock = self.redis.lock(
            f"{PREFIX}creating:{creator}",
            timeout=2 * CALL_TIMEOUT,
            blocking_timeout=2 * CALL_TIMEOUT,
        )
        try:
            taken = await lock.acquire()
        except (RedisError, OSError) as exc:
            log.warning("cannot take the lock of an address's new table: %s", exc)
            raise TableError("server_error", 503) from exc
        if not taken:
            raise TableError("server_error", 503)
        try:
            yield
        finally:
            with contextlib.suppress(RedisError, OSError):
                await lock.release()

    async def _take_over(self, table_id: str) -> bool | None:
        """Take the lease of ``table_id``, a table that exists, if nobody holds it.

        None: not now. Redis met the cluster less than a lease ago (it restarted,
        empty or from a snapshot, or was flushed): it may have lost leases whose
        owners still run their tables, and they take them back at their next
        renewal, a quarter of a lease, before anyone else may. Held in Redis
        itself (:data:`SINCE_KEY`, its uptime), whatever this process noticed.
        """
        try:
            if await self._redis_uptime() <= self.lease:
                return None
            answer = await self._take_over_script(
                keys=[SINCE_KEY, lease_key(table_id)], args=[self.id, self.lease_ms]
            )
        except (RedisError, OSError) as exc:
            log.warning("cannot take the lease of table %s: %s", table_id, exc)
            raise TableError("server_error", 503) from exc
        if answer == -1:
            return None
        if answer == 1:
            self.owned[table_id] = time.monotonic()
            return True
        return False

    async def _redis_uptime(self) -> float:
        """Seconds the Redis server has run (unbounded if it does not say)."""
        try:
            info = await self.redis.info("server")
        except ResponseError:  # INFO renamed or refused: the marker alone tells
            return float("inf")
        uptime = info.get("uptime_in_seconds")
        return float(uptime) if isinstance(uptime, int | float) else float("inf")

    async def _release(self, table_id: str) -> None:
        self.owned.pop(table_id, None)
        try:
            await self._release_script(keys=[lease_key(table_id)], args=[self.id])
        except (RedisError, OSError) as exc:
            log.warning("cannot release the lease of table %s: %s", table_id, exc)

    async def _keep_leases(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 4)
            try:
                await self.renew()
            except Exception:
                log.exception("renewing the leases failed")

    async def renew(self) -> None:
        """Renew every lease held; let go of the tables whose lease is lost.

        If Redis does not answer, the tables are let go once the leases may
        have only half their time left: before anyone else may take them.
        """
        now = time.monotonic()
        for table_id, since in list(self.owned.items()):
            # A table no longer live here (finished, left memory) needs no owner.
            if table_id not in self.manager.tables and now - since > self.lease:
                await self._release(table_id)
        ids = list(self.owned)
        try:
            results: list[int] = []
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                keys = [lease_key(t) for t in chunk]
                answer = self._renew(keys=[SINCE_KEY, *keys], args=[self.id, self.lease_ms])
                results += await asyncio.wait_for(answer, self.lease / 8)
        except (RedisError, OSError, TimeoutError) as exc:
            log.warning("cannot renew %d lease(s): %s", len(ids), exc)
            late = time.monotonic() - self._renewed_at
            if late >= self.lease / 2 and self.owned:
                log.error("leases not renewed for %.2f s: stopping %d table(s)", late, len(ids))
                for table_id in list(self.owned):
                    await self._drop(table_id, release=False)
            return
        self._renewed_at = now
        for table_id, kept in zip(ids, results, strict=True):
            if not kept and table_id in self.owned:
                log.warning("table %s: the lease went to another process", table_id)
                await self._drop(table_id, release=False)

    async def _drop(self, table_id: str, *, release: bool) -> None:
        """Stop running ``table_id`` here; its connections move to the new owner."""
        self.owned.pop(table_id, None)
        table = self.manager.tables.get(table_id)
        if table is not None:
            self._retired.add(table)
            del self.manager.tables[table_id]
            await table.stop_driver()
            for _ in range(500):  # what is being handled finishes (and is stored) first
                if not self._busy.get(table):
                    break
                await asyncio.sleep(0.01)
            async with table.lock:
                pass
        if release:
            await self._release(table_id)
        if table is None:
            return
        for key, remote in list(self._remote.items()):
            if remote.table is table:
                del self._remote[key]
                remote.retire()
        for link in list(self._links.values()):
            if link.table is table:
                if self.closing:
                    link.conn.close()
                else:
                    link.relink()
        table.connections.clear()

    def _is_silent(self, process: str) -> bool:
        """Whether a message to ``process`` reached nobody within the lease time."""
        since = self._silent.get(process)
        if since is None:
            return False
        if time.monotonic() - since < self.lease:
            return True
        del self._silent[process]
        return False

    async def _listens(self, process: str) -> bool:
        """Whether ``process``, silent lately, listens on its channel again (it was
        only away from Redis for a moment); then it is silent no more."""
        counts = await self.redis.pubsub_numsub(_channel(process))
        if not counts or not counts[0][1]:
            return False
        self._silent.pop(process, None)
        return True

    def _lock(self, table_id: str) -> asyncio.Lock:
        return self._locks[hash(table_id) % len(self._locks)]

    def _live(self, table_id: str) -> LiveTable | None:
        table = self.manager.tables.get(table_id)
        if table is None or table_id not in self.owned or table in self._retired:
            return None
        return table

    def usable(self, table: LiveTable) -> bool:
        """Whether ``table`` is still run here (or is a finished table, read from the store)."""
        if table in self._retired:
            return False
        ended = table.status in ("finished", "expired")
        if ended and self.manager.tables.get(table.id) is not table:
            return True
        return self._live(table.id) is table

    @contextlib.contextmanager
    def working(self, table: LiveTable) -> Iterator[None]:
        """Count a message being handled at ``table`` (it is not let go meanwhile)."""
        self._busy[table] = self._busy.get(table, 0) + 1
        try:
            yield
        finally:
            left = self._busy[table] - 1
            if left:
                self._busy[table] = left
            else:
                del self._busy[table]

    async def locate(self, table_id: str) -> LiveTable | str | None:
        """Where ``table_id`` is: its live table here, the id of its owner, or None (no table).

        A table nobody owns is taken and rebuilt from the store; a finished
        table is read from the store (it needs no owner). An empty string:
        not now (its owner has gone silent and its lease has not run out yet).
        """
        if not table_id or len(table_id) > 32:
            return None
        async with self._lock(table_id):
            for _ in range(200):
                table = self._live(table_id)
                if table is not None:
                    return table
                holder: str | None = await self.redis.get(lease_key(table_id))
                if holder is not None and holder != self.id:
                    if self._is_silent(holder) and not await self._listens(holder):
                        return ""  # its owner died: wait for the lease to run out
                    return holder
                stored = self.manager.store.load(table_id)
                if holder == self.id:
                    if table_id in self.owned and (stored is None or stored.status in UNFINISHED):
                        await asyncio.sleep(0.05)  # being created here
                    else:
                        await self._release(table_id)  # a table that left memory
                    continue
                if stored is None:
                    return None
                if stored.status not in UNFINISHED:
                    return self.manager.finished(stored)  # (kept: replayed once)
                taken = await self._take_over(table_id)
                if taken is None:
                    return ""  # Redis is new: its owner may be about to take its lease again
                if taken:
                    # As after a restart: what the last owner stored is the table.
                    live = self.manager.get(table_id)
                    if live is None or live.status not in UNFINISHED:
                        await self._release(table_id)
                    if live is not None:
                        log.info("table %s: taken over by process %s", table_id, self.id)
                    return live
            raise TableError("server_error", 503)

    # -- the lobby ------------------------------------------------------------------

    def lobby(self, limit: int = 100) -> list[dict[str, Any]]:
        """The newest tables waiting or playing, of every process (from the store)."""
        with self.manager.store.engine.connect() as db:
            rows = db.execute(
                select(
                    TableRow.id,
                    TableRow.game,
                    TableRow.options,
                    TableRow.settings,
                    TableRow.seats,
                    TableRow.seed,
                    TableRow.status,
                )
                .where(
                    TableRow.status.in_(UNFINISHED),
                    # (an overdue waiting or unseen table is about to expire)
                    or_(
                        and_(TableRow.status != "waiting", TableRow.creator.is_(None)),
                        TableRow.created >= self.manager.waiting_cutoff(),
                    ),
                )
                .order_by(TableRow.created.desc())
                .limit(limit)
            ).all()
            ids = [row.id for row in rows]
            counts: dict[str, int] = {}
            if ids:
                counted = db.execute(
                    select(TableActionRow.table_id, func.count())
                    .where(TableActionRow.table_id.in_(ids))
                    .group_by(TableActionRow.table_id)
                ).all()
                counts = {table_id: int(n) for table_id, n in counted}
        tables: list[dict[str, Any]] = []
        for row in rows:
            live = self._live(row.id)
            if live is not None:
                tables.append(live.summary())
                continue
            try:
                kind = table_game_type(row.game)
            except KartentischError:
                continue
            seen = LiveTable(
                self.manager,
                table_id=row.id,
                kind=kind,
                options=dict(row.options),
                settings=dict(row.settings),
                seats=[Seat.from_json(s) for s in row.seats],
                seed=row.seed,
                status=row.status,
            )
            summary = seen.summary()
            summary["version"] = counts.get(row.id, 0)
            tables.append(summary)
        # A private table is reached by its invite link only.
        return [t for t in tables if not t["private"]]

    def snapshot(self, table_id: str) -> LiveTable | None:
        """The table to read (its record): live here, else as stored."""
        table = self._live(table_id)
        if table is not None:
            return table
        if len(table_id) > 32:
            return None
        stored = self.manager.store.load(table_id)
        if stored is None:
            return None
        if stored.status not in UNFINISHED:
            return self.manager.finished(stored)  # (kept: replayed once)
        return self.manager._from_stored(stored)

    async def call(self, table_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """Carry out the lobby request ``name`` (show, join, start) where the table runs."""
        request = _CALLS[name]
        deadline = time.monotonic() + 2 * self.lease + CALL_TIMEOUT
        while True:
            try:
                where = await self.locate(table_id)
            except (RedisError, OSError):
                where = ""
            if where is None:
                raise TableError("no_such_table", 404)
            if isinstance(where, LiveTable):
                with self.working(where):
                    return await request(where, args)
            if where:
                answer = await self._ask(where, table_id, name, args)
                if answer is None:
                    # Asked, but no answer: it may have been carried out; not asked twice.
                    raise TableError("server_error", 503)
                if "ok" in answer:
                    result: dict[str, Any] = answer["ok"]
                    return result
                error = answer.get("error")
                if isinstance(error, dict):
                    params = error.get("params") or {}
                    status = int(error.get("status", 400))
                    raise TableError(str(error.get("code")), status, **params)
            # The owner is gone or let the table go: ask again where it is.
            if time.monotonic() > deadline:
                raise TableError("server_error", 503)
            await asyncio.sleep(0.1)

    async def _ask(
        self, owner: str, table_id: str, name: str, args: dict[str, Any]
    ) -> dict[str, Any] | None:
        number = next(self._numbers)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[number] = future

        def lost() -> None:
            if not future.done():
                future.set_result({})

        payload = {"op": "call", "id": number, "table": table_id, "call": name, "args": args}
        self.post(owner, payload, lost)
        try:
            return await asyncio.wait_for(future, CALL_TIMEOUT)
        except TimeoutError:
            return None
        finally:
            self._calls.pop(number, None)

    async def _answer(self, sender: str, message: dict[str, Any]) -> None:
        number = message.get("id")
        request = _CALLS.get(str(message.get("call")))
        table = self._live(str(message.get("table")))
        args = message.get("args")
        reply: dict[str, Any] = {"op": "answer", "id": number}
        if table is None or request is None or not isinstance(args, dict):
            reply["moved"] = True
        else:
            try:
                with self.working(table):
                    reply["ok"] = await request(table, args)
            except TableError as exc:
                reply["error"] = {"code": exc.code, "status": exc.status, "params": exc.params}
            except Exception:
                log.exception("table %s: a lobby request failed", table.id)
                reply["error"] = {"code": "server_error", "status": 500, "params": {}}
        self.post(sender, reply)

    # -- table sockets ----------------------------------------------------------------

    async def link(self, table_id: str, conn: Connection) -> TableLink | None:
        """The link of a new WebSocket to ``table_id``; None if there is no such table."""
        try:
            where = await self.locate(table_id)
        except (RedisError, OSError, TableError):
            # Redis is away: the link keeps looking for the table (if it exists).
            if len(table_id) > 32 or self.manager.store.load(table_id) is None:
                return None
            where = ""
        if where is None:
            return None
        link = TableLink(self, table_id, conn, next(self._numbers))
        self._links[link.number] = link
        if isinstance(where, LiveTable):
            link.table = where
        elif where:
            link.settle_at(where)
        else:
            link.relink()
        return link

    def _unlink(self, link: TableLink) -> None:
        self._links.pop(link.number, None)

    # -- the bus ------------------------------------------------------------------------

    def post(
        self, process: str, payload: dict[str, Any], lost: Callable[[], None] | None = None
    ) -> None:
        """Publish ``payload`` to ``process`` (in order); ``lost()`` if nobody received it."""
        if len(self._outbox) >= MAX_OUTBOX:
            self._dropped_outbox += 1
            if self._dropped_outbox % 1000 == 1:
                log.error("Redis is not keeping up: %d message(s) dropped", self._dropped_outbox)
            return
        payload["from"] = self.id
        data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        self._outbox.append((process, data, lost))
        self._unsent += 1
        self._outbox_ready.set()

    async def _send_loop(self) -> None:
        while True:
            await self._outbox_ready.wait()
            self._outbox_ready.clear()
            while self._outbox:
                batch = [self._outbox.popleft() for _ in range(min(500, len(self._outbox)))]
                failed = False
                try:
                    if len(batch) == 1:
                        results = [await self.redis.publish(_channel(batch[0][0]), batch[0][1])]
                    else:
                        async with self.redis.pipeline(transaction=False) as pipe:
                            for process, data, _ in batch:
                                pipe.publish(_channel(process), data)
                            results = await pipe.execute()
                except Exception as exc:  # Redis away (or a bug): the messages are lost
                    log.warning("cannot publish %d message(s): %s", len(batch), exc)
                    results = [0] * len(batch)
                    failed = True
                for (process, _, lost), receivers in zip(batch, results, strict=True):
                    if not receivers and not failed:
                        self._silent[process] = time.monotonic()
                    if not receivers and lost is not None:
                        try:
                            lost()
                        except Exception:
                            log.exception("a lost message could not be handled")
                self._unsent -= len(batch)
                if failed:
                    await asyncio.sleep(0.2)

    async def _listen(self) -> None:
        delay = RESUBSCRIBE_FIRST
        while True:
            pubsub = self._subscriber.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                if self._subscribed.is_set():
                    log.warning("listening on this process's channel again")
                    self._subscribed_again()
                self._subscribed.set()
                delay = RESUBSCRIBE_FIRST
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None and message.get("type") == "message":
                        self._dispatch(message["data"])
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                # Messages to this process reach nobody until it listens again: it tries
                # soon, then less often while Redis stays away (telling of it once).
                if delay == RESUBSCRIBE_FIRST:
                    log.warning("lost the Redis subscription (%s); subscribing again", exc)
                await asyncio.sleep(delay)
                delay = min(RESUBSCRIBE_LAST, 2 * delay)
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    def _subscribed_again(self) -> None:
        """This process listens on its channel again, after Redis was away.

        What owners sent its sockets meanwhile (states, errors) was lost: Redis
        keeps nothing for a channel nobody listens on, and an owner whose
        publishing failed has no one to tell. The owner may well be the same
        (its lease outlived the outage), so nothing else would make these
        sockets catch up. Each socket at a table run elsewhere finds its table
        again and says its last ``hello`` there: the client is sent the current state.

        The subscription's client never reconnects by itself (redis-py would,
        silently, and these sockets would never catch up). That a Redis that
        restarted lost the leases of tables whose owners still run them is not
        this method's to mind: :meth:`_take_over` holds in Redis itself.
        """
        for link in list(self._links.values()):
            if link.owner is not None:
                link.relink()

    def _dispatch(self, data: str) -> None:
        try:
            message = json.loads(data)
            sender = message["from"]
            op = message["op"]
            if not isinstance(sender, str) or not isinstance(op, str):
                return
            if op == "answer":
                future = self._calls.get(message.get("id"))
                if future is not None and not future.done():
                    future.set_result(message)
            elif op == "call":
                task = asyncio.get_running_loop().create_task(self._answer(sender, message))
                self._answering.add(task)
                task.add_done_callback(self._answering.discard)
            elif op in ("open", "msg", "close"):
                self._from_edge(sender, op, message)
            else:
                link = self._links.get(message.get("cid"))
                if link is not None:
                    link.from_owner(sender, op, message)
        except Exception:
            log.exception("a message from another process could not be handled")

    def _from_edge(self, sender: str, op: str, message: dict[str, Any]) -> None:
        """A message of a socket held by ``sender`` for a table this process owns."""
        cid = message.get("cid")
        if not isinstance(cid, int):
            return
        key = (sender, cid)
        if op == "open":
            replaced = self._remote.pop(key, None)
            if replaced is not None:
                replaced.inbox.put_nowait(None)
            table = self._live(str(message.get("table")))
            if table is None:
                self.post(sender, {"op": "moved", "cid": cid, "bounced": []})
                return
            lang = message.get("lang")
            self._remote[key] = RemoteConnection(self, sender, cid, table, str(lang or "en"))
        elif op == "msg":
            target = self._remote.get(key)
            seq = message.get("s")
            parsed = decode(message.get("m"))
            if parsed is None or not isinstance(seq, int):
                return
            if target is None:
                self.post(sender, {"op": "moved", "cid": cid, "bounced": [[seq, encode(parsed)]]})
                return
            target.inbox.put_nowait((seq, parsed))
        else:
            gone = self._remote.pop(key, None)
            if gone is not None:
                gone.inbox.put_nowait(None)

    # -- watching the other processes ----------------------------------------------------

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                await self.check()
            except (RedisError, OSError) as exc:
                log.warning("cannot check the other processes: %s", exc)
            except Exception:
                log.exception("checking the other processes failed")

    async def check(self) -> None:
        """Move links whose table changed owner; let go of sockets of dead processes."""
        for process in list(self._silent):
            self._is_silent(process)  # (forgets the old ones)
        remote = [link for link in self._links.values() if link.owner is not None]
        if remote:
            ids = sorted({link.table_id for link in remote})
            holders = await self.redis.mget([lease_key(t) for t in ids])
            where = dict(zip(ids, holders, strict=True))
            for link in remote:
                if where.get(link.table_id) != link.owner:
                    link.relink()
        origins = sorted({key[0] for key in self._remote})
        if origins:
            counts = await self.redis.pubsub_numsub(*(_channel(o) for o in origins))
            for origin, (_, listeners) in zip(origins, counts, strict=True):
                if listeners:
                    self._strikes.pop(origin, None)
                    continue
                strikes = self._strikes[origin] = self._strikes.get(origin, 0) + 1
                if strikes < EDGE_STRIKES:
                    continue
                del self._strikes[origin]
                log.warning("process %s is gone: its connections leave their tables", origin)
                for key, gone in list(self._remote.items()):
                    if key[0] == origin:
                        del self._remote[key]
                        gone.inbox.put_nowait(None)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.lease * (1 + secrets.randbelow(1000) / 1000))
            try:
                await self.adopt()
            except (RedisError, OSError) as exc:
                log.warning("cannot look for tables without an owner: %s", exc)
            except Exception:
                log.exception("looking for tables without an owner failed")

    async def adopt(self) -> int:
        """Take the unfinished tables nobody owns (their owner died); return how many."""
        with self.manager.store.engine.connect() as db:
            ids = [
                row[0]
                for row in db.execute(select(TableRow.id).where(TableRow.status.in_(UNFINISHED)))
            ]
        ids = [t for t in ids if t not in self.manager.tables]
        taken = 0
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            holders = await self.redis.mget([lease_key(t) for t in chunk])
            for table_id, holder in zip(chunk, holders, strict=True):
                if holder is None and isinstance(await self.locate(table_id), LiveTable):
                    taken += 1
        return taken
