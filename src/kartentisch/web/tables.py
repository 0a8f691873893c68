"""Live tables: the authoritative master of every game being played.

The parts, each in a module of its own:

- :mod:`kartentisch.web.livetable`: :class:`LiveTable`, one table (its game,
  seats and connections; its actions stored before anyone hears of them);
- :mod:`kartentisch.web.manager`: :class:`TableManager`, which creates, finds
  and restores tables, and :func:`rebuild` (a stored table replayed);
- :mod:`kartentisch.web.settings`: :class:`ServerSettings`, how the server runs.

A live table's own parts: its client messages
(:mod:`~kartentisch.web.tablemessages`), the state sent to its connections
(:mod:`~kartentisch.web.sending`), its changes stored
(:mod:`~kartentisch.web.saving`), presence, pause and the wait between deals
(:mod:`~kartentisch.web.presence`), the driver of automatic turns
(:mod:`~kartentisch.web.driver`), the game log (:mod:`~kartentisch.web.gamelog`),
chat and hints (:mod:`~kartentisch.web.tablechat`,
:mod:`~kartentisch.web.tablehints`), a waiting table's expiry
(:mod:`~kartentisch.web.expiry`) and a correspondence table's moves due
(:mod:`~kartentisch.web.duemoves`).

This module names the first three's classes in one place for those who use them.
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
