"""Drop: a preset dragged from the palette becomes a component where it is dropped.

Dropped onto a compatible item it is linked at once, in the same undo step: a VM onto a host
runs on it (and is stacked below the host), a NIC onto a host is installed in it, a host onto a
site is located there, a VM onto an array keeps its disk there, a host onto a cluster joins it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QMimeData, QPointF

from app.canvas.items import SIZES
from models.document.design import DesignError, Link
from models.document.presets import preset

if TYPE_CHECKING:
    from app.canvas.scene import DesignScene

MIME = "application/x-headroom-preset"
DROP_LINKS = {("vm", "host"): "runs_on", ("nic", "host"): "installed_in",
              ("host", "site"): "located_at", ("vm", "storage_array"): "disk_on",
              ("host", "storage_array"): "storage", ("host", "cluster"): "in_cluster"}


def preset_mime(preset_id: str) -> QMimeData:
    mime = QMimeData()
    mime.setData(MIME, preset_id.encode("utf-8"))
    mime.setText(preset_id)
    return mime


def preset_of(mime: QMimeData) -> str | None:
    if not mime.hasFormat(MIME):
        return None
    return bytes(mime.data(MIME).data()).decode("utf-8", "replace")


def drop_preset(scene: DesignScene, preset_id: str, pos: QPointF) -> str:
    """Add a component of ``preset_id`` at ``pos``; returns a status-bar message."""
    doc = scene.document
    try:
        pre = preset(preset_id)
    except KeyError:
        return f"Unknown preset '{preset_id}'"
    cid = doc.new_id(pre.kind)
    under = scene.component_at(pos)
    links: list[Link] = []
    x, y = pos.x(), pos.y()
    if under is not None and (pre.kind, under.kind) in DROP_LINKS:
        kind = DROP_LINKS[(pre.kind, under.kind)]
        links.append(Link(cid, under.cid, kind))
        if kind == "runs_on":
            stacked = sum(1 for lk in doc.design.links
                          if lk.kind == "runs_on" and lk.target == under.cid)
            x = under.x()
            y = under.y() + SIZES["host"][1] / 2 + 30 + stacked * (SIZES["vm"][1] + 6)
    comp = pre.component(cid, round(x), round(y))
    try:
        doc.add_components([comp], links, f"Add {pre.label}")
    except DesignError as err:
        return f"Could not add {pre.label}: {err}"
    doc.set_selection([cid])
    where = f" on {links[0].target} ({links[0].kind})" if links else ""
    return f"Added {pre.label} as {cid}{where}"
