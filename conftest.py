"""Collection rules for the whole repository.

Modules that run compiled (see ``kartentisch._native``) cannot be collected for
doctests from their source path; tests/test_native.py runs their doctests instead.
"""

from __future__ import annotations

from pathlib import Path

from kartentisch import _native

_COMPILED_SOURCES = (
    frozenset(_native.source_path(name) for name in _native.COMPILED_MODULES)
    if _native.compiled()
    else frozenset()
)


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    if collection_path.resolve() in _COMPILED_SOURCES:
        return True
    return None
