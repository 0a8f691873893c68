"""One deal of Slobberhannes: the rules engine.

Seeds 000/001 (§ Playing a deal, § Penalties) and RULINGS.md (Slobberhannes):
no trumps, follow suit, the highest card of the suit led wins; the first
trick, the last trick and the trick holding Q♣ each cost a chip the moment
they are won; one player taking all three pays one more; a revoke is refused,
or (option ``revokes: "penalty"``) accepted and charged a chip at the end.

>>> deal = SlobberhannesDeal.from_seed(7, dealer=3)
>>> deal.to_move, len(deal.legal_actions())
(0, 8)
>>> while not deal.is_over:
...     _ = deal.apply(deal.legal_actions()[0])
>>> [(p.seat, p.reason) for p in deal.penalties()]
[(2, 'first_trick'), (2, 'queen_of_clubs'), (2, 'last_trick'), (2, 'all_three')]
>>> deal.points()
(0, 0, 4, 0)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from kartentisch.cards import Card
from kartentisch.dealing import deal_packets, shuffled
from kartentisch.engine import RECORD_FORMAT, Event, GameState
from kartentisch.errors import DealError, IllegalActionError, NotationError
from kartentisch.games.slobberhannes.events import (
    CardPlayed,
    DealEnded,
    DealStarted,
    PenaltyCharged,
    SlobberhannesObservation,
    TrickWon,
)
from kartentisch.games.slobberhannes.options import SlobberhannesOptions
from kartentisch.tricks import PlayedTrick, TrickOrder, TrickPlay

__all__ = [
    "ORDER",
    "QUEEN_OF_CLUBS",
    "CardPlayed",
    "DealEnded",
    "DealStarted",
    "PenaltyCharged",
    "SlobberhannesDeal",
    "SlobberhannesObservation",
    "TrickWon",
]

QUEEN_OF_CLUBS: Final = Card("QC")
#: Seeds 000/001 § The cards: A K Q J 10 9 8 7, no trumps.
ORDER: Final = TrickOrder.plain("A K Q J 10 9 8 7")

#: Penalty reasons, in the order they can be charged within a deal.
REASONS: Final = ("first_trick", "queen_of_clubs", "last_trick", "all_three", "revoke")
#: Given as the hands, makes an empty deal for :meth:`SlobberhannesDeal.copy` to fill
#: (compiled, the class cannot be made without its ``__init__``).
_UNFILLED: Final[list[list[Card]]] = []


def _to_card(value: object) -> Card:
    if isinstance(value, str):
        return Card.parse(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return Card(value)
    raise NotationError(f"{value!r} is not a card; write cards as text such as QC or 10H")


def _seat(dealer: object, n: int) -> int:
    """``dealer`` if it is a seat of an ``n``-seat table, else DealError. (The
    parameters are typed ``object``: compiled, an ``int`` one would take True for 1.)"""
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise DealError(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
    return dealer


def sort_hand(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Display order: ♣ ♠ ♥ ♦, high to low within a suit."""
    return tuple(sorted(cards, key=lambda c: (c.suit, -c.rank)))


class SlobberhannesDeal(GameState[Card]):
    """A deal from given hands (by seat) and a dealer; the dealer's left leads."""

    game: ClassVar[str] = "slobberhannes"

    def __init__(
        self,
        hands: Sequence[Sequence[Card | str]],
        *,
        dealer: object,
        options: SlobberhannesOptions | Mapping[str, Any] | None = None,
        seats: Sequence[str] | None = None,
    ) -> None:
        if hands is _UNFILLED:
            return  # copy() fills it
        if not isinstance(options, SlobberhannesOptions):
            options = SlobberhannesOptions.from_dict(options)
        self.options = options
        n = options.players
        dealer = _seat(dealer, n)
        self.dealer = dealer
        self.seat_names: tuple[str, ...] | None = tuple(seats) if seats is not None else None
        if self.seat_names is not None and len(self.seat_names) != n:
            raise DealError(f"{len(self.seat_names)} seat names given for {n} players")
        self._initial = self._validate_hands(hands)
        leader = (dealer + 1) % n
        self._play = TrickPlay(ORDER, self._initial, range(n), leader)
        self._tricks_total = options.hand_size
        self._penalties = [0] * n
        self._revokes: list[int] = []
        self._penalise_revokes = options.revokes == "penalty"
        self._legal: list[Card] | None = None
        self._actions: list[Card] = []
        self._events: list[Event] = [
            DealStarted(dealer, leader, tuple(len(h) for h in self._initial), options.packets)
        ]

    def _validate_hands(
        self, hands: Sequence[Sequence[Card | str]]
    ) -> tuple[tuple[Card, ...], ...]:
        options = self.options
        n = options.players
        if type(hands) not in (list, tuple) or len(hands) != n:
            raise DealError(f"a {n}-player deal needs {n} hands, one per seat (a list of lists)")
        out: list[tuple[Card, ...]] = []
        size = options.hand_size
        for seat, hand in enumerate(hands):
            if type(hand) not in (list, tuple):
                raise DealError(f"the hand of seat {seat} must be a list of cards")
            try:
                cards = tuple(c if type(c) is Card else _to_card(c) for c in hand)
            except NotationError as exc:
                raise DealError(f"hand of seat {seat}: {exc}") from None
            if len(cards) != size:
                raise DealError(
                    f"seat {seat} holds {len(cards)} cards; with {n} players each holds {size}"
                )
            out.append(cards)
        dealt = {c for h in out for c in h}
        deck = options.deck()
        if len(dealt) != len(deck) or not dealt.issubset(deck):
            seen: set[Card] = set()
            for card in (c for h in out for c in h):
                if card not in deck:
                    raise DealError(
                        f"{card.symbol} is not in the {len(deck)}-card deck for {n} players"
                    )
                if card in seen:
                    raise DealError(f"{card.symbol} is dealt twice")
                seen.add(card)
        return tuple(out)

    @classmethod
    def from_seed(
        cls,
        seed: int | random.Random,
        *,
        dealer: object,
        options: SlobberhannesOptions | Mapping[str, Any] | None = None,
        cut: int | None = None,
        seats: Sequence[str] | None = None,
    ) -> SlobberhannesDeal:
        """Shuffle with ``seed``, optionally cut, and deal in the packets of the rules."""
        if not isinstance(options, SlobberhannesOptions):
            options = SlobberhannesOptions.from_dict(options)
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        deck = shuffled(options.deck(), rng)
        if cut is not None:
            if not 1 <= cut < len(deck):
                raise DealError(f"a cut must leave cards in both packets: 1 to {len(deck) - 1}")
            deck = deck[cut:] + deck[:cut]
        n = options.players
        first = (_seat(dealer, n) + 1) % n
        order = [(first + i) % n for i in range(n)]
        by_seat = deal_packets(deck, order, options.packets)
        return cls([by_seat[s] for s in range(n)], dealer=dealer, options=options, seats=seats)

    # -- the game API -------------------------------------------------------

    @property
    def num_seats(self) -> int:
        return self.options.players

    @property
    def to_move(self) -> int | None:
        return self._play.to_move

    @property
    def is_over(self) -> bool:
        return self._play.to_move is None

    @property
    def leader(self) -> int:
        """The seat that led (or is to lead) the current trick."""
        return self._play.leader

    @property
    def trick_number(self) -> int:
        return len(self._play.tricks) + 1

    @property
    def actions(self) -> Sequence[Card]:
        return self._actions

    @property
    def events(self) -> Sequence[Event]:
        return self._events

    @property
    def initial_hands(self) -> tuple[tuple[Card, ...], ...]:
        return self._initial

    @property
    def tricks(self) -> tuple[PlayedTrick, ...]:
        """The completed tricks, in order."""
        return tuple(t.freeze() for t in self._play.tricks)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The unplayed cards of ``seat`` (the engine's omniscient view)."""
        return sort_hand(self._play.hands[seat])

    def legal_actions(self) -> list[Card]:
        legal = self._legal
        if legal is None:
            play = self._play
            seat = play.to_move
            if seat is None:
                legal = []
            elif self._penalise_revokes:
                legal = list(play.hands[seat])
            else:
                legal = ORDER.playable(play.hands[seat], play.led_suit)
            self._legal = legal
        return list(legal)

    def following_actions(self) -> list[Card]:
        """The cards that follow suit (the same as legal unless revokes are penalised)."""
        play = self._play
        seat = play.to_move
        if seat is None:
            return []
        return ORDER.playable(play.hands[seat], play.led_suit)

    def check(self, action: object, seat: int | None = None) -> None:
        # (``action`` is typed ``object``: compiled, any other type would be refused
        # with a TypeError before the rules could name it.)
        if not isinstance(action, Card):
            raise IllegalActionError(
                "unknown_action", f"a Slobberhannes action is a card, not {action!r}", seat=seat
            )
        play = self._play
        if play.to_move is None:
            raise IllegalActionError("deal_over", "the deal is over", seat=seat, action=action)
        self._play.check(
            play.to_move if seat is None else seat,
            action,
            must_follow=self.options.revokes == "forbidden",
        )

    def apply(self, action: object, seat: int | None = None) -> list[Event]:
        play = self._play
        mover = play.to_move
        # Fast path: the legal actions are known and hold this card.
        legal = self._legal
        if (
            legal is None
            or type(action) is not Card
            or action not in legal
            or (seat is not None and seat != mover)
        ):
            self.check(action, seat)
        assert mover is not None and isinstance(action, Card)
        self._legal = None
        trick_no = len(play.tricks) + 1
        revoke = self._penalise_revokes and play.is_revoke(mover, action)
        if revoke:
            self._revokes.append(mover)
        done = play.play(mover, action)
        self._actions.append(action)
        new: list[Event] = [CardPlayed(mover, action, trick_no, revoke)]
        if done is not None:
            assert done.winner is not None
            new.append(TrickWon(trick_no, done.winner, tuple(done.cards)))
            new.extend(self._trick_penalties(trick_no, done.winner, done.cards))
        self._events.extend(new)
        return new

    def _charge(self, seat: int, reason: str, trick: int | None) -> PenaltyCharged:
        self._penalties[seat] += 1
        return PenaltyCharged(seat, reason, 1, trick)

    def _trick_penalties(self, trick_no: int, winner: int, cards: Sequence[Card]) -> list[Event]:
        out: list[Event] = []
        if trick_no == 1:
            out.append(self._charge(winner, "first_trick", trick_no))
        if QUEEN_OF_CLUBS in cards:
            out.append(self._charge(winner, "queen_of_clubs", trick_no))
        if trick_no == self._tricks_total:
            out.append(self._charge(winner, "last_trick", trick_no))
            if self.options.all_three_bonus:
                # Counted by events: the same seat took the first trick, Q♣ and the last.
                takers = {(e.reason, e.seat) for e in self._events if isinstance(e, PenaltyCharged)}
                takers.update((e.reason, e.seat) for e in out if isinstance(e, PenaltyCharged))
                if all((r, winner) in takers for r in REASONS[:3]):
                    out.append(self._charge(winner, "all_three", trick_no))
            for seat in self._revokes:
                out.append(self._charge(seat, "revoke", None))
            out.append(DealEnded(tuple(self._penalties)))
        return out

    def parse_action(self, text: str) -> Card:
        return Card.parse(text)

    def format_action(self, action: Card) -> str:
        return str(action)

    def points(self) -> tuple[int, ...]:
        """Penalty chips paid by each seat in this deal so far."""
        return tuple(self._penalties)

    def penalties(self) -> list[PenaltyCharged]:
        return [e for e in self._events if isinstance(e, PenaltyCharged)]

    def observation(self, seat: int) -> SlobberhannesObservation:
        if not 0 <= seat < self.options.players:
            raise ValueError(f"no seat {seat} at a {self.options.players}-player table")
        play = self._play
        to_move = play.to_move
        return SlobberhannesObservation(
            seat=seat,
            players=self.options.players,
            dealer=self.dealer,
            hand=sort_hand(play.hands[seat]),
            to_move=to_move,
            legal_actions=tuple(self.legal_actions()) if to_move == seat else (),
            trick=play.trick.freeze(),
            tricks=tuple(t.freeze() for t in play.tricks),
            hand_sizes=tuple(len(h) for h in play.hands),
            penalties=tuple(self._penalties),
            tricks_per_deal=self._tricks_total,
            options=self.options,
        )

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "options": self.options.to_dict(),
        }
        if self.seat_names is not None:
            record["seats"] = list(self.seat_names)
        record.update(self.deal_record())
        return record

    def deal_record(self) -> dict[str, Any]:
        """The per-deal part of a record: dealer, hands by seat, actions."""
        return {
            "dealer": self.dealer,
            "hands": [[str(c) for c in h] for h in self._initial],
            "actions": [str(a) for a in self._actions],
        }

    def copy(self) -> SlobberhannesDeal:
        """An independent copy (for search); events and actions are copied too."""
        new = SlobberhannesDeal(_UNFILLED, dealer=0)
        new.options = self.options
        new.dealer = self.dealer
        new.seat_names = self.seat_names
        new._initial = self._initial
        new._play = self._play.copy()
        new._tricks_total = self._tricks_total
        new._penalties = list(self._penalties)
        new._revokes = list(self._revokes)
        new._penalise_revokes = self._penalise_revokes
        new._legal = self._legal
        new._actions = list(self._actions)
        new._events = list(self._events)
        return new
