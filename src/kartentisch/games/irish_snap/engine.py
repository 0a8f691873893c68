"""Irish Snap (seed 002, variant; RULINGS.md § Slapjack): the rules engine.

Players turn cards onto a centre pile in turn and call the ranks in a loop:
Ace, 2, 3 … King, Ace … When the card turned is the rank called, everyone
still in the game slaps; the last to slap (or a player who has not slapped
when the slap time-out runs out) takes the pile under their stack. A slap on
a card that does not match its call takes the pile too. After a pickup the
taker plays next and the count restarts at Ace. A player who has played
their last card without having to take the pile is safe; the last player
still holding cards loses.

>>> game = IrishSnapGame.from_tops(["AC", "2D", "7S"], dealer=2)
>>> for text in ["0 s0 turn", "800 s0 slap", "1000 s2 slap", "1001 s1 slap"]:
...     _ = game.apply(game.parse_action(text))
>>> [e.type for e in game.events[1:]]
['card_turned', 'slapped', 'slapped', 'slapped', 'pile_taken']
>>> game.events[-1].seat, game.to_move, game.next_call.name
(1, 1, 'ACE')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from kartentisch.cards import Card, Rank
from kartentisch.engine import Event, event_type
from kartentisch.errors import IllegalActionError
from kartentisch.options import Option, OptionSchema
from kartentisch.realtime.actions import TimedAction
from kartentisch.realtime.base import (
    COMMON_OPTIONS,
    TimedGame,
    TimedObservation,
    TimedOptions,
)

__all__ = [
    "CALLS",
    "CardTurned",
    "GameEnded",
    "IrishSnapGame",
    "IrishSnapObservation",
    "IrishSnapOptions",
    "PileTaken",
    "PlayerSafe",
    "Slapped",
]

#: The calls in order: Ace, 2, 3 … King, then Ace again.
CALLS: Final = (Rank.ACE, *[Rank(v) for v in range(2, 14)])


@dataclass(frozen=True, slots=True)
class IrishSnapOptions(TimedOptions):
    """Irish Snap's rule options (docs/rules/slapjack.md)."""

    #: On a match, whoever has not slapped this many ms after the card counts as last.
    slap_timeout_ms: int = 2000

    title: ClassVar[str] = "Irish Snap"
    schema: ClassVar[OptionSchema] = OptionSchema(
        "Irish Snap",
        (*COMMON_OPTIONS, Option("slap_timeout_ms", "whole", low=250, high=10_000)),
    )


@event_type("card_turned")
class CardTurned(Event):
    t: int
    seat: int
    card: Card
    #: The rank called as the card was turned.
    call: Rank
    #: The card is the rank called: everyone must slap.
    match: bool
    pile: int


@event_type("slapped")
class Slapped(Event):
    """A slap on a match; ``order`` is 1 for the first slap."""

    t: int
    seat: int
    order: int


@event_type("pile_taken")
class PileTaken(Event):
    """``seat`` takes the pile: ``last_slap``, ``too_slow`` (time-out) or ``false_slap``."""

    t: int
    seat: int
    reason: str
    cards: tuple[Card, ...]


@event_type("player_safe")
class PlayerSafe(Event):
    """``seat`` played its last card and did not have to take the pile."""

    t: int
    seat: int


@event_type("game_ended")
class GameEnded(Event):
    t: int
    loser: int
    #: The safe players in the order they got rid of their cards.
    safe: tuple[int, ...]
    cards: tuple[int, ...]


@dataclass(slots=True)
class _Match:
    """An open match: who must slap, who has, and when time runs out."""

    deadline: int
    required: frozenset[int]
    slaps: dict[int, int] = field(default_factory=dict)

    def copy(self) -> _Match:
        return _Match(self.deadline, self.required, dict(self.slaps))


@dataclass(frozen=True, slots=True)
class IrishSnapObservation(TimedObservation):
    """What every seat sees: the pile top, the calls, public counts."""

    #: The rank called for the card on top.
    call: Rank | None
    #: The rank the next card will be called.
    next_call: Rank
    pile_size: int
    turned: int
    stack_sizes: tuple[int, ...]
    safe: tuple[bool, ...]
    #: A match is on the pile and not yet decided.
    match_open: bool
    #: This seat must still slap the match.
    must_slap: bool
    slapped: bool
    deadline: int | None
    over: bool
    loser: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            **TimedObservation.to_dict(self),
            "call": self.call.letter if self.call is not None else None,
            "next_call": self.next_call.letter,
            "pile_size": self.pile_size,
            "turned": self.turned,
            "stack_sizes": list(self.stack_sizes),
            "safe": list(self.safe),
            "match_open": self.match_open,
            "must_slap": self.must_slap,
            "slapped": self.slapped,
            "deadline": self.deadline,
            "over": self.over,
            "loser": self.loser,
        }


class IrishSnapGame(TimedGame[IrishSnapOptions]):
    """A game of Irish Snap from given stacks (top first, by seat) and a dealer."""

    game: ClassVar[str] = "irish-snap"
    options_type: ClassVar[type[TimedOptions]] = IrishSnapOptions

    def __init__(
        self,
        stacks: Sequence[Sequence[Card | str]],
        *,
        dealer: int,
        options: IrishSnapOptions | Mapping[str, Any] | None = None,
        seats: Sequence[str] | None = None,
    ) -> None:
        super().__init__(stacks, dealer=dealer, options=options, seats=seats)
        self._count = 0
        self._safe = [False] * self.options.players
        self._safe_order: list[int] = []
        self._match: _Match | None = None
        self._calls: list[Rank] = []
        self._loser: int | None = None

    # -- state ---------------------------------------------------------------

    @property
    def safe(self) -> tuple[bool, ...]:
        return tuple(self._safe)

    @property
    def safe_order(self) -> tuple[int, ...]:
        """Safe players in the order they got rid of their cards."""
        return tuple(self._safe_order)

    @property
    def loser(self) -> int | None:
        return self._loser

    @property
    def winners(self) -> tuple[int, ...]:
        """Everyone but the loser, once the game is over."""
        if not self._over:
            return ()
        return tuple(s for s in range(self.options.players) if s != self._loser)

    @property
    def next_call(self) -> Rank:
        return CALLS[self._count]

    @property
    def call(self) -> Rank | None:
        """The rank called for the card on top of the pile."""
        return self._calls[-1] if self._pile else None

    @property
    def match_open(self) -> bool:
        return self._match is not None

    @property
    def to_move(self) -> int | None:
        """The seat to turn the next card; None when over or while a match is open."""
        if self._over or self._match is not None:
            return None
        return self._next_holder(self._safe)

    # -- time ----------------------------------------------------------------

    def _deadline(self) -> int | None:
        return self._match.deadline if self._match is not None else None

    def _on_deadline(self, t: int) -> None:
        self._resolve(t)

    # -- rules ---------------------------------------------------------------

    def _check_rules(self, action: TimedAction) -> None:
        seat = action.seat
        if self._safe[seat]:
            raise IllegalActionError("player_safe", "you are safe and out of the game", seat=seat)
        if action.type == "turn":
            if self._match is not None:
                raise IllegalActionError(
                    "slap_pending", "the match on the pile must be slapped first", seat=seat
                )
            self._check_turn(seat)
            return
        if action.call:
            raise IllegalActionError(
                "no_slap_call",
                "Irish Snap has no call on the slap (the ranks are called as cards are turned)",
                seat=seat,
            )
        match = self._match
        if match is not None:
            if seat in match.slaps:
                raise IllegalActionError(
                    "already_slapped", "you have already slapped this card", seat=seat
                )
            return
        if not self._pile:
            self._check_late(action)

    def _act(self, action: TimedAction) -> None:
        seat, t = action.seat, action.t
        if action.type == "turn":
            call = CALLS[self._count]
            self._count = (self._count + 1) % len(CALLS)
            card = self._turn_card(seat, t)
            self._calls.append(call)
            hit = card.rank == call
            self._emit(CardTurned(t, seat, card, call, hit, len(self._pile)))
            if hit:
                required = frozenset(s for s in range(self.options.players) if not self._safe[s])
                self._match = _Match(t + self.options.slap_timeout_ms, required)
            else:
                self._make_safe(t)
            return
        match = self._match
        if match is not None:
            match.slaps[seat] = t
            self._slapped.add(seat)
            self._emit(Slapped(t, seat, len(match.slaps)))
            if match.required <= match.slaps.keys():
                self._resolve(t)
            return
        if not self._pile:
            self._late_slap(action)
            return
        self._slapped.add(seat)
        self._pickup(t, seat, "false_slap")

    def _resolve(self, t: int) -> None:
        match = self._match
        assert match is not None
        self._match = None
        missing = match.required - match.slaps.keys()
        if missing:
            self._pickup(t, max(missing), "too_slow")
        else:
            last = max(match.slaps, key=lambda s: (match.slaps[s], s))
            self._pickup(t, last, "last_slap")

    def _pickup(self, t: int, seat: int, reason: str) -> None:
        cards = self._take_pile(seat)
        self._calls.clear()
        self._count = 0
        self._next = seat
        self._cleared_at = t
        self._emit(PileTaken(t, seat, reason, cards))
        self._make_safe(t)

    def _make_safe(self, t: int) -> None:
        """Players without cards (and no match pending) are safe; the last one in loses."""
        for s in range(self.options.players):
            if not self._safe[s] and not self._stacks[s]:
                self._safe[s] = True
                self._safe_order.append(s)
                self._emit(PlayerSafe(t, s))
        inside = [s for s in range(self.options.players) if not self._safe[s]]
        if len(inside) <= 1:
            loser = inside[0] if inside else self._safe_order[-1]
            self._over = True
            self._loser = loser
            self._emit(GameEnded(t, loser, tuple(self._safe_order), self.stack_sizes()))

    def observation(self, seat: int) -> IrishSnapObservation:
        match = self._match
        return IrishSnapObservation(
            *self._seen_by(seat),
            call=self.call,
            next_call=self.next_call,
            pile_size=len(self._pile),
            turned=self._turned,
            stack_sizes=self.stack_sizes(),
            safe=tuple(self._safe),
            match_open=match is not None,
            must_slap=match is not None and seat in match.required and seat not in match.slaps,
            slapped=seat in self._slapped,
            deadline=match.deadline if match is not None else None,
            over=self._over,
            loser=self._loser,
        )

    def _fork_extra(self, new: IrishSnapGame) -> None:
        new._safe = list(self._safe)
        new._safe_order = list(self._safe_order)
        new._match = self._match.copy() if self._match is not None else None
        new._calls = list(self._calls)
