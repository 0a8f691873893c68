"""How likely a sampled Slobberhannes deal makes the plays the other seats made.

The sampler (:mod:`kartentisch.search.determinize`) keeps what the cards
force: sizes and voids. The plays say more: a player who held the Q♣ and
was void in the suit led would usually have thrown it away, a player who
ducked under a card he could have beaten kept his high ones for a reason.
:class:`PlayModel` scores a sampled deal by the likelihood of every card the
other seats chose (not the forced ones) under a *soft* version of the
heuristic bot's policy (:mod:`kartentisch.bots.slobberhannes`): a card the
heuristic would score ``s`` above its favourite is chosen with probability
proportional to ``exp(-s / temperature)``, mixed with a uniform choice
(``epsilon``) so that a player who plays otherwise never rules a deal out.

Each past decision of another seat is rebuilt from what that seat saw then
(the public tricks up to it and its hand then: its sampled hand plus the
cards it has played since), so the model uses nothing the observing seat
has not seen. The log-likelihood of a decision depends only on that seat's
hand then, so it is cached per decision and hand within one observation.
The heuristic's score is recomputed here from the public part of each past
decision, prepared once (the bot itself rebuilds it for every card); the
tests check the two agree.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

from kartentisch.cards import CARDS, Card, Rank, Suit
from kartentisch.games.slobberhannes.deal import (
    QUEEN_OF_CLUBS,
    SlobberhannesObservation,
    sort_hand,
)
from kartentisch.tricks import PlayedTrick

__all__ = ["Decision", "PlayModel", "weighted_draws"]


_SUIT: Final = {card: int(card.suit) for card in CARDS}
_RANK: Final = {card: int(card.rank) for card in CARDS}
_QC: Final = QUEEN_OF_CLUBS
_AC: Final = Card("AC")
_KC: Final = Card("KC")
_CLUBS: Final = int(Suit.CLUBS)
_QUEEN: Final = int(Rank.QUEEN)


class Decision:
    """One past choice of another seat: what it saw then, ready to score any hand.

    :meth:`score` is the heuristic bot's score (``_Reckoner.score`` in
    :mod:`kartentisch.bots.slobberhannes`) for the seat's hand then, computed
    from the public part prepared here; the tests check it equals the bot's.
    """

    __slots__ = (
        "best_rank",
        "card",
        "first",
        "followers",
        "last",
        "later",
        "led",
        "live",
        "out_ranks",
        "qc_in_trick",
        "qc_played",
        "remaining",
        "seat",
        "share",
        "trick",
        "void_followers",
    )

    def __init__(
        self,
        obs: SlobberhannesObservation,
        seat: int,
        card: Card,
        later: tuple[Card, ...],
        tricks: tuple[PlayedTrick, ...],
        trick: PlayedTrick,
    ) -> None:
        self.seat = seat
        self.card = card
        #: The cards this seat played from this decision on (its hand then = hand now + these).
        self.later = later
        self.trick = trick
        n = obs.players
        played: set[Card] = set(trick.cards)
        voids: dict[int, set[int]] = {s: set() for s in range(n)}
        for t in (*tricks, trick):
            played.update(t.cards)
            if t.cards:
                led = _SUIT[t.cards[0]]
                for s, c in zip(t.seats, t.cards, strict=True):
                    if _SUIT[c] != led:
                        voids[s].add(led)
        trick_no = len(tricks) + 1
        self.first = float(trick_no == 1)
        self.last = trick_no == obs.tricks_per_deal
        self.remaining = obs.tricks_per_deal - trick_no
        self.followers = [(seat + i) % n for i in range(1, n - len(trick.cards))]
        self.led = _SUIT[trick.cards[0]] if trick.cards else -1
        self.best_rank = (
            max(_RANK[c] for c in trick.cards if _SUIT[c] == self.led) if trick.cards else -1
        )
        #: Ranks of the cards not yet played, by suit (the seat's own included).
        self.out_ranks: list[list[int]] = [[] for _ in range(4)]
        for c in obs.options.deck():
            if c not in played:
                self.out_ranks[_SUIT[c]].append(_RANK[c])
        self.qc_played = _QC in played
        self.qc_in_trick = _QC in trick.cards
        self.live = [sum(1 for f in self.followers if suit not in voids[f]) for suit in range(4)]
        self.void_followers = [
            sum(1 for f in self.followers if suit in voids[f]) for suit in range(4)
        ]
        self.share = [live / max(1, n - 1) for live in self.live]

    def score(self, card: Card, held: Sequence[Card]) -> float:
        """The heuristic bot's score of ``card`` for a seat holding ``held`` (lower is better)."""
        suit, rank = _SUIT[card], _RANK[card]
        led = self.led if self.led >= 0 else suit
        # _Reckoner._p_win
        if suit != led or (self.led >= 0 and rank < self.best_rank):
            p_win = 0.0
        elif not self.live[led]:
            p_win = 1.0
        else:
            higher = sum(1 for r in self.out_ranks[led] if r > rank) - sum(
                1 for c in held if _SUIT[c] == led and _RANK[c] > rank
            )
            if higher == 0:
                p_win = 1.0
            else:
                share = self.share[led]
                p_win = float((1.0 - share) ** higher * 0.85 + 0.15 * 0.5**higher)
        # _Reckoner._trick_cost
        qc_out = not self.qc_played and _QC not in held
        cost = self.first + float(self.last)
        if self.qc_in_trick or card == _QC:
            cost += 1.0
        elif qc_out and self.followers:
            if led == _CLUBS:
                cost += 0.8 if rank > _QUEEN else 0.05
            else:
                cost += 0.25 * self.void_followers[led] + 0.1
        risk = p_win * cost
        future = 0.0
        low_clubs = sum(1 for c in held if _SUIT[c] == _CLUBS and _RANK[c] < _QUEEN)
        if suit != led:
            if card == _QC:
                future -= 2.0
            elif card in (_AC, _KC) and qc_out:
                future -= 0.8 if low_clubs < 3 else 0.3
            future -= 0.04 * rank
        elif p_win < 0.5 and not self.last:
            future -= 0.03 * rank
        else:
            future -= 0.02 * rank
        if card == _QC and suit == led and low_clubs >= 2 and p_win == 0.0:
            future -= 1.0
        if self.remaining <= 2 and suit == led:
            # The bot takes the first lowest card of the set of its hand, as it does.
            lowest = min(set(sort_hand(held)), key=lambda c: c.rank)
            if card == lowest and not self.last:
                future += 0.3
        return risk + future


class PlayModel:
    """Log-likelihood of the other seats' plays for hands sampled from ``obs``."""

    def __init__(
        self,
        obs: SlobberhannesObservation,
        *,
        temperature: float = 0.05,
        epsilon: float = 0.1,
    ) -> None:
        if temperature <= 0 or not 0 < epsilon <= 1:
            raise ValueError("temperature must be > 0 and epsilon in (0, 1]")
        self.obs = obs
        self.temperature = temperature
        self.epsilon = epsilon
        self._cache: dict[tuple[int, int], float] = {}
        plays: list[tuple[int, Card, tuple[PlayedTrick, ...], PlayedTrick]] = []
        done: list[PlayedTrick] = []
        for trick in (*obs.tricks, obs.trick):
            for k, (seat, card) in enumerate(zip(trick.seats, trick.cards, strict=True)):
                partial = PlayedTrick(trick.leader, trick.seats[:k], trick.cards[:k], None)
                plays.append((seat, card, tuple(done), partial))
            if trick.winner is not None:
                done.append(trick)
        decisions: list[Decision] = []
        for index, (seat, card, tricks, trick) in enumerate(plays):
            if seat == obs.seat:
                continue
            later = tuple(c for s, c, _, _ in plays[index:] if s == seat)
            decisions.append(Decision(obs, seat, card, later, tricks, trick))
        self.decisions = tuple(decisions)
        self._later_masks = tuple(_mask(d.later) for d in self.decisions)

    def log_weight(self, hands: Sequence[Sequence[Card]]) -> float:
        """Sum over the other seats' choices of the log-probability of the card played."""
        total = 0.0
        masks = [_mask(hand) for hand in hands]
        cache = self._cache
        for index, decision in enumerate(self.decisions):
            key = (index, masks[decision.seat] | self._later_masks[index])
            value = cache.get(key)
            if value is None:
                value = self.decision_log_p(decision, (*hands[decision.seat], *decision.later))
                cache[key] = value
            total += value
        return total

    def decision_log_p(self, decision: Decision, held: Sequence[Card]) -> float:
        """Log-probability that a seat holding ``held`` then chose the card it played."""
        led = decision.led
        following = [c for c in held if led < 0 or _SUIT[c] == led] or list(held)
        if decision.card not in following:
            return math.log(self.epsilon / max(1, len(held)))  # a revoke: no model for it
        if len(following) == 1:
            return 0.0
        scores = [decision.score(card, held) for card in following]
        low = min(scores)
        exps = [math.exp(-(s - low) / self.temperature) for s in scores]
        p = (1.0 - self.epsilon) * exps[following.index(decision.card)] / sum(exps)
        p += self.epsilon / len(following)
        return math.log(p)


def _mask(cards: Sequence[Card]) -> int:
    out = 0
    for card in cards:
        out |= 1 << card
    return out


def weighted_draws(log_weights: Sequence[float], k: int, rng: random.Random) -> list[int]:
    """``k`` indices drawn with replacement, each with probability ∝ ``exp(log weight)``."""
    top = max(log_weights)
    weights = [math.exp(w - top) for w in log_weights]
    return rng.choices(range(len(weights)), weights=weights, k=k)
