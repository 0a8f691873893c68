"""What every game's analyser shares: the registry, the result's shape, seat checks."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any, Protocol

from kartentisch.errors import KartentischError

__all__ = [
    "ANALYSERS",
    "Analysis",
    "AnalysisModule",
    "analyze",
    "check_deal",
    "check_seat",
    "seat_names",
]

#: Game name → the module under ``kartentisch.analysis`` that analyses it (imported lazily).
ANALYSERS: dict[str, str] = {
    "slobberhannes": "slobberhannes",
    "doppelkopf": "doppelkopf",
}


class Analysis(Protocol):
    """An analysed record: every decision looked at, and a total per seat."""

    def to_json(self) -> dict[str, Any]:
        """``{"decisions": [...], "totals": {seat: ...}}`` (the CLI adds ``"game"``)."""
        ...

    def text(self, lang: str = "en") -> list[str]:
        """The analysis as lines of text in ``lang``, one per decision, then the totals."""
        ...


class AnalysisModule(Protocol):
    """What a game's analysis module provides."""

    DEFAULT_SAMPLES: int

    def analyse_record(
        self, replayed: Any, *, seat: int | None, seed: int, samples: int, deal: int | None
    ) -> Analysis: ...


def _module(game: str) -> AnalysisModule:
    name = ANALYSERS.get(game)
    if name is None:
        known = ", ".join(sorted(ANALYSERS))
        raise KartentischError(f"analysis is available for {known}, not {game}")
    module: Any = importlib.import_module(f"kartentisch.analysis.{name}")
    return module  # type: ignore[no-any-return]


def analyze(
    game: str,
    replayed: Any,
    *,
    seat: int | None = None,
    seed: int = 0,
    samples: int | None = None,
    deal: int | None = None,
) -> Analysis:
    """Analyse a replayed record of ``game`` (``samples``: the game's default if None;
    ``deal``: only that deal, numbered from 1 as ``kartentisch replay`` counts them)."""
    module = _module(game)
    count = module.DEFAULT_SAMPLES if samples is None else samples
    if count < 1:
        raise KartentischError("--samples must be at least 1")
    return module.analyse_record(replayed, seat=seat, seed=seed, samples=count, deal=deal)


def check_seat(seat: int | None, players: int) -> None:
    """Refuse a seat that is not at the table."""
    if seat is not None and not 0 <= seat < players:
        raise KartentischError(f"no seat {seat}: seats run from 0 to {players - 1}")


def check_deal(deal: int | None, numbers: Sequence[int]) -> None:
    """Refuse a deal number the record does not have."""
    if deal is not None and deal not in numbers:
        last = max(numbers, default=0)
        raise KartentischError(f"no deal {deal}: the record's deals run from 1 to {last}")


def seat_names(names: Sequence[str] | None, players: int) -> tuple[str, ...]:
    """The record's seat names, or ``seat 0`` … when it has none."""
    return tuple(names) if names else tuple(f"seat {i}" for i in range(players))
