"""Content Library calibration: the 2015 sync / import / export, deploy and tuning studies.

Each testbed is rebuilt as a design (publisher and subscriber libraries, their backing, the
network, the Transfer Service settings) and evaluated through the public engine; times and
throughputs are read from ``extras["content_library"]``.
"""

from __future__ import annotations

from typing import Any

from models.calibration import Check, published
from models.calibration.fit import Fitter, Target
from models.core.prediction import Prediction
from models.core.sections import to_json
from models.document.design import Component, Design, Link
from models.engine.evaluation import evaluate
from models.subsystems import content_library as cl

ITEM: dict[str, Any] = {"item_gb": 15.0, "compression_ratio": 15.0 / 5.4,
                        "vcenter_cpu_model": "Intel Xeon E7530", "vcenter_vcpus": 16,
                        "vcenter_aes_ni": False}
"""The sync study's OVF template (Red Hat VM): 15 GB uncompressed, 5.4 GB compressed; both
studies' vCenter, a VCSA 6.0 of 16 vCPUs on a Dell R910 of Xeon E7530s (1.87 GHz, Nehalem-EX:
no AES-NI)."""
HTTP: dict[str, Any] = {"rhttpproxy": False, "https": False}
"""The studies' "rhttpproxy off": the Transfer Service serves plain HTTP directly."""


def sync_design(pub: dict[str, Any], sub: dict[str, Any], common: dict[str, Any] | None = None,
                name: str = "Content Library sync") -> Design:
    """A published library and one subscribed library syncing from it."""
    base = dict(ITEM, **(common or {}))
    d = Design(name=name)
    d.components.append(Component("pub", "content_library", "published",
                                  props=dict(base, **pub)))
    d.components.append(Component("sub", "content_library", "subscribed",
                                   props={**base, "operation": "sync", **sub}))
    d.links.append(Link("sub", "pub", "subscribes_to"))
    return d


def one_library(props: dict[str, Any], name: str = "Content Library") -> Design:
    d = Design(name=name)
    d.components.append(Component("lib", "content_library", name, props=dict(ITEM, **props)))
    return d


def transfer(p: Prediction, lid: str) -> dict[str, Any]:
    """Library ``lid``'s job as the prediction JSON writes it (the figures the studies
    publish are compared with the public output)."""
    for job in p.sections.content_library or []:
        if job.id == lid:
            out: dict[str, Any] = to_json(job)
            return out
    raise KeyError(lid)


def sync_s(pub: dict[str, Any], sub: dict[str, Any], common: dict[str, Any]) -> float:
    return float(transfer(evaluate(sync_design(pub, sub, common)), "sub")["completion_s"])


def one_s(props: dict[str, Any]) -> float:
    return float(transfer(evaluate(one_library(props)), "lib")["completion_s"])


def _gbe(g: float, **kw: Any) -> dict[str, Any]:
    return dict(network_gbps=g, **kw)


def _sync_checks() -> list[Check]:
    ds, nfs = {"backing": "datastore"}, {"backing": "nfs"}
    elm = dict(ds, enhanced_linked_mode=True)
    e1 = {g: sync_s(ds, elm, _gbe(g)) for g in (1.0, 10.0)}
    e2 = {g: sync_s(ds, ds, _gbe(g)) for g in (1.0, 10.0)}
    e2_http = sync_s(dict(ds, **HTTP), ds, _gbe(1.0))
    e3 = {g: sync_s(nfs, nfs, _gbe(g)) for g in (1.0, 10.0)}
    e3_http = sync_s(dict(nfs, **HTTP), nfs, _gbe(10.0))
    e4 = sync_s(nfs, ds, _gbe(1.0))
    return [
        Check("cl-sync-exp1-elm-datastore-direct", "sync time, ELM datastore->datastore, 1GbE (s)",
              105.0, e1[1.0], 0.05, "fit", note="fits ALLOCATED_SHARE and SUBSCRIBER_SETUP_S"),
        Check("cl-sync-exp1-elm-datastore-direct", "sync time, ELM datastore->datastore, 10GbE"
              " (s)", 63.0, e1[10.0], 0.05, "fit",
              note="bound by the host copy cap fitted on the deploy study"),
        Check("cl-sync-exp2-no-elm-datastore-streaming", "sync time, no ELM, datastores, 1GbE"
              " (s)", 691.0, e2[1.0], 0.05, "fit", note="fits COMPRESS_NS"),
        Check("cl-sync-exp2-no-elm-datastore-streaming", "10GbE / 1GbE sync time (no"
              " measurable effect)", 1.0, e2[10.0] / e2[1.0], 0.05, "check"),
        Check("cl-sync-exp2-no-elm-datastore-streaming", "rhttpproxy off / on sync time"
              " (marginal)", 1.0, e2_http / e2[1.0], 0.05, "check"),
        Check("cl-sync-exp3-nfs-to-nfs", "sync time, NFS->NFS, 1GbE HTTPS (s)", 274.0, e3[1.0],
              0.05, "fit", note="fits SYNC_STREAM_SHARE"),
        Check("cl-sync-exp3-nfs-to-nfs", "sync time, NFS->NFS, 10GbE HTTPS (s): more than"
              " halved", 137.0, e3[10.0], 0.0, "check", bound="lt"),
        Check("cl-sync-exp3-nfs-to-nfs", "1GbE HTTPS / 10GbE without rhttpproxy (x)", 3.7,
              e3[1.0] / e3_http, 0.05, "fit", note="fits CHECKSUM_NS"),
        Check("cl-sync-exp3-nfs-to-nfs", "ranking: ELM < NFS->NFS < NFS->ds < no-ELM ds->ds",
              1.0, float(e1[1.0] < e3[1.0] < e4 < e2[1.0]), 0.0, "check",
              note=f"NFS->datastore {e4:.0f} s (cl-sync-recommendations)"),
    ]


def _concurrency_checks() -> list[Check]:
    win = {"item_gb": 41.0, "backing": "datastore", "esxi_hosts": 2}
    elm = {"backing": "datastore", "enhanced_linked_mode": True, "esxi_hosts": 2}

    def t(g: float, n: int) -> tuple[float, dict[str, Any]]:
        p = evaluate(sync_design({}, dict(elm, items=n), dict(win, network_gbps=g)))
        row = transfer(p, "sub")
        net = max((r.util for r in p.resources if r.component == "sub"
                   and r.resource == "library network"), default=0.0)
        return float(row["completion_s"]), {"net": net, **row}

    one, two = t(1.0, 1)[0], t(1.0, 2)[0]
    five, ten = t(1.0, 5)[0], t(1.0, 10)[0]
    t3, t5 = t(10.0, 3), t(10.0, 5)
    return [
        Check("cl-sync-concurrent-1gbe-linear", "2 items / 1 item sync time, 1GbE, 2 hosts",
              1.0, two / one, 0.02, "check"),
        Check("cl-sync-concurrent-1gbe-linear", "10 items / 5 items sync time, 1GbE (linear)",
              2.0, ten / five, 0.05, "check"),
        Check("cl-sync-concurrent-10gbe-storage-bound", "5 items / 3 items sync time, 10GbE"
              " (super-linear: over 5/3)", 5.0 / 3.0, t5[0] / t3[0], 0.0, "check", bound="gt",
              note=f"bound by {t5[1]['bound_by']}; RANDOM_PENALTY assumed"),
        Check("cl-sync-concurrent-10gbe-storage-bound", "network utilisation, 5 items, 10GbE"
              " (not saturated)", 1.0, t5[1]["net"], 0.0, "check", bound="lt"),
    ]


def _export_checks() -> list[Check]:
    nfs = {"backing": "nfs", "operation": "export"}

    def agg(g: float, http: bool, n: int = 10) -> float:
        props = dict(nfs, network_gbps=g, items=n, **(HTTP if http else {}))
        return float(transfer(evaluate(one_library(props)), "lib")["throughput_MBps"])

    def secs(g: float, http: bool) -> float:
        return one_s(dict(nfs, network_gbps=g, **(HTTP if http else {})))

    return [
        Check("cl-export-concurrency-rhttpproxy-cap", "10 concurrent exports, rhttpproxy,"
              " 1GbE (MB/s)", 90.0, agg(1.0, False), 0.05, "fit",
              note="fits PROXY_CORES"),
        Check("cl-export-concurrency-rhttpproxy-cap", "10 concurrent exports, rhttpproxy,"
              " 10GbE (MB/s)", 90.0, agg(10.0, False), 0.05, "check"),
        Check("cl-export-concurrency-1gbe-link-cap", "10 concurrent exports, no rhttpproxy,"
              " 1GbE (MB/s)", 120.0, agg(1.0, True), 0.05, "check",
              note="TCP's framing on the wire, not fitted"),
        Check("cl-export-concurrency-10gbe-checksum-cap", "10 concurrent exports, no"
              " rhttpproxy, 10GbE (MB/s)", 450.0, agg(10.0, True), 0.05, "fit",
              note="fits CHECKSUM_CORES"),
        Check("cl-export-exp6-nfs-rhttpproxy-44pct", "NFS export speed, rhttpproxy off / on,"
              " 1GbE", 1.44, secs(1.0, False) / secs(1.0, True), 0.05, "fit",
              note="fits PROXY_NS (TLS: published cipher and MAC cycles)"),
        Check("cl-export-exp6-nfs-rhttpproxy-44pct", "NFS export speed without rhttpproxy,"
              " 10GbE / 1GbE (no gain: checksum)", 1.0, secs(1.0, True) / secs(10.0, True),
              0.05, "check"),
    ]


def _import_checks() -> list[Check]:
    def secs(backing: str, src: str, g: float, http: bool = False) -> float:
        return one_s({"backing": backing, "operation": "import", "import_source": src,
                      "network_gbps": g, **(HTTP if http else {})})

    e7 = secs("datastore", "upload_client", 1.0)
    e7_http = secs("datastore", "upload_client", 1.0, True)
    e9 = {g: secs("datastore", "web_server", g) for g in (1.0, 10.0)}
    e8 = secs("nfs", "upload_client", 10.0)
    e7_10 = secs("datastore", "upload_client", 10.0)
    e10 = secs("nfs", "web_server", 10.0)
    return [
        Check("cl-import-exp7-exp9-datastore", "web-server / upload-client import time, 1GbE"
              " (more than halved)", 0.5, e9[1.0] / e7, 0.0, "check", bound="lt"),
        Check("cl-import-exp7-exp9-datastore", "upload-client import, rhttpproxy off / on,"
              " 1GbE (virtually no change)", 1.0, e7_http / e7, 0.05, "check"),
        Check("cl-import-exp7-exp9-datastore", "web-server import speed, 10GbE / 1GbE", 1.10,
              e9[1.0] / e9[10.0], 0.03, "fit", note="fits WEB_SERVER_SHARE"),
        Check("cl-import-exp8-exp10-nfs", "web-server import speed, NFS / datastore library,"
              " 10GbE", 1.44, e9[10.0] / e10, 0.05, "fit", note="fits DECOMPRESS_NS"),
        Check("cl-import-exp8-exp10-nfs", "upload-client import time, NFS / datastore library,"
              " 10GbE (slightly better: at most 1)", 1.0, e8 / e7_10, 0.0, "check",
              bound="lt"),
    ]


def _deploy_checks() -> list[Check]:
    item = {"item_gb": 39.0, "operation": "deploy", "backing": "datastore"}

    def secs(path: str, g: float = 1.0) -> float:
        return one_s(dict(item, deploy_path=path, network_gbps=g))

    vaai = secs("vaai")
    same, cross1, cross10 = secs("same_host"), secs("cross_host"), secs("cross_host", 10.0)
    return [
        Check("cl-deploy-exp1-vaai-baseline", "VAAI deploy / fastest other path (VAAI is best)",
              1.0, vaai / min(same, cross1, cross10), 0.0, "check", bound="lt"),
        Check("cl-deploy-exp2-same-host-fc", "same-host deploy / VAAI deploy", 1.2, same / vaai,
              0.05, "fit", note="fits HOST_COPY_MBPS"),
        Check("cl-deploy-exp3-cross-host-network", "cross-host 1GbE deploy / VAAI deploy", 3.0,
              cross1 / vaai, 0.05, "fit", note="fits VAAI_COPY_MBPS"),
        Check("cl-deploy-exp3-cross-host-network", "cross-host 10GbE deploy / VAAI (similar to"
              " Exp 2)", 1.2, cross10 / vaai, 0.1, "check"),
    ]


def _tuning_checks() -> list[Check]:
    nfs_export = {"backing": "nfs", "operation": "export", "network_gbps": 10.0, **HTTP}
    free = float(transfer(evaluate(one_library(nfs_export)), "lib")["throughput_MBps"])
    capped = float(transfer(evaluate(one_library(dict(nfs_export, max_bandwidth_mbps=200.0))),
                            "lib")["throughput_MBps"])
    elm = {"backing": "datastore", "enhanced_linked_mode": True}
    direct = sync_s({}, elm, {"network_gbps": 1.0})
    direct_capped = sync_s({"max_bandwidth_mbps": 200.0}, dict(elm, max_bandwidth_mbps=200.0),
                           {"network_gbps": 1.0})
    # 21 concurrent deploys against the default limit of 20
    deploys = transfer(evaluate(one_library({"operation": "deploy", "items": 21,
                                             "deploy_path": "vaai"})), "lib")
    # one published library, ten subscribers with 5+ items each (defaults 20 and 5)
    fan = Design(name="fan-out")
    fan.components.append(Component("pub", "content_library", props=dict(ITEM)))
    for j in range(10):
        fan.components.append(Component(f"s{j}", "content_library", props=dict(
            ITEM, items=5, backing="nfs")))
        fan.links.append(Link(f"s{j}", "pub", "subscribes_to"))
    fp = evaluate(fan)
    pub_row, sub_row = transfer(fp, "pub"), transfer(fp, "s0")
    return [
        Check("cl-setting-max-bandwidth-consumption", "streamed export throughput with a 200"
              " Mbit/s limit (MB/s)", 25.0, capped, 0.01, "rule",
              note=f"unlimited: {free:.0f} MB/s"),
        Check("cl-setting-max-bandwidth-consumption", "direct-copy sync time, 200 Mbit/s limit /"
              " unlimited (not applied)", 1.0, direct_capped / direct, 1e-9, "rule"),
        Check("cl-setting-max-concurrent-transfers", "deploys queued of 21 (limit 20)", 1.0,
              float(deploys["queued"]), 0.0, "rule"),
        Check("cl-setting-sync-items-and-subscriber-fanout", "items per subscribed library at"
              " once", 5.0, float(sub_row["active"]), 0.0, "rule"),
        Check("cl-setting-sync-items-and-subscriber-fanout", "subscribed libraries syncing at"
              " once", 4.0, float(pub_row["concurrent_subscribers"]), 0.0, "rule"),
        *_mirror_checks(),
    ]


def mirror_design(mirror: bool, remote_sites: int = 2, per_site: int = 3) -> Design:
    """A published library at the main site, ``per_site`` subscribers at each remote site."""
    d = Design(name="WAN fan-out" + (" with mirror servers" if mirror else ""))
    d.components.append(Component("main", "site", "Main site"))
    d.components.append(Component("pub", "content_library", "published",
                                  props=dict(ITEM, backing="nfs")))
    d.links.append(Link("pub", "main", "library_at"))
    for s in range(remote_sites):
        sid = f"site{s + 1}"
        d.components.append(Component(sid, "site", f"Branch {s + 1}"))
        d.links.append(Link("main", sid, "wan", {"rtt_ms": 40.0, "gbps": 0.1}))
        for k in range(per_site):
            lid = f"sub{s + 1}{k + 1}"
            d.components.append(Component(lid, "content_library", lid, props=dict(
                ITEM, backing="nfs", operation="sync", mirror_server=mirror)))
            d.links.append(Link(lid, "pub", "subscribes_to"))
            d.links.append(Link(lid, sid, "library_at"))
    return d


def _mirror_checks() -> list[Check]:
    off = transfer(evaluate(mirror_design(False)), "pub")
    on = transfer(evaluate(mirror_design(True)), "pub")
    return [
        Check("cl-mirror-server-wan-fanout", "WAN copies per item, 6 subscribers at 2 sites,"
              " no mirror", 6.0, float(off["wan_copies_per_item"]), 0.0, "rule"),
        Check("cl-mirror-server-wan-fanout", "WAN copies per item, mirror server at each site",
              2.0, float(on["wan_copies_per_item"]), 0.0, "rule"),
    ]


def checks() -> list[Check]:
    return [*_sync_checks(), *_concurrency_checks(), *_export_checks(), *_import_checks(),
            *_deploy_checks(), *_tuning_checks()]


def fit(f: Fitter) -> None:
    """Stage caps from the figures that show each stage binding, in the order the pipeline
    exposes them: the line rate, the aggregate caps (exports), the copy paths (deploys), the
    direct sync (setup and moved share), then the streamed stages one at a time."""
    same, cross = "cl-deploy-exp2-same-host-fc", "cl-deploy-exp3-cross-host-network"
    item = {"item_gb": 39.0, "operation": "deploy", "backing": "datastore"}

    def deploy_s(path: str, g: float = 1.0) -> float:
        return one_s(dict(item, deploy_path=path, network_gbps=g))

    f.least_squares([cl.HOST_COPY_MBPS, cl.VAAI_COPY_MBPS], lambda: [
        Target(same, deploy_s("same_host") / deploy_s("vaai"),
               float(published(same, "relative_to_exp1"))),
        Target(cross, deploy_s("cross_host") / deploy_s("vaai"),
               float(published(cross, "1GbE_relative_to_exp1")))])
    ds, nfs = {"backing": "datastore"}, {"backing": "nfs"}
    elm = dict(ds, enhanced_linked_mode=True)
    e1 = "cl-sync-exp1-elm-datastore-direct"
    f.least_squares([cl.ALLOCATED_SHARE, cl.SUBSCRIBER_SETUP_S], lambda: [
        Target(e1, sync_s(ds, elm, _gbe(g)), float(published(e1, key)))
        for g, key in ((1.0, "1GbE"), (10.0, "10GbE"))])
    e2 = "cl-sync-exp2-no-elm-datastore-streaming"
    f.root(cl.COMPRESS_NS, [e2],
           lambda: float(published(e2, "1GbE_https")) - sync_s(ds, ds, _gbe(1.0)), 1.0, 1000.0)
    e3 = "cl-sync-exp3-nfs-to-nfs"
    f.root(cl.SYNC_STREAM_SHARE, [e3],
           lambda: float(published(e3, "1GbE_https")) - sync_s(nfs, nfs, _gbe(1.0)), 0.01, 1.0)
    f.root(cl.CHECKSUM_NS, [e3],
           lambda: sync_s(nfs, nfs, _gbe(1.0)) / sync_s(dict(nfs, **HTTP), nfs, _gbe(10.0))
           - float(published(e3, "10GbE_http_reduction_factor")), 0.1, 100.0)
    e6 = "cl-export-exp6-nfs-rhttpproxy-44pct"

    def export_s(http: bool) -> float:
        return one_s({"backing": "nfs", "operation": "export", "network_gbps": 1.0,
                      **(HTTP if http else {})})

    f.root(cl.PROXY_NS, [e6],
           lambda: export_s(False) / export_s(True)
           - (1.0 + float(published(e6, "rhttpproxy_off_improvement_pct")) / 100.0), 0.01,
           100.0)
    # the shared caps, in cores' worth of the per-transfer work just fitted
    speed = cl.vcenter_speed(str(ITEM["vcenter_cpu_model"])) or 1.0
    proxy = "cl-export-concurrency-rhttpproxy-cap"
    check10 = "cl-export-concurrency-10gbe-checksum-cap"
    f.closed(cl.PROXY_CORES, [proxy],
             lambda: float(published(proxy, "saturation_MBps_1GbE"))
             / cl.stream_mbps(cl.PROXY_NS.value + cl.tls_ns(aes_ni=False), speed))
    f.closed(cl.CHECKSUM_CORES, [check10],
             lambda: float(published(check10, "saturation_MBps"))
             / cl.stream_mbps(cl.CHECKSUM_NS.value, speed))
    e79, e810 = "cl-import-exp7-exp9-datastore", "cl-import-exp8-exp10-nfs"

    def import_s(backing: str, g: float) -> float:
        return one_s({"backing": backing, "operation": "import", "import_source": "web_server",
                      "network_gbps": g})

    # at 10GbE the datastore import is bound by decompression, the NFS one (none) is not;
    # then the 1GbE import is bound by the web server's stream
    f.root(cl.DECOMPRESS_NS, [e810],
           lambda: import_s("datastore", 10.0) / import_s("nfs", 10.0)
           - (1.0 + float(published(e810, "exp10_10GbE_vs_exp9_10GbE_improvement_pct"))
              / 100.0), 0.1, 100.0)
    f.root(cl.WEB_SERVER_SHARE, [e79],
           lambda: import_s("datastore", 1.0) / import_s("datastore", 10.0)
           - (1.0 + float(published(e79, "exp9_10GbE_improvement_pct")) / 100.0), 0.01, 1.0)
