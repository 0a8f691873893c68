"""Helpers for deals built from one chosen hand and a seeded rest of the deck."""

from __future__ import annotations

import random
from collections.abc import Sequence

from kartentisch.cards import Card, parse_cards
from kartentisch.games.doppelkopf import Call, DoppelkopfDeal, DoppelkopfOptions, parse_action


def hands_with(
    fixed: dict[int, str],
    *,
    options: DoppelkopfOptions | None = None,
    seed: int = 0,
    dealer: int = 3,
) -> list[list[Card]]:
    """Hands by seat: the ``fixed`` seats hold the given cards, the rest is dealt from a seed."""
    options = options or DoppelkopfOptions()
    deck = list(options.deck())
    hands: list[list[Card]] = [[] for _ in range(options.players)]
    for seat, text in fixed.items():
        for card in parse_cards(text):
            deck.remove(card)
            hands[seat].append(card)
    random.Random(seed).shuffle(deck)
    n = options.players
    for seat in range(n):
        if n == 5 and seat == dealer:
            continue
        need = options.hand_size - len(hands[seat])
        hands[seat].extend(deck[:need])
        del deck[:need]
    assert not deck
    return hands


def declare(deal: DoppelkopfDeal, calls: dict[int, str]) -> None:
    """Each seat asked says its call from ``calls`` (once) or ``pass``."""
    said: set[int] = set()
    while deal.phase == "declare":
        seat = deal.to_move
        assert seat is not None
        if seat in calls and seat not in said:
            legal = deal.legal_actions()
            action = parse_action(calls[seat])
            if action in legal or not isinstance(action, Call) or action.word != "pass":
                try:
                    deal.check(action)
                except Exception:
                    deal.apply(Call("pass"))
                    continue
                said.add(seat)
                deal.apply(action)
                continue
        deal.apply(Call("pass"))


def greedy(deal: DoppelkopfDeal, *, low: Sequence[int] = ()) -> None:
    """Play out: each seat plays its strongest legal card (the ``low`` seats their weakest)."""
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        cards = deal.following_actions() or [a for a in deal.legal_actions() if isinstance(a, Card)]
        power = deal.order.power
        pick = (
            min(cards, key=lambda c: (power[c], c))
            if seat in low
            else max(cards, key=lambda c: (power[c], -c))
        )
        deal.apply(pick)
