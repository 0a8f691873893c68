"""Slobberhannes rule options and presets (see docs/rules/slobberhannes.md)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from kartentisch.cards import Card, piquet_deck
from kartentisch.errors import OptionError
from kartentisch.options import Option, OptionSchema, options_from_dict, options_to_dict

__all__ = ["MAX_TARGET", "PRESETS", "SCHEMA", "SlobberhannesOptions"]

Revokes = Literal["forbidden", "penalty"]
Ending = Literal["first_to_target", "fewest_wins"]
Scoring = Literal["chips", "sheet"]
FirstDealer = Literal["random", "draw"]

#: Cards removed from the 32-card deck, by number of players (RULINGS: Players 3–7).
_REMOVED: Final[Mapping[int, tuple[str, ...]]] = {
    3: ("7C", "7S"),
    4: (),
    5: ("7C", "7S"),
    6: ("7C", "7S"),
    7: ("7C", "7S", "7H", "7D"),
}
#: Deal packets by number of players (RULINGS: Deal packets).
_PACKETS: Final[Mapping[int, tuple[int, ...]]] = {
    3: (3, 2, 3, 2),
    4: (3, 2, 3),
    5: (3, 3),
    6: (3, 2),
    7: (2, 2),
}

#: Named option sets. A record's options may name a preset and override fields.
PRESETS: Final[Mapping[str, Mapping[str, Any]]] = {
    "standard": {},
    # Seed 004: draw for the lead, leader's right deals, a cut, no bonus,
    # play to 5, the fewest penalties wins and is paid the differences.
    "russian": {
        "players": 4,
        "all_three_bonus": False,
        "target": 5,
        "ending": "fewest_wins",
        "first_dealer": "draw",
        "cut": True,
        "scoring": "sheet",
    },
}

#: The highest target: a longer match would never end at a table.
MAX_TARGET: Final = 100

#: Every option, its type and range: what every path (lobby, records, command line) checks.
SCHEMA: Final = OptionSchema(
    "Slobberhannes",
    (
        Option("players", "whole", low=3, high=7),
        Option("revokes", "choice", choices=("forbidden", "penalty")),
        Option("all_three_bonus", "flag"),
        Option("target", "whole", low=1, high=MAX_TARGET),
        Option("ending", "choice", choices=("first_to_target", "fewest_wins")),
        Option("scoring", "choice", choices=("chips", "sheet")),
        Option("partnership", "flag"),
        Option("first_dealer", "choice", choices=("random", "draw")),
        Option("cut", "flag"),
    ),
)


@functools.cache
def _deck(players: int) -> tuple[Card, ...]:
    return tuple(piquet_deck(without=[Card(c) for c in _REMOVED[players]]))


@dataclass(frozen=True, slots=True)
class SlobberhannesOptions:
    """Every rule option with its default; ``preset`` names where they came from."""

    preset: str = "standard"
    players: int = 4
    revokes: Revokes = "forbidden"
    all_three_bonus: bool = True
    target: int = 10
    ending: Ending = "first_to_target"
    scoring: Scoring = "chips"
    partnership: bool = False
    first_dealer: FirstDealer = "random"
    cut: bool = False

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise OptionError(
                f"unknown preset {self.preset!r}: choose one of {', '.join(PRESETS)}",
                "unknown_preset",
                preset=str(self.preset)[:40],
            )
        SCHEMA.validate(self)
        if self.partnership and self.players != 4:
            raise OptionError(
                "the partnership option is played by 4 players (2 against 2)", "partnership_four"
            )

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any] | None = None, **overrides: Any
    ) -> SlobberhannesOptions:
        """Options from a record's ``options`` object: a preset, then its overrides."""
        return options_from_dict(
            cls,
            data,
            overrides,
            presets=PRESETS,
            default_preset="standard",
            default=_DEFAULT,
            schema=SCHEMA,
        )

    def to_dict(self) -> dict[str, Any]:
        """The preset and every option that differs from it (what a record stores)."""
        return options_to_dict(self, PRESETS, omit_preset="standard")

    def to_record(self) -> dict[str, Any]:
        """What a record stores: :meth:`to_dict` (the presets are few and fixed)."""
        return self.to_dict()

    def deck(self) -> tuple[Card, ...]:
        """The deck for this number of players (high to low within each suit)."""
        return _deck(self.players)

    @property
    def hand_size(self) -> int:
        return len(_deck(self.players)) // self.players

    @property
    def packets(self) -> tuple[int, ...]:
        return _PACKETS[self.players]

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """Who shares penalties: partners sit opposite, otherwise everyone alone."""
        if self.partnership:
            return ((0, 2), (1, 3))
        return tuple((s,) for s in range(self.players))


_DEFAULT: Final = SlobberhannesOptions()
