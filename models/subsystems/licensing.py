"""Licensed cores: what the design's hosts cost in per-core subscriptions.

Mechanism
---------
The rules are data (:mod:`models.document.licensing`, ``resources/licensing.json``, with
their sources and date): every physical core of every CPU of every ESXi host counts
(hyperthreads do not), each CPU at least ``min_cores_per_cpu`` (16); a host running no
hypervisor (``platform`` native) counts none.  Summed per cluster and over the design; where
``policy.licence_order_minimum`` is on, the design's total is at least the minimum per order
(72, announced in 2025 and disputed).  ``policy.licence_price_per_core`` (per core per year)
gives the yearly cost of the edition ``policy.licence_edition``.

Nothing here is fitted: it is the vendor's counting rule.
"""

from __future__ import annotations

import math

import numpy as np

from models.core.compiled import Compiled
from models.core.sections import Licensing
from models.document import licensing


def host_cores(c: Compiled) -> tuple[np.ndarray, np.ndarray]:
    """(physical, licensed) cores of each host (hosts running no hypervisor: 0 and 0)."""
    host = c.host.cols
    if not len(c.host):
        return np.zeros(0), np.zeros(0)
    esxi = host["platform"] == c.host.code("platform", "esxi")
    edition = _edition(c)
    physical = (host["sockets"] * host["cores_per_socket"]).astype(np.float64)
    licensed = licensing.licensed_cores(host["sockets"], host["cores_per_socket"],
                                        licensing.rules().per_cpu(edition))
    return np.where(esxi, physical, 0.0), np.where(esxi, licensed, 0.0)


def section(c: Compiled, physical: np.ndarray, licensed: np.ndarray,
            vsan_raw_tib: float | None = None) -> Licensing:
    """The design's licensing: its totals, the rules and the yearly cost; with vSAN clusters
    of ``vsan_raw_tib`` raw, the capacity the edition's cores entitle and the add-on TiB
    beyond it."""
    rules = licensing.rules()
    edition = rules.edition(_edition(c))
    order = bool(c.policy["licence_order_minimum"])
    total = float(licensed.sum()) if len(licensed) else 0.0
    counted = licensing.with_order_minimum(total, order)
    price = float(c.policy["licence_price_per_core"])
    price_given = math.isfinite(price) and price > 0
    return Licensing(
        licensed_cores=round(counted), physical_cores=round(float(physical.sum())),
        hosts=int(np.count_nonzero(physical)) if len(physical) else 0,
        min_cores_per_cpu=rules.per_cpu(edition.id),
        order_minimum_cores=rules.order_minimum.cores if order else None,
        edition=edition.id, edition_name=edition.name,
        price_per_core=price if price_given else None,
        cost_per_year=counted * price if price_given else None,
        rules=rules.summary, checked=rules.checked,
        sources=[s.title for s in rules.cited()],
        vsan_raw_tib=vsan_raw_tib,
        vsan_entitled_tib=None if vsan_raw_tib is None else counted * edition.vsan_tib_per_core,
        vsan_addon_tib=None if vsan_raw_tib is None else
        max(vsan_raw_tib - counted * edition.vsan_tib_per_core, 0.0))


def _edition(c: Compiled) -> str:
    ids = licensing.edition_ids()
    i = int(c.policy["licence_edition"])
    return ids[i] if 0 <= i < len(ids) else ids[0]
