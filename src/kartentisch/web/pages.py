"""The page: its paths, its static files and the server's health check.

Every path of the page (the lobby, a table, the rules, the replay viewer, the
account pages, profiles, leaderboards, friends) answers the same ``index.html``,
under :data:`CONTENT_SECURITY_POLICY`; the page routes itself in the browser. Its
files are under ``/static``; ``GET /healthz`` answers the version.
"""

from __future__ import annotations

from importlib.resources import files

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from kartentisch import __version__

__all__ = ["CONTENT_SECURITY_POLICY", "PAGE_PATHS", "page_routes", "static_files"]

#: The page may load only its own files and talk only to its own server.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; "
    "script-src 'self'; connect-src 'self' ws: wss:; base-uri 'none'; frame-ancestors 'none'"
)
#: The paths that answer the page.
PAGE_PATHS = (
    "/",
    "/t/{table_id}",
    "/rules/{game}",
    "/login",
    "/signup",
    "/account",
    "/players/{name}",
    "/leaderboard",
    "/friends",
    "/leaderboard/{pool}",
    "/replay",
    "/replay/{table_id}",
)


def page_routes() -> list[BaseRoute]:
    """The page's paths and the health check (the page is read once, here)."""
    index_html = (files("kartentisch.web") / "static" / "index.html").read_text(encoding="utf-8")

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

    return [*(Route(path, page) for path in PAGE_PATHS), Route("/healthz", health)]


def static_files() -> Mount:
    """The page's files under ``/static``."""
    return Mount("/static", StaticFiles(packages=[("kartentisch.web", "static")]), name="static")
