"""Values of the mover's cards when the rest of the current trick is the heuristic's.

The plain PIMC bot solves each sampled deal by max^n: every seat knows every
hand. :class:`TrickModel` keeps that for the tricks to come but lets the
seats after the mover in the *current* trick play the card the heuristic bot
would (:mod:`kartentisch.bots.slobberhannes`, scored from what that seat
would see, with its sampled hand): who takes the trick, and whether the Q♣
is thrown onto it, is then what a player who cannot see the cards does. The
position at the start of the next trick is solved exactly.
"""

from __future__ import annotations

from kartentisch.cards import Card
from kartentisch.games.slobberhannes.deal import QUEEN_OF_CLUBS, SlobberhannesObservation
from kartentisch.search.slobberhannes_inference import Decision
from kartentisch.search.slobberhannes_solver import Position, solve, solve_moves_counted
from kartentisch.tricks import PlayedTrick

__all__ = ["TrickModel"]


class TrickModel:
    """Solves sampled positions of one observation with heuristic players in its trick."""

    def __init__(self, obs: SlobberhannesObservation) -> None:
        self.obs = obs
        self._views: dict[tuple[Card, ...], Decision] = {}

    def _view(self, seats: tuple[int, ...], cards: tuple[Card, ...], seat: int) -> Decision:
        view = self._views.get(cards)
        if view is None:
            trick = PlayedTrick(seats[0], seats, cards, None)
            view = Decision(self.obs, seat, cards[-1], (), self.obs.tricks, trick)
            self._views[cards] = view
        return view

    def values(self, position: Position) -> tuple[dict[Card, int], int]:
        """The mover's further penalties for each following card, and positions searched."""
        seat = position.to_move
        n = len(position.hands)
        if len(position.trick) + 1 == n:
            moves, nodes = solve_moves_counted(position)
            return {card: value[seat] for card, value in moves.items()}, nodes
        out: dict[Card, int] = {}
        nodes = 0
        for card in position.following():
            hands = [list(h) for h in position.hands]
            hands[seat].remove(card)
            seats = (*(s for s, _ in position.trick), seat)
            cards = (*(c for _, c in position.trick), card)
            mover = seat
            while len(cards) < n:
                mover = (mover + 1) % n
                held = hands[mover]
                led = cards[0].suit
                following = [c for c in held if c.suit == led] or held
                if len(following) == 1:
                    pick = following[0]
                else:
                    view = self._view(seats, cards, mover)
                    pick = min(following, key=lambda c: (view.score(c, held), c))
                held.remove(pick)
                seats = (*seats, mover)
                cards = (*cards, pick)
            led = cards[0].suit
            winner = max((i for i in range(n) if cards[i].suit == led), key=lambda i: cards[i].rank)
            taker = seats[winner]
            first, queen = position.first_taker, position.queen_taker
            paid = 0
            if position.trick_no == 1:
                first = taker
                paid += 1
            if QUEEN_OF_CLUBS in cards:
                queen = taker
                paid += 1
            own = paid if taker == seat else 0
            if position.trick_no == position.tricks:
                last = 1 + int(position.bonus and first == taker and queen == taker)
                out[card] = own + (last if taker == seat else 0)
                continue
            rest = Position(
                hands=tuple(tuple(h) for h in hands),
                to_move=taker,
                trick=(),
                trick_no=position.trick_no + 1,
                tricks=position.tricks,
                first_taker=first,
                queen_taker=queen,
                bonus=position.bonus,
            )
            result = solve(rest)
            nodes += result.nodes
            out[card] = own + result.values[seat]
        return out, nodes
