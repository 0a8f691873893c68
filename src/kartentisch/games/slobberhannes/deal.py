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
from kartentisch.dealing import shuffled
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
#: Given as the hands, makes an empty deal for :meth:`SlobberhannesDeal.copy` and
#: :meth:`SlobberhannesDeal.from_seed` to fill (compiled, the class cannot be made
#: without its ``__init__``).
_UNFILLED: Final[list[list[Card]]] = []


class _Rules:
    """What a deal reads from its options, read once per options object: the
    options are frozen, so the values cannot change while the object lives."""

    __slots__ = (
        "all_three",
        "deck",
        "hand_size",
        "options",
        "packets",
        "penalise_revokes",
        "players",
        "seats",
    )

    def __init__(self, options: SlobberhannesOptions) -> None:
        self.options = options
        self.players: int = options.players
        self.hand_size: int = options.hand_size
        self.packets: tuple[int, ...] = options.packets
        self.deck: tuple[Card, ...] = options.deck()
        self.penalise_revokes: bool = options.revokes == "penalty"
        self.all_three: bool = options.all_three_bonus
        self.seats: tuple[int, ...] = tuple(range(self.players))


#: By ``id`` of the options; an entry keeps its options alive, so the ``id`` is
#: not reused while the entry exists (checked by identity all the same).
_RULES: Final[dict[int, _Rules]] = {}


def _rules(options: SlobberhannesOptions) -> _Rules:
    rules = _RULES.get(id(options))
    if rules is None or rules.options is not options:
        if len(_RULES) >= 64:
            _RULES.clear()
        rules = _RULES[id(options)] = _Rules(options)
    return rules


#: The events of cards played are values: one shared instance per trick, seat,
#: revoke and card, made when first needed and kept by
#: ``((trick * 8 + seat) * 2 + revoke) * 52 + card`` (tricks 1–10, seats 0–6).
_CARD_PLAYED: Final[list[CardPlayed | None]] = [None] * (11 * 8 * 2 * 52)


def _card_played(seat: int, card: Card, trick: int, revoke: bool) -> CardPlayed:
    c: int = card
    key = ((trick * 8 + seat) * 2 + (1 if revoke else 0)) * 52 + c
    if key >= len(_CARD_PLAYED):  # (beyond any deal: not kept)
        return CardPlayed(seat, card, trick, revoke)
    event = _CARD_PLAYED[key]
    if event is None:
        event = _CARD_PLAYED[key] = CardPlayed(seat, card, trick, revoke)
    return event


#: Penalties are values too: by ``(trick * 8 + seat) * 5 + reason`` (the index in
#: :data:`REASONS`; trick 0 for a revoke's, which has no trick).
_PENALTIES: Final[list[PenaltyCharged | None]] = [None] * (11 * 8 * 5)


def _penalty(seat: int, reason: int, trick: int | None) -> PenaltyCharged:
    key = ((0 if trick is None else trick) * 8 + seat) * 5 + reason
    if key >= len(_PENALTIES):
        return PenaltyCharged(seat, REASONS[reason], 1, trick)
    event = _PENALTIES[key]
    if event is None:
        event = _PENALTIES[key] = PenaltyCharged(seat, REASONS[reason], 1, trick)
    return event


#: ``DealStarted`` of a deal of full hands, by ``players * 8 + dealer``.
_DEAL_STARTED: Final[list[DealStarted | None]] = [None] * (8 * 8)


def _deal_started(rules: _Rules, dealer: int, leader: int) -> DealStarted:
    key = rules.players * 8 + dealer
    event = _DEAL_STARTED[key]
    if event is None:
        sizes = (rules.hand_size,) * rules.players
        event = _DEAL_STARTED[key] = DealStarted(dealer, leader, sizes, rules.packets)
    return event


def _trick_won(trick: int, seat: int, cards: tuple[Card, ...]) -> TrickWon:
    """``TrickWon(trick, seat, cards)``, its fields set as its generated ``__init__``
    sets them (a frozen dataclass's): compiled, this runs natively, where that
    ``__init__`` would run as Python, once a trick."""
    event: TrickWon = object.__new__(TrickWon)
    object.__setattr__(event, "trick", trick)
    object.__setattr__(event, "seat", seat)
    object.__setattr__(event, "cards", cards)
    return event


def _deal_ended(points: tuple[int, ...]) -> DealEnded:
    """``DealEnded(points)``, made as :func:`_trick_won` makes its event."""
    event: DealEnded = object.__new__(DealEnded)
    object.__setattr__(event, "points", points)
    return event


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


def _seat_names(seats: Sequence[str] | None, n: int) -> tuple[str, ...] | None:
    """The seat names as a tuple (None if not given), else DealError if not ``n``."""
    if seats is None:
        return None
    names = tuple(seats)
    if len(names) != n:
        raise DealError(f"{len(names)} seat names given for {n} players")
    return names


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
            return  # copy() or from_seed() fills it
        if not isinstance(options, SlobberhannesOptions):
            options = SlobberhannesOptions.from_dict(options)
        self.options = options
        dealer = _seat(dealer, options.players)
        names = _seat_names(seats, options.players)
        self._start(self._validate_hands(hands), dealer, _rules(options), names)

    def _start(
        self,
        initial: tuple[tuple[Card, ...], ...],
        dealer: int,
        rules: _Rules,
        seat_names: tuple[str, ...] | None,
    ) -> None:
        """Set up the deal from hands already checked (or dealt by the engine)."""
        n = rules.players
        self.options = rules.options
        self.dealer = dealer
        self.seat_names: tuple[str, ...] | None = seat_names
        self._initial = initial
        leader = (dealer + 1) % n
        self._play = TrickPlay(ORDER, initial, rules.seats, leader)
        self._tricks_total = rules.hand_size
        self._penalties = [0] * n
        self._revokes: list[int] = []
        self._penalise_revokes = rules.penalise_revokes
        self._all_three = rules.all_three
        #: Who took the first trick and who Q♣ (-1: not yet), for the all-three chip.
        self._first_taker = -1
        self._queen_taker = -1
        self._legal: list[Card] | None = None
        self._actions: list[Card] = []
        self._events: list[Event] = [_deal_started(rules, dealer, leader)]

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
        rules = _rules(options)
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        deck = shuffled(rules.deck, rng)
        if cut is not None:
            if not 1 <= cut < len(deck):
                raise DealError(f"a cut must leave cards in both packets: 1 to {len(deck) - 1}")
            deck = deck[cut:] + deck[:cut]
        n = rules.players
        seat = _seat(dealer, n)
        names = _seat_names(seats, n)
        # Dealt here from the whole deck, so the hands need no checking: in packets
        # from the dealer's left, as deal_packets deals them.
        hands: list[list[Card]] = [[] for _ in range(n)]
        pos = 0
        for size in rules.packets:
            for i in range(1, n + 1):
                hands[(seat + i) % n].extend(deck[pos : pos + size])
                pos += size
        deal = cls(_UNFILLED, dealer=0)
        deal._start(tuple([tuple(h) for h in hands]), seat, rules, names)
        return deal

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
                # (A hand holds each card once: the trick play's playable cards are
                # ORDER.playable's, found without calls when compiled.)
                legal = play.playable(seat)
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
        new: list[Event] = [_card_played(mover, action, trick_no, revoke)]
        if done is not None:
            winner = done.winner
            assert winner is not None
            cards = tuple(done.cards)
            new.append(_trick_won(trick_no, winner, cards))
            self._trick_penalties(new, trick_no, winner, cards)
        self._events.extend(new)
        return new

    def _charge(self, seat: int, reason: int, trick: int | None) -> PenaltyCharged:
        """Charge ``seat`` a chip for ``REASONS[reason]``."""
        self._penalties[seat] += 1
        return _penalty(seat, reason, trick)

    def _trick_penalties(
        self, out: list[Event], trick_no: int, winner: int, cards: tuple[Card, ...]
    ) -> None:
        """Append the chips the trick just won costs (and the deal's end, after the last)."""
        if trick_no == 1:
            self._first_taker = winner
            out.append(self._charge(winner, 0, trick_no))
        if QUEEN_OF_CLUBS in cards:
            self._queen_taker = winner
            out.append(self._charge(winner, 1, trick_no))
        if trick_no == self._tricks_total:
            out.append(self._charge(winner, 2, trick_no))
            # The same seat took the first trick, Q♣ and the last.
            if self._all_three and self._first_taker == winner == self._queen_taker:
                out.append(self._charge(winner, 3, trick_no))
            for seat in self._revokes:
                out.append(self._charge(seat, 4, None))
            out.append(_deal_ended(tuple(self._penalties)))

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
        new._all_three = self._all_three
        new._first_taker = self._first_taker
        new._queen_taker = self._queen_taker
        new._legal = self._legal
        new._actions = list(self._actions)
        new._events = list(self._events)
        return new
