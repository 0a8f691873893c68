"""What Slapjack and Irish Snap share: stacks, a centre pile, timed actions.

A :class:`TimedGame` is a pure state machine. It accepts
:class:`~kartentisch.realtime.actions.TimedAction` objects in order of
``(t, seat)`` (time never runs backwards; at the same millisecond the lower
seat comes first) and decides every window, who was first or last, and every
tie from that list alone, so a record replays exactly. Time passing is not an
action: :meth:`TimedGame.advance` lets the clock run and closes the windows
whose time is up (an action does the same for its own time first).
:meth:`TimedGame.check` never changes the state, even when it has to look at
the state after a window has closed.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from abc import abstractmethod
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Generic, Self, TypeVar, cast

from kartentisch.cards import Card, full_deck, shuffled
from kartentisch.engine import RECORD_FORMAT, Event, GameState, event_type
from kartentisch.errors import DealError, IllegalActionError, NotationError, OptionError
from kartentisch.options import Option, OptionSchema
from kartentisch.realtime.actions import TimedAction

__all__ = [
    "DECK_SIZE",
    "GameStarted",
    "LateSlap",
    "TimedGame",
    "TimedObservation",
    "TimedOptions",
    "deal_sizes",
    "deal_stacks",
    "stacks_with_tops",
]

DECK_SIZE: Final = 52
#: The options every real-time game has, in each game's schema
#: (:attr:`TimedOptions.schema`): its players, and the window of a harmless late slap.
COMMON_OPTIONS: Final = (
    Option("players", "whole", low=2, high=10),
    Option("late_ms", "whole", low=0, high=2000),
)


@dataclass(frozen=True, slots=True)
class TimedOptions:
    """Options every real-time game has; games subclass this with their own."""

    #: How many players, 2 to 10.
    players: int = 4
    #: A slap within this many ms after the pile was taken, on the now empty
    #: pile, is a harmless late slap (the hand that lands on top), not refused.
    late_ms: int = 200

    title: ClassVar[str] = "real-time game"
    #: Every option of the game, its names, type and range (:mod:`kartentisch.options`).
    schema: ClassVar[OptionSchema] = OptionSchema("real-time game", COMMON_OPTIONS)

    def __post_init__(self) -> None:
        self.schema.validate(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None = None, **overrides: Any) -> Self:
        """Options from a record's ``options`` object; omitted options take their defaults."""
        if data is not None and not isinstance(data, Mapping):
            raise OptionError(
                "options must be a JSON object of option names and values", "not_object"
            )
        merged = {**(data or {}), **overrides}
        return cls(**cls.schema.read(merged))

    def to_dict(self) -> dict[str, Any]:
        """Every option that differs from its default, and always ``players``."""
        out: dict[str, Any] = {"players": self.players}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name != "players" and value != f.default:
                out[f.name] = value
        return out


def deal_sizes(players: int, dealer: int) -> list[int]:
    """Cards per seat when 52 are dealt one at a time from the dealer's left.

    >>> deal_sizes(3, 2), deal_sizes(5, 0)
    ([18, 17, 17], [10, 11, 11, 10, 10])
    """
    sizes = [DECK_SIZE // players] * players
    for i in range(DECK_SIZE % players):
        sizes[(dealer + 1 + i) % players] += 1
    return sizes


def deal_stacks(deck: Sequence[Card], players: int, dealer: int) -> list[list[Card]]:
    """Deal ``deck`` one card at a time clockwise from the dealer's left.

    Each card lands face down on its owner's stack, so a stack (listed top
    first) holds its cards in the reverse order of dealing.
    """
    received: list[list[Card]] = [[] for _ in range(players)]
    for i, card in enumerate(deck):
        received[(dealer + 1 + i) % players].append(card)
    return [r[::-1] for r in received]


@event_type("game_started")
class GameStarted(Event):
    dealer: int
    first: int
    stack_sizes: tuple[int, ...]


@event_type("late_slap")
class LateSlap(Event):
    """A slap just after the pile was taken: the hand lands on top, nothing happens."""

    t: int
    seat: int


@dataclass(frozen=True, slots=True)
class TimedObservation:
    """What every seat sees in every timed game; each game adds its own fields."""

    seat: int
    players: int
    clock: int
    to_move: int | None
    top: Card | None
    #: Who turned the top card.
    top_seat: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": self.players,
            "clock": self.clock,
            "to_move": self.to_move,
            "top": str(self.top) if self.top is not None else None,
            "top_seat": self.top_seat,
        }


#: The fields of :class:`TimedObservation`, in order.
_SeenByAll = tuple[int, int, int, int | None, Card | None, int | None]


def _to_card(value: object) -> Card:
    if isinstance(value, str):
        return Card.parse(value)
    raise NotationError(f"{value!r} is not a card; write cards as text such as QC or 10H")


OptionsT = TypeVar("OptionsT", bound=TimedOptions)


class TimedGame(GameState[TimedAction], Generic[OptionsT]):
    """A game of stacks and a centre pile, driven by timestamped actions.

    A game subclasses ``TimedGame[ItsOptions]`` and names ``ItsOptions`` in
    :attr:`options_type`: options may then be given as that class, as a
    mapping of option names (read with :meth:`TimedOptions.from_dict`) or as
    None (all defaults).
    """

    game: ClassVar[str]
    #: The game's options class (the ``OptionsT`` the game subclasses with).
    options_type: ClassVar[type[TimedOptions]]
    options: OptionsT

    def __init__(
        self,
        stacks: Sequence[Sequence[Card | str]],
        *,
        dealer: int,
        options: OptionsT | Mapping[str, Any] | None = None,
        seats: Sequence[str] | None = None,
    ) -> None:
        self.options = self._read_options(options)
        n = self.options.players
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise DealError(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        self.dealer = dealer
        self.seat_names: tuple[str, ...] | None = tuple(seats) if seats is not None else None
        if self.seat_names is not None and len(self.seat_names) != n:
            raise DealError(f"{len(self.seat_names)} seat names given for {n} players")
        self._initial = _validate_stacks(stacks, n, dealer)
        self._stacks: list[deque[Card]] = [deque(s) for s in self._initial]
        self._pile: list[Card] = []
        self._owners: list[int] = []
        self._clock = 0
        self._last: tuple[int, int] = (-1, -1)
        self._actions: list[TimedAction] = []
        self._events: list[Event] = []
        self._new: list[Event] = []
        self._over = False
        self._turned = 0
        self._last_turner: int | None = None
        self._next = (dealer + 1) % n
        #: Seats that slapped the card on top (or the pile just taken).
        self._slapped: set[int] = set()
        #: When the pile was last taken (late slaps are harmless until late_ms after).
        self._cleared_at: int | None = None
        self._emit(GameStarted(dealer, self._next, tuple(len(s) for s in self._initial)))

    @classmethod
    def _read_options(
        cls, options: OptionsT | Mapping[str, Any] | None, *, players: int | None = None
    ) -> OptionsT:
        """``options`` as the game's options class (see the class docstring).

        ``players``, if given, is the number of players where a mapping (or
        None) names none.
        """
        if isinstance(options, cls.options_type):
            return options
        data: Any = options  # a mapping or None; from_dict refuses anything else
        if players is not None:
            data = {"players": players, **(data or {})}
        # options_type is the class OptionsT stands for: a ClassVar cannot say so.
        return cast(OptionsT, cls.options_type.from_dict(data))

    @classmethod
    def from_seed(
        cls,
        seed: int | random.Random,
        *,
        dealer: int | None = None,
        options: OptionsT | Mapping[str, Any] | None = None,
        seats: Sequence[str] | None = None,
    ) -> Self:
        """Shuffle with ``seed`` and deal; without ``dealer`` the dealer is drawn at random."""
        read = cls._read_options(options)
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        n = read.players
        if dealer is None:
            dealer = rng.randrange(n)
        deck = shuffled(full_deck(), rng)
        return cls(deal_stacks(deck, n, dealer), dealer=dealer, options=read, seats=seats)

    @classmethod
    def from_tops(
        cls,
        tops: Sequence[Card | str | Sequence[Card | str]],
        *,
        dealer: int,
        options: OptionsT | Mapping[str, Any] | None = None,
        seats: Sequence[str] | None = None,
    ) -> Self:
        """A deal whose stacks start with ``tops`` (a card or a list per seat),
        the rest of the deck dealt in deck order (for examples and tests).

        Without a ``players`` option there are as many players as ``tops``.
        """
        read = cls._read_options(options, players=len(tops))
        return cls(
            stacks_with_tops(tops, read.players, dealer),
            dealer=dealer,
            options=read,
            seats=seats,
        )

    # -- hooks for the games -------------------------------------------------

    @abstractmethod
    def _deadline(self) -> int | None:
        """The game time of the next event that time alone triggers, if any."""

    @abstractmethod
    def _on_deadline(self, t: int) -> None:
        """Carry out what happens at deadline ``t``."""

    @abstractmethod
    def _check_rules(self, action: TimedAction) -> None:
        """Raise if the rules refuse ``action`` now (time and order are already checked)."""

    @abstractmethod
    def _act(self, action: TimedAction) -> None:
        """Carry out a checked action; emit its events."""

    # -- shared machinery ----------------------------------------------------

    def _emit(self, event: Event) -> None:
        self._events.append(event)
        self._new.append(event)

    def _advance(self, t: int) -> None:
        while not self._over:
            due = self._deadline()
            if due is None or due > t:
                break
            self._clock = max(self._clock, due)
            self._on_deadline(due)
        if not self._over and t > self._clock:
            self._clock = t

    def _fork(self) -> Self:
        new = copy.copy(self)
        new._stacks = [deque(s) for s in self._stacks]
        new._pile = list(self._pile)
        new._owners = list(self._owners)
        new._actions = list(self._actions)
        new._events = list(self._events)
        new._new = []
        new._slapped = set(self._slapped)
        self._fork_extra(new)
        return new

    def _fork_extra(self, new: Self) -> None:
        """Copy the game's own mutable fields into ``new`` (a shallow copy)."""

    def _check_late(self, action: TimedAction) -> None:
        """A slap on the empty pile: harmless if late enough, refused otherwise."""
        if action.seat in self._slapped:
            raise IllegalActionError(
                "already_slapped", "you have already slapped this pile", seat=action.seat
            )
        if self._cleared_at is None or action.t > self._cleared_at + self.options.late_ms:
            raise IllegalActionError(
                "empty_pile", "there is no card on the pile to slap", seat=action.seat
            )

    def _late_slap(self, action: TimedAction) -> None:
        self._slapped.add(action.seat)
        self._emit(LateSlap(action.t, action.seat))

    def _take_pile(self, seat: int) -> tuple[Card, ...]:
        """The whole pile goes face down under ``seat``'s stack, unshuffled."""
        cards = tuple(self._pile)
        self._stacks[seat].extend(cards)
        self._pile.clear()
        self._owners.clear()
        return cards

    def _next_holder(self, skipped: Sequence[bool]) -> int | None:
        """The first seat from the one due next on that holds cards and is not ``skipped``."""
        n = self.options.players
        for i in range(n):
            s = (self._next + i) % n
            if self._stacks[s] and not skipped[s]:
                return s
        return None

    def _check_turn(self, seat: int) -> None:
        """Refuse a turn by ``seat`` unless it is :attr:`to_move`."""
        mover = self.to_move
        if seat != mover:
            raise IllegalActionError(
                "not_your_turn", "it is not your turn to turn a card", seat=seat, to_move=mover
            )

    def _seen_by(self, seat: int) -> _SeenByAll:
        """The fields of ``seat``'s :class:`TimedObservation`, in order.

        Raises ValueError unless ``seat`` is a seat at this table.
        """
        n = self.options.players
        if not 0 <= seat < n:
            raise ValueError(f"no seat {seat} at a {n}-player table")
        return (seat, n, self._clock, self.to_move, self.top, self.top_seat)

    def _turn_card(self, seat: int, t: int) -> Card:
        card = self._stacks[seat].popleft()
        self._pile.append(card)
        self._owners.append(seat)
        self._last_turner = seat
        self._next = (seat + 1) % self.options.players
        self._slapped = set()
        self._cleared_at = None
        self._turned += 1
        return card

    # -- the game API --------------------------------------------------------

    @property
    def num_seats(self) -> int:
        return self.options.players

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def clock(self) -> int:
        """The game time in ms: the latest action or :meth:`advance`."""
        return self._clock

    @property
    def actions(self) -> Sequence[TimedAction]:
        return self._actions

    @property
    def events(self) -> Sequence[Event]:
        return self._events

    @property
    def initial_stacks(self) -> tuple[tuple[Card, ...], ...]:
        return self._initial

    @property
    def pile(self) -> tuple[Card, ...]:
        """The centre pile, bottom first (the last card is on top, face up)."""
        return tuple(self._pile)

    @property
    def top(self) -> Card | None:
        return self._pile[-1] if self._pile else None

    @property
    def top_seat(self) -> int | None:
        """Who turned the card on top of the pile (None when the pile is empty)."""
        return self._owners[-1] if self._owners else None

    @property
    def turned(self) -> int:
        """How many cards have been turned so far (numbers each card turned)."""
        return self._turned

    @property
    def last_turner(self) -> int | None:
        return self._last_turner

    def stack(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s face-down stack, top first (the engine's omniscient view)."""
        return tuple(self._stacks[seat])

    def stack_sizes(self) -> tuple[int, ...]:
        return tuple(len(s) for s in self._stacks)

    def card_count(self) -> int:
        """Cards in all stacks and the pile: always 52."""
        return sum(len(s) for s in self._stacks) + len(self._pile)

    def points(self) -> tuple[int, ...]:
        """The cards each seat holds (its stack)."""
        return self.stack_sizes()

    def next_time(self, seat: int, t: int | None = None) -> int:
        """The earliest time from ``t`` (default: the clock) at which ``seat`` may act.

        At the millisecond of the last action a lower seat must wait 1 ms.
        """
        t = self._clock if t is None else max(t, self._clock)
        if (t, seat) < self._last:
            t = self._last[0] + 1
        return t

    def check(self, action: TimedAction, seat: int | None = None) -> None:
        if not isinstance(action, TimedAction):
            raise IllegalActionError(
                "unknown_action", f"an action is a TimedAction, not {action!r}", seat=seat
            )
        if seat is not None and seat != action.seat:
            raise IllegalActionError(
                "wrong_seat", f"this is seat {action.seat}'s action, not seat {seat}'s", seat=seat
            )
        if action.seat >= self.options.players:
            raise IllegalActionError(
                "no_such_seat",
                f"there is no seat {action.seat} at a {self.options.players}-player table",
                seat=action.seat,
            )
        if self._over:
            raise IllegalActionError("game_over", "the game is over", seat=action.seat)
        if action.t < self._clock:
            raise IllegalActionError(
                "out_of_time_order",
                f"{action.t} ms is before the game clock ({self._clock} ms)",
                seat=action.seat,
            )
        if action.key < self._last:
            raise IllegalActionError(
                "out_of_time_order",
                f"at {action.t} ms seat {action.seat} would come before seat {self._last[1]} "
                "(at the same millisecond the lower seat comes first)",
                seat=action.seat,
            )
        state = self
        due = self._deadline()
        if due is not None and due <= action.t:
            state = self._fork()
            state._advance(action.t)
            if state._over:
                raise IllegalActionError("game_over", "the game is over", seat=action.seat)
        state._check_rules(action)

    def apply(self, action: TimedAction, seat: int | None = None) -> list[Event]:
        self.check(action, seat)
        self._new = []
        self._advance(action.t)
        self._clock = action.t
        self._last = action.key
        self._actions.append(action)
        self._act(action)
        return self._new

    def advance(self, t: int) -> list[Event]:
        """Let game time run to ``t``: windows whose time is up close; returns the events.

        Going back in time does nothing. The result depends only on ``t``,
        not on how often time was advanced before.
        """
        self._new = []
        self._advance(t)
        return self._new

    def legal_actions(self) -> list[TimedAction]:
        """Every action some seat may take now, each at its :meth:`next_time`."""
        if self._over:
            return []
        out: list[TimedAction] = []
        mover = self.to_move
        if mover is not None:
            turn = TimedAction(self.next_time(mover), mover, "turn")
            if self.can(turn):
                out.append(turn)
        for s in range(self.options.players):
            t = self.next_time(s)
            for call in (False, True):
                slap = TimedAction(t, s, "slap", call)
                if self.can(slap):
                    out.append(slap)
        return out

    def parse_action(self, text: str) -> TimedAction:
        return TimedAction.parse(text)

    def format_action(self, action: TimedAction) -> str:
        return str(action)

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "options": self.options.to_dict(),
        }
        if self.seat_names is not None:
            record["seats"] = list(self.seat_names)
        record["dealer"] = self.dealer
        record["hands"] = [[str(c) for c in s] for s in self._initial]
        record["actions"] = [str(a) for a in self._actions]
        record["clock"] = self._clock
        return record


def _validate_stacks(
    stacks: Sequence[Sequence[Card | str]], n: int, dealer: int
) -> tuple[tuple[Card, ...], ...]:
    if type(stacks) not in (list, tuple) or len(stacks) != n:
        raise DealError(f"a {n}-player game needs {n} stacks, one per seat (a list of lists)")
    sizes = deal_sizes(n, dealer)
    out: list[tuple[Card, ...]] = []
    seen: set[Card] = set()
    for seat, stack in enumerate(stacks):
        if type(stack) not in (list, tuple):
            raise DealError(f"the stack of seat {seat} must be a list of cards")
        try:
            cards = tuple(c if type(c) is Card else _to_card(c) for c in stack)
        except NotationError as exc:
            raise DealError(f"stack of seat {seat}: {exc}") from None
        if len(cards) != sizes[seat]:
            raise DealError(
                f"seat {seat} holds {len(cards)} cards; dealt one at a time from the "
                f"dealer's left, seat {seat} gets {sizes[seat]}"
            )
        for card in cards:
            if card in seen:
                raise DealError(f"{card.symbol} is dealt twice")
            seen.add(card)
        out.append(cards)
    if len(seen) != len(full_deck()):
        raise DealError("the stacks must hold the 52 cards of the deck")
    return tuple(out)


def stacks_with_tops(
    tops: Sequence[Card | str | Sequence[Card | str]], players: int, dealer: int
) -> list[list[Card]]:
    """Stacks of the dealt sizes that start with the given cards, seat by seat.

    ``tops[seat]`` is one card or a list of cards (top first); the remaining
    cards of the deck follow in deck order (A♣ K♣ … 2♦), seat by seat.

    >>> [s[:2] for s in stacks_with_tops(["5C", ["KD", "JH"]], 2, 0)]
    [[Card('5C'), Card('AC')], [Card('KD'), Card('JH')]]
    """
    if len(tops) > players:
        raise ValueError(f"{len(tops)} stacks given for {players} players")
    firsts: list[list[Card]] = []
    for entry in tops:
        items = [entry] if isinstance(entry, str | Card) else list(entry)
        firsts.append([c if isinstance(c, Card) else Card.parse(c) for c in items])
    given = [c for f in firsts for c in f]
    if len(set(given)) != len(given):
        raise ValueError("a card is given twice")
    rest = [c for c in full_deck() if c not in set(given)]
    out: list[list[Card]] = []
    for seat, size in enumerate(deal_sizes(players, dealer)):
        stack = list(firsts[seat]) if seat < len(firsts) else []
        if len(stack) > size:
            raise ValueError(f"seat {seat} is dealt {size} cards, not {len(stack)}")
        while len(stack) < size:
            stack.append(rest.pop(0))
        out.append(stack)
    return out
