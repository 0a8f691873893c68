"""Reaction-time bots for Slapjack and Irish Snap.

A bot sees what every player sees (the card on top, the call, the counts)
and answers with a :class:`Reaction`: slap after a sampled, human-like
reaction time, or do nothing. Reaction times are lognormal with a level's
mean; each level also slaps falsely now and then, sometimes misses a card
and (Slapjack with the call) sometimes forgets to call. Everything is drawn
from an injected :class:`random.Random`, so a game between bots replays.

>>> from kartentisch.games.slapjack.engine import SlapjackGame
>>> game = SlapjackGame.from_tops(["JS", "2C"], dealer=1)
>>> _ = game.apply(game.parse_action("0 s0 turn"))
>>> bot = ReactionBot("hard", seed=3)
>>> reaction = bot.react(game.observation(1))
>>> reaction.type, 150 <= reaction.delay_ms <= 2500
('slap', True)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Final

from kartentisch.cards import Rank
from kartentisch.errors import KartentischError
from kartentisch.games.irish_snap.engine import CALLS, IrishSnapObservation
from kartentisch.games.slapjack.engine import SlapjackObservation

__all__ = ["LEVELS", "PROFILES", "Reaction", "ReactionBot", "ReactionProfile"]


@dataclass(frozen=True, slots=True)
class ReactionProfile:
    """How a level plays: reaction times and error rates."""

    #: Mean reaction time (lognormal), and the spread of its logarithm.
    mean_ms: int
    sigma: float
    #: Chance to slap a card that should not be slapped (doubled for near misses).
    false_rate: float
    #: Chance not to slap a card that should be slapped.
    miss_rate: float
    #: Slapjack with the call: chance to forget "Slapjack!".
    forget_call_rate: float
    #: Mean time to turn one's own card.
    turn_mean_ms: int
    min_ms: int = 150
    max_ms: int = 2500


PROFILES: Final = {
    "easy": ReactionProfile(600, 0.30, 0.03, 0.05, 0.10, 900),
    "normal": ReactionProfile(400, 0.25, 0.015, 0.02, 0.04, 700),
    "hard": ReactionProfile(280, 0.20, 0.005, 0.005, 0.01, 550),
}
LEVELS: Final = tuple(PROFILES)


@dataclass(frozen=True, slots=True)
class Reaction:
    """Act ``delay_ms`` after seeing the card: ``slap`` (with ``call``) or ``turn``."""

    delay_ms: int
    type: str = "slap"
    call: bool = False


class ReactionBot:
    """A player with human-like reactions, seeded."""

    def __init__(self, level: str = "normal", seed: int | random.Random | None = None) -> None:
        if level not in PROFILES:
            raise KartentischError(
                f"unknown bot level {level!r}: choose one of {', '.join(PROFILES)}"
            )
        self.name = level
        self.level = level
        self.profile = PROFILES[level]
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def _lognormal(self, mean: int) -> int:
        p = self.profile
        mu = math.log(mean) - p.sigma**2 / 2
        value = self.rng.lognormvariate(mu, p.sigma)
        return int(min(p.max_ms, max(p.min_ms, round(value))))

    def reaction_time(self) -> int:
        """A sampled reaction time in ms."""
        return self._lognormal(self.profile.mean_ms)

    def turn_delay(self) -> int:
        """How long the bot takes to turn its card when it is its turn."""
        return self._lognormal(self.profile.turn_mean_ms)

    def react(self, observation: SlapjackObservation | IrishSnapObservation) -> Reaction | None:
        """Whether and when to slap the card now on top (ask once per card seen)."""
        if isinstance(observation, IrishSnapObservation):
            return self._react_irish(observation)
        return self._react_slapjack(observation)

    def choose(self, observation: SlapjackObservation | IrishSnapObservation) -> Reaction | None:
        """The :class:`~kartentisch.bots.Bot` protocol: the same as :meth:`react`."""
        return self.react(observation)

    def _slap(self, call: bool = False) -> Reaction:
        return Reaction(self.reaction_time(), "slap", call)

    def _react_slapjack(self, obs: SlapjackObservation) -> Reaction | None:
        top = obs.top
        if obs.over or top is None or obs.slapped or obs.out[obs.seat]:
            return None
        p, rng = self.profile, self.rng
        if top.rank == Rank.JACK:
            if rng.random() < p.miss_rate:
                return None
            return self._slap(obs.call_required and rng.random() >= p.forget_call_rate)
        near = top.rank in (Rank.QUEEN, Rank.KING)
        if rng.random() < p.false_rate * (2 if near else 1):
            return self._slap(obs.call_required)
        return None

    def _react_irish(self, obs: IrishSnapObservation) -> Reaction | None:
        top, call = obs.top, obs.call
        if obs.over or top is None or call is None or obs.safe[obs.seat] or obs.slapped:
            return None
        p, rng = self.profile, self.rng
        if obs.match_open:
            if not obs.must_slap or rng.random() < p.miss_rate:
                return None
            return self._slap()
        distance = abs(CALLS.index(top.rank) - CALLS.index(call))
        near = distance in (1, len(CALLS) - 1)
        if rng.random() < p.false_rate * (2 if near else 1):
            return self._slap()
        return None
