"""The package's shape: the rule engines import one another in one direction only,
and no module imports another's private names (docs/architecture.md).

The import graph is read from the sources (every ``import`` and ``from … import``,
at the top, inside functions or under ``TYPE_CHECKING`` alike): a circle that only a
lazy import keeps from failing is still a circle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "kartentisch"


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _imports(path: Path) -> Iterator[tuple[str, str | None, int]]:
    """(module, name imported from it or None, line) of every import in ``path``."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                yield node.module, alias.name, node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None, node.lineno


def _graph() -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for name, path in MODULES.items():
        for module, imported, _ in _imports(path):
            target = f"{module}.{imported}" if imported else module
            if target in MODULES:  # ``from package import module``
                graph[name].add(target)
            elif module in MODULES:
                graph[name].add(module)
    return graph


def _circles(graph: dict[str, set[str]], within: str) -> list[list[str]]:
    """The strongly connected components (of more than one module) among the modules
    whose names start with ``within`` (Tarjan's algorithm, iteratively)."""
    nodes = sorted(n for n in graph if n == within or n.startswith(within + "."))
    inside = set(nodes)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root] & inside)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child] & inside))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


@pytest.mark.parametrize(
    "within",
    [
        "kartentisch.games",
        "kartentisch.games.doppelkopf",
        "kartentisch.bots",
        "kartentisch.search",
        "kartentisch.realtime",
        "kartentisch.storage",
    ],
)
def test_no_import_circle(within: str) -> None:
    assert _circles(_graph(), within) == []


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p.a"}}
    assert _circles(graph, "p") == [["p.a", "p.b", "p.c"]]
    assert _circles({"p.a": {"p.b"}, "p.b": set()}, "p") == []


def test_the_doppelkopf_phases_sit_above_the_state_and_below_the_deal() -> None:
    graph = _graph()
    base = "kartentisch.games.doppelkopf"
    phases = ("announcements", "armut", "declarations", "play", "observation")
    for phase in phases:
        imported = graph[f"{base}.{phase}"]
        assert f"{base}.state" in imported, phase
        assert f"{base}.deal" not in imported, f"{phase} imports the deal"
    below = {"state", "trumps", "options", "actions", "events", "scoring", "scoring_base"}
    state_imports = {m.rsplit(".", 1)[1] for m in graph[f"{base}.state"] if m.startswith(base)}
    assert state_imports <= below, state_imports


def _is_module(module: str, name: str) -> bool:
    """Whether ``from module import name`` imports a module (a package's own private
    module, such as a compiled kernel, is the package's to import)."""
    folder = SRC.joinpath(*module.split("."))
    return (
        (folder / f"{name}.py").exists()
        or (folder / f"{name}.c").exists()
        or any(folder.glob(f"{name}.*.so"))
        or (folder / name).is_dir()
    )


def test_no_module_imports_a_private_name() -> None:
    offences = [
        f"{path.relative_to(SRC)}:{line}: {module}.{name}"
        for path in MODULES.values()
        for module, name, line in _imports(path)
        if name is not None
        and name.startswith("_")
        and not name.startswith("__")
        and module.startswith("kartentisch")
        and not _is_module(module, name)
    ]
    assert offences == []
