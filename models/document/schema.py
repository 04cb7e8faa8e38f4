"""The vocabulary of a design: component kinds, their properties, link kinds.

One declaration per property: its type, default, unit, range or choices and a one-line meaning.
Validation, the compiled numpy tables, the inspector, `--set` parsing and the README's property
table all read it from here.  Property names and units follow the public contract
(`shared/spec/design-format.md`); nested workload properties use dotted names
(``workload.io_oio``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from models.document import licensing

PropType = Literal["int", "float", "bool", "enum", "str"]
Value = bool | int | float | str | None

ESXI_VERSIONS = ("4.0", "4.1", "5.0", "5.1", "5.5", "6.0", "6.5", "6.7", "7.0", "8.0")


@dataclass(frozen=True)
class PropSpec:
    """One property of a component kind, link kind or the design itself.

    ``choices`` holds strings for ``enum`` and numbers for numeric properties restricted to a
    set (NIC speeds).  ``nullable`` properties accept ``null`` meaning "not given", and their
    default is ``None`` (for example ``workload.io_iops``: absent means closed loop).
    """

    name: str
    type: PropType
    default: Value
    unit: str = ""
    doc: str = ""
    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] | tuple[float, ...] | None = None
    nullable: bool = False
    off: float | None = None
    """The value that turns the property off (no ceiling, no limit, no price): a sensitivity
    study has no value around it to try."""

    def expected(self) -> str:
        """A short phrase that says what a valid value looks like, for error messages."""
        if self.type == "bool":
            text = "true or false"
        elif self.type == "str":
            text = "a string"
        elif self.choices is not None:
            text = "one of " + ", ".join(_fmt(c) for c in self.choices)
        else:
            noun = "a whole number" if self.type == "int" else "a number"
            if self.min is not None and self.max is not None:
                text = f"{noun} from {_fmt(self.min)} to {_fmt(self.max)}"
            elif self.min is not None:
                text = f"{noun} >= {_fmt(self.min)}"
            else:
                text = noun
        if self.unit:
            text += f" ({self.unit})"
        if self.nullable:
            text += " or null"
        return text


@dataclass(frozen=True)
class KindSpec:
    name: str
    label: str
    doc: str
    props: dict[str, PropSpec]


@dataclass(frozen=True)
class LinkSpec:
    name: str
    from_kind: str
    to_kind: str
    doc: str
    props: dict[str, PropSpec]
    many: bool = True
    """False when a component may have at most one link of this kind going out of it."""


def _fmt(v: object) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, str):
        return f"'{v}'"
    return str(v)


def _props(*specs: PropSpec) -> dict[str, PropSpec]:
    return {s.name: s for s in specs}


P = PropSpec

# --- measured demand, provenance and capacity (issue 15) -------------------------------------
# What an import or a calibration read from the estate, kept beside the workload figures it set.
# ``provenance.*`` says where each workload figure comes from: ``measured: <source>``,
# ``solved: <how>`` (a calibration derived it from a measurement), ``assumed: <what>`` or
# ``not measured``; empty means the profile's default (designs drawn by hand).
CONTENTION = P("measured.cpu_contention_pct", "float", None, "%", "recorded CPU contention"
               " (Aria Operations)", 0, 1.0e5, nullable=True)  # VMs, hosts, clusters (issue 24)
MEASURED_VM: tuple[PropSpec, ...] = (
    P("provenance.cpu", "str", "", doc="where the VM's CPU figure comes from"),
    P("provenance.memory", "str", "", doc="where the VM's memory figure comes from"),
    P("provenance.io", "str", "", doc="where the VM's storage I/O figures come from"),
    P("provenance.net", "str", "", doc="where the VM's network figures come from"),
    P("measured.cpu_mhz", "float", None, "MHz", "measured CPU use (vCenter cpu.usagemhz,"
      " RVTools vCPU Overall)", 0, 1.0e8, nullable=True),
    P("measured.cpu_max_mhz", "float", None, "MHz", "the VM's CPU ceiling when measured"
      " (vCPUs x core MHz, or its limit; RVTools vCPU Max)", 0, 1.0e8, nullable=True),
    P("measured.cpu_ready_pct", "float", None, "%", "CPU ready time summed over vCPUs"
      " (esxtop %RDY)", 0, 1.0e5, nullable=True),
    P("measured.memory_active_gb", "float", None, "GB", "measured active memory", 0, 24576,
      nullable=True),
    P("measured.memory_consumed_gb", "float", None, "GB", "measured consumed host memory"
      " (with the VM's overhead where recorded)", 0, 24576, nullable=True),
    P("measured.memory_ballooned_gb", "float", None, "GB", "measured ballooned memory", 0,
      24576, nullable=True),
    P("measured.memory_swapped_gb", "float", None, "GB", "measured swapped memory", 0, 24576,
      nullable=True),
    P("measured.iops", "float", None, "IOPS", "measured I/O rate over the VM's virtual disks",
      0, 1.0e8, nullable=True),
    P("measured.read_pct", "float", None, "%", "measured share of reads", 0, 100,
      nullable=True),
    P("measured.io_kb", "float", None, "KB", "measured mean I/O size", 0, 1.0e6,
      nullable=True),
    P("measured.latency_ms", "float", None, "ms", "measured mean virtual-disk latency (reads"
      " and writes weighted by their rates): the average over the window, compared with the"
      " model's mean latency", 0, 1.0e6, nullable=True),
    P("measured.latency_peak_ms", "float", None, "ms", "measured high virtual-disk latency:"
      " the highest sample (Live Optics Peak Latency) or the p95 or maximum of the samples,"
      " compared with the model's p95 latency", 0, 1.0e6, nullable=True),
    P("measured.oio", "float", None, "I/Os", "measured outstanding I/Os (active + queued"
      " commands)", 0, 1.0e6, nullable=True),
    P("measured.net_mbps", "float", None, "Mbit/s", "measured network throughput (received +"
      " sent)", 0, 1.0e7, nullable=True), CONTENTION,
    P("workload.memory_gb", "float", None, "GB", "memory the workload holds on its host"
      " (consumed); null means its configured memory", 0, 24576, nullable=True),
    P("workload.cpu_ghz", "float", None, "GHz", "the speed cpu_pct was measured or entered at,"
      " as the clock of a reference core (a core of the Xeon E5-2665) that fast: the same work"
      " takes that share x this clock / its host's (per-core speed x 2.4 GHz) on any host;"
      " null: entered on the host it runs on, pinned to that host's processor when the"
      " design is read", 0.1, 10, nullable=True),
    P("disk.provisioned_gb", "float", None, "GB", "storage provisioned for the VM (RVTools"
      " vInfo Provisioned)", 0, 1.0e8, nullable=True),
    P("disk.used_gb", "float", None, "GB", "storage the VM uses on its datastores (vInfo In"
      " Use)", 0, 1.0e8, nullable=True),
    P("disk.guest_capacity_gb", "float", None, "GB", "capacity of the guest's partitions"
      " (vPartition)", 0, 1.0e8, nullable=True),
    P("disk.guest_used_gb", "float", None, "GB", "space the guest's partitions use"
      " (vPartition Consumed)", 0, 1.0e8, nullable=True),
)
MEASURED_HOST: tuple[PropSpec, ...] = (
    P("measured.cpu_pct", "float", None, "%", "recorded host CPU usage (vCenter, RVTools"
      " vHost CPU usage %)", 0, 1000, nullable=True),
    P("measured.memory_pct", "float", None, "%", "recorded host memory usage (RVTools vHost"
      " Memory usage %)", 0, 1000, nullable=True),
    P("provenance.measured", "str", "", doc="where the recorded host figures come from"),
    # issue 22: a partial host (the export lists fewer VMs than it runs) and its background
    P("measured.vms", "int", None, "VMs", "VMs the host runs by the inventory (vHost # VMs)",
      0, 1.0e6, nullable=True),
    P("measured.vms_listed", "int", None, "VMs", "VMs the export lists on the host", 0, 1.0e6,
      nullable=True),
    P("background.cpu_cores", "float", None, "cores", "a partial host's recorded CPU its listed"
      " VMs do not explain (the VMs the export does not list) at background.cpu_ghz", 0, 1.0e5,
      nullable=True),
    P("background.cpu_ghz", "float", None, "GHz", "the clock background.cpu_cores was measured"
      " at", 0.5, 6.0, nullable=True),
    P("background.memory_gb", "float", None, "GB", "a partial host's recorded memory its listed"
      " VMs do not hold (the VMs the export does not list)",
      0, 24576, nullable=True),
    P("provenance.background", "str", "", doc="where the host's background load comes from"),
    # issue 36: the host's own I/O mix, and the I/O it recorded beyond its VMs'
    P("measured.read_pct", "float", None, "%", "recorded share of reads of the host's I/O"
      " (Live Optics ESX Performance, vCenter datastore counters, Aria Operations)", 0, 100,
      nullable=True),
    P("measured.io_kb", "float", None, "KB", "recorded mean I/O size of the host's I/O", 0,
      1.0e6, nullable=True),
    P("background.iops", "float", None, "IOPS", "I/O the host recorded beyond its VMs'"
      " measured I/O (the hypervisor's own, VMs whose I/O is not measured or not listed):"
      " open-loop load on the arrays the host reaches", 0, 1.0e9, nullable=True),
    P("background.read_pct", "float", None, "%", "share of reads of the background I/O", 0,
      100, nullable=True),
    P("background.io_kb", "float", None, "KB", "mean size of the background I/O", 0.5, 4096,
      nullable=True),
)
# Recorded by Aria Operations and Live Optics (issue 24), on hosts and clusters (contention on
# VMs too); a cluster also keeps its recorded CPU and memory usage and their source.
RECORDED: tuple[PropSpec, ...] = (
    P("measured.iops", "float", None, "IOPS", "recorded IOPS (Live Optics)", 0, 1.0e9,
      nullable=True),
    P("measured.cpu_demand_pct", "float", None, "%", "recorded CPU demand (Aria Operations)",
      0, 1000, nullable=True), CONTENTION,
    P("measured.cpu_ready_pct", "float", None, "%", "recorded CPU ready (Aria Operations)",
      0, 1.0e5, nullable=True),
)
MEASURED_NIC: tuple[PropSpec, ...] = (
    P("measured.mbps", "float", None, "Mbit/s", "measured traffic (received + sent; esxtop"
      " per-vmnic)", 0, 1.0e7, nullable=True),
    P("measured.pps", "float", None, "packets/s", "measured packets (received + sent)", 0,
      1.0e10, nullable=True),
    P("provenance.measured", "str", "", doc="where the NIC's measured figures come from"),
)
CAPACITY_ARRAY: tuple[PropSpec, ...] = (
    P("capacity_gb", "float", None, "GB", "usable capacity of its datastores", 0, 1.0e9,
      nullable=True),
    P("provisioned_gb", "float", None, "GB", "space provisioned to VMs on it (thin disks at"
      " their full size)", 0, 1.0e9, nullable=True),
    P("used_gb", "float", None, "GB", "space in use", 0, 1.0e9, nullable=True),
    P("thin", "bool", False, doc="VM disks on it are thin provisioned (provisioned may pass"
      " capacity)"),
    P("address", "str", "", doc="where its datastores live: the LUNs' NAA prefix, the NFS"
      " server, or the vSAN cluster"),
    P("datastores", "int", 1, "datastores", "datastores (LUNs, exports) it holds", 1, 100000),
)

HOST = KindSpec(
    "host", "Host", "An ESXi host (or a bare-metal server for native comparisons).",
    _props(
        P("platform", "enum", "esxi", choices=("esxi", "native"),
          doc="esxi, or native (bare metal) for native-vs-virtual comparisons"),
        P("esxi_version", "enum", "8.0", choices=ESXI_VERSIONS,
          doc="ESXi release; gates features (FT limits, LRO for Windows, dense mode)"),
        P("sockets", "int", 2, "sockets", "CPU sockets", 1, 16),
        P("cores_per_socket", "int", 16, "cores", "physical cores per socket", 1, 256),
        P("ghz", "float", 2.4, "GHz", "nominal core clock", 0.5, 6.0),
        P("cpu_model", "str", "", doc="the processor as vCenter and RVTools print it ('Intel(R)"
          " Xeon(R) Gold 6140 CPU @ 2.30GHz'): its per-core performance comes from SPEC's"
          " published results (the processor catalogue, matched by model number; one it"
          " lacks counts as its family's processor, scaled by its clock); empty or of no"
          " known family: the core clock alone"),
        P("specrate_per_core", "float", None, "SPECrate2017_int_base per core", "per-core"
          " performance of a processor the catalogue lacks (overrides the catalogue's)", 0.5,
          50.0, nullable=True),
        P("hyperthreading", "bool", True, doc="hyperthreading enabled (two threads per core)"),
        P("memory_gb", "float", 256.0, "GB", "installed memory", 1, 24576),
        P("dense_mode", "bool", False, doc="Net.NetTuneHostMode = dense"),
        P("hba_count", "int", 2, "ports", "storage HBA ports (FC/iSCSI/SAS)", 0, 32),
        # --- issue 16
        P("aes_ni", "bool", True, doc="the CPUs have AES-NI instructions (Intel Westmere, 2010,"
          " and later): AES costs a fraction of its software cycles per byte"),
        # --- issue 35: the host's share of its cluster's vSAN datastore
        P("vsan.devices", "int", 0, "devices", "vSAN capacity devices (ESA: NVMe devices in"
          " its single storage pool; OSA: capacity devices over all its disk groups)", 0, 64),
        P("vsan.device_tb", "float", 0.0, "TB", "raw capacity of each vSAN capacity device"
          " (decimal TB, as vendors state it)", 0, 100),
        P("vsan.disk_groups", "int", 0, "disk groups", "OSA disk groups (each one cache device"
          " in front of its capacity devices); ESA has none", 0, 5),
        P("vsan.cache_gb", "float", 0.0, "GB", "OSA cache device size (memory overhead counts"
          " up to 600 GB of it)", 0, 10000),
        *MEASURED_HOST, *RECORDED,
    ),
)

NIC = KindSpec(
    "nic", "Physical NIC", "A physical network adapter installed in a host.",
    _props(
        P("speed_gbps", "float", 10.0, "Gbit/s", "port line rate",
          choices=(1.0, 10.0, 25.0, 40.0, 100.0)),
        P("ports", "int", 2, "ports", "ports on the adapter", 1, 8),
        P("pcie_gen", "int", 3, "generation", "PCIe slot generation", 1, 5),
        P("pcie_lanes", "int", 8, "lanes", "electrical width of the slot",
          choices=(1.0, 2.0, 4.0, 8.0, 16.0)),
        P("vmdq", "bool", True, doc="NetQueue / VMDq enabled"),
        P("lro", "bool", True, doc="large receive offload in the host stack"),
        P("role", "enum", "vm", choices=("vm", "ft_logging", "vmotion", "management", "storage"),
          doc="traffic the adapter carries"),
        P("cabling", "enum", "unspecified",
          choices=("unspecified", "twinax", "10gbase_t", "10gbase_sr"),
          doc="10G cabling: adapter-port cost, power and reach (FedEx case study, 2010)"),
        *MEASURED_NIC,
    ),
)

STORAGE_ARRAY = KindSpec(
    "storage_array", "Storage array", "A storage array, datastore or vSAN cluster's disk group.",
    _props(
        P("media", "enum", "ssd", choices=("ssd", "hdd15k", "hdd10k", "hdd7k"), doc="drive media"),
        P("disks", "int", 8, "drives", "drive count", 1, 5000),
        P("disk_iops", "float", None, "IOPS", "per-drive random IOPS; null means the media's"
          " default", 1, 5.0e6, nullable=True),
        P("raid", "enum", "raid5", choices=("none", "raid0", "raid1", "raid5", "raid6", "raid10"),
          doc="RAID level"),
        P("layout", "enum", "raid_group", choices=("raid_group", "pool"),
          doc="traditional RAID group or storage pool"),
        P("protocol", "enum", "fc", choices=("fc", "iscsi", "nfs", "sas", "vsan"),
          doc="how hosts reach the array"),
        P("fabric_gbps", "float", 16.0, "Gbit/s", "host-to-array link speed", 0.1, 1000),
        P("vaai", "bool", True, doc="VAAI offloads available"),
        P("sioc", "bool", False, doc="Storage I/O Control enabled on the datastore"),
        P("local", "bool", False, doc="a host's own disks (a datastore one host mounts: boot"
          " and local disks), reached by that host alone; not a shared array"),
        # --- issue 16
        P("vsan_write_round_trips", "int", 1, "round trips", "synchronous inter-site round"
          " trips a write to a stretched vSAN datastore pays before it completes (1: the"
          " remote replica's acknowledgement)", 1, 8),
        *CAPACITY_ARRAY,
    ),
)

SITE = KindSpec("site", "Site", "A location; hosts are placed at sites (stretched clusters).", {})

VM = KindSpec(
    "vm", "Virtual machine", "A virtual machine and the workload it runs.",
    _props(
        P("vcpus", "int", 2, "vCPUs", "virtual CPUs", 1, 768),
        P("memory_gb", "float", 4.0, "GB", "configured memory", 0.0625, 24576),
        P("guest_os", "enum", "linux", choices=("linux", "windows"), doc="guest OS family"),
        P("vsan.policy", "enum", "cluster", choices=("cluster", "raid1", "raid5", "raid6"),
          doc="the vSAN storage policy of the VM's disks: its cluster's default, or another"
          " layout (with its cluster's FTT; RAID 5 tolerates 1, RAID 6 2)"),
        P("vnic", "enum", "vmxnet3", choices=("vmxnet3", "vmxnet2", "e1000"),
          doc="virtual NIC type"),
        P("vscsi", "enum", "pvscsi", choices=("pvscsi", "lsi_sas"),
          doc="virtual SCSI adapter"),
        P("ft", "bool", False, doc="protected by vSphere Fault Tolerance"),
        P("vaio_filter", "enum", "none", choices=("none", "null", "cache", "replication"),
          doc="VAIO I/O filter on the virtual disk"),
        P("latency_sensitivity", "enum", "normal", choices=("normal", "high"),
          doc="VM latency-sensitivity setting"),
        P("containers", "int", 0, "containers", "containers running inside the VM", 0, 10000),
        P("numa_aware", "bool", True, doc="the workload keeps its memory on its NUMA node"
          " (NUMA-aware guest on vNUMA, or processes pinned per node on a native host);"
          " false: spread over the nodes it spans (unpinned native containers)"),
        P("workload.profile", "enum", "oltp",
          choices=("iometer", "oltp", "web", "netperf", "file_transfer", "multicast_rx",
                   "cpu_bound", "vdi", "idle", "measured"),
          doc="what the VM runs; measured: what the estate measured (CPU from cpu_pct, storage"
          " I/O only where io_iops is given, no invented I/O)"),
        P("workload.cpu_pct", "float", 25.0, "%", "guest CPU demand as % of its vCPUs, for"
          " profiles without a request model", 0, 100),
        P("workload.io_block_kb", "float", 8.0, "KB", "I/O size", 0.5, 4096),
        P("workload.io_read_pct", "float", 70.0, "%", "share of reads", 0, 100),
        P("workload.io_random_pct", "float", 100.0, "%", "share of random I/O", 0, 100),
        P("workload.io_oio", "int", 8, "I/Os", "outstanding I/Os kept in flight (closed loop)",
          0, 65536),
        P("workload.io_iops", "float", None, "IOPS", "offered IOPS (open loop); null means"
          " closed loop on io_oio", 0, 1.0e7, nullable=True),
        P("workload.io_app_cpu_us", "float", 0.0, "us", "application CPU per I/O in the guest,"
          " in microseconds of the reference core (a Xeon E5-2665 core at 2.4 GHz; a host"
          " takes it over its per-core speed); 0 for pure I/O generators", 0, 1.0e6),
        P("disk_shares", "int", 1000, "shares", "Storage I/O Control disk shares", 1, 1000000),
        P("workload.net_rx_mbps", "float", 0.0, "Mbit/s", "offered receive load", 0, 400000),
        P("workload.net_tx_mbps", "float", 0.0, "Mbit/s", "offered transmit load", 0, 400000),
        P("workload.net_msg_bytes", "float", 16384.0, "bytes", "application message size",
          1, 1.0e8),
        P("workload.net_streams", "int", 1, "streams", "parallel streams", 1, 4096),
        P("workload.net_tool", "enum", "netperf",
          choices=("netperf", "scp", "rsync", "bbcp", "ftp"), doc="transfer tool"),
        P("workload.net_crypto", "enum", "none", choices=("none", "openssh", "hpn_ssh"),
          doc="encryption on the transfer"),
        P("workload.net_rtt_ms", "float", 0.25, "ms", "round trip to the transfer's peer"
          " (LAN: a few hundred microseconds; a WAN transfer: the WAN's)", 0, 1000),
        P("workload.multicast_pps", "float", 0.0, "packets/s", "multicast receive rate", 0,
          1.0e8),
        P("workload.multicast_packet_bytes", "float", 512.0, "bytes", "multicast packet size",
          1, 65536),
        P("split_rx", "bool", False, doc="splitRxMode (ethernetX.emuRxMode = 1, VMXNET3"
          " only): the vNIC's receive replication runs in its own context"),
        P("workload.pcoip_kbps", "float", 250.0, "kbit/s", "PCoIP display bandwidth of the"
          " desktop's workflow with View 4.x settings (4.x codec, no client cache, build to"
          " lossless on); the studies give relative savings, measure yours", 0, 1.0e6),
        P("workload.pcoip_codec", "enum", "view5", choices=("view4", "view5"),
          doc="PCoIP lossless codec (View 5.0 compresses anti-aliased text 2x better)"),
        P("workload.pcoip_client_cache", "bool", True, doc="PCoIP client-side image cache"),
        P("workload.pcoip_build_to_lossless", "bool", True,
          doc="PCoIP build to lossless (refine lossy images to lossless)"),
        P("workload.req_per_s", "float", 0.0, "requests/s", "request rate (web)", 0, 1.0e7),
        P("workload.resp_kb", "float", 100.0, "KB", "response size (web)", 0, 1.0e6),
        # --- an application in its own terms (issue 16): a closed loop of transactions
        P("workload.app_users", "int", 0, "users", "users (driver threads) of a transactional"
          " application, each a closed loop: think, then the transaction's CPU and I/Os;"
          " throughput, IOPS and response follow.  0: not modelled as an application (I/O on"
          " io_oio or io_iops)", 0, 1000000, off=0.0),
        P("workload.app_think_ms", "float", 0.0, "ms", "a user's think time between"
          " transactions", 0, 1.0e7),
        P("workload.app_cpu_ms", "float", 1.0, "ms", "guest CPU per transaction, on one vCPU"
          " at 2.4 GHz", 0, 1.0e6),
        P("workload.app_ios_per_txn", "float", 2.0, "I/Os", "I/Os per transaction (of"
          " io_block_kb, io_read_pct reads)", 0.01, 1.0e5),
        P("workload.app_rx_kb_per_txn", "float", 1.0, "KB", "bytes the VM receives per"
          " transaction (KB = 1000 bytes)", 0, 1.0e6),
        P("workload.app_tx_kb_per_txn", "float", 4.0, "KB", "bytes the VM sends per"
          " transaction (KB = 1000 bytes)", 0, 1.0e6),
        P("workload.net_cipher", "enum", "aes128-cbc",
          choices=("aes128-cbc", "aes128-ctr", "aes256-ctr", "aes128-gcm",
                   "chacha20-poly1305", "arcfour", "3des-cbc"),
          doc="bulk cipher of an encrypted transfer (net_crypto openssh or hpn_ssh)"),
        P("workload.net_mac", "enum", "hmac-md5",
          choices=("hmac-md5", "hmac-sha1", "hmac-sha2-256", "umac-64", "none"),
          doc="MAC of an encrypted transfer (AES-GCM and ChaCha20-Poly1305 need none)"),
        P("workload.net_peer", "enum", "external", choices=("external", "same_host"),
          doc="where the VM's network partner is: another machine, through the host's"
          " physical NIC (line rate, PCIe slot), or a VM on the same host, through the virtual"
          " switch in memory (host CPU binds; the VM's network CPU counts both ends)"),
        P("workload.net_window_kb", "float", None, "KB", "socket buffer (TCP window) of each"
          " stream: at most this much in flight per round trip (net_rtt_ms plus FT's output"
          " commit), so a small window is latency-bound; null means auto-tuned (no limit)", 1,
          1.0e6, nullable=True),
        P("guest_timer_hz", "float", None, "Hz", "timer interrupts per second per vCPU the"
          " guest OS programs (Linux CONFIG_HZ: 1000 in RHEL 5/6, 250 in SLES 10/11; Windows"
          " 64, 1000 when an application raises the resolution); null means the OS family's"
          " default.  Each is an event FT record/replay logs", 1, 100000,
          nullable=True),
        *MEASURED_VM,
    ),
)

CONTENT_LIBRARY = KindSpec(
    "content_library", "Content Library",
    "A vSphere Content Library and the transfer it performs: a subscribed library's sync, a"
    " VM deploy, an item import or export (Content Library studies, VMware 2015).",
    _props(
        P("backing", "enum", "datastore", choices=("datastore", "nfs"),
          doc="storage backing: a datastore (items stored uncompressed) or an NFS file system"
          " mounted on vCenter (items stored compressed)"),
        P("operation", "enum", "sync", choices=("sync", "deploy", "import", "export"),
          doc="the transfer studied: sync (a subscribed library pulls from the library it"
          " subscribes_to), deploy a VM, import or export an item"),
        P("enhanced_linked_mode", "bool", False,
          doc="publisher's and subscriber's vCenters share an SSO domain (Enhanced Linked"
          " Mode): datastore-to-datastore sync copies directly between ESXi hosts"),
        P("network_gbps", "float", 10.0, "Gbit/s", "vCenter management / ESXi host network"
          " line rate", choices=(1.0, 10.0, 25.0, 40.0, 100.0)),
        P("esxi_hosts", "int", 1, "hosts", "ESXi hosts that see the library's datastore;"
          " each is a direct-copy channel with its own NIC", 1, 64),
        P("datastore_mbps", "float", 500.0, "MB/s", "sequential throughput of the datastore"
          " holding the library; concurrent copies interleave and turn it random", 1, 100000),
        P("https", "bool", True, doc="Transfer Service traffic over HTTPS (TLS); off = plain"
          " HTTP on a trusted network"),
        P("rhttpproxy", "bool", True, doc="streamed traffic passes vCenter's reverse HTTP"
          " proxy (rhttpproxy)"),
        P("vcenter_cpu_model", "str", "", doc="the processor of the host vCenter runs on, as"
          " vSphere prints it: the Transfer Service's compression, TLS, proxy and checksum"
          " run on its cores at their SPEC per-core speed (the studies': Intel Xeon E7530);"
          " empty: the reference core (Xeon E5-2665)"),
        P("vcenter_aes_ni", "bool", True, doc="vCenter's processor has AES-NI (Intel Westmere,"
          " 2010, and later; not the studies' Xeon E7530): TLS is AES-GCM on those"
          " instructions, else AES-CBC and HMAC-SHA1 in software"),
        P("vcenter_vcpus", "int", 16, "vCPUs", "vCenter Server appliance vCPUs (tiny 2, small"
          " 4, medium 8, large 16, x-large 24): compressions and decompressions run on them"
          " at once", 1, 128),
        P("max_concurrent_transfers", "int", 20, "transfers", "Transfer Service > Maximum"
          " Number of Concurrent Transfers; more operations queue", 1, 1000),
        P("max_concurrent_sync_items", "int", 5, "items", "Library Maximum Concurrent"
          " SyncItems: items one subscribed library transfers at once", 1, 1000),
        P("max_bandwidth_mbps", "float", 0.0, "Mbit/s", "Transfer Service > Maximum Bandwidth"
          " Consumption for streaming transfers; 0 = unlimited (direct copies ignore it)",
          0, 400000, off=0.0),
        P("item_gb", "float", 15.0, "GB", "size of one item's disks on a datastore"
          " (uncompressed, provisioned)", 0.001, 100000),
        P("compression_ratio", "float", 2.78, "x", "uncompressed / compressed size of an item"
          " (stream-optimised VMDK; 15 GB -> 5.4 GB in the sync study)", 1, 100),
        P("items", "int", 1, "items", "items transferred at once: items in the sync, or"
          " concurrent deploy / import / export operations", 1, 10000),
        P("deploy_path", "enum", "same_host", choices=("vaai", "same_host", "cross_host"),
          doc="deploy from a datastore-backed library: VAAI copy inside the array, through one"
          " host that sees both datastores, or between two hosts over the network"),
        P("import_source", "enum", "upload_client", choices=("upload_client", "web_server"),
          doc="import: uploaded from a client through vCenter, or pulled from a web server"),
        P("mirror_server", "bool", False, doc="a subscribed library pulls through a caching"
          " mirror server (e.g. NGINX) at its site: one WAN copy per site"),
    ),
)

CLUSTER = KindSpec(
    "cluster", "Cluster",
    "A vSphere cluster: its hosts (in_cluster links), HA admission control and DRS.  Hosts"
    " needed and the host-failure analysis honour its failover policy.",
    _props(
        P("ha_enabled", "bool", True, doc="vSphere HA restarts the VMs of a failed host on the"
          " cluster's other hosts"),
        P("admission_control", "enum", "failover_hosts",
          choices=("disabled", "failover_hosts", "percentage"),
          doc="HA admission control: none, a number of host failures to tolerate, or a"
          " percentage of the cluster's CPU and memory kept free"),
        P("failover_hosts", "int", 1, "hosts", "host failures the cluster tolerates (admission"
          " control by failover hosts)", 0, 64),
        P("cpu_failover_pct", "float", 25.0, "%", "CPU kept free for failover (admission"
          " control by percentage)", 0, 100),
        P("memory_failover_pct", "float", 25.0, "%", "memory kept free for failover"
          " (admission control by percentage)", 0, 100),
        P("drs_enabled", "bool", True, doc="DRS balances the cluster's VMs over its hosts"),
        P("drs_automation", "enum", "fully_automated",
          choices=("manual", "partially_automated", "fully_automated"),
          doc="DRS automation level"),
        # --- issue 35: a vSAN cluster (its datastore built from its hosts' devices)
        P("vsan.architecture", "enum", "none", choices=("none", "esa", "osa"),
          doc="vSAN: none, the Express Storage Architecture (vSAN 8 and later, NVMe storage"
          " pools) or the Original Storage Architecture (disk groups)"),
        P("vsan.policy", "enum", "raid1", choices=("raid1", "raid5", "raid6"),
          doc="the default storage policy's data layout: RAID 1 mirroring (FTT+1 copies),"
          " RAID 5 (FTT 1) or RAID 6 (FTT 2) erasure coding"),
        P("vsan.ftt", "int", 1, "failures", "host failures the default storage policy"
          " tolerates (RAID 5: 1, RAID 6: 2)", 1, 3),
        P("vsan.compression", "float", 1.0, "ratio", "data reduction assumed (1.0: nothing"
          " pre-spent; 1.25, 1.5, 2.0 offered)", 1.0, 4.0),
        P("vsan.operations_reserve_pct", "float", 10.0, "%", "raw capacity kept for"
          " operations (policy changes, resyncs, rebalancing): an assumption, no single"
          " published figure", 0, 50),
        P("vsan.host_rebuild_reserve", "bool", True, doc="keep the largest host's raw"
          " capacity free to rebuild a failed host's components"),
        P("vsan.thin", "bool", True, doc="VM disks are thin (they take what they use; thick"
          " ones their whole provisioned size)"),
        P("measured.cpu_pct", "float", None, "%", "recorded cluster CPU usage (Aria"
          " Operations)", 0, 1000, nullable=True),
        P("measured.memory_pct", "float", None, "%", "recorded cluster memory utilisation"
          " (Aria Operations)", 0, 1000, nullable=True),
        P("provenance.measured", "str", "", doc="where the recorded figures come from"),
        *RECORDED,
    ),
)

KINDS: dict[str, KindSpec] = {k.name: k for k in (HOST, NIC, STORAGE_ARRAY, SITE, VM,
                                                  CONTENT_LIBRARY, CLUSTER)}

LINKS: dict[str, LinkSpec] = {
    spec.name: spec
    for spec in (
        LinkSpec("runs_on", "vm", "host", "where the VM runs", {}, many=False),
        LinkSpec("ft_secondary_on", "vm", "host",
                 "where the FT secondary runs (must differ from runs_on)",
                 _props(P("rtt_ms", "float", 0.25, "ms", "round trip between the primary and"
                          " secondary host on the FT logging network (LAN: a few hundred"
                          " microseconds, VMware vSphere 4 FT paper)", 0, 100)),
                 many=False),
        LinkSpec("installed_in", "nic", "host", "a physical NIC of the host", {}, many=False),
        LinkSpec("passthrough", "nic", "vm", "VMDirectPath: the NIC is given to that VM", {},
                 many=False),
        LinkSpec("disk_on", "vm", "storage_array", "where the VM's virtual disk lives", {},
                 many=False),
        LinkSpec("storage", "host", "storage_array", "the host reaches that array", {}),
        LinkSpec("located_at", "host", "site", "site of the host", {}, many=False),
        LinkSpec("in_cluster", "host", "cluster", "the cluster the host belongs to", {},
                 many=False),
        LinkSpec("subscribes_to", "content_library", "content_library",
                 "a subscribed library synchronises from that published library", {},
                 many=False),
        LinkSpec("library_at", "content_library", "site", "site of the library's vCenter", {},
                 many=False),
        LinkSpec("wan", "site", "site", "inter-site link",
                 _props(P("rtt_ms", "float", 1.0, "ms", "inter-site round-trip time", 0, 1000),
                        P("gbps", "float", 10.0, "Gbit/s", "inter-site bandwidth", 0.001,
                          10000))),
    )
}

NO_IO_PROFILES = ("web", "netperf", "file_transfer", "multicast_rx", "cpu_bound", "idle",
                  "measured")
"""Profiles that keep no I/Os in flight of their own.  A ``measured`` VM does I/O only at its
measured rate (open loop on ``workload.io_iops``); without one its storage figures are not
measured (NaN, ``null`` in JSON), never invented."""

DESIGN_PROPS: dict[str, PropSpec] = _props(
    # --- issue 37: growth over years (models/core/growth.py)
    P("growth.cpu_pct", "float", 0.0, "%", "CPU demand's compound growth a year", -50, 500),
    P("growth.memory_pct", "float", 0.0, "%", "memory held's compound growth a year", -50,
      500),
    P("growth.storage_pct", "float", 0.0, "%", "storage used's compound growth a year", -50,
      500),
    P("growth.iops_pct", "float", 0.0, "%", "storage I/O and network traffic's compound"
      " growth a year", -50, 500),
    P("growth.vms_pct", "float", 0.0, "%", "the VM count's compound growth a year (new VMs"
      " of the average size in their clusters)", -50, 500),
    P("growth.year", "float", 0.0, "years", "the year the design is evaluated in (0: today;"
      " fractional allowed)", 0, 30),
    # --- issue 37 item 5: demand against today's, a factor on measured values
    # (models/core/demand.py); the file keeps them under 'demand'
    P("demand.cpu_pct", "float", 0.0, "%", "every VM's CPU demand against today's, measured or"
      " set (0: as it is; +20: each VM's own figure x 1.2), and the hosts' background CPU",
      -90, 500),
    P("demand.memory_pct", "float", 0.0, "%", "the memory every VM holds against today's,"
      " measured or configured (0: as it is; +20: each VM's own figure x 1.2), and the hosts'"
      " background memory", -90, 500),
    P("demand.storage_pct", "float", 0.0, "%", "the disk space every VM and array uses against"
      " today's, as imported or set (0: as it is; +20: each figure x 1.2)", -90, 500),
    P("demand.iops_pct", "float", 0.0, "%", "every VM's storage I/O and network rates against"
      " today's, measured or set (0: as they are; +20: each VM's own figures x 1.2)", -90,
      500),
    P("policy.cpu_util_max", "float", 0.9, "fraction", "highest acceptable host CPU"
      " utilisation", 0.05, 1.0),
    P("policy.p95_ms_max", "float", 100.0, "ms", "highest acceptable p95 response time",
      0.001, 1.0e6),
    P("policy.memory_util_max", "float", 1.0, "fraction", "highest acceptable host memory"
      " utilisation (the memory the VMs hold over installed memory)", 0.05, 1.0),
    P("policy.ha_spare_hosts", "int", 0, "hosts", "spare hosts kept for HA (N+x)", 0, 1000),
    P("policy.storage_growth_pct", "float", 0.0, "%", "growth to plan storage capacity for"
      " (on the space in use)", 0, 1000),
    P("policy.vcpu_per_core_max", "float", 0.0, "vCPUs per core", "highest acceptable vCPUs"
      " per physical core on a host (0: no ceiling); hosts needed honour it", 0, 64, off=0.0),
    P("policy.memory_overcommit_max", "float", 0.0, "x", "highest acceptable configured VM"
      " memory per installed memory on a host (0: no ceiling); hosts needed honour it", 0,
      16, off=0.0),
    P("policy.licence_edition", "enum", licensing.edition_ids()[0],
      choices=licensing.edition_ids(), doc="the per-core subscription a licence price is"
      " for (resources/licensing.json); every edition counts cores the same way"),
    P("policy.licence_price_per_core", "float", 0.0, "per core per year", "price of one"
      " licensed core for a year, in any currency; 0: no price, no yearly cost", 0, 1.0e6,
      off=0.0),
    P("policy.licence_order_minimum", "bool", False, doc="count the minimum of cores per"
      " order announced in 2025 (72; disputed, so off unless turned on)"),
)
"""Properties of the design itself, selected with ``design`` in overrides and knobs."""


def prop_spec(kind: str, prop: str) -> PropSpec | None:
    """The spec of ``prop`` on a component kind, a link kind or ``design``; None if unknown."""
    if kind == "design":
        return DESIGN_PROPS.get(prop)
    if kind in KINDS:
        return KINDS[kind].props.get(prop)
    if kind in LINKS:
        return LINKS[kind].props.get(prop)
    return None


# --------------------------------------------------------------------------- display words

PROP_LABELS: dict[str, str] = {
    # the report's title page (fields of the design, not properties)
    "design.report.title": "Report title", "design.report.notes": "Report notes",
    # imported estates: what was measured and where it came from (issue 15)
    "vsan.architecture": "vSAN", "cluster.vsan.policy": "vSAN storage policy",
    "vm.vsan.policy": "vSAN storage policy", "vsan.ftt": "vSAN failures to tolerate",
    "vsan.compression": "vSAN compression", "vsan.operations_reserve_pct":
    "vSAN operations reserve", "vsan.host_rebuild_reserve": "vSAN host rebuild reserve",
    "vsan.thin": "Thin disks on vSAN", "vsan.devices": "vSAN capacity devices",
    "vsan.device_tb": "vSAN device size", "vsan.disk_groups": "vSAN disk groups",
    "vsan.cache_gb": "vSAN cache device",
    "host.aes_ni": "AES-NI instructions", "storage_array.vsan_write_round_trips":
    "Inter-site round trips per vSAN write",
    "host.measured.cpu_pct": "Recorded CPU usage", "host.measured.memory_pct":
    "Recorded memory usage", "provenance.measured": "Source of the recorded figures",
    "measured.vms": "Recorded VMs", "measured.vms_listed": "VMs in the export",
    "background.cpu_cores": "Background CPU", "background.cpu_ghz": "Clock of the background"
    " CPU", "background.memory_gb": "Background memory", "provenance.background":
    "Source of the background load", "background.iops": "Background I/O",
    "background.read_pct": "Background read share", "background.io_kb": "Background I/O size",
    "host.measured.read_pct": "Recorded read share", "host.measured.io_kb":
    "Recorded I/O size", "measured.latency_peak_ms": "Measured peak latency",
    "nic.measured.mbps": "Recorded traffic", "nic.measured.pps": "Recorded packet rate",
    "measured.cpu_pct": "Recorded CPU usage", "measured.memory_pct": "Recorded memory usage",
    "host.measured.iops": "Recorded IOPS", "cluster.measured.iops": "Recorded IOPS",
    "measured.cpu_demand_pct": "Recorded CPU demand", "measured.cpu_contention_pct":
    "CPU contention", "host.measured.cpu_ready_pct": "Recorded CPU ready",
    "capacity_gb": "Capacity", "provisioned_gb": "Provisioned", "used_gb": "Used",
    "thin": "Thin provisioned", "address": "Address (NAA or NFS server)",
    "datastores": "Datastores",
    "workload.app_users": "Application users", "workload.app_think_ms": "Think time",
    "workload.app_cpu_ms": "CPU per transaction", "workload.app_ios_per_txn":
    "I/Os per transaction", "workload.app_rx_kb_per_txn": "KB received per transaction",
    "workload.app_tx_kb_per_txn": "KB sent per transaction",
    "workload.net_cipher": "Transfer cipher", "workload.net_mac": "Transfer MAC",
    "workload.net_peer": "Network partner",
    "workload.net_window_kb": "Socket window", "guest_timer_hz": "Guest timer rate",
    "provenance.cpu": "Source of the CPU figure", "provenance.memory":
    "Source of the memory figure", "provenance.io": "Source of the I/O figures",
    "provenance.net": "Source of the network figure",
    "measured.cpu_mhz": "Measured CPU", "measured.cpu_max_mhz": "Measured CPU ceiling",
    "measured.cpu_ready_pct": "Measured CPU ready", "measured.memory_active_gb":
    "Measured active memory", "measured.memory_consumed_gb": "Measured consumed memory",
    "measured.memory_ballooned_gb": "Measured ballooned memory",
    "measured.memory_swapped_gb": "Measured swapped memory", "measured.iops": "Measured IOPS",
    "measured.read_pct": "Measured read share", "measured.io_kb": "Measured I/O size",
    "measured.latency_ms": "Measured latency", "measured.oio": "Measured outstanding I/Os",
    "measured.net_mbps": "Measured network traffic", "workload.memory_gb": "Memory in use",
    "workload.cpu_ghz": "Clock of the measured CPU demand",
    "disk.provisioned_gb": "Disk provisioned", "disk.used_gb": "Disk used",
    "disk.guest_capacity_gb": "Guest disk capacity", "disk.guest_used_gb": "Guest disk used",
    "ha_enabled": "vSphere HA", "admission_control": "HA admission control",
    "failover_hosts": "Host failures the cluster tolerates",
    "cpu_failover_pct": "CPU reserved for failover",
    "memory_failover_pct": "Memory reserved for failover", "drs_enabled": "DRS",
    "drs_automation": "DRS automation", "policy.storage_growth_pct": "Storage growth to plan for",
    # host
    "platform": "Platform", "esxi_version": "ESXi version", "sockets": "CPU sockets",
    "cores_per_socket": "Cores per socket", "ghz": "Core clock", "cpu_model": "Processor",
    "specrate_per_core": "Per-core SPECrate",
    "hyperthreading": "Hyperthreading", "memory_gb": "Memory", "dense_mode": "Dense mode",
    "hba_count": "Storage HBA ports",
    # nic
    "speed_gbps": "Speed", "ports": "Ports", "pcie_gen": "PCIe generation",
    "pcie_lanes": "PCIe lanes", "vmdq": "NetQueue / VMDq", "lro": "Large receive offload",
    "role": "Traffic carried", "cabling": "Cabling",
    # storage array
    "media": "Drive media", "disks": "Drives", "disk_iops": "IOPS per drive",
    "raid": "RAID level", "layout": "RAID group or pool", "protocol": "Storage protocol",
    "fabric_gbps": "Fabric speed", "vaai": "VAAI offloads", "sioc": "Storage I/O Control",
    "local": "Local to one host",
    # vm
    "vcpus": "vCPUs", "guest_os": "Guest OS", "vnic": "Virtual NIC",
    "vscsi": "Virtual SCSI adapter", "ft": "Fault Tolerance", "vaio_filter": "VAIO I/O filter",
    "latency_sensitivity": "Latency sensitivity", "containers": "Docker containers",
    "numa_aware": "NUMA-local memory", "workload.profile": "Workload",
    "workload.cpu_pct": "Guest CPU demand", "workload.io_block_kb": "I/O size",
    "workload.io_read_pct": "Read share", "workload.io_random_pct": "Random share",
    "workload.io_oio": "Outstanding I/Os", "workload.io_iops": "Offered IOPS",
    "workload.io_app_cpu_us": "Application CPU per I/O", "disk_shares": "Disk shares",
    "workload.net_rx_mbps": "Offered receive load",
    "workload.net_tx_mbps": "Offered transmit load", "workload.net_msg_bytes": "Message size",
    "workload.net_streams": "Parallel streams", "workload.net_tool": "Transfer tool",
    "workload.net_crypto": "Transfer encryption", "workload.net_rtt_ms": "Transfer round trip",
    "workload.multicast_pps": "Multicast packet rate",
    "workload.multicast_packet_bytes": "Multicast packet size", "split_rx": "splitRxMode",
    "workload.pcoip_kbps": "PCoIP bandwidth (View 4.x settings)",
    "workload.pcoip_codec": "PCoIP lossless codec",
    "workload.pcoip_client_cache": "PCoIP client cache",
    "workload.pcoip_build_to_lossless": "PCoIP build to lossless",
    "workload.req_per_s": "Requests per second", "workload.resp_kb": "Response size",
    # content library
    "backing": "Backing", "operation": "Operation",
    "enhanced_linked_mode": "Enhanced Linked Mode", "network_gbps": "Network",
    "esxi_hosts": "ESXi hosts", "datastore_mbps": "Datastore throughput",
    "vcenter_cpu_model": "vCenter processor", "vcenter_vcpus": "vCenter vCPUs",
    "vcenter_aes_ni": "vCenter AES-NI",
    "https": "HTTPS transfers", "rhttpproxy": "Reverse HTTP proxy",
    "max_concurrent_transfers": "Maximum concurrent transfers",
    "max_concurrent_sync_items": "Maximum concurrent sync items",
    "max_bandwidth_mbps": "Maximum bandwidth (0 = unlimited)", "item_gb": "Item size",
    "compression_ratio": "Compression ratio", "items": "Items at once",
    "deploy_path": "Deploy data path", "import_source": "Import source",
    "mirror_server": "Mirror server at the subscriber's site",
    # links and the design
    "rtt_ms": "Round trip", "gbps": "Bandwidth",
    "policy.cpu_util_max": "CPU utilisation ceiling",
    "policy.memory_util_max": "Memory utilisation ceiling",
    "growth.cpu_pct": "CPU growth a year", "growth.memory_pct": "Memory growth a year",
    "growth.storage_pct": "Storage growth a year", "growth.iops_pct": "IOPS growth a year",
    "growth.vms_pct": "VM count growth a year", "growth.year": "Year evaluated",
    "demand.cpu_pct": "Measured CPU demand", "demand.memory_pct": "Measured memory held",
    "demand.storage_pct": "Measured storage used",
    "demand.iops_pct": "Measured I/O and network",
    "policy.p95_ms_max": "p95 response-time ceiling", "policy.ha_spare_hosts": "HA spare hosts",
    "policy.vcpu_per_core_max": "vCPU:core ceiling",
    "policy.memory_overcommit_max": "Memory overcommit ceiling",
    "policy.licence_edition": "Licence edition",
    "policy.licence_price_per_core": "Licence price per core",
    "policy.licence_order_minimum": "Licence minimum per order",
}
"""How a property reads on screen (inspector, undo texts, warnings), by property name or
``kind.prop`` where one kind needs its own words."""

CHOICE_LABELS: dict[str, str] = {
    "esxi": "ESXi", "native": "native (bare metal)",
    "vm": "VM traffic", "ft_logging": "FT logging", "vmotion": "vMotion",
    "management": "management", "storage": "storage",
    "unspecified": "unspecified", "twinax": "twinax (SFP+ direct attach)",
    "10gbase_t": "10GBASE-T", "10gbase_sr": "10GBASE-SR (fibre)",
    "ssd": "SSD", "hdd15k": "HDD 15k rpm", "hdd10k": "HDD 10k rpm", "hdd7k": "HDD 7.2k rpm",
    "none": "none", "raid0": "RAID 0", "raid1": "RAID 1", "raid5": "RAID 5", "raid6": "RAID 6",
    "raid10": "RAID 10", "raid_group": "RAID group", "pool": "storage pool",
    "fc": "Fibre Channel", "iscsi": "iSCSI", "nfs": "NFS", "sas": "SAS", "vsan": "vSAN",
    "linux": "Linux", "windows": "Windows", "vmxnet3": "VMXNET3", "vmxnet2": "VMXNET2",
    "e1000": "E1000", "pvscsi": "PVSCSI", "lsi_sas": "LSI Logic SAS",
    "null": "null filter (pass-through)", "cache": "caching filter",
    "replication": "replication filter", "normal": "normal", "high": "high",
    "iometer": "Iometer", "oltp": "OLTP database", "web": "web server", "netperf": "netperf",
    "file_transfer": "file transfer", "multicast_rx": "multicast receiver",
    "cpu_bound": "CPU-bound", "vdi": "VDI desktop", "idle": "idle",
    "scp": "scp", "rsync": "rsync", "bbcp": "bbcp", "ftp": "FTP", "openssh": "OpenSSH",
    "hpn_ssh": "HPN-SSH", "view4": "View 4.x codec", "view5": "View 5.0 codec",
    "datastore": "datastore", "sync": "sync", "deploy": "deploy", "import": "import",
    "export": "export", "vaai": "VAAI copy in the array", "same_host": "through one host",
    "cross_host": "between two hosts", "upload_client": "uploaded from a client",
    "web_server": "pulled from a web server",
    "esa": "ESA (Express Storage Architecture)", "osa": "OSA (Original Storage Architecture)",
    "cluster": "the cluster's default",
    **{e.id: e.short for e in licensing.rules().editions},
}
"""How a choice reads on screen (``raid5`` is "RAID 5"); the design file keeps the name."""


def prop_label(kind: str, prop: str) -> str:
    """The words for ``prop`` of ``kind`` ("vCPUs", "Outstanding I/Os"); a property without
    an entry in :data:`PROP_LABELS` reads as its name in words ("Io block kb")."""
    label = PROP_LABELS.get(f"{kind}.{prop}") or PROP_LABELS.get(prop)
    if label:
        return label
    words = prop.removeprefix("workload.").removeprefix("policy.").replace("_", " ")
    return words[:1].upper() + words[1:]


def choice_label(choice: str) -> str:
    """The words for a choice (:data:`CHOICE_LABELS`; the name itself when none)."""
    return CHOICE_LABELS.get(choice, choice.replace("_", " "))
