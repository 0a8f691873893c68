"""Slapjack and Irish Snap at a web table: real-time play through the fair-slap referee.

One adapter, :class:`SlapTable`, serves both games (they share the timed
engine of :mod:`kartentisch.realtime`). The table's real-time runner
(:mod:`kartentisch.web.realtime`) stamps every slap and turn on the server's
clock, corrects it by the connection's measured latency, lets the referee
order it and applies what the referee releases through :meth:`SlapTable.apply_timed`.
The store keeps the released actions in the engine's timed notation
(``"1250 s2 turn"``, ``"1600 s0 slap!"``), so :meth:`SlapTableType.replay`
rebuilds the game exactly.

**Versions.** :attr:`SlapTable.version` counts the applied actions, as in the
turn-based games. A live action names the version it was made on; what it
refers to is the card on top at that version, identified by
:meth:`SlapTable.pile_key` (how many cards had been turned). A slap or turn
made on a version whose top card is no longer on top is refused as stale
(``stale_card``), when it arrives and again when the referee releases it: a
slap is never applied to a card its player had not seen.

>>> kind = TABLE_GAME
>>> options = kind.normalize_options({"preset": "call"}, seats=3)
>>> options
{'players': 3, 'call': True}
>>> game = kind.create(options, ["Ann", "Ben", "Cyd"], seed=4)
>>> mover = game.to_move
>>> game.legal(mover)
['turn']
>>> _ = game.apply_timed(mover, "turn", 900)
>>> game.actions == [(mover, f"900 s{mover} turn")], game.pile_key()
(True, 1)
>>> again = kind.replay(options, ["Ann", "Ben", "Cyd"], 4, game.actions)
>>> again.view(None) == game.view(None)
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from kartentisch.bots.reaction import ALIASES, DEFAULT_LEVEL, LEVELS
from kartentisch.cards import Card, Rank
from kartentisch.engine import Event
from kartentisch.errors import IllegalActionError, NotationError, OptionError
from kartentisch.games.irish_snap.engine import (
    IrishSnapGame,
    IrishSnapObservation,
    IrishSnapOptions,
    PileTaken,
)
from kartentisch.games.slapjack.engine import (
    CardGiven,
    PileSplit,
    PileTurnedOver,
    PileWon,
    SlapjackGame,
    SlapjackObservation,
    SlapjackOptions,
)
from kartentisch.realtime.actions import ActionType, TimedAction
from kartentisch.web.adapter import attach_by, replay_actions

__all__ = [
    "IRISH_SNAP",
    "TABLE_GAME",
    "SlapTable",
    "SlapTableType",
    "parse_live_action",
]

#: How many recent events a view carries (the page shows them as a log).
EVENTS_IN_VIEW: Final = 14

TimedEngine = SlapjackGame | IrishSnapGame


def parse_live_action(text: str) -> tuple[ActionType, bool]:
    """A live action as a player sends it: ``turn``, ``slap`` or ``slap!`` (with the call).

    >>> parse_live_action(" Slap! "), parse_live_action("turn")
    (('slap', True), ('turn', False))
    """
    word = text.strip().lower()
    if word == "turn":
        return "turn", False
    if word in ("slap", "slap!"):
        return "slap", word.endswith("!")
    raise IllegalActionError(
        "unknown_action", f"{text!r} is not an action here: send turn, slap or slap!", text=text
    )


def _event_json(event: Event, index: int) -> dict[str, Any]:
    """An event as the page shows it: cards as text, piles as counts, nothing hidden."""
    out: dict[str, Any] = {"i": index, "type": event.type}
    for f in dataclasses.fields(event):
        value = getattr(event, f.name)
        if isinstance(event, CardGiven) and f.name == "card":
            continue  # the card given goes face down: nobody sees it
        if isinstance(value, Card):
            out[f.name] = str(value)
        elif isinstance(value, Rank):
            out[f.name] = value.letter
        elif (
            f.name == "cards"
            and isinstance(value, tuple)
            and all(isinstance(c, Card) for c in value)
        ):
            # A pile taken or shared: how many cards, and the one that was on top.
            out["n"] = len(value)
            out["top"] = str(value[-1]) if value else None
        elif isinstance(value, tuple | frozenset):
            out[f.name] = list(value)
        else:
            out[f.name] = value
    return out


class SlapTable:
    """A :class:`~kartentisch.web.adapter.RealtimeTableGame` over a Slapjack or Irish Snap game."""

    def __init__(self, engine: TimedEngine, names: Sequence[str]) -> None:
        self.engine = engine
        self.game: str = engine.game
        self.names = list(names)
        self._actions: list[tuple[int, str]] = []
        #: The pile key after each version: ``_keys[v]`` is the card on top at version v.
        self._keys: list[int] = [engine.turned]
        #: Each event as a view shows it, made once (the events never change).
        self._events_json: list[dict[str, Any]] = []
        #: (how many events, the recent ones as views show them): one list, read only,
        #: for every seat's view until an event comes (a state patch passes it over).
        self._recent: tuple[int, list[dict[str, Any]]] = (0, [])
        #: What every view shows alike and never changes, made once (read only).
        self._names_json = list(self.names)
        self._options_json: dict[str, Any] = engine.options.to_dict()

    # -- the adapter API ----------------------------------------------------

    @property
    def version(self) -> int:
        return len(self._actions)

    @property
    def to_move(self) -> int | None:
        """The seat to turn the next card (or to turn the pile over); None while nobody may."""
        return None if self.engine.is_over else self.engine.to_move

    @property
    def acting(self) -> tuple[int, ...]:
        """The seat to turn a card, or in Irish Snap the seats that must slap a match."""
        engine = self.engine
        if engine.is_over:
            return ()
        if isinstance(engine, IrishSnapGame) and engine.match_open:
            return tuple(s for s in range(engine.num_seats) if engine.observation(s).must_slap)
        mover = engine.to_move
        return () if mover is None else (mover,)

    @property
    def is_over(self) -> bool:
        return self.engine.is_over

    @property
    def actions(self) -> list[tuple[int, str]]:
        return list(self._actions)

    @property
    def clock(self) -> int:
        """The engine's game time in ms."""
        return self.engine.clock

    def pile_key(self, version: int | None = None) -> int | None:
        """What a slap made on ``version`` (default: now) refers to: the number of
        the card on top (cards turned so far); None for a version that never was."""
        if version is None:
            return self.engine.turned
        if not 0 <= version < len(self._keys):
            return None
        return self._keys[version]

    def turn_slot(self) -> tuple[int, int, int] | None:
        """Identifies one chance to turn: the seat, the card on top, the pile size."""
        mover = self.to_move
        if mover is None:
            return None
        return (mover, self.engine.turned, len(self.engine.pile))

    def deadline(self) -> int | None:
        """The game time at which time alone changes the game (a time-out, a time limit)."""
        engine = self.engine
        if engine.is_over:
            return None
        if isinstance(engine, IrishSnapGame):
            return engine.observation(0).deadline
        return engine.options.time_limit_ms

    def legal(self, seat: int) -> list[str]:
        engine = self.engine
        if engine.is_over or not 0 <= seat < engine.num_seats:
            return []
        out: list[str] = []
        if engine.to_move == seat:
            out.append("turn")
        if self._may_slap(seat):
            if isinstance(engine, SlapjackGame) and engine.options.call:
                out.append("slap!")
            out.append("slap")
        return out

    def _may_slap(self, seat: int) -> bool:
        obs = self.engine.observation(seat)
        if isinstance(obs, SlapjackObservation) and obs.out[seat]:
            return False
        if isinstance(obs, IrishSnapObservation) and obs.safe[seat]:
            return False
        return obs.top is not None and not obs.slapped

    def precheck(self, seat: int, text: str) -> tuple[ActionType, bool]:
        """Read a live action and refuse at once what the rules refuse now.

        A slap on an empty pile is let through: whether it is a harmless late
        slap depends on the time the referee gives it.
        """
        kind, call = parse_live_action(text)
        engine = self.engine
        if engine.is_over:
            raise IllegalActionError("game_over", "the game is over", seat=seat)
        action = TimedAction(engine.next_time(seat), seat, kind, call)
        try:
            engine.check(action, seat)
        except IllegalActionError as exc:
            if exc.rule != "empty_pile":
                raise
        return kind, call

    def apply_timed(self, seat: int, text: str, t: int) -> list[Event]:
        """Apply a live action at game time ``t`` (moved on to the earliest time the
        engine allows, if needed); returns its events, or raises and changes nothing."""
        kind, call = parse_live_action(text)
        engine = self.engine
        action = TimedAction(engine.next_time(seat, t), seat, kind, call)
        return self._apply(action)

    def _apply(self, action: TimedAction) -> list[Event]:
        events = self.engine.apply(action)
        self._actions.append((action.seat, str(action)))
        self._keys.append(self.engine.turned)
        return events

    def advance(self, t: int) -> list[Event]:
        """Let game time run to ``t`` (time-outs, a time limit); returns the events."""
        if self.engine.is_over:
            return []
        return self.engine.advance(t)

    def last_taken(self) -> tuple[int, int] | None:
        """When (game time) and by whom the pile was last taken: won (Slapjack), shared
        after a mistake (the offender's seat) or taken (Irish Snap); None if never yet.

        A slap refused on the empty pile came this long after it (docs/web-protocol.md).
        """
        for event in reversed(self.engine.events):
            if isinstance(event, PileWon | PileSplit | PileTaken):
                return event.t, event.seat
            if isinstance(event, PileTurnedOver):
                return None  # the pile was turned over: nothing was taken since
        return None

    def act(self, seat: int, text: str) -> None:
        """Apply a stored action (``"1250 s2 turn"``), or a bare ``turn``/``slap``/``slap!``
        at the engine's clock (the turn-based path; the web table uses the referee)."""
        if self.engine.is_over:
            raise IllegalActionError("game_over", "the game is over", seat=seat)
        try:
            action = TimedAction.parse(text)
        except NotationError:
            kind, call = parse_live_action(text)
            action = TimedAction(self.engine.next_time(seat), seat, kind, call)
        if action.seat != seat:
            raise IllegalActionError(
                "wrong_seat", f"this is seat {action.seat}'s action, not seat {seat}'s", seat=seat
            )
        self._apply(action)

    def observation(self, seat: int) -> SlapjackObservation | IrishSnapObservation:
        return self.engine.observation(seat)

    def format_action(self, action: Any) -> str:
        if isinstance(action, TimedAction):
            return str(action)
        kind = getattr(action, "type", None)
        if kind == "turn":
            return "turn"
        if kind == "slap":
            return "slap!" if getattr(action, "call", False) else "slap"
        raise TypeError(f"a slap-game action is a turn or a slap, not {action!r}")

    def view(self, seat: int | None) -> dict[str, Any]:
        engine = self.engine
        obs = engine.observation(0 if seat is None else seat)
        data = obs.to_dict()
        data.update(
            game=self.game,
            seat=seat,
            names=self._names_json,
            version=self.version,
            dealer=engine.dealer,
            legal=self.legal(seat) if seat is not None else [],
            options=self._options_json,
            events=self._recent_events(),
        )
        if seat is None:
            data["slapped"] = False
            if "must_slap" in data:
                data["must_slap"] = False
        if isinstance(engine, SlapjackGame):
            data["end_reason"] = engine.end_reason
        else:
            data["safe_order"] = list(engine.safe_order)
            data["winners"] = list(engine.winners)
        return data

    def _recent_events(self) -> list[dict[str, Any]]:
        """The last :data:`EVENTS_IN_VIEW` events as views show them: each made once,
        the list once per new event (the engine's events only grow)."""
        events = self.engine.events
        count, recent = self._recent
        if count == len(events):
            return recent
        made = self._events_json
        while len(made) < len(events):
            made.append(_event_json(events[len(made)], len(made)))
        recent = made[max(0, len(events) - EVENTS_IN_VIEW) :]
        self._recent = (len(events), recent)
        return recent

    def record(self, *, complete: bool, by: Sequence[str] | None = None) -> dict[str, Any]:
        record = self.engine.to_record()
        if not complete and not self.engine.is_over:
            # The stacks are face down: while the game goes on they stay hidden.
            del record["hands"]
        if by is not None:
            attach_by(record, by)
        return record


class SlapTableType:
    """Lobby metadata and factory of Slapjack or Irish Snap tables."""

    realtime: ClassVar[bool] = True
    min_seats = 2
    max_seats = 8
    bot_levels: tuple[str, ...] = LEVELS
    default_bot_level = DEFAULT_LEVEL
    #: Old level names (stored tables name them) and the levels they stand for.
    bot_level_aliases: Mapping[str, str] = ALIASES

    def __init__(
        self,
        name: str,
        titles: Mapping[str, str],
        options_type: type[SlapjackOptions] | type[IrishSnapOptions],
        engine_type: type[SlapjackGame] | type[IrishSnapGame],
        presets: Mapping[str, Mapping[str, Any]],
        choices: Mapping[str, list[Any]],
        numbers: Sequence[str],
    ) -> None:
        self.name = name
        self.titles = titles
        self.options_type = options_type
        self.engine_type = engine_type
        self.presets = presets
        self._choices = choices
        self._numbers = numbers

    def normalize_options(self, options: Mapping[str, Any] | None, *, seats: int) -> dict[str, Any]:
        if options is not None and not isinstance(options, Mapping):
            raise OptionError(
                "options must be a JSON object of option names and values", "not_object"
            )
        given = dict(options or {})
        preset = given.pop("preset", None)
        if preset is not None:
            if not isinstance(preset, str) or preset not in self.presets:
                known = ", ".join(self.presets)
                shown = str(preset)[:40]
                raise OptionError(
                    f"unknown {self.name} preset {shown!r}; known: {known}",
                    "unknown_preset",
                    preset=shown,
                )
            given = {**self.presets[preset], **given}
        if "players" in given and given["players"] != seats:
            raise OptionError(
                f"players is {given['players']!r} but the table has {seats} seats",
                "players_mismatch",
                value=str(given["players"])[:40],
                seats=seats,
            )
        given["players"] = seats
        # The game's schema checks every option under any name it is sent under
        # (the lobby's ``time_limit`` in minutes is the engine's ``time_limit_ms``).
        return self.options_type.from_dict(given).to_dict()

    def create(self, options: Mapping[str, Any], names: Sequence[str], seed: int) -> SlapTable:
        parsed = self.options_type.from_dict(options)
        engine = self.engine_type.from_seed(seed, options=parsed, seats=list(names))  # type: ignore[arg-type]
        return SlapTable(engine, names)

    def replay(
        self,
        options: Mapping[str, Any],
        names: Sequence[str],
        seed: int,
        actions: Sequence[tuple[int, str]],
    ) -> SlapTable:
        return replay_actions(self.create(options, names, seed), actions)

    def describe(self) -> dict[str, Any]:
        defaults = self.options_type()
        options: dict[str, Any] = {
            name: {"choices": choices, "default": getattr(defaults, name)}
            for name, choices in self._choices.items()
        }
        schema = self.options_type.schema
        for name in self._numbers:
            options[name] = {**schema.option(name).describe(name), "default": None}
        return {
            "name": self.name,
            "titles": dict(self.titles),
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "default_seats": 4,
            "bot_levels": list(self.bot_levels),
            "default_bot_level": self.default_bot_level,
            "presets": {name: dict(values) for name, values in self.presets.items()},
            "options": options,
            "realtime": True,
        }


TABLE_GAME: Final = SlapTableType(
    "slapjack",
    {"en": "Slapjack", "de": "Slapjack", "ru": "Слэпджек"},
    SlapjackOptions,
    SlapjackGame,
    presets={"classic": {}, "call": {"call": True}},
    choices={"call": [False, True]},
    numbers=("time_limit",),
)

IRISH_SNAP: Final = SlapTableType(
    "irish-snap",
    {"en": "Irish Snap", "de": "Irish Snap", "ru": "Ирландский снэп"},
    IrishSnapOptions,
    IrishSnapGame,
    presets={"classic": {}},
    choices={"slap_timeout_ms": [1000, 1500, 2000, 3000]},
    numbers=(),
)
