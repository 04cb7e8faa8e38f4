"""The canvas's modules as a contract: no import circle among them (imports for type checking
count too), and only the view, which puts the canvas together, knows the scene's class;
the interactions see it through :mod:`app.canvas.protocol`."""

from __future__ import annotations

import ast
from pathlib import Path

CANVAS = Path(__file__).resolve().parents[3] / "app" / "canvas"
PACKAGE = "app.canvas"
KNOWS_THE_SCENE = {"app.canvas.view"}
"""Modules besides the scene itself that may import :class:`DesignScene`."""


def canvas_imports(source: str, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``source`` imports, wherever the import is."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return found & known


def graph(folder: Path) -> dict[str, set[str]]:
    """Each module of ``folder`` (a package of :data:`PACKAGE`) and the ones it imports."""
    paths = {f"{PACKAGE}.{p.stem}": p for p in folder.glob("*.py") if p.stem != "__init__"}
    known = set(paths)
    return {name: canvas_imports(path.read_text(encoding="utf-8"), known) - {name}
            for name, path in paths.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle of ``edges`` (Tarjan's strongly connected components of more than
    one module), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle_in_the_canvas() -> None:
    assert circles(graph(CANVAS)) == []


def test_only_the_view_knows_the_scene() -> None:
    edges = graph(CANVAS)
    assert sorted(m for m, deps in edges.items() if "app.canvas.scene" in deps) == sorted(
        KNOWS_THE_SCENE)


def test_the_check_finds_a_circle_through_type_checking_imports(tmp_path: Path) -> None:
    (tmp_path / "scene.py").write_text("from app.canvas.move import MoveTracker\n")
    (tmp_path / "move.py").write_text("from typing import TYPE_CHECKING\n"
                                      "if TYPE_CHECKING:\n"
                                      "    from app.canvas.scene import DesignScene\n")
    (tmp_path / "view.py").write_text("from app.canvas import scene\n")
    edges = graph(tmp_path)
    assert edges == {"app.canvas.scene": {"app.canvas.move"},
                     "app.canvas.move": {"app.canvas.scene"},
                     "app.canvas.view": {"app.canvas.scene"}}
    assert circles(edges) == [["app.canvas.move", "app.canvas.scene"]]
