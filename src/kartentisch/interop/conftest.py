"""Doctests of the bridges run only where their optional library is installed."""

from __future__ import annotations

from importlib.util import find_spec

collect_ignore = [
    module
    for module, library in (
        ("encoding.py", "numpy"),
        ("encoding_common.py", "numpy"),
        ("encoding_doppelkopf.py", "numpy"),
        ("encoding_slobberhannes.py", "numpy"),
        ("pettingzoo.py", "pettingzoo"),
        ("openspiel.py", "pyspiel"),
        ("vector.py", "numpy"),
    )
    if find_spec(library) is None
]
