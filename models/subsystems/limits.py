"""How many VMs of a mix one host holds under each limit: CPU, the p95 response, memory, and
the physical cores latency-sensitive VMs keep to themselves.

One function, :func:`limits_for`, serves the design's own consolidation figures (every VM, the
host holding most of them) and every cluster's hosts needed (its VMs, its busiest host, its
HA admission control's share of CPU and memory): the hosts needed of a group of VMs is
``ceil(VMs / the smallest limit)`` (:mod:`models.subsystems.capacity`).

A web request's CPU grows with the VMs per PCPU (:func:`request_core_ms`), so the CPU count
solves ``count x demand(count) = limit`` (a quadratic: the demand is linear in the count
until a VM's vCPUs cap it), and the p95 count is the largest count whose p95 meets the ceiling
at that count's own cost (every term grows with the count: bisection, the same answer
whatever the start).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from models.core import coefficients, uncertainty
from models.core.compiled import Compiled
from models.core.platform import compute
from models.core.results import Demand
from models.core.sections import ConsolidationDetail
from models.subsystems import vsan_io
from models.subsystems.cpu_virt import LATENCY_MIN_ESXI
from models.subsystems.queueing import (
    _LN20,
    _MAX_COUNT,
    _ceil,
    _floor,
    largest_meeting,
    p95_exact,
)

WEB_BASE_MS = coefficients.declare(
    "consolidation.web_base_ms", "core-ms per request of the reference core", 1.75,
    "Host CPU per web request (~100 KB served from memory) but for context switching: packets,"
    " copies, the server's own work.  Fitted with WEB_CS_MS on the 90% CPU counts: dense mode,"
    " which takes the context-switch part away, holds 495 VMs where the default holds 465"
    " (consol-dense-mode-medium-cpu90-consolidation).  Prior: 2.5 ms of the study's Xeon"
    " E7-4870 cores, 1.75 ms of the reference core.")
WEB_CS_MS = coefficients.declare(
    "consolidation.web_cs_ms", "core-ms per request per VM per PCPU of the reference core", 0.007,
    "Context-switch CPU per request, per VM per PCPU on the host: vCPUs, device-emulation"
    " threads and vmkernel threads wake one another for every interrupt batch, and the more"
    " contexts share a core the more each switch costs (cache and TLB refills) - 'the benefit"
    " follows contexts per core' (same case).  Prior: 0.01 ms of the study's cores, 0.007 ms"
    " of the reference core.")
WALL_PER_CPU = coefficients.declare(
    "consolidation.wall_per_cpu", "x CPU time", 5.0,
    "A web request's wall-clock service time over its CPU time (it waits for packets and ACKs"
    " between CPU bursts): the default-mode host reaches p95 = 100 ms at 470 VMs"
    " (consol-dense-mode-medium-p95-consolidation).  Prior: 5.")
DENSE_MIN_VMS_PER_PCPU = 1.0  # consol-dense-mode-activation-thresholds: VMs >= PCPUs
DENSE_MIN_VCPUS_PER_PCPU = 2.0  # same case: vCPUs >= 2 x PCPUs
DENSE_MIN_UTIL = 0.50  # same case: total PCPU utilisation >= 50%


def request_core_ms(contexts: np.ndarray, dense: np.ndarray) -> np.ndarray:
    """CPU per web request (core-ms of the reference core) on hosts with ``contexts`` VMs per
    PCPU: the base plus the context-switch part, which dense mode (where ``dense``) takes
    away."""
    removed = uncertainty.value("consolidation.dense_saving", dense)  # band: 2/3 .. all
    return WEB_BASE_MS.value + WEB_CS_MS.value * contexts * np.where(dense, 1.0 - removed, 1.0)


@dataclass(frozen=True)
class Limits:
    """VMs of a mix one host holds under each limit (None: the limit does not apply)."""

    by_cpu: int | None
    by_p95: int | None
    by_memory: int | None
    detail: ConsolidationDetail
    by_vcpu: int | None = None
    """Under the policy's vCPUs per physical core (``policy.vcpu_per_core_max``; None when
    it sets none)."""
    by_overcommit: int | None = None
    """Under the policy's configured VM memory per installed memory
    (``policy.memory_overcommit_max``; None when it sets none)."""

    def _all(self) -> tuple[tuple[str, int | None], ...]:
        return (("cpu", self.by_cpu), ("p95", self.by_p95), ("memory", self.by_memory),
                ("vcpu", self.by_vcpu), ("overcommit", self.by_overcommit))

    @property
    def binding(self) -> str | None:
        """'cpu', 'p95', 'memory', 'vcpu' or 'overcommit': the limit that holds the fewest
        VMs."""
        found = {k: v for k, v in self._all() if v is not None}
        return min(found, key=lambda k: found[k]) if found else None

    @property
    def fits(self) -> bool:
        """Whether a VM of the mix fits on a host at all (no limit holds zero VMs)."""
        return all(v != 0 for _, v in self._all())

    def counts(self, vms: int) -> dict[str, int]:
        """Hosts ``vms`` VMs of the mix need under each limit (a limit of zero VMs counts
        as :data:`_MAX_COUNT`: see :attr:`fits`)."""
        return {k: (math.ceil(vms / v) if v > 0 else _MAX_COUNT)
                for k, v in self._all() if v is not None}


def limits_for(c: Compiled, d: Demand, vms: np.ndarray, ref: int, vms_per_host: float,
               cpu_share: float = 1.0, memory_share: float = 1.0, key: str = "design"
               ) -> Limits:
    """VMs of the mix of ``vms`` (indices) one host like ``ref`` holds before passing
    ``policy.cpu_util_max`` of ``cpu_share`` of its CPU, ``policy.p95_ms_max``, or
    ``policy.memory_util_max`` of ``memory_share`` of its memory (HA admission control's
    percentages keep the rest free).
    ``vms_per_host``: the mix's density as placed (the request cost's starting point);
    ``key`` tells apart the warm starts of different groups."""
    n = len(vms)
    # every VM (the design's mix, or a cluster that is the whole design): views, not copies
    rows: np.ndarray | slice = slice(None) if n == len(d.mult) and (
        n == 0 or (vms[0] == 0 and vms[-1] == n - 1)) else vms
    mult = d.mult[rows]
    vcpus, other, path = d.vcpus[rows], d.other[rows], d.path[rows]
    req_rate, web = d.req_rate[rows], d.web[rows]
    # the mix's means, once per evaluation whoever asks (a slice: every VM)
    mix: object = "every" if isinstance(rows, slice) else id(vms)
    found = d.mixes.get(mix)
    if found is None or (mix != "every" and found[0] is not vms):
        found = d.mixes[mix] = (vms, *_means(c, d, vms, rows, mult))
    _, v_per, r_per, m_per, configured, knee, slope_c, const = found
    cap_r, g, pc = float(d.cap[ref]), float(d.ghz_scale[ref]), float(d.pcpus[ref])
    removed = uncertainty.value("consolidation.dense_saving", d.dense_capable[ref])  # band
    base, cs = WEB_BASE_MS.value, WEB_CS_MS.value

    def cost(count: float, dense: bool) -> float:
        return base + cs * count * r_per / pc * ((1.0 - removed) if dense else 1.0)

    # the mean demand per VM is linear in the request's cost until some VM's guest work
    # reaches its vCPUs: O(1) per count up to that knee, the exact mean beyond it
    # (:func:`_means`; the rate, knee and slope are per reference host: scaled by g)
    knee, slope_c = knee / g, slope_c * g

    def demand(count: float, dense: bool) -> float:
        cm = cost(count, dense)
        if cm <= knee:
            return slope_c * cm + const
        return float(np.mean((np.minimum(req_rate * (g * cm) + other, vcpus) + path) * mult))

    def count_at(limit: float, dense: bool) -> int:
        d0 = demand(0.0, dense)
        if d0 <= 0:
            return _MAX_COUNT
        k0 = limit / d0
        slope = (demand(k0, dense) - d0) / k0 if k0 < _MAX_COUNT else 0.0
        if slope <= 1e-15:
            return _floor(k0)
        return _floor((-d0 + math.sqrt(d0 * d0 + 4.0 * slope * limit)) / (2.0 * slope))

    d_def = demand(vms_per_host, False) if n else 0.0
    # smallest count at which the dense thresholds hold (all three grow with the count)
    n_act = max(_ceil(DENSE_MIN_VMS_PER_PCPU * pc / r_per) if n else _MAX_COUNT,
                _ceil(DENSE_MIN_VCPUS_PER_PCPU * pc / v_per) if n else _MAX_COUNT,
                count_at(DENSE_MIN_UTIL * cap_r, False) + 1 if d_def > 0 else _MAX_COUNT)
    dense = bool(d.dense_capable[ref])

    def pick(n_def: int, n_den: int) -> int:
        return n_den if dense and n_def >= n_act - 1 else n_def

    u_max = c.policy["cpu_util_max"] * cpu_share
    by_cpu: int | None = None
    if d_def > 0:
        by_cpu = pick(count_at(u_max * cap_r, False), count_at(u_max * cap_r, True))
    vsan_gb = float(vsan_io.memory_gb(c)[ref]) if len(c.host) else 0.0  # vSAN holds it
    by_mem = _floor(max(float(c.host.cols["memory_gb"][ref]) - vsan_gb, 0.0) * memory_share
                    * c.policy["memory_util_max"] / m_per) \
        if n and m_per > 0 else None
    by_p95: int | None = None
    if web.any() and d_def > 0:
        wall = WALL_PER_CPU.value
        servers = max(math.floor(cap_r + 1e-9), 1)
        p95_max = c.policy["p95_ms_max"]
        peak = float(np.max(req_rate[web] * g / vcpus[web]))

        def at_p95(dense: bool) -> int:
            # the largest count whose p95 meets the ceiling with the request's cost at that
            # count; the last answer (a knob move barely changes it) costs two tests
            def meets(k: int) -> bool:
                cm = cost(k, dense)
                u = peak * cm  # the VM's own vCPUs
                rho = k * demand(k, dense) / cap_r
                if u >= 1.0 or rho >= 1.0:
                    return False
                s_ms = wall * cm * g
                vm_term = _LN20 * s_ms / wall * (1.0 / (1.0 - u) - 1.0)
                return p95_exact(servers, rho, s_ms) + vm_term <= p95_max * (1.0 + 1e-9)

            cache = f"consolidation.p95_count.{key}.{dense}"
            last = c.cache.get(cache)
            start = last if isinstance(last, int) else max(round(vms_per_host), 1)
            found = largest_meeting(meets, start)
            c.cache[cache] = found
            return found

        by_p95 = at_p95(False)
        if dense and by_p95 >= n_act - 1:
            by_p95 = at_p95(True)
    by_cores = _exclusive(c, d, vms, ref)
    if by_cores is not None:
        by_cpu = by_cores if by_cpu is None else min(by_cpu, by_cores)
    by_vcpu, by_over = _ratios(c, vms, ref, cpu_share, memory_share, v_per, configured)
    detail = ConsolidationDetail(
        reference_host=c.host.ids[ref], max_vms_per_host_by_memory=by_mem,
        cpu_cores_per_vm=float(d_def), dense_activation_vms=int(n_act),
        dense_context_share_removed=float(removed),
        web_core_ms_at_2_4ghz=float(cost(vms_per_host, False)),
        web_context_core_ms_per_vm_per_pcpu=float(cs), web_wall_per_cpu=WALL_PER_CPU.value,
        max_vms_per_host_by_exclusive_cores=by_cores)
    return Limits(by_cpu, by_p95, by_mem, detail, by_vcpu, by_over)


def _means(c: Compiled, d: Demand, vms: np.ndarray, rows: np.ndarray | slice,
           mult: np.ndarray) -> tuple[float, ...]:
    """A mix's means per VM (FT secondaries counted): vCPUs, VMs, memory held, configured
    memory; and, at a request cost of 1 core-ms on the reference core, the cost at which the
    first VM's guest work reaches its vCPUs (the knee), the mean demand's slope below it and
    its constant part."""
    n = len(mult)
    if not n:
        return math.nan, math.nan, math.nan, math.nan, math.inf, 0.0, 0.0
    vcpus, other, path, rate = d.vcpus[rows], d.other[rows], d.path[rows], d.req_rate[rows]
    full = other >= vcpus
    busy = (rate > 0) & ~full
    with np.errstate(over="ignore", divide="ignore"):  # a vanishing rate: knee out of reach
        knee = float(np.min((vcpus - other)[busy] / rate[busy])) if busy.any() else math.inf
    return (float(np.mean(vcpus * mult)), float(np.mean(mult)),
            float(np.mean(d.held[rows] * mult)),
            float(np.mean(c.vm.cols["memory_gb"][vms] * mult)), knee,
            float(np.mean(np.where(busy, rate, 0.0) * mult)),
            float(np.mean((np.where(full, vcpus, other) + path) * mult)))


def _ratios(c: Compiled, vms: np.ndarray, ref: int, cpu_share: float, memory_share: float,
            v_per: float, configured: float) -> tuple[int | None, int | None]:
    """VMs of the mix a host like ``ref`` holds under the policy's overcommit ceilings, where
    it sets them: vCPUs per physical core, configured VM memory per installed memory (each
    of the share the admission control leaves; FT secondaries count as VMs of their own)."""
    vcpu_max = float(c.policy["vcpu_per_core_max"])
    mem_max = float(c.policy["memory_overcommit_max"])
    if not len(vms):
        return None, None
    by_vcpu = by_over = None
    if vcpu_max > 0 and v_per > 0:
        cores = float(compute(c).cores[ref])
        by_vcpu = _floor(cores * vcpu_max * cpu_share / v_per)
    if mem_max > 0 and configured > 0:
        by_over = _floor(float(c.host.cols["memory_gb"][ref]) * mem_max * memory_share
                         / configured)
    return by_vcpu, by_over


def _exclusive(c: Compiled, d: Demand, vms: np.ndarray, ref: int) -> int | None:
    """VMs of the mix whose latency-sensitive vCPUs each keep a physical core of the host
    (they cannot over-commit); None when none of them needs one, or the host cannot give
    them (not ESXi 5.5 or later)."""
    need = d.exclusive_vcpus[vms]
    host = c.host.cols
    if not need.any() or host["platform"][ref] != c.host.code("platform", "esxi") \
            or host["esxi_version"][ref] < LATENCY_MIN_ESXI:
        return None
    return math.floor(float(compute(c).cores[ref]) / float(np.mean(need)) + 1e-9)
