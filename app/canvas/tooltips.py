"""Tooltips for canvas items: what the latest prediction says about the component, in the
user's words: components by their names (:func:`plain`), kinds by their labels, figures in
the one format (:mod:`models.document.numbers`)."""

from __future__ import annotations

import html
import math

from app.document.design_document import DesignDocument
from models.analysis.baseline import provenance_lines
from models.core.prediction import Prediction
from models.document import numbers as fmt
from models.document.schema import KINDS, choice_label
from models.engine.kpis import limit_text
from models.report import wording
from models.subsystems import content_library


def plain(document: DesignDocument, text: str) -> str:
    """``text`` with every component id in it replaced by the component's name
    ("storage_array a1: 100% busy" reads "array EMC VNX5700: 100% busy")."""
    return wording.plain(text.replace("storage_array ", "array "), document.design)


def _fmt(v: float, unit: str = "", pct: bool = False) -> str:
    if math.isnan(float(v)):
        return "n/a"
    return fmt.percent(float(v)) if pct else fmt.with_unit(float(v), unit.strip())


def _measured(util: float) -> str:
    """A host's utilisation; "not measured" where nothing measured it (NaN), never 0."""
    return fmt.NOT_MEASURED if math.isnan(float(util)) else _fmt(util, pct=True)


def component_tooltip(document: DesignDocument, cid: str, provenance: bool = True) -> str:
    """Rich text: name, kind and the predicted figures of component ``cid``, then (unless
    ``provenance`` is False) where its measured or assumed figures come from (a refresh's
    host too, while the canvas shows it)."""
    comp = document.shown_component(cid) or document.component(cid)
    if comp is None:
        return ""
    kind = KINDS[comp.kind].label if comp.kind in KINDS else comp.kind
    lines = [f"<b>{html.escape(comp.name or comp.id)}</b> · <i>{html.escape(kind)}</i>"]

    p = document.prediction
    if p is not None:
        if comp.kind == "host" and cid in p.hosts.ids:
            i = p.hosts.ids.index(cid)
            lines += [f"CPU {_measured(p.hosts.cpu_util[i])}",
                      f"memory {_measured(p.hosts.memory_util[i])}",
                      fmt.count(int(p.hosts.vms[i]), "VM")]
        elif comp.kind == "vm" and cid in p.vms.ids and p.vms.host[p.vms.ids.index(cid)] is None:
            lines.append("not placed: on no host, so no figures (drop it on a host)")
        elif comp.kind == "vm" and cid in p.vms.ids:
            i = p.vms.ids.index(cid)
            host = p.vms.host[i]
            if host:
                lines.append(f"on {html.escape(document.name_of(host))}")
            lines += _vm_times(p, i)
            lines += [f"network {_fmt(p.vms.net_gbps[i], ' Gbit/s')}",
                      f"CPU {_fmt(p.vms.cpu_util[i], pct=True)}"]
            if p.vms.bound_by[i]:
                lines.append(f"bound by {html.escape(plain(document, p.vms.bound_by[i]))}")
        elif comp.kind == "storage_array" and cid in p.arrays.ids:
            i = p.arrays.ids.index(cid)
            if not p.arrays.measured(i):
                lines.append("storage I/O not measured (no VM on it has I/O data)")
            else:
                lines += [f"{_fmt(p.arrays.iops[i], 'IOPS')} at"
                          f" {_fmt(p.arrays.latency_ms[i], 'ms')}",
                          f"busy {_fmt(p.arrays.util[i], pct=True)}"]
        elif comp.kind == "nic" and cid in p.nics.ids:
            i = p.nics.ids.index(cid)
            lines += [f"{_fmt(p.nics.gbps[i], ' Gbit/s')}, {_fmt(p.nics.util[i], pct=True)}"
                      " of line rate"]
        elif comp.kind == "content_library":
            lines += content_library.describe(p.sections.content_library or [], cid)
        elif comp.kind == "cluster":
            lines += [html.escape(t) for t in vsan_lines(p, cid)]
        top = p.bottlenecks(1)
        if top and top[0].component == cid:
            lines.append(f"<b>bottleneck</b>: {html.escape(plain(document, top[0].explanation))}")
    return "<br>".join(lines + (provenance_html(comp) if provenance else []))


def vsan_lines(p: Prediction, cid: str) -> list[str]:
    """A vSAN cluster's predicted capacity (:mod:`models.subsystems.vsan`), as lines: its
    policy, raw and usable after reserves, data and free, the policy's minimum hosts and the
    hosts it needs with what sets them; nothing for a cluster without vSAN."""
    cap = p.sections.capacity
    v = next((v for v in cap.vsan or [] if v.cluster == cid), None) if cap else None
    if cap is None or v is None:
        return []
    row = next((g for g in cap.clusters if g.id == cid), None)
    free = (f"free {fmt.with_unit(v.free_tib, 'TiB')}" if v.free_tib >= 0 else
            f"short {fmt.with_unit(-v.free_tib, 'TiB')}")
    out = [f"vSAN {v.architecture.upper()} {choice_label(v.policy)} FTT {v.ftt}",
           f"raw {fmt.with_unit(v.raw_tib, 'TiB')}, usable {fmt.with_unit(v.usable_tib, 'TiB')}"
           " after reserves",
           f"data {fmt.with_unit(v.data_tib, 'TiB')}, {free}",
           f"the policy at least {fmt.count(v.min_hosts, 'host')}"
           f" ({fmt.count(v.min_hosts + 1, 'host')} recommended)"]
    if row is not None and row.hosts_needed is not None:
        out.append(f"{fmt.count(row.hosts_needed, 'host')} needed, set by"
                   f" {limit_text(row.binding, phrase=True)}")
    return out


def _vm_times(p: Prediction, i: int) -> list[str]:
    """VM ``i``'s time figures: its storage I/O and latency, or its web response (a web
    server's latency is its response time, not a storage latency: it read "0 IOPS at
    33.6 ms"); nothing for a VM that does neither."""
    v = p.vms
    if len(v.io_not_measured) and v.io_not_measured[i]:
        return ["storage I/O not measured"]
    web = bool(len(v.request_driven) and v.request_driven[i])
    lines = []
    if v.iops[i] > 0 and web:  # its latency arrays hold the response
        lines.append(_fmt(v.iops[i], "IOPS"))
    elif v.iops[i] > 0:
        lines += [f"{_fmt(v.iops[i], 'IOPS')} at {_fmt(v.latency_ms[i], 'ms')}",
                  f"p95 {_fmt(v.p95_latency_ms[i], 'ms')}"]
    if web:
        saturated = len(v.saturated) and v.saturated[i]
        lines.append("web response saturated" if saturated else
                     f"web response {_fmt(v.latency_ms[i], 'ms')}"
                     f" (p95 {_fmt(v.p95_latency_ms[i], 'ms')})")
    return lines


def provenance_html(comp: object) -> list[str]:
    """Where the component's figures come from (measured, solved, assumed), as lines."""
    return [f"<i>{html.escape(label)}</i>: {html.escape(text)}"
            for label, text in provenance_lines(comp)]
