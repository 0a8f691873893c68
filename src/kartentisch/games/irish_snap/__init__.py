"""Irish Snap (seed 002, variant): call the ranks, slap on a match, don't be last.

The engine is :class:`IrishSnapGame` (:mod:`.engine`); it shares the timed
machinery of :mod:`kartentisch.realtime` with Slapjack.
"""

from __future__ import annotations

from kartentisch.games import GameSpec
from kartentisch.games.irish_snap.engine import (
    CALLS,
    IrishSnapGame,
    IrishSnapObservation,
    IrishSnapOptions,
)
from kartentisch.games.irish_snap.record import replay, summarize
from kartentisch.games.irish_snap.text import TITLES, render

__all__ = ["CALLS", "SPEC", "IrishSnapGame", "IrishSnapObservation", "IrishSnapOptions"]


def _add_play_arguments(parser: object) -> None:
    from kartentisch.cli.slapjack import add_play_arguments

    add_play_arguments(parser, "irish-snap")  # type: ignore[arg-type]


def _play(args: object) -> int:
    from kartentisch.cli.slapjack import play

    return play(args, "irish-snap")  # type: ignore[arg-type]


SPEC = GameSpec(
    name="irish-snap",
    titles=TITLES,
    replay=replay,
    summarize=summarize,
    render=render,
    add_play_arguments=_add_play_arguments,
    play=_play,
)
