"""Read esxtop batch-mode output (``esxtop -b -d 5 -n 120 > host.csv``): Windows PDH CSV.

The first column is the sample time; every other column is one counter, named
``\\\\<host>\\<object>(<instance>)\\<counter>``.  Read here:

================================== ===================================================
Group Cpu(<id>:<vm>)               % Used (of one core at nominal clock), % Ready
Group Memory(<id>:<vm>)            consumed, touched (active), swapped, ballooned MBytes
Virtual Disk(<vm>) / (<vm>:scsiX:Y) Commands/sec, Reads/sec, Writes/sec, MBytes Read/
                                   Written/sec, Average MilliSec/Read and /Write,
                                   Active and Queued Commands (where present)
Network Port(<switch>:<port>:<who>) MBits and Packets Transmitted/Received per sec, per
                                   vmnic (host) and per VM port (``<vm>.eth0``)
Physical Cpu(_Total)               % Util Time (the host's recorded CPU)
Memory                             Machine MBytes and Free MBytes (the host's memory)
================================== ===================================================

A VM's figure is the chosen statistic (p95, mean or max) over the samples of its per-sample
total: the VM's own virtual-disk row where esxtop gives one, else the sum over its virtual
disks (latency weighted by each disk's rate).  Groups that are not VMs (system, idle, helper,
drivers, ...) are left out.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from models.document.design import DesignError, Issue
from models.document.numbers import counted
from models.document.words import kind_count
from models.io.importers import Measured
from models.io.importers.importer import Importer, Option
from models.io.importers.measurements import (
    STATS,
    HostMeasured,
    Measurements,
    NicMeasured,
    latencies,
    statistic,
)
from models.io.importers.workbook import Row, csv_rows

SYSTEM_GROUPS = {"system", "idle", "helper", "drivers", "ft", "vmotion", "vmkapimod", "ovhd",
                 "vimsvc", "hostd", "vpxa", "init", "sh", "sfcbd", "openwsmand", "net-lacp",
                 "dcui", "ntpd", "vobd", "slp", "busybox", "nscd", "rhttpproxy", "vmsyslogd",
                 "storagerm", "sdrsinjector", "lwsmd", "sensord", "smartd", "swapobjd",
                 "vsanperfsvc", "settingsd", "envoy", "iofilterd", "vmware-usbarbitrator"}


def is_esxtop(path: Path) -> bool:
    """Whether ``path`` looks like esxtop batch output (a PDH CSV header)."""
    try:
        with path.open("rb") as f:
            head = f.read(64).decode("utf-8", "replace").lstrip("\ufeff\"")
    except OSError:
        return False
    return head.startswith("(PDH-CSV")


def _split(column: str) -> tuple[str, str, str, str] | None:
    """``\\\\host\\Object(instance)\\Counter`` -> (host, object, instance, counter)."""
    c = column.strip()
    if not c.startswith("\\\\"):
        return None
    rest = c[2:]
    host, _, rest = rest.partition("\\")
    objinst, _, counter = rest.rpartition("\\")
    if not host or not objinst or not counter:
        return None
    obj, inst = objinst, ""
    if objinst.endswith(")") and "(" in objinst:
        i = objinst.index("(")
        obj, inst = objinst[:i], objinst[i + 1:-1]
    return host, obj.strip(), inst, counter.strip()


def _series(rows: list[Row], col: int) -> np.ndarray:
    out = np.full(len(rows), np.nan)
    for i, r in enumerate(rows):
        if col < len(r):
            with contextlib.suppress(ValueError):  # a blank or garbled sample stays NaN
                out[i] = float(str(r[col]).strip() or "nan")
    return out


def read(path: Path, stat: str = "p95") -> Measurements:
    """Read an esxtop batch CSV; raises :class:`DesignError` when it is not one."""
    if stat not in STATS:
        raise DesignError([Issue("--stat", f"expected one of {', '.join(STATS)}, got {stat!r}")])
    rows_iter: Iterator[Row] = csv_rows(path)
    header = next(rows_iter, None)
    if not header or not str(header[0]).lstrip("\ufeff").startswith("(PDH-CSV"):
        raise DesignError([Issue(str(path), "not esxtop batch output: the first column of an"
                                 " esxtop -b file is '(PDH-CSV 4.0) ...'")])
    rows = [r for r in rows_iter if any(str(v).strip() for v in r)]
    if not rows:
        raise DesignError([Issue(str(path), "the esxtop file has a header but no samples")])
    cols: dict[tuple[str, str, str], dict[str, int]] = {}
    hosts: set[str] = set()
    for i, h in enumerate(header[1:], start=1):
        parts = _split(str(h))
        if parts is None:
            continue
        host, obj, inst, counter = parts
        hosts.add(host)
        cols.setdefault((host, obj.lower(), inst), {})[counter.lower()] = i
    if not cols:
        raise DesignError([Issue(str(path), "no esxtop counters (\\\\host\\Object(...)\\Counter)"
                                 " in the header")])
    times = [str(r[0]) for r in rows]
    span = f"{times[0]} to {times[-1]}" if len(times) > 1 else times[0]
    src = f"esxtop batch {path.name}, {stat} of {counted(len(rows), 'sample')} ({span})"
    meas = Measurements(source=src)
    vms: dict[str, Measured] = {}

    def vm(name: str) -> Measured:
        if name not in vms:
            vms[name] = Measured()
        return vms[name]

    def value(key: tuple[str, str, str], *counters: str) -> np.ndarray | None:
        found = cols.get(key, {})
        for c in counters:
            if c in found:
                return _series(rows, found[c])
        return None

    disks: dict[str, list[tuple[str, str, str]]] = {}
    for key, counters in cols.items():
        host, obj, inst = key
        if obj == "group cpu" and ":" in inst:
            name = inst.split(":", 1)[1]
            if name.lower() in SYSTEM_GROUPS or name.startswith("vmx") or not name:
                continue
            used = value(key, "% used")
            if used is not None and (s := statistic(used, stat)) is not None:
                meas.cpu_used_pct[name] = s
                m = vm(name)
                m.sources["cpu"] = f"{src}: Group Cpu % Used"
            ready = value(key, "% ready")
            if ready is not None and name in meas.cpu_used_pct:
                vm(name).cpu_ready_pct = statistic(ready, stat)
        elif obj == "group memory" and ":" in inst:
            name = inst.split(":", 1)[1]
            if name.lower() in SYSTEM_GROUPS or not name:
                continue
            _memory(vm, name, counters, rows, stat, src)
        elif obj == "virtual disk" and inst:
            name = inst.split(":", 1)[0]
            disks.setdefault(name, []).append(key)
        elif obj == "network port" and inst.count(":") >= 2:
            who = inst.split(":", 2)[2]
            tx = value(key, "mbits transmitted/sec")
            rx = value(key, "mbits received/sec")
            ptx = value(key, "packets transmitted/sec")
            prx = value(key, "packets received/sec")
            mbps = _sum_stat((tx, rx), stat)
            if re.fullmatch(r"vmnic\d+", who):
                meas.nics[(host, who)] = NicMeasured(mbps, _sum_stat((ptx, prx), stat))
            elif "." in who and mbps is not None:
                name = who.rsplit(".", 1)[0]
                m = vm(name)
                m.net_mbps = (m.net_mbps or 0.0) + mbps
                m.sources["net"] = f"{src}: Network Port MBits/sec"
        elif obj == "physical cpu" and inst.lower() == "_total":
            util = value(key, "% util time", "% core util time", "% processor time")
            if util is not None:
                meas.hosts.setdefault(host, HostMeasured()).cpu_pct = statistic(util, stat)
        elif obj == "memory" and not inst:
            machine = value(key, "machine mbytes")
            free = value(key, "free mbytes")
            if machine is not None and free is not None:
                used = (machine - free) / np.where(machine > 0, machine, np.nan) * 100.0
                meas.hosts.setdefault(host, HostMeasured()).memory_pct = statistic(used, stat)
    for name, keys in disks.items():
        _disks(vm(name), name, keys, cols, rows, stat, src)
    meas.vms = {k: v for k, v in vms.items() if v.sources}
    if len(hosts) > 1:
        meas.notes.append(f"the file holds {kind_count('host', len(hosts))}: "
                          + ", ".join(sorted(hosts)))
    if not meas.vms and not meas.hosts:
        raise DesignError([Issue(str(path), "esxtop file without VM or host counters this"
                                 " import reads (Group Cpu, Virtual Disk, Physical Cpu, ...)")])
    return meas


def _sum_stat(series: tuple[np.ndarray | None, ...], stat: str) -> float | None:
    present = [s for s in series if s is not None]
    if not present:
        return None
    return statistic(np.nansum(np.vstack(present), axis=0), stat)


def _memory(vm: Callable[[str], Measured], name: str, counters: dict[str, int],
            rows: list[Row], stat: str, src: str) -> None:
    m = vm(name)
    for counter, col in counters.items():
        v = statistic(_series(rows, col), stat)
        if v is None:
            continue
        if "consumed" in counter:
            m.memory_consumed_mib = v
            m.sources["memory"] = f"{src}: Group Memory consumed MBytes"
        elif "touch" in counter or "active" in counter:
            m.memory_active_mib = v
        elif "swapped" in counter:
            m.memory_swapped_mib = v
        elif "memctl" in counter or "balloon" in counter:
            m.memory_ballooned_mib = v


def _disks(m: Measured, name: str, keys: list[tuple[str, str, str]],
           cols: dict[tuple[str, str, str], dict[str, int]], rows: list[Row], stat: str,
           src: str) -> None:
    """The VM's I/O: its own virtual-disk row (instance = VM name) when esxtop gives one,
    else the sum over its disks (``<vm>:scsi0:0``)."""
    own = [k for k in keys if k[2] == name]
    use = own or keys
    n = len(rows)
    reads, writes, cmds = np.zeros(n), np.zeros(n), np.zeros(n)
    mb = np.zeros(n)
    lat_w = np.zeros(n)
    oio = np.zeros(n)
    have_rw = have_lat = have_oio = have_mb = False
    for key in use:
        c = cols[key]

        def s(name_: str, c_: dict[str, int] = c) -> np.ndarray | None:
            return _series(rows, c_[name_]) if name_ in c_ else None

        r, w, t = s("reads/sec"), s("writes/sec"), s("commands/sec")
        if r is not None and w is not None:
            have_rw = True
            reads += np.nan_to_num(r)
            writes += np.nan_to_num(w)
        if t is not None:
            cmds += np.nan_to_num(t)
        elif r is not None and w is not None:
            cmds += np.nan_to_num(r) + np.nan_to_num(w)
        mr, mw = s("mbytes read/sec"), s("mbytes written/sec")
        if mr is not None or mw is not None:
            have_mb = True
            mb += np.nan_to_num(mr if mr is not None else 0.0) + np.nan_to_num(
                mw if mw is not None else 0.0)
        lr, lw = s("average millisec/read"), s("average millisec/write")
        if lr is not None and lw is not None and r is not None and w is not None:
            have_lat = True
            lat_w += np.nan_to_num(lr) * np.nan_to_num(r) + np.nan_to_num(lw) * np.nan_to_num(w)
        elif (lc := s("average millisec/command")) is not None and t is not None:
            have_lat = True
            lat_w += np.nan_to_num(lc) * np.nan_to_num(t)
        act, que = s("active commands"), s("queued commands")
        if act is not None or que is not None:
            have_oio = True
            oio += np.nan_to_num(act if act is not None else 0.0) + np.nan_to_num(
                que if que is not None else 0.0)
    m.iops = statistic(cmds, stat)
    if m.iops is None:
        return
    m.sources["io"] = f"{src}: Virtual Disk " + ("" if own else "(sum of disks) ") + \
        "Commands/sec"
    total = reads + writes
    if have_rw and total.sum() > 0:
        m.read_pct = float(reads.sum() / total.sum() * 100.0)
    if have_mb and cmds.sum() > 0:
        m.io_kb = float(mb.sum() * 1024.0 / cmds.sum())
    if have_lat:
        busy = np.where(total > 0, total, np.nan) if have_rw else np.where(cmds > 0, cmds,
                                                                           np.nan)
        m.latency_ms, m.latency_peak_ms = latencies(lat_w, np.nan_to_num(busy), stat)
    if have_oio:
        m.oio = statistic(oio, stat)


IMPORTER = Importer(
    id="esxtop", name="esxtop", title="esxtop batch CSV",
    description="an esxtop batch CSV (esxtop -b)",
    source=Option("source", "path", help="the esxtop -b output"), command="calibrate",
    patterns=("*.csv",), sniff=is_esxtop, read_measurements=read,
)
