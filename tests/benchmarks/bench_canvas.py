"""Canvas benchmark: build and first paint of the design canvas, and its share of a knob move,
on synthetic estates of 2,000, 10,000 and 50,000 VMs (``make bench`` calls it; figures only,
never asserted).

Each size runs in a fresh interpreter so that its memory figure is its own.  Per size:

- ``arrange_s``: laying the estate out (:func:`models.io.arrange.arrange`, Qt-free);
- ``build_s``: ``DesignScene(document)`` for an evaluated document (items for what shows);
- ``first_paint_s``: the view shown, fitted to the design and painted once (offscreen);
- ``items``: graphics items in the scene after that first paint;
- ``rss_mb``: the process's resident memory growth from the evaluated document to the
  painted canvas (the canvas's share of opening a design);
- ``apply_prediction_ms``: median and p95 of ``DesignScene.apply_prediction`` between two
  predictions a slider step apart (every VM's figures change): the canvas's share of
  slider-to-repaint;
- ``zoomed_in``: after zooming to 100% on the busiest host: items then, and the time to
  create them.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from typing import Any

SIZES = ((2000, 50), (10000, 250), (50000, 1250))
"""(VMs, hosts): 40 VMs per host, as the engine benchmark's 2,000 / 50 and 10,000 / 250."""


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    import os  # noqa: PLC0415

    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def bench_canvas(n_vms: int, n_hosts: int, moves: int = 40) -> dict[str, Any]:
    """The figures above for one synthetic estate (in this interpreter)."""
    from PySide6.QtWidgets import QApplication  # noqa: PLC0415 (Qt only when benchmarking)

    from app.support import qt_fixes  # noqa: PLC0415

    qt_fixes.install()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    from app.canvas.scene import DesignScene  # noqa: PLC0415
    from app.canvas.view import DesignView  # noqa: PLC0415
    from app.document.design_document import DesignDocument  # noqa: PLC0415
    from models.examples.synth import large_design  # noqa: PLC0415
    from models.io.arrange import arrange  # noqa: PLC0415

    design = large_design(n_vms, n_hosts)
    t = time.perf_counter()
    at = arrange(design)  # the synthetic estate's hosts sit in a row: lay it out
    for comp in design.components:
        comp.x, comp.y = at[comp.id]
    arrange_s = time.perf_counter() - t
    doc = DesignDocument(design)
    for _ in range(3):
        app.processEvents()
    rss0 = _rss_mb()
    t0 = time.perf_counter()
    scene = DesignScene(doc)
    build = time.perf_counter() - t0
    t1 = time.perf_counter()
    view = DesignView(scene)
    view.resize(1100, 620)  # the canvas of the main window at 1600 x 1000
    view.show()
    view.fit()
    view.viewport().repaint()
    app.processEvents()
    first_paint = time.perf_counter() - t1
    items = len(scene.items())
    rss = _rss_mb() - rss0

    doc.set_value("vm", "workload.io_oio", 8)
    p8 = doc.evaluate_now()
    doc.set_value("vm", "workload.io_oio", 9)
    p9 = doc.evaluate_now()
    times = []
    for i in range(moves):
        t = time.perf_counter()
        scene.apply_prediction(p8 if i % 2 else p9)
        times.append((time.perf_counter() - t) * 1000.0)
    times.sort()

    hosts = doc.design.of_kind("host")
    target = scene.item(hosts[0].id)
    t2 = time.perf_counter()
    view.set_zoom(1.0)
    if target is not None:
        view.centerOn(target)
    view.viewport().repaint()
    app.processEvents()
    zoom_s = time.perf_counter() - t2
    out = {"vms": n_vms, "hosts": n_hosts, "arrange_s": round(arrange_s, 3),
           "build_s": round(build, 3),
           "first_paint_s": round(first_paint, 3), "items": items, "rss_mb": round(rss, 1),
           "apply_prediction_ms": {"median": round(statistics.median(times), 2),
                                   "p95": round(times[int(0.95 * (len(times) - 1))], 2)},
           "zoomed_in": {"items": len(scene.items()), "s": round(zoom_s, 3)}}
    doc.undo_stack.setClean()
    view.close()
    return out


def bench_canvas_sizes(sizes: tuple[tuple[int, int], ...] = SIZES) -> dict[str, Any]:
    """:func:`bench_canvas` for each size, each in a fresh interpreter."""
    out: dict[str, Any] = {}
    for n_vms, n_hosts in sizes:
        proc = subprocess.run(
            [sys.executable, "-m", "tests.benchmarks.bench_canvas", str(n_vms), str(n_hosts)],
            capture_output=True, text=True, check=False)
        key = f"canvas_{n_vms}_vms_{n_hosts}_hosts"
        if proc.returncode:
            out[key] = {"error": proc.stderr.strip().splitlines()[-1:]}
        else:
            out[key] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


if __name__ == "__main__":
    if len(sys.argv) == 3:
        print(json.dumps(bench_canvas(int(sys.argv[1]), int(sys.argv[2]))))
    else:
        print(json.dumps(bench_canvas_sizes(), indent=2))
