"""Content Library transfers: sync, deploy, import and export times by data path.

A transfer is a pipeline of stages, each with the bytes one item pushes through it and two
throughput caps: what one transfer gets at most (a single stream, a single compression thread)
and what all transfers sharing the stage get together (vCenter's rhttpproxy, the Transfer
Service checksum, a NIC, the datastore).  Items move at the pace of the slowest stage
(bottleneck analysis); concurrent transfers share each stage's aggregate equally (processor
sharing) up to their per-transfer cap; transfers beyond the concurrency limit queue, so the
completion time grows by whole batches.

Data paths (Content Library studies, VMware 2015):

- *direct copy*: datastore to datastore with Enhanced Linked Mode (sync) and VM deploys from a
  datastore-backed library copy between ESXi hosts (NFC over the host network) or through one
  host, or inside the array with VAAI.  No compression, no HTTPS, no rhttpproxy, no checksum,
  and the bandwidth limit does not apply (cl-setting-max-bandwidth-consumption).
- *streaming*: everything else goes through the Transfer Service: compression when the source
  is a datastore, rhttpproxy and TLS, the network, a checksum, decompression when the
  destination is a datastore.  Items on a vCenter-mounted NFS library are stored compressed.

Coefficients: a few stage caps are fitted on some published figures (the comment beside each
names the case); the other figures are checked (``models/calibration/content_library.py``).
The studies' own quirk: some times are faster than the link allows, so the per-path caps are
fitted per path, not derived from the line rate alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from models.core import coefficients, events
from models.core.compiled import Compiled, Table
from models.core.platform import REF_GHZ, processor_speed
from models.core.prediction import Resource
from models.core.results import Common
from models.core.sections import LibraryJob, finite
from models.document import numbers
from models.document.numbers import counted, with_unit
from models.document.studies import CL_DEPLOY, CL_SYNC, CL_TUNING
from models.subsystems import transfer

DEPLOY = CL_DEPLOY.title
SYNC = CL_SYNC.title
TUNING = CL_TUNING.title

INF = math.inf

# ---------------------------------------------------------------- coefficients (MB/s = 1e6 B/s)
def _c(name: str, unit: str, prior: float, doc: str) -> coefficients.Coefficient:
    return coefficients.declare(f"content_library.{name}", unit, prior, doc)


LINK_EFFICIENCY = events.TCP_GOODPUT
"""Payload share of the line rate: TCP's framing on 1500-byte frames (:mod:`models.core.events`,
not fitted): 1GbE carries 117.7 MB/s of 125, the check against the study's 'about 120 MB/s'
(cl-export-concurrency-1gbe-link-cap)."""
PROXY_NS = _c(
    "proxy_ns", "ns per byte of the reference core", 2.0,
    "vCenter's reverse HTTP proxy relaying a byte of one transfer on one thread, its TLS"
    " aside (:func:`tls_ns`): turning rhttpproxy off speeds an NFS export up by about 44%"
    " (checksum-bound then; cl-export-exp6-nfs-rhttpproxy-44pct).  Prior: 2 ns (a few passes"
    " over the byte, socket to socket).")
PROXY_CORES = _c(
    "proxy_cores", "cores", 2.0,
    "Cores' worth of work rhttpproxy does for all transfers together: ten exports through it"
    " saturate at about 90 MB/s on 1GbE and 10GbE alike (cl-export-concurrency-rhttpproxy-cap;"
    " VCSA 16 vCPU).  Prior: 2.")
CHECKSUM_NS = _c(
    "checksum_ns", "ns per byte of the reference core", 4.0,
    "The Transfer Service's checksum over a byte of one transfer: NFS-to-NFS sync over 10GbE"
    " without rhttpproxy is 3.7x faster than over 1GbE with it (cl-sync-exp3-nfs-to-nfs)."
    "  Prior: 4 ns (SHA-1 at about 10 cycles a byte).")
CHECKSUM_CORES = _c(
    "checksum_cores", "cores", 8.0,
    "Cores' worth of checksum work the Transfer Service does for all transfers together:"
    " exports without rhttpproxy saturate at about 450 MB/s on 10GbE"
    " (cl-export-concurrency-10gbe-checksum-cap).  Prior: 8 (half the VCSA's vCPUs).")
COMPRESS_NS = _c(
    "compress_ns", "ns per uncompressed byte of the reference core", 20.0,
    "vCenter's compression of a byte of one streamed datastore item, on one thread: the"
    " datastore-to-datastore sync without Enhanced Linked Mode takes 691 s"
    " (cl-sync-exp2-no-elm-datastore-streaming).  Prior: 20 ns (gzip at about 50 MB/s a"
    " core).")
DECOMPRESS_NS = _c(
    "decompress_ns", "ns per uncompressed byte of the reference core", 8.0,
    "Decompressing a byte into a datastore, on one thread: a web-server import into an NFS"
    " library is about 44% faster than into a datastore on 10GbE (cl-import-exp8-exp10-nfs)."
    "  Prior: 8 ns (inflate at about 125 MB/s a core).")
TLS_SOFTWARE = ("aes128-cbc", "hmac-sha1")
"""The Transfer Service's TLS on a processor without AES-NI, the studies' vCenter 6.0 on Xeon
E7530s: TLS 1.2's AES128-SHA suite, ciphered and MACed in software."""
TLS_AES_NI = ("aes128-gcm", "none")
"""... and on a processor with AES-NI: AES-128-GCM, an AEAD that authenticates as it ciphers
(the suites vSphere's TLS 1.2 prefers), on the AES-NI instructions."""


def tls_ns(aes_ni: bool = False) -> float:
    """ns of the reference core to cipher and authenticate one byte of TLS: the published
    cycles the file-transfer model charges ssh for the same cipher and MAC
    (:mod:`models.subsystems.transfer`), not fitted here."""
    cipher, mac = TLS_AES_NI if aes_ni else TLS_SOFTWARE
    cycles = transfer.cipher_cycles() * transfer.CIPHER_SHARE[cipher][int(aes_ni)]
    return (cycles + transfer.MAC_CPB[mac]) / REF_GHZ


def stream_mbps(ns_per_byte: float, speed: float) -> float:
    """MB/s one thread moves at ``ns_per_byte`` of the reference core on a core of ``speed``."""
    return 1000.0 * speed / ns_per_byte if ns_per_byte > 0 else INF


SYNC_STREAM_SHARE = _c(
    "sync_stream_share", "share of the line rate", 0.5,
    "Share of the line rate one vCenter-mediated HTTP stream gets (a subscriber pulling a"
    " streamed item, a client uploading through vCenter): NFS-to-NFS sync over 1GbE takes"
    " 274 s for 5.4 GB (cl-sync-exp3-nfs-to-nfs); far below line rate, as the study notes."
    "  Prior: half.")
WEB_SERVER_SHARE = _c(
    "web_server_share", "share of the line rate", 0.5,
    "Share of the line rate an import pulling from a web server gets: 10GbE speeds it up by"
    " only 10% (cl-import-exp7-exp9-datastore).  Prior: half.")
HOST_COPY_MBPS = _c(
    "host_copy_mbps", "MB/s", 250.0,
    "ESXi datamover copy through one host (NFC / FC HBAs): a deploy between datastores of one"
    " host is about 20% slower than a VAAI deploy (cl-deploy-exp2-same-host-fc).  Prior:"
    " 250 MB/s.")
VAAI_COPY_MBPS = _c(
    "vaai_copy_mbps", "MB/s", 300.0,
    "VAAI (XCOPY) clone inside the array: a deploy between hosts over 1GbE is about 3x slower"
    " than a VAAI deploy (cl-deploy-exp3-cross-host-network).  Prior: 300 MB/s.")
ALLOCATED_SHARE = _c(
    "allocated_share", "share of the provisioned size", 0.5,
    "Share of an item's provisioned size a copy actually moves (thin / sparse disks): the 15 GB"
    " item syncs by direct copy over 1GbE in 105 s and over 10GbE in 63 s"
    " (cl-sync-exp1-elm-datastore-direct, fitted with SUBSCRIBER_SETUP_S).  Prior: half.")
SUBSCRIBER_SETUP_S = _c(
    "subscriber_setup_s", "s", 20.0,
    "Fixed time a sync spends creating the item in a datastore-backed subscribed library (OVF"
    " template registration, disk creation); same case.  Prior: 20 s.")
RANDOM_PENALTY = 0.15
"""Datastore throughput lost per extra concurrent copy (sequential streams interleave into
random I/O).  Assumed: cl-sync-concurrent-10gbe-storage-bound gives the super-linear shape
only."""


RESOURCES = {
    "cl_rhttpproxy": "vCenter rhttpproxy", "cl_tls": "Transfer Service TLS",
    "cl_compress": "vCenter compression", "cl_decompress": "decompression",
    "cl_checksum": "Transfer Service checksum", "cl_network": "library network",
    "cl_throttle": "bandwidth limit", "cl_wan": "WAN", "cl_host_copy": "ESXi host copy",
    "cl_nfs": "vCenter NFS mount",
    "cl_vaai": "VAAI array copy", "cl_datastore": "library datastore"}
"""Stage key -> the resource name the bottleneck list and utilisation chart show."""


@dataclass(frozen=True)
class Stage:
    """One step of a transfer's pipeline."""

    key: str
    label: str
    mb: float
    """MB one item pushes through this stage."""
    per_transfer: float = INF
    """MB/s one transfer gets at most."""
    aggregate: float = INF
    """MB/s all transfers sharing the stage get together."""
    shared_by: int = 1
    """Other libraries' transfers on the same stage, as a multiple of this library's (a
    publisher serving several subscribers)."""
    random_penalty: bool = False
    """Aggregate falls as concurrent copies interleave (a datastore)."""
    source: str = SYNC
    speed: float | None = None
    """Per-core speed of the vCenter whose cores do this stage's work (None: not CPU work)."""


@dataclass
class Transfer:
    """What one library's operation does, end to end."""

    id: str
    name: str
    operation: str
    mode: str
    items: int
    active: int
    queued: int
    completion_s: float
    throughput_mbps: float
    bound_by: str
    stages: list[tuple[Stage, float]] = field(default_factory=list)
    """Each stage with its utilisation."""
    extra: dict[str, Any] = field(default_factory=dict)

    def job(self) -> LibraryJob:
        """The prediction's view of it."""
        return LibraryJob(self.id, self.name, self.operation, self.mode, self.items,
                          self.active, self.queued, finite(self.completion_s),
                          finite(self.throughput_mbps), self.bound_by, dict(self.extra))


@dataclass
class ContentLibraryResult(Common):
    transfers: list[Transfer] = field(default_factory=list)
    jobs: list[LibraryJob] | None = None


def link_mbps(gbps: float) -> float:
    """Payload MB/s of one port of ``gbps`` line rate."""
    return gbps * 125.0 * LINK_EFFICIENCY


# ---------------------------------------------------------------- reading the design
def _row(t: Table, i: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, spec in t.specs.items():
        v = t.cols[name][i]
        if spec.type == "enum" and spec.choices is not None and isinstance(spec.choices[0], str):
            out[name] = spec.choices[int(v)]
        elif spec.type == "bool":
            out[name] = bool(v)
        elif spec.type == "int":
            out[name] = int(v)
        elif spec.type == "str":
            out[name] = str(v or "")
        else:
            out[name] = float(v)
    return out


def _sizes(lib: dict[str, Any]) -> tuple[float, float]:
    """(MB moved uncompressed, MB moved compressed) per item."""
    gb = float(lib["item_gb"])
    return ALLOCATED_SHARE.value * gb * 1000.0, gb * 1000.0 / float(lib["compression_ratio"])


def _proxy(mb: float, src: dict[str, Any], shared: int, source: str) -> list[Stage]:
    """rhttpproxy and TLS on the sending vCenter (``src``), one thread per transfer: the
    proxy's relay (:data:`PROXY_NS`, its cores shared by all transfers) and the cipher and MAC
    (:func:`tls_ns`), each at the speed of that vCenter's cores."""
    https, proxy = bool(src["https"]), bool(src["rhttpproxy"])
    ns = (PROXY_NS.value if proxy else 0.0) + (
        tls_ns(bool(src["vcenter_aes_ni"])) if https else 0.0)
    if ns <= 0:
        return []
    if proxy:
        label = "vCenter rhttpproxy" + (" (HTTPS)" if https else " (HTTP)")
        return [_cpu_stage("cl_rhttpproxy", label, mb, ns, src, PROXY_CORES.value, shared,
                           source)]
    return [_cpu_stage("cl_tls", "Transfer Service TLS", mb, ns, src,
                       int(src["vcenter_vcpus"]), shared, source)]


def _cpu_stage(key: str, label: str, mb: float, ns: float, vcenter: dict[str, Any],
               cores: float, shared: int = 1, source: str = SYNC) -> Stage:
    """Work of ``ns`` per byte of the reference core on ``vcenter``'s cores: one thread per
    transfer, ``cores`` cores' worth for all of them together."""
    speed = float(vcenter["vcenter_speed"])
    per = stream_mbps(ns, speed)
    return Stage(key, label, mb, per, per * cores, shared, source=source, speed=speed)


def vcenter_speed(model: str) -> float | None:
    """Per-core speed of the processor vCenter runs on, relative to the reference core
    (:mod:`models.core.platform`): 1.0 when none is given, None when the catalogue lacks it."""
    if not model.strip():
        return 1.0
    try:
        return processor_speed(model)
    except LookupError:
        return None


def _throttle(mb: float, mbit: float, shared: int) -> list[Stage]:
    if mbit <= 0:
        return []
    return [Stage("cl_throttle", "Maximum Bandwidth Consumption", mb, INF, mbit / 8.0, shared,
                  source=TUNING)]


def _datastore(lib: dict[str, Any], mb: float, shared: int = 1) -> Stage:
    return Stage("cl_datastore", "library datastore", mb, INF, float(lib["datastore_mbps"]),
                 shared, random_penalty=True, source=SYNC)


def _streaming(lib: dict[str, Any], src: dict[str, Any], src_ds: bool, dst_ds: bool,
               share: float, gbps: float, shared: int, proxy: bool = True,
               src_nfs: bool = False, dst_nfs: bool = False) -> list[Stage]:
    """The Transfer Service pipeline from a library (``src``) to a destination.  An NFS
    library is mounted on vCenter, not on a host: the Transfer Service reads (``src_nfs``)
    or writes (``dst_nfs``) it over vCenter's own network, so every byte of an NFS library
    passes through vCenter (a stage at vCenter's line rate, shared by its transfers).  The
    stages overlap (pipelined): the studies' NFS export gains nothing from 10GbE once the
    checksum binds, so the NFS read does not add to it."""
    raw, packed = _sizes(lib)
    stages: list[Stage] = []
    link = link_mbps(gbps)
    if src_nfs:
        stages.append(Stage("cl_nfs", "NFS read through vCenter", packed, link, link, shared))
    if src_ds:
        stages.append(_cpu_stage("cl_compress", "vCenter compression", raw, COMPRESS_NS.value,
                                 src, int(src["vcenter_vcpus"]), shared))
    if proxy:
        stages += _proxy(packed, src, shared, SYNC)
    stages.append(Stage("cl_network", f"network {gbps:g} GbE", packed, share * gbps * 125.0,
                        link_mbps(gbps), shared))
    limits = [m for m in (float(src["max_bandwidth_mbps"]), float(lib["max_bandwidth_mbps"]))
              if m > 0]
    stages += _throttle(packed, min(limits) if limits else 0.0, shared)
    stages.append(_cpu_stage("cl_checksum", "Transfer Service checksum", packed,
                             CHECKSUM_NS.value, lib, CHECKSUM_CORES.value, shared))
    if dst_nfs:
        stages.append(Stage("cl_nfs", "NFS write through vCenter", packed, link, link))
    if dst_ds:
        stages.append(_cpu_stage("cl_decompress", "decompression", raw, DECOMPRESS_NS.value,
                                 lib, int(lib["vcenter_vcpus"])))
        stages.append(_datastore(lib, raw))
    return stages


def plan(lib: dict[str, Any], source: dict[str, Any] | None = None,
         subscribers_active: int = 1) -> tuple[str, list[Stage], float, float]:
    """The pipeline of ``lib``'s operation: (mode, stages, fixed setup s, MB moved per item).

    ``source`` is the published library a sync pulls from (None: nothing to sync);
    ``subscribers_active`` how many subscribed libraries share the publisher's stages.
    """
    raw, packed = _sizes(lib)
    op = lib["operation"]
    gbps = float(lib["network_gbps"])
    hosts = int(lib["esxi_hosts"])
    ds = lib["backing"] == "datastore"
    if op == "sync":
        assert source is not None
        src_ds = source["backing"] == "datastore"
        gbps = min(gbps, float(source["network_gbps"]))
        setup = SUBSCRIBER_SETUP_S.value if ds else 0.0
        if src_ds and ds and lib["enhanced_linked_mode"]:
            return "direct copy", [
                Stage("cl_network", f"ESXi network {gbps:g} GbE", raw, link_mbps(gbps),
                      link_mbps(gbps) * hosts, subscribers_active),
                Stage("cl_host_copy", "ESXi host copy (NFC)", raw, HOST_COPY_MBPS.value,
                      HOST_COPY_MBPS.value * hosts, source=DEPLOY),
                _datastore(lib, raw)], setup, raw
        stages = _streaming(lib, source, src_ds, ds, SYNC_STREAM_SHARE.value, gbps,
                            subscribers_active, src_nfs=not src_ds, dst_nfs=not ds)
        return "streaming", stages, setup, packed
    if op == "export":
        return "streaming", ([_datastore(lib, raw)] if ds else []) + _streaming(
            lib, lib, ds, False, LINK_EFFICIENCY, gbps, 1, src_nfs=not ds), 0.0, packed
    if op == "import":
        if lib["import_source"] == "web_server":  # the Transfer Service pulls: no rhttpproxy
            stages = _streaming(lib, lib, False, ds, WEB_SERVER_SHARE.value, gbps, 1,
                                proxy=False, dst_nfs=not ds)
        else:
            stages = _streaming(lib, lib, False, ds, SYNC_STREAM_SHARE.value, gbps, 1,
                                dst_nfs=not ds)
        return "streaming", stages, 0.0, packed
    # deploy: from an NFS library the item comes through vCenter (NFS read, then a stream to
    # the ESXi host, decompressed into its datastore)
    if not ds:
        return "streaming", _streaming(lib, lib, False, True, LINK_EFFICIENCY, gbps,
                                       1, src_nfs=True), 0.0, packed
    path = lib["deploy_path"]
    if path == "vaai":
        stages = [Stage("cl_vaai", "VAAI array copy", raw, VAAI_COPY_MBPS.value, source=DEPLOY)]
    elif path == "same_host":
        stages = [Stage("cl_host_copy", "ESXi host copy (FC)", raw, HOST_COPY_MBPS.value,
                        HOST_COPY_MBPS.value * hosts, source=DEPLOY)]
    else:
        stages = [Stage("cl_network", f"ESXi network {gbps:g} GbE", raw, link_mbps(gbps),
                        link_mbps(gbps) * hosts, source=DEPLOY),
                  Stage("cl_host_copy", "ESXi host copy (NFC)", raw, HOST_COPY_MBPS.value,
                        HOST_COPY_MBPS.value * hosts, source=DEPLOY)]
    stages.append(_datastore(lib, raw))
    return "VAAI" if path == "vaai" else "direct copy", stages, 0.0, raw


def run_pipeline(stages: list[Stage], items: int, slots: int, setup_s: float = 0.0,
                 rounds: int = 1) -> tuple[float, float, int, list[float], int]:
    """Completion of ``items`` equal transfers with at most ``slots`` at once.

    Returns (completion s, seconds per batch, active transfers, stage utilisations, index of
    the binding stage).  ``rounds`` repeats the whole run (subscribers waiting for a free
    fan-out slot).
    """
    k = max(1, min(items, slots))
    batches = math.ceil(items / k)
    rates = []
    for s in stages:
        agg = s.aggregate
        if s.random_penalty:
            agg = agg / (1.0 + RANDOM_PENALTY * (k * s.shared_by - 1))
        rates.append(min(s.per_transfer, agg / (k * s.shared_by)) / s.mb if s.mb > 0 else INF)
    rate = float(min(rates)) if rates else INF  # items/s per transfer
    batch_s = 1.0 / rate if rate > 0 else INF
    utils = []
    for s in stages:
        agg = s.aggregate
        if s.random_penalty:
            agg = agg / (1.0 + RANDOM_PENALTY * (k * s.shared_by - 1))
        cap = min(agg, k * s.shared_by * s.per_transfer)
        u = float(k * s.shared_by * rate * s.mb / cap) if cap > 0 else 0.0
        utils.append(min(u, 1.0) if u < 1.0 + 1e-9 else u)  # rounding at the bottleneck
    bound = int(np.argmin(rates)) if rates else -1
    return rounds * batches * (setup_s + batch_s), batch_s, k, utils, bound


# ---------------------------------------------------------------- the engine's step
def solve(c: Compiled) -> ContentLibraryResult:
    """Every library's transfer, stage utilisations as resources, queueing warnings."""
    out = ContentLibraryResult()
    t = c.library
    if len(t) == 0:
        return out
    rows = [_row(t, i) for i in range(len(t))]
    for i, lib in enumerate(rows):
        speed = vcenter_speed(str(lib["vcenter_cpu_model"]))
        lib["vcenter_speed"] = 1.0 if speed is None else speed
        if speed is None:
            out.warnings.append(
                f"content library '{t.ids[i]}': vCenter processor '{lib['vcenter_cpu_model']}'"
                " is not in the processor catalogue; its work is counted at the reference"
                " core's speed")
    sub = c.links["subscribes_to"]
    publisher = np.full(len(t), -1, np.int64)
    publisher[sub.cols["src"]] = sub.cols["dst"]
    at = c.links["library_at"]
    site = np.full(len(t), -1, np.int64)
    site[at.cols["src"]] = at.cols["dst"]
    wan = c.links["wan"]
    wan_gbps = {(int(a), int(b)): float(g) for a, b, g in
                zip(wan.cols["src"], wan.cols["dst"], wan.cols["gbps"], strict=True)}

    subscribers: dict[int, list[int]] = {}
    for i in range(len(t)):
        if rows[i]["operation"] == "sync" and publisher[i] >= 0:
            subscribers.setdefault(int(publisher[i]), []).append(i)

    for i, lib in enumerate(rows):
        lid, name = t.ids[i], c.names.get(t.ids[i], t.ids[i])
        op = lib["operation"]
        if op == "sync" and publisher[i] < 0:
            subs = subscribers.get(i, [])
            extra: dict[str, Any] = {"subscribers": len(subs)}
            if subs:
                extra.update(_fanout(c, rows, i, subs, site, wan_gbps, out))
            out.transfers.append(Transfer(lid, name, "publish", "none", 0, 0, 0, math.nan, 0.0,
                                          "", extra=extra))
            continue
        source = rows[int(publisher[i])] if op == "sync" else None
        rounds, active_subs, extra = 1, 1, {}
        slots = int(lib["max_concurrent_transfers"])
        if op == "sync":
            assert source is not None
            pub = int(publisher[i])
            fan = _fanout_slots(source, lib)
            peers = subscribers[pub]
            active_subs = min(len(peers), fan)
            rounds = math.ceil(len(peers) / fan)
            slots = min(int(lib["max_concurrent_sync_items"]),
                        int(source["max_concurrent_transfers"]))
            extra = {"publisher": t.ids[pub], "concurrent_subscribers": active_subs,
                     "subscriber_rounds": rounds}
        mode, stages, setup, moved = plan(lib, source, active_subs)
        if op == "sync":
            stages += _wan_stage(rows, i, int(publisher[i]), subscribers, site, wan_gbps,
                                 stages, extra)
        items = int(lib["items"])
        completion, _, k, utils, bound = run_pipeline(stages, items, slots, setup, rounds)
        queued = items - k
        if bound >= 0 and stages[bound].speed is not None:
            extra["vcenter_speed"] = stages[bound].speed
        tr = Transfer(lid, name, op, mode, items, k, queued, completion,
                      items * moved / completion if completion > 0 else 0.0,
                      stages[bound].label if bound >= 0 else "",
                      list(zip(stages, utils, strict=True)), extra)
        out.transfers.append(tr)
        limit = "Library Maximum Concurrent SyncItems" if op == "sync" else \
            "Maximum Number of Concurrent Transfers"
        if queued > 0:
            out.warnings.append(f"content library '{lid}': {queued} of"
                                f" {counted(items, f'{op} transfer')}"
                                f" queue behind {limit} ({k})")
        for s, u in tr.stages:
            if u > 0 and math.isfinite(u):
                out.resources.append(Resource(
                    lid, RESOURCES[s.key], float(u),
                    f"{name}: {s.label} {100 * u:.0f}% busy during the {op} ({mode})", s.source))
    out.jobs = [tr.job() for tr in out.transfers]
    return out


def _fanout_slots(pub: dict[str, Any], sub: dict[str, Any]) -> int:
    """Subscribed libraries one published library syncs at once:
    floor(Maximum Number of Concurrent Transfers / Library Maximum Concurrent SyncItems)
    (cl-setting-sync-items-and-subscriber-fanout); at least one."""
    return max(1, int(pub["max_concurrent_transfers"]) // int(sub["max_concurrent_sync_items"]))


def _wan_copies(rows: list[dict[str, Any]], pub: int, subs: list[int],
                site: np.ndarray) -> dict[int, int]:
    """Copies of each item crossing the WAN to each remote site: one per subscriber, or one
    per site whose subscribers pull through a mirror server (cl-mirror-server-wan-fanout)."""
    out: dict[int, int] = {}
    mirrored: set[int] = set()
    for j in subs:
        s = int(site[j])
        if s < 0 or s == int(site[pub]):
            continue
        if rows[j]["mirror_server"]:
            if s not in mirrored:
                mirrored.add(s)
                out[s] = out.get(s, 0) + 1
        else:
            out[s] = out.get(s, 0) + 1
    return out


def _wan_stage(rows: list[dict[str, Any]], i: int, pub: int, subscribers: dict[int, list[int]],
               site: np.ndarray, wan_gbps: dict[tuple[int, int], float], stages: list[Stage],
               extra: dict[str, Any]) -> list[Stage]:
    s, p = int(site[i]), int(site[pub])
    if s < 0 or p < 0 or s == p:
        return []
    gbps = wan_gbps.get((p, s), wan_gbps.get((s, p)))
    copies = _wan_copies(rows, pub, subscribers[pub], site)
    extra["wan_copies_to_site"] = copies.get(s, 0)
    if gbps is None:
        return []
    mb = next((st.mb for st in stages if st.key == "cl_network"), stages[0].mb)
    if rows[i]["mirror_server"]:
        mb = mb / max(1, sum(1 for j in subscribers[pub] if int(site[j]) == s
                             and rows[j]["mirror_server"]))
    return [Stage("cl_wan", f"WAN {with_unit(gbps, 'Gbit/s')}", mb, INF, link_mbps(gbps),
                  max(1, sum(copies.values())), source=TUNING)]


def _fanout(c: Compiled, rows: list[dict[str, Any]], pub: int, subs: list[int],
            site: np.ndarray, wan_gbps: dict[tuple[int, int], float],
            out: ContentLibraryResult) -> dict[str, Any]:
    fan = min(_fanout_slots(rows[pub], rows[j]) for j in subs)
    copies = _wan_copies(rows, pub, subs, site)
    items = max(int(rows[j]["items"]) for j in subs)
    _, packed = _sizes(rows[pub])
    if len(subs) > fan:
        out.warnings.append(
            f"content library '{c.library.ids[pub]}': {len(subs)} subscribed libraries, at most"
            f" {fan} sync at once (Maximum Number of Concurrent Transfers / Library Maximum"
            " Concurrent SyncItems); the others wait")
    return {"concurrent_subscribers": min(fan, len(subs)),
            "wan_copies_per_item": sum(copies.values()),
            "wan_gb": sum(copies.values()) * items * packed / 1000.0}


def describe(jobs: list[LibraryJob], cid: str) -> list[str]:
    """What library ``cid`` does among a prediction's Content Library ``jobs``, in words for
    tooltips and the command line: its job's time, rate and limit, or for a publisher, whom it
    serves."""
    job = next((j for j in jobs if j.id == cid), None)
    if job is None:
        return []
    if job.operation == "publish":
        n = int(job.detail.get("subscribers", 0))
        out = [f"publishes to {n} subscribed librar{'y' if n == 1 else 'ies'}"]
        if job.detail.get("wan_gb"):
            out.append(f"{job.detail['wan_gb']:,.0f} GB over WAN links per sync")
        return out
    if not job.items or job.completion_s is None:
        return ["no items to move"]
    out = [f"{job.operation} of {job.items} item{'' if job.items == 1 else 's'}:"
           f" {duration(job.completion_s)}"
           f" at {with_unit(job.throughput_mbps or 0.0, 'MB/s')} ({job.mode})"]
    if job.queued:
        out.append(f"{job.queued} wait for a transfer slot")
    if job.bound_by:
        speed = job.detail.get("vcenter_speed")
        out.append(f"bound by {job.bound_by}" + (
            "" if speed is None else
            f", on vCenter cores worth {numbers.number(float(speed))} x the reference core"))
    return out


def duration(seconds: float) -> str:
    """``45 s``, ``4.9 min``, ``1.5 h``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"
