"""PDF and PNG reports of a design and its prediction, headless or from the GUI.

``.pdf``: a multi-page vector PDF (QPdfWriter, A4 landscape, fonts embedded) with the pages of
:mod:`app.report.pages`.  ``.png``: one image (2000 px wide) of the canvas diagram beside the
dashboard figures.  Both are written atomically: a failed export leaves no partial file.
"""

from __future__ import annotations

import math
import os
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QRectF
from PySide6.QtGui import (
    QColor,
    QGuiApplication,
    QImage,
    QImageWriter,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
)

from app import qt_fixes
from app.report.diagram import draw_diagram
from app.report.draw import ACCENT, MARGIN, MUTED, PANEL, RULE, Sheet
from app.report.pages import (
    Report,
    bar_chart,
    build_pages,
    kpi_tiles,
    per_vm_figures,
    utilisation_chart,
)
from models.document.design import Design, DesignError, Issue
from models.engine.prediction import Prediction
from models.io.atomic import write_atomic

PDF_RESOLUTION = 300
PNG_WIDTH = 2000
PNG_LOGICAL = (1600.0, 1000.0)


def _version() -> str:
    try:
        return metadata.version("headroom")
    except metadata.PackageNotFoundError:
        return "0.1.0"


def ensure_gui_app() -> None:
    """Fonts and painting need a QGuiApplication; create one if nothing has.  A report shows
    no window, so the application uses the offscreen platform unless one was chosen: on a
    machine without a display (a server, CI) Qt would otherwise abort looking for X11."""
    if QGuiApplication.instance() is None:
        qt_fixes.install()  # nothing started Qt before: the report starts it
        argv = sys.argv[:1]
        if not os.environ.get("QT_QPA_PLATFORM"):
            argv += ["-platform", "offscreen"]
        QGuiApplication(argv)  # lives as the process's application instance


def make_report(design: Design, scenario: str, prediction: Prediction,
                with_checks: bool = True) -> Report:
    r = Report(design, scenario, prediction, _version(), when=datetime.now(UTC))
    if with_checks:
        try:
            from models.calibration import all_checks  # noqa: PLC0415
            from models.calibration.crossval import stored, stored_summary  # noqa: PLC0415

            r.checks = all_checks()
            r.cross_validation = {**stored_summary(), "rows": stored()}
        except Exception as err:  # a broken calibration module must not stop the report
            r.checks_error = f"The calibration checks could not be run: {err}"
    return r


def export_report(design: Design, scenario: str, path: Path, prediction: Prediction) -> None:
    """Write the report for ``prediction`` to ``path`` (``.pdf`` or ``.png``)."""
    path = Path(path)
    ext = path.suffix.lower()
    if ext not in (".pdf", ".png"):
        raise DesignError([Issue(str(path), f"unknown report type '{path.suffix}': "
                                            "expected .pdf or .png")])
    ensure_gui_app()
    if ext == ".pdf":
        data = render_pdf(make_report(design, scenario, prediction))
    else:
        data = render_png(make_report(design, scenario, prediction, with_checks=False))
    write_atomic(path, data)


def render_pdf(r: Report) -> bytes:
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buf)
    writer.setTitle(f"{r.design.name} - Headroom report")
    writer.setCreator(f"Headroom {r.version}")
    writer.setResolution(PDF_RESOLUTION)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                     QPageLayout.Orientation.Landscape, QMarginsF(0, 0, 0, 0)))
    painter = QPainter()
    if not painter.begin(writer):
        raise DesignError([Issue("report", "could not start the PDF writer")])
    try:
        pages = build_pages(r)
        sheet = Sheet(painter)
        for i, page in enumerate(pages):
            if i:
                writer.newPage()
            painter.save()
            painter.scale(writer.width() / sheet.width, writer.height() / sheet.height)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            page(sheet)
            painter.restore()
    finally:
        painter.end()
    buf.close()
    return bytes(buf.data().data())


def render_png(r: Report) -> bytes:
    lw, lh = PNG_LOGICAL
    scale = PNG_WIDTH / lw
    img = QImage(PNG_WIDTH, round(lh * scale), QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    painter = QPainter(img)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        painter.scale(scale, scale)
        draw_dashboard(Sheet(painter, lw, lh), r)
    finally:
        painter.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not QImageWriter(buf, QByteArray(b"png")).write(img):
        raise DesignError([Issue("report", "could not encode the PNG image")])
    buf.close()
    return bytes(data.data())


def draw_dashboard(s: Sheet, r: Report) -> None:
    """The canvas diagram on the left, KPI tiles and utilisation bars on the right."""
    p = r.prediction
    m = MARGIN * 0.6
    s.text(QRectF(m, 14, s.width * 0.7, 40), r.design.name, 28, True)
    s.text(QRectF(m, 52, s.width - 2 * m, 22),
           f"Scenario {r.scenario}  ·  {r.when:%Y-%m-%d %H:%M} UTC  ·  Headroom {r.version}",
           13, color=MUTED)
    top = 86.0
    left_w = s.width * 0.58
    draw_diagram(s, QRectF(m, top, left_w - m, s.height - top - m), r.design, p)
    x = left_w + 24
    w = s.width - x - m
    tw = (w - 12) / 2
    for i, (label, value, note) in enumerate(kpi_tiles(p)):
        bx = x + (i % 2) * (tw + 12)
        by = top + (i // 2) * 112
        s.box(QRectF(bx, by, tw, 100), PANEL, RULE)
        s.text(QRectF(bx + 12, by + 6, tw - 24, 22), label, 13, color=MUTED)
        s.text(QRectF(bx + 12, by + 30, tw - 24, 38), value, 26, True)
        s.text(QRectF(bx + 12, by + 70, tw - 24, 20), note, 11.5, color=MUTED)
    y = top + 2 * 112 + 10
    avail = s.height - y - m
    utilisation_chart(s, QRectF(x, y, w, avail * 0.55), p, r.design)
    f = per_vm_figures(p)
    bar_chart(s, QRectF(x, y + avail * 0.55 + 16, w, avail * 0.45 - 16),
              f"{f.upper_title} (top 8)",
              [(f.names[i], fmt_finite(float(f.upper[i]))) for i in f.top(8)], f.upper_label,
              ACCENT)


def fmt_finite(x: float) -> float:
    return x if math.isfinite(x) else 0.0
