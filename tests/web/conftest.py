"""Fixtures of the web app's tests: an app on a fresh SQLite file, bots without delay."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

# Starlette's TestClient prefers the httpx2 fork; plain httpx works the same here.
warnings.filterwarnings("ignore", message=".*httpx2.*")

from starlette.applications import Starlette  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from kartentisch.web.app import create_app  # noqa: E402
from kartentisch.web.tables import ServerSettings  # noqa: E402

from .helpers import AppFactory  # noqa: E402


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def make_app(tmp_path: Path, request: pytest.FixtureRequest) -> AppFactory:
    """Apps on one SQLite file in ``tmp_path``: a second one is a server restart.

    The tables a test opens get seeds from a sequence fixed by the test's name, so a
    test deals the same cards every run (a seed-dependent failure shows every time).
    """
    seeds = random.Random(request.node.nodeid)

    def build(
        db_url: str | None = None,
        *,
        grace: float | None = None,
        delay: float = 0,
        ready: float | None = 60.0,
    ) -> Starlette:
        settings = ServerSettings(
            bot_delay=delay,
            grace=grace,
            ready_seconds=ready,
            table_seed=lambda: seeds.getrandbits(62),
        )
        return create_app(db_url, data_dir=tmp_path, settings=settings)

    return build


@pytest.fixture
def client(make_app: AppFactory) -> Iterator[TestClient]:
    with TestClient(make_app()) as test_client:
        yield test_client
