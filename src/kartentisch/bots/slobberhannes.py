"""A heuristic Slobberhannes bot built on the seeds' beginner tips.

Seeds 000/001 § Tips for beginners and seed 004: play low to the first
trick; get rid of A♣ and K♣ early unless enough low clubs protect them; keep
Q♣ covered by low clubs and throw it away on the first void; keep a low card
for the last trick. Each legal card is scored by the penalty it risks now
(probability of winning the trick times what the trick costs) minus what
playing it does for the rest of the deal; the lowest score is played.
"""

from __future__ import annotations

import random
from typing import Final

from kartentisch.cards import Card, Rank, Suit
from kartentisch.games.slobberhannes.deal import QUEEN_OF_CLUBS, SlobberhannesObservation

__all__ = ["HeuristicSlobberhannesBot"]

ACE_OF_CLUBS: Final = Card("AC")
KING_OF_CLUBS: Final = Card("KC")


class HeuristicSlobberhannesBot:
    """Avoids the first trick, the Q♣ trick and the last trick by simple reckoning."""

    name = "heuristic"

    def __init__(self, seed: int | random.Random | None = None) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def choose(self, observation: SlobberhannesObservation) -> Card:
        legal = observation.legal_actions
        if not legal:
            raise ValueError("the bot was asked to act with no legal action")
        # With revokes allowed at a price, never revoke: it costs a chip for sure.
        led = observation.trick.cards[0].suit if observation.trick.cards else None
        following = [c for c in legal if led is None or c.suit == led]
        candidates = following or list(legal)
        reckoner = _Reckoner(observation)
        scored = [(reckoner.score(card), self.rng.random(), card) for card in candidates]
        return min(scored)[2]


class _Reckoner:
    def __init__(self, obs: SlobberhannesObservation) -> None:
        self.obs = obs
        self.hand = set(obs.hand)
        played: set[Card] = set(obs.trick.cards)
        self.voids: dict[int, set[Suit]] = {s: set() for s in range(obs.players)}
        for trick in (*obs.tricks, obs.trick):
            played.update(trick.cards)
            if trick.cards:
                led = trick.cards[0].suit
                for seat, card in zip(trick.seats, trick.cards, strict=True):
                    if card.suit != led:
                        self.voids[seat].add(led)
        self.unseen = set(obs.options.deck()) - played - self.hand
        self.trick_no = len(obs.tricks) + 1
        self.first = self.trick_no == 1
        self.last = self.trick_no == obs.tricks_per_deal
        self.position = len(obs.trick.cards)
        self.followers = [
            (obs.seat + i) % obs.players for i in range(1, obs.players - self.position)
        ]
        self.qc_out = QUEEN_OF_CLUBS in self.unseen

    def _p_win(self, card: Card, led: Suit) -> float:
        """Rough chance that ``card`` ends up winning the trick."""
        trick = self.obs.trick
        if card.suit != led:
            return 0.0
        if trick.cards:
            best = max((c for c in trick.cards if c.suit == led), key=lambda c: c.rank)
            if card.rank < best.rank:
                return 0.0
        live = [s for s in self.followers if led not in self.voids[s]]
        if not live:
            return 1.0
        higher = sum(1 for c in self.unseen if c.suit == led and c.rank > card.rank)
        if higher == 0:
            return 1.0
        # Each higher card out there is likely to be in a following hand.
        share = len(live) / max(1, self.obs.players - 1)
        return float((1.0 - share) ** higher * 0.85 + 0.15 * 0.5**higher)

    def _trick_cost(self, card: Card, led: Suit) -> float:
        cost = float(self.first) + float(self.last)
        if QUEEN_OF_CLUBS in self.obs.trick.cards or card == QUEEN_OF_CLUBS:
            cost += 1.0
        elif self.qc_out and self.followers:
            if led == Suit.CLUBS:
                # The Q♣ holder must follow and happily drops it under A♣/K♣.
                cost += 0.8 if card.rank > Rank.QUEEN else 0.05
            else:
                cost += 0.25 * sum(1 for s in self.followers if led in self.voids[s]) + 0.1
        return cost

    def score(self, card: Card) -> float:
        trick = self.obs.trick
        led = trick.cards[0].suit if trick.cards else card.suit
        p_win = self._p_win(card, led)
        risk = p_win * self._trick_cost(card, led)
        # What playing the card does for the rest of the deal.
        future = 0.0
        low_clubs = sum(1 for c in self.hand if c.suit == Suit.CLUBS and c.rank < Rank.QUEEN)
        if card.suit != led:
            if card == QUEEN_OF_CLUBS:
                future -= 2.0
            elif card in (ACE_OF_CLUBS, KING_OF_CLUBS) and self.qc_out:
                future -= 0.8 if low_clubs < 3 else 0.3
            future -= 0.04 * card.rank  # discard high cards
        elif p_win < 0.5 and not self.last:
            # A safe trick: shed a high card; keep low ones for the end.
            future -= 0.03 * card.rank
            if card in (ACE_OF_CLUBS, KING_OF_CLUBS) and self.qc_out and card.suit != led:
                future -= 0.5
        else:
            future -= 0.02 * card.rank
        if card == QUEEN_OF_CLUBS and card.suit == led and low_clubs >= 2 and p_win == 0.0:
            future -= 1.0  # covered queen dropped under a higher club
        remaining = self.obs.tricks_per_deal - self.trick_no
        if remaining <= 2 and card.suit == led:
            # Keep the lowest card for the last trick.
            lowest = min(self.hand, key=lambda c: c.rank)
            if card == lowest and not self.last:
                future += 0.3
        return risk + future
