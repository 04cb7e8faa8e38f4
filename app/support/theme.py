"""Light or dark palette following the system colour scheme (QStyleHints.colorScheme), and
the one utilisation colour scale every view uses (canvas, charts, report).

High-DPI scaling is on by default in Qt 6.  ``HEADROOM_THEME=dark|light`` forces a scheme.

Utilisation reads the same everywhere: green below :data:`UTIL_WARN` (70 %), amber from it,
red from :data:`UTIL_HOT` (90 %, the default policy's highest acceptable host CPU,
``policy.cpu_util_max``).  :func:`util_load` classifies, :func:`util_colour` gives the
class's colour (charts, report); the canvas fills its items in :data:`GRADES` steps
(:func:`util_grades`, :func:`grade_colour`) that never straddle a threshold, each class paler
at its low end and full at its top, so a grade always has its utilisation's class and hue.
The fills carry their own dark text and read on a light or a dark canvas alike, so the scale
has no dark variant.

Text that is not the palette's own (captions, tile titles, warnings, deltas, chart axes) takes
its colour from :class:`Tones`, one set per scheme, each at least 4.5:1 against the window and
base colours of its scheme (WCAG AA for text; ``tests/app/test_contrast.py`` samples the
rendered pixels).  :func:`tone` gives a widget one of those colours and keeps it when the
scheme changes; charts restyle themselves from :func:`tones` (``app/charts/plots.py``).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from typing import Literal

import numpy as np
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPainter, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QProxyStyle,
    QStyle,
    QStyleFactory,
    QStyleOption,
    QWidget,
)

from models.document.numbers import percent


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


class OutlinedStyle(QProxyStyle):
    """Fusion, with check boxes and radio buttons outlined at 3:1 against the window in the
    dark scheme (Fusion draws them as a dark square on a dark panel)."""

    def __init__(self) -> None:
        super().__init__(QStyleFactory.create("Fusion"))

    def drawPrimitive(self, element: QStyle.PrimitiveElement,  # noqa: N802 (Qt override)
                      option: QStyleOption, painter: QPainter,
                      widget: QWidget | None = None) -> None:
        super().drawPrimitive(element, option, painter, widget)
        kinds = (QStyle.PrimitiveElement.PE_IndicatorCheckBox,
                 QStyle.PrimitiveElement.PE_IndicatorRadioButton)
        if element not in kinds or not dark_now():
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QColor(INDICATOR_EDGE))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        r = option.rect.adjusted(1, 1, -1, -1)
        if element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
            painter.drawEllipse(r)
        else:
            painter.drawRoundedRect(r, 2, 2)
        painter.restore()


INDICATOR_EDGE = "#8a8d93"
"""A check box's outline in the dark scheme (4.1:1 on the window, 3:1 asked for controls)."""


def apply_theme(app: QApplication) -> None:
    """Use Fusion with a palette matching the system scheme, and follow later changes."""
    app.setStyle(OutlinedStyle())
    set_scheme(app)
    app.styleHints().colorSchemeChanged.connect(lambda _scheme: set_scheme(app))


def set_scheme(app: QApplication, dark: bool | None = None) -> None:
    """Apply the dark or light palette (None: as :func:`is_dark` says) and re-tone every
    widget :func:`tone` coloured; charts follow through their palette-change event."""
    dark = is_dark(app) if dark is None else dark
    app.setPalette(dark_palette() if dark else app.style().standardPalette())
    for widget in app.allWidgets():
        role = widget.property(TONE_PROPERTY)
        if isinstance(role, str) and role in ROLES:
            _paint(widget, role)


# --------------------------------------------------------------------------- text tones

Role = Literal["muted", "warning", "error", "good", "bad", "band"]
ROLES: tuple[Role, ...] = ("muted", "warning", "error", "good", "bad", "band")
TONE_PROPERTY = "headroom_tone"


@dataclass(frozen=True)
class Tones:
    """The colours of text the palette has no role for, and of charts, in one scheme.

    Every text colour is at least 4.5:1 against the scheme's window and base colours
    (light: #efefef and #ffffff; dark: #2b2d31 and #1f2023)."""

    muted: str
    """Secondary text: tile titles, captions, "nothing to measure" lines, chart axes."""
    warning: str
    error: str
    good: str
    """A change for the better (a delta against base)."""
    bad: str
    band: str
    """The range line under a figure that rests on a published range."""
    chart_background: str
    chart_text: str
    """Axes, their tick labels and titles, legends, notes on a chart."""
    marker_edge: str
    """The outline of a marked point (the operating point, the selected check)."""

    def role(self, role: str) -> str:
        """The colour of ``role`` (one of :data:`ROLES`)."""
        if role not in ROLES:
            raise KeyError(role)
        return str(getattr(self, role))


LIGHT = Tones(muted="#50555b", warning="#8a5a00", error="#b03a2e", good="#196f3d",
              bad="#b03a2e", band="#6f5a07", chart_background="#ffffff",
              chart_text="#4a4f55", marker_edge="#000000")
DARK = Tones(muted="#b0b3b8", warning="#f0c060", error="#ff8a80", good="#58d68d",
             bad="#ff8a80", band="#e0b84a", chart_background="#1f2023",
             chart_text="#c4c7cc", marker_edge="#f0f0f0")


def dark_now() -> bool:
    """Whether the application's palette is dark (what is shown, however it was chosen)."""
    return QApplication.palette().color(QPalette.ColorRole.Window).lightness() < 128


def tones() -> Tones:
    """The tones of the scheme shown now."""
    return DARK if dark_now() else LIGHT


def tone(widget: QWidget, role: Role | None) -> None:
    """Colour ``widget``'s text with ``role`` of the current scheme, now and after a scheme
    change (:func:`set_scheme`); None: the palette's own text colour again."""
    if role is None:
        if widget.property(TONE_PROPERTY):
            widget.setProperty(TONE_PROPERTY, "")
            widget.setPalette(QPalette())
        return
    if widget.property(TONE_PROPERTY) == role and _is_current(widget, role):
        return  # unchanged: no palette event, no relayout
    widget.setProperty(TONE_PROPERTY, role)
    _paint(widget, role)


def _is_current(widget: QWidget, role: str) -> bool:
    return widget.palette().color(QPalette.ColorRole.WindowText) == QColor(tones().role(role))


def _paint(widget: QWidget, role: str) -> None:
    colour = QColor(tones().role(role))
    palette = widget.palette()
    for r in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text):
        palette.setColor(r, colour)
    widget.setPalette(palette)


def contrast(a: QColor, b: QColor) -> float:
    """The WCAG 2 contrast ratio of two colours (1 to 21)."""

    def luminance(c: QColor) -> float:
        def channel(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) \
            + 0.0722 * channel(c.blueF())

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


PALETTE_EVENTS = (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange)
"""Events after which a view that draws its own colours (charts) takes them again."""


# --------------------------------------------------------------------------- utilisation

UTIL_WARN = 0.7
"""Amber from this utilisation: busy, with little room for a burst."""
UTIL_HOT = 0.9
"""Red from this utilisation: the default ``policy.cpu_util_max`` (the highest acceptable host
CPU), past which a design no longer meets the default policy."""


class Load(IntEnum):
    """A utilisation's class on the scale (NONE: not modelled, not a number)."""

    NONE = -1
    OK = 0
    WARN = 1
    HOT = 2


UTIL_COLOURS = {Load.OK: "#3fae5a", Load.WARN: "#e8a33d", Load.HOT: "#d9534f"}
"""The colour of each class (green, amber, red)."""
NO_UTIL_COLOUR = "#9aa3ad"
"""For a utilisation that is not modelled (NaN)."""
PALE = 0.45
"""How far towards white a class's lowest grade is mixed (its top grade is the full colour)."""


def util_load(util: float) -> Load:
    """The class of ``util`` (a fraction: 0.7 is 70 %)."""
    if math.isnan(util):
        return Load.NONE
    return Load.HOT if util >= UTIL_HOT else Load.WARN if util >= UTIL_WARN else Load.OK


def util_colour(util: float) -> QColor:
    """The colour of ``util``'s class (:data:`NO_UTIL_COLOUR` when it is NaN)."""
    load = util_load(util)
    return QColor(NO_UTIL_COLOUR if load is Load.NONE else UTIL_COLOURS[load])


def util_legend() -> list[tuple[str, Load]]:
    """Legend entries, lowest class first: ``("< 70 %", Load.OK)``, ..."""
    warn, hot = percent(UTIL_WARN), percent(UTIL_HOT)
    return [(f"< {warn}", Load.OK), (f"{warn.removesuffix(' %')}-{hot}", Load.WARN),
            (f"≥ {hot}", Load.HOT)]


_STEP = 0.05
EDGES = np.unique(np.round(np.concatenate([np.arange(_STEP, 1.0 + _STEP / 2, _STEP),
                                           [UTIL_WARN, UTIL_HOT]]), 9))
"""Where one grade ends and the next begins: every 5 % up to 100 %, and the thresholds."""
GRADES = len(EDGES) + 1
"""Grades 0 .. GRADES-1; the last is 100 % and over."""
NO_GRADE = -1
"""The grade of a utilisation that is not finite (not modelled)."""


def util_grades(util: np.ndarray) -> np.ndarray:
    """The grade of each utilisation (int64; :data:`NO_GRADE` where it is not finite)."""
    u = np.asarray(util, dtype=np.float64)
    grades = np.searchsorted(EDGES, np.nan_to_num(u), side="right")
    return np.where(np.isfinite(u), grades, NO_GRADE).astype(np.int64)


def grade_floor(grade: int) -> float:
    """The lowest utilisation of ``grade`` (so ``util_load(grade_floor(g))`` is its class)."""
    return 0.0 if grade <= 0 else float(EDGES[min(grade, GRADES - 1) - 1])


def grade_load(grade: int) -> Load:
    return Load.NONE if grade == NO_GRADE else util_load(grade_floor(grade))


@cache
def grade_colour(grade: int) -> QColor:
    """The fill of ``grade``: its class's colour, paler towards the class's lowest grade
    (cached: do not change the colour returned)."""
    load = grade_load(grade)
    if load is Load.NONE:
        return QColor(NO_UTIL_COLOUR)
    same = [g for g in range(GRADES) if grade_load(g) is load]
    pale = PALE * (1.0 - (min(grade, same[-1]) - same[0]) / max(1, same[-1] - same[0]))
    full = QColor(UTIL_COLOURS[load])
    return QColor.fromRgbF(full.redF() + (1.0 - full.redF()) * pale,
                           full.greenF() + (1.0 - full.greenF()) * pale,
                           full.blueF() + (1.0 - full.blueF()) * pale)
