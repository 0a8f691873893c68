"""Skip markers of the tests that need the vector environments' compiled games.

``_vecslob`` and ``_vecdoko`` are optional (built only with a C compiler) and
refused under ``KARTENTISCH_PURE_PYTHON``; :func:`compiled_available` says both.
Import this module after skipping on the libraries the test module needs.
"""

from __future__ import annotations

import pytest

from kartentisch.interop.vector import compiled_available

__all__ = ["needs_compiled_doppelkopf", "needs_compiled_slobberhannes"]

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
