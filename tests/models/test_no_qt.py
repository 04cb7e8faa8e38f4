"""models/ must import and evaluate with Qt absent (napari-style import rule)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import builtins, sys
real = builtins.__import__
def guard(name, *a, **k):
    if name.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph'):
        raise ImportError('Qt is not allowed in models/: ' + name)
    return real(name, *a, **k)
builtins.__import__ = guard
import pkgutil, importlib, models
for m in pkgutil.walk_packages(models.__path__, 'models.'):
    importlib.import_module(m.name)
from models.examples import bundled as examples
from models.engine.evaluation import evaluate
for name in examples.names():
    evaluate(examples.load(name)).to_dict()
assert not any(k.startswith(('PySide6', 'pyqtgraph')) for k in sys.modules)
print('ok')
"""


def test_models_import_and_evaluate_without_qt() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True,
                         text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
