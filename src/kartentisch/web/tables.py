"""Live tables: the authoritative master of every game being played.

The parts, each in a module of its own:

- :mod:`kartentisch.web.livetable`: :class:`LiveTable`, one table (its game,
  seats and connections; its actions stored before anyone hears of them);
- :mod:`kartentisch.web.manager`: :class:`TableManager`, which creates, finds
  and restores tables, and :func:`rebuild` (a stored table replayed);
- :mod:`kartentisch.web.settings`: :class:`ServerSettings`, how the server runs.

This module names them all in one place for those who use them.
"""

from __future__ import annotations

from kartentisch.web.livetable import LiveTable
from kartentisch.web.manager import TableManager, rebuild
from kartentisch.web.settings import SPECTATOR_UPDATE_SECONDS, ServerSettings
from kartentisch.web.tablechat import CHAT_KEPT

__all__ = [
    "CHAT_KEPT",
    "SPECTATOR_UPDATE_SECONDS",
    "LiveTable",
    "ServerSettings",
    "TableManager",
    "rebuild",
]
