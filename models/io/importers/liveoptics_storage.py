"""A Live Optics workbook's datastores: Host Devices (one row per host and datastore, with its
capacity and VM count) joined with the datastores the VMs name.

A shared datastore is one row per host that mounts it.  Its rows are one datastore when they
share a LUN (the NAA id found in Host Disks), else a name; a masked workbook names each
host's row differently ("Disk 11", "Disk 17"), and then rows of different hosts with the same
capacity, free and used space and VM count are one.  The VMs sheet names datastores as vCenter
does (unique within a datacenter, so ``datastore1`` of two datacenters are two) - in a masked
workbook with a mask of its own ("Datastore 18"): a name that is no device's is matched to the
one datastore of its datacenter that holds as many VMs and is mounted by every host its VMs run
on, or else imported without a capacity (its hosts are then its VMs', not those that mount it:
it stays a shared array).  A ``Local`` device is its host's local storage, a ``Cluster`` one
shared, whatever number of hosts the workbook shows mounting it (:mod:`.arrays`).  Every such
decision is in the import report.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from models.document.numbers import counted
from models.io.importers import DatastoreRecord, ImportReport
from models.io.importers.liveoptics_sheets import Device, VmRow

GIB = 1024.0


@dataclass
class _Group:
    devices: list[Device]
    name: str = ""
    matched: bool = False
    names: set[str] = field(default_factory=set)

    @property
    def hosts(self) -> set[str]:
        return {d.host.lower() for d in self.devices}

    @property
    def datacenter(self) -> str:
        return self.devices[0].datacenter

    @property
    def vm_count(self) -> int | None:
        return self.devices[0].vm_count


def _groups(devices: list[Device]) -> list[_Group]:
    """Host Devices rows grouped into datastores (see the module docstring)."""
    per_name: dict[str, set[str]] = {}
    for d in devices:
        per_name.setdefault(d.name, set()).add(d.host.lower())
    groups: dict[tuple[object, ...], _Group] = {}
    for d in devices:
        dc = d.datacenter.lower()
        if not d.shared:
            key: tuple[object, ...] = ("local", d.host.lower(), d.name)
        elif d.address:
            key = ("lun", dc, d.address)
        elif len(per_name[d.name]) > 1:
            key = ("name", dc, d.name)
        else:  # a masked row: one host's name for a datastore others mount under theirs
            key = ("size", dc, d.capacity_gib, d.free_gib, d.used_gib, d.vm_count)
        g = groups.setdefault(key, _Group([]))
        if any(x.host.lower() == d.host.lower() for x in g.devices) and key[0] == "size":
            key = (*key, d.host.lower(), d.name)  # the same host twice: two datastores
            g = groups.setdefault(key, _Group([]))
        g.devices.append(d)
        g.names.add(d.name)
    return list(groups.values())


def datastores(devices: list[Device], rows: list[VmRow],
               report: ImportReport) -> list[DatastoreRecord]:
    """The datastores of the workbook, each VM's record naming those it is on."""
    groups = _groups(devices)
    named: dict[tuple[str, str], VmCount] = {}
    for r in rows:
        for ds in r.datastores:
            vc = named.setdefault((r.record.datacenter.lower(), ds),
                                  VmCount(ds, r.record.datacenter))
            vc.rows += 1
            if r.record.host:
                vc.hosts.add(r.record.host.lower())
                vc.host_names.setdefault(r.record.host.lower(), r.record.host)
    in_dcs = Counter(name for _, name in named)
    by_count: list[str] = []
    bare: list[str] = []
    out: list[DatastoreRecord] = []
    final: dict[tuple[str, str], str] = {}
    for (dc, name), vc in named.items():
        label = name if in_dcs[name] == 1 else f"{name} ({vc.datacenter or 'no datacenter'})"
        final[(dc, name)] = label
        g = next((g for g in groups if not g.matched and name in g.names
                  and g.datacenter.lower() == dc), None)
        if g is None:
            fits = [g for g in groups if not g.matched and g.datacenter.lower() == dc
                    and g.vm_count == vc.rows and vc.hosts <= g.hosts]
            g = fits[0] if len(fits) == 1 else None
            if g is not None:
                by_count.append(f"{label} = {'/'.join(sorted(g.names))}")
        if g is None:
            bare.append(label)
            out.append(DatastoreRecord(name=label, where="VMs sheet", type="VMFS",
                                       hosts=sorted(vc.host_names.values()), local=False))
            continue
        g.matched = True
        out.append(_record(g, label))
    for g in groups:
        if g.matched:
            continue
        d = g.devices[0]
        if not d.shared and not d.vm_count:
            report.skip(d.where, d.name, "local device with no VMs (a boot device or an empty"
                        " local datastore): not imported as storage")
            continue
        name = d.name if not any(o.name == d.name for o in out) else f"{d.name} ({d.host})"
        out.append(_record(g, name))
    for r in rows:
        r.record.datastores = [final[(r.record.datacenter.lower(), ds)] for ds in r.datastores]
    if by_count:
        report.notes.append(f"{counted(len(by_count), 'datastore')} the VMs name are not in"
                            " Host Devices"
                            " by that name (a masked workbook): matched by their VM count and"
                            " hosts: " + ", ".join(by_count[:8])
                            + (" ..." if len(by_count) > 8 else ""))
    if bare:
        report.notes.append(f"{counted(len(bare), 'datastore')} the VMs name match no Host"
                            " Devices row:"
                            " imported without capacity: " + ", ".join(bare[:8])
                            + (" ..." if len(bare) > 8 else ""))
    return out


@dataclass
class VmCount:
    name: str
    datacenter: str
    rows: int = 0
    hosts: set[str] = field(default_factory=set)
    """Its VMs' hosts, in lower case (for comparisons)."""
    host_names: dict[str, str] = field(default_factory=dict)


def _record(g: _Group, name: str) -> DatastoreRecord:
    d = g.devices[0]
    return DatastoreRecord(
        name=name, where=d.where, type=d.protocol or "VMFS",
        capacity_mib=None if d.capacity_gib is None else d.capacity_gib * GIB,
        in_use_mib=None if d.used_gib is None else d.used_gib * GIB,
        hosts=sorted({x.host for x in g.devices}), address=d.address, local=not d.shared)
