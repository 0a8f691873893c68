"""Fixtures of the browser tests: a real ``kartentisch serve`` process and headless Chromium.

The browser is Debian's Chromium (``/usr/bin/chromium``) driven by Playwright;
Playwright's own browser downloads are never used. Without Chromium or the
``playwright`` package the tests are skipped with a message, except under
``CI=true``, where they fail.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ConsoleMessage, Page

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: Screenshots of the main screens, for people to look at (gitignored).
ARTIFACTS = Path(__file__).parent / "artifacts"


def _missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[dev]')"
    if not os.access(CHROMIUM, os.X_OK):
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    """``kartentisch serve`` in a subprocess on a fixed port and data directory."""

    def __init__(self, data_dir: Path, *, grace: float = 300) -> None:
        self.data_dir = data_dir
        self.port = _free_port()
        self.grace = grace
        self.log_path = data_dir / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> None:
        command = [
            sys.executable,
            "-m",
            "kartentisch.cli.main",
            "serve",
            "--port",
            str(self.port),
            "--data-dir",
            str(self.data_dir),
            "--bot-delay",
            "0",
            "--grace",
            str(self.grace),
            "--log-level",
            "warning",
        ]
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited:\n{self.log()}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"the server did not answer within {timeout} s:\n{self.log()}")

    def kill(self) -> None:
        """Stop at once, as a crash would (SIGKILL): nothing is shut down cleanly."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def log(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-4000:]
        except OSError:
            return ""

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = httpx.post(f"{self.url}{path}", json=body, timeout=10)
        assert response.status_code < 300, response.text
        data: dict[str, Any] = response.json()
        return data


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless Chromium for one module's tests.

    Not for the session: while Playwright's sync API runs, its event loop is the
    thread's running loop, and the async tests collected after these could not start theirs.
    """
    reason = _missing()
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests must run under CI=true, but {reason}")
        pytest.skip(f"browser tests skipped: {reason}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="module")
def server(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module's tests; the restart test kills and starts it again."""
    server = ServerProcess(tmp_path_factory.mktemp("e2e-server"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


class PageErrors:
    """What the page reported as errors; ``allowed`` holds substrings a test expects."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.allowed: list[str] = []

    def unexpected(self) -> list[str]:
        return [p for p in self.problems if not any(a in p for a in self.allowed)]


@pytest.fixture
def page_errors() -> PageErrors:
    return PageErrors()


@pytest.fixture
def page(browser: Browser, page_errors: PageErrors) -> Iterator[Page]:
    """A fresh browser context (no stored seats or language), English; JS errors fail the test."""
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 860})
    context.set_default_timeout(10_000)
    tab = context.new_page()
    tab.on("pageerror", lambda error: page_errors.problems.append(f"page error: {error}"))

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            page_errors.problems.append(f"console error: {message.text} at {message.location}")

    tab.on("console", console)
    try:
        yield tab
    finally:
        context.close()
    unexpected = page_errors.unexpected()
    assert not unexpected, "the page reported errors:\n" + "\n".join(unexpected)


def shot(page: Page, name: str) -> None:
    """Save a screenshot of the whole page as ``artifacts/<name>.png``."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
