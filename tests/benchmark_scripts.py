"""Load a script of ``benchmarks/`` as a module, for the benchmarks' smoke tests.

The scripts are not a package (they are run as ``python benchmarks/NAME.py``), so the
tests import them from their path.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_benchmark(name: str) -> ModuleType:
    """The module of ``benchmarks/<name>.py``, run afresh."""
    path = BENCHMARKS / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up while it runs)
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module
