"""An exact perfect-information solver for Slobberhannes.

The multi-player model is **max^n**: every player minimises their own
penalties, knowing all hands; a position's value is the vector of penalties
each seat still pays from there on. Among equally good moves a player takes
the first in a fixed order (the lowest card, ♣ ♠ ♥ ♦), so the solution is
unique and reproducible.

Speed comes from four things: hands are 32-bit masks (a suit is a block of
8 bits, 7 to A); penalty vectors are packed into one int (3 bits a seat) so
adding them is one addition; cards of one hand that are adjacent among the
cards still out in their suit are equivalent and only one is searched (the
Q♣ is never merged, it costs a chip); a transposition table keyed by the
hands at each trick boundary. A seat that can reach 0 further penalties
stops looking (nothing is better).

Revokes are never searched (with ``revokes: penalty`` a revoke is legal but
costs a chip; the solver assumes players follow suit).

>>> from kartentisch.games.slobberhannes.deal import SlobberhannesDeal
>>> deal = SlobberhannesDeal.from_seed(4, dealer=3)
>>> result = solve(deal)
>>> result.values, result.best
((0, 1, 0, 2), Card('JD'))
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import Final

from kartentisch.cards import CARDS, Card
from kartentisch.games.slobberhannes.deal import QUEEN_OF_CLUBS, SlobberhannesDeal

try:
    from kartentisch.search import _maxn

    _HAVE_MAXN = True
except ImportError:  # pragma: no cover - the extension is optional
    _HAVE_MAXN = False

__all__ = ["Position", "SolveResult", "compiled", "solve", "solve_moves", "solve_moves_counted"]


def _bit(card: Card) -> int:
    return 1 << (card.suit * 8 + card.rank - 7)


_BIT: Final = {card: _bit(card) for card in CARDS if card.rank >= 7}
_CARD_OF: Final = {bit: card for card, bit in _BIT.items()}
_QC: Final = _BIT[QUEEN_OF_CLUBS]
_SUIT_MASK: Final = (0xFF, 0xFF << 8, 0xFF << 16, 0xFF << 24)


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The max^n solution of a position.

    ``values`` are the penalties each seat still pays from this position on
    (``totals`` adds what was paid before); ``best`` is the move of the seat
    to move; ``nodes`` counts searched positions.
    """

    values: tuple[int, ...]
    totals: tuple[int, ...]
    best: Card | None
    nodes: int


class _Solver:
    __slots__ = ("bonus", "n", "nodes", "shift", "tricks", "tt")

    def __init__(self, players: int, tricks: int, bonus: bool) -> None:
        self.n = players
        self.tricks = tricks
        self.bonus = bonus
        self.shift = tuple(3 * p for p in range(players))
        self.tt: dict[tuple[int, ...], int] = {}
        self.nodes = 0

    @staticmethod
    def moves(hand: int, ledmask: int, remaining: int) -> list[int]:
        """One representative per run of equivalent cards, low to high.

        ``remaining`` holds every card still in a hand or in the current trick.
        """
        moves = (hand & ledmask or hand) if ledmask else hand
        others = remaining & ~hand
        out: list[int] = []
        last = 0
        while moves:
            b = moves & -moves
            moves ^= b
            if (
                last
                and b != _QC
                and last != _QC
                and (b.bit_length() - 1) >> 3 == (last.bit_length() - 1) >> 3
                and (b - 1) & ~((last << 1) - 1) & others == 0
            ):
                out[-1] = b
            else:
                out.append(b)
            last = b
        return out

    def trick(self, hands: list[int], leader: int, trick_no: int, first: int, queen: int) -> int:
        """The value of the position at the start of a trick."""
        remaining = 0
        for h in hands:
            remaining |= h
        if trick_no == self.tricks:
            return self._last_trick(hands, leader, first, queen)
        key = (*_normalise(hands, remaining), leader, first, queen)
        value = self.tt.get(key)
        if value is None:
            value = self.play(hands, trick_no, first, queen, 0, leader, 0, -1, 0, -1, remaining)
            self.tt[key] = value
        return value

    def _last_trick(self, hands: list[int], leader: int, first: int, queen: int) -> int:
        """One card each: nothing to choose, the highest of the suit led wins."""
        self.nodes += 1
        led = hands[leader]
        ledmask = _SUIT_MASK[(led.bit_length() - 1) >> 3]
        winner, best = leader, led
        allbits = 0
        for seat, card in enumerate(hands):
            allbits |= card
            if card & ledmask and card > best:
                winner, best = seat, card
        one = 1 << self.shift[winner]
        value = one
        if allbits & _QC:
            value += one
            queen = winner
        if self.bonus and first == winner and queen == winner:
            value += one
        return value

    def play(
        self,
        hands: list[int],
        trick_no: int,
        first: int,
        queen: int,
        pos: int,
        seat: int,
        ledmask: int,
        bestbit: int,
        trickbits: int,
        winner: int,
        remaining: int,
        only: int = 0,
    ) -> int:
        """The value when ``seat`` is to play the ``pos``-th card of a trick.

        ``only`` restricts the choice to that one card (to value a root move).
        """
        self.nodes += 1
        best = -1
        best_own = 99
        shift = self.shift[seat]
        hand = hands[seat]
        last_to_play = pos + 1 == self.n
        next_seat = (seat + 1) % self.n
        for b in [only] if only else self.moves(hand, ledmask, remaining):
            hands[seat] = hand ^ b
            if pos == 0:
                lm, bb, w = _SUIT_MASK[(b.bit_length() - 1) >> 3], b, seat
            elif b & ledmask and b > bestbit:
                lm, bb, w = ledmask, b, seat
            else:
                lm, bb, w = ledmask, bestbit, winner
            tb = trickbits | b
            if not last_to_play:
                value = self.play(
                    hands, trick_no, first, queen, pos + 1, next_seat, lm, bb, tb, w, remaining
                )
            else:
                one = 1 << self.shift[w]
                value = 0
                f, q = first, queen
                if trick_no == 1:
                    value += one
                    f = w
                if tb & _QC:
                    value += one
                    q = w
                if trick_no < self.tricks:
                    value += self.trick(hands, w, trick_no + 1, f, q)
                else:  # the last trick, reached from a root inside it
                    value += one
                    if self.bonus and f == w and q == w:
                        value += one
            hands[seat] = hand
            own = (value >> shift) & 7
            if own < best_own:
                best, best_own = value, own
                if own == 0:
                    break
        return best

    def value_after(self, hands: list[int], state: dict[str, int], seat: int, b: int) -> int:
        """The value of the position after ``seat`` plays ``b`` (for the root)."""
        return self.play(
            hands,
            state["trick_no"],
            state["first"],
            state["queen"],
            state["pos"],
            seat,
            state["ledmask"],
            state["bestbit"],
            state["trickbits"],
            state["winner"],
            state["remaining"],
            b,
        )


@dataclass(frozen=True, slots=True)
class Position:
    """A Slobberhannes position with every hand known (a real or a sampled one).

    ``trick`` holds the (seat, card) plays of the unfinished trick;
    ``first_taker`` and ``queen_taker`` are the seats charged so far for the
    first trick and the Q♣ (-1 when not yet), which the all-three bonus needs.
    """

    hands: tuple[tuple[Card, ...], ...]
    to_move: int
    trick: tuple[tuple[int, Card], ...]
    trick_no: int
    tricks: int
    first_taker: int = -1
    queen_taker: int = -1
    bonus: bool = True

    @classmethod
    def of(cls, deal: SlobberhannesDeal) -> Position:
        seat = deal.to_move
        if seat is None:
            raise ValueError("the deal is over: there is no position to solve")
        first = queen = -1
        for event in deal.penalties():
            if event.reason == "first_trick":
                first = event.seat
            elif event.reason == "queen_of_clubs":
                queen = event.seat
        trick = deal.observation(seat).trick
        return cls(
            hands=tuple(deal.hand(s) for s in range(deal.num_seats)),
            to_move=seat,
            trick=tuple(zip(trick.seats, trick.cards, strict=True)),
            trick_no=deal.trick_number,
            tricks=deal.options.hand_size,
            first_taker=first,
            queen_taker=queen,
            bonus=deal.options.all_three_bonus,
        )

    def following(self) -> list[Card]:
        """The cards the mover may play without revoking."""
        hand = self.hands[self.to_move]
        if not self.trick:
            return list(hand)
        led = self.trick[0][1].suit
        return [c for c in hand if c.suit == led] or list(hand)


def _setup(position: Position) -> tuple[_Solver, list[int], dict[str, int]]:
    solver = _Solver(len(position.hands), position.tricks, position.bonus)
    hands = [sum(_BIT[c] for c in h) for h in position.hands]
    ledmask = trickbits = 0
    bestbit = winner = -1
    if position.trick:
        ledmask = _SUIT_MASK[position.trick[0][1].suit]
        for seat, card in position.trick:
            b = _BIT[card]
            trickbits |= b
            if b & ledmask and b > bestbit:
                bestbit, winner = b, seat
    state = {
        "trick_no": position.trick_no,
        "first": position.first_taker,
        "queen": position.queen_taker,
        "pos": len(position.trick),
        "ledmask": ledmask,
        "bestbit": bestbit,
        "trickbits": trickbits,
        "winner": winner,
        "remaining": trickbits | sum(hands),
    }
    return solver, hands, state


@functools.cache
def _compress_table() -> list[int]:
    """``table[rest << 8 | held]``: ``held`` renumbered by rank among ``rest``."""
    table = [0] * (1 << 16)
    for rest in range(256):
        ranks = [i for i in range(8) if rest >> i & 1]
        for held in range(256):
            if held & ~rest:
                continue
            out = 0
            for j, i in enumerate(ranks):
                if held >> i & 1:
                    out |= 1 << j
            table[rest << 8 | held] = out
    return table


def _normalise(hands: list[int], remaining: int) -> list[int]:
    """Hands with every suit renumbered by rank among the cards still out.

    Only the order within a suit decides tricks, so positions that differ in
    which cards have gone are the same position. Clubs are kept as they are
    while the Q♣ is out: that card is not like the others.
    """
    compress = _compress_table()
    out = []
    keep_clubs = remaining & _QC
    for h in hands:
        key = h & 0xFF if keep_clubs else compress[(remaining & 0xFF) << 8 | (h & 0xFF)]
        for shift in (8, 16, 24):
            key |= compress[((remaining >> shift) & 0xFF) << 8 | ((h >> shift) & 0xFF)] << shift
        out.append(key)
    return out


def _unpack(value: int, players: int) -> tuple[int, ...]:
    return tuple((value >> (3 * p)) & 7 for p in range(players))


def _compiled_values(
    position: Position,
    solver: _Solver,
    hands: list[int],
    state: dict[str, int],
    moves: list[int],
    *,
    stop_at_zero: bool,
) -> tuple[list[int], int]:
    return _maxn.solve(
        hands,
        position.tricks,
        int(position.bonus),
        state["trick_no"],
        state["first"],
        state["queen"],
        state["pos"],
        position.to_move,
        state["ledmask"],
        max(state["bestbit"], 0),
        state["trickbits"],
        state["winner"],
        moves,
        stop_at_zero,
    )


def solve_moves(position: Position | SlobberhannesDeal) -> dict[Card, tuple[int, ...]]:
    """The max^n value (further penalties per seat) of every following card of the mover."""
    return solve_moves_counted(position)[0]


def solve_moves_counted(
    position: Position | SlobberhannesDeal,
) -> tuple[dict[Card, tuple[int, ...]], int]:
    """:func:`solve_moves` and the number of positions searched for it.

    The count is the compiled solver's where it is used; the pure-Python one
    counts the same search but may differ by a fraction of a percent (the
    compiled cache is bounded, so it sometimes searches a position again).
    """
    if isinstance(position, SlobberhannesDeal):
        if position.is_over:
            return {}, 0
        position = Position.of(position)
    solver, hands, state = _setup(position)
    seat = position.to_move
    cards = position.following()
    if compiled():
        values, nodes = _compiled_values(
            position, solver, hands, state, [_BIT[c] for c in cards], stop_at_zero=False
        )
    else:
        values = [solver.value_after(hands, state, seat, _BIT[c]) for c in cards]
        nodes = solver.nodes
    moves = {card: _unpack(v, solver.n) for card, v in zip(cards, values, strict=True)}
    return moves, nodes


def solve(deal: SlobberhannesDeal | Position) -> SolveResult:
    """Solve a deal (or a position) from where it stands, at any point of a trick."""
    if isinstance(deal, SlobberhannesDeal):
        paid = deal.points()
        if deal.is_over:
            return SolveResult((0,) * len(paid), paid, None, 0)
        position = Position.of(deal)
    else:
        position = deal
        paid = (0,) * len(position.hands)
    solver, hands, state = _setup(position)
    seat = position.to_move
    moves = solver.moves(hands[seat], state["ledmask"], state["remaining"])
    if compiled():
        values, nodes = _compiled_values(position, solver, hands, state, moves, stop_at_zero=True)
    else:
        values = []
        for b in moves:
            values.append(solver.value_after(hands, state, seat, b))
            if (values[-1] >> solver.shift[seat]) & 7 == 0:
                break
        nodes = solver.nodes
    best = min(range(len(values)), key=lambda i: ((values[i] >> solver.shift[seat]) & 7, i))
    result = _unpack(values[best], solver.n)
    totals = tuple(p + v for p, v in zip(paid, result, strict=True))
    return SolveResult(result, totals, _CARD_OF[moves[best]], nodes)


def compiled() -> bool:
    """Whether the compiled solver is used (set KARTENTISCH_PURE_PYTHON=1 to refuse it)."""
    return _HAVE_MAXN and not os.environ.get("KARTENTISCH_PURE_PYTHON")
