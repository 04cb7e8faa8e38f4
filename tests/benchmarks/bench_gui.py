"""GUI benchmark: slider move to repaint on a large design (``make bench`` calls it).

Moves the real "Outstanding I/Os" slider of the knob panel and times until the document has
re-evaluated (``prediction_updated``), the dashboard tiles, the knob curve's operating point
and the canvas items are updated and the widgets have painted.  Target: <= 16 ms median at
2,000 VMs.

The headline figure is the real main window as a user sees it (canvas, docks, the knob curve
tab of the charts; 1600 x 1000).  ``panels`` repeats it on the knob panel, canvas, dashboard,
knob curve and utilisation chart side by side (both charts visible at once, which the main
window never shows): ``--panels`` runs that alone, ``--no-canvas`` leaves the canvas out.
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any

OIO = "vm.workload.io_oio"
SETTLE_MAX_S = 120.0
"""The longest the benchmark waits for the work that follows opening to end."""
QUIET_S = 0.6
"""No background job for this long (past the band's and the curve's start delays): done."""


def bench_slider_repaint(n_vms: int = 2000, n_hosts: int = 50, moves: int = 50,
                         canvas: bool = True, main_window: bool = True,
                         panels: bool = True) -> dict[str, Any]:
    """Median/p95 milliseconds from a slider move to the repainted dashboard, knob curve and
    (``canvas``) design canvas; ``main_window``: in the real main window instead (its docks,
    chart tabs and status bar as a user sees them at 1600 x 1000)."""
    from PySide6.QtCore import QElapsedTimer  # noqa: PLC0415 (Qt only when benchmarking GUI)
    from PySide6.QtWidgets import QApplication, QHBoxLayout, QWidget  # noqa: PLC0415

    from app.canvas.scene import DesignScene  # noqa: PLC0415
    from app.canvas.view import DesignView  # noqa: PLC0415
    from app.charts.knob_curve import KnobCurve  # noqa: PLC0415
    from app.charts.utilisation import UtilisationChart  # noqa: PLC0415
    from app.document.design_document import DesignDocument  # noqa: PLC0415
    from app.panels.dashboard import Dashboard  # noqa: PLC0415
    from app.panels.knob_panel import KnobPanel  # noqa: PLC0415
    from app.support import first_paint, gc_guard, jobs, qt_fixes  # noqa: PLC0415
    from models.core.prediction import Prediction  # noqa: PLC0415
    from models.engine.evaluation import Engine  # noqa: PLC0415
    from models.examples.synth import large_design  # noqa: PLC0415

    qt_fixes.install()  # before the first Qt object, as run_app does
    app = QApplication.instance() or QApplication(sys.argv[:1])
    gc_guard.install()  # as run_app does: collections on the GUI thread, by its timer
    if main_window:  # as run_app does: what the first picture does not need waits for it
        first_paint.expect()
    doc = DesignDocument(large_design(n_vms, n_hosts))
    window: QWidget
    if main_window:
        from app.window.main_window import MainWindow  # noqa: PLC0415

        main = MainWindow(doc, remember_layout=False)
        window, panel, dash, curve = main, main.knob_panel, main.dashboard, main.knob_curve
        canvas = True
        window.show()
        for _ in range(20):  # docks sized, the deferred fit done
            app.processEvents()
    else:
        window = QWidget()
        layout = QHBoxLayout(window)
        panel = KnobPanel(doc)
        dash = Dashboard(doc)
        curve = KnobCurve(doc)
        util = UtilisationChart(doc)
        widgets: list[QWidget] = [panel, dash, curve, util]
        if canvas:
            view = DesignView(DesignScene(doc), window)
            widgets.insert(1, view)
        for w in widgets:
            layout.addWidget(w)
        window.resize(1600, 900)
        window.show()
        app.processEvents()
        if canvas:
            view.fit()  # the whole design in view: every item may repaint
            app.processEvents()
    # what runs once after opening (the settle, the uncertainty bands, the knob curve's
    # first sweep in the background: seconds at 50,000 VMs) is done before the drag, which
    # times slider moves, not a worker's contention for the interpreter
    settle = time.perf_counter() + 2.0
    give_up = time.perf_counter() + SETTLE_MAX_S
    quiet_since = time.perf_counter()
    while time.perf_counter() < give_up:
        app.processEvents()
        now = time.perf_counter()
        if not jobs.idle():
            quiet_since = now
        elif now >= settle and now - quiet_since >= QUIET_S:
            break
    first_paint.flush()  # (painted by now; a window that did not paint runs it here)
    slider = panel.row(OIO).slider
    assert slider is not None
    state: dict[str, Any] = {"updated": False, "engine": 0.0, "at": 0.0}

    def on_prediction(_p: object) -> None:  # connected last: runs after every view updated
        state["updated"] = True
        state["at"] = time.perf_counter()

    real_evaluate = Engine.evaluate

    def timed_evaluate(self: Engine, *args: Any, **kwargs: Any) -> Prediction:
        t = time.perf_counter()
        try:
            return real_evaluate(self, *args, **kwargs)
        finally:
            state["engine"] += (time.perf_counter() - t) * 1000.0

    doc.prediction_updated.connect(on_prediction)
    Engine.evaluate = timed_evaluate  # type: ignore[method-assign]
    lo, hi = slider.maximum() // 3, slider.maximum() * 9 // 10
    positions = [lo + (i * 7) % (hi - lo) for i in range(moves + 1)]
    times: list[float] = []
    each: list[tuple[float, ...]] = []
    guard = gc_guard.install()
    collections = guard.collections if guard is not None else 0
    phases: dict[str, list[float]] = {"push_ms": [], "engine_ms": [], "views_ms": [],
                                      "paint_ms": []}
    tile = dash.tiles["mean_latency_ms"].value_label
    timer = QElapsedTimer()
    mapping = panel.row(OIO).mapping
    assert mapping is not None
    for pos in positions:
        if mapping.to_value(pos) == doc.value("vm", "workload.io_oio"):
            continue  # the same value: nothing to re-evaluate
        state["updated"] = False
        state["engine"] = 0.0
        t0 = time.perf_counter()
        slider.setValue(pos)  # the knob row pushes the edit (DesignDocument.set_value)
        t_push = time.perf_counter()
        timer.start()
        while not state["updated"] and timer.elapsed() < 5000:
            app.processEvents()
        t_views = time.perf_counter()
        app.processEvents()  # the repaint of the updated tiles and curve
        t_end = time.perf_counter()
        times.append((t_end - t0) * 1000.0)
        each.append((times[-1], (t_push - t0) * 1000.0, state["engine"],
                     (state["at"] - t_push) * 1000.0 - state["engine"], (t_end - t_views) * 1000.0))
        phases["push_ms"].append((t_push - t0) * 1000.0)
        phases["engine_ms"].append(state["engine"])
        phases["views_ms"].append((state["at"] - t_push) * 1000.0 - state["engine"])
        phases["paint_ms"].append((t_end - t_views) * 1000.0)
        assert tile.text()
    Engine.evaluate = real_evaluate  # type: ignore[method-assign]
    doc.undo_stack.setClean()  # closing must not ask to save the benchmark's edits
    window.close()
    window.deleteLater()
    app.processEvents()
    times.sort()
    out = {"median_ms": statistics.median(times), "p95_ms": times[int(0.95 * (len(times) - 1))],
           "min_ms": times[0], "moves": len(times), "vms": n_vms, "hosts": n_hosts,
           "curve_sweeps": curve.sweeps, "target_ms": 16.0, "canvas": canvas,
           "main_window": main_window,
           "median_phases_ms": {k: statistics.median(v) for k, v in phases.items()},
           "slowest_ms": times[-3:],
           "slowest_phases_ms": sorted(each)[-3:],
           "gc_collections": (guard.collections - collections) if guard is not None else 0}
    if main_window and panels:
        side = bench_slider_repaint(n_vms, n_hosts, moves, canvas, main_window=False)
        out["panels"] = {k: side[k] for k in ("median_ms", "p95_ms", "median_phases_ms")}
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(bench_slider_repaint(canvas="--no-canvas" not in sys.argv,
                                          main_window="--panels" not in sys.argv), indent=2))
