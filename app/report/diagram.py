"""The design drawn as a diagram for reports: components at their x/y, links between them.

Drawn with QPainter from the design alone (no scene, no widgets), so it works headless and on
any paint device.  Each box is coloured by kind and outlined by its predicted utilisation.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPen

from app import format as fmt
from app import theme
from app.report.draw import INK, MUTED, RULE, Sheet, util_color
from models.document.design import Design
from models.engine.prediction import Prediction

KIND_COLORS = {
    "host": QColor("#dce8f7"),
    "nic": QColor("#e9e2f5"),
    "storage_array": QColor("#f7e6d4"),
    "site": QColor("#e0f1e4"),
    "vm": QColor("#fdf6d8"),
}
KIND_LABELS = {"host": "host", "nic": "NIC", "storage_array": "storage array",
               "site": "site", "vm": "VM"}
LINK_PENS = {
    "runs_on": (QColor("#8a94a3"), 1.0, Qt.PenStyle.SolidLine),
    "ft_secondary_on": (QColor("#d9731b"), 1.6, Qt.PenStyle.DashLine),
    "installed_in": (QColor("#a28cc9"), 1.0, Qt.PenStyle.SolidLine),
    "passthrough": (QColor("#7b4fb8"), 1.4, Qt.PenStyle.DotLine),
    "disk_on": (QColor("#c98a4b"), 1.0, Qt.PenStyle.SolidLine),
    "storage": (QColor("#2f6db5"), 1.6, Qt.PenStyle.SolidLine),
    "located_at": (QColor("#3c9a5f"), 1.0, Qt.PenStyle.DashLine),
    "wan": (QColor("#3c9a5f"), 3.0, Qt.PenStyle.DashDotLine),
}


def component_metrics(prediction: Prediction | None) -> dict[str, tuple[str, float]]:
    """A short figure and a utilisation per component id, from the prediction."""
    out: dict[str, tuple[str, float]] = {}
    if prediction is None:
        return out
    h = prediction.hosts
    for i, hid in enumerate(h.ids):
        u = float(h.cpu_util[i])
        out[hid] = (f"CPU {fmt.percent(u, 2)}", u)
    a = prediction.arrays
    for i, aid in enumerate(a.ids):
        out[aid] = (f"{fmt.si(float(a.iops[i]))} IOPS", float(a.util[i]))
    n = prediction.nics
    for i, nid in enumerate(n.ids):
        u = float(n.util[i])
        out[nid] = (f"{fmt.percent(u, 2)} busy", u)
    v = prediction.vms
    for i, vid in enumerate(v.ids):
        out[vid] = (f"{fmt.si(float(v.iops[i]))} IOPS", math.nan)
    return out


def draw_diagram(sheet: Sheet, rect: QRectF, design: Design,
                 prediction: Prediction | None, legend: bool = True) -> None:
    """Fit the design's components into ``rect`` and draw links, boxes and a legend."""
    p = sheet.painter
    sheet.box(rect, QColor("#fbfcfe"), RULE, 4)
    comps = design.components
    if legend:
        rect = QRectF(rect.x(), rect.y(), rect.width(), rect.height() - 30)
        _legend(sheet, QRectF(rect.x() + 10, rect.bottom(), rect.width() - 20, 28), design)
    if not comps:
        sheet.text(rect, "(the design has no components)", 16, color=MUTED,
                   align=Qt.AlignmentFlag.AlignHCenter)
        return
    n = len(comps)
    bw, bh, labels = (128.0, 46.0, 2) if n <= 40 else (86.0, 30.0, 1) if n <= 150 else \
        (26.0, 12.0, 0)
    inner = rect.adjusted(16 + bw / 2, 16 + bh / 2, -16 - bw / 2, -16 - bh / 2)
    xs = [c.x for c in comps]
    ys = [c.y for c in comps]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    sx = inner.width() / (x1 - x0) if x1 > x0 else math.inf
    sy = inner.height() / (y1 - y0) if y1 > y0 else math.inf
    scale = min(sx, sy, 1.6)
    if not math.isfinite(scale):
        scale = 1.0
    cx = inner.center().x() - (x0 + x1) / 2 * scale
    cy = inner.center().y() - (y0 + y1) / 2 * scale
    pos = {c.id: QPointF(cx + c.x * scale, cy + c.y * scale) for c in comps}
    if labels:
        bw = _fit_width(list(pos.values()), bw, bh)

    p.save()
    p.setClipRect(rect)
    p.setRenderHint(p.RenderHint.Antialiasing, True)
    for lk in design.links:
        a, b = pos.get(lk.source), pos.get(lk.target)
        if a is None or b is None:
            continue
        color, width, style = LINK_PENS.get(lk.kind, (RULE, 1.0, Qt.PenStyle.SolidLine))
        p.setPen(QPen(color, width, style))
        p.drawLine(a, b)
    metrics = component_metrics(prediction)
    for c in comps:
        at = pos[c.id]
        box = QRectF(at.x() - bw / 2, at.y() - bh / 2, bw, bh)
        figure, util = metrics.get(c.id, ("", math.nan))
        line = INK if math.isnan(util) else util_color(util)
        sheet.box(box, KIND_COLORS.get(c.kind, QColor("#eeeeee")), line,
                  4 if labels else 2)
        if labels == 2:
            sheet.text(box.adjusted(6, 3, -6, -bh / 2), c.name or c.id, 12, True)
            sub = f"{KIND_LABELS.get(c.kind, c.kind)}" + (f" · {figure}" if figure else "")
            sheet.text(box.adjusted(6, bh / 2 - 1, -6, -3), sub, 10.5, color=MUTED)
        elif labels == 1:
            sheet.text(box.adjusted(4, 1, -4, -1), c.name or c.id, 10)
    p.restore()


def _fit_width(points: list[QPointF], bw: float, bh: float) -> float:
    """Narrow the boxes so side-by-side neighbours keep a small gap (not below 60 %)."""
    gap = bw
    for i, a in enumerate(points):
        for b in points[i + 1:]:
            if abs(a.y() - b.y()) < bh and abs(a.x() - b.x()) > 1e-6:
                gap = min(gap, abs(a.x() - b.x()) - 8)
    return max(bw * 0.6, min(bw, gap))


def _legend(sheet: Sheet, rect: QRectF, design: Design) -> None:
    x = rect.x()
    kinds = sorted({c.kind for c in design.components}, key=list(KIND_COLORS).index
                   if all(c.kind in KIND_COLORS for c in design.components) else str)
    for kind in kinds:
        sheet.box(QRectF(x, rect.y() + 8, 16, 12), KIND_COLORS.get(kind, QColor("#eee")),
                  INK, 2)
        sheet.text(QRectF(x + 20, rect.y(), 110, rect.height()), KIND_LABELS.get(kind, kind),
                   11, color=MUTED)
        x += 120
    for label, load in theme.util_legend():
        sheet.box(QRectF(x, rect.y() + 8, 16, 12), QColor("#ffffff"),
                  QColor(theme.UTIL_COLOURS[load]), 2)
        sheet.text(QRectF(x + 20, rect.y(), 100, rect.height()), label, 11, color=MUTED)
        x += 105
