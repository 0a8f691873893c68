"""``kartentisch serve``: its options reach the app and uvicorn."""

from __future__ import annotations

import resource
from pathlib import Path

import pytest
import uvicorn

from kartentisch.cli.main import (
    HEADER_SECONDS,
    MAX_CONNECTIONS_PER_ADDRESS,
    build_parser,
    main,
    serve_config,
)
from kartentisch.web.guard import (
    DEFAULT_HEADER_SECONDS,
    DEFAULT_MAX_PER_ADDRESS,
    connection_budget,
    guard_of,
)


def test_serve_builds_the_app_and_runs_uvicorn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    configs: list[uvicorn.Config] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, **kw: configs.append(self.config))
    status = main(["serve", "--host", "0.0.0.0", "--port", "8123", "--data-dir", str(tmp_path)])
    assert status == 0
    config = configs[0]
    assert config.host == "0.0.0.0" and config.port == 8123
    assert str(tmp_path) in capsys.readouterr().out
    assert config.app.router.lifespan_context is not None
    # Frames are assembled before the app reads them: kept small (docs/security.md).
    assert config.ws_max_size == 64 * 1024
    # No proxy is trusted unless named (uvicorn's default trusts 127.0.0.1).
    assert config.proxy_headers is False
    # The connection limits (docs/security.md, "Limits").
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    guard = guard_of(config)
    assert guard.max_connections == connection_budget(soft) < soft
    assert config.limit_concurrency == guard.max_connections + 1  # (a backstop)
    assert config.timeout_keep_alive == 5
    assert (config.ws_ping_interval, config.ws_ping_timeout) == (20, 20)
    assert guard.max_per_address == 64 and guard.header_seconds == 10


def test_serve_takes_the_connection_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "*")  # ignored: only the option counts
    args = build_parser().parse_args(["serve", "--data-dir", str(tmp_path)])
    assert serve_config(args).proxy_headers is False
    options = [
        *("serve", "--data-dir", str(tmp_path), "--forwarded-allow-ips", "10.0.0.2,10.1.0.0/16"),
        *("--max-connections-per-address", "7", "--limit-concurrency", "99"),
        *("--header-timeout", "2.5", "--timeout-keep-alive", "3", "--ws-ping", "7"),
    ]
    config = serve_config(build_parser().parse_args(options))
    assert config.proxy_headers is True
    assert config.forwarded_allow_ips == "10.0.0.2,10.1.0.0/16"
    assert (config.limit_concurrency, config.timeout_keep_alive) == (100, 3)
    assert (config.ws_ping_interval, config.ws_ping_timeout) == (7, 7)
    guard = guard_of(config)
    assert (guard.max_per_address, guard.max_connections, guard.header_seconds) == (7, 99, 2.5)


def test_serve_defaults_and_refusals(capsys: pytest.CaptureFixture[str]) -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.db, args.data_dir) == ("127.0.0.1", 8000, None, None)
    assert args.forwarded_allow_ips is None
    assert (MAX_CONNECTIONS_PER_ADDRESS, HEADER_SECONDS) == (
        DEFAULT_MAX_PER_ADDRESS,
        DEFAULT_HEADER_SECONDS,
    )
    assert main(["serve", "--bot-delay", "-1"]) == 2
    assert "must not be negative" in capsys.readouterr().err
    for option in ("--max-connections-per-address", "--header-timeout", "--hello-timeout"):
        assert main(["serve", option, "0"]) == 2
        assert f"{option} must be positive" in capsys.readouterr().err
