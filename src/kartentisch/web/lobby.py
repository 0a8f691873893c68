"""Lobby requests: the checked form of a request to open a table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from kartentisch.errors import KartentischError, OptionError, RulesError
from kartentisch.i18n import DEFAULT_LANGUAGE, has
from kartentisch.rulesets import rules_from_dict
from kartentisch.web.adapter import TableGameType, is_realtime, table_game_type
from kartentisch.web.seats import TableError, clean_name

__all__ = ["AWAY_POLICIES", "NewTable", "SeatRequest", "parse_new_table", "rules_refusal"]

#: What a table does while a person is away (docs/web.md, "Leaving and coming back"):
#: ``standin``, a bot plays for them after the grace time while other people play on
#: (the default); ``pause``, the table waits until they are back.
AWAY_POLICIES: Final = ("standin", "pause")
#: Grace times a table may choose (seconds); without one the server's ``--grace`` holds.
GRACE_RANGE: Final = (5, 3600)
#: The longest wait between deals a table may choose (seconds); 0: no time limit.
MAX_READY_SECONDS: Final = 600
#: Hours a correspondence table may give each move (docs/web.md, "Correspondence tables").
MOVE_HOURS_RANGE: Final = (1, 720)
#: The options of a table that are no rules (a Doppelkopf session's length): a request
#: with a rule set may give them beside it in ``options``.
TABLE_OPTIONS: Final = frozenset({"games"})


@dataclass
class SeatRequest:
    """One seat as the lobby asks for it: ``you``, ``open`` or ``bot`` (with a level)."""

    kind: str
    level: str | None = None


@dataclass
class NewTable:
    """A checked lobby request."""

    kind: TableGameType
    options: dict[str, Any]
    seats: list[SeatRequest]
    name: str | None
    turn_seconds: int | None = None
    #: Left out of the lobby's list: reached by the invite link only.
    private: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    #: One of :data:`AWAY_POLICIES`.
    away: str = "standin"
    #: Seconds before a stand-in plays for an away person (None: the server's grace time).
    grace_seconds: int | None = None
    #: Between deals, the longest wait for "next" in seconds (0: none; None: the server's).
    ready_seconds: int | None = None
    #: The name of the rule set the table was opened with (None: none, or it had none).
    rules_name: str | None = None
    #: Agreed before the start: the table changes its players' ratings (every person
    #: at it has an account: docs/ratings.md).
    rated: bool = False
    #: ``separate`` (spectators chat among themselves) or ``off``.
    spectator_chat: str = "separate"
    #: A correspondence table's time for each move in seconds (None: not one); every
    #: person at it has an account.
    move_seconds: int | None = None
    #: At a correspondence table: a bot moves for a person whose deadline has passed.
    deadline_standin: bool = False
    #: The host allows hints: the strong bot's suggestion on asking (never when rated).
    hints: bool = False


def parse_new_table(body: Any) -> NewTable:
    """Check the JSON body of ``POST /api/tables``; raise TableError naming the problem."""
    if not isinstance(body, dict):
        raise TableError("bad_request", detail="the body must be a JSON object")
    game = body.get("game")
    if not isinstance(game, str):
        raise TableError("unknown_game", game=str(game))
    try:
        kind = table_game_type(game)
    except KartentischError:
        raise TableError("unknown_game", game=game[:40]) from None
    raw_seats = body.get("seats")
    if raw_seats is None:
        # You and three bots (as many as the game needs, as few as it allows).
        bots = max(kind.min_seats, min(kind.max_seats, 4)) - 1
        raw_seats = [{"kind": "you"}] + [{"kind": "bot"}] * bots
    if not isinstance(raw_seats, list) or not kind.min_seats <= len(raw_seats) <= kind.max_seats:
        raise TableError("bad_seats", low=kind.min_seats, high=kind.max_seats)
    seats: list[SeatRequest] = []
    for item in raw_seats:
        if not isinstance(item, dict) or item.get("kind") not in ("you", "open", "bot"):
            raise TableError("bad_seats", low=kind.min_seats, high=kind.max_seats)
        level = item.get("level")
        if item["kind"] == "bot":
            level = level if level is not None else kind.default_bot_level
            # An old level name (slap games) stands for its new level.
            aliases: Mapping[str, str] = getattr(kind, "bot_level_aliases", {})
            if isinstance(level, str) and level in aliases:
                level = aliases[level]
            if level not in kind.bot_levels:
                raise TableError("bad_level", level=str(level)[:40])
        seats.append(SeatRequest(item["kind"], level if item["kind"] == "bot" else None))
    if sum(1 for s in seats if s.kind == "you") > 1:
        raise TableError("bad_seats", low=kind.min_seats, high=kind.max_seats)
    name = None
    if any(s.kind == "you" for s in seats):
        name = clean_name(body.get("name"))
    rules = body.get("rules")
    table_options = body.get("options")
    # Beside a rule set, ``options`` may only hold the table's own options (a
    # Doppelkopf session's length): the rules are the rule set's.
    beside = table_options is None or (
        isinstance(table_options, dict) and set(table_options) <= TABLE_OPTIONS
    )
    if rules is not None and not beside:
        raise TableError("rules_and_options")
    rules_name: str | None = None
    try:
        if rules is None:
            options = kind.normalize_options(table_options, seats=len(seats))
        else:  # (a rule-set document: its players, if it sets them, must be the seats')
            checked = rules_from_dict(rules, game=kind.name)
            given = checked.record_options()
            options = kind.normalize_options({**given, **(table_options or {})}, seats=len(seats))
            rules_name = checked.name.strip() or None
    except RulesError as exc:
        raise rules_refusal(exc) from None
    except OptionError as exc:
        raise TableError("bad_options", key=f"option_{exc.code}", **exc.params) from None
    except KartentischError:
        raise TableError("bad_options", key="option_invalid") from None
    turn = body.get("turn_seconds")
    if turn is not None and (
        not isinstance(turn, int) or isinstance(turn, bool) or not 5 <= turn <= 3600
    ):
        raise TableError("bad_turn_seconds")
    private = body.get("private", False)
    if not isinstance(private, bool):
        raise TableError("bad_private")
    rated = body.get("rated", False)
    if not isinstance(rated, bool):
        raise TableError("bad_request", detail="rated: true or false")
    spectator_chat = body.get("spectator_chat", "separate")
    if spectator_chat not in ("separate", "off"):
        raise TableError("bad_request", detail='spectator_chat: "separate" or "off"')
    away = body.get("away", "standin")
    if away not in AWAY_POLICIES:
        raise TableError("bad_away", value=str(away)[:40])
    grace = body.get("grace_seconds")
    low, high = GRACE_RANGE
    if grace is not None and (not _whole(grace) or not low <= grace <= high):
        raise TableError("bad_grace_seconds", low=low, high=high)
    ready = body.get("ready_seconds")
    if ready is not None and (
        not _whole(ready) or not (ready == 0 or 5 <= ready <= MAX_READY_SECONDS)
    ):
        raise TableError("bad_ready_seconds", high=MAX_READY_SECONDS)
    move_seconds, deadline_standin = _correspondence(body, kind, turn)
    hints = body.get("hints", False)
    if not isinstance(hints, bool):
        raise TableError("bad_request", detail="hints: true or false")
    if hints and rated:
        raise TableError("hints_rated")
    if hints and is_realtime(kind):
        raise TableError("bad_request", detail="hints: not at a slap game")
    return NewTable(
        kind,
        options,
        seats,
        name,
        turn,
        private,
        away=away,
        grace_seconds=grace,
        ready_seconds=ready,
        rules_name=rules_name,
        rated=rated,
        spectator_chat=spectator_chat,
        move_seconds=move_seconds,
        deadline_standin=deadline_standin,
        hints=hints,
    )


def _correspondence(
    body: dict[str, Any], kind: TableGameType, turn: Any
) -> tuple[int | None, bool]:
    """A correspondence table's ``move_hours`` (as seconds) and ``deadline_standin``."""
    hours = body.get("move_hours")
    standin = body.get("deadline_standin", False)
    if not isinstance(standin, bool):
        raise TableError("bad_request", detail="deadline_standin: true or false")
    if hours is None:
        if standin:
            raise TableError("bad_request", detail="deadline_standin needs move_hours")
        return None, False
    low, high = MOVE_HOURS_RANGE
    if not _whole(hours) or not low <= hours <= high:
        raise TableError("bad_move_hours", low=low, high=high)
    if is_realtime(kind):
        raise TableError("correspondence_realtime")
    if turn is not None:
        raise TableError("bad_request", detail="move_hours and turn_seconds: one or the other")
    return hours * 3600, standin


def rules_refusal(error: RulesError) -> TableError:
    """A rule set's refusal as the web answers it: ``bad_rules``, the message of the
    refusal's code (``error.rules_…`` or ``error.option_…``), and beside it the code
    (``reason``), its ``params`` and the English text naming what may be (``detail``)."""
    key = error.code if error.code.startswith("rules_") else f"option_{error.code}"
    if key == "rules_syntax" and "line" in error.params:
        key = "rules_syntax_at"  # the place, in words of the language (the parser's are English)
    if not has(DEFAULT_LANGUAGE, f"error.{key}"):
        key = "bad_rules"
    refusal = TableError("bad_rules", key=key, **{"detail": str(error), **error.params})
    refusal.details = {"reason": error.code, "params": dict(error.params), "detail": str(error)}
    return refusal


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
