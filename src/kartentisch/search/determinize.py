"""Deals consistent with what one Slobberhannes seat has seen.

A seat knows its own hand, every card played and who played it, and so
which seats have shown a void (did not follow a suit led). A sample deals
the unseen cards to the other seats so that every hand has its size and no
seat gets a card of a suit it has shown void in.
"""

from __future__ import annotations

import random

from kartentisch.cards import Card, Suit
from kartentisch.games.slobberhannes.deal import QUEEN_OF_CLUBS, SlobberhannesObservation
from kartentisch.search.slobberhannes_solver import Position

__all__ = ["InfoSet", "sample_position"]


class InfoSet:
    """What one seat knows, prepared once per decision for many samples."""

    def __init__(self, obs: SlobberhannesObservation) -> None:
        self.obs = obs
        played: set[Card] = set()
        self.voids: dict[int, set[Suit]] = {s: set() for s in range(obs.players)}
        self.first_taker = -1
        self.queen_taker = -1
        for number, trick in enumerate((*obs.tricks, obs.trick), start=1):
            played.update(trick.cards)
            if trick.cards:
                led = trick.cards[0].suit
                for seat, card in zip(trick.seats, trick.cards, strict=True):
                    if card.suit != led:
                        self.voids[seat].add(led)
            if trick.winner is not None:
                if number == 1:
                    self.first_taker = trick.winner
                if QUEEN_OF_CLUBS in trick.cards:
                    self.queen_taker = trick.winner
        self.unseen = sorted(set(obs.options.deck()) - played - set(obs.hand))
        self.others = [s for s in range(obs.players) if s != obs.seat]
        # Most constrained cards first: those fewest seats may hold.
        self.allowed = {
            card: [s for s in self.others if card.suit not in self.voids[s]] for card in self.unseen
        }

    def sample_hands(self, rng: random.Random) -> tuple[tuple[Card, ...], ...]:
        """One random deal of the unseen cards that respects sizes and voids."""
        obs = self.obs
        for _ in range(200):
            room = {s: obs.hand_sizes[s] for s in self.others}
            hands: dict[int, list[Card]] = {s: [] for s in self.others}
            cards = list(self.unseen)
            rng.shuffle(cards)
            cards.sort(key=lambda c: len(self.allowed[c]))
            for card in cards:
                seats = [s for s in self.allowed[card] if room[s] > 0]
                if not seats:
                    break
                # Weight by free room so big hands take proportionally more.
                seat = rng.choices(seats, weights=[room[s] for s in seats])[0]
                hands[seat].append(card)
                room[seat] -= 1
            else:
                return tuple(
                    tuple(obs.hand) if s == obs.seat else tuple(hands[s])
                    for s in range(obs.players)
                )
        # Inconsistent history (e.g. a penalised revoke): ignore the voids.
        cards = list(self.unseen)
        rng.shuffle(cards)
        out: list[tuple[Card, ...]] = []
        for s in range(obs.players):
            if s == obs.seat:
                out.append(tuple(obs.hand))
            else:
                size = obs.hand_sizes[s]
                out.append(tuple(cards[:size]))
                cards = cards[size:]
        return tuple(out)

    def position(self, hands: tuple[tuple[Card, ...], ...]) -> Position:
        obs = self.obs
        return Position(
            hands=hands,
            to_move=obs.seat,
            trick=tuple(zip(obs.trick.seats, obs.trick.cards, strict=True)),
            trick_no=len(obs.tricks) + 1,
            tricks=obs.tricks_per_deal,
            first_taker=self.first_taker,
            queen_taker=self.queen_taker,
            bonus=obs.options.all_three_bonus,
        )


def sample_position(obs: SlobberhannesObservation, rng: random.Random) -> Position:
    """A full-information position drawn from ``obs``'s information set."""
    info = InfoSet(obs)
    return info.position(info.sample_hands(rng))
