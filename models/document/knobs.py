"""The knob registry: every tuning knob the sliders, ``--set``, sweeps and reports offer.

A knob is a property of a kind (``vm.workload.io_oio``) or of the design
(``design.policy.cpu_util_max``) or of a link kind (``wan.rtt_ms``) with a slider range that is
usually narrower than what validation accepts, and the study that justifies its effect.  Type,
unit, choices and label come from :mod:`models.document.schema`; nothing is declared twice.  A
knob gives its own label only where the property's would be ambiguous without the component
kind around it (the knob panel lists every kind's knobs together): "Host memory" and "VM
memory" are both the property "Memory" (:data:`LABEL_OVERRIDES`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from models.document.design import Component, Design, selector_kind, split_path
from models.document.glossary import off_text
from models.document.numbers import choice, counted, signed_percent
from models.document.schema import (
    KINDS,
    LINKS,
    NO_IO_PROFILES,
    PropSpec,
    Value,
    prop_label,
    prop_spec,
)
from models.document.studies import (
    BEST_PRACTICES_4,
    CL_DEPLOY,
    CL_SYNC,
    CL_TUNING,
    DENSE,
    DOCKER_TX,
    DOCKER_WEB,
    DRS,
    FEDEX,
    FLASH51,
    FT4,
    FT6,
    HA,
    HYPERTHREADING,
    LICENSING,
    LRO,
    MCAST,
    ORACLE,
    PCOIP,
    PVSCSI,
    RAIDPOOL,
    SIOC,
    VAIO,
    VSAN,
    VSAN_PLANNING,
    cite,
)


@dataclass(frozen=True)
class Knob:
    path: str
    """``<kind>.<prop>``: kind is a component kind, a link kind or ``design``."""
    source: str
    """The study (and case ids) behind the knob's effect."""
    min: float | None = None
    max: float | None = None
    step: float | None = None
    log: bool = False
    group: str = ""
    override: str = ""
    """The knob's own label, where the property's needs its kind to be understood
    ("Host memory" for the property "Memory"); empty: the property's label."""
    needs: tuple[str, ...] = ()
    """What the design must contain for the knob to move anything (any one of these
    :data:`WORKLOADS`): "web" for the request rate; empty: its kind alone (cores, memory)."""
    imported: bool = False
    """An import reads or measures this property one value per VM (a VM of the ``measured``
    profile): the knob, which sets one value on every target, is never offered over such VMs
    (kind-wide on an imported estate, or a selection holding one), where it would wipe their
    figures; the :data:`MEASURED` knobs move them by a factor instead, and the Inspector sets
    one VM's."""
    relative: bool = False
    """The value is a change in % of the figures the design holds today (0: as they are):
    it reads "+20 %", and a sensitivity study's band halves and doubles those figures."""

    @property
    def label(self) -> str:
        """How the knob reads: its override, else its property's label (the schema's)."""
        return self.override or prop_label(self.kind, self.prop)

    @property
    def kind(self) -> str:
        return self.path.split(".", 1)[0]

    @property
    def prop(self) -> str:
        return self.path.split(".", 1)[1]

    @property
    def spec(self) -> PropSpec:
        spec = prop_spec(self.kind, self.prop)
        assert spec is not None, self.path
        return spec

    @property
    def unit(self) -> str:
        return self.spec.unit

    @property
    def choices(self) -> tuple[str, ...] | tuple[float, ...] | None:
        spec = self.spec
        if spec.type == "bool":
            return ("false", "true")
        return spec.choices

    def applies_to(self, design: Design) -> bool:
        return self in knobs_for(design)

    def text(self, value: Value) -> str:
        """The value as the knob panel shows it: a relative knob's ``+20 %`` (``as it is``
        at 0), any other's figure with its unit or choice in words."""
        if self.relative and isinstance(value, (int, float)) and not isinstance(value, bool):
            return AS_IS if abs(float(value)) < 1e-9 else signed_percent(float(value) / 100.0)
        off = self.spec.off
        if off is not None and isinstance(value, (int, float)) and not isinstance(value, bool) \
                and float(value) == off:  # "no vCPU:core ceiling", not "0 vCPUs per core"
            return off_text(self.kind, self.prop)
        return choice(self.prop, value, self.unit)

    def to_dict(self) -> dict[str, object]:
        spec = self.spec
        return {"path": self.path, "label": self.label, "unit": spec.unit, "type": spec.type,
                "min": self.min, "max": self.max, "step": self.step, "log": self.log,
                "choices": list(self.choices) if self.choices else None,
                "kinds": [self.kind], "default": spec.default, "group": self.group,
                "source": self.source}


CAPACITY = "Storage capacity: space in use grown by the plan's growth"
"""The storage-growth knob's source: Headroom's own arithmetic, no study."""

OVERCOMMIT = "Overcommit ceilings: the architect's own policy (vCPUs per core, memory)"
"""The overcommit ceilings' source: a design policy, no study."""

GROWTH = ("Growth over years: compound rates a year per resource over a horizon, as capacity"
          " planners project them (no study)")
"""The growth knobs' source: the sizers' convention, no study."""

SCALED = "The design's own figures, measured or set, each moved by this factor (no study)"
"""The measured-demand knobs' source: arithmetic on what the import measured."""

AS_IS = "as it is"
"""A relative knob at 0: the figures as measured or set."""
WORKLOADS = {
    "io": "a VM doing storage I/O (a profile that keeps I/Os in flight, a measured I/O rate,"
          " an application's transactions)",
    "closed_io": "a VM keeping outstanding I/Os in flight (a closed loop, not a measured rate)",
    "web": "a web VM (requests)",
    "net": "a VM moving network traffic (netperf, a file transfer, multicast, desktops, an"
           " application, an offered load)",
    "netperf": "a netperf or file-transfer VM",
    "multicast_rx": "a multicast receiver",
    "vdi": "a virtual desktop",
    "app": "an application of users",
    "ft": "an FT-protected VM",
    "guest_cpu": "a VM whose CPU demand is its own (not a web VM's requests)",
    "space": "storage space to plan (an array's or a disk's used space)",
    "testbed": "a VM of a study's testbed (a profile other than measured or idle)",
    "stretched": "sites linked by WAN (a stretched cluster's vSAN writes cross it)",
    "measured": "a VM an import measured or read (workload profile measured)",
    "measured_io": "a measured VM with a measured I/O rate",
    "measured_space": "storage space in use on an imported estate",
    "vsan": "a vSAN cluster (vsan.architecture esa or osa, in the design or a scenario)",
}
"""What a knob may need the design to contain (:attr:`Knob.needs`): an imported estate
(measured VMs, no web or testbed VMs) sees the knobs that move it - cores, clock, memory,
HA, the ceilings, its measured I/O once it has some - and a testbed its study's knobs."""
IO, NET, WEB = ("io",), ("net",), ("web",)
TRANSFER, APP, TESTBED = ("netperf",), ("app",), ("testbed",)
VSAN_CLUSTER = ("vsan",)

KNOBS: tuple[Knob, ...] = (
    # storage
    Knob("vm.workload.io_oio", VAIO.title, 1, 256, 1, log=True, group="Storage",
         needs=("closed_io",)),
    Knob("vm.workload.io_block_kb", FLASH51.title, 0.5, 1024, None, log=True, group="Storage",
         needs=IO, imported=True),
    Knob("vm.workload.io_read_pct", RAIDPOOL.title, 0, 100, 5, group="Storage", needs=IO,
         imported=True),
    Knob("vm.vscsi", PVSCSI.title, group="Storage", needs=IO),
    Knob("vm.vaio_filter", VAIO.title, group="Storage", needs=IO),
    Knob("storage_array.raid", RAIDPOOL.title, group="Storage", needs=IO),
    Knob("storage_array.layout", RAIDPOOL.title, group="Storage", needs=IO),
    Knob("storage_array.media", RAIDPOOL.title, group="Storage", needs=IO),
    Knob("storage_array.disks", RAIDPOOL.title, 1, 500, 1, log=True, group="Storage",
         needs=IO),
    Knob("storage_array.sioc", SIOC.title, group="Storage", needs=IO),
    # network
    Knob("nic.speed_gbps", FEDEX.title, group="Network", override="NIC speed",
         needs=(*NET, "ft")),
    Knob("nic.pcie_gen", FEDEX.title, 1, 5, 1, group="Network", needs=NET),
    Knob("nic.pcie_lanes", FEDEX.title, group="Network", needs=NET),
    Knob("nic.lro", LRO.title, group="Network", needs=NET),
    Knob("nic.vmdq", FEDEX.title, group="Network", needs=NET),
    Knob("vm.workload.net_peer", LRO.title, group="Network", needs=TRANSFER),
    Knob("vm.vnic", LRO.title, group="Network", needs=NET),
    Knob("vm.workload.net_msg_bytes", LRO.title, 64, 65536, None, log=True, group="Network",
         needs=TRANSFER),
    Knob("vm.workload.net_streams", FEDEX.title, 1, 64, 1, log=True, group="Network",
         needs=TRANSFER),
    Knob("vm.workload.net_tool", FEDEX.title, group="Network", needs=TRANSFER),
    Knob("vm.workload.net_crypto", FEDEX.title, group="Network", needs=TRANSFER),
    Knob("vm.workload.net_cipher", FEDEX.title, group="Network", needs=TRANSFER),
    Knob("vm.workload.net_mac", FEDEX.title, group="Network", needs=TRANSFER),
    Knob("host.aes_ni", FEDEX.title, group="Network", needs=TRANSFER),
    Knob("vm.workload.net_rtt_ms", FEDEX.title, 0.05, 200, None, log=True, group="Network",
         needs=TRANSFER),
    Knob("vm.workload.multicast_pps", MCAST.title, 0, 100000, 1000, group="Network",
         needs=("multicast_rx",)),
    Knob("vm.split_rx", MCAST.title, group="Network", needs=("multicast_rx",)),
    Knob("vm.workload.pcoip_codec", PCOIP.title, group="VDI", needs=("vdi",)),
    Knob("vm.workload.pcoip_client_cache", PCOIP.title, group="VDI", needs=("vdi",)),
    Knob("vm.workload.pcoip_build_to_lossless", PCOIP.title, group="VDI", needs=("vdi",)),
    Knob("vm.workload.pcoip_kbps", PCOIP.title, 10, 5000, None, log=True, group="VDI",
         needs=("vdi",)),
    Knob("vm.workload.net_rx_mbps", FT4.title, 0, 100000, None, group="Network",
         needs=TRANSFER),
    # fault tolerance
    Knob("vm.ft", FT4.title, group="Fault Tolerance", needs=("ft", "testbed")),
    Knob("ft_secondary_on.rtt_ms", FT4.title, 0.05, 5, None, log=True, group="Fault Tolerance",
         override="FT link round trip"),
    # consolidation
    Knob("host.dense_mode", DENSE.title, group="Consolidation", needs=WEB),
    Knob("host.hyperthreading", f"{HYPERTHREADING.title} (a busy core's thread gets slightly"
         " more than half its throughput)", group="Consolidation"),
    Knob("host.cores_per_socket", DENSE.title, 1, 64, 1, group="Consolidation"),
    # what every design has: an estate without FT sees them here, not under Fault Tolerance
    Knob("vm.vcpus", FT6.title, 1, 128, 1, log=True, group="Consolidation", imported=True),
    Knob("host.esxi_version", cite(FT6, ORACLE), group="Consolidation"),
    Knob("host.ghz", DENSE.title, 1.0, 4.0, 0.1, group="Consolidation"),
    Knob("host.memory_gb", BEST_PRACTICES_4.title, 32, 4096, None, log=True,
         group="Consolidation", override="Host memory"),
    Knob("vm.memory_gb", BEST_PRACTICES_4.title, 0.5, 256, None, log=True,
         group="Consolidation", override="VM memory", imported=True),
    Knob("vm.latency_sensitivity", DOCKER_WEB.title, group="Consolidation", needs=WEB),
    Knob("vm.workload.req_per_s", DENSE.title, 0, 2000, None, group="Consolidation",
         needs=WEB),
    Knob("vm.workload.cpu_pct", DOCKER_WEB.title, 0, 100, 1, group="Consolidation",
         needs=("guest_cpu",), imported=True),
    # an imported estate's own figures, each moved by a factor (models/core/demand.py)
    Knob("design.demand.cpu_pct", SCALED, -50, 200, 5, group="Measured demand",
         needs=("measured",), relative=True),
    Knob("design.demand.memory_pct", SCALED, -50, 200, 5, group="Measured demand",
         needs=("measured",), relative=True),
    Knob("design.demand.storage_pct", SCALED, -50, 200, 5, group="Measured demand",
         needs=("measured_space",), relative=True),
    Knob("design.demand.iops_pct", SCALED, -50, 200, 5, group="Measured demand",
         needs=("measured_io",), relative=True),
    Knob("design.policy.cpu_util_max", DENSE.title, 0.5, 1.0, 0.01, group="Policy"),
    Knob("design.policy.memory_util_max", BEST_PRACTICES_4.title, 0.5, 1.0, 0.01,
         group="Policy"),
    Knob("design.policy.p95_ms_max", DENSE.title, 1, 1000, None, log=True, group="Policy",
         needs=(*WEB, *IO)),
    Knob("design.policy.ha_spare_hosts", DENSE.title, 0, 8, 1, group="Policy"),
    Knob("design.policy.storage_growth_pct", CAPACITY, 0, 200, 5, group="Policy",
         needs=("space",)),
    Knob("design.policy.vcpu_per_core_max", OVERCOMMIT, 0, 16, 0.5, group="Policy"),
    Knob("design.policy.memory_overcommit_max", OVERCOMMIT, 0, 3, 0.1, group="Policy"),
    Knob("cluster.ha_enabled", HA.title, group="Policy"),
    Knob("cluster.admission_control", HA.title, group="Policy"),
    Knob("cluster.failover_hosts", HA.title, 0, 4, 1, group="Policy"),
    Knob("cluster.cpu_failover_pct", HA.title, 0, 50, 1, group="Policy"),
    Knob("cluster.memory_failover_pct", HA.title, 0, 50, 1, group="Policy"),
    Knob("cluster.drs_enabled", DRS.title, group="Policy"),
    # vSAN capacity: the policy's layout, the data reduction assumed, the hosts' devices
    Knob("cluster.vsan.policy", VSAN_PLANNING.title, group="vSAN", needs=VSAN_CLUSTER),
    Knob("cluster.vsan.ftt", VSAN_PLANNING.title, 1, 3, 1, group="vSAN", needs=VSAN_CLUSTER),
    Knob("cluster.vsan.compression", VSAN_PLANNING.title, 1.0, 3.0, 0.05, group="vSAN",
         needs=VSAN_CLUSTER),
    Knob("host.vsan.devices", VSAN_PLANNING.title, 1, 24, 1, group="vSAN",
         needs=VSAN_CLUSTER),
    Knob("host.vsan.device_tb", VSAN_PLANNING.title, 0.96, 15.36, None, log=True,
         group="vSAN", needs=VSAN_CLUSTER),
    # growth over years (models/core/growth.py): the rates a year and the year evaluated
    Knob("design.growth.cpu_pct", GROWTH, -20, 100, 1, group="Growth"),
    Knob("design.growth.memory_pct", GROWTH, -20, 100, 1, group="Growth"),
    Knob("design.growth.storage_pct", GROWTH, -20, 100, 1, group="Growth"),
    Knob("design.growth.iops_pct", GROWTH, -20, 100, 1, group="Growth"),
    Knob("design.growth.vms_pct", GROWTH, -20, 100, 1, group="Growth"),
    Knob("design.growth.year", GROWTH, 0, 10, 0.25, group="Growth"),
    # licensing
    Knob("design.policy.licence_edition", LICENSING.title, group="Licensing"),
    Knob("design.policy.licence_price_per_core", LICENSING.title, 0, 1000, 5,
         group="Licensing"),
    Knob("design.policy.licence_order_minimum", LICENSING.title, group="Licensing"),
    # CPU virtualisation
    Knob("host.platform", ORACLE.title, group="CPU virtualisation", needs=TESTBED),
    Knob("vm.containers", DOCKER_TX.title, 0, 32, 1, group="CPU virtualisation",
         needs=TESTBED),
    Knob("vm.numa_aware", DOCKER_TX.title, group="CPU virtualisation", needs=TESTBED),
    # an application in its own terms (issue 16)
    Knob("vm.workload.app_users", VSAN.title, 1, 10000, 1, log=True, group="Application",
         needs=APP),
    Knob("vm.workload.app_think_ms", VSAN.title, 0, 10000, None, group="Application",
         needs=APP),
    Knob("vm.workload.app_cpu_ms", ORACLE.title, 0.01, 1000, None, log=True,
         group="Application", needs=APP),
    Knob("vm.workload.app_ios_per_txn", ORACLE.title, 0.1, 1000, None, log=True,
         group="Application", needs=APP),
    # stretched cluster
    Knob("wan.rtt_ms", VSAN.title, 0, 10, 0.1, group="Stretched cluster",
         override="Inter-site latency"),
    Knob("storage_array.vsan_write_round_trips", VSAN.title, 1, 4, 1,
         group="Stretched cluster", needs=("stretched",)),
    Knob("wan.gbps", VSAN.title, 0.1, 100, None, log=True, group="Stretched cluster",
         override="Inter-site bandwidth"),
    # content library
    Knob("content_library.operation", CL_SYNC.title, group="Content Library",
         override="Library operation"),
    Knob("content_library.backing", CL_SYNC.title, group="Content Library",
         override="Library backing"),
    Knob("content_library.enhanced_linked_mode", CL_SYNC.title, group="Content Library"),
    Knob("content_library.network_gbps", CL_SYNC.title, group="Content Library",
         override="Library network"),
    Knob("content_library.https", CL_SYNC.title, group="Content Library"),
    Knob("content_library.rhttpproxy", CL_SYNC.title, group="Content Library"),
    Knob("content_library.deploy_path", CL_DEPLOY.title, group="Content Library"),
    Knob("content_library.import_source", CL_SYNC.title, group="Content Library"),
    Knob("content_library.items", CL_SYNC.title, 1, 100, 1, log=True, group="Content Library"),
    Knob("content_library.item_gb", CL_DEPLOY.title, 1, 1000, None, log=True,
         group="Content Library"),
    Knob("content_library.max_concurrent_transfers", CL_TUNING.title, 1, 100, 1,
         group="Content Library"),
    Knob("content_library.max_concurrent_sync_items", CL_TUNING.title, 1, 50, 1,
         group="Content Library"),
    Knob("content_library.max_bandwidth_mbps", CL_TUNING.title, 0, 10000, 50,
         group="Content Library"),
    Knob("content_library.mirror_server", CL_TUNING.title, group="Content Library"),
)
"""Every knob, in the knob panel's order.  Nine give their own label (:attr:`Knob.override`):
memory, NIC speed, the FT link's and the WAN's round trip and bandwidth, and a library's
operation, backing and network, which read the same for every kind in the property's words."""

_BY_PATH = {k.path: k for k in KNOBS}


def knob(path: str) -> Knob | None:
    return _BY_PATH.get(path)


def knob_at(design: Design, path: str) -> Knob | None:
    """The knob a command-line path addresses: ``vm.workload.io_oio`` directly, and through a
    selector (``id:v1.workload.io_oio``, ``tag:web.workload.req_per_s``) the knob of the
    selected component's kind (a path alone does not say that kind)."""
    select, prop = split_path(path)
    kind = selector_kind(design, select)
    return knob(f"{kind}.{prop}") if kind else None


def knobs_for(design: Design) -> list[Knob]:
    """The knobs that apply to ``design``: a component or link of their kind exists and, for
    a knob that :attr:`~Knob.needs` a workload, the design has it (:func:`workloads`), or a
    scenario sets the knob.  On an imported estate (a VM of the ``measured`` profile) the
    :attr:`~Knob.imported` knobs are left out (they would set its VMs' own figures to one
    value); the :data:`MEASURED` knobs move those figures by a factor."""
    present = kinds_present(design)
    has = workloads(design)
    set_by_scenarios = {(selector_kind(design, o.select) or o.select, o.prop)
                        for sc in design.scenarios for o in sc.overrides}
    return [k for k in KNOBS if k.kind in present
            and (not k.imported or "measured" not in has
                 or (k.kind, k.prop) in set_by_scenarios)
            and (not k.needs or has.intersection(k.needs)
                 or (k.kind, k.prop) in set_by_scenarios)]


def knobs_for_selection(design: Design, selected: list[Component],
                        applicable: list[Knob] | None = None) -> list[Knob]:
    """The knobs the knob panel offers for the components ``selected``: those of their kinds
    that apply to ``design`` (``applicable``, :func:`knobs_for`, when known), but no
    :attr:`~Knob.imported` knob over a selection holding an imported VM (the Inspector sets
    one VM's figure), and, on an imported estate, the imported knobs of a selection of VMs
    drawn by hand, where the VMs run what they move."""
    applicable = knobs_for(design) if applicable is None else applicable
    kinds = {c.kind for c in selected}
    if any(is_imported(c) for c in selected):
        return [k for k in applicable if k.kind in kinds and not k.imported]
    theirs: set[str] | None = None
    out = []
    for k in KNOBS:
        if k.kind not in kinds:
            continue
        if k in applicable:
            out.append(k)
        elif k.imported:
            if theirs is None:  # what the selected VMs run (a few, read once)
                theirs = workloads(Design(components=list(selected)))
            if not k.needs or theirs.intersection(k.needs):
                out.append(k)
    return out


def is_imported(c: Component) -> bool:
    """Whether ``c`` is a VM an import measured or read (workload profile ``measured``)."""
    return c.kind == "vm" and c.props.get("workload.profile") == "measured"


MEASURED = ("design.demand.cpu_pct", "design.demand.memory_pct", "design.demand.storage_pct",
            "design.demand.iops_pct")
"""The knobs that move an imported estate's own figures by a factor
(:mod:`models.core.demand`)."""

_PROVENANCE = {"demand.cpu_pct": ("provenance.cpu",), "demand.memory_pct": ("provenance.memory",),
               "demand.iops_pct": ("provenance.io", "provenance.net")}
"""Where a measured-demand knob's figures say they come from, per VM."""


def measured_sources(design: Design, k: Knob, limit: int = 2) -> str:
    """Where the figures a :data:`MEASURED` knob moves came from, counted by source: ``57 VMs
    measured: Live Optics VM Performance Peak vCPU; 8 VMs solved: ...`` ("" when no VM says;
    disk space, which no provenance names, reads as the import's)."""
    vms = [c for c in design.components if is_imported(c)]
    if k.prop == "demand.storage_pct":
        used = sum(1 for c in vms if c.props.get("disk.used_gb") is not None)
        return (f"disk space in use of {counted(used, 'VM')} as imported" if used else "")
    found: Counter[str] = Counter()
    for c in vms:
        for prop in _PROVENANCE.get(k.prop, ()):
            text = str(c.props.get(prop) or "")
            if text:
                found[_source_head(text)] += 1
                break
    parts = [f"{counted(n, 'VM')} {text}" for text, n in found.most_common(limit)]
    more = len(found) - limit
    return "; ".join(parts) + (f"; {counted(more, 'other source')}" if more > 0 else "")


def _source_head(text: str) -> str:
    """A provenance's kind and source, without the per-VM or per-host detail that follows
    (``measured: Live Optics VM Performance Peak vCPU`` of ``... at its host's peak: 32% of
    ...``, ``solved: share by vCPUs`` of ``... of host esx03's recorded CPU usage ...``)."""
    cut = len(text)
    for mark in (" at its", " of host ", " on host ", " (", "; ", ", "):
        i = text.find(mark, text.find(":") + 1)
        if 0 <= i < cut:
            cut = i
    return text[:cut].strip()


_VM_READS = ("workload.profile", "workload.io_iops", "workload.app_users",
             "workload.net_rx_mbps", "workload.net_tx_mbps", "ft", "disk.used_gb")
"""What :func:`workloads` reads of each VM."""


def workloads(design: Design) -> set[str]:
    """What ``design`` contains of :data:`WORKLOADS`: each VM's few values read once (only
    those some VM sets), and each distinct set of them judged once (50,000 VMs are a handful
    of sets)."""
    out: set[str] = set()
    for profile_value, rate, users, rx, tx, ft, used in _vm_sets(design):
        profile = str(profile_value)
        app = _number(users) > 0
        if profile not in NO_IO_PROFILES or _number(rate) > 0 or (app and profile != "web"):
            out.add("io")
            if profile not in NO_IO_PROFILES and rate is None and not app:
                out.add("closed_io")
        if profile in ("netperf", "file_transfer", "multicast_rx", "vdi") or app \
                or _number(rx) > 0 or _number(tx) > 0:
            out.add("net")
        if profile in ("netperf", "file_transfer"):
            out.add("netperf")
        if profile in ("web", "multicast_rx", "vdi"):
            out.add(profile)
        if app:
            out.add("app")
        if ft:
            out.add("ft")
        if profile not in ("web", "idle", "cpu_bound"):
            out.add("guest_cpu")
        if profile not in ("measured", "idle"):
            out.add("testbed")
        if profile == "measured":
            out.add("measured")
            if _number(rate) > 0:
                out.add("measured_io")
        if used is not None:
            out.add("space")
    if any(a.get("used_gb") is not None or a.get("capacity_gb") is not None
           for a in design.of_kind("storage_array")):
        out.add("space")
    if any(lk.kind == "wan" for lk in design.links):
        out.add("stretched")
    if {"measured", "space"} <= out:
        out.add("measured_space")
    if _has_vsan(design):
        out.add("vsan")
    return out


def _has_vsan(design: Design) -> bool:
    """A cluster of ``design`` runs vSAN, or a scenario turns vSAN on for one (a refresh to
    vSAN keeps the clusters' settings as its overrides)."""
    off = KINDS["cluster"].props["vsan.architecture"].default
    return any(c.kind == "cluster" and c.props.get("vsan.architecture", off) != off
               for c in design.components) \
        or any(o.prop == "vsan.architecture" and o.value != off
               for sc in design.scenarios for o in sc.overrides)


def _vm_sets(design: Design) -> set[tuple[Value, ...]]:
    """The distinct tuples of :data:`_VM_READS` values the VMs of ``design`` hold (defaults
    filled in), reading by the column the values some VM sets."""
    props = [c.props for c in design.components if c.kind == "vm"]
    if not props:
        return set()
    present: set[str] = set().union(*props)
    defaults = [KINDS["vm"].props[name].default for name in _VM_READS]
    columns = {name: [p.get(name, default) for p in props]
               for name, default in zip(_VM_READS, defaults, strict=True) if name in present}
    if not columns:
        return {tuple(defaults)}
    out = set()
    for values in set(zip(*columns.values(), strict=True)):
        given = dict(zip(columns, values, strict=True))
        out.add(tuple(given.get(name, default)
                      for name, default in zip(_VM_READS, defaults, strict=True)))
    return out


WORKLOAD_PROPS = frozenset({"workload.profile", "workload.io_iops", "workload.app_users",
                            "workload.net_rx_mbps", "workload.net_tx_mbps", "ft",
                            "disk.used_gb", "used_gb", "capacity_gb", "vsan.architecture"})
"""The properties :func:`workloads` reads: an edit of one may change the knobs that apply."""


def kinds_present(design: Design) -> set[str]:
    """The component and link kinds ``design`` has, and ``design`` itself (one pass: a
    50,000-VM design was scanned once per knob)."""
    return ({"design"} | {c.kind for c in design.components}
            | {lk.kind for lk in design.links})


def _number(v: object) -> float:
    """``v`` as a number (0 for anything else: None, a string)."""
    return float(v) if isinstance(v, (int, float)) else 0.0


PROFILE_KNOBS = {
    "web": "vm.workload.req_per_s",
    "netperf": "vm.workload.net_msg_bytes",
    "file_transfer": "vm.workload.net_streams",
    "multicast_rx": "vm.workload.multicast_pps",
    "vdi": "vm.workload.pcoip_kbps",
    "cpu_bound": "vm.workload.cpu_pct",
}
"""The knob whose curve tells most about a workload profile (outstanding I/Os otherwise)."""


MEASURED_KNOBS = ("design.demand.iops_pct", "design.demand.cpu_pct", "design.growth.year")
"""The curves an imported estate (``measured`` VMs) opens on, the questions an estate's
what-if starts from (issue 39: it opened on cores per socket, a knob no estate question
starts from): its measured storage I/O grown when some VM has measured I/O (the arrays'
latency and IOPS as it grows), its measured CPU demand grown otherwise (the hosts' CPU, mean
and busiest, and the hosts needed as it grows); the year where the design has growth rates
(every figure as the years pass)."""
GROWTH_RATES = ("growth.cpu_pct", "growth.memory_pct", "growth.storage_pct",
                "growth.iops_pct", "growth.vms_pct")


APP_KNOBS = ("wan.rtt_ms", "vm.workload.app_users")
"""The curves a design of application VMs (a closed loop of users) opens on: the inter-site
latency of a stretched cluster (the study's own curve: its throughput falls as the sites move
apart), else the application's users (outstanding I/Os do not drive a closed loop of users)."""


LIBRARY_KNOB = "content_library.item_gb"
"""The curve a Content Library design (no VM workload) opens on: job time by item size."""


def default_knob(design: Design, choices: list[Knob] | None = None) -> Knob | None:
    """The knob whose curve a design opens on: the one that drives its most common workload
    profile other than idle (request rate for a web farm, message size for netperf, streams
    for a file transfer, :data:`APP_KNOBS` for applications, :data:`MEASURED_KNOBS` for an
    imported estate: its growth, ...), else outstanding I/Os, else (I/O at a set rate, which
    outstanding I/Os do not move) the arrays' drives, else the first knob that applies
    (``choices``: the design's :func:`knobs_for`, when known)."""
    if choices is None:
        choices = knobs_for(design)
    vms = [c for c in design.components if c.kind == "vm"]
    unset = KINDS["vm"].props["workload.profile"].default
    named = [str(v.props.get("workload.profile", unset)) for v in vms]  # one pass
    profiles = Counter(named)
    profiles.pop("idle", None)
    common = profiles.most_common(1)[0][0] if profiles else ""
    library = "" if common or not design.of_kind("content_library") else LIBRARY_KNOB
    first = PROFILE_KNOBS.get(common, library)
    mains = [v for v, p in zip(vms, named, strict=True) if p == common]
    no_users = KINDS["vm"].props["workload.app_users"].default
    if any(isinstance(u := v.props.get("workload.app_users", no_users), (int, float)) and u > 0
           for v in mains):  # an application's closed loop: its users, or across sites
        first = APP_KNOBS[0] if knob(APP_KNOBS[0]) in choices else APP_KNOBS[1]
    elif common == "measured":
        with_io = any(v.get("workload.io_iops") is not None for v in mains)
        growing = any(_number(design.policy_value(r)) for r in GROWTH_RATES)
        first = MEASURED_KNOBS[2] if growing else MEASURED_KNOBS[0] if with_io \
            else MEASURED_KNOBS[1]
    for path in (first, "vm.workload.io_oio", "storage_array.disks"):  # an open loop: drives
        k = knob(path)
        if k is not None and k in choices:
            return k
    return choices[0] if choices else None


def _check_registry() -> None:
    for k in KNOBS:
        if k.kind not in KINDS and k.kind not in LINKS and k.kind != "design":
            raise AssertionError(f"knob {k.path}: unknown kind")
        if prop_spec(k.kind, k.prop) is None:
            raise AssertionError(f"knob {k.path}: unknown property")


_check_registry()
