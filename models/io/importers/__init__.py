"""Import a running estate (RVTools exports, a live vCenter) as a Headroom design.

Each source reads into the same plain records (:class:`Estate`: hosts, VMs, datastores, NICs);
:func:`build_design` maps them onto the design schema (:mod:`models.document.schema`), and
:mod:`models.io.importers.layout` places them on the canvas.  Everything that is not imported as
it stands (templates, powered-off VMs, rows with unusable cells, values mapped to the nearest
supported one) goes into the :class:`ImportReport`: nothing is dropped silently.

Conventions of the imported design:

- ids are slugs of the inventory names with a kind prefix (``h-esx01``, ``vm-web01``,
  ``ds-gold01``, ``site-dc1``), unique within the design;
- hosts and VMs carry a ``cluster-<slug>`` tag, so ``--set tag:cluster-prod.vcpus=4`` and the
  auto-layout can address a cluster;
- storage arrays come from datastores: the protocol follows the datastore type; media, drive
  count and RAID are not in the inventory and keep the schema defaults (the report says so).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from models.document.design import Component, Design, Link
from models.document.schema import ESXI_VERSIONS, HOST, NIC, VM

Progress = Callable[[int, int, str], None]
"""``progress(done, total, what)``; it may raise :class:`ImportCancelledError` to stop."""

SiteBy = Literal["datacenter", "cluster"]


class ImportCancelledError(Exception):
    """Raised by a progress callback to stop an import."""


@dataclass
class NicRecord:
    name: str
    speed_mbps: float | None
    where: str = ""


@dataclass
class HostRecord:
    name: str
    where: str
    datacenter: str = ""
    cluster: str = ""
    cpu_model: str = ""
    sockets: int | None = None
    cores_per_socket: int | None = None
    cores: int | None = None
    mhz: float | None = None
    hyperthreading: bool | None = None
    memory_mib: float | None = None
    version: str = ""
    nics: list[NicRecord] = field(default_factory=list)
    datastores: list[str] = field(default_factory=list)


@dataclass
class VmRecord:
    name: str
    where: str
    host: str = ""
    datacenter: str = ""
    cluster: str = ""
    vcpus: int | None = None
    memory_mib: float | None = None
    powered_on: bool = True
    template: bool = False
    os: str = ""
    ft_state: str = ""
    ft_secondary: bool = False
    datastores: list[str] = field(default_factory=list)
    provisioned_mib: float | None = None
    in_use_mib: float | None = None
    adapter: str = ""
    latency_sensitivity: str = ""


@dataclass
class DatastoreRecord:
    name: str
    where: str
    type: str = ""
    capacity_mib: float | None = None
    hosts: list[str] = field(default_factory=list)
    sioc: bool | None = None


@dataclass
class Estate:
    source: str
    hosts: list[HostRecord] = field(default_factory=list)
    vms: list[VmRecord] = field(default_factory=list)
    datastores: list[DatastoreRecord] = field(default_factory=list)


@dataclass(frozen=True)
class Skipped:
    """One inventory row or object not imported as a component, and why."""

    where: str
    name: str
    reason: str

    def __str__(self) -> str:
        return f"{self.where} '{self.name}': {self.reason}"


@dataclass
class ImportReport:
    """What an import brought in, what it left out and what it had to assume."""

    source: str
    counts: dict[str, int] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def skip(self, where: str, name: str, reason: str) -> None:
        self.skipped.append(Skipped(where, name, reason))

    def summary(self) -> str:
        c = self.counts
        return (f"imported {self.source}: {c.get('vms', 0)} VMs on {c.get('hosts', 0)} hosts in "
                f"{c.get('clusters', 0)} clusters at {c.get('sites', 0)} sites, "
                f"{c.get('storage_arrays', 0)} storage arrays, {c.get('nics', 0)} NICs "
                f"({self.seconds:.1f} s)")

    def lines(self, limit: int = 40) -> list[str]:
        """The report as text lines: summary, what was left out, then each skipped row."""
        out = [self.summary()]
        c = self.counts
        left = [f"{c[k]} {label}" for k, label in (
            ("powered_off_skipped", "powered-off VMs (--include-powered-off imports them)"),
            ("powered_off_imported", "powered-off VMs imported idle, tagged powered-off"),
            ("templates", "templates (they do not run)"),
            ("ft_secondaries", "FT secondaries (became ft_secondary_on links)"),
        ) if c.get(k)]
        if left:
            out.append("  not imported as VMs / imported specially: " + ", ".join(left))
        reasons = Counter(_reason_key(s.reason) for s in self.skipped)
        if reasons:
            out.append(f"  skipped {len(self.skipped)}: " + ", ".join(
                f"{r} ({n})" for r, n in reasons.most_common()))
        for s in self.skipped[:limit]:
            out.append(f"  skipped {s}")
        if len(self.skipped) > limit:
            out.append(f"  ... and {len(self.skipped) - limit} more (--json lists all)")
        out.extend(f"  note: {n}" for n in self.notes)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"format": "headroom-import-report", "version": 1, "source": self.source,
                "seconds": round(self.seconds, 3), "counts": dict(self.counts),
                "skipped": [{"where": s.where, "name": s.name, "reason": s.reason}
                            for s in self.skipped],
                "notes": list(self.notes)}


def _reason_key(reason: str) -> str:
    return reason.split(":", 1)[0]


# --------------------------------------------------------------------------- mapping


def nearest_esxi(version: str) -> str | None:
    """The supported ESXi version nearest to a version string (``VMware ESXi 7.0.3 build-1``
    -> ``7.0``); None if no version number is found."""
    m = re.search(r"(\d+)\.(\d+)", version)
    if m is None:
        return None
    value = int(m.group(1)) + int(m.group(2)) / 10
    return min(ESXI_VERSIONS, key=lambda v: (abs(float(v) - value), -float(v)))


def guest_family(os_name: str) -> str:
    """``windows`` when the OS string names Windows, else ``linux``."""
    return "windows" if "win" in os_name.lower() else "linux"


def vnic_type(adapter: str) -> str | None:
    a = adapter.lower().replace(" ", "")
    if "vmxnet3" in a:
        return "vmxnet3"
    if "vmxnet2" in a or "vmxnet" in a:
        return "vmxnet2"
    if "e1000" in a:
        return "e1000"
    return None


def nic_speed_gbps(mbps: float) -> float:
    """The NIC speed choice nearest to a link speed in Mbit/s."""
    choices = [float(c) for c in NIC.props["speed_gbps"].choices or ()]
    return min(choices, key=lambda c: abs(c - mbps / 1000.0))


def slug(name: str) -> str:
    s = re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-")
    return s[:60] or "x"


class _Ids:
    def __init__(self) -> None:
        self.used: set[str] = set()

    def make(self, prefix: str, name: str) -> str:
        base = f"{prefix}-{slug(name)}"
        cid, n = base, 2
        while cid in self.used:
            cid, n = f"{base}-{n}", n + 1
        self.used.add(cid)
        return cid


def _in_range(spec_name: str, value: float, kind_props: dict[str, Any]) -> bool:
    spec = kind_props[spec_name]
    return not ((spec.min is not None and value < spec.min)
                or (spec.max is not None and value > spec.max))


def build_design(estate: Estate, report: ImportReport, *, name: str = "",
                 site_by: SiteBy = "datacenter", include_powered_off: bool = False,
                 progress: Progress | None = None) -> Design:
    """Map an :class:`Estate` onto a valid :class:`Design` (with an auto-layout), filling
    ``report``.  Credentials never reach the design: records carry inventory data only."""
    from models.io.importers.layout import auto_layout  # noqa: PLC0415  (layout imports us)

    design = Design(name=name or f"Imported from {estate.source}")
    ids = _Ids()
    counts: Counter[str] = Counter()
    sites: dict[str, str] = {}
    clusters: set[str] = set()
    host_ids: dict[str, str] = {}
    host_cluster: dict[str, str] = {}
    versions: Counter[tuple[str, str]] = Counter()

    def site_of(dc: str, cluster: str) -> str:
        key = (cluster if site_by == "cluster" else dc) or dc or cluster or "default"
        if key not in sites:
            sid = ids.make("site", key)
            sites[key] = sid
            design.components.append(Component(sid, "site", name=key))
        return sites[key]

    for h in estate.hosts:
        if h.name in host_ids:
            report.skip(h.where, h.name, "duplicate host: the first row with this name is used")
            continue
        hid = ids.make("h", h.name)
        host_ids[h.name] = hid
        tags = [f"cluster-{slug(h.cluster)}"] if h.cluster else []
        if h.cluster:
            clusters.add(h.cluster)
        host_cluster[h.name] = h.cluster
        props = _host_props(h, report, versions)
        design.components.append(Component(hid, "host", name=h.name, tags=tags, props=props))
        design.links.append(Link(hid, site_of(h.datacenter, h.cluster), "located_at"))
        for i, nic in enumerate(h.nics):
            if nic.speed_mbps is None or nic.speed_mbps <= 0:
                report.skip(nic.where or f"host {h.name}", f"{h.name} {nic.name}",
                            "NIC link down or speed unknown")
                continue
            gbps = nic_speed_gbps(nic.speed_mbps)
            nid = ids.make("nic", f"{h.name}-{nic.name or i}")
            design.components.append(Component(nid, "nic", name=f"{h.name} {nic.name}",
                                               props={"speed_gbps": gbps, "ports": 1}))
            design.links.append(Link(nid, hid, "installed_in"))
            counts["nics"] += 1
    for (raw, mapped), n in sorted(versions.items()):
        report.notes.append(f"ESXi version '{raw}' mapped to {mapped} ({n} hosts)")

    arrays: dict[str, str] = {}
    protocols: Counter[str] = Counter()
    for ds in estate.datastores:
        if ds.name in arrays:
            report.skip(ds.where, ds.name, "duplicate datastore: the first row is used")
            continue
        aid = ids.make("ds", ds.name)
        arrays[ds.name] = aid
        proto = _protocol(ds.type)
        protocols[proto or "fc (type unknown)"] += 1
        aprops: dict[str, Any] = {"protocol": proto} if proto else {}
        if ds.sioc is not None:
            aprops["sioc"] = ds.sioc
        design.components.append(Component(aid, "storage_array", name=ds.name, props=aprops))
        for hname in dict.fromkeys(ds.hosts):
            if hname in host_ids:
                design.links.append(Link(host_ids[hname], aid, "storage"))
    if arrays:
        report.notes.append(
            "storage arrays come from datastores (" + ", ".join(
                f"{p}: {n}" for p, n in protocols.most_common())
            + "); media, drive count and RAID are not in the inventory: schema defaults used")

    storage_pairs = {(lk.source, lk.target) for lk in design.links if lk.kind == "storage"}
    vm_ids: dict[str, str] = {}
    secondaries: list[VmRecord] = []
    others: Counter[str] = Counter()
    total = len(estate.vms)
    for i, vm in enumerate(estate.vms):
        if progress is not None and i % 500 == 0:
            progress(i, total, "building the design")
        if vm.template:
            counts["templates"] += 1
            report.skip(vm.where, vm.name, "template: templates do not run")
            continue
        if vm.ft_secondary:
            secondaries.append(vm)
            continue
        if not vm.powered_on and not include_powered_off:
            counts["powered_off_skipped"] += 1
            report.skip(vm.where, vm.name, "powered off: not imported"
                        " (--include-powered-off imports it idle)")
            continue
        problem = _vm_problem(vm, host_ids)
        if problem:
            report.skip(vm.where, vm.name, problem)
            continue
        vid = ids.make("vm", vm.name)
        vm_ids.setdefault(vm.name, vid)
        props = _vm_props(vm, others)
        tags = [f"cluster-{slug(host_cluster[vm.host])}"] if host_cluster.get(vm.host) else []
        if not vm.powered_on:
            props["workload.profile"] = "idle"
            tags.append("powered-off")
            counts["powered_off_imported"] += 1
        design.components.append(Component(vid, "vm", name=vm.name, tags=tags, props=props))
        hid = host_ids[vm.host]
        design.links.append(Link(vid, hid, "runs_on"))
        ds_name = next((d for d in vm.datastores if d in arrays), None)
        if ds_name is not None:
            aid = arrays[ds_name]
            design.links.append(Link(vid, aid, "disk_on"))
            if (hid, aid) not in storage_pairs:
                storage_pairs.add((hid, aid))
                design.links.append(Link(hid, aid, "storage"))
        elif vm.datastores:
            counts["unknown_datastore"] += 1
        counts["vms"] += 1
    if counts["unknown_datastore"]:
        report.notes.append(f"{counts.pop('unknown_datastore')} VMs are on datastores missing"
                            " from the datastore list: no disk_on link for them")
    raised = others.pop("\x00memory", 0)
    if raised:
        report.notes.append(f"{raised} VMs have less memory than the smallest the model takes:"
                            f" raised to {VM.props['memory_gb'].min} GB")
    for os_name, n in others.most_common():
        report.notes.append(f"{n} VMs with guest OS '{os_name}' imported as guest_os linux")
    _link_secondaries(design, secondaries, vm_ids, host_ids, counts, report)
    if counts["vms"]:
        report.notes.append("workloads are not in the inventory: imported VMs run the schema's"
                            " default workload; set vm.workload.* (or a tag:cluster-... "
                            "selection) to what they run before trusting IOPS and latency")
    if counts["nics"]:
        report.notes.append("NIC roles are not in the inventory: every NIC has role 'vm'; mark"
                            " the FT logging and vMotion uplinks")

    counts["hosts"] = len(host_ids)
    counts["sites"] = len(sites)
    counts["clusters"] = len(clusters)
    counts["storage_arrays"] = len(arrays)
    report.counts.update({k: v for k, v in counts.items() if v or k in (
        "vms", "hosts", "sites", "clusters", "storage_arrays", "nics")})
    for k in ("vms", "nics"):
        report.counts.setdefault(k, 0)
    auto_layout(design)
    return design


def _protocol(ds_type: str) -> str | None:
    t = ds_type.lower()
    if t.startswith("nfs"):
        return "nfs"
    if "vsan" in t:
        return "vsan"
    return None


def _host_props(h: HostRecord, report: ImportReport,
                versions: Counter[tuple[str, str]]) -> dict[str, Any]:
    props: dict[str, Any] = {}
    spec = HOST.props
    sockets = h.sockets
    cps = h.cores_per_socket
    if cps is None and h.cores and sockets:
        cps = max(1, h.cores // sockets)
    for key, value in (("sockets", sockets), ("cores_per_socket", cps)):
        if value is None:
            report.notes.append(f"host '{h.name}': {key} unknown; default {spec[key].default}")
        elif _in_range(key, value, spec):
            props[key] = int(value)
        else:
            report.notes.append(f"host '{h.name}': {key} {value} out of range; default used")
    if h.mhz is not None:
        ghz = round(h.mhz / 1000.0, 3)
        if _in_range("ghz", ghz, spec):
            props["ghz"] = ghz
        else:
            report.notes.append(f"host '{h.name}': CPU speed {h.mhz:g} MHz out of range; "
                                f"default {spec['ghz'].default} GHz used")
    if h.hyperthreading is not None:
        props["hyperthreading"] = h.hyperthreading
    if h.memory_mib is not None:
        gb = round(h.memory_mib / 1024.0, 3)
        if _in_range("memory_gb", gb, spec):
            props["memory_gb"] = gb
        else:
            report.notes.append(f"host '{h.name}': memory {h.memory_mib:g} MiB out of range;"
                                " default used")
    mapped = nearest_esxi(h.version) if h.version else None
    if mapped is None:
        report.notes.append(f"host '{h.name}': ESXi version unknown ('{h.version}'); "
                            f"default {spec['esxi_version'].default}")
    else:
        props["esxi_version"] = mapped
        versions[(_short_version(h.version), mapped)] += 1
    return props


def _short_version(version: str) -> str:
    m = re.search(r"\d+(\.\d+)+", version)
    return m.group(0) if m else version


def _vm_problem(vm: VmRecord, host_ids: dict[str, str]) -> str | None:
    if not vm.host:
        return "no host: the VM is not placed on a host"
    if vm.host not in host_ids:
        return f"host not in inventory: '{vm.host}' is not a host of the import"
    if vm.vcpus is None:
        return "bad value: CPUs missing or not a number"
    if vm.memory_mib is None:
        return "bad value: memory missing or not a number"
    if not _in_range("vcpus", vm.vcpus, VM.props):
        return f"bad value: {vm.vcpus} vCPUs is out of range 1..768"
    if vm.memory_mib / 1024.0 > (VM.props["memory_gb"].max or 0):
        return f"bad value: memory {vm.memory_mib:g} MiB is out of range"
    return None


def _vm_props(vm: VmRecord, others: Counter[str]) -> dict[str, Any]:
    assert vm.vcpus is not None and vm.memory_mib is not None
    low_mem = float(VM.props["memory_gb"].min or 0)
    mem = round(vm.memory_mib / 1024.0, 4)
    if mem < low_mem:
        others["\x00memory"] += 1
        mem = low_mem
    props: dict[str, Any] = {"vcpus": int(vm.vcpus), "memory_gb": mem}
    fam = guest_family(vm.os)
    props["guest_os"] = fam
    low = vm.os.lower()
    if fam == "linux" and vm.os and not any(w in low for w in (
            "linux", "rhel", "centos", "ubuntu", "debian", "suse", "sles", "photon", "oracle",
            "rocky", "alma", "fedora", "coreos")):
        others[vm.os[:40]] += 1
    if vm.ft_state.lower() not in ("", "notconfigured", "disabled", "not configured"):
        props["ft"] = True
    nic = vnic_type(vm.adapter)
    if nic:
        props["vnic"] = nic
    if vm.latency_sensitivity.lower() == "high":
        props["latency_sensitivity"] = "high"
    return props


def _link_secondaries(design: Design, secondaries: list[VmRecord], vm_ids: dict[str, str],
                      host_ids: dict[str, str], counts: Counter[str],
                      report: ImportReport) -> None:
    runs_on = {lk.source: lk.target for lk in design.links if lk.kind == "runs_on"}
    linked: set[str] = set()
    for vm in secondaries:
        counts["ft_secondaries"] += 1
        vid = vm_ids.get(vm.name)
        hid = host_ids.get(vm.host)
        if vid is None or hid is None:
            report.skip(vm.where, vm.name, "FT secondary: its primary or host was not imported")
            continue
        if vid in linked:
            report.skip(vm.where, vm.name, "FT secondary: a second secondary is ignored")
            continue
        if runs_on.get(vid) == hid:
            report.skip(vm.where, vm.name, "FT secondary: on the same host as the primary")
            continue
        design.links.append(Link(vid, hid, "ft_secondary_on"))
        linked.add(vid)
        comp = design.component(vid)
        if comp is not None:
            comp.props["ft"] = True

