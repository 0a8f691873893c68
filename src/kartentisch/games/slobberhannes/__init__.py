"""Slobberhannes (seeds 000, 001, 004): avoid the first, the last and the Q♣ trick."""

from __future__ import annotations

from kartentisch.games import GameSpec
from kartentisch.games.slobberhannes.deal import (
    QUEEN_OF_CLUBS,
    SlobberhannesDeal,
    SlobberhannesObservation,
)
from kartentisch.games.slobberhannes.match import SlobberhannesMatch
from kartentisch.games.slobberhannes.options import PRESETS, SlobberhannesOptions
from kartentisch.games.slobberhannes.record import replay, summarize
from kartentisch.games.slobberhannes.text import render

__all__ = [
    "PRESETS",
    "QUEEN_OF_CLUBS",
    "SPEC",
    "SlobberhannesDeal",
    "SlobberhannesMatch",
    "SlobberhannesObservation",
    "SlobberhannesOptions",
]


def _add_play_arguments(parser: object) -> None:
    from kartentisch.cli.slobberhannes import add_play_arguments

    add_play_arguments(parser)  # type: ignore[arg-type]


def _play(args: object) -> int:
    from kartentisch.cli.slobberhannes import play

    return play(args)  # type: ignore[arg-type]


SPEC = GameSpec(
    name="slobberhannes",
    titles={"en": "Slobberhannes", "de": "Slobberhannes", "ru": "Слобберханнс"},
    replay=replay,
    summarize=summarize,
    render=render,
    add_play_arguments=_add_play_arguments,
    play=_play,
)
