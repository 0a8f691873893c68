"""Timestamped actions of the real-time games and their notation.

An action is written ``<t> s<seat> <type>``: the game time in milliseconds
since the start, the seat, and ``turn`` or ``slap`` (``slap!`` is a slap made
with the call "Slapjack!"). See docs/notation-realtime.md.

>>> a = TimedAction.parse("1610 s1 slap!")
>>> a
TimedAction(t=1610, seat=1, type='slap', call=True)
>>> str(a), str(TimedAction(0, 2, "turn"))
('1610 s1 slap!', '0 s2 turn')
>>> TimedAction.from_json({"t": 1600, "seat": 0, "type": "slap"})
TimedAction(t=1600, seat=0, type='slap', call=False)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final, Literal

from kartentisch.errors import NotationError

__all__ = ["ACTION_TYPES", "MAX_TIME_MS", "ActionType", "TimedAction"]

ActionType = Literal["turn", "slap"]
ACTION_TYPES: Final = ("turn", "slap")
#: The latest game time a record may name: 30 days (a sanity bound, not a rule).
MAX_TIME_MS: Final = 30 * 24 * 3600 * 1000

_PATTERN: Final = re.compile(r"^\s*(\d{1,10})\s+[sS](\d{1,2})\s+(turn|slap)(!?)\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class TimedAction:
    """One action at game time ``t`` (ms since the start) by ``seat``.

    ``call`` is only meaningful for a slap: the slap came with the call.
    Actions order by ``(t, seat)``: at the same millisecond the lower seat
    counts as earlier (exact ties go by seat order).
    """

    t: int
    seat: int
    type: ActionType
    call: bool = False

    def __post_init__(self) -> None:
        if type(self.t) is not int or not 0 <= self.t <= MAX_TIME_MS:
            raise NotationError(f"an action's time must be whole milliseconds >= 0, not {self.t!r}")
        if type(self.seat) is not int or self.seat < 0:
            raise NotationError(f"an action's seat must be a seat number, not {self.seat!r}")
        if self.type not in ACTION_TYPES:
            raise NotationError(f"unknown action type {self.type!r}: use turn or slap")
        if type(self.call) is not bool:
            raise NotationError("an action's call must be true or false")
        if self.call and self.type != "slap":
            raise NotationError("only a slap comes with a call (write slap!)")

    @property
    def key(self) -> tuple[int, int]:
        """The order key: time, then seat."""
        return (self.t, self.seat)

    def at(self, t: int) -> TimedAction:
        """The same action at another time."""
        return TimedAction(t, self.seat, self.type, self.call)

    @classmethod
    def parse(cls, text: str) -> TimedAction:
        """Read ``"1250 s2 turn"``, ``"1600 s0 slap"`` or ``"1610 s1 slap!"``."""
        if not isinstance(text, str):
            raise NotationError(f"an action must be text such as '1600 s0 slap', not {text!r}")
        m = _PATTERN.match(text)
        if m is None:
            raise NotationError(
                f"cannot read action {text!r}: write <ms> s<seat> turn|slap|slap!, "
                "e.g. '1600 s0 slap'"
            )
        return cls(int(m[1]), int(m[2]), m[3].lower(), bool(m[4]))  # type: ignore[arg-type]

    @classmethod
    def from_json(cls, value: Any) -> TimedAction:
        """Read an action from its text or from ``{"t", "seat", "type", "call"}``."""
        if isinstance(value, str):
            return cls.parse(value)
        if isinstance(value, dict):
            unknown = set(value) - {"t", "seat", "type", "call"}
            if unknown:
                raise NotationError(f"unknown action field {sorted(unknown)[0]!r}")
            try:
                return cls(value["t"], value["seat"], value["type"], value.get("call", False))
            except KeyError as exc:
                raise NotationError(f"an action object needs the field {exc.args[0]!r}") from None
        raise NotationError(f"an action must be text or an object, not {value!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"t": self.t, "seat": self.seat, "type": self.type, "call": self.call}

    def __str__(self) -> str:
        return f"{self.t} s{self.seat} {self.type}{'!' if self.call else ''}"
