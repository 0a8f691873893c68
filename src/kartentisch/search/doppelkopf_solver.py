"""An exact perfect-information solver for Doppelkopf card play.

**The model.** All hands are known and so are the parties. The value of a
position is the points the *scoring party* (``Position.party``; the Re party
unless said otherwise) takes from the current trick to the end of the deal —
the cards already in the unfinished trick count for whoever wins it. The
scoring party maximises the value, the other party minimises it: a two-party
zero-sum game, solved exactly with alpha-beta. Points are the cards' Augen
(``model="augen"``: A 11, 10 10, K 4, Q 3, J 2, 9 0), or one per trick
(``model="tricks"``: for an ouvert solo, where the soloist must take every
trick; :meth:`Position.of` chooses it and makes the opponents the scoring
party there; a Nullsolo is not modelled). The score of
the game (who wins at 121, stages, extra points such as a Fuchs caught or
the Karlchen, announcements) is not part of the value: a bot maps the
solved Augen to what they are worth (see :mod:`kartentisch.bots.doppelkopf_strong`).
Revokes are never searched; both Dullen, equal cards: the first played wins.

**The search.** The card types of the game are numbered in trick order:
the trumps high to low, then each plain suit high to low. A hand is an int
of 2-bit counts, one field per type (Doppelkopf deals every card twice), so
playing a card is a subtraction and a trick's winner is the lowest index of
the led group or of the trumps (strictly lower: of equal cards the first
played wins). Speed comes from

* **alpha-beta** (fail-soft) with the value bounded by the points still out;
* a **transposition table** at trick boundaries, keyed by the four hands and
  the leader, holding a lower and an upper bound and the best lead; the
  value from a trick boundary does not depend on how it was reached;
* **move ordering**: the lead stored in the table first; otherwise leads of
  the top card still out in a group, then cheap cards; when following,
  smearing points onto a trick the own party holds, then winning cards
  (the cheapest that wins, or the richest when last to play), then the
  cheapest discard;
* **equivalent cards searched once**: two types of one hand are equivalent
  when they are adjacent in the same group (suit or trumps) among the cards
  still out — no other hand and no card in the current trick holds a copy of
  either or of any type between them — and they are worth the same points
  (A and 10 of a suit are never merged: 11 and 10 Augen).

The compiled twin ``_dokosolve`` (C) runs the same algorithm; this module is
the reference and the fallback (set ``KARTENTISCH_PURE_PYTHON=1`` to use it).

>>> from kartentisch.games.doppelkopf import Call, DoppelkopfDeal
>>> deal = DoppelkopfDeal.from_seed(3, dealer=0)
>>> while deal.phase == "declare":
...     _ = deal.apply(Call("pass"))
>>> while deal.trick_number < 8:
...     _ = deal.apply(min(deal.following_actions()))
>>> result = solve(deal)
>>> result.value, result.total, result.best
(18, 82, Card('QH'))
"""

from __future__ import annotations

import functools
import itertools
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal

from kartentisch.cards import Card, Rank, doppelkopf_deck
from kartentisch.tricks import TRUMP, TrickOrder

if TYPE_CHECKING:
    from kartentisch.games.doppelkopf.deal import DoppelkopfDeal

try:
    from kartentisch.search import _dokosolve

    _HAVE_C = True
except ImportError:  # pragma: no cover - the extension is optional
    _HAVE_C = False

__all__ = [
    "Encoding",
    "Model",
    "Position",
    "SolveResult",
    "card_points",
    "compiled",
    "encoding",
    "reached",
    "solve",
    "solve_moves",
]

Model = Literal["augen", "tricks"]

#: Card points (Augen): A 11, 10 10, K 4, Q 3, J 2, 9 0.
AUGEN: Final = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}
_LOW: Final = 0x5555_5555_5555_5555
_INF: Final = 30000
_TYPES: Final = tuple(dict.fromkeys(doppelkopf_deck(nines=True)))


def card_points(card: Card) -> int:
    """The Augen of ``card``."""
    return AUGEN.get(card.rank, 0)


@dataclass(frozen=True, slots=True)
class Encoding:
    """The card types of one trick order, numbered for the solver.

    ``types[i]`` is the card of index ``i``: the trumps high to low, then ♣ ♠
    ♥ ♦ high to low; ``groups[i]`` is 0 for a trump, 1 + suit otherwise;
    ``points[i]`` what the card counts; ``bonus`` what each trick counts.
    """

    types: tuple[Card, ...]
    index: dict[Card, int]
    groups: tuple[int, ...]
    points: tuple[int, ...]
    bonus: int
    group_masks: tuple[int, ...]
    #: The type of which a copy played later beats the first (the second Dulle, see
    #: :attr:`TrickOrder.later_wins`), -1 if none; ``later_last``: in the last trick too.
    later: int = -1
    later_last: bool = True

    def hand(self, cards: Sequence[Card]) -> int:
        """``cards`` as 2-bit counts per type."""
        value = 0
        index = self.index
        for card in cards:
            value += 1 << (2 * index[card])
        return value

    def cards(self, hand: int) -> list[Card]:
        out: list[Card] = []
        for i, card in enumerate(self.types):
            out.extend([card] * ((hand >> (2 * i)) & 3))
        return out


@functools.cache
def encoding(order: TrickOrder, model: Model = "augen") -> Encoding:
    """The solver's numbering of the 24 Doppelkopf card types under ``order``."""

    def key(card: Card) -> tuple[int, int]:
        group = 0 if order.suit_of[card] == TRUMP else 1 + int(card.suit)
        return group, -order.power[card]

    types = tuple(sorted(_TYPES, key=key))
    groups = tuple(key(c)[0] for c in types)
    points = tuple(card_points(c) if model == "augen" else 0 for c in types)
    masks = [0] * 5
    for i, g in enumerate(groups):
        masks[g] |= 3 << (2 * i)
    index = {c: i for i, c in enumerate(types)}
    later = [index[c] for c in order.later_wins if c in index]
    return Encoding(
        types=types,
        index=index,
        groups=groups,
        points=points,
        bonus=0 if model == "augen" else 1,
        group_masks=tuple(masks),
        later=later[0] if later else -1,
        later_last=order.later_wins_last,
    )


@dataclass(frozen=True, slots=True)
class Position:
    """A Doppelkopf card-play position with every hand and both parties known.

    ``hands`` are by table seat (a five-player dealer's is empty); ``seats``
    are the four playing seats in clockwise order; ``party`` the seats of
    the scoring party; ``leader`` led the unfinished ``trick`` (its cards in
    play order); ``taken`` is what the scoring party holds already, which
    :attr:`SolveResult.total` adds.
    """

    hands: tuple[tuple[Card, ...], ...]
    seats: tuple[int, ...]
    party: frozenset[int]
    order: TrickOrder
    leader: int
    trick: tuple[Card, ...] = ()
    model: Model = "augen"
    taken: int = 0

    def __post_init__(self) -> None:
        if len(self.seats) != 4 or self.leader not in self.seats:
            raise ValueError("a position needs four playing seats and a leader among them")
        if len(self.trick) > 3:
            raise ValueError("the unfinished trick holds at most three cards")
        sizes = {len(self.hands[s]) + (i < len(self.trick)) for i, s in enumerate(self.rotation)}
        if len(sizes) != 1:
            raise ValueError("the hands do not fit the trick being played")

    @property
    def rotation(self) -> tuple[int, ...]:
        """The playing seats from the leader on."""
        i = self.seats.index(self.leader)
        return self.seats[i:] + self.seats[:i]

    @property
    def to_move(self) -> int:
        return self.rotation[len(self.trick)]

    @classmethod
    def of(cls, deal: DoppelkopfDeal) -> Position:
        """The position of a deal in play, from the engine's omniscient view.

        An ouvert solo is played for tricks (the opponents, the scoring party,
        want one), the other games for Augen. A Nullsolo is refused: there the
        scoring party would minimise its own tricks, which the model lacks.
        """
        play = deal.trick_play
        if play is None or deal.phase != "play" or deal.is_over:
            raise ValueError("the deal is not in play: there is no position to solve")
        re = deal.re_party
        if re is None:
            raise ValueError("the parties are not known yet (an open Hochzeit)")
        if deal.game_type == "null":
            raise ValueError("a Nullsolo is not modelled (the soloist must take no trick)")
        model: Model = "augen"
        party = re
        if deal.game_type == "null" or (deal.ouvert and deal.solo):
            model = "tricks"
            party = frozenset(deal.playing) - re
        taken = 0
        for trick in play.tricks:
            if trick.winner in party:
                taken += 1 if model == "tricks" else sum(card_points(c) for c in trick.cards)
        return cls(
            hands=tuple(deal.hand(s) for s in range(deal.num_seats)),
            seats=tuple(deal.playing),
            party=party,
            order=deal.order,
            leader=play.trick.leader,
            trick=tuple(play.trick.cards),
            model=model,
            taken=taken,
        )

    def following(self) -> list[Card]:
        """The cards the mover may play without revoking (each card once)."""
        hand = list(dict.fromkeys(self.hands[self.to_move]))
        if not self.trick:
            return hand
        suit_of = self.order.suit_of
        led = suit_of[self.trick[0]]
        return [c for c in hand if suit_of[c] == led] or hand


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The solution of a position.

    ``value``: what the scoring party takes from here on with best play on
    both sides; ``total`` adds :attr:`Position.taken`; ``best``: the mover's
    best card (the first of the best in the order :meth:`Position.following`
    gives); ``nodes``: searched positions.
    """

    value: int
    total: int
    best: Card
    nodes: int


class _Solver:
    """The pure-Python search (the compiled one mirrors it)."""

    __slots__ = (
        "bonus",
        "gmask",
        "groups",
        "hands",
        "later",
        "later_last",
        "left",
        "nodes",
        "party",
        "points",
        "stop",
        "tt",
    )

    def __init__(
        self, enc: Encoding, hands: list[int], party: tuple[bool, ...], stop: int = 0
    ) -> None:
        self.groups = enc.groups
        self.points = enc.points
        self.bonus = enc.bonus
        self.gmask = enc.group_masks
        self.later = enc.later
        self.later_last = enc.later_last
        self.hands = hands
        self.party = party
        self.left = sum(
            enc.points[t] * ((h >> (2 * t)) & 3) for h in hands for t in range(len(enc.types))
        )
        self.tt: dict[tuple[int, int, int, int, int], tuple[int, int, int]] = {}
        self.nodes = 0
        self.stop = stop

    def moves(self, legal: int, others: int) -> list[int]:
        """Representative types among ``legal``, high to low (``others``: presence bits)."""
        groups, points = self.groups, self.points
        p = (legal | legal >> 1) & _LOW
        out: list[int] = []
        last = -1
        while p:
            b = p & -p
            p ^= b
            t = (b.bit_length() - 1) >> 1
            if last >= 0 and groups[t] == groups[last] and points[t] == points[last]:
                span = ((1 << (2 * t + 2)) - 1) & ~((1 << (2 * last)) - 1)
                if not others & span:
                    continue
            out.append(t)
            last = t
        return out

    def order(
        self,
        mv: list[int],
        pos: int,
        seat: int,
        led: int,
        best_t: int,
        best_seat: int,
        others: int,
        tt_best: int,
    ) -> list[int]:
        groups, points, party = self.groups, self.points, self.party
        maxing = party[seat]
        scores = []
        for t in mv:
            if t == tt_best:
                sc = 100000
            elif pos == 0:
                above = ((1 << (2 * t)) - 1) & self.gmask[groups[t]]
                if not others & above:
                    sc = 1000 + points[t]
                else:
                    sc = -points[t] - (20 if groups[t] == 0 else 0)
            else:
                wins = (groups[t] == 0 or groups[t] == led) and t < best_t
                if party[best_seat] == maxing and not wins:
                    sc = 2000 + points[t]
                elif wins:
                    sc = 1000 + (points[t] if pos == 3 else t)
                else:
                    sc = -points[t]
            scores.append(sc)
        ranked = sorted(range(len(mv)), key=lambda i: -scores[i])
        return [mv[i] for i in ranked]

    def play(
        self,
        pos: int,
        seat: int,
        led: int,
        best_t: int,
        best_seat: int,
        tpts: int,
        tp: int,
        alpha: int,
        beta: int,
        only: int = -1,
        tt_best: int = -1,
    ) -> tuple[int, int]:
        """(value, best type) when ``seat`` plays the ``pos``-th card of the trick."""
        self.nodes += 1
        hands, groups, points, party = self.hands, self.groups, self.points, self.party
        h = hands[seat]
        if only >= 0:
            mv = [only]
        else:
            legal = h
            if pos > 0 and h & self.gmask[led]:
                legal = h & self.gmask[led]
            others = tp
            for q in range(4):
                if q != seat:
                    others |= (hands[q] | hands[q] >> 1) & _LOW
            mv = self.moves(legal, others)
            if len(mv) > 1:
                mv = self.order(mv, pos, seat, led, best_t, best_seat, others, tt_best)
        maxing = party[seat]
        v = -_INF if maxing else _INF
        bm = mv[0]
        nxt = (seat + 1) & 3
        # The type whose later copy wins this trick (-2: none); one card in hand: the last.
        dt = self.later if self.later_last or h & (h - 1) or not h & _LOW else -2
        for t in mv:
            f = 1 << (2 * t)
            hands[seat] = h - f
            self.left -= points[t]
            if pos == 0:
                nled, nbest, nbs = groups[t], t, seat
            elif (groups[t] == 0 or groups[t] == led) and (t < best_t or t == best_t == dt):
                nled, nbest, nbs = led, t, seat
            else:
                nled, nbest, nbs = led, best_t, best_seat
            np = tpts + points[t]
            if pos < 3:
                val = self.play(pos + 1, nxt, nled, nbest, nbs, np, tp | f, alpha, beta)[0]
            else:
                tv = np + self.bonus if party[nbs] else 0
                val = tv + self.boundary(nbs, alpha - tv, beta - tv)
            hands[seat] = h
            self.left += points[t]
            if maxing:
                if val > v:
                    v, bm = val, t
                alpha = max(alpha, v)
            else:
                if val < v:
                    v, bm = val, t
                beta = min(beta, v)
            if alpha >= beta:
                break
        return v, bm

    def last_trick(self, leader: int) -> int:
        self.nodes += 1
        groups, points = self.groups, self.points
        led = best_t = -1
        best_seat = leader
        total = 0
        dt = self.later if self.later_last else -2
        for i in range(4):
            seat = (leader + i) & 3
            h = self.hands[seat]
            t = (((h | h >> 1) & _LOW) & -((h | h >> 1) & _LOW)).bit_length() - 1 >> 1
            total += points[t]
            if i == 0:
                led, best_t = groups[t], t
            elif (groups[t] == 0 or groups[t] == led) and (t < best_t or t == best_t == dt):
                best_t, best_seat = t, seat
        return total + self.bonus if self.party[best_seat] else 0

    def _pick(self, legal: int, key: int, winners_of: tuple[int, int] | None = None) -> int:
        """The card of ``legal`` with the highest ``key`` × points (``key`` 0: the
        weakest), among the winners when ``winners_of`` = (led, best) is given;
        ties go to the weaker card. -1 if there is none."""
        groups, points = self.groups, self.points
        p = (legal | legal >> 1) & _LOW
        best, best_key = -1, 0
        while p:
            b = p & -p
            p ^= b
            t = (b.bit_length() - 1) >> 1
            if winners_of is not None:
                led, best_t = winners_of
                if not ((groups[t] == 0 or groups[t] == led) and t < best_t):
                    continue
            k = key * points[t]
            if best < 0 or k >= best_key:
                best, best_key = t, k
        return best

    def greedy_card(
        self, h: list[int], pos: int, seat: int, led: int, best_t: int, best_seat: int
    ) -> int:
        """The greedy playout's card: lead the richest card that is the top of
        its group among the cards still out, else the cheapest; follow by
        smearing the richest card (last to play) or the cheapest onto the own
        party's trick, else win with the weakest winner (the richest when last
        to play), else discard the cheapest."""
        legal = h[seat]
        if pos > 0 and legal & self.gmask[led]:
            legal &= self.gmask[led]
        if pos == 0:
            others = 0
            for q in range(4):
                if q != seat:
                    others |= (h[q] | h[q] >> 1) & _LOW
            tops = 0
            p = (legal | legal >> 1) & _LOW
            while p:
                b = p & -p
                p ^= b
                t = (b.bit_length() - 1) >> 1
                if not others & (b - 1) & self.gmask[self.groups[t]]:
                    tops |= 3 << (2 * t)
            if tops:
                return self._pick(legal & tops, 1)
            return self._pick(legal, -1)
        if self.party[best_seat] == self.party[seat]:
            return self._pick(legal, 1 if pos == 3 else -1)
        w = self._pick(legal, 1 if pos == 3 else 0, (led, best_t))
        return w if w >= 0 else self._pick(legal, -1)

    def greedy(self, leader: int) -> int:
        """The scoring party's points when everyone plays :meth:`greedy_card` to the end."""
        h = list(self.hands)
        groups, points = self.groups, self.points
        total = 0
        self.nodes += 1
        while h[leader]:
            led, best_t, best_seat, tpts = -1, 0, leader, 0
            lead_hand = h[leader]
            last = not lead_hand & (lead_hand - 1) and lead_hand & _LOW
            dt = self.later if self.later_last or not last else -2
            for pos in range(4):
                seat = (leader + pos) & 3
                t = self.greedy_card(h, pos, seat, led, best_t, best_seat)
                h[seat] -= 1 << (2 * t)
                tpts += points[t]
                if pos == 0:
                    led, best_t = groups[t], t
                elif (groups[t] == 0 or groups[t] == led) and (t < best_t or t == best_t == dt):
                    best_t, best_seat = t, seat
            if self.party[best_seat]:
                total += tpts + self.bonus
            leader = best_seat
        return total

    def boundary(self, leader: int, alpha: int, beta: int) -> int:
        hands = self.hands
        h = hands[leader]
        cards = (h & _LOW).bit_count() + 2 * (h & ~_LOW).bit_count()
        if cards == 0:
            return 0
        if cards == 1:
            return self.last_trick(leader)
        if cards == self.stop:
            return self.greedy(leader)
        most = self.left + self.bonus * cards
        if alpha >= most:
            return most
        if beta <= 0:
            return 0
        key = (hands[0], hands[1], hands[2], hands[3], leader)
        entry = self.tt.get(key)
        lower, upper, tt_best = 0, most, -1
        if entry is not None:
            lower, upper, tt_best = entry
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
        a = max(alpha, lower)
        b = min(beta, upper)
        v, bm = self.play(0, leader, -1, 0, leader, 0, 0, a, b, tt_best=tt_best)
        if v <= a:
            upper = v
        elif v >= b:
            lower = v
        else:
            lower = upper = v
        self.tt[key] = (lower, upper, bm)
        return v


@dataclass(frozen=True, slots=True)
class _Setup:
    enc: Encoding
    hands: list[int]
    party: tuple[bool, ...]
    mask: int
    leader: int
    trick: list[int]

    def kernel_args(self) -> tuple[list[int], list[int], list[int], int, int, int, list[int]]:
        """The position as the compiled kernel's ``solve`` and ``buckets`` take it first."""
        enc = self.enc
        return (
            self.hands,
            list(enc.groups),
            list(enc.points),
            enc.bonus,
            self.mask,
            self.leader,
            self.trick,
        )


def _setup(position: Position) -> _Setup:
    enc = encoding(position.order, position.model)
    seats = position.seats
    hands = [enc.hand(position.hands[s]) for s in seats]
    party = tuple(s in position.party for s in seats)
    mask = sum(1 << i for i, p in enumerate(party) if p)
    trick = [enc.index[c] for c in position.trick]
    return _Setup(enc, hands, party, mask, seats.index(position.leader), trick)


def _stop(position: Position, horizon: int | None) -> int:
    """Cards per hand at which the greedy playout takes over (0: never)."""
    if horizon is None:
        return 0
    cards = len(position.hands[position.leader]) + (1 if position.trick else 0)
    stop = cards - max(1, horizon)
    return stop if stop >= 2 else 0


def _python_root(st: _Setup, stop: int) -> tuple[_Solver, tuple[int, int, int, int, int, int, int]]:
    enc = st.enc
    solver = _Solver(enc, st.hands, st.party, stop)
    led, best_t, best_seat, tpts, tp = -1, 0, st.leader, 0, 0
    mover = (st.leader + len(st.trick)) & 3
    h = st.hands[mover]
    last = not h & (h - 1) and h & _LOW  # the mover's last card: the last trick
    dt = enc.later if enc.later_last or not last else -2
    for i, t in enumerate(st.trick):
        seat = (st.leader + i) & 3
        tpts += enc.points[t]
        tp |= 1 << (2 * t)
        if i == 0:
            led, best_t = enc.groups[t], t
        elif (enc.groups[t] == 0 or enc.groups[t] == led) and (t < best_t or t == best_t == dt):
            best_t, best_seat = t, seat
    return solver, (len(st.trick), mover, led, best_t, best_seat, tpts, tp)


def _values(
    position: Position,
    moves: Sequence[Card],
    alpha: int = -1,
    beta: int = _INF,
    horizon: int | None = None,
) -> tuple[list[int], int]:
    """The value of each of ``moves`` for the mover (exact inside (alpha, beta))."""
    st = _setup(position)
    enc = st.enc
    types = [enc.index[c] for c in moves]
    stop = _stop(position, horizon)
    if _compiled_for(enc):
        return _dokosolve.solve(*st.kernel_args(), types, alpha, beta, stop, *_later_args(enc))
    solver, root = _python_root(st, stop)
    values = [solver.play(*root, alpha, beta, only=t)[0] for t in types]
    return values, solver.nodes


def reached(
    position: Position,
    moves: Sequence[Card],
    thresholds: Sequence[int],
    *,
    horizon: int | None = None,
) -> tuple[list[int], int]:
    """How many of the ascending ``thresholds`` each move's value reaches, and the nodes.

    A binary search with null-window tests per move, all sharing one
    transposition table: much cheaper than exact values when a bot only needs
    to know on which side of a few thresholds (121 Augen, the stages) a move
    lands. ``horizon``: search that many tricks (the current one included)
    and value the rest by the greedy playout; None searches to the end.
    """
    thr = list(thresholds)
    if any(b <= a for a, b in itertools.pairwise(thr)):
        raise ValueError("thresholds must ascend")
    st = _setup(position)
    enc = st.enc
    types = [enc.index[c] for c in moves]
    stop = _stop(position, horizon)
    if _compiled_for(enc):
        return _dokosolve.buckets(*st.kernel_args(), types, thr, stop, *_later_args(enc))
    solver, root = _python_root(st, stop)
    out: list[int] = []
    m = len(thr)
    for t in types:
        lo, hi = 0, m
        while lo < hi:
            mid = (lo + hi) // 2
            v = solver.play(*root, thr[mid] - 1, thr[mid], only=t)[0]
            if v >= thr[mid]:
                lo = mid + 1
                while lo < hi and v >= thr[lo]:
                    lo += 1
            else:
                hi = mid
                while hi > lo and v < thr[hi - 1]:
                    hi -= 1
        out.append(lo)
    return out, solver.nodes


def solve_moves(
    position: Position | DoppelkopfDeal, *, horizon: int | None = None
) -> dict[Card, int]:
    """The exact value of every following card of the mover.

    With ``horizon``, the search stops after that many tricks (the current
    one included) and a greedy playout values the rest: no longer exact.
    """
    if not isinstance(position, Position):
        position = Position.of(position)
    cards = position.following()
    values, _ = _values(position, cards, horizon=horizon)
    return dict(zip(cards, values, strict=True))


def solve(position: Position | DoppelkopfDeal) -> SolveResult:
    """Solve a position (or a deal in play) from where it stands, at any point of a trick."""
    if not isinstance(position, Position):
        position = Position.of(position)
    cards = position.following()
    values, nodes = _values(position, cards)
    maxing = position.to_move in position.party
    pick = max if maxing else min
    best_value = pick(values)
    best = cards[values.index(best_value)]
    return SolveResult(best_value, position.taken + best_value, best, nodes)


def compiled() -> bool:
    """Whether the compiled solver is used (set KARTENTISCH_PURE_PYTHON=1 to refuse it)."""
    return _HAVE_C and not os.environ.get("KARTENTISCH_PURE_PYTHON")


def _compiled_for(enc: Encoding) -> bool:
    """Whether the compiled solver takes this encoding (one built before the second
    Dulle was modelled does not: then the pure-Python search runs)."""
    return compiled() and (enc.later < 0 or getattr(_dokosolve, "LATER_WINS", 0) == 1)


def _later_args(enc: Encoding) -> tuple[int, ...]:
    """The compiled solver's optional arguments for a type whose later copy wins."""
    return () if enc.later < 0 else (enc.later, int(enc.later_last))
