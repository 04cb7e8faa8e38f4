"""WCAG AA in light and dark: every tile title, figure, caption, inspector label and chart axis
is rendered, its pixels sampled, and its text found at least 4.5:1 against what is behind it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.support import theme
from app.window.main_window import MainWindow
from models.examples import bundled as examples

AA = 4.5
"""WCAG AA for text."""


@pytest.fixture(params=["light", "dark"])
def scheme(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    theme.set_scheme(qapp, dark=request.param == "dark")
    yield str(request.param)
    theme.set_scheme(qapp, dark=False)


def pixels(image: QImage, rect: QRect) -> np.ndarray:
    """The RGB pixels of ``rect`` of ``image``, one row per pixel."""
    crop = image.copy(rect).convertToFormat(QImage.Format.Format_RGB888)
    w, h, stride = crop.width(), crop.height(), crop.bytesPerLine()
    raw = np.frombuffer(crop.constBits(), dtype=np.uint8)[:h * stride]
    return raw.reshape(h, stride)[:, :w * 3].reshape(-1, 3)


def text_contrast(image: QImage, rect: QRect) -> float:
    """The contrast of the text drawn in ``rect`` against its background.

    The background is the most common colour.  Anti-aliasing draws most of a small glyph in
    blends of the two; the text's own colour shows where a stroke covers a whole pixel, so it
    is taken as the inked colour of highest contrast (a label's rectangle holds nothing but
    its text, so no stray pixel can carry the result; a faint text has no pixel of higher
    contrast than its own colour).  0 when nothing is drawn."""
    px = pixels(image, rect)
    counts = Counter(map(tuple, px.tolist()))
    (bg_rgb, _), = counts.most_common(1)
    bg = QColor(*bg_rgb)
    solid = [p for p, n in counts.items() if p != bg_rgb and n >= MIN_PIXELS]
    return max((theme.contrast(QColor(*p), bg) for p in solid), default=0.0)


MIN_PIXELS = 1


def rect_in(window: QWidget, widget: QWidget) -> QRect:
    """The visible part of ``widget`` in ``window``'s coordinates (empty when hidden)."""
    visible = widget.visibleRegion().boundingRect()
    return QRect(widget.mapTo(window, visible.topLeft()), visible.size())


def axis_rect(window: QWidget, view: pg.GraphicsView, axis: pg.AxisItem) -> QRect:
    r = view.mapFromScene(axis.sceneBoundingRect()).boundingRect()
    return QRect(view.mapTo(window, r.topLeft()), r.size()).intersected(
        QRect(view.mapTo(window, QPoint(0, 0)), view.size()))


def test_the_sampler_fails_faint_text(qtbot: QtBot) -> None:
    """The measure itself: dark grey on dark grey reads as about 1:1, black on white 21:1."""
    results = []
    for fg, bg in (("#2a2c30", "#2b2d31"), ("#000000", "#ffffff")):
        label = QLabel("Total IOPS 75,000")
        label.setStyleSheet(f"color: {fg}; background: {bg};")
        qtbot.addWidget(label)
        label.show()
        image = label.grab().toImage()
        results.append(text_contrast(image, QRect(0, 0, image.width(), image.height())))
    assert results[0] < 1.2
    assert results[1] > 15


def test_every_text_and_axis_reads_at_aa_contrast(qtbot: QtBot, scheme: str) -> None:
    design = examples.load("vaio-scaling")
    doc = DesignDocument(design)
    window = MainWindow(doc, remember_layout=False)
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    doc.set_scenario(next(s.name for s in design.scenarios if "iofilter" in s.name))
    dash = window.dashboard
    qtbot.waitUntil(lambda: any(t.band_label.isVisible() for t in dash.tiles.values()),
                    timeout=10_000)
    doc.set_selection(["h1"])
    qtbot.waitUntil(lambda: bool(window.inspector.fields))
    window.knob_panel.rebuild()  # the host's knobs now, not at the next timer
    qtbot.waitUntil(lambda: "host.cores_per_socket" in window.knob_panel.rows)
    window.utilisation.refresh()
    for _ in range(3):  # laid out and painted
        QApplication.processEvents()
    image = window.grab().toImage()

    checked: dict[str, float] = {}

    def check(name: str, widget: QWidget) -> None:
        rect = rect_in(window, widget)
        if rect.size() == widget.size():  # wholly shown (not scrolled out of sight)
            checked[name] = text_contrast(image, rect)

    for key, tile in dash.tiles.items():
        for part in ("title_label", "value_label", "detail_label", "delta_label",
                     "band_label"):
            label = getattr(tile, part)
            if label.isVisible() and label.text():
                check(f"{key}.{part}", label)
    for name in ("scenario_label", "hidden_label", "warnings_label"):
        label = getattr(dash, name)
        if label.isVisible() and label.text():
            check(f"dashboard.{name}", label)
    for path, row in window.knob_panel.rows.items():
        for part in ("label", "value_label", "caption"):
            check(f"{path}.{part}", getattr(row, part))
    form = window.inspector.form
    for i in range(form.rowCount()):
        item = form.itemAt(i, form.ItemRole.LabelRole)
        label = item.widget() if item is not None else None
        if isinstance(label, QLabel):
            check(f"inspector.{label.text()}", label)
    check("inspector.title", window.inspector.title)
    curve = window.knob_curve
    for plot_name, plot in (("latency", curve.latency_plot), ("iops", curve.iops_plot)):
        for side in ("left", "bottom"):
            axis = plot.getAxis(side)
            if not axis.style["showValues"]:
                continue  # no text: the upper plot shares the lower one's x axis
            checked[f"curve.{plot_name}.{side}"] = text_contrast(
                image, axis_rect(window, curve.plots, axis))

    groups = {n.split(".")[0] for n in checked}
    assert {"total_iops", "curve", "inspector", "host"} <= groups, groups
    assert sum(n.endswith(".caption") for n in checked) >= 3
    assert sum(n.endswith(".title_label") for n in checked) >= 6
    assert any(n.endswith(".band_label") for n in checked)
    assert any(n.endswith(".delta_label") for n in checked)
    low = {n: round(c, 2) for n, c in checked.items() if c < AA}
    assert not low, f"{scheme}: below {AA}:1: {low}"


def test_the_utilisation_chart_axes_read_at_aa_contrast(qtbot: QtBot, scheme: str) -> None:
    doc = DesignDocument(examples.load("vaio-scaling"))
    window = MainWindow(doc, remember_layout=False)
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    window.charts.setCurrentWidget(window.utilisation)
    QApplication.processEvents()
    chart = window.utilisation
    assert chart.shown
    image = window.grab().toImage()
    for side in ("left", "bottom"):
        rect = axis_rect(window, chart.plots, chart.plot.getAxis(side))
        assert text_contrast(image, rect) >= AA, (scheme, side)
    background = QColor(image.pixel(chart.plots.mapTo(window, QPoint(3, 3))))
    assert (background.lightness() < 128) == (scheme == "dark")
