"""The design drawn as a diagram for reports: components at their x/y, links between them.

Drawn with QPainter from the design alone (no scene, no widgets), so it works headless and on
any paint device.  Each box is coloured by kind and outlined by its predicted utilisation.
A design with many components is drawn without its VMs and NICs: each host carries a badge
with their counts (a 470-VM farm reads as one host with "470 VMs · 2 NICs", not a hairball),
and a design with more hosts than fit is drawn as a grid of host tiles.
"""

from __future__ import annotations

import math
from collections import Counter

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPen

from app.report.draw import INK, MUTED, RULE, Sheet, util_color
from app.support import theme
from models.core.prediction import Prediction
from models.document import numbers as fmt
from models.document.design import Component, Design
from models.document.words import kind_count, kind_text

KIND_COLORS = {
    "host": QColor("#dce8f7"),
    "nic": QColor("#e9e2f5"),
    "storage_array": QColor("#f7e6d4"),
    "site": QColor("#e0f1e4"),
    "vm": QColor("#fdf6d8"),
    "content_library": QColor("#e3f1f4"),
}
LINK_PENS = {
    "runs_on": (QColor("#8a94a3"), 1.0, Qt.PenStyle.SolidLine),
    "ft_secondary_on": (QColor("#d9731b"), 1.6, Qt.PenStyle.DashLine),
    "installed_in": (QColor("#a28cc9"), 1.0, Qt.PenStyle.SolidLine),
    "passthrough": (QColor("#7b4fb8"), 1.4, Qt.PenStyle.DotLine),
    "disk_on": (QColor("#c98a4b"), 1.0, Qt.PenStyle.SolidLine),
    "storage": (QColor("#2f6db5"), 1.6, Qt.PenStyle.SolidLine),
    "located_at": (QColor("#3c9a5f"), 1.0, Qt.PenStyle.DashLine),
    "wan": (QColor("#3c9a5f"), 3.0, Qt.PenStyle.DashDotLine),
    "subscribes_to": (QColor("#2a8aa0"), 1.4, Qt.PenStyle.DashLine),
    "library_at": (QColor("#3c9a5f"), 1.0, Qt.PenStyle.DotLine),
}

FULL_LIMIT = 40
"""Up to this many components every one is drawn; beyond, VMs become per-host counts."""
FEW = 6
"""Up to this many boxes they are drawn larger (a farm on one host is one big box)."""
TILE_LIMIT = 60
"""Beyond this many components without the VMs, hosts are drawn as a grid of tiles."""


def component_metrics(prediction: Prediction | None) -> dict[str, tuple[str, float]]:
    """A short figure and a utilisation per component id, from the prediction."""
    out: dict[str, tuple[str, float]] = {}
    if prediction is None:
        return out
    h = prediction.hosts
    for i, hid in enumerate(h.ids):
        u = float(h.cpu_util[i])
        out[hid] = (f"CPU {fmt.percent(u, 2)}" if math.isfinite(u) else "CPU not measured", u)
    a = prediction.arrays
    for i, aid in enumerate(a.ids):
        out[aid] = (f"{fmt.si(float(a.iops[i]))} IOPS" if a.measured(i) else "I/O not measured",
                    float(a.util[i]))
    n = prediction.nics
    for i, nid in enumerate(n.ids):
        u = float(n.util[i])
        out[nid] = (f"{fmt.percent(u, 2)} busy", u)
    v = prediction.vms
    for i, vid in enumerate(v.ids):
        iops = float(v.iops[i])
        out[vid] = (f"{fmt.si(iops)} IOPS" if iops > 0 else "", math.nan)
    return out


def mode_of(design: Design) -> str:
    """``full`` (every component), ``hosts`` (VMs as counts on their hosts) or ``tiles``."""
    if len(design.components) <= FULL_LIMIT:
        return "full"
    others = sum(1 for c in design.components if c.kind != "vm")
    return "hosts" if others <= TILE_LIMIT else "tiles"


def draw_diagram(sheet: Sheet, rect: QRectF, design: Design,
                 prediction: Prediction | None, legend: bool = True) -> None:
    """Fit the design into ``rect`` and draw links, boxes and a legend."""
    sheet.box(rect, QColor("#fbfcfe"), RULE, 4)
    mode = mode_of(design)
    if legend:
        rect = QRectF(rect.x(), rect.y(), rect.width(), rect.height() - 30)
        _legend(sheet, QRectF(rect.x() + 10, rect.bottom(), rect.width() - 20, 28), design,
                mode)
    if not design.components:
        sheet.text(rect, "(the design has no components)", 16, color=MUTED,
                   align=Qt.AlignmentFlag.AlignHCenter)
        return
    if mode == "tiles":
        _tiles(sheet, rect, design, prediction)
        return
    on_host = Counter(lk.target for lk in design.links if lk.kind == "runs_on")
    nic_host = {lk.source: lk.target for lk in design.links if lk.kind == "installed_in"}
    comps = design.components if mode == "full" else \
        [c for c in design.components if c.kind != "vm" and c.id not in nic_host]
    unplaced = sum(1 for c in design.of_kind("vm")) - sum(on_host.values())
    if mode == "hosts" and unplaced > 0:
        comps = [*comps, Component("(unplaced VMs)", "vm",
                                   f"{fmt.count(unplaced, 'VM')} not on a host",
                                   x=max((c.x for c in comps), default=0.0) + 200,
                                   y=min((c.y for c in comps), default=0.0))]
    badges = None
    if mode == "hosts":
        nics = Counter(nic_host.values())
        badges = {h.id: " · ".join(t for t in (fmt.count(on_host.get(h.id, 0), "VM"),
                                               fmt.count(nics[h.id], "NIC") if nics[h.id]
                                               else "") if t)
                  for h in design.of_kind("host")}
    _boxes(sheet, rect, design, comps, prediction, badges)


def _boxes(sheet: Sheet, rect: QRectF, design: Design, comps: list[Component],
           prediction: Prediction | None, badges: dict[str, str] | None) -> None:
    """Boxes at the components' positions, their links; ``badges`` under hosts (what they
    carry: ``470 VMs · 2 NICs``) when VMs and NICs are not drawn."""
    p = sheet.painter
    n = len(comps)
    big = 1.35 if n <= FEW else 1.0
    bw, bh, labels = (150.0 * big, 46.0 * big, 2) if n <= FULL_LIMIT else (96.0, 30.0, 1)
    badge = 18.0 * big if badges is not None else 0.0
    inner = rect.adjusted(16 + bw / 2, 16 + bh / 2, -16 - bw / 2, -16 - bh / 2 - badge)
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
    metrics = component_metrics(prediction)
    widths = _widths(sheet, comps, pos, metrics, bw, bh, labels, big)
    for c in comps:  # a box wider than the standard stays inside the frame
        half = widths[c.id] / 2 + 6
        at = pos[c.id]
        at.setX(min(max(at.x(), rect.left() + half), rect.right() - half))

    p.save()
    p.setClipRect(rect)
    shown = {c.id for c in comps}
    implied = {(lk.source, lk.target) for lk in design.links if lk.kind == "storage"}
    host_of = {lk.source: lk.target for lk in design.links if lk.kind == "runs_on"}
    for lk in design.links:
        if lk.source not in shown or lk.target not in shown:
            continue
        if lk.kind == "disk_on" and (host_of.get(lk.source), lk.target) in implied:
            continue  # the VM reaches the array through its host: the host's link says so
        color, width, style = LINK_PENS.get(lk.kind, (RULE, 1.0, Qt.PenStyle.SolidLine))
        p.setPen(QPen(color, width, style))
        p.drawLine(pos[lk.source], pos[lk.target])
    for c in comps:
        at = pos[c.id]
        bw = widths[c.id]
        box = QRectF(at.x() - bw / 2, at.y() - bh / 2, bw, bh)
        util = metrics.get(c.id, ("", math.nan))[1]
        line = INK if math.isnan(util) else util_color(util)
        sheet.box(box, KIND_COLORS.get(c.kind, QColor("#eeeeee")), line, 4)
        name = c.name or c.id
        if labels == 2:
            sheet.text(box.adjusted(6, 3, -6, -bh / 2), name, 12 * big, True, shrink=0.7)
            sheet.text(box.adjusted(6, bh / 2 - 1, -6, -3), _sub(c, metrics), 10.5 * big,
                       color=MUTED, shrink=0.75)
        else:
            sheet.text(box.adjusted(4, 1, -4, -1), name, 10, shrink=0.7)
        if badges is not None and c.kind == "host":
            tag = QRectF(box.x() + 6, box.bottom() + 2, bw - 12, badge - 2)
            sheet.box(tag, KIND_COLORS["vm"], INK, 3)
            sheet.text(tag, badges.get(c.id, ""), 10 * big, True,
                       align=Qt.AlignmentFlag.AlignHCenter, shrink=0.7)
    p.restore()


def _tiles(sheet: Sheet, rect: QRectF, design: Design, prediction: Prediction | None) -> None:
    """Hosts as a grid of tiles (name, VM count, CPU colour); other components counted."""
    hosts = design.of_kind("host")
    on_host = Counter(lk.target for lk in design.links if lk.kind == "runs_on")
    metrics = component_metrics(prediction)
    others = Counter(c.kind for c in design.components if c.kind not in ("host", "vm"))
    head = ", ".join(kind_count(k, n) for k, n in others.items())
    top = rect.y() + 12
    if head:
        sheet.text(QRectF(rect.x() + 16, top, rect.width() - 32, 22), f"Also: {head}", 12,
                   color=MUTED)
        top += 30
    area = QRectF(rect.x() + 16, top, rect.width() - 32, rect.bottom() - top - 12)
    cols = max(1, math.ceil(math.sqrt(len(hosts) * area.width() / max(area.height(), 1))))
    rows = max(1, math.ceil(len(hosts) / cols))
    tw, th = area.width() / cols, area.height() / rows
    for i, h in enumerate(hosts):
        box = QRectF(area.x() + (i % cols) * tw + 2, area.y() + (i // cols) * th + 2, tw - 4,
                     th - 4)
        _figure, util = metrics.get(h.id, ("", math.nan))
        sheet.box(box, KIND_COLORS["host"], INK if math.isnan(util) else util_color(util), 2)
        if th > 26 and tw > 50:
            sheet.text(box.adjusted(3, 1, -3, -box.height() / 2), h.name or h.id, 9,
                       shrink=0.6)
            sheet.text(box.adjusted(3, box.height() / 2, -3, -1),
                       fmt.count(on_host.get(h.id, 0), "VM"), 8.5, color=MUTED, shrink=0.6)


def _sub(c: Component, metrics: dict[str, tuple[str, float]]) -> str:
    figure = metrics.get(c.id, ("", math.nan))[0]
    return kind_text(c.kind) + (f" · {figure}" if figure else "")


def _widths(sheet: Sheet, comps: list[Component], pos: dict[str, QPointF],
            metrics: dict[str, tuple[str, float]], bw: float, bh: float,
            labels: int, big: float = 1.0) -> dict[str, float]:
    """Each box as wide as its text (up to 1.6 times the standard width), narrowed so
    side-by-side neighbours keep a small gap (the name then set smaller, or cut)."""
    out = {}
    for c in comps:
        name = c.name or c.id
        want = sheet.text_width(name, (12 if labels == 2 else 10) * big, labels == 2) + 16
        if labels == 2:
            want = max(want, sheet.text_width(_sub(c, metrics), 10.5 * big) + 16)
        at = pos[c.id]
        gap = min((abs(at.x() - pos[o.id].x()) for o in comps
                   if o.id != c.id and abs(at.y() - pos[o.id].y()) < bh
                   and abs(at.x() - pos[o.id].x()) > 1e-6), default=math.inf)
        out[c.id] = max(min(bw * 0.6, gap - 8), 36.0, min(want, bw * 1.6, gap - 8))
    return out


def _legend(sheet: Sheet, rect: QRectF, design: Design, mode: str) -> None:
    """The kinds drawn and the utilisation colours, each as wide as its words, within
    ``rect``'s width: where they do not fit (the PNG summary's half-page diagram), the note
    that VMs and NICs are counted goes first, then the spacing tightens."""
    order = list(KIND_COLORS)
    kinds = sorted({c.kind for c in design.components},
                   key=lambda k: order.index(k) if k in order else len(order))
    if mode != "full":
        kinds = [k for k in kinds if k not in ("vm", "nic")]
    size = 11
    items: list[tuple[str, QColor | None, QColor | None]] = [
        (kind_text(kind), KIND_COLORS.get(kind, QColor("#eee")), INK) for kind in kinds]
    note = [("VMs and NICs counted on their hosts", None, None)] if mode != "full" else []
    items += [(label, QColor("#ffffff"), QColor(theme.UTIL_COLOURS[load]))
              for label, load in theme.util_legend()]

    def width(entries: list[tuple[str, QColor | None, QColor | None]], gap: float) -> float:
        return sum((20 if fill is not None else 0) + sheet.text_width(label, size) + gap
                   for label, fill, _ in entries)

    gap = 24.0
    full = items[:len(kinds)] + note + items[len(kinds):]
    if width(full, gap) <= rect.width():
        items = full
    while width(items, gap) > rect.width() and gap > 8:
        gap -= 4
    x = rect.x()
    for label, fill, line in items:
        if fill is not None:
            sheet.box(QRectF(x, rect.y() + 8, 16, 12), fill, line, 2)
            x += 20
        w = sheet.text_width(label, size)
        sheet.text(QRectF(x, rect.y(), w + 2, rect.height()), label, size, color=MUTED)
        x += w + gap
