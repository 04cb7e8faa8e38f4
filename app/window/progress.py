"""Waiting for a step that can take a while (opening or saving a large design) without a
frozen window: the step runs in the background (:mod:`app.support.jobs`) while the window keeps
painting, and a progress dialog with Cancel appears once it has taken
:data:`SHOW_AFTER_MS`.

:func:`run_with_progress` reads like a plain call (it returns when the step is done, failed or
cancelled), so the File menu's logic stays in order: it waits in a local event loop, during
which the user's clicks and keys go to the progress dialog only (the window behind it cannot
be edited half-way through an open).  Cancel stops waiting at once; the step's result, if it
still arrives, is dropped, so the document stays as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QEventLoop, QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QProgressDialog, QWidget

from app.support.jobs import Lane, Runner, Work, describe_error
from models.document.design import DesignError

SHOW_AFTER_MS = 500
"""A step shorter than this shows no dialog at all."""

LANE = Lane("files", workers=1)
"""Opens and saves, one at a time."""

INPUT = {QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease,
         QEvent.Type.MouseButtonDblClick, QEvent.Type.KeyPress, QEvent.Type.KeyRelease,
         QEvent.Type.Wheel, QEvent.Type.ShortcutOverride, QEvent.Type.Shortcut,
         QEvent.Type.DragEnter, QEvent.Type.Drop, QEvent.Type.ContextMenu, QEvent.Type.Close}
"""What the user could do to the window while it waits (all of it goes nowhere)."""


@dataclass
class Outcome:
    ok: bool
    result: object = None
    error: str = ""
    """The failure in words; "" when cancelled or done."""
    cancelled: bool = False


def describe(err: Exception) -> str:
    return err.describe() if isinstance(err, DesignError) else \
        (str(err) if isinstance(err, OSError) else describe_error(err))


class _Blocker(QObject):
    """Drops the user's input to everything but the progress dialog."""

    def __init__(self, dialog: QProgressDialog):
        super().__init__(dialog)
        self.dialog = dialog

    def _in_dialog(self, obj: QObject | None) -> bool:
        while obj is not None:
            if obj is self.dialog:
                return True
            obj = obj.parent()
        return False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt)
        if event.type() not in INPUT:
            return False
        if watched is self.dialog.windowHandle() or self._in_dialog(watched):
            return False  # the dialog's window, widgets and shortcuts (Esc) work
        if event.type() == QEvent.Type.Close:
            event.ignore()
        return True


def run_with_progress(parent: QWidget | None, title: str, label: str, work: Work,
                      show_after_ms: int = SHOW_AFTER_MS) -> Outcome:
    """Run ``work(task)`` in the background and wait for it with the window alive; a dialog
    titled ``title`` saying ``label`` (with Cancel) shows after ``show_after_ms``."""
    dialog = QProgressDialog(label, "Cancel", 0, 0, parent)
    dialog.setWindowTitle(title)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setAutoClose(False)
    dialog.setAutoReset(False)
    dialog.setMinimumDuration(2 ** 30)  # shown by our timer, not by a setValue
    dialog.hide()
    show = QTimer(dialog)
    show.setSingleShot(True)
    show.timeout.connect(dialog.show)
    show.start(show_after_ms)
    dialog.setAccessibleName(f"{title} progress")
    runner = Runner(dialog, lane=LANE, describe=describe)
    loop = QEventLoop()
    outcome = Outcome(False)

    def done(result: object) -> None:
        outcome.ok, outcome.result = True, result
        loop.quit()

    def failed(message: str) -> None:
        outcome.error = message
        loop.quit()

    def cancelled() -> None:
        runner.cancel()
        outcome.cancelled = True
        loop.quit()

    runner.finished.connect(done)
    runner.failed.connect(failed)
    dialog.canceled.connect(cancelled)
    dialog.rejected.connect(cancelled)  # Esc
    blocker = _Blocker(dialog)
    app = QApplication.instance()
    if app is not None:
        app.installEventFilter(blocker)
    try:
        runner.submit(work)
        loop.exec()
    finally:
        if app is not None:
            app.removeEventFilter(blocker)
        dialog.canceled.disconnect(cancelled)
        dialog.rejected.disconnect(cancelled)
        runner.cancel()
        show.stop()
        dialog.close()
        dialog.deleteLater()
    return outcome
