"""Performance history from vCenter's PerformanceManager (``import-vcenter --perf DAYS``).

For every powered-on VM: ``cpu.usagemhz``, ``mem.consumed``, ``mem.active``, per virtual disk
``virtualDisk.numberReadAveraged`` / ``numberWriteAveraged`` (IOPS), ``read`` / ``write``
(KB/s), ``totalReadLatency`` / ``totalWriteLatency`` (ms), ``readOIO`` / ``writeOIO`` where the
statistics level collects them, and ``net.usage``; for every host ``cpu.usagemhz`` and
``mem.consumed`` (its recorded utilisation) and per datastore ``datastore.numberReadAveraged``
/ ``numberWriteAveraged`` and ``read`` / ``write`` (its recorded I/O, summed over its
datastores: what passes its VMs' is its background I/O).  The history interval is the
finest one vCenter keeps for the whole span (5-minute samples for a day, 30-minute for a
week, 2-hour for a month).  Each sample's VM total is formed first (disks summed, latency
weighted by each disk's rate), then the chosen statistic over the samples (p95, mean or max)
is the VM's demand; its latency is kept as the mean over its I/Os and as that statistic.
Counters vCenter does not collect at its statistics level are reported, never invented.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from models.document.words import kind_count
from models.io.importers import Measured, Progress
from models.io.importers.measurements import HostMeasured, latencies, statistic

VM_COUNTERS = ("cpu.usagemhz.average", "mem.consumed.average", "mem.active.average",
               "virtualDisk.numberReadAveraged.average",
               "virtualDisk.numberWriteAveraged.average", "virtualDisk.read.average",
               "virtualDisk.write.average", "virtualDisk.totalReadLatency.average",
               "virtualDisk.totalWriteLatency.average", "virtualDisk.readOIO.latest",
               "virtualDisk.writeOIO.latest", "net.usage.average")
HOST_COUNTERS = ("cpu.usagemhz.average", "mem.consumed.average",
                 "datastore.numberReadAveraged.average", "datastore.numberWriteAveraged.average",
                 "datastore.read.average", "datastore.write.average")
PER_DISK = {c for c in VM_COUNTERS + HOST_COUNTERS
            if c.startswith(("virtualDisk.", "datastore."))}
"""Counters queried per instance (a VM's virtual disks, a host's datastores) and summed."""
BATCH = 50
"""Entities per QueryPerf call."""


@dataclass
class PerfResult:
    vms: dict[str, Measured] = field(default_factory=dict)
    hosts: dict[str, HostMeasured] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    source: str = ""


def pick_interval(intervals: list[tuple[int, int]], days: int) -> int:
    """The sampling period (s) of the finest historical interval ``(period, length)`` that
    covers ``days``; the longest one when none does; 300 s without any."""
    span = days * 86400
    ok = sorted(p for p, length in intervals if length >= span)
    if ok:
        return ok[0]
    return max(intervals, key=lambda x: x[1])[0] if intervals else 300


def read_perf(si: Any, vms: dict[str, Any], hosts: dict[str, tuple[Any, float, float]],
              days: int, stat: str, progress: Progress | None = None) -> PerfResult:
    """Query ``days`` of history for ``vms`` (name -> managed object) and ``hosts`` (name ->
    (managed object, capacity MHz, memory MiB)); reduce each to ``stat``."""
    from pyVmomi import vim  # noqa: PLC0415

    content = si.RetrieveContent()
    pm = content.perfManager
    ids = {f"{c.groupInfo.key}.{c.nameInfo.key}.{c.rollupType}": int(c.key)
           for c in pm.perfCounter or ()}
    names = {v: k for k, v in ids.items()}
    intervals = [(int(i.samplingPeriod), int(i.length)) for i in pm.historicalInterval or ()
                 if i.enabled]
    period = pick_interval(intervals, days)
    end = dt.datetime.now(dt.UTC)
    start = end - dt.timedelta(days=days)
    res = PerfResult()
    res.source = (f"vCenter {{counter}} {stat} over {days} days ({period // 60}-minute"
                  f" samples to {end.date().isoformat()})")
    missing = [c for c in VM_COUNTERS if c not in ids]
    if missing:
        res.notes.append("vCenter does not define " + ", ".join(missing))

    def spec(obj: Any, counters: tuple[str, ...]) -> Any:
        metrics = [vim.PerformanceManager.MetricId(
            counterId=ids[c], instance="*" if c in PER_DISK else "")
            for c in counters if c in ids]
        return vim.PerformanceManager.QuerySpec(entity=obj, metricId=metrics,
                                                intervalId=period, startTime=start,
                                                endTime=end, format="normal")

    done = 0
    total = len(vms) + len(hosts)
    for batch in _batches(list(vms.items())):
        for name, series in _query(pm, [spec(o, VM_COUNTERS) for _, o in batch],
                                   [n for n, _ in batch], names):
            m = _vm(series, stat, res.source)
            if m.sources:
                res.vms[name] = m
        done += len(batch)
        if progress is not None:
            progress(done, total, "reading performance history")
    for hbatch in _batches(list(hosts.items())):
        for name, series in _query(pm, [spec(o[0], HOST_COUNTERS) for _, o in hbatch],
                                   [n for n, _ in hbatch], names):
            _, mhz, mib = hosts[name]
            cpu = series.get("cpu.usagemhz.average")
            mem = series.get("mem.consumed.average")
            hm = HostMeasured(
                statistic(cpu.sum(axis=0) / mhz * 100.0, stat) if cpu is not None and mhz
                else None,
                statistic(mem.sum(axis=0) / 1024.0 / mib * 100.0, stat)
                if mem is not None and mib else None)
            hm.iops, hm.read_pct, hm.io_kb = host_io(series, stat)
            res.hosts[name] = hm
    no_io = sum(1 for m in res.vms.values() if m.iops is None)
    if no_io:
        res.notes.append(f"{kind_count('vm', no_io)} without virtual-disk counters in this interval"
                         " (statistics level): their I/O is not measured")
    return res


def _batches(items: list[Any]) -> Iterator[list[Any]]:
    for i in range(0, len(items), BATCH):
        yield items[i:i + BATCH]


def _query(pm: Any, specs: list[Any], labels: list[str],
           names: dict[int, str]) -> Iterator[tuple[str, dict[str, np.ndarray]]]:
    """(label, counter -> [instances x samples] array) per entity; -1 samples are gaps."""
    result = pm.QueryPerf(querySpec=specs) or []
    by_ref = {str(s.entity._moId): lab for s, lab in zip(specs, labels, strict=True)}
    for em in result:
        label = by_ref.get(str(em.entity._moId))
        if label is None:
            continue
        series: dict[str, list[np.ndarray]] = {}
        for v in em.value or ():
            counter = names.get(int(v.id.counterId))
            if counter is None:
                continue
            a = np.array(list(v.value or ()), dtype=np.float64)
            a[a < 0] = np.nan
            series.setdefault(counter, []).append(a)
        out = {}
        for k, arrs in series.items():
            n = min(len(a) for a in arrs)
            if n:
                out[k] = np.vstack([a[:n] for a in arrs])
        yield label, out


def _aligned(*arrays: np.ndarray | None) -> list[np.ndarray | None]:
    """Counters of one entity cut to their common number of samples: a query that straddles
    a sample boundary can return one more sample for one counter than for another (all start
    at the query's start time), and a rate must be paired with its own interval's latency."""
    n = min((a.shape[1] for a in arrays if a is not None), default=0)
    return [None if a is None else a[:, :n] for a in arrays]


def host_io(series: dict[str, np.ndarray], stat: str
            ) -> tuple[float | None, float | None, float | None]:
    """A host's I/O from its datastore counters (every datastore it reaches, summed): the
    statistic of its IOPS, its share of reads (%) and mean I/O size (KB) over the span; the
    I/O beyond its VMs' is its background I/O (:mod:`models.analysis.baseline`)."""
    reads, writes, rk, wk = _aligned(series.get("datastore.numberReadAveraged.average"),
                                     series.get("datastore.numberWriteAveraged.average"),
                                     series.get("datastore.read.average"),
                                     series.get("datastore.write.average"))
    if reads is None or writes is None or reads.shape != writes.shape:
        return None, None, None
    r, w = np.nansum(reads, axis=0), np.nansum(writes, axis=0)
    iops = statistic(r + w, stat)
    total = float((r + w).sum())
    if iops is None or total <= 0:
        return iops, None, None
    kb = (float(np.nansum(rk) + np.nansum(wk)) / total if rk is not None and wk is not None
          else None)
    return iops, float(r.sum()) / total * 100.0, kb


def _vm(series: dict[str, np.ndarray], stat: str, source: str) -> Measured:
    m = Measured()

    def total(counter: str) -> np.ndarray | None:
        a = series.get(counter)
        return None if a is None else np.nansum(a, axis=0)

    cpu = total("cpu.usagemhz.average")
    if cpu is not None and (v := statistic(cpu, stat)) is not None:
        m.cpu_mhz = v
        m.sources["cpu"] = source.format(counter="cpu.usagemhz.average")
    consumed = total("mem.consumed.average")
    if consumed is not None and (v := statistic(consumed / 1024.0, stat)) is not None:
        m.memory_consumed_mib = v
        m.sources["memory"] = source.format(counter="mem.consumed.average")
    active = total("mem.active.average")
    if active is not None:
        m.memory_active_mib = statistic(active / 1024.0, stat)
    reads, writes, lr, lw = _aligned(
        series.get("virtualDisk.numberReadAveraged.average"),
        series.get("virtualDisk.numberWriteAveraged.average"),
        series.get("virtualDisk.totalReadLatency.average"),
        series.get("virtualDisk.totalWriteLatency.average"))
    if reads is not None and writes is not None and reads.shape == writes.shape:
        r, w = np.nansum(reads, axis=0), np.nansum(writes, axis=0)
        iops = r + w
        m.iops = statistic(iops, stat)
        if m.iops is not None:
            m.sources["io"] = source.format(counter="virtualDisk.numberRead/WriteAveraged")
            if iops.sum() > 0:
                m.read_pct = float(r.sum() / iops.sum() * 100.0)
            kb = [series.get("virtualDisk.read.average"),
                  series.get("virtualDisk.write.average")]
            if all(k is not None for k in kb) and iops.sum() > 0:
                m.io_kb = float(sum(float(np.nansum(k)) for k in kb if k is not None)
                                / iops.sum())
            if lr is not None and lw is not None and lr.shape == reads.shape \
                    and lw.shape == writes.shape:
                weighted = np.nansum(lr * reads + lw * writes, axis=0)
                m.latency_ms, m.latency_peak_ms = latencies(weighted, iops, stat)
            ro, wo = total("virtualDisk.readOIO.latest"), total("virtualDisk.writeOIO.latest")
            if ro is not None and wo is not None:
                m.oio = statistic(ro + wo, stat)
    net = total("net.usage.average")
    if net is not None and (v := statistic(net * 8.0 / 1000.0, stat)) is not None:
        m.net_mbps = v
        m.sources["net"] = source.format(counter="net.usage.average")
    return m
