"""The tables of one server: :class:`TableManager` creates, finds and restores them.

The manager keeps the finished tables read last, rebuilt once for their
review; after a restart every unfinished table is rebuilt from the store by
replaying its actions through the engine (:func:`rebuild`).

A table **waiting for players** expires when it has not started within
:attr:`ServerSettings.waiting_expiry` (:meth:`LiveTable.expire`); a table that
waited past its time while the server was away is marked expired when it is
read. Each address key (:mod:`kartentisch.web.addresses`) may have at most
:attr:`ServerSettings.max_waiting_per_address` tables waiting: the store counts
the rows whose ``creator`` is the key's keyed hash, so the cap holds across
restarts and the processes of a cluster.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from kartentisch.storage import StoredTable, TableNotWaiting, TableStore, UnreadableTable
from kartentisch.web.adapter import TableGame, TableGameType, is_realtime, table_game_type
from kartentisch.web.addresses import UNKNOWN
from kartentisch.web.gc_tuning import GCTuning
from kartentisch.web.livetable import LiveTable
from kartentisch.web.lobby import NewTable
from kartentisch.web.moments import now as _now
from kartentisch.web.saving import first_line as _first_line
from kartentisch.web.seats import Seat, TableError, hash_token
from kartentisch.web.seats import bot_name as _bot_name
from kartentisch.web.settings import ServerSettings

__all__ = ["TableManager", "rebuild"]

log = logging.getLogger("kartentisch.web")


def rebuild(stored: StoredTable) -> tuple[TableGameType, list[Seat], TableGame | None]:
    """A stored table's game type, seats and game (replayed; None while it waits).

    :class:`UnreadableTable` if they cannot be rebuilt (an unknown game, a
    damaged seat, actions that do not replay): the table is set aside.
    """
    try:
        kind = table_game_type(stored.game)
        seats = [Seat.from_json(s) for s in stored.seats]
        game: TableGame | None = None
        if stored.status in ("playing", "finished"):
            names = [s.name for s in seats]
            game = kind.replay(stored.options, names, stored.seed, stored.actions)
    except Exception as exc:
        raise UnreadableTable(stored.id, stored.game, _first_line(exc)) from exc
    return kind, seats, game


class TableManager:
    """All live tables of one server, backed by the store."""

    def __init__(self, store: TableStore, settings: ServerSettings | None = None) -> None:
        self.store = store
        self.settings = settings or ServerSettings()
        self.tables: dict[str, LiveTable] = {}
        #: Tables being stored by :meth:`create`, not yet in ``tables``.
        self._opening = 0
        #: Finished tables read lately, kept for their review (least recently read first).
        self._finished: OrderedDict[str, LiveTable] = OrderedDict()
        self._gc = GCTuning()
        #: In a cluster (:mod:`kartentisch.web.cluster`): takes a table's lease; a table is
        #: restored or created here only if this returns True.
        self.claim: Callable[[str], Awaitable[bool]] | None = None
        #: In a cluster: gives a table's lease back (a table that expired here).
        self.release: Callable[[str], Awaitable[None]] | None = None
        #: In a cluster: held, per creator key, from counting an address's waiting tables
        #: until the new one is stored, so that two processes never both take the last place.
        self.one_creator: Callable[[str], contextlib.AbstractAsyncContextManager[Any]] | None = None
        #: Tables with open seats being stored by :meth:`create`, per creator key.
        self._opening_by: dict[str, int] = {}
        self._address_secret: bytes | None = None
        #: Expiries under way (kept so that they are not collected mid-way).
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Called once a table has ended and its end is stored, before anyone is told
        #: (a real-time table: just after): the app records the accounts' results and
        #: ratings there (kartentisch.web.results). A failure is logged, never raised.
        self.on_finish: Callable[[LiveTable], Awaitable[None]] | None = None
        #: Called, in a task of its own, with a correspondence table and the seats whose move
        #: has just become due (the app mails those who are not at the table).
        self.on_turn: Callable[[LiveTable, list[int]], Awaitable[None]] | None = None
        #: Called with a table, a seat and a language for the strong bot's suggestion to
        #: that seat (``{"action", "reason"}``; the app works it out in a worker).
        self.on_hint: Callable[[LiveTable, int, str], Awaitable[dict[str, Any]]] | None = None
        #: Called with a chat message someone reported (the app stores it for the admin).
        self.on_report: (
            Callable[[LiveTable, dict[str, Any], int | None], Awaitable[None]] | None
        ) = None

    async def restore(self) -> int:
        """Rebuild every unfinished table from the store; return how many.

        A waiting table that has waited past :attr:`ServerSettings.waiting_expiry`
        (the server was down meanwhile) is marked expired instead.
        """
        count = 0
        for found in self.store.unfinished():
            if self.claim is not None and not await self.claim(found.id):
                continue  # another process of the cluster runs it
            stored = self._expire_overdue(found)
            if stored.status not in ("waiting", "playing"):
                if self.release is not None:
                    await self.release(stored.id)
                continue
            try:
                table = self._from_stored(stored)
            except Exception:
                log.exception("table %s cannot be restored", stored.id)
                continue
            self._keep(table, stored)
            count += 1
        if self.settings.tune_gc:
            # The server has started: what exists now lives as long as it does.
            self._gc.start()
        return count

    def _from_stored(self, stored: StoredTable) -> LiveTable:
        """The live table of ``stored``; :class:`UnreadableTable` if it cannot be rebuilt."""
        kind, seats, game = rebuild(stored)
        table = LiveTable(
            self,
            table_id=stored.id,
            kind=kind,
            options=stored.options,
            settings=stored.settings,
            seats=seats,
            seed=stored.seed,
            status=stored.status,
        )
        table.unseen = stored.unseen
        if game is not None:
            table.game = game
            table.by = list(stored.by)
            table.gamelog.renew(table)
            # A correspondence table's move counts from the action that made it due.
            began = stored.last_action or stored.updated
            if began.tzinfo is None:  # (SQLite keeps times without their zone: UTC)
                began = began.replace(tzinfo=UTC)
            table.turn_wall = began.timestamp()
        now = _now()
        # Nobody is connected after a restart: the grace time starts now.
        for i, seat in enumerate(table.seats):
            if seat.kind == "human":
                table.attendance.away_since[i] = now
        return table

    def clock_moved(self) -> None:
        """The wall clock was set (a test's injected clock moved): every table looks at
        its deadlines again now."""
        for table in list(self.tables.values()):
            table.changed.set()

    def cached(self, table_id: str) -> LiveTable | None:
        """A table in memory: live, or finished and kept; nothing is read from the store."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        table = self._finished.get(table_id)
        if table is not None:
            self._finished.move_to_end(table_id)
        return table

    def get(self, table_id: str) -> LiveTable | None:
        """A live table, or a finished one (for its review): kept, or loaded from the store.

        A finished table is rebuilt from the store once and then kept among the
        ``ServerSettings.finished_kept`` finished tables read last (nothing
        changes any more); a table not in memory costs a replay of its session.
        """
        table = self.cached(table_id)
        if table is not None:
            return table
        if len(table_id) > 32:
            return None
        stored = self.store.load(table_id)
        if stored is None:
            return None
        if stored.status == "finished":
            return self.finished(stored)
        stored = self._expire_overdue(stored)
        table = self._from_stored(stored)
        if table.status not in ("waiting", "playing"):
            # Finished or expired: nothing changes any more, not kept in memory
            # (see LiveTable.forget_if_finished).
            return table
        self._keep(table, stored)
        return table

    def _keep(self, table: LiveTable, stored: StoredTable) -> None:
        """A table read from the store is run here: its driver, or its time to wait."""
        self.tables[table.id] = table
        if table.status == "playing":
            table.start_driver()
        if table.expirable:
            due = self._expiry_due(stored.created, stored.settings)
            if due is not None:
                table.watch_expiry(due)

    def waiting_time(self, settings: dict[str, Any]) -> float | None:
        """Seconds a table with ``settings`` may wait for its players (None: no limit): the
        server's :attr:`ServerSettings.waiting_expiry`, or at a correspondence table the
        time of one move if that is longer (the people asked come when they can)."""
        expiry = self.settings.waiting_expiry
        move = settings.get("move_seconds")
        if expiry is None or not move:
            return expiry
        return max(expiry, float(move))

    def _expiry_due(self, created: datetime, settings: dict[str, Any]) -> float | None:
        """When (monotonic) a table created at ``created`` expires if it still waits (or
        no person has come to it)."""
        expiry = self.waiting_time(settings)
        if expiry is None:
            return None
        if created.tzinfo is None:  # (SQLite keeps times without their zone: UTC)
            created = created.replace(tzinfo=UTC)
        waited = max(0.0, self.settings.wall_clock() - created.timestamp())
        return _now() + expiry - waited

    def _expire_overdue(self, stored: StoredTable) -> StoredTable:
        """``stored``, marked expired first if it has waited for players (or, unseen, for
        its people) past its time."""
        if not (stored.status == "waiting" or (stored.status == "playing" and stored.unseen)):
            return stored
        due = self._expiry_due(stored.created, stored.settings)
        if due is None or due > _now():
            return stored
        try:
            self.store.expire_table(stored.id)
        except TableNotWaiting:
            return self.store.load(stored.id) or stored  # it changed meanwhile: as it is now
        except Exception:
            # Run as waiting: its expiry, due at once, tries again.
            log.exception("table %s: cannot store that it expired", stored.id)
            return stored
        log.info("table %s: expired while the server was away", stored.id)
        stored.status = "expired"
        return stored

    async def table_ended(self, table: LiveTable) -> None:
        """Run :attr:`on_finish` for ``table`` (which just ended)."""
        if self.on_finish is None:
            return
        try:
            await self.on_finish(table)
        except Exception:
            log.exception("table %s: its results could not be recorded", table.id)

    async def chat_reported(
        self, table: LiveTable, said: dict[str, Any], reporter: int | None
    ) -> None:
        """Keep the reported chat message ``said`` (:attr:`on_report`); logged if it fails."""
        if self.on_report is None:
            return
        try:
            await self.on_report(table, said, reporter)
        except Exception:
            log.exception("table %s: a reported chat message could not be kept", table.id)

    def table_ended_later(self, table: LiveTable) -> None:
        """:meth:`table_ended` in a task of its own (from code that cannot wait)."""
        if self.on_finish is not None:
            self._spawn(self.table_ended(table), f"results of table {table.id}")

    def _spawn(self, work: Awaitable[Any], name: str) -> None:
        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("%s failed", name)

        task = asyncio.get_running_loop().create_task(run(), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def finished(self, stored: StoredTable) -> LiveTable:
        """The finished table ``stored``: the one kept, or rebuilt from it and kept."""
        table = self.cached(stored.id)
        if table is None or table.status != "finished":
            table = self._from_stored(stored)
            self._keep_finished(table)
        return table

    def _keep_finished(self, table: LiveTable) -> None:
        kept = self._finished
        kept[table.id] = table
        kept.move_to_end(table.id)
        while len(kept) > max(0, self.settings.finished_kept):
            kept.popitem(last=False)

    def live(self) -> list[LiveTable]:
        return [t for t in self.tables.values() if t.status in ("waiting", "playing")]

    # -- who opened a waiting table ---------------------------------------------------

    def creator_key(self, address: str) -> str:
        """The keyed hash an address key is stored and counted as (``tables.creator``).

        HMAC-SHA-256 under the database's own secret (:meth:`TableStore.address_secret`):
        the same in every process of a cluster, and no address in the store.
        """
        secret = self._address_secret
        if secret is None:
            secret = self._address_secret = self.store.address_secret()
        return hmac.new(secret, address.encode("utf-8"), hashlib.sha256).hexdigest()

    def waiting_cutoff(self) -> datetime:
        """Tables created before this and still waiting are overdue (about to expire)."""
        expiry = self.settings.waiting_expiry
        if expiry is None:
            return datetime(1970, 1, 1, tzinfo=UTC)
        return datetime.fromtimestamp(self.settings.wall_clock() - expiry, UTC)

    def waiting_count(self, address: str) -> int:
        """How many tables the address key ``address`` has waiting for players."""
        creator = self.creator_key(address)
        stored = self.store.waiting_count(creator, since=self.waiting_cutoff())
        return stored + self._opening_by.get(creator, 0)

    def _creator(self, address: str) -> str:
        """:meth:`creator_key`, refused with ``storage_error`` if the store cannot say."""
        try:
            return self.creator_key(address)
        except Exception as exc:
            log.exception("cannot read the key of the address hashes")
            raise TableError("storage_error", 503) from exc

    def _check_waiting(self, creator: str, cap: int) -> None:
        """Refused if the creator key ``creator`` has ``cap`` tables waiting."""
        try:
            stored = self.store.waiting_count(creator, since=self.waiting_cutoff())
        except Exception as exc:
            log.exception("cannot count the waiting tables of an address")
            raise TableError("storage_error", 503) from exc
        if stored + self._opening_by.get(creator, 0) >= cap:
            raise TableError("too_many_waiting_tables", 429, max=cap)

    async def create(
        self, request: NewTable, address: str = UNKNOWN, account: int | None = None
    ) -> tuple[LiveTable, int | None, str | None]:
        """Open a new table; return it with the creator's seat and token (if seated).

        ``address``: the creator's address key (:func:`kartentisch.web.addresses.scope_key`).
        A table with an open seat waits for players, and one with the creator's seat
        counts as waiting until they come: refused (``429``, ``too_many_waiting_tables``)
        if the address has the most it may have waiting. A table of bots alone is not.
        """
        cap = self.settings.max_waiting_per_address
        if cap is None or not any(wanted.kind in ("open", "you") for wanted in request.seats):
            return await self._open(request, None, address, account)
        creator = self._creator(address)
        guard: contextlib.AbstractAsyncContextManager[Any] = contextlib.nullcontext()
        if self.one_creator is not None:
            guard = self.one_creator(creator)
        async with guard:
            self._check_waiting(creator, cap)
            return await self._open(request, creator, address, account)

    async def _open(
        self, request: NewTable, creator: str | None, address: str, account: int | None
    ) -> tuple[LiveTable, int | None, str | None]:
        if len(self.live()) + self._opening >= self.settings.max_live_tables:
            raise TableError("too_many_tables", 503)
        table_id = secrets.token_urlsafe(6)
        while table_id in self.tables or (
            self.claim is not None and not await self.claim(table_id)
        ):
            table_id = secrets.token_urlsafe(6)
        seats: list[Seat] = []
        you: int | None = None
        token: str | None = None
        for i, wanted in enumerate(request.seats):
            if wanted.kind == "you":
                assert request.name is not None
                token = secrets.token_urlsafe(24)
                seats.append(Seat("human", request.name, None, hash_token(token), account))
                you = i
            elif wanted.kind == "open":
                seats.append(Seat("open", ""))
            else:
                seats.append(Seat("bot", "", wanted.level))
        for i, seat in enumerate(seats):
            if seat.kind == "bot":
                seat.name = _bot_name(i, seats)
        settings: dict[str, Any] = {"away": request.away}
        if request.turn_seconds is not None and not is_realtime(request.kind):
            settings["turn_seconds"] = request.turn_seconds
        if request.private:
            settings["private"] = True
        if request.grace_seconds is not None:
            settings["grace_seconds"] = request.grace_seconds
        if request.ready_seconds is not None and not is_realtime(request.kind):
            settings["ready_seconds"] = request.ready_seconds
        if request.rules_name:
            settings["rules_name"] = request.rules_name
        if request.rated:
            settings["rated"] = True
        if request.spectator_chat == "off":
            settings["spectator_chat"] = "off"
        if request.hints:
            settings["hints"] = True
        if request.move_seconds is not None:
            settings["move_seconds"] = request.move_seconds
            if request.deadline_standin:
                settings["deadline_standin"] = True
        table = LiveTable(
            self,
            table_id=table_id,
            kind=request.kind,
            options=request.options,
            settings=settings,
            seats=seats,
            seed=self.settings.table_seed(),
            status="waiting",
        )
        # Waiting for players, or for its creator to come: counted, and it expires.
        counted = bool(table.open_seats()) or you is not None
        if counted and creator is None:
            creator = self._creator(address)
        # Nobody can reach the table before it is stored.
        self._opening += 1
        if creator is not None:
            self._opening_by[creator] = self._opening_by.get(creator, 0) + 1
        try:
            await self.store.save_table(
                table_id,
                request.kind.name,
                request.options,
                settings,
                [s.to_json() for s in seats],
                table.seed,
                creator=creator if counted else None,
            )
        finally:
            self._opening -= 1
            if creator is not None:
                left = self._opening_by[creator] - 1
                if left:
                    self._opening_by[creator] = left
                else:
                    del self._opening_by[creator]
        self.tables[table_id] = table
        table.unseen = counted
        expiry = self.waiting_time(settings)
        if counted and expiry is not None:
            table.watch_expiry(_now() + expiry)
        if you is not None:
            table.attendance.away_since[you] = _now()
        if not table.open_seats():
            async with table.lock:
                await table.start_locked()
        return table, you, token

    async def close(self) -> None:
        """Stop every driver and close every connection (server shutdown)."""
        for table in list(self.tables.values()):
            await table.stop_driver()
            for conn in list(table.connections):
                conn.close()
        self._gc.stop()
