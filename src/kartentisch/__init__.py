"""Kartentisch: Slobberhannes, Doppelkopf, Slapjack and Irish Snap.

The layers, from the bottom: :mod:`kartentisch.cards`, the shared
:mod:`kartentisch.tricks` machinery, one package per game under
:mod:`kartentisch.games`, observations and bots (:mod:`kartentisch.bots`),
matches with score sheets, and the interfaces (:mod:`kartentisch.cli`).
"""

from kartentisch import _native  # noqa: F401  (first: decides compiled or pure modules)

__version__ = "0.1.0"
