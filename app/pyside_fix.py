"""Work around a PySide6 6.12 reference-count bug that crashes Python 3.11.

Every call Qt makes to ``QGraphicsItem::itemChange`` on an item created from Python (each
``setPos``, ``setSelected``, ``setZValue``, every step of a drag, every pyqtgraph update) drops
one reference to ``None`` that it never took.  On Python 3.12+ ``None`` is immortal and
nothing happens; on 3.11 the count reaches zero after a few thousand calls and the
interpreter aborts with "none_dealloc: deallocating None".  We make ``None`` effectively
immortal on 3.11 the way 3.12 does: give it a reference count no program can use up.
Measured: 1,000 ``setPos`` calls lower ``sys.getrefcount(None)`` by exactly 1,000.
"""

from __future__ import annotations

import ctypes
import sys

_RESERVE = 1 << 60


def keep_none_alive() -> None:
    """Idempotent; a no-op where ``None`` is already immortal (Python >= 3.12)."""
    if sys.version_info >= (3, 12):
        return
    count = ctypes.c_ssize_t.from_address(id(None))
    if count.value < _RESERVE // 2:
        count.value += _RESERVE


keep_none_alive()
