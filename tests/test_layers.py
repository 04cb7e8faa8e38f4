"""The layers of the code, as a contract: a module imports only from its own layer or below.

models (the document vocabulary, the engine's data, the subsystem models, the engine and the
services over it) <- app's document and Qt groundwork <- views (canvas, panels, charts,
report) <- the window and the command line.  docs/architecture.md draws the same table.
The layers are folders: a module in a folder of no layer (or loose in ``models/`` or ``app/``)
fails this test, which says where it is.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("document vocabulary", ("models/document",)),
    ("engine data", ("models/core",)),
    ("subsystem models", ("models/subsystems",)),
    ("engine", ("models/engine",)),
    ("services", ("models/session", "models/analysis", "models/calibration", "models/io",
                  "models/examples", "models/report")),
    ("app document and groundwork", ("app/document", "app/support")),
    ("views", ("app/canvas", "app/panels", "app/charts", "app/report")),
    ("window and command line", ("app/window", "app/cli")),
)
"""Lowest first, folders only: a module belongs to the layer of the folder it sits in (at any
depth).  ``app/__main__.py``, the program's entry, stands above them all."""

ENTRY = "app.__main__"


def layer_of(module: str) -> int | None:
    if module == ENTRY:
        return len(LAYERS) - 1
    for i, (_, folders) in enumerate(LAYERS):
        for folder in folders:
            prefix = folder.replace("/", ".")
            if module == prefix or module.startswith(prefix + "."):
                return i
    return None


def modules() -> dict[str, Path]:
    out = {}
    for package in ("models", "app"):
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


def imports(path: Path, typing: bool = False) -> list[tuple[int, str]]:
    """Every imported module (with its line), outside ``if TYPE_CHECKING:`` blocks unless
    ``typing``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if not typing and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            found.extend((node.lineno, f"{node.module}.{a.name}") for a in node.names)
    return found


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def test_every_module_has_a_layer() -> None:
    assert sorted(m for m, path in modules().items()
                  if m not in ("models", "app") and layer_of(m) is None
                  and not (is_package(path) and not imports(path))) == []


def violations(known: dict[str, Path]) -> list[str]:
    """Every import of a module from a higher layer, as 'module:line (layer) imports ...'."""
    broken = []
    for name, path in sorted(known.items()):
        mine = layer_of(name)
        if mine is None:
            continue
        for line, target in imports(path):
            if target not in known or is_package(known[target]):
                continue  # a name from a module, a third-party module, or a package
            theirs = layer_of(target)
            if theirs is not None and theirs > mine:
                broken.append(f"{name}:{line} ({LAYERS[mine][0]}) imports {target}"
                              f" ({LAYERS[theirs][0]})")
    return broken


def test_no_module_imports_from_a_higher_layer() -> None:
    assert violations(modules()) == []


def test_the_contract_catches_an_upward_import(tmp_path: Path) -> None:
    engine = tmp_path / "compiled.py"
    engine.write_text("from models.document import design\nfrom app.panels import dashboard\n")
    panel = tmp_path / "dashboard.py"
    panel.write_text("")
    known = {"models.core.compiled": engine, "app.panels.dashboard": panel,
             "models.document.design": panel}
    assert violations(known) == ["models.core.compiled:2 (engine data) imports"
                                 " app.panels.dashboard (views)"]


def test_models_never_import_qt() -> None:
    qt = [f"{name}:{line} {t}" for name, path in modules().items()
          if name.startswith("models") for line, t in imports(path)
          if t.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph")]
    assert qt == []


def test_a_module_loose_in_a_top_folder_has_no_layer() -> None:
    assert layer_of("models.helpers") is None
    assert layer_of("app.format") is None
    assert layer_of("models.core.compiled") == 1
    assert layer_of("app.__main__") == len(LAYERS) - 1


def circles(known: dict[str, Path]) -> list[list[str]]:
    """Groups of modules that import one another round a loop, each sorted.  An import inside
    a function counts (it ties the modules together all the same), and so does a
    ``TYPE_CHECKING`` one (two modules that need each other's types are one module, or lack
    a third that both read)."""
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        deps = set()
        for _, imported in imports(path, typing=True):
            target = imported
            while target and target not in known:  # a name from a module: its module
                target = target.rpartition(".")[0]
            if target and target != name:
                deps.add(target)
        graph[name] = deps
    reach: dict[str, set[str]] = {}
    for start in graph:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for nxt in graph[todo.pop()] - seen:
                seen.add(nxt)
                todo.append(nxt)
        reach[start] = seen
    groups = {tuple(sorted({m} | {o for o in reach[m] if m in reach[o]}))
              for m in graph if m in reach[m]}
    return sorted(list(g) for g in groups)


def test_no_modules_import_each_other() -> None:
    assert circles(modules()) == []


def test_the_contract_catches_a_circle(tmp_path: Path) -> None:
    fit, cv, case = (tmp_path / f"{n}.py" for n in ("fit", "crossval", "cases"))
    fit.write_text("from models.calibration.cases import x\n"
                   "def main():\n    from models.calibration import crossval\n")
    cv.write_text("from models.calibration.fit import fit_all\n")
    case.write_text("")
    known = {"models.calibration.fit": fit, "models.calibration.crossval": cv,
             "models.calibration.cases": case}
    assert circles(known) == [["models.calibration.crossval", "models.calibration.fit"]]
