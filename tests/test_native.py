"""The compiled engine modules (mypyc) behave exactly like their Python sources."""

from __future__ import annotations

import ast
import doctest
import importlib.util
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kartentisch import _native

ROOT = Path(__file__).resolve().parents[1]

#: Plays seeded random Doppelkopf deals (every decision random, announcements and
#: Kulanz take-backs included) and prints what they produced, as JSON.
PLAYER = """
import json, random, sys
from kartentisch import _native
from kartentisch.games.doppelkopf.deal import DoppelkopfDeal
from kartentisch.games.doppelkopf.options import DoppelkopfOptions

def play(preset, players, table_mode, seed):
    options = DoppelkopfOptions.preset_named(preset, players=players, table_mode=table_mode)
    rng = random.Random(seed)
    deal = DoppelkopfDeal.from_seed(rng, dealer=rng.randrange(players), options=options)
    events = []
    while not deal.is_over:
        seat = rng.choice([s for s in deal.playing if deal.legal_actions(s)])
        action = rng.choice(deal.legal_actions(seat))
        events += [repr(e) for e in deal.apply(action, seat)]
    score = deal.score.to_dict() if deal.score is not None else None
    return {"record": deal.to_record(), "points": list(deal.points()), "score": score,
            "events": events}

games = [play(p, n, t, s) for p, n, t, s in json.loads(sys.argv[1])]
print(json.dumps({"compiled": _native.compiled(), "games": games}))
"""


def _run(cases: list[tuple[str, int, bool, int]], *, pure: bool) -> dict[str, Any]:
    env = dict(os.environ)
    env.pop("KARTENTISCH_PURE_PYTHON", None)
    if pure:
        env["KARTENTISCH_PURE_PYTHON"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", PLAYER, json.dumps(cases)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=300,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_setup_compiles_exactly_the_listed_modules() -> None:
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    listed: list[str] = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == "MYPYC_MODULES"
        ):
            listed = ast.literal_eval(node.value)
    names = tuple(p.removesuffix(".py").replace("/", ".") for p in listed)
    assert names == _native.COMPILED_MODULES


def test_status_names_the_mode() -> None:
    line = _native.status()
    assert ("compiled with mypyc" in line) == _native.compiled()


def test_an_edited_source_falls_back_to_python(monkeypatch: pytest.MonkeyPatch) -> None:
    if not any(map(_native._has_extension, _native.COMPILED_MODULES)):
        pytest.skip("this install has no compiled engine modules")
    monkeypatch.delenv("KARTENTISCH_PURE_PYTHON", raising=False)
    built = dict(_native._built_from())
    built["kartentisch.games.doppelkopf.deal"] = "0" * 64
    monkeypatch.setattr(_native, "_built_from", lambda: built)
    with pytest.warns(_native.StaleCompiledModulesWarning, match="doppelkopf.deal"):
        compiled, why = _native._decide()
    assert not compiled
    assert "kartentisch.games.doppelkopf.deal" in why


def test_pure_python_is_chosen_by_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    if not any(map(_native._has_extension, _native.COMPILED_MODULES)):
        pytest.skip("this install has no compiled engine modules")
    monkeypatch.setenv("KARTENTISCH_PURE_PYTHON", "1")
    assert _native._decide() == (
        False,
        "compiled, but KARTENTISCH_PURE_PYTHON is set: pure Python",
    )


@pytest.mark.parametrize("name", _native.COMPILED_MODULES)
def test_doctests_of_compiled_modules(name: str) -> None:
    """Collected from the sources by pytest when the modules run as Python."""
    if not _native.compiled():
        pytest.skip("pure Python: pytest collects these doctests itself")
    spec = importlib.util.spec_from_file_location(f"_doctest_{name}", _native.source_path(name))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up)
    try:
        spec.loader.exec_module(module)
        # The examples as written in the source, run in the compiled module's namespace.
        tests = doctest.DocTestFinder().find(module, globs=vars(importlib.import_module(name)))
    finally:
        del sys.modules[spec.name]
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0
    assert result.attempted == _native.source_path(name).read_text().count(">>>")


def test_compiled_and_python_engines_play_the_same_games() -> None:
    if not _native.compiled():
        pytest.skip(f"the engine is not compiled here: {_native.status()}")
    rng = random.Random(20261130)
    cases = [
        (preset, players, table_mode, rng.randrange(2**32))
        for preset, players, table_mode in [
            ("house", 4, False),
            ("house", 5, False),
            ("house", 4, True),
            ("ddv", 4, False),
            ("ddv", 4, True),
        ]
        for _ in range(40)
    ]
    compiled = _run(cases, pure=False)
    pure = _run(cases, pure=True)
    assert compiled["compiled"] and not pure["compiled"]
    for case, a, b in zip(cases, compiled["games"], pure["games"], strict=True):
        assert a == b, case


#: Plays seeded random Slobberhannes deals (now and then an illegal card first, whose
#: refusal is recorded) and prints what they produced, as JSON.
SLOBBERHANNES_PLAYER = """
import json, random, sys
from kartentisch import _native
from kartentisch.errors import IllegalActionError
from kartentisch.games.slobberhannes.deal import SlobberhannesDeal

def play(options, seed):
    rng = random.Random(seed)
    deal = SlobberhannesDeal.from_seed(rng, dealer=rng.randrange(options["players"]),
                                       options=options)
    events, refused = [], []
    while not deal.is_over:
        legal = deal.legal_actions()
        others = [c for c in deal.options.deck() if c not in legal]
        if others and rng.random() < 0.1:
            try:
                deal.apply(rng.choice(others), seat=rng.randrange(options["players"]))
            except IllegalActionError as exc:
                refused.append([exc.rule, str(exc), exc.seat, str(exc.action), repr(exc.params)])
        copy = deal.copy() if rng.random() < 0.05 else None
        events += [repr(e) for e in deal.apply(rng.choice(legal))]
        if copy is not None:
            copy.apply(copy.legal_actions()[0])
    return {"record": deal.to_record(), "points": list(deal.points()), "events": events,
            "refused": refused, "observation": deal.observation(0).to_dict(),
            "penalties": [repr(p) for p in deal.penalties()]}

games = [play(o, s) for o, s in json.loads(sys.argv[1])]
print(json.dumps({"compiled": _native.compiled(), "games": games}))
"""


def test_compiled_and_python_slobberhannes_play_the_same_deals() -> None:
    if not _native.compiled():
        pytest.skip(f"the engine is not compiled here: {_native.status()}")
    rng = random.Random(20261206)
    cases = [
        (options, rng.randrange(2**32))
        for options in [
            {"players": 4},
            {"players": 3, "revokes": "penalty"},
            {"players": 5},
            {"players": 6, "revokes": "penalty"},
            {"players": 7},
            {"players": 4, "all_three_bonus": False, "revokes": "penalty"},
        ]
        for _ in range(40)
    ]
    outputs = []
    for pure in (False, True):
        env = dict(os.environ)
        env.pop("KARTENTISCH_PURE_PYTHON", None)
        if pure:
            env["KARTENTISCH_PURE_PYTHON"] = "1"
        done = subprocess.run(
            [sys.executable, "-c", SLOBBERHANNES_PLAYER, json.dumps(cases)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            timeout=300,
        )
        outputs.append(json.loads(done.stdout))
    compiled, python = outputs
    assert compiled["compiled"] and not python["compiled"]
    assert any(game["refused"] for game in compiled["games"])
    for case, a, b in zip(cases, compiled["games"], python["games"], strict=True):
        assert a == b, case
