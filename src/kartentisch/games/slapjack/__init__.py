"""Slapjack (seed 002): slap the jack first and win the pile.

The engine is :class:`SlapjackGame` (:mod:`.engine`); Irish Snap, the seed's
other slap game, lives in :mod:`kartentisch.games.irish_snap` and shares the
timed machinery of :mod:`kartentisch.realtime`.
"""

from __future__ import annotations

from kartentisch.games.slapjack.engine import (
    SlapjackGame,
    SlapjackObservation,
    SlapjackOptions,
)
from kartentisch.games.slapjack.record import replay, summarize
from kartentisch.games.slapjack.text import TITLES, render
from kartentisch.realtime.spec import slap_game_spec

__all__ = ["SPEC", "SlapjackGame", "SlapjackObservation", "SlapjackOptions"]


SPEC = slap_game_spec("slapjack", titles=TITLES, replay=replay, summarize=summarize, render=render)
