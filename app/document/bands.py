"""Uncertainty bands for the open document, computed off the GUI thread.

A :class:`BandTracker` follows ``prediction_updated`` through a coalescing single-shot timer:
only once the predictions stop changing for :attr:`BandTracker.DELAY_MS` does it start the
band evaluation (:func:`models.engine.evaluation.evaluate_bands`: two more evaluations at the cheap
and costly ends of every published range).  That work runs in the background (an
:class:`app.support.jobs.Runner` on :data:`LANE`) on an engine of its own, built from a snapshot of
the
design (:meth:`Design.copy`), so neither the document's engine nor its design is ever touched
from another thread, and the slider never waits for a band.  A newer request supersedes an
older one (the runner drops a stale result).  Views (dashboard tiles, the knob curve) share
one tracker per document (:func:`tracker_for`) and follow its ``bands_updated`` signal.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from app.support import first_paint, gc_guard
from app.support.jobs import Lane, Runner, Task
from models.core.prediction import Prediction
from models.core.uncertainty import Bands
from models.document import numbers as fmt
from models.engine.evaluation import Engine, evaluate_bands

if TYPE_CHECKING:
    from app.document.design_document import DesignDocument

LANE = Lane("bands", workers=1)
"""One background thread for every band computation (the tracker's and the knob curve's band
sweep) and a large design's knob curve: jobs run one after the other, and a superseded job
still waiting never starts (two at a time would only compete with the GUI thread for the
interpreter on a small machine, and each holds an engine of its own: memory)."""


class BandTracker(QObject):
    """The bands of the document's latest prediction (None until computed or on failure)."""

    bands_updated = Signal(object)
    """:class:`~models.core.uncertainty.Bands` of the current prediction, or None."""

    DELAY_MS = 150
    """Quiet time after the last prediction before the bands are computed."""

    def __init__(self, document: DesignDocument, delay_ms: int | None = None):
        super().__init__(document)
        self.setObjectName("band_tracker")
        self.document = document
        self.bands: Bands | None = None
        self.last_error = ""
        self.last_ms = 0.0
        """How long the last band evaluation took in the background (a compile and two full
        evaluations), ms: the knob curve estimates its band sweep from it."""
        self.jobs = Runner(self, lane=LANE)
        self.jobs.finished.connect(self._on_result)
        self.jobs.failed.connect(self._on_failure)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(self.DELAY_MS if delay_ms is None else delay_ms)
        self._timer.timeout.connect(self.compute_now)
        document.prediction_updated.connect(self._schedule)
        document.design_replaced.connect(self._clear)
        document.scenario_changed.connect(self._clear)
        if document.prediction is not None:  # a worker would slow the window's first paint
            first_paint.later(self._schedule)

    def _schedule(self, *_: object) -> None:
        self._timer.start()  # restarts: a burst of predictions leads to one computation

    def _clear(self, *_: object) -> None:
        self.jobs.cancel()  # a band of the design or scenario left behind is of no use
        if self.bands is not None:
            self.bands = None
            self.bands_updated.emit(None)

    @property
    def pending(self) -> bool:
        """Whether a computation is scheduled or under way."""
        return self._timer.isActive() or self.jobs.busy

    def compute_now(self) -> None:
        """Start computing the bands of the current prediction (in the background; the
        result arrives as ``bands_updated``).  A computation under way is superseded."""
        self._timer.stop()
        doc = self.document
        nominal = doc.prediction
        if nominal is None:
            self.jobs.cancel()
            self._on_result((None, 0.0))
            return
        design, scenario = gc_guard.aside(doc.design.copy, len(doc.design.components)), \
            doc.scenario

        def job(_task: Task) -> tuple[Bands, float]:
            started = time.perf_counter()
            bands = evaluate_bands(Engine(design, scenario), nominal)
            return bands, (time.perf_counter() - started) * 1000.0

        self.jobs.submit(job)

    def _on_result(self, result: object) -> None:
        bands, ms = result if isinstance(result, tuple) else (None, 0.0)
        self.last_ms = ms or self.last_ms
        self.bands = bands
        self.bands_updated.emit(bands)

    def _on_failure(self, message: str) -> None:
        self.last_error = message  # a band is an extra: never take the app down for it
        self.bands = None
        self.bands_updated.emit(None)


def tracker_for(document: DesignDocument) -> BandTracker:
    """The document's band tracker (created on first use, a child of the document)."""
    found = document.findChild(BandTracker, "band_tracker")
    return found if isinstance(found, BandTracker) else BandTracker(document)


def band_text(bands: Bands | None, value: Callable[[Prediction], float | None],
              unit: str = "") -> str:
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
    return fmt.span(lo, hi, unit)


def sources_text(bands: Bands | None) -> str:
    """One line per published range behind the bands (for tooltips)."""
    if bands is None or not bands.sources:
        return ""
    return "\n".join(f"• {b.label()}" for b in bands.sources)
