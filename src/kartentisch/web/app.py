"""The ASGI application: lobby API, table WebSockets, rules, catalogs, the page.

``create_app()`` builds a Starlette app whose lifespan opens the store,
upgrades its schema (Alembic ``upgrade head``) and restores every unfinished
table. Routes (docs/web.md and docs/web-protocol.md):

* ``GET /``, ``/t/{id}``, ``/rules/{game}`` — the page; ``/static/…`` its files
* ``GET /api/games`` — the games, presets, options and bot levels
* ``GET /api/tables``, ``POST /api/tables`` — open tables; create one
* ``GET /api/tables/{id}``, ``POST /api/tables/{id}/join``, ``…/start``, ``…/record``
* ``GET /replay``, ``/replay/{id}`` — the replay viewer (the page); ``POST /api/replay``
  replays a record sent by it, ``GET /api/tables/{id}/replay`` a table's games
* ``GET /api/rules/{game}/{lang}`` — the rules as Markdown or HTML
* ``GET /api/rules/{game}/schema``, ``POST /api/rules/{game}/check`` — rule sets
  (:mod:`kartentisch.rulesets`): what an editor needs, a document checked
* ``GET /api/i18n/{lang}`` — the page's JSON catalog
* ``WS /ws/tables/{id}`` — the table in real time

What the server checks and the limits it keeps (message sizes and rates,
spectators, lobby requests, replays and hellos per address) are in
docs/security.md. The limits across connections are counted by
:mod:`kartentisch.web.ratelimits` (in Redis with ``redis_url``); the replays
and records of tables are computed once and kept (:mod:`kartentisch.web.answers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from kartentisch import __version__
from kartentisch.errors import KartentischError, RulesError
from kartentisch.games import GAMES, get_game, rules_text
from kartentisch.i18n import LANGUAGES
from kartentisch.records import dumps_record
from kartentisch.rulesets import (
    dump_rules,
    parse_rules,
    rules_from_dict,
    rules_games,
    rules_schema,
    rules_texts,
)
from kartentisch.storage import (
    StorageError,
    TableStore,
    UnreadableTable,
    check_database,
    default_data_dir,
    sqlite_url,
)
from kartentisch.storage.accounts import Account, AccountStore
from kartentisch.storage.ratings import RatingStore, SeatResult
from kartentisch.web.accounts import AccountRoutes, CsrfGuard
from kartentisch.web.adapter import TABLE_GAMES, table_game_type
from kartentisch.web.addresses import scope_key
from kartentisch.web.analysis import AnalysisPool, PoolSettings, deal_analysis, hint
from kartentisch.web.answers import AnswerCache
from kartentisch.web.correspondence import TurnNotices, TurnRoutes
from kartentisch.web.friends import FriendRoutes
from kartentisch.web.guard import transport_end
from kartentisch.web.i18n import catalog, negotiate, request_language, translate
from kartentisch.web.lobby import parse_new_table, rules_refusal
from kartentisch.web.lobbychat import LobbyChat
from kartentisch.web.mail import Mailer, SmtpSettings
from kartentisch.web.players import PlayerRoutes
from kartentisch.web.protocol import (
    Hello,
    Limits,
    MessageBudget,
    ProtocolError,
    Resync,
    Verdict,
    error_message,
    parse_client_message,
)
from kartentisch.web.ratelimits import Rate, RateLimiter, deployment_prefix
from kartentisch.web.replay import MAX_RECORD_BYTES, BadRecord, replay_record
from kartentisch.web.results import new_ratings, table_results
from kartentisch.web.seats import (
    MAX_NAME_CHARS,
    Connection,
    RateLimited,
    TableError,
    clean_name,
    handle_protocol_error,
    hash_token,
)
from kartentisch.web.tables import LiveTable, ServerSettings, TableManager
from kartentisch.web.wire import message_text

if TYPE_CHECKING:
    from kartentisch.web.cluster import Cluster
    from kartentisch.web.cluster_link import TableLink

__all__ = ["create_app"]

log = logging.getLogger("kartentisch.web")

#: The page may load only its own files and talk only to its own server.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; "
    "script-src 'self'; connect-src 'self' ws: wss:; base-uri 'none'; frame-ancestors 'none'"
)
MAX_BODY_BYTES = 64 * 1024
#: Headers of every HTTP answer: no MIME sniffing, no framing, no referrer to other sites.
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
)
#: WebSocket close code and reason for a connection that floods the server.
FLOOD_CLOSE_CODE = 1008
FLOOD_CLOSE_REASON = "message flood"
#: WebSocket close code after a refusal by a rate limit across connections (a hello of a
#: connection not yet at the table, a finished table read too often): the page reconnects
#: after its back-off.
LIMITED_CLOSE_CODE = 4429
#: ... that has not said hello in time (``Limits.hello_seconds``).
HELLO_CLOSE_CODE = 1008
HELLO_CLOSE_REASON = "hello timeout"
#: ... that does not read what it is sent (``seats.MAX_QUEUED_MESSAGES``).
SLOW_CLOSE_CODE = 1008
SLOW_CLOSE_REASON = "too slow"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


_lang = request_language


def _error(request: Request, error: TableError) -> JSONResponse:
    lang = _lang(request)
    body: dict[str, Any] = {"code": error.code, "message": error.message(lang), **error.details}
    headers: dict[str, str] = {}
    if isinstance(error, RateLimited):
        body["retry_after"] = error.retry_after
        headers["retry-after"] = str(error.retry_after)
    return JSONResponse({"error": body}, status_code=error.status, headers=headers)


def _json_bytes(content: Any) -> bytes:
    """``content`` encoded as :class:`JSONResponse` encodes it (kept answers are sent as is)."""
    return bytes(JSONResponse(content).body)


async def _body(request: Request, limit: int = MAX_BODY_BYTES) -> Any:
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TableError("too_large", 413)
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw:
        return {}
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise TableError("bad_json", detail=f"{exc.msg} at line {exc.lineno}") from None
    except UnicodeDecodeError:
        raise TableError("bad_json", detail="the body is not UTF-8") from None
    except RecursionError:
        raise TableError("bad_json", detail="it is nested too deeply") from None
    except ValueError:  # a number of thousands of digits
        raise TableError("bad_json", detail="a number is too long") from None


async def _replayed(record: Any, lang: str) -> dict[str, Any]:
    """:func:`replay_record` off the event loop (a long session takes a while to replay)."""
    try:
        return await asyncio.to_thread(replay_record, record, lang)
    except BadRecord as exc:
        raise TableError("bad_record", detail=str(exc)) from None


def _name(value: Any) -> str:
    """A display name from the lobby; a longer one than the page allows is refused, not cut."""
    if isinstance(value, str) and len(" ".join(value.split())) > MAX_NAME_CHARS:
        raise TableError("bad_name")
    return clean_name(value)


def _number(value: float) -> str:
    return f"{value:g}"


def create_app(
    db_url: str | None = None,
    *,
    data_dir: str | Path | None = None,
    settings: ServerSettings | None = None,
    limits: Limits | None = None,
    redis_url: str | None = None,
    lease: float | None = None,
    mail: SmtpSettings | None = None,
    public_url: str = "http://127.0.0.1:8000",
    analysis: PoolSettings | None = None,
) -> Starlette:
    """The web app on the database ``db_url`` (default: SQLite in ``data_dir``).

    ``limits`` are the rate and size limits of clients (docs/security.md).
    With ``redis_url`` the process is one of several sharing their tables
    through PostgreSQL and Redis (``lease``: seconds a table's lease lasts;
    :mod:`kartentisch.web.cluster`, docs/deploy.md). With ``mail`` the server mails
    people whose move is due at a correspondence table (their links start with
    ``public_url``). Analyses and hints run in worker processes (``analysis``: how many,
    how many may wait, how long one may take; :mod:`kartentisch.web.analysis`).
    """
    url = db_url or sqlite_url(data_dir if data_dir is not None else default_data_dir())
    # A database that is gone where tables were kept is refused, not made anew (exit 2).
    check_database(url)
    if redis_url is not None and not url.startswith(("postgresql", "postgres:")):
        raise KartentischError(
            "several processes (--redis) share their tables through PostgreSQL: "
            "give --db postgresql://…, not SQLite"
        )
    limits = limits or Limits()
    # Per address key (kartentisch.web.addresses), and per seat for hellos.
    lobby_rate = Rate("lobby", limits.lobby_burst, limits.lobby_per_second)
    replay_rate = Rate("replay", limits.replay_burst, limits.replays_per_second)
    # Rule-set schemas and checks: the lobby's numbers, counted apart from it.
    rules_rate = Rate("rules", limits.lobby_burst, limits.lobby_per_second)
    seat_hellos = Rate("hello-seat", limits.hello_burst, limits.hellos_per_second)
    address_hellos = Rate(
        "hello-address", limits.address_hello_burst, limits.address_hellos_per_second
    )
    answers = AnswerCache()
    static_dir = files("kartentisch.web") / "static"
    index_html = (static_dir / "index.html").read_text(encoding="utf-8")
    state: dict[str, TableManager] = {}
    counters: dict[str, RateLimiter] = {}
    people: dict[str, AccountStore] = {}

    shared: dict[str, Cluster] = {}

    def manager() -> TableManager:
        return state["manager"]

    def cluster() -> Cluster | None:
        return shared.get("cluster")

    def limiter() -> RateLimiter:
        return counters["limiter"]

    def accounts() -> AccountStore:
        return people["accounts"]

    account_routes = AccountRoutes(accounts, limiter, limits, _error)

    async def take_lobby(request: Request) -> None:
        await take(request, lobby_rate, "too_many_requests")

    player_routes = PlayerRoutes(accounts, _error, take_lobby)

    def seated() -> dict[int, str]:
        """The accounts connected at a live table of this process, and the table."""
        found: dict[int, str] = {}
        for table in manager().live():
            connected = {c.seat for c in table.connections if c.seat is not None}
            for number, seat in enumerate(table.seats):
                if seat.account is not None and number in connected:
                    found.setdefault(seat.account, table.id)
        return found

    def sits_at(account: int, table_id: str) -> bool:
        table = manager().cached(table_id)
        return (
            table is not None
            and table.status in ("waiting", "playing")
            and any(seat.account == account for seat in table.seats)
        )

    lobby_chat = LobbyChat(accounts, account_routes.account_of, limiter, _error, take_lobby)

    wall_clock = (settings or ServerSettings()).wall_clock
    # The lobby page polls the moves due: counted apart from creating and joining tables.
    turns_rate = Rate("turns", limits.lobby_burst, limits.lobby_per_second * 2)

    async def take_turns(request: Request) -> None:
        await take(request, turns_rate, "too_many_turn_requests")

    turn_routes = TurnRoutes(
        accounts, account_routes.account_of, _error, take_turns, wall_clock, mail is not None
    )
    turn_notices = TurnNotices(accounts, None if mail is None else Mailer(mail), public_url)
    workers = AnalysisPool(analysis)

    async def hint_for(table: LiveTable, seat: int, lang: str) -> dict[str, Any]:
        """The strong bot's suggestion to ``seat`` of ``table``, worked out in a worker."""
        assert table.game is not None
        names = [s.name for s in table.seats]
        actions = [list(a) for a in table.game.actions]
        args = (table.kind.name, table.options, names, table.seed, actions, seat, lang)
        return await workers.run(hint, *args)

    def _analysis_query(request: Request) -> tuple[int, int]:
        """The ``deal`` and ``seat`` of an analysis request (whole numbers, 1+ and 0+)."""
        values: list[int] = []
        for name, low in (("deal", 1), ("seat", 0)):
            raw = request.query_params.get(name, "")
            if not raw.isdigit() or int(raw) < low or len(raw) > 4:
                raise TableError("bad_request", detail=f"{name}: a whole number from {low}")
            values.append(int(raw))
        return values[0], values[1]

    async def table_analysis(request: Request) -> Response:
        """Deal ``deal`` of a table (a finished one) analysed for ``seat``; kept per version."""
        lang = _lang(request)
        try:
            await take(request, replay_rate, "too_many_replays")
            deal, seat = _analysis_query(request)
            table = _table(request)
            if table.game is None:
                raise TableError("not_started", 409)
            finished = table.status == "finished"
            record = table.record(complete=finished)
            key = ("analysis", table.id, table.version, finished, deal, seat, lang)

            async def make() -> bytes:
                return _json_bytes(await workers.run(deal_analysis, record, deal, seat, lang))

            body = await answers.get(key, make)
        except TableError as exc:
            return _error(request, exc)
        return Response(body, media_type="application/json")

    async def record_analysis(request: Request) -> Response:
        """A record the page sent (the replay viewer's), one deal analysed for one seat."""
        lang = _lang(request)
        try:
            await take(request, replay_rate, "too_many_replays")
            deal, seat = _analysis_query(request)
            record = await _body(request, MAX_RECORD_BYTES)
            if not isinstance(record, dict):
                raise TableError("bad_record", detail="a record is a JSON object")
            answer = await workers.run(deal_analysis, record, deal, seat, lang)
        except TableError as exc:
            return _error(request, exc)
        return JSONResponse(answer)

    friend_routes = FriendRoutes(
        accounts,
        account_routes.account_of,
        _error,
        seated,
        account_routes.seen.get,
        sits_at,
        time.monotonic,
    )

    async def keep_report(table: LiveTable, said: dict[str, Any], reporter: int | None) -> None:
        """A chat message reported at ``table``: kept for ``kartentisch admin reports``."""
        seat = said.get("seat")
        author = table.seats[seat].account if isinstance(seat, int) else None
        await asyncio.to_thread(accounts().report_chat, table.id, said, author, reporter)

    async def claimed(table_id: str, seat: int, account: Account) -> None:
        """A guest's seat claimed: a finished table's result joins the account's profile."""
        stored = await asyncio.to_thread(manager().store.load, table_id)
        if stored is None or stored.status != "finished":
            return  # (a table still going on records its results when it ends)
        table = manager().finished(stored)
        if table.game is None:
            return
        results = table_results(table.kind.name, table.options, table.game)
        row = SeatResult(
            seat, account.id, results.ranks[seat], results.won(seat), results.stats.get(seat, {})
        )
        ratings = RatingStore(manager().store)
        await asyncio.to_thread(ratings.add_seat, table_id, table.kind.name, results.pool, row)

    account_routes.on_claimed = claimed

    async def record_results(table: LiveTable) -> None:
        """A table just ended: its accounts' results, and (a rated table with an account
        in every person's seat) their new ratings, written in one transaction."""
        at = {i: s.account for i, s in enumerate(table.seats) if s.account is not None}
        # (and guests' seats claimed while the table went on)
        at = {**await asyncio.to_thread(accounts().accounts_at, table.id), **at}
        if not at or table.game is None:
            return
        results = table_results(table.kind.name, table.options, table.game)
        people_seats = [s for s in table.seats if s.kind == "human"]
        rated = table.rated and all(s.account is not None for s in people_seats)
        seats_json = [s.to_json() for s in table.seats]

        def write() -> None:
            ratings = RatingStore(manager().store)
            new = None
            if rated:
                before = ratings.ratings(list(at.values()), results.pool)
                new = new_ratings(results, before, seats_json)
            rows = [
                SeatResult(
                    seat,
                    account,
                    results.ranks[seat],
                    results.won(seat),
                    results.stats.get(seat, {}),
                )
                for seat, account in at.items()
            ]
            ratings.record_table(table.id, table.kind.name, results.pool, rows, new)

        await asyncio.to_thread(write)

    async def take(request: Request, rate: Rate, code: str) -> None:
        """Count a request of the client's address against ``rate``; refuse it beyond."""
        wait = await limiter().hit(rate, scope_key(request.scope))
        if wait is not None:
            raise RateLimited(code, rate, wait)

    async def hello_limited(key: str, table_id: str, hello: Hello) -> tuple[str, int] | None:
        """Whether ``hello`` is one too many for its seat or its address, across every
        connection: None if not, else the refusal's text and the seconds to wait."""
        lang = hello.lang or "en"
        wait = await limiter().hit(address_hellos, key)
        if wait is not None:
            rate = _number(address_hellos.per_second)
            burst = address_hellos.burst
            text = translate(lang, "error.rate_limited_hello_address", rate=rate, burst=burst)
            return text, max(1, round(wait))
        if hello.token is not None:
            seat = f"{table_id}:{hash_token(hello.token)[:32]}"
            wait = await limiter().hit(seat_hellos, seat)
            if wait is not None:
                every = _number(1 / limits.hellos_per_second)
                text = translate(
                    lang, "error.rate_limited_hello", burst=limits.hello_burst, every=every
                )
                return text, max(1, round(wait))
        return None

    async def count_finished_link(key: str, link: TableLink | None, conn: Connection) -> None:
        """In a cluster: a socket to a finished table counts as a replay (see ``read_finished``)."""
        table = link.table if link is not None else None
        if link is None or table is None or table.status != "finished":
            return
        wait = await limiter().hit(replay_rate, key)
        if wait is not None:
            link.detach(conn)
            raise RateLimited("too_many_replays", replay_rate, wait)

    async def read_finished(key: str, table_id: str) -> Any:
        """The table ``table_id`` for a request of ``key``; reading a finished one counts as
        a replay (a table not in memory may need one): refused beyond the limit."""
        here = manager().cached(table_id) if cluster() is None else None
        if here is not None and here.status != "finished":
            return here  # a live table: reading it costs nothing
        wait = await limiter().blocked(replay_rate, key)
        if wait is None:
            table = _table_by_id(table_id)
            if table is None or table.status != "finished":
                return table
            wait = await limiter().hit(replay_rate, key)
            if wait is None:
                return table
        raise RateLimited("too_many_replays", replay_rate, wait)

    def admit(table: LiveTable, conn: Connection, hello: Hello) -> bool:
        """Whether ``hello`` may join ``table`` (a spectator's place may be full); else says so."""
        if not _spectators_full(table, conn, hello, limits):
            return True
        text = translate(conn.lang, "error.too_many_spectators", max=limits.max_spectators)
        conn.error("too_many_spectators", text)
        return False

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = TableStore(url)
        tables = TableManager(store, settings)
        # Stored times follow the server's wall clock (a test injects its own).
        store.clock = lambda: datetime.fromtimestamp(tables.settings.wall_clock(), UTC)
        counters["limiter"] = RateLimiter(redis_url, prefix=deployment_prefix(url))
        if redis_url is not None:
            from kartentisch.web.cluster import DEFAULT_LEASE, Cluster

            shared["cluster"] = Cluster(tables, redis_url, gate=admit, lease=lease or DEFAULT_LEASE)
            await shared["cluster"].start()
            await shared["cluster"].migrate()
        else:
            store.migrate()
        people["accounts"] = AccountStore(store)
        tables.on_finish = record_results
        tables.on_report = keep_report
        tables.on_turn = turn_notices.turn
        tables.on_hint = hint_for
        app.state.mailer = turn_notices.mailer
        moved = getattr(tables.settings.wall_clock, "moved_signal", None)
        if moved is not None:
            # An injected clock that is set from outside: its signal makes the tables
            # look at their deadlines again.
            with contextlib.suppress(ValueError, RuntimeError, NotImplementedError):
                asyncio.get_running_loop().add_signal_handler(moved, tables.clock_moved)
        restored = await tables.restore()
        if restored:
            log.info("restored %d unfinished table(s)", restored)
        state["manager"] = tables
        app.state.manager = tables
        try:
            yield
        finally:
            if "cluster" in shared:
                await shared.pop("cluster").close()
            await tables.close()
            await asyncio.to_thread(workers.close)
            await counters.pop("limiter").close()
            store.close()

    async def page(request: Request) -> Response:
        return HTMLResponse(
            index_html,
            headers={
                "content-security-policy": CONTENT_SECURITY_POLICY,
                "cache-control": "no-cache",
            },
        )

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "version": __version__})

    async def games(request: Request) -> Response:
        rules = [{"name": n, "titles": dict(get_game(n).titles)} for n in GAMES]
        server = manager().settings
        # What a table does when nothing else is chosen (the lobby shows it).
        defaults = {
            "away": "standin",
            "grace_seconds": server.grace,
            "ready_seconds": server.ready_seconds,
        }
        return JSONResponse(
            {
                "games": [table_game_type(n).describe() for n in TABLE_GAMES],
                "rules": rules,
                "rule_sets": list(rules_games()),
                "defaults": defaults,
            }
        )

    def waiting_tables(request: Request) -> dict[str, Any]:
        """The asker's tables waiting for players, the most they may have, how long one waits."""
        server = manager().settings
        try:
            yours: int | None = manager().waiting_count(scope_key(request.scope))
        except Exception:  # (the store is away: the list says so no further)
            log.exception("cannot count the waiting tables of an address")
            yours = None
        return {
            "yours": yours,
            "max": server.max_waiting_per_address,
            "expire_seconds": server.waiting_expiry,
        }

    async def list_tables(request: Request) -> Response:
        if (shared_tables := cluster()) is not None:
            tables = shared_tables.lobby()
        else:
            # A private table is reached by its invite link only; an overdue one is expiring.
            live = sorted(
                (t for t in manager().live() if not t.private and not t.overdue),
                key=lambda t: -t.created,
            )
            tables = [t.summary() for t in live[:100]]
        return JSONResponse({"tables": tables, "waiting": waiting_tables(request)})

    async def create_table(request: Request) -> Response:
        try:
            await take(request, lobby_rate, "too_many_requests")
            body = await _body(request)
            account = await account_routes.account_of(request)
            if account is not None and isinstance(body, dict):
                body = {**body, "name": account.name}  # a person logged in plays as themself
            if isinstance(body, dict) and body.get("name") is not None:
                _name(body["name"])
            wanted = parse_new_table(body)
            if wanted.rated and account is None:
                raise TableError("rated_needs_account", 403)
            if wanted.move_seconds is not None and account is None:
                raise TableError("correspondence_needs_account", 403)
            table, seat, token = await manager().create(
                wanted, scope_key(request.scope), None if account is None else account.id
            )
            if account is not None and seat is not None:
                await asyncio.to_thread(accounts().seat, table.id, seat, account.id)
        except TableError as exc:
            return _error(request, exc)
        return JSONResponse(
            {
                "id": table.id,
                "url": f"/t/{table.id}",
                "seat": seat,
                "token": token,
                "table": table.summary(seat),
            },
            status_code=201,
        )

    def _table(request: Request) -> Any:
        table = _table_by_id(request.path_params["table_id"])
        if table is None:
            raise TableError("no_such_table", 404)
        return table

    def _table_by_id(table_id: str) -> Any:
        shared_tables = cluster()
        # In a cluster: a table run elsewhere is read from the store (for its record).
        if shared_tables is None:
            table = manager().get(table_id)
        else:
            table = shared_tables.snapshot(table_id)
        return table

    async def show_table(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        try:
            key = scope_key(request.scope)
            if (shared_tables := cluster()) is not None:
                # Counted as a replay once it turns out finished (as read_finished does).
                wait = await limiter().blocked(replay_rate, key)
                if wait is None:
                    shown = await shared_tables.call(table_id, "show", {})
                    if shown.get("table", {}).get("status") != "finished":
                        return JSONResponse(shown)
                    wait = await limiter().hit(replay_rate, key)
                    if wait is None:
                        return JSONResponse(shown)
                raise RateLimited("too_many_replays", replay_rate, wait)
            table = await read_finished(key, table_id)
            if table is None:
                raise TableError("no_such_table", 404)
        except TableError as exc:
            return _error(request, exc)
        return JSONResponse({"table": table.summary()})

    async def join_table(request: Request) -> Response:
        try:
            shared_tables = cluster()
            table: Any = _table(request) if shared_tables is None else None
            await take(request, lobby_rate, "too_many_requests")
            body = await _body(request)
            if not isinstance(body, dict):
                raise TableError("bad_request", detail="the body must be a JSON object")
            account = await account_routes.account_of(request)
            name = _name(body.get("name") if account is None else account.name)
            account_id = None if account is None else account.id
            seat = body.get("seat")
            if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
                raise TableError("no_such_seat", seat=str(seat)[:10])
            table_id = request.path_params["table_id"]
            needs = None if table is None else table.needs_account
            if account_id is None and needs is not None:
                raise TableError(needs, 403)
            if shared_tables is not None:
                args = {"name": name, "seat": seat, "account": account_id}
                joined = await shared_tables.call(table_id, "join", args)
                if account_id is not None and isinstance(joined.get("seat"), int):
                    await asyncio.to_thread(accounts().seat, table_id, joined["seat"], account_id)
                return JSONResponse(joined)
            seat, token = await table.join(name, seat, account_id)
            if account_id is not None:
                await asyncio.to_thread(accounts().seat, table_id, seat, account_id)
        except TableError as exc:
            return _error(request, exc)
        return JSONResponse({"id": table.id, "seat": seat, "token": token})

    async def start_table(request: Request) -> Response:
        try:
            shared_tables = cluster()
            table: Any = _table(request) if shared_tables is None else None
            body = await _body(request)
            token = body.get("token") if isinstance(body, dict) else None
            if shared_tables is not None:
                args = {"token": token if isinstance(token, str) else None}
                table_id = request.path_params["table_id"]
                return JSONResponse(await shared_tables.call(table_id, "start", args))
            await table.start(token if isinstance(token, str) else None)
        except TableError as exc:
            return _error(request, exc)
        return JSONResponse({"table": table.summary()})

    async def table_record(request: Request) -> Response:
        """A table's record (complete once it is finished), made once per version and kept."""
        try:
            await take(request, replay_rate, "too_many_replays")
            table_id = request.path_params["table_id"]
            final = answers.finished(table_id)
            if final is not None:
                kept = answers.peek(("record", table_id, final[0], True))
                if kept is not None:
                    return _record_response(kept, f"{final[1]}-{table_id}")
            table = _table(request)
            if table.game is None:
                raise TableError("not_started", 409)
        except TableError as exc:
            return _error(request, exc)
        finished = table.status == "finished"
        record = table.record(complete=finished)
        key = ("record", table.id, table.version, finished)

        async def make() -> bytes:
            return dumps_record(record).encode("utf-8")

        body = await answers.get(key, make)
        if finished:
            answers.note_finished(table.id, table.version, table.kind.name)
        return _record_response(body, f"{table.kind.name}-{table.id}")

    def _record_response(body: bytes, name: str) -> Response:
        return Response(
            body,
            media_type="application/json",
            headers={"content-disposition": f'attachment; filename="{name}.json"'},
        )

    async def replay(request: Request) -> Response:
        """A record sent by the page (opened from a file), replayed for the viewer."""
        try:
            await take(request, replay_rate, "too_many_replays")
            record = await _body(request, MAX_RECORD_BYTES)
            return JSONResponse(await _replayed(record, _lang(request)))
        except TableError as exc:
            return _error(request, exc)

    async def table_replay(request: Request) -> Response:
        """A table's games so far (all of them once it is finished), replayed for the viewer.

        Each (table, version, language) is replayed once and kept (:class:`AnswerCache`).
        """
        lang = _lang(request)
        try:
            await take(request, replay_rate, "too_many_replays")
            table_id = request.path_params["table_id"]
            final = answers.finished(table_id)
            if final is not None:
                kept = answers.peek(("replay", table_id, final[0], True, lang))
                if kept is not None:
                    return Response(kept, media_type="application/json")
            table = _table(request)
            if table.game is None:
                raise TableError("not_started", 409)
            finished = table.status == "finished"
            record = table.record(complete=finished)
            key = ("replay", table.id, table.version, finished, lang)

            async def make() -> bytes:
                shown = await _replayed(record, lang)
                return _json_bytes({**shown, "table": table_id, "finished": finished})

            body = await answers.get(key, make)
            if finished:
                answers.note_finished(table.id, table.version, table.kind.name)
        except TableError as exc:
            return _error(request, exc)
        return Response(body, media_type="application/json")

    async def rules(request: Request) -> Response:
        game = request.path_params["game"]
        lang = request.path_params["lang"]
        try:
            text = rules_text(game, lang, "web")
        except KartentischError:
            error = TableError("no_rules", 404, game=game[:40], lang=lang[:10])
            return _error(request, error)
        if request.query_params.get("format") == "html":
            return HTMLResponse(_markdown_html(text))
        return Response(text, media_type="text/markdown; charset=utf-8")

    def rule_set_game(request: Request) -> str:
        """The game of a rule-set request's path, which must have rule sets (else 404)."""
        game = request.path_params["game"]
        try:
            name = get_game(game).name
        except KartentischError:
            name = ""
        if name not in rules_games():
            raise TableError("no_rule_sets", 404, game=game[:40])
        return name

    async def rule_set_schema(request: Request) -> Response:
        """What an editor of the game's rule sets needs, with its texts in ``?lang=``."""
        try:
            await take(request, rules_rate, "too_many_rule_requests")
            game = rule_set_game(request)
        except TableError as exc:
            return _error(request, exc)
        return JSONResponse({**rules_schema(game), "texts": rules_texts(game, _lang(request))})

    async def rule_set_check(request: Request) -> Response:
        """A rule-set document (``{"text": …}`` or ``{"rules": {…}}``) checked and normalized."""
        try:
            await take(request, rules_rate, "too_many_rule_requests")
            game = rule_set_game(request)
            body = await _body(request)
            if not isinstance(body, dict) or len(body) != 1 or not {"text", "rules"} & set(body):
                raise TableError(
                    "bad_request",
                    detail='the body must be {"text": "<a rule set>"} or {"rules": {…}}',
                )
            try:
                if "text" in body:
                    if not isinstance(body["text"], str):
                        raise TableError("bad_request", detail='"text" must be a string')
                    checked = parse_rules(body["text"], game=game)
                else:
                    checked = rules_from_dict(body["rules"], game=game)
            except RulesError as exc:
                raise rules_refusal(exc) from None
        except TableError as exc:
            return _error(request, exc)
        document = checked.to_dict()
        shown = {
            "game": checked.game,
            "preset": checked.preset,
            "name": checked.name,
            "description": checked.description,
            "options": document["options"],
            "values": checked.values(),
        }
        return JSONResponse({"rules": shown, "toml": dump_rules(checked), "json": document})

    async def i18n(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in LANGUAGES:
            error = TableError("unknown_language", 404, lang=lang[:10])
            return _error(request, error)
        return JSONResponse(
            {"lang": lang, "messages": catalog(lang)},
            headers={"cache-control": "no-cache"},
        )

    async def table_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        lang = negotiate(websocket.headers.get("accept-language"))
        conn = Connection(lang)
        table_id = websocket.path_params["table_id"]
        key = scope_key(websocket.scope)
        shared_tables = cluster()
        table: LiveTable | TableLink | None
        try:
            if shared_tables is None:
                table = await read_finished(key, table_id)
            else:  # the table here, or a link to the process that runs it
                table = await shared_tables.link(table_id, conn)
                await count_finished_link(key, table, conn)
        except RateLimited as exc:
            text = exc.message(lang)
            await websocket.send_json(error_message(exc.code, text, retry_after=exc.retry_after))
            await websocket.close(code=LIMITED_CLOSE_CODE)
            return
        if table is None:
            await websocket.send_json(
                {
                    "type": "error",
                    "code": "no_such_table",
                    "message": translate(lang, "error.no_such_table"),
                }
            )
            await websocket.close(code=4404)
            return
        closing: dict[str, Any] = {"code": 1000, "reason": None}
        writer = _start_writer(websocket, conn, closing)
        reading = {"idle": False}
        reader = asyncio.get_running_loop().create_task(read(websocket, conn, table, reading, key))

        def end() -> None:
            """Stop reading now (``conn`` is closed): at once while the reader waits for
            a message; else once the message in hand is handled (never halfway)."""
            if reading["idle"]:
                reader.cancel()

        conn.on_overflow = end  # a reader too slow: ended at once (below)

        def hello_deadline() -> None:
            if conn.joined or (not isinstance(table, LiveTable) and table.hello is not None):
                return
            conn.error("hello_timeout", translate(conn.lang, "error.hello_timeout"))
            closing.update(code=HELLO_CLOSE_CODE, reason=HELLO_CLOSE_REASON)
            conn.close()
            end()

        deadline = asyncio.get_running_loop().call_later(limits.hello_seconds, hello_deadline)
        try:
            await asyncio.wait({reader})
            # (cancelled: by the hello deadline or an overflow; a failure is raised here)
            ending = None if reader.cancelled() else reader.result()
            if ending is not None:
                closing.update(code=ending[0], reason=ending[1])
        finally:
            deadline.cancel()
            reader.cancel()
            table.detach(conn)
            conn.close()
            if conn.too_slow:
                log.warning("table %s: a connection did not read its messages", table.id)
                writer.cancel()  # (stuck in a send the peer does not read)
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await writer
                writer = asyncio.get_running_loop().create_task(
                    websocket.close(code=SLOW_CLOSE_CODE, reason=SLOW_CLOSE_REASON)
                )
            await _finish(websocket, writer, limits.close_seconds)

    async def read(
        websocket: WebSocket,
        conn: Connection,
        table: LiveTable | TableLink,
        reading: dict[str, bool],
        key: str,
    ) -> tuple[int, str] | None:
        """Read and handle the client's messages until it goes or ``conn`` is closed.

        The close code and reason if the server ends it (a flood, a hello refused
        before the connection joined); else None. ``reading["idle"]`` is true while it waits
        for the next message (the only time it may be cancelled).
        """
        budget = MessageBudget(limits)
        try:
            while not conn.dropped:
                reading["idle"] = True
                try:
                    message = await websocket.receive()
                finally:
                    reading["idle"] = False
                if message["type"] == "websocket.disconnect":
                    break
                verdict = budget.message()
                parsed = None
                if verdict is Verdict.OK:
                    data = message.get("text")
                    if data is None:
                        data = message.get("bytes") or b""
                    try:
                        parsed = parse_client_message(data)
                    except ProtocolError as exc:
                        handle_protocol_error(conn, exc)
                        continue
                    if isinstance(parsed, Hello):
                        verdict = budget.hello()
                        if verdict is Verdict.OK:
                            limited = await hello_limited(key, table.id, parsed)
                            if limited is not None:
                                # Across connections: reconnecting buys no more hellos.
                                verdict = budget.refuse()
                                if verdict is Verdict.REFUSE:
                                    text, wait = limited
                                    conn.error("rate_limited", text, retry_after=wait)
                                    if conn.joined:
                                        continue
                                    # (not at the table: the page reconnects after a while)
                                    return LIMITED_CLOSE_CODE, "rate limited"
                if verdict is Verdict.CLOSE:
                    conn.error("message_flood", translate(conn.lang, "error.message_flood"))
                    log.warning("table %s: a connection flooded the server", table.id)
                    return FLOOD_CLOSE_CODE, FLOOD_CLOSE_REASON
                if verdict is Verdict.REFUSE or parsed is None:
                    if budget.tell():
                        _tell_rate_limited(conn, limits, hello=isinstance(parsed, Hello))
                    continue
                if (
                    isinstance(parsed, Hello)
                    and isinstance(table, LiveTable)  # (through a link, the owner admits it)
                    and not admit(table, conn, parsed)
                ):
                    continue
                if isinstance(parsed, Resync):
                    conn.resync()  # (this socket's own: the state it was sent last, whole)
                    continue
                if isinstance(parsed, Hello):
                    conn.take_patches(parsed.patches)  # the answer goes whole
                try:
                    await table.handle(conn, parsed)
                except Exception:
                    # A bug, not the client's fault: say so, keep the connection and the table.
                    log.exception("table %s: a message could not be handled", table.id)
                    conn.error("server_error", translate(conn.lang, "error.server_error"))
        except WebSocketDisconnect:
            pass
        return None

    routes = [
        Route("/", page),
        Route("/t/{table_id}", page),
        Route("/rules/{game}", page),
        Route("/login", page),
        Route("/signup", page),
        Route("/account", page),
        Route("/players/{name}", page),
        Route("/leaderboard", page),
        Route("/friends", page),
        Route("/leaderboard/{pool}", page),
        Route("/healthz", health),
        Route("/api/games", games),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", show_table),
        Route("/api/tables/{table_id}/join", join_table, methods=["POST"]),
        Route("/api/tables/{table_id}/start", start_table, methods=["POST"]),
        Route("/api/tables/{table_id}/record", table_record),
        Route("/api/tables/{table_id}/replay", table_replay),
        Route("/api/tables/{table_id}/analysis", table_analysis),
        Route("/api/analysis", record_analysis, methods=["POST"]),
        Route("/api/replay", replay, methods=["POST"]),
        Route("/replay", page),
        Route("/replay/{table_id}", page),
        # (before the rules' route, whose {lang} would take "schema")
        Route("/api/rules/{game}/schema", rule_set_schema),
        Route("/api/rules/{game}/check", rule_set_check, methods=["POST"]),
        Route("/api/rules/{game}/{lang}", rules),
        Route("/api/i18n/{lang}", i18n),
        *account_routes.routes(),
        *player_routes.routes(),
        *friend_routes.routes(),
        *turn_routes.routes(),
        *lobby_chat.routes(),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
        Mount("/static", StaticFiles(packages=[("kartentisch.web", "static")]), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=_REFUSALS)
    app.add_middleware(CsrfGuard)
    app.add_middleware(_SecurityHeaders)
    return app


class _SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _refused(conn: Request | WebSocket, error: TableError) -> Response | None:
    """A refusal raised by a route, in the usual shape; on a WebSocket, an error message
    and the close (4000 + the HTTP status: the page does not come back for a 4409)."""
    if isinstance(conn, Request):
        return _error(conn, error)
    lang = negotiate(conn.headers.get("accept-language"))
    with contextlib.suppress(Exception):
        await conn.send_json({"type": "error", "code": error.code, "message": error.message(lang)})
        await conn.close(code=1013 if error.status == 503 else 4000 + error.status)
    return None


async def _on_refusal(conn: Request | WebSocket, exc: Exception) -> Response | None:
    assert isinstance(exc, TableError)
    return await _refused(conn, exc)


async def _on_unreadable(conn: Request | WebSocket, exc: Exception) -> Response | None:
    log.error("%s (set aside)", exc)
    return await _refused(conn, TableError("table_unreadable", 409))


async def _on_storage_error(conn: Request | WebSocket, exc: Exception) -> Response | None:
    lines = str(exc).strip().splitlines()
    log.error("storage failed: %s: %s", type(exc).__name__, lines[0] if lines else "")
    return await _refused(conn, TableError("storage_error", 503, key="storage_unavailable"))


#: Refusals raised out of a route (HTTP or WebSocket): their stable code, never a bare 500.
_REFUSALS: dict[Any, Any] = {
    TableError: _on_refusal,
    UnreadableTable: _on_unreadable,
    StorageError: _on_storage_error,
}


def _tell_rate_limited(conn: Connection, limits: Limits, *, hello: bool) -> None:
    if hello:
        every = _number(1 / limits.hellos_per_second)
        text = translate(
            conn.lang, "error.rate_limited_hello", burst=limits.hello_burst, every=every
        )
    else:
        rate = _number(limits.messages_per_second)
        text = translate(conn.lang, "error.rate_limited", rate=rate, burst=limits.message_burst)
    conn.error("rate_limited", text)


def _spectators_full(table: LiveTable, conn: Connection, hello: Hello, limits: Limits) -> bool:
    """Whether ``hello`` asks for a spectator's place at a table that has no more.

    A hello with a token is let through (a seat always gets in; a wrong token is
    refused by the table), and so is a connection that already watches.
    """
    if hello.token is not None or (conn.joined and conn.seat is None):
        return False
    watching = sum(1 for c in table.connections if c.seat is None and c is not conn)
    return watching >= limits.max_spectators


async def _finish(websocket: WebSocket, closer: asyncio.Task[Any], seconds: float) -> None:
    """Give ``closer`` (the last messages and the close frame) ``seconds`` to close the socket.

    A peer that does not read cannot be sent a close frame, and a transport
    closed the ordinary way would wait for ever to flush to it: where the
    server's WebSocket protocol allows it (``web/guard.py``), a socket still
    open after ``seconds`` is aborted.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    await asyncio.wait({closer}, timeout=seconds)
    end = transport_end(websocket.scope)
    if end is not None and not end.closed.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(end.closed.wait(), max(0.0, deadline - loop.time()))
        if not end.closed.is_set():
            end.abort()
    closer.cancel()
    with contextlib.suppress(Exception, asyncio.CancelledError):
        await closer


def _start_writer(
    websocket: WebSocket, conn: Connection, closing: dict[str, Any]
) -> asyncio.Task[None]:
    async def write() -> None:
        while True:
            message = await conn.queue.get()
            if message is None:
                break
            try:
                await websocket.send_text(message_text(message))
            except Exception:
                conn.dropped = True
                break
        with contextlib.suppress(Exception):
            await websocket.close(code=closing["code"], reason=closing["reason"])

    return asyncio.get_running_loop().create_task(write())


def _markdown_html(text: str) -> str:
    from markdown_it import MarkdownIt

    # Raw HTML in the Markdown is escaped, not passed through.
    html: str = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    return html
