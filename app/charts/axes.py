"""How every chart titles its axes and writes its ticks: one policy, in words only (no Qt).

pyqtgraph would put an SI prefix before any unit it is given ("kbytes", "kGB", "kI/Os",
"e27bytes" on a log axis), and keep a stale prefix when an axis changes its range or unit.
None of Headroom's units takes a prefix that way (a gigabyte is not a unit to multiply by
a thousand, an I/O is a count), so no chart lets pyqtgraph write a unit:

- an axis title is the figure's label with its unit in parentheses (:func:`axis_title`):
  ``Message size (bytes)``; a fraction reads as a percentage (``Read share (%)``); a unit
  the label already names is not repeated (``Outstanding I/Os``, not ``... (I/Os)``);
- a tick is a number (:func:`models.document.numbers.number`), shortened from 10,000 on
  (``500``, ``2,000``, ``75k``, ``1M``: the count shortened, never the unit), a fraction as
  its percentage (:func:`tick_text`).

The plots apply it through :func:`app.charts.plots.label_axis`; the report's chart titles
through :func:`axis_title`.
"""

from __future__ import annotations

from models.document import numbers as fmt

FRACTION = "fraction"
"""A unit stored as a fraction of one and shown as a percentage."""


def axis_unit(unit: str) -> str:
    """The unit as an axis shows it (a fraction as ``%``)."""
    return "%" if unit == FRACTION else fmt.field_unit(unit)


def axis_title(title: str, unit: str = "") -> str:
    """``Message size (bytes)``: the title, then its unit in parentheses (none when the title
    already says it, or when there is none)."""
    shown = axis_unit(unit)
    if not shown or shown.lower() in title.lower():
        return title
    return f"{title} ({shown})"


def tick_text(value: float, unit: str = "") -> str:
    """A tick's text: the number (a fraction as its percentage), never a unit prefix."""
    if unit == FRACTION:
        value *= 100.0
    if abs(value) < 1e-12:
        return "0"
    for factor, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= max(factor, 1e4):  # 10k, 1M: never 1,000k
            return fmt.number(value / factor) + suffix
    return fmt.number(value)
