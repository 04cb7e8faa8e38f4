"""VDI: PCoIP display bandwidth per desktop and the WAN links the desktops share.

A desktop (profile ``vdi``) sends its user a PCoIP stream of ``workload.pcoip_kbps`` with
View 4.x settings.  That stream is made of lossless-coded text/UI updates (share
:data:`TEXT_SHARE`) and image updates; the settings act on the parts:

* **codec** ``view5``: View 5.0's lossless codec compresses anti-aliased text
  :data:`FONT_GAIN` times better, so the text part shrinks to ``1 / FONT_GAIN``;
* **build to lossless** off: lossy image regions are no longer refined to lossless, removing the
  refinement share :data:`BTL_SHARE` of the image part;
* **client cache** on: updates the client already holds (scrolling, switching windows) are
  drawn from its cache; a share :data:`CACHE_HIT` of what is left is not sent.

``bandwidth = kbps x (text x codec + image x btl) x (1 - cache)``.  The desktops of a host
located at a site with ``wan`` links reach their users over those links (split evenly when
there are several); the WAN's utilisation is a bottleneck Resource and ``extras.vdi`` says
how many such desktops each link carries.  PCoIP adds no CPU of its own: View 5.0's idle
CPU is negligible (vdi-pcoip-idle-cpu-heartbeat); a desktop's CPU is ``workload.cpu_pct``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from models.core import coefficients, uncertainty
from models.core.compiled import Compiled
from models.core.prediction import Resource
from models.core.results import Common
from models.core.sections import Vdi, VdiLink
from models.document.numbers import counted
from models.document.schema import KINDS
from models.document.studies import PCOIP

FONT_GAIN = 2.0
"""View 5.0's lossless codec on anti-aliased text, stated: 'a 2x improvement'
(vdi-pcoip-lossless-codec)."""
TEXT_SHARE = coefficients.declare(
    "vdi.text_share", "share of View 4.x PCoIP bytes", 0.5,
    "Share of a knowledge worker's View 4.x PCoIP bytes that are lossless text/UI: the View 5.0"
    " codec's saving is this share x (1 - 1/FONT_GAIN) (vdi-pcoip-lossless-codec).  Prior: half"
    " the stream.")
CACHE_HIT = coefficients.declare(
    "vdi.cache_hit", "share of updates", 0.2,
    "Share of updates the client image cache serves (vdi-pcoip-client-cache).  Prior: 20%.")
BTL_SHARE = coefficients.declare(
    "vdi.btl_share", "share of image bytes", 0.5,
    "Share of the image bytes that refine lossy regions to lossless, removed when build to"
    " lossless is off (vdi-pcoip-disable-btl).  Prior: half.")

_VDI = list(KINDS["vm"].props["workload.profile"].choices or ()).index("vdi")
_VIEW5 = list(KINDS["vm"].props["workload.pcoip_codec"].choices or ()).index("view5")


@dataclass
class VdiResult(Common):
    vm_mbps: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """PCoIP Mbit/s each desktop sends (0 for other VMs)."""
    vdi: Vdi | None = None


def factor(view5: np.ndarray, cache: np.ndarray, btl: np.ndarray) -> np.ndarray:
    """PCoIP bandwidth relative to View 4.x settings (1.0)."""
    share = uncertainty.value("vdi.text_share", False)  # band: codec saves 30-40%
    text = share * np.where(view5, 1.0 / FONT_GAIN, 1.0)
    image = (1.0 - share) * np.where(btl, 1.0, 1.0 - BTL_SHARE.value)
    return (text + image) * np.where(cache, 1.0 - CACHE_HIT.value, 1.0)


def desktop_mbps(c: Compiled) -> np.ndarray:
    """Offered PCoIP transmit (Mbit/s) per VM: profile ``vdi`` only."""
    vm = c.vm.cols
    uncertainty.note("vdi.text_share", (vm["workload.profile"] == _VDI)
                     & (vm["workload.pcoip_codec"] == _VIEW5))
    f = factor(vm["workload.pcoip_codec"] == _VIEW5, vm["workload.pcoip_client_cache"],
               vm["workload.pcoip_build_to_lossless"])
    return np.where(vm["workload.profile"] == _VDI, vm["workload.pcoip_kbps"] / 1000.0 * f, 0.0)


def solve(c: Compiled, vm_tx_mbps: np.ndarray) -> VdiResult:
    """WAN load of the desktops, from the PCoIP they actually send (``vm_tx_mbps``, the
    network model's transmit: 0 for desktops without a NIC)."""
    offered = desktop_mbps(c)
    sent = np.minimum(offered, vm_tx_mbps) if len(vm_tx_mbps) == len(offered) else offered
    res = VdiResult(vm_mbps=sent)
    desk = (offered > 0) & (c.vm_host >= 0)
    if not desk.any():
        return res
    wan = c.links["wan"]
    nw = len(wan)
    site = np.where(desk, c.host_site[np.maximum(c.vm_host, 0)], -1)
    summary = Vdi(desktops=int(desk.sum()), mean_desktop_kbps=float(sent[desk].mean() * 1000.0))
    links = summary.wan
    if nw:
        src, dst = wan.cols["src"], wan.cols["dst"]
        ns = len(c.site)
        deg = np.bincount(src, minlength=ns) + np.bincount(dst, minlength=ns)
        has = desk & (site >= 0)
        sv = np.maximum(site, 0)
        share = np.where(has & (deg[sv] > 0), 1.0 / np.maximum(deg[sv], 1), 0.0)
        site_mbps = np.bincount(sv[has], (sent * share)[has], minlength=ns)
        site_desks = np.bincount(sv[has], share[has], minlength=ns)
        mbps = site_mbps[src] + site_mbps[dst]
        count = site_desks[src] + site_desks[dst]
        gbps = wan.cols["gbps"]
        for li in np.nonzero(count > 0)[0].tolist():
            name = f"{c.site.ids[int(src[li])]}-{c.site.ids[int(dst[li])]}"
            cap = float(gbps[li]) * 1000.0
            util = mbps[li] / cap
            per = mbps[li] / count[li]
            links[name] = VdiLink(desktops=float(count[li]), mbps=float(mbps[li]),
                                  util=float(util),
                                  max_desktops=int(cap // per) if per > 0 else 0)
            res.resources.append(Resource(
                name, "wan", float(min(util, 1.0)),
                f"PCoIP of {counted(int(count[li]), 'desktop')} at {per * 1000.0:.0f} kbit/s"
                " each:"
                f" {mbps[li]:.1f} of {cap:.0f} Mbit/s; the link carries"
                f" {counted(links[name].max_desktops, 'such desktop')}", PCOIP.title))
            if util > 1.0:
                res.warnings.append(
                    f"wan {name}: PCoIP needs {mbps[li]:.0f} Mbit/s, more than the link's"
                    f" {cap:.0f}; users see a degraded display (enable the client cache, the"
                    " View 5.0 codec, or turn build to lossless off)")
    res.vdi = summary
    return res
