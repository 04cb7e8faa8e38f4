"""Tooltips for canvas items: what the latest prediction says about the component."""

from __future__ import annotations

import math

from app.document.design_document import DesignDocument
from models.subsystems import content_library


def _fmt(v: float, unit: str = "", pct: bool = False) -> str:
    f = float(v)
    if math.isnan(f):
        return "n/a"
    if pct:
        return f"{f * 100:.0f}%"
    return f"{f:,.1f}{unit}" if f < 100 else f"{f:,.0f}{unit}"


def component_tooltip(document: DesignDocument, cid: str) -> str:
    """Rich text: name, kind and the predicted figures of component ``cid``."""
    comp = document.component(cid)
    if comp is None:
        return ""
    lines = [f"<b>{comp.name or comp.id}</b> <i>({comp.kind}, {comp.id})</i>"]
    p = document.prediction
    if p is not None:
        if comp.kind == "host" and cid in p.hosts.ids:
            i = p.hosts.ids.index(cid)
            lines += [f"CPU {_fmt(p.hosts.cpu_util[i], pct=True)}",
                      f"memory {_fmt(p.hosts.memory_util[i], pct=True)}",
                      f"{int(p.hosts.vms[i])} VMs"]
        elif comp.kind == "vm" and cid in p.vms.ids and p.vms.host[p.vms.ids.index(cid)] is None:
            lines.append("not placed: on no host, so no figures (drop it on a host)")
        elif comp.kind == "vm" and cid in p.vms.ids:
            i = p.vms.ids.index(cid)
            lines += [f"{_fmt(p.vms.iops[i])} IOPS at {_fmt(p.vms.latency_ms[i], ' ms')}",
                      f"p95 {_fmt(p.vms.p95_latency_ms[i], ' ms')}",
                      f"network {_fmt(p.vms.net_gbps[i], ' Gbit/s')}",
                      f"CPU {_fmt(p.vms.cpu_util[i], pct=True)}"]
            if p.vms.bound_by[i]:
                lines.append(f"bound by {p.vms.bound_by[i]}")
        elif comp.kind == "storage_array" and cid in p.arrays.ids:
            i = p.arrays.ids.index(cid)
            lines += [f"{_fmt(p.arrays.iops[i])} IOPS at {_fmt(p.arrays.latency_ms[i], ' ms')}",
                      f"busy {_fmt(p.arrays.util[i], pct=True)}"]
        elif comp.kind == "nic" and cid in p.nics.ids:
            i = p.nics.ids.index(cid)
            lines += [f"{_fmt(p.nics.gbps[i], ' Gbit/s')}, {_fmt(p.nics.util[i], pct=True)}"
                      " of line rate"]
        elif comp.kind == "content_library":
            lines += content_library.describe(p.extras.get("content_library", []), cid)
        top = p.bottlenecks(1)
        if top and top[0].component == cid:
            lines.append(f"<b>bottleneck</b>: {top[0].explanation}")
    return "<br>".join(lines)
