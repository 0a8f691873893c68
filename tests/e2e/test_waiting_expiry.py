"""A table that waited too long for players, in a real browser: the page says so and stays.

The server of this module lets a table wait one second (``--waiting-expiry 1``).
The page of a waiting table is open when it expires: the server sends
``table_expired`` and closes the socket, and the page shows the message in its
language instead of the waiting room. A page opened later is told the same at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from web.servers import ServerProcess

from .pages import catalog

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


@pytest.fixture(scope="module")
def server(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """This module's server: a table waits for players one second at most."""
    server = ServerProcess(tmp_path_factory.mktemp("e2e-expiry"), options=["--waiting-expiry", "1"])
    server.start(timeout=120)  # (generous: a loaded machine starts it slowly)
    try:
        yield server
    finally:
        server.stop()


def test_the_page_of_an_expired_table_says_so(server: ServerProcess, page: Page) -> None:
    de = catalog(server, "de")
    seats = [{"kind": "you"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]
    created = server.post("/api/tables", {"game": "slobberhannes", "name": "Ann", "seats": seats})
    page.goto(f"{server.url}/t/{created['id']}?lang=de")
    # (On a slow machine the table may have expired before the page connected: the same.)
    page.locator("p.error", has_text=de["error.table_expired"]).wait_for()
    # Instead of the waiting room: no seat to join any more.
    assert page.get_by_role("button", name=de["lobby.join"]).count() == 0

    later = page.context.new_page()
    later.goto(f"{server.url}/t/{created['id']}?lang=de")
    later.locator("p.error", has_text=de["error.table_expired"]).wait_for()
    later.close()
