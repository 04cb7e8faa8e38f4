"""Where the main window opens: within the screen it opens on, whatever that screen's size.

Qt does not shrink a window to its screen: a first window of 1600x1000 on a 1366x768 laptop
(no window manager to step in, as on a fresh desktop session) had the Dashboard and the
Inspector cut off on the right and the Charts dock at the bottom.  The first window is the
default size within the screen's available geometry (the screen less its panels), centred;
a remembered geometry is restored only where it fits the screen the window opens on now.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

DEFAULT_SIZE = QSize(1600, 1000)
"""The first window's size on a screen with room for it."""


def available(widget: QWidget) -> QRect:
    """The available geometry of the screen ``widget`` is (or will be) on."""
    screen = widget.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1600, 1000)


def first_geometry(area: QRect, size: QSize = DEFAULT_SIZE) -> QRect:
    """``size``, no larger than ``area``, centred in it."""
    rect = QRect(0, 0, min(size.width(), area.width()), min(size.height(), area.height()))
    rect.moveCenter(area.center())
    return rect


def fits(rect: QRect, area: QRect) -> bool:
    """Whether a window at ``rect`` lies wholly within ``area``."""
    return rect.isValid() and area.contains(rect)
