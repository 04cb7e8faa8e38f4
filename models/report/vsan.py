"""vSAN in the report: each vSAN cluster's datastore as the capacity model sizes it
(:mod:`models.subsystems.vsan`, the prediction's ``vsan`` list) and the vSAN capacity the
licence entitles, in the words and rows of the report's vSAN page.  Qt-free:
:mod:`app.report.vsan` lays it out.  A design without a vSAN cluster has no such page."""

from __future__ import annotations

from dataclasses import dataclass

from models.core.prediction import Prediction
from models.core.sections import ClusterCapacity, VsanCluster
from models.document.design import Design
from models.document.numbers import counted, percent, with_unit
from models.document.schema import KINDS, choice_label
from models.document.studies import VSAN_PLANNING
from models.engine.kpis import limit_text
from models.report.compare import BASE, Comparison
from models.subsystems.vsan import SLACK


@dataclass(frozen=True)
class VsanRow:
    """One vSAN cluster, in words."""

    name: str
    layout: str
    """``ESA RAID 5 FTT 1``."""
    hosts: str
    raw: str
    reserved: str
    usable: str
    data: str
    free: str
    """``16.8 TiB``, or ``short 7.63 TiB`` where the data does not fit."""
    minimum: str
    """``3 (4 recommended)``."""
    needed: str
    """``6 (vSAN storage)``: the hosts the cluster needs and what sets them."""
    short: bool
    """The data does not fit, or the cluster has fewer hosts than it needs."""
    used: float
    """The data over usable, after compression (a fraction; may pass 1; NaN: no usable)."""
    sentence: str
    """The cluster in a sentence: its reserve rule and what sets its hosts."""
    split: tuple[float, float, float]
    """Its raw, as fractions: reserved, taken by the data (its copies, parity and the
    on-disk overhead, compressed), free (negative where the data does not fit)."""
    split_text: str
    """``126 TiB raw: 33.5 TiB reserved, 68.4 TiB for the data ..., 23.8 TiB free``."""


def clusters(p: Prediction) -> list[VsanCluster]:
    """The vSAN clusters of prediction ``p`` (none: no vSAN page)."""
    cap = p.sections.capacity
    return list(cap.vsan or []) if cap is not None else []


def has_vsan(p: Prediction) -> bool:
    return bool(clusters(p))


def rows(design: Design, p: Prediction) -> list[VsanRow]:
    """A row per vSAN cluster of ``p``; ``design`` is the one ``p`` was evaluated on (the
    reported scenario applied), for the reserve settings the row names."""
    cap = p.sections.capacity
    groups = {g.id: g for g in cap.clusters} if cap is not None else {}
    return [_row(design, v, groups.get(v.cluster)) for v in clusters(p)]


def _row(design: Design, v: VsanCluster, g: ClusterCapacity | None) -> VsanRow:
    arch = v.architecture.upper()
    free = with_unit(v.free_tib, "TiB") if v.free_tib >= 0 else \
        f"short {with_unit(-v.free_tib, 'TiB')}"
    needed = g.hosts_needed if g is not None else v.hosts_needed
    binding = g.binding if g is not None else None
    used = (v.data_tib / v.compression) / v.usable_tib if v.usable_tib > 0 else float("nan")
    sets = f"{needed:,} ({limit_text(binding)})" if needed is not None and binding else \
        f"{needed:,}" if needed is not None else "none holds its data"
    short = v.free_tib < 0 or (needed is not None and needed > v.hosts)
    left = v.raw_tib - v.reserve_tib - v.used_tib
    split = (v.reserve_tib / v.raw_tib, v.used_tib / v.raw_tib, left / v.raw_tib) \
        if v.raw_tib > 0 else (0.0, 0.0, 0.0)
    rest = (f"{with_unit(left, 'TiB')} free" if left >= 0 else
            f"{with_unit(-left, 'TiB')} short")
    split_text = (f"{with_unit(v.raw_tib, 'TiB')} raw: {with_unit(v.reserve_tib, 'TiB')}"
                  f" reserved, {with_unit(v.used_tib, 'TiB')} for the data (its copies or"
                  f" parity and the on-disk overhead{', compressed' if v.compression > 1 else ''}),"
                  f" {rest}")
    return VsanRow(
        v.name, f"{arch} {choice_label(v.policy)} FTT {v.ftt}", f"{v.hosts:,}",
        with_unit(v.raw_tib, "TiB"), with_unit(v.reserve_tib, "TiB"),
        with_unit(v.usable_tib, "TiB"), with_unit(v.data_tib, "TiB"), free,
        f"{v.min_hosts:,} ({v.min_hosts + 1:,} recommended)", sets, short, used,
        _sentence(design, v, needed, binding), split, split_text)


def scenario_rows(comparison: Comparison, design: Design) -> list[tuple[list[str], bool]]:
    """Each vSAN cluster in the base design and every scenario compared (scenario, cluster,
    policy, hosts, usable, data, free, hosts needed, and on a scenario's first row the vSAN
    add-on its licence needs), and whether it is short; empty where there is no scenario."""
    if len(comparison.columns) < 2:
        return []
    out = []
    for col in comparison.columns:
        if col.prediction is None:
            continue
        name = "base design" if col.name == BASE else col.name
        addon = addon_text(col.prediction)
        for t in rows(design, col.prediction):
            out.append(([name, t.name, t.layout, t.hosts, t.usable, t.data, t.free,
                         t.needed, addon], t.short))
            name = addon = ""  # said once per scenario
    return out


def addon_text(p: Prediction) -> str:
    """The vSAN raw capacity beyond what the licence entitles (``none``), or empty where
    licensing is not counted."""
    cap = p.sections.capacity
    lic = cap.licensing if cap is not None else None
    if lic is None or lic.vsan_raw_tib is None:
        return ""
    addon = lic.vsan_addon_tib or 0.0
    return with_unit(addon, "TiB") if addon > 0 else "none"


def reserve_text(design: Design, v: VsanCluster) -> str:
    """What the cluster keeps free of its raw, and by which rule."""
    if v.reserve_rule == "slack":
        why = "hosts at two sites" if v.hosts > 2 else "two hosts"
        return (f"{percent(SLACK)} of raw kept free ({why}: reserved capacity cannot"
                " apply)")
    comp = design.component(v.cluster)
    spec = KINDS["cluster"].props
    ops = comp.get("vsan.operations_reserve_pct") if comp is not None else \
        spec["vsan.operations_reserve_pct"].default
    rebuild = comp.get("vsan.host_rebuild_reserve") if comp is not None else True
    parts = (["the host rebuild reserve (the largest host's raw)"] if rebuild else []) + \
        [f"an operations reserve of {with_unit(float(ops or 0.0), '%')} of raw"]
    return f"{with_unit(v.reserve_tib, 'TiB')} reserved: " + " and ".join(parts)


def _sentence(design: Design, v: VsanCluster, needed: int | None, binding: str | None
              ) -> str:
    """``Production: 33.5 TiB reserved: ...; its data needs 6 hosts, the policy at least 3
    (4 recommended); vSAN storage capacity sets 6 hosts, and it has 6.``"""
    squeeze = f" after {v.compression:g}:1 compression" if v.compression != 1.0 else ""
    data = "no device holds its data" if v.storage_hosts is None else \
        f"its data{squeeze} needs {counted(v.storage_hosts, 'host')}"
    text = (f"{v.name}: {reserve_text(design, v)}; {data}, the policy at least"
            f" {counted(v.min_hosts, 'host')} ({v.min_hosts + 1:,} recommended, to rebuild a"
            " failed host's components)")
    if needed is not None:
        text += (f"; {limit_text(binding, phrase=True)} sets {counted(needed, 'host')}, and it"
                 f" has {v.hosts:,}")
        if needed > v.hosts:
            text += f": {counted(needed - v.hosts, 'host')} short"
    return text + "."


def licensing_text(p: Prediction) -> str:
    """The vSAN capacity the licensed cores entitle against the clusters' raw, and the add-on
    beyond it (empty where licensing is not counted)."""
    cap = p.sections.capacity
    lic = cap.licensing if cap is not None else None
    if lic is None or lic.vsan_raw_tib is None:
        return ""
    raw = with_unit(lic.vsan_raw_tib, "TiB")
    entitled = lic.vsan_entitled_tib or 0.0
    if not entitled:
        return (f"{lic.edition_name} includes no vSAN capacity: all {raw} of raw is to"
                " license as the vSAN add-on.")
    per_core = entitled / lic.licensed_cores if lic.licensed_cores else 0.0
    text = (f"Licensing: {counted(lic.licensed_cores, 'licensed core')} of {lic.edition_name}"
            f" entitle {with_unit(entitled, 'TiB')} of vSAN raw capacity"
            f" ({with_unit(per_core, 'TiB')} a core) against {raw} in the vSAN clusters")
    addon = lic.vsan_addon_tib or 0.0
    if addon > 0:
        return text + f": {with_unit(addon, 'TiB')} to license as the vSAN add-on."
    return text + ": no add-on needed."


def method_text() -> str:
    """How the figures are counted, and from what."""
    return ("Raw is the hosts' capacity devices (decimal TB, in TiB); usable is raw less the"
            " reserves over the policy's layout (RAID 1 FTT+1 copies, OSA RAID 5 3+1, ESA RAID 5"
            " 2+1 below six hosts and 4+1 from six, RAID 6 4+2; ESA's log-structured file"
            " system 13.1 % more); data is what the VMs use (thin) or are provisioned (thick);"
            f" free is usable less the data after compression. Rules: {VSAN_PLANNING.title}.")


def _setting(p: Prediction) -> list[tuple[VsanCluster, ClusterCapacity]]:
    """The vSAN clusters whose storage or policy minimum sets their hosts."""
    cap = p.sections.capacity
    groups = {g.id: g for g in cap.clusters} if cap is not None else {}
    return [(v, g) for v in clusters(p) if (g := groups.get(v.cluster)) is not None
            and g.binding in ("storage", "vsan_min")]


def binds_text(p: Prediction) -> str:
    """What the summary's What binds adds where vSAN sets a cluster's hosts: ``In cluster
    Production, vSAN storage capacity sets the hosts: 48.4 TiB of data in 65.2 TiB usable
    (74.2 %), 16.8 TiB free.`` (empty where no vSAN cluster's count is set by vSAN)."""
    out = []
    for v, g in _setting(p):
        used = (v.data_tib / v.compression) / v.usable_tib if v.usable_tib > 0 else None
        share = f" ({percent(used)})" if used is not None else ""
        free = f"{with_unit(v.free_tib, 'TiB')} free" if v.free_tib >= 0 else \
            f"{with_unit(-v.free_tib, 'TiB')} short"
        out.append(f"In cluster {v.name}, {limit_text(g.binding, phrase=True)} sets the"
                   f" hosts: {with_unit(v.data_tib, 'TiB')} of data in"
                   f" {with_unit(v.usable_tib, 'TiB')} usable{share}, {free}.")
    return " ".join(out)


def room_text(p: Prediction) -> str:
    """Where vSAN storage sets a cluster's hosts, the room its free space leaves: ``by vSAN
    storage capacity, cluster Production has 16.8 TiB free, room for 86 VMs of its average
    size`` (empty otherwise, or where the cluster has no data or no room)."""
    for v, g in _setting(p):
        if g.binding != "storage" or v.free_tib <= 0 or not g.vms or v.data_tib <= 0:
            continue
        each = v.data_tib / v.compression / g.vms
        return (f"by {limit_text('storage', phrase=True)}, cluster {v.name} has"
                f" {with_unit(v.free_tib, 'TiB')} free, room for"
                f" {counted(int(v.free_tib / each), 'VM')} of its average size")
    return ""
