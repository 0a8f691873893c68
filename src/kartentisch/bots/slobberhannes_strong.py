"""The strong Slobberhannes bot: Perfect-Information Monte Carlo.

For each decision it draws deals consistent with everything the seat has
seen (its hand, the cards played, the voids shown), solves each one exactly
with the max^n solver (:mod:`kartentisch.search.slobberhannes_solver`), and
plays the card with the lowest mean penalty for itself over the samples.
Ties go to the card the heuristic bot prefers.

With ``inference`` (the default) the deals are not drawn uniformly: the bot
first draws ``candidates`` deals, weighs each by how likely it makes the
cards the other seats chose (:class:`~kartentisch.search.slobberhannes_inference.PlayModel`,
a softened heuristic policy), and solves deals drawn from those by weight.
``inference=False`` is the plain uniform sampler.

With ``heuristic_trick`` (the default) the seats after this one in the
current trick play, in each sample, the card the heuristic bot would
(:class:`~kartentisch.search.slobberhannes_trick_model.TrickModel`); the
position at the next trick is solved exactly. ``inference=False,
heuristic_trick=False`` is the bot before issue 17 (it draws and plays
exactly as that bot did).

The number of samples is bounded by ``samples`` and by a budget of searched
positions (``node_budget``), never by the clock: a seeded bot makes the same
choice from the same observation however busy the machine is, in any
process. At least ``min_samples`` are drawn.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Final

from kartentisch.bots.slobberhannes import HeuristicSlobberhannesBot
from kartentisch.cards import Card
from kartentisch.games.slobberhannes.deal import SlobberhannesObservation
from kartentisch.search.determinize import InfoSet
from kartentisch.search.slobberhannes_inference import PlayModel, weighted_draws
from kartentisch.search.slobberhannes_solver import solve_moves_counted
from kartentisch.search.slobberhannes_trick_model import TrickModel

__all__ = ["NODE_BUDGET", "StrongSlobberhannesBot"]

#: Positions searched per decision before the bot stops drawing samples: about
#: half a second of the compiled solver (docs/performance.md); only the heaviest
#: early decisions reach it.
NODE_BUDGET: Final = 4_000_000

#: The ``expert`` level's budget: more samples and four times the positions.
EXPERT_SAMPLES: Final = 200
EXPERT_MIN_SAMPLES: Final = 12
EXPERT_NODE_BUDGET: Final = 16_000_000

Hands = tuple[tuple[Card, ...], ...]


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
        inference: bool = True,
        candidates: int | None = None,
        temperature: float = 0.05,
        epsilon: float = 0.1,
        heuristic_trick: bool = True,
    ) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.samples = samples
        self.min_samples = min_samples
        self.node_budget = node_budget
        self.inference = inference
        #: Deals drawn and weighed for each decision before the solved ones are picked.
        self.candidates = candidates if candidates is not None else 4 * samples
        self.temperature = temperature
        self.epsilon = epsilon
        #: Let the seats after this one in the current trick play the heuristic's card.
        self.heuristic_trick = heuristic_trick
        self.fallback = HeuristicSlobberhannesBot(self.rng)
        #: Samples drawn and positions searched for the last evaluation (for benchmarks).
        self.last_samples = 0
        self.last_nodes = 0

    @classmethod
    def expert(cls, seed: int | random.Random | None = None) -> StrongSlobberhannesBot:
        """The ``expert`` level: the strong bot with a larger budget."""
        bot = cls(
            seed,
            samples=EXPERT_SAMPLES,
            min_samples=EXPERT_MIN_SAMPLES,
            node_budget=EXPERT_NODE_BUDGET,
        )
        bot.name = "expert"
        return bot

    def _draws(self, info: InfoSet, observation: SlobberhannesObservation) -> Iterator[Hands]:
        """The deals to solve, in order (a deal drawn twice comes twice).

        Uniform deals are drawn one at a time, as they are needed (the bot
        before inference drew exactly these).
        """
        model = None
        if self.inference:
            model = PlayModel(observation, temperature=self.temperature, epsilon=self.epsilon)
        if model is None or not model.decisions:
            for _ in range(self.samples):
                yield info.sample_hands(self.rng)
            return
        pool = [info.sample_hands(self.rng) for _ in range(max(self.candidates, self.samples))]
        weights = [model.log_weight(hands) for hands in pool]
        for i in weighted_draws(weights, self.samples, self.rng):
            yield pool[i]

    def evaluate(self, observation: SlobberhannesObservation) -> dict[Card, float]:
        """Mean penalty for this seat of each following card, over the samples."""
        info = InfoSet(observation)
        seat = observation.seat
        totals: dict[Card, float] = {}
        solved: dict[Hands, dict[Card, float]] = {}
        count = nodes = 0
        trick_model = TrickModel(observation) if self.heuristic_trick else None
        draws = self._draws(info, observation)
        while count < self.samples and (count < self.min_samples or nodes < self.node_budget):
            hands = next(draws, None)
            if hands is None:
                break
            values = solved.get(hands)
            if values is None and trick_model is not None:
                own, searched = trick_model.values(info.position(hands))
                values = {card: float(value) for card, value in own.items()}
                solved[hands] = values
                nodes += searched
            elif values is None:
                moves, searched = solve_moves_counted(info.position(hands))
                values = {card: float(value[seat]) for card, value in moves.items()}
                solved[hands] = values
                nodes += searched
            for card, value in values.items():
                totals[card] = totals.get(card, 0.0) + value
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
