"""Doppelkopf (seed 003, house rules by default; the DDV tournament rules as a preset)."""

from __future__ import annotations

from kartentisch.games import GameSpec
from kartentisch.games.doppelkopf.actions import Action, Call, parse_action
from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
from kartentisch.games.doppelkopf.match import DoppelkopfMatch
from kartentisch.games.doppelkopf.observation import DoppelkopfObservation
from kartentisch.games.doppelkopf.options import PRESETS, SCHEMA, DoppelkopfOptions
from kartentisch.games.doppelkopf.record import replay, summarize
from kartentisch.games.doppelkopf.text import render

__all__ = [
    "PRESETS",
    "SPEC",
    "Action",
    "Call",
    "DoppelkopfDeal",
    "DoppelkopfMatch",
    "DoppelkopfObservation",
    "DoppelkopfOptions",
    "parse_action",
]


def _add_play_arguments(parser: object) -> None:
    from kartentisch.cli.doppelkopf import add_play_arguments

    add_play_arguments(parser)  # type: ignore[arg-type]


def _play(args: object) -> int:
    from kartentisch.cli.doppelkopf import play

    return play(args)  # type: ignore[arg-type]


SPEC = GameSpec(
    name="doppelkopf",
    titles={"en": "Doppelkopf", "de": "Doppelkopf", "ru": "Доппелькопф"},
    replay=replay,
    summarize=summarize,
    render=render,
    add_play_arguments=_add_play_arguments,
    play=_play,
    schema=SCHEMA,
    presets=PRESETS,
    options_class=DoppelkopfOptions,
)
