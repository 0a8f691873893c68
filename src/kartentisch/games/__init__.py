"""One package per game, found by name through one registry with aliases.

Each game package exposes ``SPEC``, a :class:`GameSpec` that the interfaces
(CLI, later the web app) use; nothing above this layer knows a game's rules.

>>> get_game("Slobberhannes").name
'slobberhannes'
>>> get_game("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
kartentisch.errors.KartentischError: unknown game 'chess': choose one of slobberhannes, ...
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from kartentisch.errors import KartentischError

if TYPE_CHECKING:
    import argparse

    from kartentisch.options import OptionSchema

__all__ = ["GAMES", "GameSpec", "get_game", "rules_text"]

#: Registry name → module under ``kartentisch.games`` (imported lazily).
GAMES: dict[str, str] = {
    "slobberhannes": "slobberhannes",
    "doppelkopf": "doppelkopf",
    "slapjack": "slapjack",
    "irish-snap": "irish_snap",
}
#: Other names players use, all lower case.
ALIASES: dict[str, str] = {
    "slobber": "slobberhannes",
    "слобберханнс": "slobberhannes",
    "doko": "doppelkopf",
    "doppelkopp": "doppelkopf",
    "доппелькопф": "doppelkopf",
    "slap-jack": "slapjack",
    "слэпджек": "slapjack",
    "irish_snap": "irish-snap",
    "irishsnap": "irish-snap",
    "irish snap": "irish-snap",
}


@dataclass(frozen=True)
class GameSpec:
    """What the interfaces need to know about a game."""

    name: str
    titles: Mapping[str, str]
    #: Replays a checked record (a mapping) into a finished or partial game object.
    replay: Callable[[Mapping[str, Any]], Any]
    #: The replayed game as one JSON object (``tricks``/``points`` … per the CLI contract).
    summarize: Callable[[Any], dict[str, Any]]
    #: Prints a replayed game as text: (game, language) → lines.
    render: Callable[[Any, str], list[str]]
    #: Adds the game's ``play`` options to an argparse parser.
    add_play_arguments: Callable[[argparse.ArgumentParser], None] | None = None
    #: Runs an interactive terminal game from parsed arguments; returns an exit status.
    play: Callable[[argparse.Namespace], int] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: The rule options (their groups in display order too), for rule-set files
    #: (:mod:`kartentisch.rulesets`); None: the game has none to share.
    schema: OptionSchema | None = None
    #: The presets by name: the options each sets (the others keep their defaults).
    presets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: The options class (a frozen dataclass with a ``preset`` field, built from
    #: keyword values, that refuses what does not go together); its default
    #: instance names the default preset.
    options_class: Callable[..., Any] | None = None


def get_game(name: str) -> GameSpec:
    """The game registered under ``name`` or one of its aliases (case-insensitive)."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in GAMES:
        raise KartentischError(f"unknown game {name!r}: choose one of {', '.join(GAMES)}")
    module = importlib.import_module(f"kartentisch.games.{GAMES[key]}")
    spec: GameSpec = module.SPEC
    return spec


#: A part of a rules page for one place only: ``<!-- terminal -->`` … ``<!-- /terminal -->``.
_PLACE_PART = re.compile(r"<!-- (terminal|web) -->\n(.*?)<!-- /\1 -->\n?", re.DOTALL)


def rules_text(name: str, lang: str, where: Literal["terminal", "web"] = "terminal") -> str:
    """The rules as implemented, in ``de``, ``en`` or ``ru`` (Markdown).

    A page speaks of the place it is read in: the terminal's names its
    command-line flags, the web app's the table's options; the parts marked for
    the other place are left out.

    >>> "--rules ddv" in rules_text("doppelkopf", "de", "web")
    False
    >>> "--rules ddv" in rules_text("doppelkopf", "de"), "<!--" in rules_text("doppelkopf", "de")
    (True, False)
    """
    from importlib.resources import files

    spec = get_game(name)
    if lang not in ("de", "en", "ru"):
        raise KartentischError(f"unknown language {lang!r}: use de, en or ru")
    module = GAMES[spec.name]
    resource = files("kartentisch.games").joinpath(module, "rules", f"{lang}.md")
    text = resource.read_text(encoding="utf-8")
    return _PLACE_PART.sub(lambda m: m.group(2) if m.group(1) == where else "", text)
