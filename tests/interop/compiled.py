"""What the tests of the vector environments' compiled games share.

Skip markers: ``_vecslob`` and ``_vecdoko`` are optional (built only with a C
compiler) and refused under ``KARTENTISCH_PURE_PYTHON``; :func:`compiled_available`
says both. Then the Slobberhannes option sets the games are compared under, and
one step of two environments that must stay alike (:func:`step_alike`).
Import this module after skipping on the libraries the test module needs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from kartentisch.interop.vector import IntArray, VectorEnv, compiled_available

__all__ = [
    "SLOBBERHANNES_OPTIONS",
    "needs_compiled_doppelkopf",
    "needs_compiled_slobberhannes",
    "step_alike",
]

#: The compiled Slobberhannes games (``interop/_vecslob.c``).
needs_compiled_slobberhannes = pytest.mark.skipif(
    not compiled_available(),
    reason="the compiled Slobberhannes games are not built",
)
#: The compiled Doppelkopf games (``interop/_vecdoko.c``, the house and the DDV preset).
needs_compiled_doppelkopf = pytest.mark.skipif(
    not compiled_available("doppelkopf"),
    reason="the compiled Doppelkopf games are not built",
)

#: Slobberhannes option sets: player counts 3 to 7, revokes penalised, the Russian preset.
SLOBBERHANNES_OPTIONS: list[dict[str, Any] | None] = [
    None,
    {"players": 3},
    {"players": 5, "revokes": "penalty"},
    {"players": 7},
    {"preset": "russian"},
    {"players": 6, "all_three_bonus": False, "revokes": "penalty"},
]


def step_alike(one: VectorEnv, two: VectorEnv) -> tuple[IntArray, dict[str, Any]]:
    """Sample ``one``'s actions (``two`` must sample the same), step both with them and
    check that both give the same observations, rewards and terminations; the actions
    and the observations."""
    actions = one.sample_actions()
    np.testing.assert_array_equal(actions, two.sample_actions())
    x, y = one.step(actions), two.step(actions)
    for key in x[0]:
        np.testing.assert_array_equal(x[0][key], y[0][key])
    np.testing.assert_array_equal(x[1], y[1])
    np.testing.assert_array_equal(x[2], y[2])
    return actions, x[0]
