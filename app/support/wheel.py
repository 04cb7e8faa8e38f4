"""A wheel turned over a control the user has not clicked scrolls the panel it sits in, and
changes nothing.

Qt gives a wheel event to the slider, combo box or spin box under the pointer, focused or not:
scrolling down the Knobs dock with the wheel moved every slider and combo box it passed over,
so the untouched bundled example had unsaved changes ("Save the changes to Untitled before
closing?" on opening a file) and a knob moved without the user knowing.  :func:`guard` makes a
control take the wheel only while it has the focus (a click or Tab gives it); before that the
wheel goes to the scroll bar of the scroll area around it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QWidget


class _WheelGuard(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt)
        if event.type() != QEvent.Type.Wheel or not isinstance(watched, QWidget) \
                or watched.hasFocus():
            return False
        area = scroll_area_of(watched)
        if area is not None:
            QApplication.sendEvent(area.verticalScrollBar(), event)
        return True  # never the control's: its value stays as it was


def guard(control: QWidget) -> None:
    """Let ``control`` take wheel events only while it has the focus."""
    control.installEventFilter(_WheelGuard(control))


def scroll_area_of(widget: QWidget) -> QAbstractScrollArea | None:
    """The nearest scroll area holding ``widget``."""
    parent = widget.parentWidget()
    while parent is not None and not isinstance(parent, QAbstractScrollArea):
        parent = parent.parentWidget()
    return parent
