"""Stretched clusters: writes pay the inter-site round trip, reads stay local.

An array of protocol ``vsan`` reached by hosts at two sites joined by a ``wan`` link is a
stretched vSAN datastore.  Each write keeps a copy at both sites, so it crosses the link and
waits for the remote acknowledgement; reads are served from the local copy ("The stretched
cluster does all reads from the single object copy available at the local site",
stretch-vsan-write-latency-read-locality).

"Inter-site latency" in the white paper is not said to be one-way or round trip.  Headroom
reads ``wan.rtt_ms`` as the round-trip time (what the vSAN requirements quote, "<5ms latency
RTT") and fits the share of it an average write pays (:data:`WRITE_RTT_SHARE`).

Sizing rules (stretch-vsan-intersite-bandwidth-formula, stretch-vsan-witness-bandwidth,
stretch-vsan-link-requirements): site-to-site bandwidth B = Wb x 1.4 x 1.25 with Wb the
write bandwidth; witness bandwidth 1138 B x components / 5 s; site-to-site links need
10 Gbit/s and < 5 ms RTT, witness links < 200 ms (up to 10 hosts per site), < 100 ms
(11-15 hosts per site).
"""

from __future__ import annotations

import numpy as np

from models.core import coefficients
from models.core.compiled import Compiled
from models.core.prediction import Resource
from models.core.results import StretchedResult
from models.document.numbers import with_unit
from models.document.studies import SIZING, VXRAIL

WRITE_RTT_SHARE = coefficients.declare(
    "stretched.write_rtt_share", "x inter-site RTT per write", 1.0,
    "Share of the inter-site RTT an average write adds to its latency, fitted through the"
    " closed-loop storage model to the DVD Store cluster's average latency rising from 2.4 ms"
    " to 2.7 ms at 1 ms inter-site latency, two thirds of I/Os being writes"
    " (stretch-vsan-avg-latency-vs-intersite-latency).  Prior: one round trip per write.")
DATA_MULTIPLIER = 1.4
"""'VMware recommends a data multiplier of 1.4' (stretch-vsan-intersite-bandwidth-formula)."""
RESYNC_MULTIPLIER = 1.25
"""Resynchronisation multiplier (stretch-vsan-intersite-bandwidth-formula)."""
WITNESS_BYTES_PER_COMPONENT = 1138.0
"""'1138 B x NumComp / 5 s' (stretch-vsan-witness-bandwidth)."""
COMPONENTS_PER_VM = 9
"""vSAN components per VM with FTT=1: namespace, swap and one disk, each two replicas and a
witness (assumed layout)."""
SITE_MIN_GBPS = 10.0
SITE_MAX_RTT_MS = 5.0
"""'Site to Site Minimum of 10Gbps <5ms latency RTT' (stretch-vsan-link-requirements)."""


def required_mbps(write_mbps: float) -> float:
    """Site-to-site bandwidth for ``write_mbps`` Mbit/s of writes: B = Wb x 1.4 x 1.25."""
    return write_mbps * DATA_MULTIPLIER * RESYNC_MULTIPLIER


def witness_mbps(components: float) -> float:
    """Witness link bandwidth in Mbit/s: 1138 B x components / 5 s."""
    return WITNESS_BYTES_PER_COMPONENT * 8.0 * components / 5.0 / 1.0e6


def witness_max_rtt_ms(hosts_per_site: int) -> float:
    """Largest supported witness RTT (stretch-vsan-link-requirements)."""
    if hosts_per_site <= 1:
        return 500.0
    return 200.0 if hosts_per_site <= 10 else 100.0


def _topology(c: Compiled) -> tuple[np.ndarray, np.ndarray]:
    """Per array: the wan link joining two data sites that reach it (-1 for none); per wan
    link: True when it joins a data site to a site without hosts (a witness site)."""
    n_arr = len(c.array)
    wan = c.links["wan"]
    link_of_array = np.full(n_arr, -1, np.int64)
    host_sites = set(c.host_site[c.host_site >= 0].tolist())
    witness = np.array([(int(s) in host_sites) != (int(d) in host_sites)
                        for s, d in zip(wan.cols["src"], wan.cols["dst"], strict=True)],
                       dtype=bool)
    if n_arr == 0 or len(wan) == 0:
        return link_of_array, witness
    hs, ad = c.host_array_pairs()
    vsan = c.array.is_("protocol", "vsan")
    for j in np.flatnonzero(vsan):
        sites = set(c.host_site[hs[ad == j]].tolist()) - {-1}
        if len(sites) < 2:
            continue
        joins = [li for li in range(len(wan)) if int(wan.cols["src"][li]) in sites
                 and int(wan.cols["dst"][li]) in sites]
        if joins:  # the slowest link between the array's sites
            link_of_array[j] = max(joins, key=lambda li: float(wan.cols["rtt_ms"][li]))
    return link_of_array, witness


def solve(c: Compiled) -> StretchedResult:
    n = len(c.vm)
    wan = c.links["wan"]
    link_of_array, witness = _topology(c)
    vm_link = np.where(c.vm_array >= 0, link_of_array[np.maximum(c.vm_array, 0)], -1) \
        if len(c.array) else np.full(n, -1, np.int64)
    rtt = wan.cols["rtt_ms"]
    trips = (c.array.cols["vsan_write_round_trips"][np.maximum(c.vm_array, 0)]
             if len(c.array) else np.ones(n))
    delay = np.where(vm_link >= 0, trips * WRITE_RTT_SHARE.value
                     * rtt[np.maximum(vm_link, 0)], 0.0) if len(wan) else np.zeros(n)
    c.__dict__["_stretched_vm_link"] = vm_link
    warnings: list[str] = []
    resources: list[Resource] = []
    site_ids = c.site.ids
    witness_need: dict[str, float] = {}
    for li in np.unique(link_of_array[link_of_array >= 0]):
        name = f"{site_ids[wan.cols['src'][li]]}-{site_ids[wan.cols['dst'][li]]}"
        if rtt[li] > SITE_MAX_RTT_MS:
            warnings.append(f"wan {name}: {with_unit(rtt[li], 'ms')} RTT exceeds the 5 ms"
                            " site-to-site"
                            " maximum for vSAN stretched clusters")
        if wan.cols["gbps"][li] < SITE_MIN_GBPS:
            warnings.append(f"wan {name}: {with_unit(wan.cols['gbps'][li], 'Gbit/s')} is below the"
                            " 10 Gbit/s site-to-site minimum for vSAN stretched clusters")
    stretched_vms = int((vm_link >= 0).sum())
    hosts_per_site = np.bincount(c.host_site[c.host_site >= 0], minlength=len(site_ids))
    per_site = int(hosts_per_site.max()) if len(hosts_per_site) else 0
    for li in np.flatnonzero(witness):
        if stretched_vms == 0:
            continue
        name = f"{site_ids[wan.cols['src'][li]]}-{site_ids[wan.cols['dst'][li]]}"
        need = witness_mbps(COMPONENTS_PER_VM * stretched_vms)
        witness_need[name] = need
        util = need / (wan.cols["gbps"][li] * 1000.0)
        resources.append(Resource(name, "wan", float(min(util, 1.0)),
                                  "Witness traffic: 1138 B per vSAN component every 5 s.",
                                  VXRAIL.title))
        if util > 1.0:
            warnings.append(f"wan {name}: witness link needs {need:.1f} Mbit/s")
        if rtt[li] > witness_max_rtt_ms(per_site):
            warnings.append(f"wan {name}: witness RTT {with_unit(rtt[li], 'ms')} exceeds"
                            f" {with_unit(witness_max_rtt_ms(per_site), 'ms')}")
    return StretchedResult(vm_write_delay_ms=delay, resources=resources, warnings=warnings,
                           witness_required_mbps=witness_need)


def wan_usage(c: Compiled, vm_write_mbps: np.ndarray) -> tuple[list[Resource], list[str],
                                                                dict[str, float]]:
    """Site-to-site link load from the VMs' write bandwidth (Mbit/s), after storage solved:
    the links' Resources, warnings, and the Mbit/s each link needs, by name."""
    vm_link = c.__dict__.get("_stretched_vm_link")
    wan = c.links["wan"]
    if vm_link is None or len(vm_link) != len(vm_write_mbps) or not (vm_link >= 0).any():
        return [], [], {}
    on = vm_link >= 0
    wb = np.bincount(vm_link[on], weights=vm_write_mbps[on], minlength=len(wan))
    res: list[Resource] = []
    warns: list[str] = []
    need_by_link: dict[str, float] = {}
    for li in np.unique(vm_link[on]):
        name = f"{c.site.ids[wan.cols['src'][li]]}-{c.site.ids[wan.cols['dst'][li]]}"
        need = required_mbps(float(wb[li]))
        util = need / (wan.cols["gbps"][li] * 1000.0)
        need_by_link[name] = need
        res.append(Resource(name, "wan", float(min(util, 1.0)),
                            "Site-to-site link: write bandwidth x 1.4 (data) x 1.25 (resync).",
                            SIZING.title))
        if util > 1.0:
            warns.append(f"wan {name}: writes need {need:.0f} Mbit/s (x1.4 x1.25), more than"
                         f" the link's {wan.cols['gbps'][li] * 1000:.0f} Mbit/s")
    return res, warns, need_by_link
