"""Slapjack (seed 002): slap the jack first and win the pile.

The engine is :class:`SlapjackGame` (:mod:`.engine`); Irish Snap, the seed's
other slap game, lives in :mod:`kartentisch.games.irish_snap` and shares the
timed machinery of :mod:`kartentisch.realtime`.
"""

from __future__ import annotations

from kartentisch.games import GameSpec
from kartentisch.games.slapjack.engine import (
    SlapjackGame,
    SlapjackObservation,
    SlapjackOptions,
)
from kartentisch.games.slapjack.record import replay, summarize
from kartentisch.games.slapjack.text import TITLES, render

__all__ = ["SPEC", "SlapjackGame", "SlapjackObservation", "SlapjackOptions"]


def _add_play_arguments(parser: object) -> None:
    from kartentisch.cli.slapjack import add_play_arguments

    add_play_arguments(parser, "slapjack")  # type: ignore[arg-type]


def _play(args: object) -> int:
    from kartentisch.cli.slapjack import play

    return play(args, "slapjack")  # type: ignore[arg-type]


SPEC = GameSpec(
    name="slapjack",
    titles=TITLES,
    replay=replay,
    summarize=summarize,
    render=render,
    add_play_arguments=_add_play_arguments,
    play=_play,
)
