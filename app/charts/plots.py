"""Plot helpers the charts and the evidence view share (pyqtgraph on a white background)."""

from __future__ import annotations

import math

import pyqtgraph as pg


def plot_widget() -> pg.GraphicsLayoutWidget:
    """An empty layout of plots on a white background."""
    w = pg.GraphicsLayoutWidget()
    w.setBackground("w")
    return w


def log_ticks(lo: float, hi: float) -> list[float]:
    """1-2-5 tick values from ``lo`` to ``hi`` (for log-scale knob axes)."""
    out: list[float] = []
    decade = 10.0 ** math.floor(math.log10(lo))
    while decade <= hi:
        out.extend(v for v in (decade, 2 * decade, 5 * decade) if lo <= v <= hi)
        decade *= 10.0
    return out
