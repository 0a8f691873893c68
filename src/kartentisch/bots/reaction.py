"""Reaction-time bots for Slapjack and Irish Snap.

A bot sees what every player sees (the card on top, the call, the counts)
and answers with a :class:`Reaction`: slap after a sampled, human-like
reaction time, or do nothing. Each level is a person of a given speed: its
reaction times are ex-Gaussian (a normal body and an exponential tail, the
usual shape of human reaction times), plus the delay of a computer's screen
and input; it also slaps falsely now and then, sometimes misses a card and
(Slapjack with the call) sometimes forgets to call. The default level,
``club``, reacts like the median person (docs/bots.md gives the figures and
their sources). Everything is drawn from an injected :class:`random.Random`,
so a game between bots replays.

>>> from kartentisch.games.slapjack.engine import SlapjackGame
>>> game = SlapjackGame.from_tops(["JS", "2C"], dealer=1)
>>> _ = game.apply(game.parse_action("0 s0 turn"))
>>> bot = ReactionBot("expert", seed=3)
>>> reaction = bot.react(game.observation(1))
>>> reaction.type, 150 <= reaction.delay_ms <= 2500
('slap', True)
>>> ReactionBot("normal").level  # the old level names still work
'club'
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

__all__ = [
    "ALIASES",
    "DEFAULT_LEVEL",
    "LEVELS",
    "MEDIAN_HUMAN",
    "PROFILES",
    "Reaction",
    "ReactionBot",
    "ReactionProfile",
    "canonical_level",
    "sample_reaction_ms",
]

#: The median person's mean time to recognise a target and press (ms): Laming
#: (1968), recognition (go/no-go) reaction time of students. Simple reaction
#: time in the same data: 220 ms.
MEDIAN_RECOGNITION_MS: Final = 384
#: What a computer adds between the card on the screen and the press reaching
#: the page (display and input): Woods et al. (2015) measured 18 ms for their
#: calibrated PC (231 ms measured, 213 ms corrected).
DEVICE_LAG_MS: Final = 20


@dataclass(frozen=True, slots=True)
class ReactionProfile:
    """How a level plays: reaction times and error rates.

    A reaction time is ``mu + sigma * N(0, 1) + Exp(tau)`` plus ``lag_ms``,
    kept within ``min_ms`` … ``max_ms``; its mean is ``mu + tau + lag_ms``.
    """

    #: Ex-Gaussian parameters of the recognition time (ms).
    mu_ms: float
    sigma_ms: float
    tau_ms: float
    #: Chance to slap a card that should not be slapped (doubled for near misses).
    false_rate: float
    #: Chance not to slap a card that should be slapped.
    miss_rate: float
    #: Slapjack with the call: chance to forget "Slapjack!".
    forget_call_rate: float
    #: Mean time to turn one's own card.
    turn_mean_ms: int
    #: The screen and input delay of the player's computer.
    lag_ms: int = DEVICE_LAG_MS
    min_ms: int = 150
    max_ms: int = 2500

    @property
    def mean_ms(self) -> float:
        """The mean reaction time (before the bounds, which almost never bite)."""
        return self.mu_ms + self.tau_ms + self.lag_ms


def _level(
    scale: float, false_rate: float, miss_rate: float, forget: float, turn: int
) -> ReactionProfile:
    """A level whose recognition time is the median person's times ``scale``.

    The whole distribution scales: slower people are also more variable
    (Der & Deary 2006: the variability of choice reaction time follows its mean).
    """
    mu, sigma, tau = 304.0, 35.0, 80.0  # mu + tau = MEDIAN_RECOGNITION_MS
    return ReactionProfile(
        mu * scale, sigma * scale, tau * scale, false_rate, miss_rate, forget, turn
    )


#: The levels, slowest first. ``club`` (the default) is the median person.
PROFILES: Final = {
    "beginner": _level(1.45, 0.030, 0.05, 0.10, 900),
    "casual": _level(1.20, 0.020, 0.03, 0.06, 800),
    "club": _level(1.00, 0.012, 0.02, 0.04, 700),
    "fast": _level(0.85, 0.008, 0.01, 0.02, 600),
    "expert": _level(0.75, 0.005, 0.005, 0.01, 550),
}
LEVELS: Final = tuple(PROFILES)
DEFAULT_LEVEL: Final = "club"
#: The level names of earlier versions, still found in stored tables and records.
ALIASES: Final = {"easy": "beginner", "normal": "club", "hard": "expert"}
#: The median person, as the fair-share simulation scripts them.
MEDIAN_HUMAN: Final = PROFILES[DEFAULT_LEVEL]


def canonical_level(level: str) -> str:
    """The level a name stands for (an old name is an alias); refuses unknown names.

    >>> canonical_level("hard"), canonical_level("fast")
    ('expert', 'fast')
    """
    level = ALIASES.get(level, level)
    if level not in PROFILES:
        known = ", ".join([*PROFILES, *ALIASES])
        raise KartentischError(f"unknown bot level {level!r}: choose one of {known}")
    return level


def sample_reaction_ms(profile: ReactionProfile, rng: random.Random) -> int:
    """One reaction time of ``profile`` in whole ms, drawn from ``rng`` (two draws)."""
    value = rng.gauss(profile.mu_ms, profile.sigma_ms) + rng.expovariate(1.0 / profile.tau_ms)
    return int(min(profile.max_ms, max(profile.min_ms, round(value + profile.lag_ms))))


@dataclass(frozen=True, slots=True)
class Reaction:
    """Act ``delay_ms`` after seeing the card: ``slap`` (with ``call``) or ``turn``."""

    delay_ms: int
    type: str = "slap"
    call: bool = False


class ReactionBot:
    """A player with human-like reactions, seeded."""

    def __init__(self, level: str = DEFAULT_LEVEL, seed: int | random.Random | None = None) -> None:
        level = canonical_level(level)
        self.name = level
        self.level = level
        self.profile = PROFILES[level]
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def reaction_time(self) -> int:
        """A sampled reaction time in ms."""
        return sample_reaction_ms(self.profile, self.rng)

    def turn_delay(self) -> int:
        """How long the bot takes to turn its card when it is its turn (lognormal)."""
        p = self.profile
        sigma = 0.25
        value = self.rng.lognormvariate(math.log(p.turn_mean_ms) - sigma**2 / 2, sigma)
        return int(min(p.max_ms, max(p.min_ms, round(value))))

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
