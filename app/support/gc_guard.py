"""Python's cyclic garbage collector runs only on the GUI thread.

Why: the collector runs in whichever thread happens to allocate past its threshold.  When
that is a worker (the band sweeps, goal seek, an import) and the garbage holds a Qt widget
left in a reference cycle (pyqtgraph makes many), the widget's C++ destructor runs in the
worker: ``QObject::~QObject`` takes Qt's connection lock and then waits for the GIL, while the
GUI thread, holding the GIL, waits for that same lock in its next ``connect``.  Seen as a
frozen test run (py-spy: ``gc_collect_main`` -> ``QMenu::~QMenu`` -> ``GilState::acquire`` in
the band thread, ``QObject::connectImpl`` -> ``QBasicMutex::lockInternal`` in the GUI thread).

How: automatic collection is switched off and a timer on the GUI thread collects each
generation when its count passes the interpreter's own threshold, as the automatic collector
would, so memory behaves as before and every destructor runs where Qt expects it.
:func:`install` is idempotent; :mod:`app.support.jobs` (the one way the app runs work off the GUI
thread) calls it when its first runner is made, and ``run_app`` at start-up.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import QCoreApplication, QObject, QThread, QTimer

from app.support import first_paint

INTERVAL_MS = 200
"""How often the GUI thread checks the collector's counts (cheap: three integers)."""
HOLD_S = 0.3
"""How long after an edit collections wait (:func:`hold`)."""
HELD_MAX = 20
"""A held collection runs anyway once the youngest generation holds this many times its
threshold."""

_guard: GuiThreadCollector | None = None


class GuiThreadCollector(QObject):
    """Collects on the GUI thread what the disabled automatic collector would have."""

    def __init__(self, app: QCoreApplication):
        super().__init__(app)
        self.collections = 0
        """How many collections this guard has run (tests read it)."""
        self.thresholds = gc.get_threshold()
        self.quiet_at = 0.0
        """Until when (``time.monotonic``) collections wait: see :func:`hold`."""
        self.timer = QTimer(self)
        self.timer.setInterval(INTERVAL_MS)
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def check(self) -> None:
        """Collect the oldest generation whose count is past its threshold, if any (not
        before the first window has painted: a design just read would be walked whole, and
        it is settled after that paint)."""
        if first_paint.awaiting():
            return
        counts = gc.get_count()
        if time.monotonic() < self.quiet_at and counts[0] < HELD_MAX * self.thresholds[0]:
            return  # edits are coming (a slider dragged): collect once they pause
        for generation in (2, 1, 0):
            threshold = self.thresholds[generation]
            if threshold and counts[generation] > threshold:
                gc.collect(generation)
                self.collections += 1
                return


def hold() -> None:
    """An edit was made: collections wait until the edits have paused for
    :data:`HOLD_S` (a slider drag's steps are not held up by a collection that can as well
    run after them), unless the garbage piles up past :data:`HELD_MAX` times the threshold."""
    if _guard is not None:
        _guard.quiet_at = time.monotonic() + HOLD_S


def install() -> GuiThreadCollector | None:
    """Move garbage collection to the GUI thread (once per application); None when there is
    no Qt application yet or when called off the GUI thread (nothing changes then)."""
    global _guard  # noqa: PLW0603 (one guard per process)
    app = QCoreApplication.instance()
    if app is None or QThread.currentThread() != app.thread():
        return None
    try:
        current = _guard is not None and _guard.parent() == app
    except RuntimeError:  # the guard went with an earlier application
        current = False
    if not current:
        gc.disable()
        _guard = GuiThreadCollector(app)
    return _guard


LARGE = 5000
"""A design with more components than this is settled when it is loaded (:func:`settle`)."""


def settle(components: int) -> bool:
    """After a design of ``components`` components is loaded: collect once, then move what
    survives (the design, its engine, the app itself) into the collector's permanent
    generation, so that later collections no longer walk 50,000 components' objects (a
    full collection took about 100 ms, a slider step's worst case).  Objects are still freed
    when nothing refers to them.  Small designs are left alone.  True when it settled."""
    if components <= LARGE:
        return False
    gc.collect()
    gc.freeze()
    return True



T = TypeVar("T")


def aside(make: Callable[[], T], components: int) -> T:
    """``make()``, a large object without reference cycles that a background job reads (a
    design's copy), kept out of the collector's way when the design has more than
    :data:`LARGE` components: made right after a collection, then moved with everything
    alive into the permanent generation, as :func:`settle` does.  Otherwise every
    collection on the GUI thread walks it while the job holds it (a 50,000-VM copy is
    200,000 objects: one such collection held a slider step for a quarter of a second).
    Reference counting frees it when the job is done."""
    if components <= LARGE:
        return make()
    gc.collect()
    made = make()
    gc.freeze()
    return made
