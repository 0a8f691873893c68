"""The strong bots' choices depend on the seed and the observation only, never on the clock.

The clock is made to jump by a day at every reading while the bots think; a
choice made in another process must be the same; the simulate command's
``--json`` is the same with one worker process and with two.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from kartentisch.bots import make_bot
from kartentisch.bots.doppelkopf import HeuristicDoppelkopfBot
from kartentisch.cli.main import main
from kartentisch.games.doppelkopf.deal import DoppelkopfDeal

#: A few deals and the first decisions of each: the early tricks, where the
#: strong Slobberhannes bot searches most.
DEALS = (0, 1, 2)
DECISIONS = 6


def _jumping_clock() -> Iterator[float]:
    return itertools.count(0.0, 86_400.0)


#: The strong bot's first choices in a deal, and the samples each took: run here
#: and in another process.
CHOICES = f"""
from kartentisch.bots.slobberhannes_strong import StrongSlobberhannesBot
from kartentisch.games.slobberhannes.deal import SlobberhannesDeal


def slobberhannes_choices(seed):
    deal = SlobberhannesDeal.from_seed(seed, dealer=seed % 4)
    bot = StrongSlobberhannesBot(seed)
    out = []
    for _ in range({DECISIONS}):
        bot.last_samples = 0
        card = bot.choose(deal.observation(deal.to_move))
        out.append([str(card), bot.last_samples])
        deal.apply(card)
    return out
"""


def _slobberhannes_choices(seed: int) -> list[list[object]]:
    scope: dict[str, Any] = {}
    exec(CHOICES, scope)
    choices: list[list[object]] = scope["slobberhannes_choices"](seed)
    return choices


def _doppelkopf_choices(seed: int) -> list[str]:
    """The strong Doppelkopf bot's cards once its exact search starts (6 tricks left)."""
    deal = DoppelkopfDeal.from_seed(seed, dealer=0)
    strong = make_bot("doppelkopf", "strong", seed)
    out: list[str] = []
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        searching = deal.phase == "play" and len(deal.hand(seat)) <= 6
        bot = strong if searching else HeuristicDoppelkopfBot(seat)
        action = bot.choose(obs)
        if searching:
            out.append(str(action))
        deal.apply(action, seat)
    return out


def _freeze_jumping_clocks(monkeypatch: pytest.MonkeyPatch) -> Iterator[float]:
    ticks = _jumping_clock()
    for name in ("perf_counter", "monotonic", "time"):
        monkeypatch.setattr(time, name, lambda: next(ticks))
    return ticks


def test_a_jumping_clock_changes_no_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    calm = {seed: _slobberhannes_choices(seed) for seed in DEALS}
    doppelkopf = _doppelkopf_choices(4)
    ticks = _freeze_jumping_clocks(monkeypatch)
    start = next(ticks)
    assert {seed: _slobberhannes_choices(seed) for seed in DEALS} == calm
    assert _doppelkopf_choices(4) == doppelkopf
    monkeypatch.undo()
    # The bots never asked the clock (only this test did, once).
    assert next(ticks) == start + 86_400.0
    # The early decisions drew more than the minimum of samples: the budget is not a clock's.
    assert any(int(str(samples)) > 6 for choices in calm.values() for _, samples in choices)


def test_another_process_makes_the_same_choices() -> None:
    code = (
        f"{CHOICES}\nimport json\nprint(json.dumps([slobberhannes_choices(s) for s in {DEALS!r}]))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True
    )
    assert json.loads(run.stdout) == [_slobberhannes_choices(s) for s in DEALS]


SIMULATE = [
    "simulate",
    "slobberhannes",
    "--bots",
    "strong,heuristic,heuristic,heuristic",
    "--deals",
    "3",
    "--seed",
    "11",
    "--json",
]


def test_simulate_json_is_the_same_with_one_or_two_jobs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main([*SIMULATE, "--jobs", "1"]) == 0
    one = capsys.readouterr().out
    assert main([*SIMULATE, "--jobs", "2"]) == 0
    two = capsys.readouterr().out
    assert one == two
    _freeze_jumping_clocks(monkeypatch)
    assert main([*SIMULATE, "--jobs", "1"]) == 0
    assert capsys.readouterr().out == one
