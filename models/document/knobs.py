"""The knob registry: every tuning knob the sliders, ``--set``, sweeps and reports offer.

A knob is a property of a kind (``vm.workload.io_oio``) or of the design
(``design.policy.cpu_util_max``) or of a link kind (``wan.rtt_ms``) with a slider range that is
usually narrower than what validation accepts, a label, and the study that justifies its
effect.  Type, unit and choices come from :mod:`models.document.schema`; nothing is declared twice.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from models.document.design import Design, selector_kind, split_path
from models.document.schema import KINDS, LINKS, PropSpec, prop_spec
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
    LRO,
    MCAST,
    ORACLE,
    PCOIP,
    PVSCSI,
    RAIDPOOL,
    SIOC,
    VAIO,
    VSAN,
    cite,
)


@dataclass(frozen=True)
class Knob:
    path: str
    """``<kind>.<prop>``: kind is a component kind, a link kind or ``design``."""
    label: str
    source: str
    """The study (and case ids) behind the knob's effect."""
    min: float | None = None
    max: float | None = None
    step: float | None = None
    log: bool = False
    group: str = ""

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
        return self.kind in kinds_present(design)

    def to_dict(self) -> dict[str, object]:
        spec = self.spec
        return {"path": self.path, "label": self.label, "unit": spec.unit, "type": spec.type,
                "min": self.min, "max": self.max, "step": self.step, "log": self.log,
                "choices": list(self.choices) if self.choices else None,
                "kinds": [self.kind], "default": spec.default, "group": self.group,
                "source": self.source}


CAPACITY = "Storage capacity: space in use grown by the plan's growth"
"""The storage-growth knob's source: Headroom's own arithmetic, no study."""

KNOBS: tuple[Knob, ...] = (
    # storage
    Knob("vm.workload.io_oio", "Outstanding I/Os", VAIO.title, 1, 256, 1, log=True,
         group="Storage"),
    Knob("vm.workload.io_block_kb", "I/O size", FLASH51.title, 0.5, 1024, None, log=True,
         group="Storage"),
    Knob("vm.workload.io_read_pct", "Read share", RAIDPOOL.title, 0, 100, 5, group="Storage"),
    Knob("vm.vscsi", "Virtual SCSI adapter", PVSCSI.title, group="Storage"),
    Knob("vm.vaio_filter", "VAIO I/O filter", VAIO.title, group="Storage"),
    Knob("storage_array.raid", "RAID level", RAIDPOOL.title, group="Storage"),
    Knob("storage_array.layout", "RAID group or pool", RAIDPOOL.title, group="Storage"),
    Knob("storage_array.media", "Drive media", RAIDPOOL.title, group="Storage"),
    Knob("storage_array.disks", "Drives", RAIDPOOL.title, 1, 500, 1, log=True, group="Storage"),
    Knob("storage_array.sioc", "Storage I/O Control", SIOC.title, group="Storage"),
    # network
    Knob("nic.speed_gbps", "NIC speed", FEDEX.title, group="Network"),
    Knob("nic.pcie_gen", "PCIe generation", FEDEX.title, 1, 5, 1, group="Network"),
    Knob("nic.pcie_lanes", "PCIe lanes", FEDEX.title, group="Network"),
    Knob("nic.lro", "Large receive offload", LRO.title, group="Network"),
    Knob("nic.vmdq", "NetQueue / VMDq", FEDEX.title, group="Network"),
    Knob("vm.workload.net_peer", "Network partner (pNIC or a VM on the same host)", LRO.title,
         group="Network"),
    Knob("vm.vnic", "Virtual NIC", LRO.title, group="Network"),
    Knob("vm.workload.net_msg_bytes", "Message size", LRO.title, 64, 65536, None, log=True,
         group="Network"),
    Knob("vm.workload.net_streams", "Parallel streams", FEDEX.title, 1, 64, 1, log=True,
         group="Network"),
    Knob("vm.workload.net_tool", "Transfer tool", FEDEX.title, group="Network"),
    Knob("vm.workload.net_crypto", "Transfer encryption", FEDEX.title, group="Network"),
    Knob("vm.workload.net_cipher", "Transfer cipher", FEDEX.title, group="Network"),
    Knob("vm.workload.net_mac", "Transfer MAC", FEDEX.title, group="Network"),
    Knob("host.aes_ni", "AES-NI instructions", FEDEX.title, group="Network"),
    Knob("vm.workload.net_rtt_ms", "Transfer round trip", FEDEX.title, 0.05, 200, None, log=True,
         group="Network"),
    Knob("vm.workload.multicast_pps", "Multicast packet rate", MCAST.title, 0, 100000, 1000,
         group="Network"),
    Knob("vm.split_rx", "splitRxMode", MCAST.title, group="Network"),
    Knob("vm.workload.pcoip_codec", "PCoIP lossless codec", PCOIP.title, group="VDI"),
    Knob("vm.workload.pcoip_client_cache", "PCoIP client cache", PCOIP.title, group="VDI"),
    Knob("vm.workload.pcoip_build_to_lossless", "PCoIP build to lossless", PCOIP.title,
         group="VDI"),
    Knob("vm.workload.pcoip_kbps", "PCoIP bandwidth (View 4.x settings)", PCOIP.title, 10, 5000,
         None, log=True, group="VDI"),
    Knob("vm.workload.net_rx_mbps", "Offered receive load", FT4.title, 0, 100000, None,
         group="Network"),
    # fault tolerance
    Knob("vm.ft", "Fault Tolerance", FT4.title, group="Fault Tolerance"),
    Knob("vm.vcpus", "vCPUs", FT6.title, 1, 128, 1, log=True, group="Fault Tolerance"),
    Knob("ft_secondary_on.rtt_ms", "FT link round trip", FT4.title, 0.05, 5, None, log=True,
         group="Fault Tolerance"),
    Knob("host.esxi_version", "ESXi version (FT generation, hypervisor overhead)",
         cite(FT6, ORACLE), group="Fault Tolerance"),
    # consolidation
    Knob("host.dense_mode", "Dense mode", DENSE.title, group="Consolidation"),
    Knob("host.hyperthreading", "Hyperthreading",
         f"{HYPERTHREADING.title} (a busy core's thread gets slightly"
         " more than half its throughput)", group="Consolidation"),
    Knob("host.cores_per_socket", "Cores per socket", DENSE.title, 1, 64, 1, group="Consolidation"),
    Knob("host.ghz", "Core clock", DENSE.title, 1.0, 4.0, 0.1, group="Consolidation"),
    Knob("host.memory_gb", "Host memory", BEST_PRACTICES_4.title,
         32, 4096, None, log=True,
         group="Consolidation"),
    Knob("vm.memory_gb", "VM memory", BEST_PRACTICES_4.title, 0.5,
         256, None, log=True, group="Consolidation"),
    Knob("vm.latency_sensitivity", "Latency sensitivity", DOCKER_WEB.title, group="Consolidation"),
    Knob("vm.workload.req_per_s", "Requests per second", DENSE.title, 0, 2000, None,
         group="Consolidation"),
    Knob("vm.workload.cpu_pct", "Guest CPU demand", DOCKER_WEB.title, 0, 100, 1,
         group="Consolidation"),
    Knob("design.policy.cpu_util_max", "CPU utilisation ceiling", DENSE.title, 0.5, 1.0, 0.01,
         group="Policy"),
    Knob("design.policy.p95_ms_max", "p95 response-time ceiling", DENSE.title, 1, 1000, None,
         log=True, group="Policy"),
    Knob("design.policy.ha_spare_hosts", "HA spare hosts", DENSE.title, 0, 8, 1, group="Policy"),
    Knob("design.policy.storage_growth_pct", "Storage growth to plan for", CAPACITY, 0, 200, 5,
         group="Policy"),
    Knob("cluster.ha_enabled", "vSphere HA", HA.title, group="Policy"),
    Knob("cluster.admission_control", "HA admission control", HA.title, group="Policy"),
    Knob("cluster.failover_hosts", "Host failures the cluster tolerates", HA.title, 0, 4, 1,
         group="Policy"),
    Knob("cluster.cpu_failover_pct", "CPU reserved for failover", HA.title, 0, 50, 1,
         group="Policy"),
    Knob("cluster.memory_failover_pct", "Memory reserved for failover", HA.title, 0, 50, 1,
         group="Policy"),
    Knob("cluster.drs_enabled", "DRS", DRS.title, group="Policy"),
    # CPU virtualisation
    Knob("host.platform", "ESXi or native (bare metal)", ORACLE.title, group="CPU virtualisation"),
    Knob("vm.containers", "Docker containers in the VM", DOCKER_TX.title, 0, 32, 1,
         group="CPU virtualisation"),
    Knob("vm.numa_aware", "NUMA-local memory (vNUMA / pinned)", DOCKER_TX.title,
         group="CPU virtualisation"),
    # an application in its own terms (issue 16)
    Knob("vm.workload.app_users", "Application users", VSAN.title, 1, 10000, 1, log=True,
         group="Application"),
    Knob("vm.workload.app_think_ms", "Think time", VSAN.title, 0, 10000, None, group="Application"),
    Knob("vm.workload.app_cpu_ms", "CPU per transaction", ORACLE.title, 0.01, 1000, None, log=True,
         group="Application"),
    Knob("vm.workload.app_ios_per_txn", "I/Os per transaction", ORACLE.title, 0.1, 1000, None,
         log=True, group="Application"),
    # stretched cluster
    Knob("wan.rtt_ms", "Inter-site latency", VSAN.title, 0, 10, 0.1, group="Stretched cluster"),
    Knob("storage_array.vsan_write_round_trips", "Round trips per write", VSAN.title, 1,
         4, 1, group="Stretched cluster"),
    Knob("wan.gbps", "Inter-site bandwidth", VSAN.title, 0.1, 100, None, log=True,
         group="Stretched cluster"),
    # content library
    Knob("content_library.operation", "Library operation", CL_SYNC.title, group="Content Library"),
    Knob("content_library.backing", "Library backing", CL_SYNC.title, group="Content Library"),
    Knob("content_library.enhanced_linked_mode", "Enhanced Linked Mode", CL_SYNC.title,
         group="Content Library"),
    Knob("content_library.network_gbps", "Library network", CL_SYNC.title, group="Content Library"),
    Knob("content_library.https", "HTTPS transfers", CL_SYNC.title, group="Content Library"),
    Knob("content_library.rhttpproxy", "rhttpproxy", CL_SYNC.title, group="Content Library"),
    Knob("content_library.deploy_path", "Deploy data path", CL_DEPLOY.title,
         group="Content Library"),
    Knob("content_library.import_source", "Import source", CL_SYNC.title, group="Content Library"),
    Knob("content_library.items", "Items at once", CL_SYNC.title, 1, 100, 1, log=True,
         group="Content Library"),
    Knob("content_library.item_gb", "Item size", CL_DEPLOY.title, 1, 1000, None, log=True,
         group="Content Library"),
    Knob("content_library.max_concurrent_transfers", "Maximum concurrent transfers",
         CL_TUNING.title, 1, 100, 1, group="Content Library"),
    Knob("content_library.max_concurrent_sync_items", "Maximum concurrent sync items",
         CL_TUNING.title, 1, 50, 1, group="Content Library"),
    Knob("content_library.max_bandwidth_mbps", "Maximum bandwidth consumption (0 = unlimited)",
         CL_TUNING.title, 0, 10000, 50, group="Content Library"),
    Knob("content_library.mirror_server", "Mirror server at the subscriber's site", CL_TUNING.title,
         group="Content Library"),
)

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
    """The knobs that apply to ``design`` (a component or link of their kind exists)."""
    present = kinds_present(design)
    return [k for k in KNOBS if k.kind in present]


def kinds_present(design: Design) -> set[str]:
    """The component and link kinds ``design`` has, and ``design`` itself (one pass: a
    50,000-VM design was scanned once per knob)."""
    return ({"design"} | {c.kind for c in design.components}
            | {lk.kind for lk in design.links})


PROFILE_KNOBS = {
    "web": "vm.workload.req_per_s",
    "netperf": "vm.workload.net_msg_bytes",
    "file_transfer": "vm.workload.net_streams",
    "multicast_rx": "vm.workload.multicast_pps",
    "vdi": "vm.workload.pcoip_kbps",
    "cpu_bound": "vm.workload.cpu_pct",
}
"""The knob whose curve tells most about a workload profile (outstanding I/Os otherwise)."""


MEASURED_KNOBS = ("storage_array.disks", "host.cores_per_socket")
"""The curves an imported estate (``measured`` VMs) opens on: its arrays' drives when some VM
has measured I/O (an open loop at the measured rate: its latency moves with the drives), its
hosts' cores per socket otherwise (the hosts' CPU and the hosts needed move with them)."""


APP_KNOBS = ("wan.rtt_ms", "vm.workload.app_users")
"""The curves a design of application VMs (a closed loop of users) opens on: the inter-site
latency of a stretched cluster (the study's own curve: its throughput falls as the sites move
apart), else the application's users (outstanding I/Os do not drive a closed loop of users)."""


LIBRARY_KNOB = "content_library.item_gb"
"""The curve a Content Library design (no VM workload) opens on: job time by item size."""


def default_knob(design: Design) -> Knob | None:
    """The knob whose curve a design opens on: the one that drives its most common workload
    profile other than idle (request rate for a web farm, message size for netperf, streams
    for a file transfer, :data:`APP_KNOBS` for applications, :data:`MEASURED_KNOBS` for an
    imported estate, ...), else outstanding I/Os, else the first knob that applies."""
    choices = knobs_for(design)
    profiles = Counter(str(v.get("workload.profile")) for v in design.of_kind("vm"))
    profiles.pop("idle", None)
    common = profiles.most_common(1)[0][0] if profiles else ""
    library = "" if common or not design.of_kind("content_library") else LIBRARY_KNOB
    first = PROFILE_KNOBS.get(common, library)
    mains = [v for v in design.of_kind("vm") if str(v.get("workload.profile")) == common]
    if any(isinstance(u := v.get("workload.app_users"), (int, float)) and u > 0
           for v in mains):  # an application's closed loop: its users, or across sites
        first = APP_KNOBS[0] if knob(APP_KNOBS[0]) in choices else APP_KNOBS[1]
    elif common == "measured":
        with_io = any(v.get("workload.io_iops") is not None for v in mains)
        first = MEASURED_KNOBS[0] if with_io and design.of_kind("storage_array") \
            else MEASURED_KNOBS[1]
    for path in (first, "vm.workload.io_oio"):
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
