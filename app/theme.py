"""Light or dark palette following the system colour scheme (QStyleHints.colorScheme).

High-DPI scaling is on by default in Qt 6.  ``HEADROOM_THEME=dark|light`` forces a scheme.
"""

from __future__ import annotations

import os

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication


def dark_palette() -> QPalette:
    p = QPalette()
    role, group = QPalette.ColorRole, QPalette.ColorGroup
    colours = {
        role.Window: "#2b2d31", role.WindowText: "#e6e6e6", role.Base: "#1f2023",
        role.AlternateBase: "#2f3136", role.ToolTipBase: "#3a3c42",
        role.ToolTipText: "#f0f0f0", role.PlaceholderText: "#8a8d93", role.Text: "#e6e6e6",
        role.Button: "#35373c", role.ButtonText: "#e6e6e6", role.BrightText: "#ff6b6b",
        role.Light: "#4a4c52", role.Midlight: "#3e4045", role.Mid: "#2a2c30",
        role.Dark: "#1a1b1e", role.Shadow: "#000000", role.Highlight: "#2f6fb3",
        role.HighlightedText: "#ffffff", role.Link: "#6aa9ff",
    }
    for r, c in colours.items():
        p.setColor(r, QColor(c))
    for r in (role.Text, role.WindowText, role.ButtonText):
        p.setColor(group.Disabled, r, QColor("#7a7d83"))
    return p


def is_dark(app: QGuiApplication) -> bool:
    forced = os.environ.get("HEADROOM_THEME", "").lower()
    if forced in ("dark", "light"):
        return forced == "dark"
    return app.styleHints().colorScheme() == Qt.ColorScheme.Dark


def apply_theme(app: QApplication) -> None:
    """Use Fusion with a palette matching the system scheme, and follow later changes."""
    app.setStyle("Fusion")
    _apply(app)
    app.styleHints().colorSchemeChanged.connect(lambda _scheme: _apply(app))


def _apply(app: QApplication) -> None:
    app.setPalette(dark_palette() if is_dark(app) else app.style().standardPalette())
