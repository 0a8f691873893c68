"""Which engine modules run compiled, decided once when :mod:`kartentisch` is imported.

The install may compile the deck's shuffle and deal, the Doppelkopf engine's hot
modules and the shared trick machinery with mypyc (``setup.py``; optional). The
compiled modules are used only when they were built from exactly the Python
sources beside them: the build writes the SHA-256 of each source to
``kartentisch/_compiled_sources.py`` and this module compares them. If a source
was edited since the build, if the build info is missing, or if
``KARTENTISCH_PURE_PYTHON`` is set, every one of these modules is loaded from its
Python source instead (all or none: compiled modules call each other directly).
The behaviour is the same either way; only the speed differs.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Final

__all__ = ["COMPILED_MODULES", "compiled", "source_path", "status"]

#: The modules setup.py compiles with mypyc (kept equal to its list by a test).
COMPILED_MODULES: Final = (
    "kartentisch.dealing",
    "kartentisch.tricks",
    "kartentisch.games.doppelkopf.actions",
    "kartentisch.games.doppelkopf.announcements",
    "kartentisch.games.doppelkopf.armut",
    "kartentisch.games.doppelkopf.deal",
    "kartentisch.games.doppelkopf.declarations",
    "kartentisch.games.doppelkopf.play",
    "kartentisch.games.doppelkopf.scoring",
    "kartentisch.games.doppelkopf.scoring_base",
    "kartentisch.games.doppelkopf.scoring_ddv",
    "kartentisch.games.doppelkopf.scoring_house",
    "kartentisch.games.doppelkopf.state",
    "kartentisch.games.doppelkopf.trumps",
    "kartentisch.games.slobberhannes.deal",
)
_PACKAGE: Final = Path(__file__).resolve().parent


class StaleCompiledModulesWarning(RuntimeWarning):
    """The compiled engine modules do not match their sources: the sources are used."""


def source_path(name: str) -> Path:
    """The Python source of module ``name`` of this package."""
    return _PACKAGE.joinpath(*name.split(".")[1:]).with_suffix(".py")


def _has_extension(name: str) -> bool:
    source = source_path(name)
    return any(
        source.with_name(source.stem + suffix).exists()
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
    )


def _built_from() -> dict[str, str]:
    try:
        module: ModuleType = importlib.import_module("kartentisch._compiled_sources")
    except ImportError:
        return {}
    sources = getattr(module, "SOURCES", {})
    return dict(sources) if isinstance(sources, dict) else {}


def _decide() -> tuple[bool, str]:
    """Whether the compiled modules are used, and why (for ``status``)."""
    if not any(map(_has_extension, COMPILED_MODULES)):
        return False, "not compiled (pure Python install)"
    if os.environ.get("KARTENTISCH_PURE_PYTHON"):
        return False, "compiled, but KARTENTISCH_PURE_PYTHON is set: pure Python"
    built = _built_from()
    missing = [n for n in COMPILED_MODULES if n not in built or not _has_extension(n)]
    if missing:
        return False, f"incomplete build ({', '.join(missing)}): pure Python"
    edited = [
        n
        for n in COMPILED_MODULES
        if hashlib.sha256(source_path(n).read_bytes()).hexdigest() != built[n]
    ]
    if edited:
        warnings.warn(
            f"kartentisch: {', '.join(edited)} changed since the compiled build; "
            "using the Python sources (reinstall, e.g. `make`, to compile again)",
            StaleCompiledModulesWarning,
            stacklevel=3,
        )
        return False, f"sources edited since the build ({', '.join(edited)}): pure Python"
    return True, "compiled with mypyc"


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Loads the listed modules from their ``.py`` files, ahead of any extension."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        if fullname not in COMPILED_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


_COMPILED, _STATUS = _decide()
if not _COMPILED and any(map(_has_extension, COMPILED_MODULES)):
    sys.meta_path.insert(0, _SourceFirst())


def compiled() -> bool:
    """Whether the engine modules in :data:`COMPILED_MODULES` run compiled."""
    return _COMPILED


def status() -> str:
    """A line saying whether the engine runs compiled, and why not if it does not."""
    return _STATUS
