"""Compiled parts of kartentisch; everything else is in pyproject.toml.

All of them are optional: without a C compiler or without mypyc the package is
pure Python and behaves the same, only slower; ``KARTENTISCH_PURE_PYTHON=1`` at
run time ignores what was compiled.

- Two C search kernels (``kartentisch.search._maxn`` and ``_dokosolve``) beside
  their pure-Python twins, and the vector environments' compiled games
  (``kartentisch.interop._vecslob`` and ``_vecdoko``) beside the scalar tables.
- The deck's shuffle and deal, the Doppelkopf engine's hot modules and the
  shared trick machinery, compiled from their own Python sources with mypyc
  (the engine benchmark decided it: docs/performance.md). The SHA-256 of each source is written to
  ``kartentisch/_compiled_sources.py``; at import, ``kartentisch`` checks them and
  loads the Python sources instead if any was edited since the build.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup

ROOT = Path(__file__).parent
SRC = ROOT / "src"
#: Modules compiled with mypyc, by source path under src/.
MYPYC_MODULES = [
    "kartentisch/dealing.py",
    "kartentisch/tricks.py",
    "kartentisch/games/doppelkopf/actions.py",
    "kartentisch/games/doppelkopf/announcements.py",
    "kartentisch/games/doppelkopf/armut.py",
    "kartentisch/games/doppelkopf/deal.py",
    "kartentisch/games/doppelkopf/declarations.py",
    "kartentisch/games/doppelkopf/play.py",
    "kartentisch/games/doppelkopf/scoring.py",
    "kartentisch/games/doppelkopf/scoring_base.py",
    "kartentisch/games/doppelkopf/scoring_ddv.py",
    "kartentisch/games/doppelkopf/scoring_house.py",
    "kartentisch/games/doppelkopf/state.py",
    "kartentisch/games/doppelkopf/trumps.py",
    "kartentisch/games/slobberhannes/deal.py",
]
HASHES = SRC / "kartentisch" / "_compiled_sources.py"


def numpy_build() -> dict[str, list[Any]]:
    """NumPy's headers for the compiled games (their PettingZoo short way, _aec.h), where
    NumPy is installed at build time (pyproject.toml asks for it); without them the
    games build all the same and the environments take the Python way."""
    try:
        import numpy
    except ImportError:
        print("NumPy is not available: the environments' C short way is left out", file=sys.stderr)
        return {}
    return {"include_dirs": [numpy.get_include()], "define_macros": [("KT_NUMPY", "1")]}


def c_kernels() -> list[Extension]:
    return (
        [
            Extension(
                f"kartentisch.search.{name}",
                sources=[f"src/kartentisch/search/{name}.c"],
                extra_compile_args=["-O3"],
                optional=True,
            )
            for name in ("_maxn", "_dokosolve")
        ]
        + [
            # The compiled games of the vector and PettingZoo environments: Slobberhannes,
            # and Doppelkopf under the house and the DDV preset (kartentisch.interop.vector).
            Extension(
                f"kartentisch.interop.{name}",
                sources=[f"src/kartentisch/interop/{name}.c"],
                depends=[
                    "src/kartentisch/interop/_mt.h",  # the shared Mersenne Twister
                    "src/kartentisch/interop/_obs.h",  # observe_new's arrays and dict
                    "src/kartentisch/interop/_aec.h",  # the PettingZoo environment's short way
                    "src/kartentisch/interop/_envstate.h",  # the fields it reads and writes
                ],
                extra_compile_args=["-O3"],
                optional=True,
                **numpy_build(),
            )
            for name in ("_vecslob", "_vecdoko")
        ]
        + [
            # The PettingZoo environment's and env()'s outer wrapper's last() and step()
            # (kartentisch.interop.pettingzoo): the compiled games' short way without a frame.
            Extension(
                "kartentisch.interop._shortway",
                sources=["src/kartentisch/interop/_shortway.c"],
                depends=["src/kartentisch/interop/_envstate.h"],
                extra_compile_args=["-O3"],
                optional=True,
            )
        ]
    )


def mypyc_modules() -> list[Extension]:
    """The mypyc extensions, with the hashes of their sources; none if mypyc is missing."""
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("mypyc is not available: the Doppelkopf engine stays pure Python", file=sys.stderr)
        HASHES.unlink(missing_ok=True)
        return []
    hashes = {
        path.removesuffix(".py").replace("/", "."): hashlib.sha256(
            (SRC / path).read_bytes()
        ).hexdigest()
        for path in MYPYC_MODULES
    }
    lines = [
        '"""Written by setup.py: the sources the compiled modules were built from."""',
        "",
        "SOURCES: dict[str, str] = {",
        *(f"    {name!r}: {digest!r}," for name, digest in sorted(hashes.items())),
        "}",
        "",
    ]
    HASHES.write_text("\n".join(lines), encoding="utf-8")
    # The build environment holds only the build requirements: the libraries of the
    # rest of the package (rich, SQLAlchemy …) are not installed there, and their
    # types do not matter to the compiled modules. The modules they import but that
    # are not compiled (the CLI, through a registry entry) are read for their types
    # only: what the type checker would say of them there is not the build's concern
    # (`make typecheck` checks the whole package with every library installed).
    paths = [
        "--ignore-missing-imports",
        "--follow-imports=silent",
        *(f"src/{path}" for path in MYPYC_MODULES),
    ]
    try:
        extensions = mypycify(paths, opt_level="3", group_name="kartentisch_engine")
    except (SystemExit, Exception) as exc:  # mypyc reports type errors by exiting
        print(
            f"mypyc could not compile the engine ({exc!r}): it stays pure Python",
            file=sys.stderr,
        )
        HASHES.unlink(missing_ok=True)
        return []
    for ext in extensions:
        ext.optional = True
    return extensions


setup(ext_modules=c_kernels() + mypyc_modules())
