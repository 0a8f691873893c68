"""The strong Slobberhannes bot: Perfect-Information Monte Carlo.

For each decision it draws deals consistent with everything the seat has
seen (its hand, the cards played, the voids shown), solves each one exactly
with the max^n solver (:mod:`kartentisch.search.slobberhannes_solver`), and
plays the card with the lowest mean penalty for itself over the samples.
Ties go to the card the heuristic bot prefers.

The number of samples is bounded by ``samples`` and by a budget of searched
positions (``node_budget``), never by the clock: a seeded bot makes the same
choice from the same observation however busy the machine is, in any
process. At least ``min_samples`` are drawn.
"""

from __future__ import annotations

import random
from typing import Final

from kartentisch.bots.slobberhannes import HeuristicSlobberhannesBot
from kartentisch.cards import Card
from kartentisch.games.slobberhannes.deal import SlobberhannesObservation
from kartentisch.search.determinize import InfoSet
from kartentisch.search.slobberhannes_solver import solve_moves_counted

__all__ = ["NODE_BUDGET", "StrongSlobberhannesBot"]

#: Positions searched per decision before the bot stops drawing samples: about
#: half a second of the compiled solver (docs/performance.md); only the heaviest
#: early decisions reach it.
NODE_BUDGET: Final = 4_000_000


class StrongSlobberhannesBot:
    """PIMC over exactly solved samples; seeded, bounded in samples and searched positions."""

    name = "strong"

    def __init__(
        self,
        seed: int | random.Random | None = None,
        *,
        samples: int = 60,
        min_samples: int = 6,
        node_budget: int = NODE_BUDGET,
    ) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.samples = samples
        self.min_samples = min_samples
        self.node_budget = node_budget
        self.fallback = HeuristicSlobberhannesBot(self.rng)
        #: Samples drawn and positions searched for the last evaluation (for benchmarks).
        self.last_samples = 0
        self.last_nodes = 0

    def evaluate(self, observation: SlobberhannesObservation) -> dict[Card, float]:
        """Mean penalty for this seat of each following card, over the samples."""
        info = InfoSet(observation)
        seat = observation.seat
        totals: dict[Card, float] = {}
        count = nodes = 0
        while count < self.samples and (count < self.min_samples or nodes < self.node_budget):
            position = info.position(info.sample_hands(self.rng))
            values, searched = solve_moves_counted(position)
            for card, value in values.items():
                totals[card] = totals.get(card, 0.0) + value[seat]
            nodes += searched
            count += 1
        self.last_samples = count
        self.last_nodes = nodes
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
