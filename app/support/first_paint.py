"""Work that can wait until the window has painted once.

Opening a 50,000-VM design, what the first picture needs (the design read, evaluated and
drawn, the docks filled) took about half of the time to the first window; the rest (a
garbage collection, the overlap hint, the first uncertainty band and knob curve in the
background) can wait until the window is on screen.  ``run_app`` says a window is coming
(:func:`expect`); until that window's canvas has painted (:func:`watch`), :func:`later`
queues its callables, and they run, in order, on the event-loop turn after the first paint.
Without a window to wait for (a test, a benchmark, a design opened in a running app),
:func:`later` runs its callable at once: nothing changes there.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

_queue: list[Callable[[], object]] | None = None
"""What waits for the first paint; None when no first paint is awaited."""
_watcher: _Watcher | None = None

FALLBACK_MS = 10_000
"""What waits runs at the latest this long after :func:`watch`, painted or not."""


def expect() -> None:
    """A window is about to be built and shown: from now on :func:`later` waits for its
    first paint."""
    global _queue  # noqa: PLW0603 (one first paint per process)
    if _queue is None:
        _queue = []


def awaiting() -> bool:
    """Whether callables wait for a first paint."""
    return _queue is not None


def later(fn: Callable[[], object], first: bool = False) -> None:
    """Run ``fn`` after the first paint (at once when none is awaited); ``first`` puts it
    before what already waits."""
    if _queue is None:
        fn()
    elif first:
        _queue.insert(0, fn)
    else:
        _queue.append(fn)


def watch(widget: QWidget) -> None:
    """Run what waits once ``widget`` has painted (on the event-loop turn after its first
    paint event); nothing when no first paint is awaited."""
    global _watcher  # noqa: PLW0603
    if _queue is None or _watcher is not None:
        return
    _watcher = _Watcher(widget)
    # a window that never paints (opened minimised) must not hold the work back for good
    QTimer.singleShot(FALLBACK_MS, flush)


def flush() -> None:
    """Run what waits now (the window closed before it painted, or a caller cannot wait)."""
    global _queue, _watcher  # noqa: PLW0603
    waiting, _queue = _queue or [], None
    if _watcher is not None:
        _watcher.stop()
        _watcher = None
    for fn in waiting:
        fn()


class _Watcher(QObject):
    """An event filter on the widget that paints first (the canvas's viewport)."""

    def __init__(self, widget: QWidget):
        super().__init__(widget)
        self.widget = widget
        widget.installEventFilter(self)

    def stop(self) -> None:
        with contextlib.suppress(RuntimeError):  # the widget went first
            self.widget.removeEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt)
        if event.type() == QEvent.Type.Paint:
            self.stop()
            # posted now, run after this paint and the window's flush to the screen
            QTimer.singleShot(0, flush)
        return False
