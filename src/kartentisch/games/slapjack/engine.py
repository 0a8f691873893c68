"""Slapjack (seed 002, RULINGS.md § Slapjack): the rules engine.

Players turn the top card of their face-down stack onto a centre pile in
turn. A jack opens a slap window that the next card closes; the first slap
on it wins the pile, which goes face down under the winner's stack
(unshuffled), and the winner's left neighbour plays next. A slap on any other
card is a false slap: the slapper's top card goes to the player who turned
the slapped card. Players without cards are skipped but may slap back in on
the next jack. Options: a time limit (most cards wins) and the call
"Slapjack!" (a slap without it, or a false slap, splits the pile among the
others).

The seed's example: Anna turns 5♣, Ben K♦, Carla J♠; Ben slaps first,
Carla's hand lands on his. Ben takes the three cards; his left neighbour
(Carla) plays next.

>>> game = SlapjackGame.from_tops(["5C", "KD", "JS"], dealer=2, seats=["Anna", "Ben", "Carla"])
>>> for text in ["0 s0 turn", "900 s1 turn", "1800 s2 turn", "2150 s1 slap", "2190 s2 slap"]:
...     _ = game.apply(game.parse_action(text))
>>> [e.type for e in game.events[-2:]]
['pile_won', 'late_slap']
>>> game.events[-2].cards, game.to_move, game.stack_sizes()
((Card('5C'), Card('KD'), Card('JS')), 2, (17, 19, 16))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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
    "CardGiven",
    "CardTurned",
    "GameEnded",
    "OutOfCards",
    "PileSplit",
    "PileTurnedOver",
    "PileWon",
    "PlayerOut",
    "SlapjackGame",
    "SlapjackObservation",
    "SlapjackOptions",
]

#: The time limit's range (variant "Zeitlimit"): 10 s to an hour.
MIN_TIME_LIMIT_MS: Final = 10_000
MAX_TIME_LIMIT_MS: Final = 3_600_000


@dataclass(frozen=True, slots=True)
class SlapjackOptions(TimedOptions):
    """Slapjack's rule options (docs/rules/slapjack.md)."""

    #: Variant "Ansagen": a slap must come with the call "Slapjack!".
    call: bool = False
    #: Variant "Zeitlimit": the game ends after this many ms; most cards wins.
    time_limit_ms: int | None = None

    title: ClassVar[str] = "Slapjack"
    schema: ClassVar[OptionSchema] = OptionSchema(
        "Slapjack",
        (
            *COMMON_OPTIONS,
            Option("call", "flag"),
            # The lobby sends it as ``time_limit``, in whole minutes.
            Option(
                "time_limit_ms",
                "whole",
                low=MIN_TIME_LIMIT_MS,
                high=MAX_TIME_LIMIT_MS,
                nullable=True,
                units={"time_limit": 60_000},
            ),
        ),
    )


@event_type("card_turned")
class CardTurned(Event):
    t: int
    seat: int
    card: Card
    #: Cards on the pile now, this one included.
    pile: int


@event_type("pile_won")
class PileWon(Event):
    """The first slap on a jack: ``cards`` (bottom first) go under ``seat``'s stack."""

    t: int
    seat: int
    cards: tuple[Card, ...]
    #: The winner had no cards and slapped back in.
    comeback: bool = False


@event_type("false_slap")
class CardGiven(Event):
    """A false slap: ``seat`` gives its top card face down to ``to``.

    ``to`` is None when the player of the slapped card is already out: the
    card then goes face down under the centre pile.
    """

    t: int
    seat: int
    to: int | None
    card: Card
    slapped: Card


@event_type("pile_split")
class PileSplit(Event):
    """Call variant: ``seat`` forgot the call or slapped falsely; the others share the pile.

    ``shares`` is each seat's number of cards (0 for the offender and those out).
    """

    t: int
    seat: int
    reason: str
    shares: tuple[int, ...]
    cards: tuple[Card, ...]


@event_type("out_of_cards")
class OutOfCards(Event):
    """``seat`` has no cards left: skipped, but not out."""

    t: int
    seat: int


@event_type("player_out")
class PlayerOut(Event):
    """``seat`` (without cards) is out: ``lost_jack``, ``false_slap`` or ``no_call``."""

    t: int
    seat: int
    reason: str


@event_type("pile_turned_over")
class PileTurnedOver(Event):
    """Nobody had a card to play: ``seat`` turned the pile over as its new stack."""

    t: int
    seat: int
    cards: int


@event_type("game_ended")
class GameEnded(Event):
    """``reason``: ``last_in`` (everyone else is out) or ``time_limit`` (ties share)."""

    t: int
    winners: tuple[int, ...]
    reason: str
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SlapjackObservation(TimedObservation):
    """What every seat sees: the pile top and public counts (nobody sees a stack)."""

    pile_size: int
    #: How many cards have been turned: identifies the card on top.
    turned: int
    stack_sizes: tuple[int, ...]
    out: tuple[bool, ...]
    call_required: bool
    slapped: bool
    needs_turnover: bool
    over: bool
    winners: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            **TimedObservation.to_dict(self),
            "pile_size": self.pile_size,
            "turned": self.turned,
            "stack_sizes": list(self.stack_sizes),
            "out": list(self.out),
            "call_required": self.call_required,
            "slapped": self.slapped,
            "needs_turnover": self.needs_turnover,
            "over": self.over,
            "winners": list(self.winners),
        }


class SlapjackGame(TimedGame[SlapjackOptions]):
    """A game of Slapjack from given stacks (top first, by seat) and a dealer."""

    game: ClassVar[str] = "slapjack"
    options_type: ClassVar[type[TimedOptions]] = SlapjackOptions

    def __init__(
        self,
        stacks: Sequence[Sequence[Card | str]],
        *,
        dealer: int,
        options: SlapjackOptions | Mapping[str, Any] | None = None,
        seats: Sequence[str] | None = None,
    ) -> None:
        super().__init__(stacks, dealer=dealer, options=options, seats=seats)
        self._out = [False] * self.options.players
        self._winners: tuple[int, ...] = ()
        self._end_reason: str | None = None

    # -- state ---------------------------------------------------------------

    @property
    def out(self) -> tuple[bool, ...]:
        return tuple(self._out)

    @property
    def winners(self) -> tuple[int, ...]:
        """The winners once the game is over (several share a time-limit tie)."""
        return self._winners

    @property
    def end_reason(self) -> str | None:
        return self._end_reason

    def _needs_turnover(self) -> bool:
        return not any(self._stacks[s] for s in range(self.options.players) if not self._out[s])

    @property
    def to_move(self) -> int | None:
        """The seat to turn the next card (or to turn the pile over), None when over."""
        if self._over:
            return None
        holder = self._next_holder(self._out)
        if holder is not None:
            return holder
        n = self.options.players
        base = self._last_turner if self._last_turner is not None else self._next
        for i in range(n):
            s = (base + i) % n
            if not self._out[s]:
                return s
        return None  # pragma: no cover - someone is always in while the game runs

    # -- time ----------------------------------------------------------------

    def _deadline(self) -> int | None:
        return self.options.time_limit_ms

    def _on_deadline(self, t: int) -> None:
        sizes = self.stack_sizes()
        best = max(sizes)
        self._end(t, tuple(s for s, k in enumerate(sizes) if k == best), "time_limit")

    def _end(self, t: int, winners: tuple[int, ...], reason: str) -> None:
        self._over = True
        self._winners = winners
        self._end_reason = reason
        self._emit(GameEnded(t, winners, reason, self.stack_sizes()))

    # -- rules ---------------------------------------------------------------

    def _check_rules(self, action: TimedAction) -> None:
        seat = action.seat
        if self._out[seat]:
            raise IllegalActionError("player_out", "you are out of the game", seat=seat)
        if action.type == "turn":
            self._check_turn(seat)
            return
        if not self._pile:
            self._check_late(action)
        elif seat in self._slapped:
            raise IllegalActionError(
                "already_slapped", "you have already slapped this card", seat=seat
            )

    def _act(self, action: TimedAction) -> None:
        seat, t = action.seat, action.t
        if action.type == "turn":
            if self._needs_turnover():
                cards = len(self._pile)
                self._take_pile(seat)
                self._next = seat
                self._slapped = set()
                self._cleared_at = None
                self._emit(PileTurnedOver(t, seat, cards))
                return
            card = self._turn_card(seat, t)
            self._emit(CardTurned(t, seat, card, len(self._pile)))
            if not self._stacks[seat]:
                self._emit(OutOfCards(t, seat))
            return
        if not self._pile:
            self._late_slap(action)
            return
        self._slapped.add(seat)
        top = self._pile[-1]
        jack = top.rank == Rank.JACK
        if self.options.call and (not jack or not action.call):
            self._split(t, seat, "no_call" if jack else "false_slap")
        elif jack:
            self._win_pile(t, seat)
        else:
            self._false_slap(t, seat, top)
        self._check_end(t)

    def _win_pile(self, t: int, seat: int) -> None:
        comeback = not self._stacks[seat]
        cards = self._take_pile(seat)
        self._cleared_at = t
        self._next = (seat + 1) % self.options.players
        self._emit(PileWon(t, seat, cards, comeback))
        for s in range(self.options.players):
            if s != seat and not self._out[s] and not self._stacks[s]:
                self._put_out(t, s, "lost_jack")

    def _false_slap(self, t: int, seat: int, top: Card) -> None:
        stack = self._stacks[seat]
        if not stack:
            self._put_out(t, seat, "false_slap")
            return
        receiver = self._owners[-1]
        card = stack.popleft()
        if self._out[receiver]:
            # The player of the slapped card is out: the card goes under the pile.
            self._pile.insert(0, card)
            self._owners.insert(0, seat)
            self._emit(CardGiven(t, seat, None, card, top))
        else:
            self._stacks[receiver].append(card)
            self._emit(CardGiven(t, seat, receiver, card, top))
        if not stack:
            self._emit(OutOfCards(t, seat))

    def _split(self, t: int, seat: int, reason: str) -> None:
        n = self.options.players
        was_empty = not self._stacks[seat]
        takers = [(seat + i) % n for i in range(1, n)]
        takers = [s for s in takers if not self._out[s]]
        cards = tuple(self._pile)
        shares = [0] * n
        # One card at a time from the top of the pile, starting left of the offender.
        for i, card in enumerate(reversed(cards)):
            taker = takers[i % len(takers)]
            self._stacks[taker].append(card)
            shares[taker] += 1
        self._pile.clear()
        self._owners.clear()
        self._cleared_at = t
        self._emit(PileSplit(t, seat, reason, tuple(shares), cards))
        if was_empty:
            self._put_out(t, seat, reason)

    def _put_out(self, t: int, seat: int, reason: str) -> None:
        self._out[seat] = True
        self._emit(PlayerOut(t, seat, reason))

    def _check_end(self, t: int) -> None:
        if self._over:
            return
        # Whoever wins all 52 cards has won them on a jack, and everyone else,
        # holding no cards, is out then: one test covers both ends of the rules.
        inside = [s for s in range(self.options.players) if not self._out[s]]
        if len(inside) == 1:
            self._end(t, (inside[0],), "last_in")

    def observation(self, seat: int) -> SlapjackObservation:
        return SlapjackObservation(
            *self._seen_by(seat),
            pile_size=len(self._pile),
            turned=self._turned,
            stack_sizes=self.stack_sizes(),
            out=tuple(self._out),
            call_required=self.options.call,
            slapped=seat in self._slapped,
            needs_turnover=not self._over and self._needs_turnover(),
            over=self._over,
            winners=self._winners,
        )

    def _fork_extra(self, new: SlapjackGame) -> None:
        new._out = list(self._out)
