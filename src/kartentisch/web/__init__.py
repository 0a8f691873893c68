"""The web app: play in the browser with friends and bots, in German, English and Russian.

Layers, bottom up: :mod:`~kartentisch.web.adapter` (the game-agnostic
``TableGame`` protocol and one adapter per game under ``games/``),
:mod:`~kartentisch.web.tables` (the authoritative live tables, bots, timers,
persistence through :mod:`kartentisch.storage`),
:mod:`~kartentisch.web.protocol` (WebSocket messages) and
:mod:`~kartentisch.web.app` (the ASGI app). The page under ``static/`` is
plain HTML, CSS and ES modules, served as is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["create_app"]


def create_app(*args: Any, **kwargs: Any) -> Starlette:
    """Build the ASGI app (see :func:`kartentisch.web.app.create_app`)."""
    from kartentisch.web.app import create_app as build

    return build(*args, **kwargs)
