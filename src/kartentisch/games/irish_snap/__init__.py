"""Irish Snap (seed 002, variant): call the ranks, slap on a match, don't be last.

The engine is :class:`IrishSnapGame` (:mod:`.engine`); it shares the timed
machinery of :mod:`kartentisch.realtime` with Slapjack.
"""

from __future__ import annotations

from kartentisch.games.irish_snap.engine import (
    CALLS,
    IrishSnapGame,
    IrishSnapObservation,
    IrishSnapOptions,
)
from kartentisch.games.irish_snap.record import replay, summarize
from kartentisch.games.irish_snap.text import TITLES, render
from kartentisch.realtime.spec import slap_game_spec

__all__ = ["CALLS", "SPEC", "IrishSnapGame", "IrishSnapObservation", "IrishSnapOptions"]


SPEC = slap_game_spec(
    "irish-snap", titles=TITLES, replay=replay, summarize=summarize, render=render
)
