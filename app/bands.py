"""Uncertainty bands for the open document, computed off the slider's critical path.

A :class:`BandTracker` follows ``prediction_updated`` through a coalescing single-shot timer:
only once the predictions stop changing for :attr:`BandTracker.DELAY_MS` does it run the
band evaluation (:func:`models.engine.evaluate_bands`: two more evaluations at the cheap and
costly ends of every published range), on an engine of its own so that the document's engine
and memo are never touched.  Views (dashboard tiles, the knob curve) share one tracker per
document (:func:`tracker_for`) and follow its ``bands_updated`` signal.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from app import format as fmt
from models.design import make_override, split_path
from models.engine import Engine, evaluate_bands
from models.prediction import Prediction
from models.schema import Value
from models.uncertainty import Bands

if TYPE_CHECKING:
    from app.document import DesignDocument


class BandTracker(QObject):
    """The bands of the document's latest prediction (None until computed or on failure)."""

    bands_updated = Signal(object)
    """:class:`~models.uncertainty.Bands` of the current prediction, or None."""

    DELAY_MS = 150
    """Quiet time after the last prediction before the bands are computed."""

    def __init__(self, document: DesignDocument, delay_ms: int | None = None):
        super().__init__(document)
        self.setObjectName("band_tracker")
        self.document = document
        self.bands: Bands | None = None
        self.last_error = ""
        self.last_ms = 0.0
        """How long the last band evaluation took (two full evaluations), ms."""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(self.DELAY_MS if delay_ms is None else delay_ms)
        self._timer.timeout.connect(self.compute_now)
        document.prediction_updated.connect(self._schedule)
        document.design_replaced.connect(self._clear)
        document.scenario_changed.connect(self._clear)
        if document.prediction is not None:
            self._schedule()

    def _schedule(self, *_: object) -> None:
        self._timer.start()  # restarts: a burst of predictions leads to one computation

    def _clear(self, *_: object) -> None:
        if self.bands is not None:
            self.bands = None
            self.bands_updated.emit(None)

    @property
    def pending(self) -> bool:
        """Whether a computation is scheduled."""
        return self._timer.isActive()

    def compute_now(self) -> Bands | None:
        """Compute the bands of the current prediction now and emit ``bands_updated``."""
        self._timer.stop()
        doc = self.document
        nominal = doc.prediction
        bands: Bands | None = None
        if nominal is not None:
            try:
                engine = Engine(doc.design, doc.scenario)
                started = time.perf_counter()
                bands = evaluate_bands(engine, nominal)
                self.last_ms = (time.perf_counter() - started) * 1000.0
            except Exception as err:  # a band is an extra: never take the app down for it
                self.last_error = f"{type(err).__name__}: {err}"
        self.bands = bands
        self.bands_updated.emit(bands)
        return bands


def tracker_for(document: DesignDocument) -> BandTracker:
    """The document's band tracker (created on first use, a child of the document)."""
    found = document.findChild(BandTracker, "band_tracker")
    return found if isinstance(found, BandTracker) else BandTracker(document)


def band_text(bands: Bands | None, value: Callable[[Prediction], float | None],
              unit: str = "", short: bool = False) -> str:
    """``"1.21–1.40 ms"`` (or ``"±3 %"`` when the band is symmetric about the figure), or ""
    when there is no band or it has no width."""
    if bands is None or not bands.runs:
        return ""
    span = bands.span(value)
    nominal = value(bands.runs[0])
    if span is None or nominal is None or span[1] <= span[0]:
        return ""
    lo, hi = span
    if nominal and math.isclose(hi - nominal, nominal - lo, rel_tol=0.05):
        return f"±{fmt.number((hi - nominal) / abs(nominal) * 100.0, 2)} %"
    num = fmt.si if short else fmt.number
    text = f"{num(lo)}–{num(hi)}"
    return f"{text} {unit}" if unit and unit != "fraction" else text


def sources_text(bands: Bands | None) -> str:
    """One line per published range behind the bands (for tooltips)."""
    if bands is None or not bands.sources:
        return ""
    return "\n".join(f"• {b.label()}" for b in bands.sources)


def sweep_bands(document: DesignDocument, path: str, values: list[Value]) -> Iterator[Bands]:
    """The bands at each value of knob ``path``, one value per ``next()`` (three evaluations
    each, on a private engine: the document does not change), so that a view can spread the
    work over event-loop turns.  DesignError on a bad value."""
    select, prop = split_path(path)
    overrides = [make_override(document.design, select, prop, v) for v in values]
    engine = Engine(document.design, document.scenario)
    for ov in overrides:
        engine.patch(ov)
        yield evaluate_bands(engine)
