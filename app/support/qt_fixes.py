"""Workarounds for bugs in Qt and PySide6, installed once by whatever starts Qt.

:func:`install` is called before the first Qt object is made by everything that starts Qt
without :func:`app.window.run.run_app` (which calls it): the GUI tests' conftest, the benchmark,
the headless report (:func:`app.report.export.ensure_gui_app`).  The command line's other
commands never import Qt, so they need none of this.  (Collections on the GUI thread only are
:mod:`app.support.gc_guard`, installed where worker threads start.)

PySide6 6.12.0 reference-count bugs that crash Python 3.11:

- ``SignalInstance.emit()`` returns ``True`` without a new reference: every emit from Python
  (ours and pyqtgraph's) drops one reference to ``True`` ("bool_dealloc").
- Void-returning methods (``QPainter.setPen``, ``QRectF.setWidth``, ...) and every call Qt
  makes to ``QGraphicsItem::itemChange`` on an item created from Python (each ``setPos``,
  ``setSelected``, every step of a drag) drop one reference to ``None`` ("none_dealloc").
  Measured: 1,000 ``setPos`` calls lower ``sys.getrefcount(None)`` by exactly 1,000.

Python 3.12 made these objects immortal; on 3.11 :func:`make_immortal` does the same by giving
them a reference count no session can use up.  Remove it once Headroom needs Python >= 3.12 or
a fixed PySide6.
"""

from __future__ import annotations

import ctypes
import sys

_RESERVE = 1 << 60


def make_immortal() -> None:
    """Idempotent; a no-op where the singletons are already immortal (Python >= 3.12)."""
    if sys.version_info >= (3, 12):
        return
    for obj in (True, False, None):
        count = ctypes.c_ssize_t.from_address(id(obj))
        if count.value < _RESERVE // 2:
            count.value += _RESERVE


def install() -> None:
    """Apply every workaround (idempotent): call it before the first Qt object is made."""
    make_immortal()
