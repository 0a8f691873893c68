"""Doppelkopf at a web table: a session of games on one score sheet.

The table plays a :class:`~kartentisch.games.doppelkopf.match.DoppelkopfMatch`
for a fixed number of games (the web option ``games``; default two rounds,
one deal per player and round). A deal that is thrown in (five kings, a
refused Armut) is dealt again by the same dealer at once, and so is the next
deal after a scored game, until the last game is on the sheet.

Who may act: the seat to move (a declaration, an Armut answer or exchange, a
card) is the only one in :attr:`DoppelkopfTable.acting`, the seat the table
waits for. Announcements (and the Kulanz take-back in table mode) may come
from any seat at any time: :meth:`DoppelkopfTable.legal` lists them for
every seat that may make them, and :meth:`DoppelkopfTable.act` takes them
from any seat.

The declarations are one question per person and deal
(:mod:`kartentisch.games.doppelkopf.question`): the view's ``question`` is
what the seat is asked ("Gesund", or "Vorbehalt" and which reservation),
:meth:`DoppelkopfTable.act` takes the answer (``gesund``, ``vorbehalt solo
queens``, ``vorbehalt scharfe aces + hochzeit``) and applies the engine action
it gives in the round being asked, and :meth:`DoppelkopfTable.forced_action`
is the engine action the table applies for the seat in each later round (or
in a round whose only answer is ``pass``). Only engine actions are stored,
one per version. Bots answer the engine's rounds themselves, as before.

What each seat and a spectator see (the views, made once per version, and
the game log) is :mod:`kartentisch.web.games.doppelkopf_view`'s.

>>> kind = TABLE_GAME
>>> options = kind.normalize_options({"preset": "ddv"}, seats=4)
>>> options["games"], options["preset"]
(8, 'ddv')
>>> game = kind.create(options, ["Ann", "Ben", "Cyd", "Dora"], seed=7)
>>> seat = game.acting[0]
>>> game.legal(seat)[:2]
['pass', 'vorbehalt']
>>> game.view(seat)["question"]["gesund"], game.view(seat)["question"]["vorbehalt"]
(True, True)
>>> game.act(seat, "gesund")
>>> game.actions == [(seat, "pass")], game.view(None)["hand"]
(True, None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from kartentisch.bots import LEVELS
from kartentisch.cards import Card
from kartentisch.errors import IllegalActionError, NotationError, OptionError
from kartentisch.games.doppelkopf.actions import Call, parse_action
from kartentisch.games.doppelkopf.match import DoppelkopfMatch
from kartentisch.games.doppelkopf.observation import DoppelkopfObservation
from kartentisch.games.doppelkopf.options import PRESETS, DoppelkopfOptions
from kartentisch.games.doppelkopf.question import Answer, Answers, Question
from kartentisch.options import Option
from kartentisch.web.adapter import attach_by, replay_actions
from kartentisch.web.games.doppelkopf_view import GAME, DoppelkopfViews, log_entry

__all__ = ["TABLE_GAME", "DoppelkopfTable", "DoppelkopfTableType"]

#: A session is this many rounds (every player deals once per round) unless ``games`` says.
DEFAULT_ROUNDS: Final = 2
MAX_GAMES: Final = 100
#: How many games a table's session has: the web's own option, beside the game's schema.
GAMES: Final = Option("games", "whole", low=1, high=MAX_GAMES)

#: Options the lobby offers, with their choices (the rest keep their preset's value).
_OPTION_CHOICES: Final[dict[str, list[Any]]] = {
    "nines": [False, True],
    "scharfe": [True, False],
    "ouvert": [True, False],
    "hochzeit": ["choice", "first_trick"],
    "armut": [True, False],
    "pflichtsolo": [False, True],
    "announcements": ["ten_cards", "ddv"],
    "rot_geht_rum": ["extra_point", "bock", "off"],
    "bock": [True, False],
    "table_mode": [False, True],
}


def _unique_names(names: Sequence[str]) -> list[str]:
    """Seat names as the score sheet needs them: distinct (a second "Ann" is "Ann 2")."""
    out: list[str] = []
    for name in names:
        candidate, n = name, 2
        while candidate in out:
            candidate, n = f"{name} {n}", n + 1
        out.append(candidate)
    return out


class DoppelkopfTable:
    """A :class:`~kartentisch.web.adapter.TableGame` over a :class:`DoppelkopfMatch`."""

    game: ClassVar[str] = GAME

    def __init__(
        self, options: DoppelkopfOptions, names: Sequence[str], seed: int, games: int
    ) -> None:
        self.names = list(names)
        self.games = games
        self.match = DoppelkopfMatch(options, seats=_unique_names(names), seed=seed, games=games)
        self._actions: list[tuple[int, str]] = []
        #: Each person's answer to the declaration question of the deal being played.
        #: Kept in memory only: a table rebuilt from its actions asks again what is open.
        self._answers = Answers()
        #: The game log: one public entry per action (:meth:`log_entries`).
        self._log: list[dict[str, Any]] = []
        #: (version, deal number) of the action that ended the last scored game.
        self._deal_ended: tuple[int, int] | None = None
        #: Every seat's view, made once per version (:mod:`.doppelkopf_view`).
        self._views = DoppelkopfViews(self)

    # -- the adapter API ----------------------------------------------------

    @property
    def version(self) -> int:
        return len(self._actions)

    @property
    def acting(self) -> tuple[int, ...]:
        """The seat the table waits for; announcements are optional and come from any seat."""
        seat = self.match.to_move
        return () if seat is None or self.is_over else (seat,)

    @property
    def is_over(self) -> bool:
        return self.match.deal.is_over and self.match.sheet.games_played >= self.games

    @property
    def actions(self) -> list[tuple[int, str]]:
        return list(self._actions)

    @property
    def between_deals(self) -> int | None:
        """The number (in ``deals``) of the game just scored while nothing of the next deal
        has happened; None during a deal, after a deal thrown in, and once the session is over.
        """
        ended = self._deal_ended
        if ended is None or ended[0] != self.version or self.is_over:
            return None
        return ended[1]

    def legal(self, seat: int) -> list[str]:
        if self.is_over:
            return []
        return [str(a) for a in self.match.legal_actions(seat)]

    def act(self, seat: int, text: str) -> None:
        """Apply an engine action, or an answer to the declaration question."""
        if self.is_over:
            raise IllegalActionError("match_over", "the session is over", seat=seat)
        try:
            answer = Answer.parse(text)
            action = parse_action(text) if answer is None else None
        except NotationError as exc:
            raise IllegalActionError("bad_notation", str(exc), seat=seat, text=text) from None
        match = self.match
        deal = match.deal
        if answer is not None:
            answer, action = self._answers.check(deal, seat, answer)
        assert action is not None
        number = len(match.history)
        events = match.apply(action, seat)
        self._actions.append((seat, str(action)))
        self._log.append(log_entry(seat, action, events, number))
        if answer is not None:
            self._answers.keep(deal, seat, answer)
        deal = match.deal
        if deal.is_over and deal.outcome == "played":
            self._deal_ended = (self.version, len(match.deals))
        if deal.is_over and match.sheet.games_played < self.games:
            match.start_deal()

    def question(self, seat: int) -> Question | None:
        """The declaration question ``seat`` is asked now (None: it is not asked)."""
        if not self._declaring:
            return None
        return self._answers.question(self.match.deal, seat)

    def answer(self, seat: int) -> Answer | None:
        """The answer ``seat`` gave to the declaration question while the declarations
        last (None: none, or they are over)."""
        if not self._declaring:
            return None
        return self._answers.answer(self.match.deal, seat)

    @property
    def _declaring(self) -> bool:
        """Whether the deal's declarations are going on (and the session is not over)."""
        return not self.is_over and self.match.deal.phase == "declare"

    def forced_action(self, seat: int) -> str | None:
        """The engine action the table applies for ``seat`` at once, if any.

        After the seat's answer, the action it gives in each later declaration
        round; before it, ``pass`` in a round where the seat may say nothing
        else. None when the seat is not asked now or must choose. The table
        applies it only for people (bots answer the engine's rounds themselves).
        """
        if self.is_over:
            return None
        action = self._answers.forced(self.match.deal, seat)
        return None if action is None else str(action)

    def log_entries(self, start: int = 0) -> list[dict[str, Any]]:
        """The game log from action ``start`` on, from the deal's public events only.

        A declaration is written as the table heard it, an Armut exchange
        without its cards (only how many, and how many trumps, as the events
        count them).
        """
        return self._log[start:]

    def observation(self, seat: int) -> DoppelkopfObservation:
        return self.match.deal.observation(seat)

    def format_action(self, action: Any) -> str:
        if not isinstance(action, Card | Call):
            raise TypeError(f"a Doppelkopf action is a card or a call, not {action!r}")
        return str(action)

    def record(self, *, complete: bool, by: Sequence[str] | None = None) -> dict[str, Any]:
        record = self.match.to_record()
        if not complete and not self.is_over:
            # The deal in progress has hidden hands: give only the finished deals. The
            # seed would deal every hand again: it is told once the game is over.
            record["deals"] = [d.deal_record() for d in self.match.deals if d.is_over]
            record.pop("seed", None)
        record["games"] = self.games
        if by is not None:
            attach_by(record, by)
        return record

    # -- views ----------------------------------------------------------------

    def encoded_view(self, seat: int | None) -> tuple[dict[str, Any], str]:
        """:meth:`view` and its JSON text (as :func:`~kartentisch.web.wire.dumps` writes
        it), the members every seat shares encoded once per version."""
        return self._views.encoded(seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        """The view of ``seat`` (None: a spectator), :mod:`~.doppelkopf_view`'s."""
        return self._views.view(seat)


class DoppelkopfTableType:
    """Lobby metadata and factory of Doppelkopf tables."""

    name = "doppelkopf"
    titles: Mapping[str, str] = {
        "en": "Doppelkopf",
        "de": "Doppelkopf",
        "ru": "Доппелькопф",
    }
    min_seats = 4
    max_seats = 5
    bot_levels: tuple[str, ...] = LEVELS["doppelkopf"]
    default_bot_level = "heuristic"
    presets: Mapping[str, Mapping[str, Any]] = PRESETS

    def normalize_options(self, options: Mapping[str, Any] | None, *, seats: int) -> dict[str, Any]:
        if options is not None and not isinstance(options, Mapping):
            raise OptionError(
                "options must be a JSON object of option names and values", "not_object"
            )
        given = dict(options or {})
        games = given.pop("games", None)
        if "players" in given and given["players"] != seats:
            raise OptionError(
                f"players is {given['players']!r} but the table has {seats} seats",
                "players_mismatch",
                value=str(given["players"])[:40],
                seats=seats,
            )
        given["players"] = seats
        # The game's schema checks every rule option (SCHEMA in the game's options);
        # the table's length is the web's own option, checked the same way.
        result = DoppelkopfOptions.from_dict(given).to_dict()
        result["games"] = GAMES.check(DEFAULT_ROUNDS * seats if games is None else games)
        return result

    def create(
        self, options: Mapping[str, Any], names: Sequence[str], seed: int
    ) -> DoppelkopfTable:
        given = dict(options)
        games = given.pop("games", DEFAULT_ROUNDS * len(names))
        return DoppelkopfTable(DoppelkopfOptions.from_dict(given), names, seed, int(games))

    def replay(
        self,
        options: Mapping[str, Any],
        names: Sequence[str],
        seed: int,
        actions: Sequence[tuple[int, str]],
    ) -> DoppelkopfTable:
        return replay_actions(self.create(options, names, seed), actions)

    def describe(self) -> dict[str, Any]:
        defaults = DoppelkopfOptions()
        return {
            "name": self.name,
            "titles": dict(self.titles),
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "default_seats": 4,
            "bot_levels": list(self.bot_levels),
            "default_bot_level": self.default_bot_level,
            "presets": {
                name: {k: list(v) if isinstance(v, tuple) else v for k, v in values.items()}
                for name, values in self.presets.items()
            },
            "options": {
                name: {"choices": choices, "default": getattr(defaults, name)}
                for name, choices in _OPTION_CHOICES.items()
            }
            | {"games": {**GAMES.describe(), "default": None}},
        }


TABLE_GAME: Final = DoppelkopfTableType()
