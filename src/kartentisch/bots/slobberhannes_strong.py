"""The strong Slobberhannes bot: Perfect-Information Monte Carlo.

For each decision it draws deals consistent with everything the seat has
seen (its hand, the cards played, the voids shown), solves each one exactly
with the max^n solver (:mod:`kartentisch.search.slobberhannes_solver`), and
plays the card with the lowest mean penalty for itself over the samples.
Ties go to the card the heuristic bot prefers. The number of samples is
bounded by ``samples`` and by a time budget per decision.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from kartentisch.bots.slobberhannes import HeuristicSlobberhannesBot
from kartentisch.cards import Card
from kartentisch.games.slobberhannes.deal import SlobberhannesObservation
from kartentisch.search.determinize import InfoSet
from kartentisch.search.slobberhannes_solver import solve_moves

__all__ = ["StrongSlobberhannesBot"]


class StrongSlobberhannesBot:
    """PIMC over exactly solved samples; seeded, bounded in samples and time."""

    name = "strong"

    def __init__(
        self,
        seed: int | random.Random | None = None,
        *,
        samples: int = 60,
        min_samples: int = 6,
        time_budget: float = 0.5,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.samples = samples
        self.min_samples = min_samples
        self.time_budget = time_budget
        self.clock = clock
        self.fallback = HeuristicSlobberhannesBot(self.rng)

    def evaluate(self, observation: SlobberhannesObservation) -> dict[Card, float]:
        """Mean penalty for this seat of each following card, over the samples."""
        info = InfoSet(observation)
        seat = observation.seat
        totals: dict[Card, float] = {}
        count = 0
        deadline = self.clock() + self.time_budget
        while count < self.samples and (count < self.min_samples or self.clock() < deadline):
            position = info.position(info.sample_hands(self.rng))
            for card, values in solve_moves(position).items():
                totals[card] = totals.get(card, 0.0) + values[seat]
            count += 1
        return {card: total / count for card, total in totals.items()}

    def choose(self, observation: SlobberhannesObservation) -> Card:
        legal = observation.legal_actions
        if not legal:
            raise ValueError("the bot was asked to act with no legal action")
        led = observation.trick.cards[0].suit if observation.trick.cards else None
        following = [c for c in legal if led is None or c.suit == led] or list(legal)
        if len(following) == 1:
            return following[0]
        means = self.evaluate(observation)
        best = min(means.values())
        tied = [c for c in following if means.get(c, 99.0) <= best + 1e-9]
        if len(tied) == 1:
            return tied[0]
        preferred = self.fallback.choose(observation)
        return preferred if preferred in tied else tied[0]
