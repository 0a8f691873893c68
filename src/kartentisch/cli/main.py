"""Entry point of the ``kartentisch`` command.

Exit status: 0 on success, 2 on bad input (an unreadable or illegal record,
an unknown game or option), 1 on an unexpected failure.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kartentisch import __version__
from kartentisch.cli.admin import add_admin_parser
from kartentisch.cli.analyze import add_analyze_parser, replay_file
from kartentisch.cli.rulefiles import read_rules_file
from kartentisch.cli.simulate import add_simulate_parser
from kartentisch.errors import KartentischError, RulesError
from kartentisch.games import GAMES, get_game, rules_text
from kartentisch.i18n import LANGUAGES, describe_replay_error, translate
from kartentisch.records import ReplayError
from kartentisch.rulesets import rules_lines
from kartentisch.web.mail import SECURITY, SmtpSettings

if TYPE_CHECKING:  # (the web app is imported only when it is served)
    import uvicorn

    from kartentisch.web.protocol import Limits

__all__ = ["build_parser", "main", "serve_config"]

#: ``kartentisch serve``'s defaults for the connection guard (``kartentisch.web.guard``).
MAX_CONNECTIONS_PER_ADDRESS = 64
HEADER_SECONDS = 10.0


def _fail(message: str) -> int:
    print(f"kartentisch: error: {message}", file=sys.stderr)
    return 2


def cmd_replay(args: argparse.Namespace) -> int:
    rules = read_rules_file(args.rules) if args.rules is not None else None
    try:
        spec, replayed = replay_file(args.file, rules)
    except ReplayError as exc:
        if args.lang == "en":  # the engine's words, with the rule code
            return _fail(f"illegal action in {args.file}: {exc}")
        return _fail(
            translate(
                args.lang,
                "term.illegal_action",
                file=args.file,
                reason=describe_replay_error(exc, args.lang),
            )
        )
    except KartentischError as exc:
        return _fail(f"cannot replay {args.file}: {exc}")
    if args.json:
        print(json.dumps(spec.summarize(replayed), ensure_ascii=False))
    else:
        print("\n".join(spec.render(replayed, args.lang)))
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    if args.rules is not None:
        return _rule_set(args)
    if args.check:
        return _fail("--check needs --rules FILE: the rule-set file to check")
    try:
        text = rules_text(args.game, args.lang)
    except KartentischError as exc:
        return _fail(str(exc))
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(text))
    else:
        print(text)
    return 0


def _rule_set(args: argparse.Namespace) -> int:
    """``rules GAME --rules FILE``: the rule set as text, or (``--check``) only checked."""
    try:
        rules = read_rules_file(args.rules, args.game)
    except RulesError as exc:
        return _fail(str(exc))
    if args.check:
        spec = get_game(rules.game)
        title = spec.titles.get(args.lang, spec.titles["en"])
        valid = translate(
            args.lang, "term.rules.valid", file=args.rules, game=title, preset=rules.preset
        )
        print(valid)
        return 0
    print("\n".join(rules_lines(rules, args.lang)))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    spec = get_game(args.game)
    if spec.play is None:
        return _fail(f"{spec.name} cannot be played in the terminal yet")
    return spec.play(args)


def serve_config(args: argparse.Namespace, *, limits: Limits | None = None) -> uvicorn.Config:
    """The uvicorn configuration ``kartentisch serve`` runs (tests start it on a real socket).

    Bad options raise :class:`KartentischError`. ``limits`` replaces the
    client limits the options give (tests make them short or unlimited).
    """
    import uvicorn

    from kartentisch.web.app import create_app
    from kartentisch.web.guard import ConnectionGuard, connection_budget, raise_fd_limit
    from kartentisch.web.protocol import Limits
    from kartentisch.web.settings import SPECTATOR_UPDATE_SECONDS, ServerSettings

    if args.bot_delay < 0 or (args.grace is not None and args.grace < 0):
        raise KartentischError("--bot-delay and --grace must not be negative")
    positive = {
        "--max-connections-per-address": args.max_connections_per_address,
        "--header-timeout": args.header_timeout,
        "--timeout-keep-alive": args.timeout_keep_alive,
        "--hello-timeout": args.hello_timeout,
        "--signup-burst": args.signup_burst,
    }
    if args.limit_concurrency is not None:
        positive["--limit-concurrency"] = args.limit_concurrency
    for flag, value in positive.items():
        if value <= 0:
            raise KartentischError(f"{flag} must be positive")
    if args.redis is not None:
        # Several processes share their tables: through PostgreSQL, never a local SQLite file.
        if not (args.db or "").startswith(("postgresql", "postgres:")):
            raise KartentischError(
                "--redis needs --db postgresql://…: the processes share their tables "
                "through PostgreSQL (SQLite is one process's file)"
            )
        if args.lease <= 0:
            raise KartentischError("--lease must be positive")
        try:
            import kartentisch.web.cluster  # noqa: F401
        except ImportError:
            raise KartentischError(
                "--redis needs the redis package: pip install 'kartentisch[redis]'"
            ) from None
    settings = ServerSettings(
        bot_delay=args.bot_delay,
        grace=args.grace,
        spectator_update=SPECTATOR_UPDATE_SECONDS,
    )
    if args.analysis_workers < 1:
        raise KartentischError("--analysis-workers must be at least 1")
    from kartentisch.web.analysis import PoolSettings

    if args.clock_file is not None:
        # For tests of a server in its own process (kartentisch.web.wallclock).
        from kartentisch.web.wallclock import FileClock

        settings.wall_clock = FileClock(args.clock_file)
    mail: SmtpSettings | None = None
    if args.smtp_host is not None:
        if not 0 < args.smtp_port < 65536:
            raise KartentischError("--smtp-port must be a port number (1 to 65535)")
        mail = SmtpSettings(
            host=args.smtp_host,
            port=args.smtp_port,
            sender=args.smtp_from,
            security=args.smtp_security,
            user=args.smtp_user,
            password=os.environ.get("KARTENTISCH_SMTP_PASSWORD"),
        )
    # Tables waiting for players: the cap per address, the time before one expires.
    if args.max_waiting_tables < 0 or args.waiting_expiry < 0:
        raise KartentischError("--max-waiting-tables and --waiting-expiry must not be negative")
    settings.max_waiting_per_address = args.max_waiting_tables or None
    settings.waiting_expiry = args.waiting_expiry or None
    limits = limits or Limits(hello_seconds=args.hello_timeout, signup_burst=args.signup_burst)
    app = create_app(
        args.db,
        data_dir=args.data_dir,
        settings=settings,
        limits=limits,
        redis_url=args.redis,
        lease=args.lease,
        mail=mail,
        public_url=args.public_url or f"http://{args.host}:{args.port}",
        analysis=PoolSettings(workers=args.analysis_workers),
    )
    # A global cap under the open-files limit, so that the server can always accept.
    concurrency = args.limit_concurrency or connection_budget(raise_fd_limit())
    guard = ConnectionGuard(
        max_per_address=args.max_connections_per_address,
        max_connections=concurrency,
        header_seconds=args.header_timeout,
    )
    http, ws = guard.protocols()
    # X-Forwarded-For is believed only from the proxies named (uvicorn's own
    # default, 127.0.0.1 or $FORWARDED_ALLOW_IPS, does not apply).
    proxies = args.forwarded_allow_ips
    return uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        http=http,
        ws=ws,
        # A WebSocket frame is read whole before the app sees it: keep it small
        # (messages are at most 4096 characters, see docs/security.md).
        ws_max_size=64 * 1024,
        ws_ping_interval=args.ws_ping,
        ws_ping_timeout=args.ws_ping,
        proxy_headers=proxies is not None,
        forwarded_allow_ips=proxies if proxies is not None else "",
        # uvicorn's own cap (a bare 503 to requests) only as a backstop: the guard
        # refuses a connection past ``concurrency`` first, with its code.
        limit_concurrency=concurrency + 1,
        timeout_keep_alive=args.timeout_keep_alive,
    )


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError as exc:  # pragma: no cover - the web dependencies are required
        return _fail(f"the web app needs its dependencies ({exc.name}): pip install kartentisch")
    config = serve_config(args)
    shared = ""
    if args.redis is not None:
        from kartentisch.web.cluster import redacted

        shared = f", sharing them through Redis at {redacted(args.redis)}"
    if args.db:
        from sqlalchemy.engine import make_url

        where = make_url(args.db).render_as_string(hide_password=True)
    else:
        from kartentisch.storage import default_data_dir

        where = str(args.data_dir or default_data_dir())
    print(f"Kartentisch on http://{args.host}:{args.port}/ (storing tables in {where}{shared})")
    uvicorn.Server(config).run()
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kartentisch",
        description="Kartentisch: play, replay and study Slobberhannes and friends.",
    )
    parser.add_argument("--version", action="version", version=f"kartentisch {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = commands.add_parser("play", help="play a game in the terminal against bots")
    games = play.add_subparsers(dest="game", required=True, metavar="GAME")
    for name in GAMES:
        spec = get_game(name)
        sub = games.add_parser(name, help=f"play {spec.titles['en']}")
        sub.add_argument("--lang", choices=LANGUAGES, default="en", help="language (default en)")
        if spec.add_play_arguments is not None:
            spec.add_play_arguments(sub)
        sub.set_defaults(func=cmd_play)

    replay = commands.add_parser("replay", help="check a game record and print the game")
    replay.add_argument("file", help="a game record (JSON)")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.add_argument("--lang", choices=LANGUAGES, default="en", help="language (default en)")
    replay.add_argument(
        "--rules",
        metavar="FILE",
        default=None,
        help="replay the actions under a rule-set file instead of the record's options",
    )
    replay.set_defaults(func=cmd_replay)

    rules = commands.add_parser(
        "rules", help="print the rules as implemented, or a rule-set file (--rules FILE)"
    )
    rules.add_argument("game", help=f"one of: {', '.join(GAMES)}")
    rules.add_argument("--lang", choices=LANGUAGES, default="en", help="language (default en)")
    rules.add_argument(
        "--rules",
        metavar="FILE",
        default=None,
        help="print this rule-set file (TOML or JSON) group by group, "
        "marking what differs from its preset",
    )
    rules.add_argument(
        "--check", action="store_true", help="with --rules: only check the file (exit 0 or 2)"
    )
    rules.set_defaults(func=cmd_rules)

    add_simulate_parser(commands)
    add_analyze_parser(commands)
    add_admin_parser(commands)

    serve = commands.add_parser("serve", help="run the web app (play in the browser)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    serve.add_argument(
        "--db",
        metavar="URL",
        default=None,
        help="database URL, e.g. postgresql://user@host/db (default: SQLite in the data dir)",
    )
    serve.add_argument(
        "--data-dir",
        metavar="DIR",
        default=None,
        help="the SQLite file's folder (default $KARTENTISCH_DATA or ~/.local/share/kartentisch)",
    )
    serve.add_argument(
        "--redis",
        metavar="URL",
        default=None,
        help="run as one of several processes sharing tables through PostgreSQL (--db) "
        "and Redis, e.g. redis://127.0.0.1:6379/0 (docs/deploy.md)",
    )
    serve.add_argument(
        "--lease",
        type=float,
        default=5.0,
        metavar="S",
        help="with --redis: seconds before a dead process's tables are taken over (5)",
    )
    serve.add_argument(
        "--bot-delay", type=float, default=0.8, metavar="S", help="seconds a bot waits (0.8)"
    )
    serve.add_argument(
        "--grace",
        type=float,
        default=30.0,
        metavar="S",
        help="seconds before a bot plays for a disconnected player (30)",
    )
    # Tables waiting for players (docs/security.md, "Limits").
    serve.add_argument(
        "--max-waiting-tables",
        type=int,
        default=5,
        metavar="N",
        help=(
            "most tables waiting for players (or for their creator to come) per address"
            " (an IPv6 /64 is one); 0: no cap (5)"
        ),
    )
    serve.add_argument(
        "--waiting-expiry",
        type=float,
        default=1800.0,
        metavar="S",
        help="seconds a table may wait for players before it expires; 0: never (1800)",
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        default=None,
        help="reverse proxies whose X-Forwarded-For is believed: addresses or networks, "
        "comma-separated, or * (default: none; docs/deploy.md)",
    )
    serve.add_argument(
        "--max-connections-per-address",
        type=int,
        default=MAX_CONNECTIONS_PER_ADDRESS,
        metavar="N",
        help=f"open connections per client address, IPv6 per /64 ({MAX_CONNECTIONS_PER_ADDRESS})",
    )
    serve.add_argument(
        "--limit-concurrency",
        type=int,
        default=None,
        metavar="N",
        help="open connections in all (default: under the open-files limit, at most 4096)",
    )
    serve.add_argument(
        "--header-timeout",
        type=float,
        default=HEADER_SECONDS,
        metavar="S",
        help=f"seconds a connection has to send a request's headers ({HEADER_SECONDS:g})",
    )
    serve.add_argument(
        "--timeout-keep-alive",
        type=int,
        default=5,
        metavar="S",
        help="seconds an idle keep-alive connection stays open (5)",
    )
    serve.add_argument(
        "--signup-burst",
        type=int,
        default=5,
        metavar="N",
        help="new accounts one address may open at once, then one a minute (5)",
    )
    serve.add_argument(
        "--hello-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="seconds a table WebSocket has to say hello (10)",
    )
    serve.add_argument(
        "--ws-ping",
        type=float,
        default=20.0,
        metavar="S",
        help="seconds between WebSocket pings, and for the pong (20): a dead peer is closed",
    )
    serve.add_argument(
        "--smtp-host",
        metavar="HOST",
        default=None,
        help="mail people whose move is due at a correspondence table through this SMTP "
        "server (off without it; the password from $KARTENTISCH_SMTP_PASSWORD)",
    )
    serve.add_argument("--smtp-port", type=int, default=587, metavar="N", help="its port (587)")
    serve.add_argument(
        "--smtp-security",
        choices=SECURITY,
        default="starttls",
        help="starttls (587), tls (465) or none (a local relay) (starttls)",
    )
    serve.add_argument("--smtp-user", metavar="NAME", default=None, help="log in as NAME")
    serve.add_argument(
        "--smtp-from",
        metavar="ADDRESS",
        default="kartentisch@localhost",
        help="the mails' sender (kartentisch@localhost)",
    )
    serve.add_argument(
        "--public-url",
        metavar="URL",
        default=None,
        help="the address people reach this server at, for links in mails "
        "(default http://HOST:PORT)",
    )
    serve.add_argument(
        "--analysis-workers",
        type=int,
        default=1,
        metavar="N",
        help="worker processes for analyses and hints (1): the tables keep the other cores",
    )
    serve.add_argument("--clock-file", metavar="PATH", default=None, help=argparse.SUPPRESS)
    serve.add_argument(
        "--log-level", default="info", choices=("critical", "error", "warning", "info", "debug")
    )
    serve.set_defaults(func=cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except KartentischError as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
