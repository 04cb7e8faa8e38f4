"""The baseline: solve each measured VM's free workload figures, and each host's background
load, so that the design reproduces what the estate measured; then check predicted against
recorded (:mod:`models.analysis.residuals`).

A VM imported from an estate runs the ``measured`` profile and keeps what was measured in
``measured.*`` (with ``provenance.*`` saying from where).  :func:`solve` turns that into the
figures the engine reads, per VM:

* **storage I/O**: an open loop at the measured rate (``workload.io_iops``) with the measured
  read share and I/O size; a VM without measured I/O does none ("not measured");
* **memory**: ``workload.memory_gb`` = measured consumed memory;
* **CPU**: ``workload.cpu_pct`` such that the VM's whole demand on its host - guest work plus
  the I/O path and the hypervisor's cost that the engine adds for its I/O - equals the
  measured MHz.  vCenter's usage MHz is a share of the host's cores x clock; the model's
  host capacity counts a hyperthreaded core as ``HT_THROUGHPUT`` (1.22) cores, so a measured
  MHz is taken as the same share of that capacity.  The demand is linear in ``cpu_pct``
  below the VM's vCPUs, so two evaluations (at 0 and 100%) give each VM's intercept and
  slope (the intercept is what the engine adds whatever the guest does: a measured MHz
  below it leaves the guest idle, never the I/O path counted twice).  The share is solved
  at the host's clock and kept with it (``workload.cpu_ghz``: the clock the host's per-core
  speed stands for), so the VM's demand on its own host is its MHz at any per-core speed.

Then, per host that recorded its usage (RVTools vHost CPU usage % and Memory usage %, a
vCenter host's quickStats or performance history):

* **VMs over the record**: where the measured VMs alone demand more than the host recorded,
  they are scaled to the record.  vCenter counts a VM's usage per hyperthread but the host's
  per core (a core is busy when either thread runs), so on a busy hyperthreaded host the VMs'
  MHz add up to more than the host's usage; and the two are sampled a moment apart.  Their
  provenance says by how much (``; scaled x0.87 ...``), and the check names the hosts.
* **VMs without a measured figure** take a share of what the host recorded beyond what the
  measured VMs explain, in proportion to their vCPUs (CPU) or configured memory; on a
  *partial* host (``measured.vms`` over ``measured.vms_listed``: the export lists only some
  of its VMs) the VMs it does not list take their share too, as many VMs as are missing of
  the host's mean size; the provenance says ``solved: ...``.
* **The background of a partial host**: on a host that runs VMs the export does not list,
  what it recorded beyond what its listed VMs then demand (their measured figures, and the
  shares of those without one) is the unlisted VMs' load - with the hypervisor's own worlds
  and the vmkernel's memory, which a partial record cannot tell apart from them.  It is kept
  as the host's background load (``background.cpu_cores`` at ``background.cpu_ghz``,
  ``background.memory_gb``, ``provenance.background``), which the engine adds to the host's
  demand and the capacity model counts as that many more VMs, so what-ifs on that host start
  from the record.

A host whose export lists every VM it runs (or whose VM count nobody recorded) gets no
background CPU or memory: what its record and its VMs disagree by is the model's error (the
hypervisor's own work, a conversion, samples a moment apart) and stays in the check's
residual, which is what the check is for.  A host that recorded nothing gets none either;
its VMs without a measurement are idle and say so, and where nothing measured its CPU at all
the engine reads it "not measured".

Storage I/O is kept whole the same way, on every host:

* **Background I/O** (issue 36), on every host that recorded its IOPS (Live Optics ESX
  Performance, vCenter's datastore counters, an Aria Operations host view): what it recorded
  beyond its VMs' measured IOPS is the host's ``background.iops`` - the hypervisor's own I/O,
  that of its VMs whose I/O is not measured, and on a partial host that of the VMs the export
  does not list - never negative (where its VMs add up to more, it has none and the check
  says so).  Its read share and size (``background.read_pct``, ``background.io_kb``) are the
  host's recorded reads and bytes less its VMs' (the host's own mix where that leaves none
  that can be, or where the background is under a tenth of the record; the VMs' where the
  host recorded none).  The storage model offers it to the
  arrays the host reaches (:mod:`models.subsystems.storage_background`), so an estate's
  arrays carry the load they recorded.  Its CPU is not charged again: the host's record
  holds it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from models.analysis.residuals import (
    SCALED,
    TARGET_MEDIAN,
    TARGET_P90,
    BaselineCheck,
    HostResidual,
    VmResidual,
    check,
    provenance_lines,
)
from models.core.compiled import Compiled, compile_design
from models.core.platform import HT_THROUGHPUT, compute
from models.document.design import Component, Design, Value
from models.document.numbers import counted
from models.document.schema import VM
from models.engine.evaluation import run
from models.subsystems import vsan_io

__all__ = ["SCALED", "TARGET_MEDIAN", "TARGET_P90", "BaselineCheck", "Changes", "HostResidual",
           "VmResidual", "apply", "calibrate", "calibrate_after_import", "check",
           "provenance_lines", "solve"]

MIN_IOPS = 0.5
"""Background I/O below this is none (the sources record whole IOPS; a VM's share of its
host's peak leaves a rounding)."""

MIX_SHARE = 0.1
"""A background I/O of at least this share of its host's record takes the record's mix less
its VMs'; a smaller one (mostly the record's rounding), the host's own mix."""

Changes = dict[str, dict[str, Value]]
"""Component id -> {property: new value} (None removes an explicit value)."""

BACKGROUND = ("background.cpu_cores", "background.cpu_ghz", "background.memory_gb",
              "background.iops", "background.read_pct", "background.io_kb",
              "provenance.background")


# =========================================================================== solve


def solve(design: Design) -> Changes:
    """The workload figures and background loads that reproduce the measured estate, as
    property changes (the design is not modified: :func:`apply` or an undoable edit applies
    them)."""
    vms = [c for c in design.of_kind("vm") if c.get("workload.profile") == "measured"]
    hosts = design.of_kind("host")
    if not vms and not any(_unlisted(h) or h.get("measured.iops") is not None
                           or h.get("background.iops") is not None for h in hosts):
        return {}
    changes: Changes = {}
    work = design.copy()
    by_id = {c.id: c for c in work.components}
    for vm in vms:
        ch = _io_and_memory(vm.props)
        changes[vm.id] = ch
        _set(by_id[vm.id], ch)
        by_id[vm.id].props.pop("workload.cpu_ghz", None)  # solved at its host's own clock
    for host in hosts:  # solved again from the record, never on top of an older background
        _set(by_id[host.id], dict.fromkeys(BACKGROUND))
    c = compile_design(work)
    s = _Solve(c, design, np.array([c.vm.index[v.id] for v in vms], dtype=np.int64))
    pct, cpu_why = s.cpu(vms)
    held, memory_why = s.memory()
    for k, vm in zip(s.idx.tolist(), vms, strict=True):
        ch = changes[vm.id]
        ch["workload.cpu_pct"] = round(float(pct[k]), 6)
        if k in cpu_why:
            ch["provenance.cpu"] = cpu_why[k]
        # the clock that share was solved at: a what-if of another clock scales the work
        h = int(c.vm_host[k])
        ch["workload.cpu_ghz"] = round(float(s.clock[h]), 6) if h >= 0 else None
        if k in held:
            ch["workload.memory_gb"] = round(held[k], 4)
        if k in memory_why:
            ch["provenance.memory"] = memory_why[k]
    apply(work, changes)
    changes.update(s.background(compile_design(work)))
    return changes


def apply(design: Design, changes: Changes) -> None:
    """Apply :func:`solve`'s changes to ``design`` in place."""
    for comp in design.components:
        ch = changes.get(comp.id)
        if ch:
            _set(comp, ch)


def _set(comp: Component, ch: dict[str, Value]) -> None:
    for k, v in ch.items():
        if v is None:
            comp.props.pop(k, None)
        else:
            comp.props[k] = v


def _clamp(pct: float) -> float:
    return min(max(pct, 0.0), 100.0) if math.isfinite(pct) else 0.0


def _max_memory() -> float:
    return float(VM.props["workload.memory_gb"].max or 24576)


def _unlisted(comp: Component) -> int:
    """VMs a host runs that the export does not list (0: whole, or not known)."""
    recorded, listed = comp.get("measured.vms"), comp.get("measured.vms_listed")
    if isinstance(recorded, int) and isinstance(listed, int):
        return max(recorded - listed, 0)
    return 0


def _factor(x: float) -> str:
    """A scaling factor below 1 that does not read as 1 ("0.87", "0.996")."""
    return f"{x:.2f}" if x < 0.995 else f"{x:.3f}" if x < 0.9995 else f"{x:.4f}"


def _measured_text(text: Value) -> str:
    """A provenance as measured, without what an earlier solve appended to it."""
    return str(text or "").split(SCALED, 1)[0]


def _io_and_memory(props: dict[str, Value]) -> dict[str, Value]:
    """The I/O and memory figures of one measured VM (its CPU comes later)."""
    ch: dict[str, Value] = {}
    iops = props.get("measured.iops")
    if isinstance(iops, (int, float)):
        ch["workload.io_iops"] = float(iops)
        read = props.get("measured.read_pct")
        if isinstance(read, (int, float)):
            ch["workload.io_read_pct"] = float(read)
        kb = props.get("measured.io_kb")
        if isinstance(kb, (int, float)) and kb > 0:
            spec = VM.props["workload.io_block_kb"]
            ch["workload.io_block_kb"] = min(max(float(kb), float(spec.min or 0.5)),
                                             float(spec.max or 4096))
    else:
        ch["workload.io_iops"] = None
    consumed = props.get("measured.memory_consumed_gb")
    if isinstance(consumed, (int, float)):
        ch["workload.memory_gb"] = min(float(consumed), _max_memory())
    return ch


class _Solve:
    """One solve's compiled design (measured VMs ``idx``, their I/O and memory set) and what
    its steps share: per-host sums, the hosts' records and clocks, names and sources."""

    def __init__(self, c: Compiled, design: Design, idx: np.ndarray) -> None:
        self.c, self.design, self.idx = c, design, idx
        n = len(c.vm)
        self.placed = c.vm_host >= 0
        self.hidx = np.where(self.placed, c.vm_host, 0)
        self.sec = (c.vm_secondary >= 0) & c.vm.cols["ft"]
        self.sidx = np.where(self.sec, c.vm_secondary, 0)
        hc = compute(c)
        self.cap, self.clock = hc.capacity, hc.clock_ghz
        self.ghz = c.host.cols["ghz"]
        self.ht = np.where(c.host.cols["hyperthreading"], HT_THROUGHPUT, 1.0)
        self.in_scope = np.zeros(n, bool)
        self.in_scope[idx] = True
        comps = {h.id: h for h in design.of_kind("host")}
        self.hosts = [comps[hid] for hid in c.host.ids]
        self.unlisted = np.array([_unlisted(h) for h in self.hosts], dtype=np.float64)
        self.cpu_rec = c.host.cols["measured.cpu_pct"] / 100.0 * self.cap
        # what the host recorded less what vSAN holds there (the engine adds vSAN's own)
        self.mem_rec = np.maximum(c.host.cols["measured.memory_pct"] / 100.0
                                  * c.host.cols["memory_gb"] - vsan_io.memory_gb(c), 0.0)

    def per_host(self, x: np.ndarray) -> np.ndarray:
        """Per host sums of a per-VM figure, FT secondaries counted on their own host."""
        h = len(self.c.host)
        return (np.bincount(self.hidx[self.placed], x[self.placed], minlength=h)
                + np.bincount(self.sidx[self.sec], x[self.sec], minlength=h))

    def name(self, h: int) -> str:
        comp = self.hosts[h]
        return comp.name or comp.id

    def source(self, h: int) -> str:
        how = str(self.hosts[h].get("provenance.measured") or "")
        return f" ({how})" if how else ""

    # ------------------------------------------------------------------ CPU
    def cpu(self, vms: list[Component]) -> tuple[np.ndarray, dict[int, str]]:
        """Each measured VM's ``workload.cpu_pct`` (by VM index) and the provenance of those
        whose CPU was scaled or shared."""
        c, idx = self.c, self.idx
        col = c.vm.cols["workload.cpu_pct"]
        col[idx] = 0.0
        cores0 = run(c).vms.cpu_cores.copy()
        col[idx] = 100.0
        cores100 = run(c).vms.cpu_cores.copy() if len(idx) else cores0
        slope = np.maximum((cores100 - cores0) / 100.0, 1e-12)
        mean = (float(np.mean(self.ghz)), float(np.mean(self.ht))) if len(c.host) \
            else (2.4, 1.0)
        guest = np.zeros(len(c.vm))  # the guest's work beyond the intercept, core-equivalents
        measured = np.zeros(len(c.vm), bool)
        for k, vm in zip(idx.tolist(), vms, strict=True):
            mhz = vm.get("measured.cpu_mhz")
            if not isinstance(mhz, (int, float)):
                continue
            h = int(c.vm_host[k])
            g, f = (float(self.ghz[h]), float(self.ht[h])) if h >= 0 else mean
            guest[k] = max(float(mhz) / (g * 1000.0) * f - cores0[k], 0.0)
            measured[k] = True
        why: dict[int, str] = {}
        factor = self._fit(self.cpu_rec, cores0, guest)
        of = dict(zip(idx.tolist(), vms, strict=True))
        for k in np.flatnonzero(measured & (factor < 1.0)).tolist():
            h = int(self.hidx[k])
            why[k] = (_measured_text(of[k].get("provenance.cpu"))
                      + f"{SCALED}{_factor(factor[k])} to host {self.name(h)}'s recorded CPU usage"
                      f" {c.host.cols['measured.cpu_pct'][h]:.0f}%: its VMs' MHz add up to"
                      " more (vCenter counts a VM's usage per hyperthread, the host's per"
                      " core; samples a moment apart)")
        pct = np.array([_clamp(p) for p in guest * factor / slope])
        todo = self.in_scope & ~measured
        shares = self._share(todo, cores0 + slope * pct, c.vm.cols["vcpus"], self.cpu_rec,
                             "cpu")
        for k, (target, text) in shares.items():
            pct[k] = _clamp((target - cores0[k]) / slope[k])
            why[k] = text
        for k in np.flatnonzero(todo).tolist():
            why.setdefault(k, "not measured (counted as idle)")
        return pct, why

    def _fit(self, record: np.ndarray, fixed: np.ndarray, free: np.ndarray) -> np.ndarray:
        """Per VM, the factor that brings its host's measured VMs (``free``, what they add to
        ``fixed``) down to the host's ``record`` where they pass it; 1 elsewhere."""
        total = self.per_host(fixed + free)
        scalable = self.per_host(free)
        over = np.isfinite(record) & (total > record * (1.0 + 1e-9)) & (scalable > 0)
        room = np.maximum(np.nan_to_num(record) - self.per_host(fixed), 0.0)
        host = np.where(over, np.minimum(room / np.where(scalable > 0, scalable, 1.0), 1.0),
                        1.0)
        factor = np.where(self.placed, host[self.hidx], 1.0)
        return np.where(self.sec, np.minimum(factor, host[self.sidx]), factor)

    def _share(self, todo: np.ndarray, demand: np.ndarray, weight: np.ndarray,
               record: np.ndarray, what: str) -> dict[int, tuple[float, str]]:
        """For the VMs ``todo`` (no measured ``what``): their share of what their host
        recorded beyond what its other VMs explain (``demand``: core-equivalents or GB per
        VM), by ``weight`` (vCPUs or configured memory); the VMs a partial host runs but
        the export does not list share it too, as many as are missing, each of the host's
        mean weight.  Returns VM index -> (figure, provenance)."""
        todo = todo & self.placed
        if not todo.any():
            return {}
        h = len(self.c.host)
        explained = self.per_host(np.where(todo, 0.0, demand))
        weights = np.bincount(self.hidx[todo], weight[todo], minlength=h)
        count = np.bincount(self.hidx[self.placed], minlength=h)
        mean = np.bincount(self.hidx[self.placed], weight[self.placed], minlength=h) \
            / np.maximum(count, 1)
        mean = np.where(count > 0, mean, float(np.mean(weight)) if len(weight) else 0.0)
        missing = self.unlisted * mean
        basis = "vCPUs" if what == "cpu" else "configured memory"
        label = "CPU usage" if what == "cpu" else "memory usage"
        pct = self.c.host.cols["measured.cpu_pct" if what == "cpu" else "measured.memory_pct"]
        out: dict[int, tuple[float, str]] = {}
        for k in np.flatnonzero(todo).tolist():
            j = int(self.hidx[k])
            if math.isnan(record[j]) or weights[j] <= 0:
                continue
            left = max(float(record[j]) - float(explained[j]), 0.0)
            with_unlisted = (f" and the {counted(int(self.unlisted[j]), 'VM')} the export"
                             " does not list" if self.unlisted[j] else "")
            out[k] = (left * float(weight[k]) / float(weights[j] + missing[j]),
                      f"solved: share by {basis} of host {self.name(j)}'s recorded {label}"
                      f" {pct[j]:.0f}% not explained by its measured VMs{with_unlisted}"
                      + self.source(j))
        return out

    # ------------------------------------------------------------------ memory
    def memory(self) -> tuple[dict[int, float], dict[int, str]]:
        """Memory held (GB) and its provenance, by VM index, for the measured VMs whose
        consumed memory was scaled to their host's record or shared from it."""
        c = self.c
        configured = c.vm.cols["memory_gb"]
        consumed = c.vm.cols["workload.memory_gb"]
        no_memory = np.isnan(consumed)
        scalable = self.in_scope & ~no_memory
        held = np.where(no_memory, configured, consumed)
        fixed = np.where(scalable | (self.in_scope & no_memory), 0.0, held)
        factor = self._fit(self.mem_rec, fixed, np.where(scalable, held, 0.0))
        out: dict[int, float] = {}
        why: dict[int, str] = {}
        comps = {v.id: v for v in self.design.of_kind("vm")}
        for k in np.flatnonzero(scalable & (factor < 1.0)).tolist():
            j = int(self.hidx[k])
            out[k] = float(held[k] * factor[k])
            why[k] = (_measured_text(comps[c.vm.ids[k]].get("provenance.memory"))
                      + f"{SCALED}{_factor(factor[k])} to host {self.name(j)}'s recorded memory"
                      f" usage {c.host.cols['measured.memory_pct'][j]:.0f}%")
        held = np.where(scalable, held * factor, held)
        for k, (gb, text) in self._share(self.in_scope & no_memory, held, configured,
                                         self.mem_rec, "memory").items():
            out[k] = min(gb, float(configured[k]))  # a VM holds at most its configured memory
            why[k] = text
        return out, why

    # ------------------------------------------------------------------ background
    def background(self, solved: Compiled) -> Changes:
        """Each partial host's background load: what it recorded beyond what its listed VMs
        demand in the solved design (``solved``, compiled without any background): the VMs
        the export does not list.  A complete host gets none (and loses an older one)."""
        cores = self.per_host(run(solved).vms.cpu_cores) if len(solved.vm) \
            else np.zeros(len(solved.host))
        held = solved.vm.cols["workload.memory_gb"]
        memory = self.per_host(np.where(np.isnan(held), solved.vm.cols["memory_gb"], held))
        io = self.io(solved)
        out: Changes = {}
        for j, comp in enumerate(self.hosts):
            ch: dict[str, Value] = dict.fromkeys(BACKGROUND)
            cpu = mem = None
            if self.unlisted[j]:  # only the VMs the export leaves out are background
                cpu = _left(self.cpu_rec[j], cores[j])
                mem = _left(self.mem_rec[j], memory[j])
            why = []
            if cpu is not None or mem is not None:
                ch["background.cpu_cores"] = None if cpu is None else round(cpu, 6)
                ch["background.cpu_ghz"] = None if cpu is None else round(float(self.clock[j]),
                                                                          6)
                ch["background.memory_gb"] = None if mem is None else round(mem, 6)
                why.append(self._why_background(j))
            if j in io:
                ch.update(io[j][0])
                why.append(io[j][1])
            if why:
                ch["provenance.background"] = "; ".join(why)
            if any(comp.get(k) is not None for k in BACKGROUND) or any(
                    v is not None for v in ch.values()):
                out[comp.id] = ch
        return out

    def io(self, solved: Compiled) -> dict[int, tuple[dict[str, Value], str]]:
        """Per host that recorded more IOPS than its VMs measured: its background I/O (rate,
        read share, size) and its provenance, by host index."""
        rec = solved.host.cols["measured.iops"]
        if not np.isfinite(rec).any():
            return {}
        v = solved.vm.cols
        measured = self.in_scope & np.isfinite(v["measured.iops"])
        x = np.where(measured, np.nan_to_num(v["measured.iops"]), 0.0)
        h = len(solved.host)
        on = self.placed
        vms = np.bincount(self.hidx[on], x[on], minlength=h)
        reads = np.bincount(self.hidx[on], (x * v["workload.io_read_pct"] / 100.0)[on],
                            minlength=h)
        kbs = np.bincount(self.hidx[on], (x * v["workload.io_block_kb"])[on], minlength=h)
        blind = np.bincount(self.hidx[on], (self.in_scope & ~measured)[on], minlength=h)
        host_read = solved.host.cols["measured.read_pct"] / 100.0
        host_kb = solved.host.cols["measured.io_kb"]
        spec = VM.props["workload.io_block_kb"]
        lo, hi = float(spec.min or 0.5), float(spec.max or 4096)
        out: dict[int, tuple[dict[str, Value], str]] = {}
        for j in np.flatnonzero(np.isfinite(rec) & (rec >= vms + MIN_IOPS)).tolist():
            left = float(rec[j] - vms[j])
            # the record less the VMs' where the background is a fair part of it (a small
            # one is mostly the record's rounding); else the host's own mix
            part = left >= MIX_SHARE * float(rec[j])
            r = (float(rec[j] * host_read[j]) - float(reads[j])) / left if part else math.nan
            if not 0.0 <= r <= 1.0:
                r = float(host_read[j]) if math.isfinite(host_read[j]) else (
                    float(reads[j] / vms[j]) if vms[j] > 0 else math.nan)
            kb = (float(rec[j] * host_kb[j]) - float(kbs[j])) / left if part else math.nan
            if not lo <= kb <= hi:
                kb = (min(max(float(host_kb[j]), lo), hi) if math.isfinite(host_kb[j])
                      and host_kb[j] > 0 else float(kbs[j] / vms[j]) if vms[j] > 0
                      else math.nan)
            ch: dict[str, Value] = {
                "background.iops": round(left, 4),
                "background.read_pct": round(r * 100.0, 3) if math.isfinite(r) else None,
                "background.io_kb": round(kb, 3) if math.isfinite(kb) else None}
            out[j] = (ch, self._why_io(j, float(rec[j]), float(vms[j]), left, int(blind[j])))
        return out

    def _why_io(self, j: int, rec: float, vms: float, left: float, blind: int) -> str:
        also = [w for w in (
            f"{counted(blind, 'VM')} whose own I/O is not measured" if blind else "",
            f"the {counted(int(self.unlisted[j]), 'VM')} the export does not list"
            if self.unlisted[j] else "") if w]
        return (f"solved: host {self.name(j)}'s recorded {rec:,.0f} IOPS less its VMs' measured"
                f" {vms:,.0f}: {left:,.0f} IOPS of its own (the hypervisor's I/O"
                + "".join(f", {w}" for w in also) + ") on the arrays it reaches"
                + self.source(j))

    def _why_background(self, j: int) -> str:
        recorded = [f"{label} usage {v:.0f}%" for label, v in (
            ("CPU", self.c.host.cols["measured.cpu_pct"][j]),
            ("memory", self.c.host.cols["measured.memory_pct"][j])) if math.isfinite(v)]
        runs = self.hosts[j].get("measured.vms")
        return (f"solved: host {self.name(j)}'s recorded {' and '.join(recorded)} less what"
                f" its listed VMs demand: the {int(self.unlisted[j]):,} of its"
                f" {counted(int(runs) if isinstance(runs, int) else 0, 'VM')} the export does"
                " not list (with the hypervisor's own, which a partial record cannot tell"
                " apart)" + self.source(j))


def _left(record: float, explained: float) -> float | None:
    """What a record leaves beyond what is explained (None: nothing recorded or left)."""
    if not math.isfinite(record):
        return None
    left = float(record) - float(explained)
    return left if left > 1e-6 else None


def calibrate(design: Design) -> BaselineCheck:
    """Solve the baseline into ``design`` (in place) and check it."""
    apply(design, solve(design))
    return check(design)


def calibrate_after_import(design: Design, report: Any,
                           progress: Callable[[int, int, str], object] | None = None
                           ) -> BaselineCheck:
    """What an import does last: solve, check, and put the check into the report
    (:class:`models.io.importers.ImportReport`); ``progress`` is told it has begun."""
    if progress is not None:
        progress(0, 0, "calibrating the baseline")
    result = calibrate(design)
    report.calibration = result.lines()
    return result
