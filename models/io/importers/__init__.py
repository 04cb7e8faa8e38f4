"""Import a running estate (RVTools exports, a live vCenter) as a Headroom design.

Each source reads into the same plain records (:class:`Estate`: hosts, VMs, datastores,
clusters, NICs, and what was measured); :func:`models.io.importers.build.build_design` maps
them onto the design schema (:mod:`models.document.schema`) and lays them out as the canvas
draws them (:mod:`models.io.arrange`).  Everything that is not imported as
it stands (templates, powered-off VMs, rows with unusable cells, values mapped to the nearest
supported one) goes into the :class:`ImportReport`: nothing is dropped silently.

Conventions of the imported design:

- ids are slugs of the inventory names with a kind prefix (``h-esx01``, ``vm-web01``,
  ``ds-gold01``, ``site-dc1``), unique within the design;
- hosts and VMs carry a ``cluster-<slug>`` tag, so ``--set tag:cluster-prod.vcpus=4`` can
  address a cluster;
- storage arrays come from datastores: the protocol follows the datastore type; media, drive
  count and RAID are not in the inventory and keep the schema defaults (the report says so).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from models.document.design import Design, describe_value, repair_text
from models.document.numbers import counted
from models.document.rules import prop_problem
from models.document.schema import ESXI_VERSIONS, KINDS, LINKS, NIC
from models.document.words import kind_count

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
    cpu_usage_pct: float | None = None
    """Recorded host CPU usage (% of cores x MHz), e.g. RVTools vHost CPU usage %."""
    memory_usage_pct: float | None = None
    iops: float | None = None
    """Recorded host IOPS (Live Optics ESX Performance)."""
    read_pct: float | None = None
    io_kb: float | None = None
    """The host's recorded I/O mix: share of reads (%) and mean size (KB)."""
    measured_by: str = ""
    """Where the recorded usage comes from (provenance text)."""
    vms_recorded: int | None = None
    """VMs the host runs by the inventory (vHost # VMs total or # VMs, the vCenter host's VM
    list): more than the VMs the export names on it, the host is partial."""


@dataclass
class Measured:
    """Workload figures measured for one VM, each with where it comes from."""

    cpu_mhz: float | None = None
    cpu_max_mhz: float | None = None
    cpu_ready_pct: float | None = None
    cpu_contention_pct: float | None = None
    memory_active_mib: float | None = None
    memory_consumed_mib: float | None = None
    memory_ballooned_mib: float | None = None
    memory_swapped_mib: float | None = None
    iops: float | None = None
    read_pct: float | None = None
    io_kb: float | None = None
    latency_ms: float | None = None
    """The mean latency over the window (compared with the model's mean)."""
    latency_peak_ms: float | None = None
    """A high latency: the highest sample, or the p95 or maximum of the samples (compared
    with the model's p95)."""
    oio: float | None = None
    net_mbps: float | None = None
    sources: dict[str, str] = field(default_factory=dict)
    """Figure group (``cpu``, ``memory``, ``io``, ``net``) -> provenance text."""


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
    orphaned: bool = False
    os: str = ""
    ft_state: str = ""
    ft_secondary: bool = False
    datastores: list[str] = field(default_factory=list)
    provisioned_mib: float | None = None
    in_use_mib: float | None = None
    partition_capacity_mib: float | None = None
    partition_consumed_mib: float | None = None
    adapter: str = ""
    latency_sensitivity: str = ""
    controllers: list[str] = field(default_factory=list)
    """The controller of each virtual disk, as the inventory names it."""
    thin_disks: int = 0
    disks: int = 0
    measured: Measured = field(default_factory=Measured)
    problem: str = ""
    """Why the VM cannot be imported (an unusable cell), or empty."""
    sized_from: str = ""
    """Where its size comes from when the VM list left it empty (``vCPU``, ``vMemory``)."""


@dataclass
class DatastoreRecord:
    name: str
    where: str
    type: str = ""
    capacity_mib: float | None = None
    hosts: list[str] = field(default_factory=list)
    sioc: bool | None = None
    provisioned_mib: float | None = None
    in_use_mib: float | None = None
    address: str = ""
    """NAA id of its (first) LUN, ``server:/export`` of an NFS datastore, or a URL."""
    host_count: int | None = None
    """Hosts that mount it as the inventory counts them (RVTools vDatastore ``# Hosts``), when
    it counts them apart from naming them in :attr:`hosts`."""
    local: bool | None = None
    """Whether the source says it is one host's own disks (Live Optics' Host Devices type
    ``Local``) or shared (``Cluster``; vCenter's ``multipleHostAccess``); None: it does not
    say, and a VMFS datastore that exactly one host mounts is taken to be local
    (:mod:`.arrays`)."""


@dataclass
class ClusterRecord:
    name: str
    where: str
    datacenter: str = ""
    ha_enabled: bool | None = None
    admission_control: bool | None = None
    failover_hosts: int | None = None
    cpu_failover_pct: float | None = None
    memory_failover_pct: float | None = None
    drs_enabled: bool | None = None
    drs_behavior: str = ""


@dataclass
class Estate:
    source: str
    hosts: list[HostRecord] = field(default_factory=list)
    vms: list[VmRecord] = field(default_factory=list)
    datastores: list[DatastoreRecord] = field(default_factory=list)
    clusters: list[ClusterRecord] = field(default_factory=list)
    taken: str = ""
    """When the inventory was taken (an export's date), for provenance; empty if unknown."""


@dataclass(frozen=True)
class Skipped:
    """One inventory row or object not imported as a component, and why."""

    where: str
    name: str
    reason: str

    def __str__(self) -> str:
        return f"{self.where} '{self.name}': {self.reason}"


@dataclass
class Coverage:
    """How much of the estate's runnable VMs the design holds where the inventory put them."""

    runnable: int = 0
    """VM rows that should run in the design: not templates or FT secondaries, powered on
    (or off, with --include-powered-off)."""
    on_their_host: int = 0
    by_cluster: int = 0
    """Their host is not in the inventory: placed on a host of their cluster."""
    unplaced: int = 0
    """Neither host nor cluster known: imported without a host (the canvas's Unplaced area)."""
    dropped: int = 0
    """Not imported (unusable cells, orphaned): each one named in the report."""
    measured_cpu: int = 0
    measured_memory: int = 0
    measured_io: int = 0
    partial_hosts: int = 0
    """Hosts that run more VMs than the export names on them (a filtered or renamed export)."""

    @property
    def ratio(self) -> float:
        """Share of the runnable VMs imported on their own host (1 when there are none)."""
        return self.on_their_host / self.runnable if self.runnable else 1.0

    def line(self) -> str:
        parts = [f"{self.on_their_host:,} of {kind_count('vm', self.runnable)} on their host"
                 f" ({self.ratio:.0%})"]
        if self.by_cluster:
            parts.append(f"{self.by_cluster:,} placed in their cluster (host not in the"
                         " export)")
        if self.unplaced:
            parts.append(f"{self.unplaced:,} unplaced (neither host nor cluster known)")
        if self.dropped:
            parts.append(f"{self.dropped:,} not imported")
        if self.partial_hosts:
            parts.append(f"{counted(self.partial_hosts, 'host')} partial (they run VMs the"
                         " export does not list)")
        n = max(self.runnable - self.dropped, 0)
        measured = (f"measured: CPU {self.measured_cpu:,}, memory {self.measured_memory:,},"
                    f" storage I/O {self.measured_io:,} of {kind_count('vm', n)}")
        return "coverage: " + ", ".join(parts) + "; " + measured

    def to_dict(self) -> dict[str, Any]:
        return {"runnable": self.runnable, "on_their_host": self.on_their_host,
                "by_cluster": self.by_cluster, "unplaced": self.unplaced,
                "dropped": self.dropped, "ratio": round(self.ratio, 4),
                "measured_cpu": self.measured_cpu, "measured_memory": self.measured_memory,
                "measured_io": self.measured_io, "partial_hosts": self.partial_hosts}


@dataclass
class Folded:
    """Many report entries of one kind said in one counted line ("91 NICs link down or speed
    unknown: vmnic2 on 34 hosts, ..."), each entry kept for the detail listing and --json."""

    line: str
    items: list[str] = field(default_factory=list)
    """Each entry, one line apiece ("vNIC row 14 'esx01 vmnic2'")."""
    reason: str = ""
    """The reason of the :attr:`ImportReport.skipped` rows it counts (they are listed in its
    stead, each one in the detail listing only); empty: a note, not skipped rows."""

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "items": list(self.items), "reason": self.reason}


@dataclass
class ImportReport:
    """What an import brought in, what it left out and what it had to assume."""

    source: str
    counts: dict[str, int] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    coverage: Coverage = field(default_factory=Coverage)
    placement: list[Skipped] = field(default_factory=list)
    """VMs imported away from their recorded host (in their cluster, or unplaced), and why."""
    provenance: list[str] = field(default_factory=list)
    """Where the design's measured figures come from, one line per source."""
    calibration: list[str] = field(default_factory=list)
    """The baseline check after the import (predicted vs recorded), as text lines."""
    folded: list[Folded] = field(default_factory=list)
    """Entries too many to list one a line where the report is read (:class:`Folded`)."""

    def skip(self, where: str, name: str, reason: str) -> None:
        self.skipped.append(Skipped(where, name, reason))

    def summary(self) -> str:
        c = self.counts

        def n(kind: str, key: str) -> str:
            return kind_count(kind, c.get(key, 0))

        local = c.get("local_storage", 0)  # hosts' own disks, apart from the shared arrays
        disks = counted(local, "host's local disks", "hosts' local disks") + ", " if local \
            else ""
        return (f"imported {self.source}: {n('vm', 'vms')} on {n('host', 'hosts')} in"
                f" {n('cluster', 'clusters')} at {n('site', 'sites')},"
                f" {n('storage_array', 'storage_arrays')}, {disks}{n('nic', 'nics')}"
                f" ({self.seconds:.1f} s)")

    def lines(self, limit: int = 40, dialog: bool = False) -> list[str]:
        """The report as text lines: summary, coverage, what was left out, then each
        skipped row.  ``dialog``: for the app's import dialog, which names its options by
        their labels, not by the command line's flags."""
        out = [self.summary(), "  " + self.coverage.line()]
        c = self.counts
        powered_off = "the import's option “Import powered-off VMs too”" if dialog else \
            "--include-powered-off"
        left = [counted(c[k], one, many) for k, one, many in (
            ("powered_off_skipped", f"powered-off VM ({powered_off} imports it)",
             f"powered-off VMs ({powered_off} imports them)"),
            ("powered_off_imported", "powered-off VM imported idle, tagged powered-off",
             "powered-off VMs imported idle, tagged powered-off"),
            ("templates", "template (templates do not run)", "templates (they do not run)"),
            ("ft_secondaries", "FT secondary (became the FT VM's secondary link)",
             "FT secondaries (became their FT VMs' secondary links)"),
        ) if c.get(k)]
        if left:
            out.append("  not imported as VMs / imported specially: " + ", ".join(left))
        reasons = Counter(_reason_key(s.reason) for s in self.skipped)
        if reasons:
            out.append(f"  skipped {len(self.skipped)}: " + ", ".join(
                f"{r} ({n})" for r, n in reasons.most_common()))
        folded = {f.reason for f in self.folded if f.reason}
        for f in self.folded:
            if f.reason:
                out.extend(self._folded(f, "skipped ", dialog))
        listed = [s for s in self.skipped if s.reason not in folded]
        for s in listed[:limit]:
            out.append(f"  skipped {s}")
        if len(listed) > limit:
            out.append(f"  ... and {len(listed) - limit} more (--json lists all)")
        for s in self.placement[:limit]:
            out.append(f"  placed {s}")
        if len(self.placement) > limit:
            out.append(f"  ... and {kind_count('vm', len(self.placement) - limit, 'more')}"
                       " placed by cluster or unplaced (--json lists all)")
        out.extend(f"  provenance: {n}" for n in self.provenance)
        for f in self.folded:
            if not f.reason:
                out.extend(self._folded(f, "note: ", dialog))
        out.extend(f"  note: {n}" for n in self.notes)
        out.extend(f"  {n}" for n in self.calibration)
        return out

    @staticmethod
    def _folded(f: Folded, head: str, dialog: bool) -> list[str]:
        """A folded entry's line; each of its items under it in the app's detail listing
        (``dialog``), the command line pointing to --json for them."""
        if dialog:
            return [f"  {head}{f.line}", *(f"    {item}" for item in f.items)]
        return [f"  {head}{f.line}" + (" (--json lists each)" if f.items else "")]

    def to_dict(self) -> dict[str, Any]:
        return {"format": "headroom-import-report", "version": 1, "source": self.source,
                "seconds": round(self.seconds, 3), "counts": dict(self.counts),
                "coverage": self.coverage.to_dict(),
                "skipped": [{"where": s.where, "name": s.name, "reason": s.reason}
                            for s in self.skipped],
                "placement": [{"where": s.where, "name": s.name, "reason": s.reason}
                              for s in self.placement],
                "provenance": list(self.provenance),
                "notes": list(self.notes), "calibration": list(self.calibration),
                "folded": [f.to_dict() for f in self.folded]}


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


def drop_invalid_values(design: Design, note: Callable[[str], None]) -> int:
    """Leave out every value an export gave that the design cannot hold (hundreds of digits,
    NaN, out of range), each named through ``note``, and repair names that are not valid
    Unicode; the design is then valid.  Returns how many values went."""
    dropped = 0
    for comp in design.components:
        fixed = repair_text(comp.name)
        if fixed is not comp.name:
            note(f"{comp.kind} '{fixed}': its name held text that is not valid Unicode;"
                 " repaired")
            comp.name = fixed
        specs = KINDS[comp.kind].props
        for key, value in list(comp.props.items()):
            problem = prop_problem(specs, comp.kind, key, value)
            if problem:
                del comp.props[key]
                dropped += 1
                note(f"{comp.kind} '{comp.name or comp.id}': {key} left at its default: the"
                     f" export's {describe_value(value)} is not usable ({problem})")
    for link in design.links:
        specs = LINKS[link.kind].props
        for key, value in list(link.props.items()):
            problem = prop_problem(specs, link.kind, key, value)
            if problem:
                del link.props[key]
                dropped += 1
                note(f"{link.kind} link '{link.source}' -> '{link.target}': {key} left at"
                     f" its default ({problem})")
    return dropped

