"""Players that are programs. A bot sees only its seat's observation.

Every bot takes an injected seed (or :class:`random.Random`), so a game
between bots replays exactly. :func:`make_bot` finds bots by game and level.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from kartentisch.errors import KartentischError

__all__ = ["LEVELS", "LEVEL_ALIASES", "Bot", "RandomBot", "canonical_level", "make_bot"]


class Bot(Protocol):
    """Chooses an action from one seat's observation (never the true state)."""

    name: str

    def choose(self, observation: Any) -> Any: ...


def _rng(seed: int | random.Random | None) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


class RandomBot:
    """Plays a uniformly random legal action."""

    name = "random"

    def __init__(self, seed: int | random.Random | None = None) -> None:
        self.rng = _rng(seed)

    def choose(self, observation: Any) -> Any:
        legal = observation.legal_actions
        if not legal:
            raise ValueError("the bot was asked to act with no legal action")
        return self.rng.choice(legal)


#: Bot levels by game, weakest first.
LEVELS: dict[str, tuple[str, ...]] = {
    "slobberhannes": ("random", "heuristic", "strong", "expert"),
    "doppelkopf": ("random", "heuristic", "strong", "expert"),
    "slapjack": ("beginner", "casual", "club", "fast", "expert"),
    "irish-snap": ("beginner", "casual", "club", "fast", "expert"),
}
#: Old level names still accepted (stored tables and records name them), by game.
LEVEL_ALIASES: dict[str, dict[str, str]] = {
    "slapjack": {"easy": "beginner", "normal": "club", "hard": "expert"},
    "irish-snap": {"easy": "beginner", "normal": "club", "hard": "expert"},
}


def canonical_level(game: str, level: str) -> str:
    """The level ``level`` names for ``game`` (an old name is an alias); refuses unknown ones.

    >>> canonical_level("slapjack", "normal"), canonical_level("doppelkopf", "strong")
    ('club', 'strong')
    """
    levels = LEVELS.get(game)
    if levels is None:
        raise KartentischError(f"no bots for game {game!r}")
    level = LEVEL_ALIASES.get(game, {}).get(level, level)
    if level not in levels:
        raise KartentischError(
            f"unknown bot level {level!r} for {game}: choose one of {', '.join(levels)}"
        )
    return level


def make_bot(game: str, level: str, seed: int | random.Random | None = None) -> Bot:
    """A bot of ``level`` for ``game``, seeded.

    >>> make_bot("slobberhannes", "heuristic", 1).name
    'heuristic'
    """
    level = canonical_level(game, level)
    if game in ("slapjack", "irish-snap"):
        from kartentisch.bots.reaction import ReactionBot

        return ReactionBot(level, seed)
    if level == "random":
        return RandomBot(seed)
    if game == "slobberhannes" and level == "strong":
        from kartentisch.bots.slobberhannes_strong import StrongSlobberhannesBot

        return StrongSlobberhannesBot(seed)
    if game == "slobberhannes" and level == "expert":
        from kartentisch.bots.slobberhannes_strong import StrongSlobberhannesBot

        return StrongSlobberhannesBot.expert(seed)
    if game == "doppelkopf" and level == "strong":
        from kartentisch.bots.doppelkopf_strong import StrongDoppelkopfBot

        return StrongDoppelkopfBot(seed)
    if game == "doppelkopf" and level == "expert":
        from kartentisch.bots.doppelkopf_strong import expert_doppelkopf_bot

        return expert_doppelkopf_bot(seed)
    if game == "slobberhannes":
        from kartentisch.bots.slobberhannes import HeuristicSlobberhannesBot

        return HeuristicSlobberhannesBot(seed)
    if game == "doppelkopf":
        from kartentisch.bots.doppelkopf import HeuristicDoppelkopfBot

        return HeuristicDoppelkopfBot(seed)
    raise KartentischError(f"bot level {level!r} is not available for {game}")
