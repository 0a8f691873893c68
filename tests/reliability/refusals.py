"""Shared machinery: refused actions that change nothing, records that replay exactly.

Every fuzz test keeps two copies of a game: the one under test, which is
offered illegal actions between the legal ones, and a shadow that is only
ever given the legal ones. After each refusal the two must look the same in
every way a player or an interface can look at them (record, events, legal
actions of every seat, observations of every seat), so a refused action that
leaves a trace anywhere is caught, whether or not the engine had filled its
caches before.
"""

from __future__ import annotations

import json
import random
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import settings

from kartentisch.cards import Card
from kartentisch.errors import IllegalActionError
from kartentisch.games import get_game
from kartentisch.i18n import LANGUAGES, describe_refusal
from kartentisch.records import load_record, write_record

__all__ = [
    "GARBAGE",
    "Attempt",
    "Refusals",
    "fuzz_settings",
    "replay_through_file",
    "rules",
]


def fuzz_settings(examples: int) -> settings:
    """Fixed examples (derandomized: the same games on every run), no deadline."""
    return settings(max_examples=examples, deadline=None, derandomize=True)


class _Opaque:
    """An object no engine knows."""

    def __repr__(self) -> str:
        return "<opaque>"


#: Objects that are not actions of any game: the engines must refuse them all.
GARBAGE: tuple[object, ...] = (
    None,
    0,
    7,
    -1,
    51,
    52,
    2**70,
    True,
    False,
    3.5,
    float("nan"),
    "",
    "QC",
    "10H",
    "0 s0 turn",
    "pass",
    "garbage",
    "\x00\ufffd",
    b"QC",
    [],
    ["QC"],
    ("QC",),
    {},
    {"card": "QC"},
    {"t": 0, "seat": 0, "type": "turn"},
    frozenset({Card("QC")}),
    _Opaque(),
)


@dataclass(frozen=True)
class Attempt:
    """An illegal action offered from ``seat``: ``kind`` says why it must be refused.

    ``rules`` are the refusal codes that fit (empty: any code will do).
    """

    kind: str
    action: object
    seat: int | None
    rules: frozenset[str] = frozenset()

    def __str__(self) -> str:
        return f"{self.kind}: {self.action!r} from seat {self.seat}"


def rules(*codes: str) -> frozenset[str]:
    return frozenset(codes)


class Refusals:
    """Offers illegal actions to ``state``; compares it with ``shadow`` after each.

    ``snapshot`` is everything observable about a game, as comparable data.
    ``kinds`` counts the kinds of illegal input refused (for the coverage checks).
    """

    def __init__(
        self,
        state: Any,
        shadow: Any,
        snapshot: Callable[[Any], Any],
        rng: random.Random,
        *,
        ways: tuple[str, ...] = ("check", "can", "apply"),
    ) -> None:
        self.state = state
        self.shadow = shadow
        self.snapshot = snapshot
        self.rng = rng
        self.ways = ways
        self.kinds: dict[str, int] = {}

    def offer(self, attempt: Attempt, *, compare: bool = True) -> IllegalActionError:
        """``check``, ``can`` and ``apply`` all refuse, with the same rule; nothing changes."""
        state = self.state
        ways = list(self.ways)
        self.rng.shuffle(ways)
        errors: list[IllegalActionError] = []
        for way in ways:
            if way == "can":
                assert state.can(attempt.action, attempt.seat) is False, f"can() accepted {attempt}"
                continue
            try:
                getattr(state, way)(attempt.action, attempt.seat)
            except IllegalActionError as exc:
                errors.append(exc)
            else:
                raise AssertionError(f"{way}() accepted {attempt}")
        first = errors[0]
        for error in errors:
            check_error(error, attempt)
            assert error.rule == first.rule, f"{attempt}: {first.rule} then {error.rule}"
        self.kinds[attempt.kind] = self.kinds.get(attempt.kind, 0) + 1
        if compare:
            self.unchanged(str(attempt))
        return first

    def offer_some(self, attempts: Iterable[Attempt], count: int) -> None:
        """Offer ``count`` attempts, each of a kind drawn at random, then compare once more."""
        by_kind: dict[str, list[Attempt]] = {}
        for attempt in attempts:
            by_kind.setdefault(attempt.kind, []).append(attempt)
        if not by_kind:
            return
        kinds = sorted(by_kind)
        for _ in range(count):
            attempt = self.rng.choice(by_kind[self.rng.choice(kinds)])
            self.offer(attempt, compare=self.rng.random() < 0.5)
        self.unchanged("a run of refusals")

    def unchanged(self, what: str) -> None:
        assert self.snapshot(self.state) == self.snapshot(self.shadow), f"changed by {what}"


def check_error(error: IllegalActionError, attempt: Attempt) -> None:
    """A refusal names its rule and says what was wrong, in every language."""
    assert isinstance(error, IllegalActionError)
    assert isinstance(error.rule, str) and error.rule, f"{attempt}: no rule code"
    assert isinstance(error.message, str) and error.message.strip(), f"{attempt}: no message"
    assert str(error) == error.message
    if attempt.rules:
        assert error.rule in attempt.rules, f"{attempt}: refused as {error.rule!r} ({error})"
    for lang in LANGUAGES:
        assert describe_refusal(error, lang).strip(), f"{attempt}: no {lang} text"


def replay_through_file(record: dict[str, Any]) -> Any:
    """Write the record with the package's writer, read it back and replay it."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        write_record(record, path)
        loaded = load_record(path)
    assert loaded == json.loads(json.dumps(record))
    return get_game(loaded["game"]).replay(loaded)
