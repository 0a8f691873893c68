"""The game-agnostic table adapter the server drives.

The server knows no game's rules. It talks to a :class:`TableGame`: who may
act now, which actions are legal for a seat (in the game's notation), apply
one (refusals raise :class:`~kartentisch.errors.IllegalActionError` with the
engine's rule code), each seat's view as JSON (built from the engine's
``observation(seat)``; spectators get the public part only), the record.

A :class:`TableGameType` is the factory and lobby metadata of one game; the
registry :func:`table_game_type` finds it by name like
:func:`kartentisch.games.get_game` does.

>>> kind = table_game_type("slobberhannes")
>>> options = kind.normalize_options({"preset": "standard"}, seats=3)
>>> game = kind.create(options, ["Ann", "Bob", "Cyd"], seed=5)
>>> game.version, game.acting == (game.view(None)["to_move"],)
(0, True)
>>> seat = game.acting[0]
>>> game.act(seat, game.legal(seat)[0])
>>> game.version
1
>>> replayed = kind.replay(options, ["Ann", "Bob", "Cyd"], 5, game.actions)
>>> replayed.view(seat) == game.view(seat)
True
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from kartentisch.errors import KartentischError

__all__ = [
    "TABLE_GAMES",
    "RealtimeTableGame",
    "TableGame",
    "TableGameType",
    "attach_by",
    "is_realtime",
    "table_game_type",
]


@runtime_checkable
class TableGame(Protocol):
    """One game in progress at a table, as the server sees it."""

    #: The registry name of the game.
    game: str

    @property
    def version(self) -> int:
        """How many actions have been applied; every action names the version it was made on."""

    @property
    def acting(self) -> tuple[int, ...]:
        """The seats the game waits for now (one in turn-based games, several in real-time ones).

        Bots, turn timers and the grace time act only for these seats. Other
        seats may still have optional actions (Doppelkopf announcements, which
        any seat may make at any time): :meth:`legal` lists them and
        :meth:`act` takes them from any seat.
        """

    @property
    def is_over(self) -> bool:
        """Whether the whole game (match) is over."""

    @property
    def actions(self) -> list[tuple[int, str]]:
        """Every applied action as (seat, text), in order: what the store keeps."""

    def legal(self, seat: int) -> list[str]:
        """The actions ``seat`` may take now, in the game's notation (empty if none).

        This covers every seat, not only those in :attr:`acting`.
        """

    def act(self, seat: int, text: str) -> None:
        """Apply ``text`` for ``seat``; raise IllegalActionError/NotationError, changing nothing."""

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see as JSON; ``None`` is a spectator's public view."""

    def observation(self, seat: int) -> Any:
        """The engine's observation of ``seat``: an immutable snapshot a bot chooses from.

        The server asks the bot in a worker thread (a strong bot thinks for a
        while), so the snapshot must not change when the game goes on.
        """

    def format_action(self, action: Any) -> str:
        """An action a bot chose, in the game's notation."""

    def record(self, *, complete: bool, by: Sequence[str] | None = None) -> dict[str, Any]:
        """The game record; unless ``complete``, only the parts already public.

        ``by`` says who made each of :attr:`actions` (``person``, ``bot``,
        ``standin``, ``timer``, ``auto``); the record then carries it in the
        optional ``by`` lists of docs/records.md (:func:`attach_by`).
        """

    # A turn-based game may also have ``log_entries(start) -> list[dict]``: the game
    # log of its actions from number ``start`` (0-based) on, one entry per action, each
    # {"seat", "action", "events"} with public information only (docs/web-protocol.md,
    # "The game log"). The table adds each entry's version and who made it.


@runtime_checkable
class RealtimeTableGame(TableGame, Protocol):
    """A game played in real time (Slapjack, Irish Snap): actions carry game times.

    The server does not call :meth:`TableGame.act` for live actions. It reads
    each one with :meth:`precheck` (a refusal is sent back at once), lets the
    fair-slap referee order it, and applies what the referee releases with
    :meth:`apply_timed` at the referee's game time; :meth:`advance` lets game
    time run (time-outs). :meth:`pile_key` says what an action made on a
    version refers to: the card on top then. An action whose card is no longer
    on top is stale and refused. :meth:`TableGame.act` still replays stored
    actions, which are written with their game time.
    """

    @property
    def clock(self) -> int:
        """The game time in ms of the last action (or time advanced to)."""

    @property
    def to_move(self) -> int | None:
        """The seat to turn the next card, or None while nobody may."""

    def pile_key(self, version: int | None = None) -> int | None:
        """The card on top at ``version`` (default: now); None for a version that never was."""

    def turn_slot(self) -> tuple[int, ...] | None:
        """Identifies one chance to turn a card; a new slot restarts the automatic turn."""

    def deadline(self) -> int | None:
        """The game time at which time alone will change the game, if any."""

    def precheck(self, seat: int, text: str) -> tuple[Any, bool]:
        """Read a live action (``turn``, ``slap``, ``slap!``); raise what the rules refuse now."""

    def apply_timed(self, seat: int, text: str, t: int) -> list[Any]:
        """Apply a live action at game time ``t``; return its events or raise, changing nothing."""

    def advance(self, t: int) -> list[Any]:
        """Let game time run to ``t``; return the events that time alone caused."""

    def last_taken(self) -> tuple[int, int] | None:
        """When (game time) and by whom the pile was last taken, won or shared; None if never."""


class TableGameType(Protocol):
    """A game's factory and what the lobby shows about it."""

    name: str
    titles: Mapping[str, str]
    min_seats: int
    max_seats: int
    #: Bot levels, weakest first.
    bot_levels: tuple[str, ...]
    #: The level of a bot seat that names none, and of bots that fill open seats.
    default_bot_level: str
    #: Rule presets by name, with the options each sets.
    presets: Mapping[str, Mapping[str, Any]]

    def normalize_options(self, options: Mapping[str, Any] | None, *, seats: int) -> dict[str, Any]:
        """Check ``options`` for a table of ``seats``; return them as stored (OptionError)."""

    def create(self, options: Mapping[str, Any], names: Sequence[str], seed: int) -> TableGame:
        """A new game from checked options, seat names and the table's seed."""

    def replay(
        self,
        options: Mapping[str, Any],
        names: Sequence[str],
        seed: int,
        actions: Sequence[tuple[int, str]],
    ) -> TableGame:
        """Rebuild a game from its setup and stored actions, through the engine."""

    def describe(self) -> dict[str, Any]:
        """JSON for the lobby: titles, seats, presets, options, bot levels."""


class _Acts(Protocol):
    def act(self, seat: int, text: str) -> None: ...


_Game = TypeVar("_Game", bound=_Acts)

#: Registry name → module under ``kartentisch.web`` holding its ``TABLE_GAME``
#: (``module:NAME`` when the module's adapter has another name).
TABLE_GAMES: dict[str, str] = {
    "slobberhannes": "kartentisch.web.games.slobberhannes",
    "doppelkopf": "kartentisch.web.games.doppelkopf",
    "slapjack": "kartentisch.web.games.slapjack",
    "irish-snap": "kartentisch.web.games.slapjack:IRISH_SNAP",
}


def is_realtime(kind: TableGameType) -> bool:
    """Whether the game is played in real time (its type says ``realtime = True``)."""
    return bool(getattr(kind, "realtime", False))


def table_game_type(name: str) -> TableGameType:
    """The table adapter of game ``name`` (a registry name or alias)."""
    from kartentisch.games import get_game

    spec = get_game(name)
    module_name = TABLE_GAMES.get(spec.name)
    if module_name is None:
        raise KartentischError(f"{spec.name} cannot be played in the web app yet")
    module_name, _, attribute = module_name.partition(":")
    module = importlib.import_module(module_name)
    kind: TableGameType = getattr(module, attribute or "TABLE_GAME")
    return kind


def attach_by(record: dict[str, Any], by: Sequence[str]) -> dict[str, Any]:
    """Give each deal of ``record`` its ``by`` list: who made each of its actions.

    ``by`` lists who made the record's actions in order, deal after deal (the
    actions of a thrown-in deal without actions take none); a deal whose actions
    it does not reach (the public record of a game in progress holds only the
    finished deals) takes what is left. A single-deal record gets a top-level list.

    >>> deals = [{"actions": ["QC", "KC"]}, {"misdeal": True}, {"actions": ["AC"]}]
    >>> for deal in attach_by({"deals": deals}, ["bot", "person", "timer"])["deals"]:
    ...     print(deal)
    {'actions': ['QC', 'KC'], 'by': ['bot', 'person']}
    {'misdeal': True}
    {'actions': ['AC'], 'by': ['timer']}
    """
    at = 0
    parts = record.get("deals", [record])
    for part in parts:
        actions = part.get("actions")
        if not isinstance(actions, list):
            continue
        if at + len(actions) > len(by):
            break
        part["by"] = list(by[at : at + len(actions)])
        at += len(actions)
    return record


def replay_actions(game: _Game, actions: Sequence[tuple[int, str]]) -> _Game:
    """Apply stored actions to a fresh game; a refused one raises as it would live."""
    for seat, text in actions:
        game.act(seat, text)
    return game
