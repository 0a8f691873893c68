"""``kartentisch serve``: its options reach the app and uvicorn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import uvicorn

from kartentisch.cli.main import build_parser, main


def test_serve_builds_the_app_and_runs_uvicorn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append({"app": app, **kw}))
    status = main(["serve", "--host", "0.0.0.0", "--port", "8123", "--data-dir", str(tmp_path)])
    assert status == 0
    assert calls[0]["host"] == "0.0.0.0" and calls[0]["port"] == 8123
    assert str(tmp_path) in capsys.readouterr().out
    assert calls[0]["app"].router.lifespan_context is not None
    # Frames are assembled before the app reads them: kept small (docs/security.md).
    assert calls[0]["ws_max_size"] == 64 * 1024


def test_serve_defaults_and_refusals(capsys: pytest.CaptureFixture[str]) -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.db, args.data_dir) == ("127.0.0.1", 8000, None, None)
    assert main(["serve", "--bot-delay", "-1"]) == 2
    assert "must not be negative" in capsys.readouterr().err
