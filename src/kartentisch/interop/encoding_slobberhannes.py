"""Slobberhannes: action ids, the observation layout and encoder, the table.

**Action ids**: 32, one per card of the 32-card piquet deck in
:data:`SLOBBERHANNES_CARDS` order (♣ ♠ ♥ ♦, each A K Q J 10 9 8 7: id 0 is A♣,
id 2 is Q♣, id 31 is 7♦). With 3, 5, 6 or 7 players the cards taken out of the
deck are simply never legal.

**Scores** (:meth:`SlobberhannesTable.scores`): *minus* the penalty chips paid
(a chip is a point against), so that higher is better.

**Observations**: :func:`encode_slobberhannes` lays a seat's observation out as
:func:`slobberhannes_layout` describes, seats relative to the observing seat.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar, Final

from kartentisch.cards import Card, piquet_deck
from kartentisch.games.slobberhannes import (
    SlobberhannesDeal,
    SlobberhannesObservation,
    SlobberhannesOptions,
)
from kartentisch.interop.encoding_common import Block, FloatArray, Layout, Table

__all__ = [
    "SLOBBERHANNES_ACTIONS",
    "SLOBBERHANNES_CARDS",
    "SlobberhannesTable",
    "encode_slobberhannes",
    "slobberhannes_action_name",
    "slobberhannes_layout",
]

#: Slobberhannes action ids: the 32-card deck, ♣ ♠ ♥ ♦ and A K Q J 10 9 8 7 in each.
SLOBBERHANNES_CARDS: Final[tuple[Card, ...]] = tuple(piquet_deck())
_SLOB_ID: Final[Mapping[Card, int]] = {c: i for i, c in enumerate(SLOBBERHANNES_CARDS)}
SLOBBERHANNES_ACTIONS: Final = len(SLOBBERHANNES_CARDS)


def slobberhannes_action_name(action: int) -> str:
    """The card of Slobberhannes action id ``action`` (``QC``)."""
    return str(SLOBBERHANNES_CARDS[action])


@cache
def slobberhannes_layout(players: int, hand_size: int) -> Layout:
    """The observation layout of a Slobberhannes table of ``players`` (``n``).

    >>> slobberhannes_layout(4, 8).size
    313
    """
    n = players
    cards = SLOBBERHANNES_ACTIONS
    return Layout(
        [
            Block("hand", (cards,), 1, "own cards, by card id", private=True),
            Block(
                "trick",
                (n, cards),
                1,
                "the current trick: row r, the card seat r played",
                seats=True,
            ),
            Block("played", (n, cards), 1, "cards seat r played in completed tricks", seats=True),
            Block("leader", (n,), 1, "the seat that led the current trick", seats=True),
            Block("to_move", (n,), 1, "the seat to move (all 0 once the deal is over)", seats=True),
            Block("dealer", (n,), 1, "the dealer", seats=True),
            Block(
                "penalties", (n,), 4 + hand_size, "penalty chips each seat paid so far", seats=True
            ),
            Block("tricks_done", (hand_size + 1,), 1, "one-hot: tricks completed (0 … all)"),
        ]
    )


def encode_slobberhannes(obs: SlobberhannesObservation) -> FloatArray:
    """The observation vector of one Slobberhannes seat (see :func:`slobberhannes_layout`)."""
    n = obs.players
    layout = slobberhannes_layout(n, obs.tricks_per_deal)
    out = layout.zeros()
    v = layout.views(out)
    me = obs.seat
    for card in obs.hand:
        v["hand"][_SLOB_ID[card]] = 1
    for seat, card in zip(obs.trick.seats, obs.trick.cards, strict=True):
        v["trick"][(seat - me) % n, _SLOB_ID[card]] = 1
    for trick in obs.tricks:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            v["played"][(seat - me) % n, _SLOB_ID[card]] = 1
    if obs.to_move is not None:
        v["leader"][(obs.trick.leader - me) % n] = 1
        v["to_move"][(obs.to_move - me) % n] = 1
    v["dealer"][(obs.dealer - me) % n] = 1
    for seat, chips in enumerate(obs.penalties):
        v["penalties"][(seat - me) % n] = chips
    v["tricks_done"][len(obs.tricks)] = 1
    return out


class SlobberhannesTable(Table):
    """A Slobberhannes deal over the 32 card ids; scores are minus the chips paid."""

    game: ClassVar[str] = "slobberhannes"
    num_actions: ClassVar[int] = SLOBBERHANNES_ACTIONS
    deal: SlobberhannesDeal

    def __init__(self, deal: SlobberhannesDeal) -> None:
        super().__init__()
        self.deal = deal
        if deal.actions:  # a deal already under way: take over its actions
            self.history = _slobberhannes_seats(deal)

    @classmethod
    def from_seed(
        cls,
        seed: int | random.Random,
        *,
        dealer: int,
        options: SlobberhannesOptions | Mapping[str, Any] | None = None,
    ) -> SlobberhannesTable:
        return cls(SlobberhannesDeal.from_seed(seed, dealer=dealer, options=options))

    @property
    def num_seats(self) -> int:
        return self.deal.num_seats

    @property
    def to_move(self) -> int | None:
        return self.deal.to_move

    @property
    def layout(self) -> Layout:
        options = self.deal.options
        return slobberhannes_layout(options.players, options.hand_size)

    def legal_ids(self) -> list[int]:
        return sorted(_SLOB_ID[c] for c in self.deal.legal_actions())

    def apply_id(self, action: int) -> None:
        seat = self.deal.to_move
        if seat is None or not 0 <= action < SLOBBERHANNES_ACTIONS:
            raise self._refuse(action)
        card = SLOBBERHANNES_CARDS[action]
        # The legal cards are cached by the deal (and what ``can`` would accept).
        if card not in self.deal.legal_actions():
            raise self._refuse(action)
        self.deal.apply(card)
        self.history.append((seat, action))

    def action_name(self, action: int) -> str:
        return slobberhannes_action_name(action)

    def scores(self) -> tuple[float, ...]:
        return tuple(-float(p) for p in self.deal.points())

    def observation(self, seat: int) -> SlobberhannesObservation:
        return self.deal.observation(seat)

    def encode(self, seat: int) -> FloatArray:
        return encode_slobberhannes(self.deal.observation(seat))

    def copy(self) -> SlobberhannesTable:
        new = SlobberhannesTable.__new__(SlobberhannesTable)
        new.deal = self.deal.copy()
        new.history = list(self.history)
        return new


def _slobberhannes_seats(deal: SlobberhannesDeal) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for trick in (*deal.tricks, deal.observation(0).trick):
        out.extend((s, _SLOB_ID[c]) for s, c in zip(trick.seats, trick.cards, strict=True))
    return out
