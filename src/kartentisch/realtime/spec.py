"""The registry entry of a slap game: one :class:`~kartentisch.games.GameSpec` shape for all.

Both slap games share their terminal game (:mod:`kartentisch.cli.slapjack`),
which is told the game's registry name; it is imported only when used.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from kartentisch.games import GameSpec

if TYPE_CHECKING:
    import argparse

__all__ = ["slap_game_spec"]


def slap_game_spec(
    name: str,
    *,
    titles: Mapping[str, str],
    replay: Callable[[Mapping[str, Any]], Any],
    summarize: Callable[[Any], dict[str, Any]],
    render: Callable[[Any, str], list[str]],
) -> GameSpec:
    """The :class:`GameSpec` of the slap game ``name``, played in the shared terminal game."""

    def add_play_arguments(parser: argparse.ArgumentParser) -> None:
        from kartentisch.cli.slapjack import add_play_arguments

        add_play_arguments(parser, name)

    def play(args: argparse.Namespace) -> int:
        from kartentisch.cli.slapjack import play

        return play(args, name)

    return GameSpec(
        name=name,
        titles=titles,
        replay=replay,
        summarize=summarize,
        render=render,
        add_play_arguments=add_play_arguments,
        play=play,
    )
