"""Trick-taking machinery shared by Slobberhannes and Doppelkopf.

A :class:`TrickOrder` says, for one game type, which "suit" each card belongs
to for following (all trumps form one suit, :data:`TRUMP`) and how strongly it
beats other cards. :class:`TrickPlay` runs the play of a hand: whose turn it
is, which cards follow suit, who wins each trick, and whether a card is a
revoke. Games compose it; no game re-implements these rules.

>>> from kartentisch.cards import parse_cards
>>> order = TrickOrder.plain("A K Q J 10 9 8 7")
>>> order.winner(parse_cards("8D 7D AD 10D"))
2
>>> order.winner(parse_cards("KC QC AS 9C"))  # off-suit cards never win
0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from kartentisch.cards import CARDS, Card, Rank, Suit
from kartentisch.errors import IllegalActionError

__all__ = ["TRUMP", "PlayedTrick", "Trick", "TrickOrder", "TrickPlay", "suit_label"]

#: The pseudo-suit of every trump: trumps are one suit for following.
TRUMP: Final = 4


def suit_label(suit: int) -> str:
    """``♣ ♠ ♥ ♦`` for a suit, ``trump`` for :data:`TRUMP`."""
    return "trump" if suit == TRUMP else Suit(suit).symbol


@dataclass(frozen=True, slots=True)
class TrickOrder:
    """Effective suit and trick-taking power of every card in one game type.

    ``suit_of[c]`` is 0..3 or :data:`TRUMP`; ``power[c]`` orders cards (trumps
    above every plain card). A card that neither follows the led suit nor is a
    trump cannot win. Of equal cards the one played first wins.
    """

    suit_of: tuple[int, ...]
    power: tuple[int, ...]
    #: Cards of which a copy played later beats the one played first (Doppelkopf's
    #: "the second Dulle beats the first"); ``later_wins_last``: in the last trick too.
    later_wins: frozenset[Card] = frozenset()
    later_wins_last: bool = True
    #: The cards of each effective suit, 0..3 and :data:`TRUMP` (derived from ``suit_of``).
    suit_cards: tuple[frozenset[Card], ...] = field(init=False, repr=False, compare=False)
    #: For each led suit, each card's power in that trick; -1 where it cannot win.
    strength: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        suit_of, power = self.suit_of, self.power
        cards = range(len(suit_of))
        suits = range(TRUMP + 1)
        object.__setattr__(
            self,
            "suit_cards",
            tuple(frozenset(CARDS[c] for c in cards if suit_of[c] == s) for s in suits),
        )
        object.__setattr__(
            self,
            "strength",
            tuple(
                tuple(power[c] if suit_of[c] in (led, TRUMP) else -1 for c in cards)
                for led in suits
            ),
        )

    @classmethod
    def plain(cls, ranks_high_to_low: str | Sequence[Rank]) -> TrickOrder:
        """No trumps; within a suit the given ranks from high to low."""
        return cls.with_trumps((), ranks_high_to_low)

    @classmethod
    def with_trumps(
        cls,
        trumps_high_to_low: Iterable[Card],
        ranks_high_to_low: str | Sequence[Rank],
        *,
        later_wins: Iterable[Card] = (),
        later_wins_last: bool = True,
    ) -> TrickOrder:
        """Trumps in the given order; every other card ranks in its suit by ``ranks``."""
        ranks = (
            [Rank.parse(r) for r in ranks_high_to_low.split()]
            if isinstance(ranks_high_to_low, str)
            else list(ranks_high_to_low)
        )
        trumps = list(trumps_high_to_low)
        suit_of = [int(c.suit) for c in CARDS]
        power = [0] * 52
        for card in CARDS:
            if card.rank in ranks:
                power[card] = len(ranks) - ranks.index(card.rank)
        for i, card in enumerate(trumps):
            suit_of[card] = TRUMP
            power[card] = 100 + len(trumps) - i
        return cls(tuple(suit_of), tuple(power), frozenset(later_wins), later_wins_last)

    def is_trump(self, card: Card) -> bool:
        return self.suit_of[card] == TRUMP

    def winner(self, cards: Sequence[Card], last: bool = False) -> int:
        """Position in ``cards`` (in play order) of the card that wins the trick
        (``last``: the hand's last trick, for :attr:`later_wins_last`)."""
        # The strongest card that follows or trumps; of equal ones the first played
        # (or the last, for a card in ``later_wins``). A plain loop: compiled, it
        # builds no lists.
        lead: int = cards[0]
        strength = self.strength[self.suit_of[lead]]
        first = 0
        best = -2
        for i in range(len(cards)):
            c: int = cards[i]
            s = strength[c]
            if s > best:
                best = s
                first = i
        later = self.later_wins
        if later and cards[first] in later and (self.later_wins_last or not last):
            for i in range(len(cards) - 1, first, -1):
                c = cards[i]
                if strength[c] == best:
                    return i
        return first

    def beats(self, card: Card, current: Card, led: int, last: bool = False) -> bool:
        """Whether ``card``, played later, beats ``current`` in a trick led in ``led``
        (``last``: the hand's last trick, for :attr:`later_wins_last`)."""
        s = self.suit_of[card]
        if s != led and s != TRUMP:
            return False
        cs = self.suit_of[current]
        if cs != led and cs != TRUMP:
            return True
        if card == current and card in self.later_wins:
            return self.later_wins_last or not last
        return self.power[card] > self.power[current]

    def follows(self, hand: Sequence[Card], led: int) -> list[Card]:
        """The cards of ``hand`` that follow the led (effective) suit, 0..3 or TRUMP."""
        return list(filter(self.suit_cards[led].__contains__, hand))

    def playable(self, hand: Sequence[Card], led: int | None) -> list[Card]:
        """Cards that may be played without revoking: follow suit if possible, else any."""
        if led is None:
            return list(hand)
        return self.follows(hand, led) or list(hand)

    def is_revoke(self, hand: Sequence[Card], led: int | None, card: Card) -> bool:
        """Whether playing ``card`` from ``hand`` fails to follow although it could."""
        if led is None or self.suit_of[card] == led:
            return False
        suit_of = self.suit_of
        return any(suit_of[c] == led for c in hand)


@dataclass(frozen=True, slots=True)
class PlayedTrick:
    """An immutable copy of a trick, as observations and records show it."""

    leader: int
    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    winner: int | None

    def to_dict(self) -> dict[str, object]:
        return {
            "leader": self.leader,
            "seats": list(self.seats),
            "cards": [str(c) for c in self.cards],
            "winner": self.winner,
        }


@dataclass(slots=True, init=False)
class Trick:
    """One trick: who led, the cards in play order, and (once complete) the winner."""

    leader: int
    seats: list[int]
    cards: list[Card]
    winner: int | None

    # Written out rather than generated: compiled, a dataclass's generated
    # ``__init__`` would run as Python, and a trick is made every four cards.
    def __init__(
        self,
        leader: int,
        seats: list[int] | None = None,
        cards: list[Card] | None = None,
        winner: int | None = None,
    ) -> None:
        self.leader = leader
        self.seats = [] if seats is None else seats
        self.cards = [] if cards is None else cards
        self.winner = winner

    def freeze(self) -> PlayedTrick:
        return PlayedTrick(self.leader, tuple(self.seats), tuple(self.cards), self.winner)

    def to_dict(self) -> dict[str, object]:
        return self.freeze().to_dict()


class TrickPlay:
    """The play of a hand: turn order, following, trick winners, tricks taken.

    ``seats`` lists the seats that play, in clockwise order (a Doppelkopf
    dealer who sits out is simply not in it). Hands are lists of cards, which
    may hold two copies of a card.
    """

    __slots__ = ("_pos", "hands", "leader", "order", "seats", "trick", "tricks")

    def __init__(
        self,
        order: TrickOrder,
        hands: Sequence[Sequence[Card]],
        seats: Sequence[int],
        leader: int,
    ) -> None:
        if leader not in seats:
            raise ValueError(f"leader {leader} is not one of the playing seats {list(seats)}")
        self.order = order
        self.hands: list[list[Card]] = [list(h) for h in hands]
        self.seats: tuple[int, ...] = tuple(seats)
        self.leader = leader
        self.trick = Trick(leader)
        self.tricks: list[Trick] = []
        self._pos = self.seats.index(leader)

    def copy(self) -> TrickPlay:
        new = TrickPlay(self.order, self.hands, self.seats, self.leader)
        new.trick = Trick(self.trick.leader, list(self.trick.seats), list(self.trick.cards))
        new.tricks = list(self.tricks)
        new._pos = self._pos
        return new

    @property
    def to_move(self) -> int | None:
        """The seat to play next, or None when all cards are played."""
        if not self.hands[self.seats[self._pos]]:
            return None
        return self.seats[self._pos]

    @property
    def led_suit(self) -> int | None:
        """The effective suit led to the current trick (None before the lead)."""
        cards = self.trick.cards
        return self.order.suit_of[cards[0]] if cards else None

    @property
    def is_complete(self) -> bool:
        return all(not self.hands[s] for s in self.seats)

    def playable(self, seat: int) -> list[Card]:
        """Cards ``seat`` may play without revoking (duplicates collapsed)."""
        # Follow suit if possible (TrickOrder.playable), each card once, in the order
        # held: plain loops over card indices and a bit set of the cards taken,
        # which compiled make no calls.
        cards = self.hands[seat]
        led = self.trick.cards
        out: list[Card] = []
        taken = 0
        if led:
            suit_of = self.order.suit_of
            first: int = led[0]
            suit = suit_of[first]
            for card in cards:
                c: int = card
                if suit_of[c] == suit:
                    bit = 1 << c
                    if not taken & bit:
                        taken |= bit
                        out.append(card)
            if out:
                return out
        for card in cards:
            c = card
            bit = 1 << c
            if not taken & bit:
                taken |= bit
                out.append(card)
        return out

    def check(self, seat: int, card: Card, *, must_follow: bool = True) -> None:
        """Raise :class:`IllegalActionError` unless ``seat`` may play ``card`` now."""
        to_move = self.to_move
        if to_move is None:
            raise IllegalActionError(
                "hand_over", "all cards have been played", seat=seat, action=card
            )
        if seat != to_move:
            raise IllegalActionError(
                "not_your_turn",
                f"it is seat {to_move}'s turn, not seat {seat}'s",
                seat=seat,
                action=card,
                to_move=to_move,
            )
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalActionError(
                "not_in_hand",
                f"{card.symbol} is not in seat {seat}'s hand",
                seat=seat,
                action=card,
            )
        if must_follow and self.is_revoke(seat, card):
            led = self.led_suit
            assert led is not None
            raise IllegalActionError(
                "must_follow_suit",
                f"must follow {suit_label(led)}: {card.symbol} does not follow "
                f"and seat {seat} holds {suit_label(led)}",
                seat=seat,
                action=card,
                suit=led,
            )

    def is_revoke(self, seat: int, card: Card) -> bool:
        return self.order.is_revoke(self.hands[seat], self.led_suit, card)

    def play(self, seat: int, card: Card) -> Trick | None:
        """Play ``card`` for ``seat`` (already checked); return the trick if it completes."""
        self.hands[seat].remove(card)
        trick = self.trick
        trick.seats.append(seat)
        trick.cards.append(card)
        seats = self.seats
        if len(trick.cards) < len(seats):
            self._pos = (self._pos + 1) % len(seats)
            return None
        last = not any(self.hands[s] for s in seats)
        won = trick.seats[self.order.winner(trick.cards, last)]
        trick.winner = won
        self.tricks.append(trick)
        self.leader = won
        self.trick = Trick(won, [], [])
        self._pos = seats.index(won)
        return trick

    def unplay(self) -> Card:
        """Take back the last card played (for a Kulanz take-back or a search)."""
        trick = self.trick
        if not trick.cards:
            if not self.tricks:
                raise ValueError("no card has been played")
            # Completed tricks may be shared with copies: reopen a fresh one.
            done = self.tricks.pop()
            trick = Trick(done.leader, list(done.seats), list(done.cards))
            self.trick = trick
        seat = trick.seats.pop()
        card = trick.cards.pop()
        self.hands[seat].append(card)
        self.leader = trick.leader
        self._pos = self.seats.index(seat)
        return card
