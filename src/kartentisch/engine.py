"""The game API every interface uses: states, actions, events, observations.

A game state is created from a seed or from given hands and then advanced one
action at a time. One code path answers "may I?" and "do it": :meth:`check`
raises :class:`~kartentisch.errors.IllegalActionError` with the rule broken,
:meth:`can` asks it, :meth:`apply` checks and then acts. A refused action
changes nothing. Every applied action is appended to :attr:`actions` and
its consequences to :attr:`events`, so a state replays from its record.
"""

from __future__ import annotations

import dataclasses
import enum
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar, dataclass_transform

from kartentisch.cards import Card
from kartentisch.errors import IllegalActionError

__all__ = ["RECORD_FORMAT", "Event", "GameState", "event_type", "jsonable"]

#: The ``format`` field of every game record this version writes and reads.
RECORD_FORMAT = "kartentisch-record/1"

A = TypeVar("A")
E = TypeVar("E", bound="Event")


def jsonable(value: Any) -> Any:
    """Convert cards, enums, tuples and dataclasses to plain JSON values."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value if not isinstance(value.value, int) else value.name.lower()
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if hasattr(value, "to_dict"):
            return value.to_dict()
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, Sequence | set | frozenset):
        return [jsonable(v) for v in value]
    if hasattr(value, "to_dict"):
        return value.to_dict()
    raise TypeError(f"cannot convert {type(value).__name__} to JSON")


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, named for what happened; subclasses add fields."""

    type: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            out[f.name] = jsonable(getattr(self, f.name))
        return out


@dataclass_transform(frozen_default=True)
def event_type(name: str) -> Callable[[type[E]], type[E]]:
    """Declare an :class:`Event` subclass named ``name`` (its :attr:`~Event.type`).

    Every event is a frozen dataclass with slots; its fields are what happened::

        @event_type("card_played")
        class CardPlayed(Event):
            seat: int
            card: Card
    """

    def declare(cls: type[E]) -> type[E]:
        cls.type = name
        return dataclasses.dataclass(frozen=True, slots=True)(cls)

    return declare


class GameState(ABC, Generic[A]):
    """One deal (or game) of a card game, advanced by actions of type ``A``."""

    #: The registry name of the game (``slobberhannes`` …).
    game: ClassVar[str]

    @property
    @abstractmethod
    def num_seats(self) -> int:
        """How many seats the table has (including one that sits out)."""

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat whose action is expected, or None when the game is over."""

    @property
    def is_over(self) -> bool:
        return self.to_move is None

    @abstractmethod
    def legal_actions(self) -> list[A]:
        """Every action the rules accept now from :attr:`to_move` (empty when over)."""

    @abstractmethod
    def check(self, action: A, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError` naming the rule if ``action`` is refused.

        ``seat`` defaults to the seat to move; give it to check an action
        that arrived from a particular seat (an out-of-turn action is refused).
        """

    def can(self, action: A, seat: int | None = None) -> bool:
        """Whether :meth:`apply` would accept ``action``."""
        try:
            self.check(action, seat)
        except IllegalActionError:
            return False
        return True

    @abstractmethod
    def apply(self, action: A, seat: int | None = None) -> list[Event]:
        """Check ``action`` and carry it out; return the events it caused."""

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """Read an action in the game's notation (raises NotationError)."""

    @abstractmethod
    def format_action(self, action: A) -> str:
        """Write an action in the game's notation."""

    @property
    @abstractmethod
    def actions(self) -> Sequence[A]:
        """Every action applied so far, in order."""

    @property
    @abstractmethod
    def events(self) -> Sequence[Event]:
        """Everything that happened so far, in order (the full, public log)."""

    @abstractmethod
    def observation(self, seat: int) -> Any:
        """What ``seat`` may know: its own cards and public information only."""

    @abstractmethod
    def points(self) -> tuple[int, ...]:
        """Each seat's score of this deal so far (final once :attr:`is_over`)."""

    @abstractmethod
    def to_record(self) -> dict[str, Any]:
        """The portable JSON game record of this deal."""
