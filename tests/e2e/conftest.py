"""Fixtures of the browser tests: a real ``kartentisch serve`` process and headless Chromium.

The browser is Debian's Chromium (``/usr/bin/chromium``) driven by Playwright;
Playwright's own browser downloads are never used. Without Chromium or the
``playwright`` package the tests are skipped with a message, except under
``CI=true``, where they fail.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from web.servers import ServerProcess

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
#: How long a page is waited for (a click's answer, an element): generous, since a
#: slow or busy machine must not fail a test that only waits.
WAIT_MS = 30_000
#: The window sizes the screens are looked at in (the ``sized`` fixture's parameters).
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
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
    # A module's tests open many tables from one address: the cap on waiting tables per
    # address (tested in tests/web/test_waiting_tables.py) is set high enough for them.
    server = ServerProcess(
        tmp_path_factory.mktemp("e2e-server"),
        # (and every account of a module's tests is opened from 127.0.0.1)
        options=["--max-waiting-tables", "100", "--signup-burst", "50"],
    )
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


@contextlib.contextmanager
def open_page(browser: Browser, page_errors: PageErrors, label: str = "") -> Iterator[Page]:
    """A tab in a fresh browser context (no stored seats or language), English; its JS
    errors go to ``page_errors``, each starting with ``label``."""
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 860})
    context.set_default_timeout(WAIT_MS)
    tab = context.new_page()
    tab.on("pageerror", lambda error: page_errors.problems.append(f"{label}page error: {error}"))

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            page_errors.problems.append(
                f"{label}console error: {message.text} at {message.location}"
            )

    tab.on("console", console)
    try:
        yield tab
    finally:
        context.close()


@pytest.fixture
def page(browser: Browser, page_errors: PageErrors) -> Iterator[Page]:
    """A fresh browser context (no stored seats or language), English; JS errors fail the test."""
    with open_page(browser, page_errors) as tab:
        yield tab
    unexpected = page_errors.unexpected()
    assert not unexpected, "the page reported errors:\n" + "\n".join(unexpected)


@pytest.fixture
def sized(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh browser context with the window size ``request.param`` names in :data:`SIZES`."""
    width, height = SIZES[request.param]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(WAIT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


def shot(page: Page, name: str) -> None:
    """Save a screenshot of the whole page as ``artifacts/<name>.png``."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
