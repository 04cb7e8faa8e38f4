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


VAIO = "Scaling Performance for VAIO in vSphere 6.0 U1"
MILLION = "Single vSphere Host, a Million I/O Operations per Second"
RAIDPOOL = "Virtualized Storage Performance: RAID Groups versus Storage pools"
FT4 = "VMware vSphere 4 Fault Tolerance: Architecture and Performance"
FT6 = "Fault Tolerance Performance in vSphere 6"
DENSE = "Dynamic Host-Wide Performance Tuning in VMware vSphere 6.0"
FEDEX = ("Maximizing File Transfer Performance Using 10Gb Ethernet and Virtualization:"
         " A FedEx Case Study")
LRO = "Large Receive Offload (LRO) Support for VMXNET3 Adapters with Windows VMs on vSphere 6"
HA = "vSphere Availability: HA admission control (failover hosts, resource percentage)"
DRS = "vSphere Resource Management: DRS keeps a cluster's hosts evenly loaded"
CAPACITY = "Storage capacity: space in use grown by the plan's growth"
VSAN = "VMware Virtual SAN Stretched Cluster Best Practices White Paper"
SIOC = "Performance Implications of Storage I/O Control-Enabled NFS Datastores"
DOCKER = "Scaling Web 2.0 Applications using Docker containers on vSphere 6.0"
ORACLE = "Virtualizing Performance-Critical Database Applications in VMware vSphere 6.0"
DOCKER_TX = "Running Transactional Workloads Using Docker Containers on vSphere 6.0"
MCAST = "Multicast Performance on vSphere 5.0"
PCOIP = "PCoIP Improvements in VMware View 5.0"
CL_SYNC = ("How to Efficiently Synchronize, Import and Export Content in VMware vSphere Content"
           " Library")
CL_DEPLOY = "How to Efficiently Deploy Virtual Machines from VMware vSphere Content Library"
CL_TUNING = "Content Library Performance Tuning"

KNOBS: tuple[Knob, ...] = (
    # storage
    Knob("vm.workload.io_oio", "Outstanding I/Os", VAIO, 1, 256, 1, log=True, group="Storage"),
    Knob("vm.workload.io_block_kb", "I/O size",
         "vSphere 5.1 IOPS Performance Characterization on Flash-based Storage", 0.5, 1024,
         None, log=True, group="Storage"),
    Knob("vm.workload.io_read_pct", "Read share", RAIDPOOL, 0, 100, 5, group="Storage"),
    Knob("vm.vscsi", "Virtual SCSI adapter",
         "High-performance PVSCSI storage adapter can reduce CPIO by 10-30% (vSphere 4)",
         group="Storage"),
    Knob("vm.vaio_filter", "VAIO I/O filter", VAIO, group="Storage"),
    Knob("storage_array.raid", "RAID level", RAIDPOOL, group="Storage"),
    Knob("storage_array.layout", "RAID group or pool", RAIDPOOL, group="Storage"),
    Knob("storage_array.media", "Drive media", RAIDPOOL, group="Storage"),
    Knob("storage_array.disks", "Drives", RAIDPOOL, 1, 500, 1, log=True, group="Storage"),
    Knob("storage_array.sioc", "Storage I/O Control", SIOC, group="Storage"),
    # network
    Knob("nic.speed_gbps", "NIC speed", FEDEX, group="Network"),
    Knob("nic.pcie_gen", "PCIe generation", FEDEX, 1, 5, 1, group="Network"),
    Knob("nic.pcie_lanes", "PCIe lanes", FEDEX, group="Network"),
    Knob("nic.lro", "Large receive offload", LRO, group="Network"),
    Knob("nic.vmdq", "NetQueue / VMDq", FEDEX, group="Network"),
    Knob("vm.workload.net_peer", "Network partner (pNIC or a VM on the same host)", LRO,
         group="Network"),
    Knob("vm.vnic", "Virtual NIC", LRO, group="Network"),
    Knob("vm.workload.net_msg_bytes", "Message size", LRO, 64, 65536, None, log=True,
         group="Network"),
    Knob("vm.workload.net_streams", "Parallel streams", FEDEX, 1, 64, 1, log=True,
         group="Network"),
    Knob("vm.workload.net_tool", "Transfer tool", FEDEX, group="Network"),
    Knob("vm.workload.net_crypto", "Transfer encryption", FEDEX, group="Network"),
    Knob("vm.workload.net_cipher", "Transfer cipher", FEDEX, group="Network"),
    Knob("vm.workload.net_mac", "Transfer MAC", FEDEX, group="Network"),
    Knob("host.aes_ni", "AES-NI instructions", FEDEX, group="Network"),
    Knob("vm.workload.net_rtt_ms", "Transfer round trip", FEDEX, 0.05, 200, None, log=True,
         group="Network"),
    Knob("vm.workload.multicast_pps", "Multicast packet rate", MCAST, 0, 100000, 1000,
         group="Network"),
    Knob("vm.split_rx", "splitRxMode", MCAST, group="Network"),
    Knob("vm.workload.pcoip_codec", "PCoIP lossless codec", PCOIP, group="VDI"),
    Knob("vm.workload.pcoip_client_cache", "PCoIP client cache", PCOIP, group="VDI"),
    Knob("vm.workload.pcoip_build_to_lossless", "PCoIP build to lossless", PCOIP, group="VDI"),
    Knob("vm.workload.pcoip_kbps", "PCoIP bandwidth (View 4.x settings)", PCOIP, 10, 5000,
         None, log=True, group="VDI"),
    Knob("vm.workload.net_rx_mbps", "Offered receive load", FT4, 0, 100000, None,
         group="Network"),
    # fault tolerance
    Knob("vm.ft", "Fault Tolerance", FT4, group="Fault Tolerance"),
    Knob("vm.vcpus", "vCPUs", FT6, 1, 128, 1, log=True, group="Fault Tolerance"),
    Knob("ft_secondary_on.rtt_ms", "FT link round trip", FT4, 0.05, 5, None, log=True,
         group="Fault Tolerance"),
    Knob("host.esxi_version", "ESXi version (FT generation, hypervisor overhead)",
         f"{FT6}; {ORACLE}", group="Fault Tolerance"),
    # consolidation
    Knob("host.dense_mode", "Dense mode", DENSE, group="Consolidation"),
    Knob("host.hyperthreading", "Hyperthreading",
         "vSphere Resource Management Guide: Hyperthreading (a busy core's thread gets slightly"
         " more than half its throughput)", group="Consolidation"),
    Knob("host.cores_per_socket", "Cores per socket", DENSE, 1, 64, 1, group="Consolidation"),
    Knob("host.ghz", "Core clock", DENSE, 1.0, 4.0, 0.1, group="Consolidation"),
    Knob("host.memory_gb", "Host memory", "Performance Best Practices for VMware vSphere 4.0",
         32, 4096, None, log=True,
         group="Consolidation"),
    Knob("vm.memory_gb", "VM memory", "Performance Best Practices for VMware vSphere 4.0", 0.5,
         256, None, log=True, group="Consolidation"),
    Knob("vm.latency_sensitivity", "Latency sensitivity", DOCKER, group="Consolidation"),
    Knob("vm.workload.req_per_s", "Requests per second", DENSE, 0, 2000, None,
         group="Consolidation"),
    Knob("vm.workload.cpu_pct", "Guest CPU demand", DOCKER, 0, 100, 1, group="Consolidation"),
    Knob("design.policy.cpu_util_max", "CPU utilisation ceiling", DENSE, 0.5, 1.0, 0.01,
         group="Policy"),
    Knob("design.policy.p95_ms_max", "p95 response-time ceiling", DENSE, 1, 1000, None,
         log=True, group="Policy"),
    Knob("design.policy.ha_spare_hosts", "HA spare hosts", DENSE, 0, 8, 1, group="Policy"),
    Knob("design.policy.storage_growth_pct", "Storage growth to plan for", CAPACITY, 0, 200, 5,
         group="Policy"),
    Knob("cluster.ha_enabled", "vSphere HA", HA, group="Policy"),
    Knob("cluster.admission_control", "HA admission control", HA, group="Policy"),
    Knob("cluster.failover_hosts", "Host failures the cluster tolerates", HA, 0, 4, 1,
         group="Policy"),
    Knob("cluster.cpu_failover_pct", "CPU reserved for failover", HA, 0, 50, 1,
         group="Policy"),
    Knob("cluster.memory_failover_pct", "Memory reserved for failover", HA, 0, 50, 1,
         group="Policy"),
    Knob("cluster.drs_enabled", "DRS", DRS, group="Policy"),
    # CPU virtualisation
    Knob("host.platform", "ESXi or native (bare metal)", ORACLE, group="CPU virtualisation"),
    Knob("vm.containers", "Docker containers in the VM", DOCKER_TX, 0, 32, 1,
         group="CPU virtualisation"),
    Knob("vm.numa_aware", "NUMA-local memory (vNUMA / pinned)", DOCKER_TX,
         group="CPU virtualisation"),
    # an application in its own terms (issue 16)
    Knob("vm.workload.app_users", "Application users", VSAN, 1, 10000, 1, log=True,
         group="Application"),
    Knob("vm.workload.app_think_ms", "Think time", VSAN, 0, 10000, None, group="Application"),
    Knob("vm.workload.app_cpu_ms", "CPU per transaction", ORACLE, 0.01, 1000, None, log=True,
         group="Application"),
    Knob("vm.workload.app_ios_per_txn", "I/Os per transaction", ORACLE, 0.1, 1000, None,
         log=True, group="Application"),
    # stretched cluster
    Knob("wan.rtt_ms", "Inter-site latency", VSAN, 0, 10, 0.1, group="Stretched cluster"),
    Knob("storage_array.vsan_write_round_trips", "Round trips per write", VSAN, 1,
         4, 1, group="Stretched cluster"),
    Knob("wan.gbps", "Inter-site bandwidth", VSAN, 0.1, 100, None, log=True,
         group="Stretched cluster"),
    # content library
    Knob("content_library.operation", "Library operation", CL_SYNC, group="Content Library"),
    Knob("content_library.backing", "Library backing", CL_SYNC, group="Content Library"),
    Knob("content_library.enhanced_linked_mode", "Enhanced Linked Mode", CL_SYNC,
         group="Content Library"),
    Knob("content_library.network_gbps", "Library network", CL_SYNC, group="Content Library"),
    Knob("content_library.https", "HTTPS transfers", CL_SYNC, group="Content Library"),
    Knob("content_library.rhttpproxy", "rhttpproxy", CL_SYNC, group="Content Library"),
    Knob("content_library.deploy_path", "Deploy data path", CL_DEPLOY, group="Content Library"),
    Knob("content_library.import_source", "Import source", CL_SYNC, group="Content Library"),
    Knob("content_library.items", "Items at once", CL_SYNC, 1, 100, 1, log=True,
         group="Content Library"),
    Knob("content_library.item_gb", "Item size", CL_DEPLOY, 1, 1000, None, log=True,
         group="Content Library"),
    Knob("content_library.max_concurrent_transfers", "Maximum concurrent transfers",
         CL_TUNING, 1, 100, 1, group="Content Library"),
    Knob("content_library.max_concurrent_sync_items", "Maximum concurrent sync items",
         CL_TUNING, 1, 50, 1, group="Content Library"),
    Knob("content_library.max_bandwidth_mbps", "Maximum bandwidth consumption (0 = unlimited)",
         CL_TUNING, 0, 10000, 50, group="Content Library"),
    Knob("content_library.mirror_server", "Mirror server at the subscriber's site", CL_TUNING,
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
