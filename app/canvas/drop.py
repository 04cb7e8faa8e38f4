"""Drop: a preset dragged from the palette becomes a component where it is dropped.

Dropped onto a compatible item it is linked at once, in the same undo step: a VM onto a host
runs on it (anywhere on the card, its NIC chips and VM pills included) and takes the next
pill of the card's grid; a NIC onto a host is installed in it (the next chip); a host onto a
site (anywhere inside its box) is located there, onto a cluster joins it; a VM onto an
array keeps its disk there.  What is not put on a card goes to the free spot nearest the
drop that overlaps nothing (:func:`models.io.arrange.free_spot`).  While the canvas shows a
refresh (:mod:`app.canvas.readonly`) nothing is added.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QMimeData, QPointF

from app.canvas.cards import HostItem
from models.document.design import DesignError, Link
from models.document.presets import preset
from models.io.arrange import free_spot
from models.io.placement import SIZES, card

if TYPE_CHECKING:
    from app.canvas.protocol import Canvas

MIME = "application/x-headroom-preset"
DROP_LINKS = {("vm", "host"): "runs_on", ("nic", "host"): "installed_in",
              ("host", "site"): "located_at", ("vm", "storage_array"): "disk_on",
              ("host", "storage_array"): "storage", ("host", "cluster"): "in_cluster",
              ("content_library", "site"): "library_at"}


def preset_mime(preset_id: str) -> QMimeData:
    mime = QMimeData()
    mime.setData(MIME, preset_id.encode("utf-8"))
    mime.setText(preset_id)
    return mime


def preset_of(mime: QMimeData) -> str | None:
    if not mime.hasFormat(MIME):
        return None
    return bytes(mime.data(MIME).data()).decode("utf-8", "replace")


def landing(canvas: Canvas, kind: str, pos: QPointF) -> tuple[Link | None, QPointF]:
    """Where a new ``kind`` dropped at ``pos`` goes: the link it gets (or None) and its
    position (a pill or chip of the host's card; else the free spot nearest ``pos``)."""
    under = canvas.target_at(pos)
    link = None
    if under is not None and (kind, under.kind) in DROP_LINKS:
        link = Link("", under.cid, DROP_LINKS[(kind, under.kind)])
    if link is not None and isinstance(under, HostItem) and link.kind in ("runs_on",
                                                                          "installed_in"):
        nics, vms = len(under.nic_ids), len(under.vm_ids)
        grown = card(nics + (link.kind == "installed_in"), vms + (link.kind == "runs_on"),
                     under.least)
        offset = grown.vm_offset(vms) if link.kind == "runs_on" else grown.nic_offset(nics)
        return link, under.pos() + QPointF(*offset)
    size = SIZES.get(kind, (100.0, 40.0))
    if kind == "host":
        size = (card(0, 0).width, card(0, 0).height)
    x, y = free_spot(canvas.document.shown_design(), size, (pos.x(), pos.y()),
                     header=kind == "host")
    return link, QPointF(x, y)


def drop_preset(canvas: Canvas, preset_id: str, pos: QPointF) -> str:
    """Add a component of ``preset_id`` at ``pos``; returns a status-bar message."""
    why = canvas.read_only()
    if why:
        return f"Not added: {why}"
    doc = canvas.document
    try:
        pre = preset(preset_id)
    except KeyError:
        return f"Unknown preset '{preset_id}'"
    cid = doc.new_id(pre.kind)
    link, at = landing(canvas, pre.kind, pos)
    links = [Link(cid, link.target, link.kind)] if link is not None else []
    comp = pre.component(cid, round(at.x()), round(at.y()))
    comp.name = unique_name({c.name for c in doc.shown_design().components}, comp.name)
    what = comp.name or pre.label
    try:
        doc.add_components([comp], links, f"Add {what}")
    except DesignError as err:
        return f"Could not add {pre.label}: {err}"
    doc.set_selection([cid])
    if not links:
        return f"Added {what}"
    where = doc.name_of(links[0].target)
    verb = {"runs_on": "on", "installed_in": "in", "located_at": "at", "disk_on": "with its"
            " disk on", "storage": "reaching", "in_cluster": "in", "library_at": "at"}
    return f"Added {what} {verb.get(links[0].kind, 'to')} {where}"


def unique_name(taken: set[str], name: str) -> str:
    """``name``, or the first of ``name 2``, ``name 3``, ... not in ``taken`` (a second OLTP
    VM dropped is "OLTP VM 2"); an empty name (a generic preset, known by its id) stays
    empty."""
    if not name or name not in taken:
        return name
    n = 2
    while f"{name} {n}" in taken:
        n += 1
    return f"{name} {n}"
