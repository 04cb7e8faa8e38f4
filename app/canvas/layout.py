"""Canvas layout of VMs on their hosts: a grid under each host, so that no two VM boxes overlap
however many VMs a host runs (470 on one host in the dense web farm).

Pure geometry on a :class:`~models.document.design.Design`: the positions come back as a dict that
:meth:`DesignDocument.move_components` applies as one undo step (View > Arrange VMs on Their
Hosts), or that a rebuilt design (goal seek) takes before it reaches the document.
"""

from __future__ import annotations

import math

from app.canvas.items import SIZES
from models.document.design import Component, Design

GAP_X, GAP_Y = 8.0, 10.0
"""Space between two VM boxes of a grid."""
BELOW = 30.0
"""Space between a host's bottom edge and the first row of its VMs."""
HOST_GAP = 80.0
"""Space between the grids of two hosts side by side."""


def vms_by_host(design: Design) -> dict[str, list[Component]]:
    """Each host's VMs (``runs_on``), in design order."""
    by_id = {c.id: c for c in design.components}
    out: dict[str, list[Component]] = {h.id: [] for h in design.of_kind("host")}
    for lk in design.links:
        vm = by_id.get(lk.source)
        if lk.kind == "runs_on" and vm is not None and lk.target in out:
            out[lk.target].append(vm)
    return out


def grid_columns(n: int) -> int:
    """Columns of a grid of ``n`` VMs: about twice as wide as tall on screen."""
    w, h = SIZES["vm"]
    return max(1, math.ceil(math.sqrt(n * 2.0 * (h + GAP_Y) / (w + GAP_X))))


def arrange_vms(design: Design) -> dict[str, tuple[float, float]]:
    """Positions that put every host's VMs in a grid centred under the host.

    Hosts stay where they are unless their grids would overlap; then the hosts are spread
    in a row (left to right in their current order) far enough apart.  Only components
    whose position changes are in the result."""
    vw, vh = SIZES["vm"]
    hw, hh = SIZES["host"]
    pitch_x, pitch_y = vw + GAP_X, vh + GAP_Y
    groups = vms_by_host(design)
    hosts = sorted(design.of_kind("host"), key=lambda h: (h.x, h.y))
    width = {h.id: max(hw, grid_columns(len(groups[h.id])) * pitch_x) for h in hosts}
    height = {h.id: math.ceil(len(groups[h.id]) / grid_columns(len(groups[h.id]))) * pitch_y
              for h in hosts}
    spots = {h.id: (h.x, h.y) for h in hosts}
    if _grids_overlap(hosts, width, height):
        x = hosts[0].x if hosts else 0.0
        y = min((h.y for h in hosts), default=0.0)
        for i, h in enumerate(hosts):
            if i:
                x += (width[hosts[i - 1].id] + width[h.id]) / 2 + HOST_GAP
            spots[h.id] = (x, y)
    out: dict[str, tuple[float, float]] = {}
    for h in hosts:
        hx, hy = spots[h.id]
        if (hx, hy) != (h.x, h.y):
            out[h.id] = (hx, hy)
        vms = groups[h.id]
        cols = grid_columns(len(vms))
        top = hy + hh / 2 + BELOW + vh / 2
        for i, vm in enumerate(vms):
            pos = (hx + (i % cols - (cols - 1) / 2) * pitch_x, top + (i // cols) * pitch_y)
            if pos != (vm.x, vm.y):
                out[vm.id] = pos
    return out


def _grids_overlap(hosts: list[Component], width: dict[str, float],
                   height: dict[str, float]) -> bool:
    hh = SIZES["host"][1]
    boxes = [(h.x - width[h.id] / 2, h.y - hh / 2, h.x + width[h.id] / 2,
              h.y + hh / 2 + BELOW + height[h.id]) for h in hosts]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                return True
    return False


def overlapping_vms(design: Design) -> int:
    """How many VM boxes overlap another VM box (a spatial hash: no pass over all pairs)."""
    w, h = SIZES["vm"]
    cells: dict[tuple[int, int], list[Component]] = {}
    vms = design.of_kind("vm")
    for vm in vms:
        cells.setdefault((math.floor(vm.x / w), math.floor(vm.y / h)), []).append(vm)
    count = 0
    for vm in vms:
        cx, cy = math.floor(vm.x / w), math.floor(vm.y / h)
        if any(other is not vm and abs(other.x - vm.x) < w and abs(other.y - vm.y) < h
               for dx in (-1, 0, 1) for dy in (-1, 0, 1)
               for other in cells.get((cx + dx, cy + dy), ())):
            count += 1
    return count
