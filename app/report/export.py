"""PDF and PNG reports of a design and its prediction, headless or from the GUI.

``.pdf``: a vector PDF (QPdfWriter, A4 landscape, fonts embedded) with the pages of
:mod:`app.report.pages`, at most ten.  ``.png``: one image, 2000 px wide, of the summary:
the design, the headline figures, the executive summary and the scenarios' headline figure.
Both are written atomically with the usual permissions (an existing file keeps its own): a
failed export leaves no partial file.

What a report says is computed first (:func:`prepare`, Qt-free, may run in a worker thread),
then drawn page by page (:class:`PdfRender`), so the GUI can show progress between pages.
"""

from __future__ import annotations

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

from app.report.charts import utilisation_chart
from app.report.diagram import draw_diagram
from app.report.document import Report
from app.report.draw import ACCENT, MARGIN, MUTED, PANEL, RULE, Sheet
from app.report.pages import (
    Page,
    build_pages,
    counts_text,
    kpi_tiles,
    scenario_strip,
)
from app.support import qt_fixes
from models.analysis.bom import PriceList
from models.core.prediction import Prediction
from models.document.design import Design, DesignError, Issue
from models.io.atomic import write_atomic
from models.report.compare import Progress
from models.report.content import build

PDF_RESOLUTION = 300
PNG_WIDTH = 2000
PNG_LOGICAL = (1600.0, 1000.0)
EXTENSIONS = (".pdf", ".png")


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


def check_path(path: Path) -> str:
    """The report type of ``path`` (``.pdf`` or ``.png``); raises for any other."""
    ext = Path(path).suffix.lower()
    if ext not in EXTENSIONS:
        raise DesignError([Issue(str(path), f"unknown report type '{Path(path).suffix}': "
                                            "expected .pdf or .png")])
    return ext


def prepare(design: Design, scenario: str, prediction: Prediction | None = None,
            with_checks: bool = True, progress: Progress | None = None,
            years: int | None = None, prices: PriceList | None = None) -> Report:
    """What the report says (Qt-free work: every scenario evaluated, levers tried, checks
    run; ``years``, a horizon for the growth page; ``prices``, the price list the bill of
    materials is priced with); safe in a worker thread."""
    content = build(design, scenario, prediction, progress, with_checks, years, prices)
    return Report(content, _version(), datetime.now(UTC))


def export_report(design: Design, scenario: str, path: Path,
                  prediction: Prediction | None = None, years: int | None = None,
                  prices: PriceList | None = None) -> None:
    """Write the report of ``design`` in ``scenario`` to ``path`` (``.pdf`` or ``.png``);
    ``prediction`` is that scenario's, when the caller has it; ``years``, a horizon for the
    growth page; ``prices``, the price list the bill of materials is priced with."""
    path = Path(path)
    ext = check_path(path)
    ensure_gui_app()
    report = prepare(design, scenario, prediction, with_checks=ext == ".pdf", years=years,
                     prices=prices)
    write_atomic(path, render_pdf(report) if ext == ".pdf" else render_png(report))


class PdfRender:
    """A PDF drawn one page at a time (:meth:`draw_next`), then :meth:`finish` for the bytes.
    Lives in the GUI thread; between pages the event loop runs (and Cancel is heard)."""

    def __init__(self, report: Report):
        self.report = report
        self.pages: list[Page] = build_pages(report)
        self.done = 0
        self._buf = QBuffer()
        self._buf.open(QIODevice.OpenModeFlag.WriteOnly)
        self._writer = QPdfWriter(self._buf)
        self._writer.setTitle(f"{report.title} - Headroom report")
        self._writer.setCreator(f"Headroom {report.version}")
        self._writer.setResolution(PDF_RESOLUTION)
        self._writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                               QPageLayout.Orientation.Landscape,
                                               QMarginsF(0, 0, 0, 0)))
        self._painter = QPainter()
        if not self._painter.begin(self._writer):
            raise DesignError([Issue("report", "could not start the PDF writer")])

    @property
    def total(self) -> int:
        return len(self.pages)

    def draw_next(self) -> bool:
        """Draw the next page; False when every page is drawn."""
        if self.done >= len(self.pages):
            return False
        if self.done:
            self._writer.newPage()
        sheet = Sheet(self._painter)
        self._painter.save()
        try:
            self._painter.scale(self._writer.width() / sheet.width,
                                self._writer.height() / sheet.height)
            self._painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            self.pages[self.done](sheet, self.done + 1, len(self.pages))
        finally:
            self._painter.restore()
        self.done += 1
        return self.done < len(self.pages)

    def finish(self) -> bytes:
        self.close()
        return bytes(self._buf.data().data())

    def close(self) -> None:
        """End the painter (a cancelled render calls only this)."""
        if self._painter.isActive():
            self._painter.end()
        self._buf.close()


def render_pdf(r: Report) -> bytes:
    render = PdfRender(r)
    try:
        while render.draw_next():
            pass
    except BaseException:
        render.close()
        raise
    return render.finish()


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
    """The summary view: the diagram on the left; headline tiles, the executive summary,
    the busiest resources and the scenarios' headline figure on the right."""
    p = r.prediction
    m = MARGIN * 0.6
    s.box(QRectF(0, 0, s.width, 84), PANEL)
    s.text(QRectF(m, 12, s.width * 0.7, 40), r.title, 28, True)
    scen = "base design" if r.scenario == "base" else f"scenario ‘{r.scenario}’"
    s.text(QRectF(m, 50, s.width - 2 * m, 22),
           f"{scen} · {counts_text(r.design)} · {r.when:%Y-%m-%d %H:%M} UTC · Headroom"
           f" {r.version}", 13, color=MUTED)
    top = 100.0
    left_w = s.width * 0.5
    draw_diagram(s, QRectF(m, top, left_w - m, s.height - top - m), r.design, p)
    x = left_w + 20
    w = s.width - x - m
    tw = (w - 3 * 10) / 4
    for i, (label, value, note) in enumerate(kpi_tiles(p, r.content.effective)):
        bx = x + i * (tw + 10)
        s.box(QRectF(bx, top, tw, 84), PANEL, RULE)
        s.text(QRectF(bx + 10, top + 4, tw - 20, 20), label, 12, color=MUTED)
        s.text(QRectF(bx + 10, top + 26, tw - 20, 32), value, 21, True)
        s.text(QRectF(bx + 10, top + 60, tw - 20, 18), note, 10.5, color=MUTED, shrink=0.7)
    y = top + 100
    for heading, text in r.content.summary.leading():
        s.text(QRectF(x, y, w, 20), heading, 13, True, ACCENT)
        y += 22 + s.wrapped(x, y + 20, w, text, 12.5) + 4
    y += 8
    rest = s.height - m - y
    cols = r.content.comparison.columns
    scen_h = min(rest * 0.5, 34 + 24 * len(cols)) if len(cols) > 1 else 0
    utilisation_chart(s, QRectF(x, y, w, rest - scen_h - 10), p, r.content.effective,
                      n=6, title="Busiest resources")
    if scen_h:
        scenario_strip(s, QRectF(x, s.height - m - scen_h, w, scen_h), r)
