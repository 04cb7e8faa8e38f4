"""Consolidation: host CPU and memory, web response times, dense mode, VMs per host.

Mechanism
---------
* **Host CPU capacity** in core-equivalents: ``sockets x cores_per_socket``, times
  :data:`HT_THROUGHPUT` when hyperthreading is on.  Clock speed scales the per-request cost
  of request-driven VMs (the fitted cost is at the study's 2.4 GHz).
* **Per-VM CPU demand** (cores): ``cpu_bound`` = all its vCPUs; ``web`` = served requests/s x
  :data:`WEB_CORE_MS` (x 2.4 / GHz, less :data:`DENSE_SAVING` on a host where dense mode is
  active); ``idle`` = 0; every other profile = ``workload.cpu_pct`` of its vCPUs.  The guest
  demand is capped at the VM's vCPUs.  Added to it: the host cores the VM's I/O path
  (``sto.vm_cpu_cores``) and network path (``net.vm_cpu_cores``) consume - except the network
  path of web VMs, which the fitted per-request cost already contains (the study measured
  total host CPU).  An FT secondary uses as much CPU and memory as its primary, on its
  ``ft_secondary_on`` host (case ft-secondary-doubles-cpu-memory).
* **Virtualisation** (:mod:`models.subsystems.cpu_virt`): containers and remote NUMA memory scale a
VM's
  CPU per unit of work; on ESXi the hypervisor's cost per guest interrupt and context switch
  (by release) joins the host demand (not for web VMs: their fitted cost already holds it).
  Latency-sensitive VMs that fit get exclusive cores (no pCPU wait in their response) and cap
  ``max_vms_per_host_by_cpu`` at a physical core per latency-sensitive vCPU.
* **Web response time**: the requests reaching a host form an open stream served by an
  M/M/c queue, ``c = floor(capacity)`` servers at host utilisation ``rho`` (all CPU demand on
  the host, web or not, loads the same servers).  A request's service time is its wall-clock
  time ``S = WALL_PER_CPU x CPU cost`` (it waits for packets and ACKs between CPU bursts), so
  the response is ``W + X`` with ``X ~ Exp(1/S)`` and the Erlang-C waiting time
  ``P(W > t) = C e^{-c(1-rho)t/S}``.  The mean is exact; the p95 solves the exact tail of
  ``W + X`` by Newton's method.  The VM's own vCPUs add an M/M/1 term on the request's CPU
  time ``s``: with the VM's vCPUs busy a share ``u``, ``s u/(1-u)`` on the mean and
  ``ln(20) s u/(1-u)`` on the p95 (a documented approximation: the two queues are added, not
  convolved).
  At ``rho >= 1`` or ``u >= 1`` the response is saturated: it is reported as
  :data:`SATURATED_MS` with a warning and a host_cpu Resource whose util is >= 1.
* **Dense mode** (Net.NetTuneHostMode = dense, ESXi 6.0+) is active on a host only when VMs
  >= PCPUs, vCPUs >= 2 x PCPUs and the host's (default-mode) CPU utilisation >= 50%.  PCPUs
  are *logical* processors (threads when hyperthreading is on), as esxtop counts PCPUs; the
  study does not say (README quirk), and the stricter reading never over-promises.
* **Consolidation**: ``max_vms_per_host_by_cpu`` / ``_by_p95`` / by memory = how many VMs of
  the design's mix (mean per-VM demand, FT secondaries included) the reference host (the one
  holding most VMs) takes before passing ``policy.cpu_util_max``, ``policy.p95_ms_max`` or its
  installed memory; closed forms in the VM count, the p95 one inverted on a vector of
  utilisations.  ``hosts_needed = ceil(VMs / min(...)) + policy.ha_spare_hosts``.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from models.document.schema import ESXI_VERSIONS
from models.engine import uncertainty
from models.engine.compiled import Compiled
from models.engine.prediction import Consolidation, Resource
from models.engine.results import ConsolidationResult, FtResult, NetworkResult, StorageResult
from models.subsystems import cpu_virt

DENSE = "Dynamic Host-Wide Performance Tuning in VMware vSphere 6.0"
DOCKER = "Scaling Web 2.0 Applications using Docker containers on vSphere 6.0"
FT_BP = "Performance Best Practices for VMware vSphere 4.0"
RESMGMT = "vSphere Resource Management Guide: Hyperthreading"

# --- the dense-mode study's testbed (consol-dense-mode-medium-*): HP DL580 G7, 4 x 10-core
# Xeon E7-4870 2.4 GHz, 1-vCPU web-server VMs at 25 requests/s (~100 KB each), SLOs 90% host
# CPU and p95 <= 100 ms.  The counts below are read off the study's Figures 3 and 4.
STUDY_GHZ = 2.4
STUDY_CORES = 40
STUDY_RATE = 25.0
STUDY_UTIL = 0.90
STUDY_P95_MS = 100.0
STUDY_VMS_CPU90_DEFAULT = 465  # consol-dense-mode-medium-cpu90-consolidation ("around 465")
STUDY_VMS_CPU90_DENSE = 495  # same case ("about 495")
STUDY_VMS_P95_DEFAULT = 470  # consol-dense-mode-medium-p95-consolidation ("about 470")

REF_GHZ = STUDY_GHZ
WEB_CORE_MS = STUDY_UTIL * STUDY_CORES * 1000.0 / (STUDY_VMS_CPU90_DEFAULT * STUDY_RATE)
"""Host core-milliseconds per web request at 2.4 GHz (~3.10), fitted: 90% of the 40 cores
divided by the requests of the 465 VMs the default mode holds at 90% CPU
(consol-dense-mode-medium-cpu90-consolidation; the case notes derive ~3.1)."""

DENSE_SAVING = 1.0 - STUDY_VMS_CPU90_DEFAULT / STUDY_VMS_CPU90_DENSE
"""Share of the per-request CPU that dense mode saves (~6.1%, i.e. ~2.9 core-ms), fitted on
465 -> 495 VMs at 90% CPU (consol-dense-mode-medium-cpu90-consolidation); checked on the p95
case (470 -> >510) and against "up to 10%" (consol-dense-mode-up-to-10pct)."""

DENSE_MIN_VMS_PER_PCPU = 1.0  # consol-dense-mode-activation-thresholds: VMs >= PCPUs
DENSE_MIN_VCPUS_PER_PCPU = 2.0  # same case: vCPUs >= 2 x PCPUs
DENSE_MIN_UTIL = 0.50  # same case: total PCPU utilisation >= 50%
DENSE_MIN_ESXI = ESXI_VERSIONS.index("6.0")  # the feature appeared in vSphere 6.0

HT_THROUGHPUT = 1.15
"""A hyperthreaded core's throughput over a plain core: "an application running on one logical
processor of a busy core can expect slightly more than half of the throughput" (vSphere
Resource Management Guide, Hyperthreading) -> 2 x ~0.575.  Not fitted to a case here: the
dense-mode testbed's utilisation is over its 40 cores (case notes), so it is modelled with
hyperthreading off."""

LATENCY_SENSITIVE_UTIL = 0.75
"""Average host CPU above which latency-sensitive VMs lose their burst headroom: "around
70-75% ... typical average CPU utilization for latency sensitive workloads"
(consol-cloudstone-scaleout-cpu-headroom; the upper end, a warning threshold)."""

SATURATED_MS = 10_000.0
"""Response time reported for a saturated request stream (host CPU or the VM's vCPUs at or over
100%): a finite, flagged stand-in for 'unbounded' (a typical 10 s client timeout)."""

P95_Q = 0.05  # tail probability of the 95th percentile
_LN20 = math.log(1.0 / P95_Q)


# ------------------------------------------------------------------ queueing
def erlang_c(c: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Probability that a request waits in an M/M/c queue (Erlang C), vectorised.

    ``c`` servers (ints >= 1), offered load ``a = lambda x S`` in Erlangs (``a < c``).  Uses
    the Poisson form ``B = p(c; a) / P(N <= c; a)`` in log space, stable for thousands of
    servers.
    """
    c = np.asarray(c, dtype=np.int64)
    a = np.asarray(a, dtype=np.float64)
    out = np.zeros(a.shape)
    ok = a > 0
    if not ok.any():
        return out
    cc, aa = c[ok], a[ok]
    k = np.arange(int(cc.max()) + 1, dtype=np.float64)
    lgam = np.concatenate(([0.0], np.cumsum(np.log(k[1:]))))  # log k!
    logp = k[None, :] * np.log(aa)[:, None] - lgam[None, :]
    logp = np.where(k[None, :] <= cc[:, None], logp, -np.inf)
    top = logp.max(axis=1)
    log_cdf = top + np.log(np.exp(logp - top[:, None]).sum(axis=1))
    b = np.exp(logp[np.arange(len(cc)), cc] - log_cdf)  # Erlang B
    rho = aa / cc
    out[ok] = b / (1.0 - rho + rho * b)
    return out


def _tail(t: np.ndarray, wait_p: np.ndarray, theta: np.ndarray,
          mu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """P(W + X > t) and its density for W ~ (1-C)·0 + C·Exp(theta), X ~ Exp(mu)."""
    em, et = np.exp(-mu * t), np.exp(-theta * t)
    d = theta - mu
    close = np.abs(d) < 1e-9 * mu
    dsafe = np.where(close, 1.0, d)
    conv = np.where(close, (1.0 + mu * t) * em, (theta * em - mu * et) / dsafe)
    conv_pdf = np.where(close, mu * mu * t * em, theta * mu * (em - et) / dsafe)
    tail = (1.0 - wait_p) * em + wait_p * conv
    pdf = (1.0 - wait_p) * mu * em + wait_p * conv_pdf
    return tail, pdf


def response_p95(wait_p: np.ndarray, theta: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """95th percentile of waiting + service: exact tail, solved by Newton on its log.

    ``wait_p`` = Erlang C, ``theta = c(1-rho)/S`` the waiting-time decay rate, ``mu = 1/S``.
    Starts at a lower bound (the larger of the two parts' own 95th percentiles), where the
    concave log-tail makes the iteration converge from the right after one step.
    """
    t = np.maximum(_LN20 / mu, np.log(np.maximum(wait_p, 1e-300) / P95_Q) / theta)
    target = math.log(P95_Q)
    for _ in range(6):
        tail, pdf = _tail(t, wait_p, theta, mu)
        step = (np.log(np.maximum(tail, 1e-300)) - target) * tail / np.maximum(pdf, 1e-300)
        t = np.maximum(t + step, 0.5 * t)
    return t


_GRID_X = np.linspace(0.0, 16.0, 2001)
"""Tabulation grid in x = -ln(1 - rho): host utilisation 0 .. 1 - 1.1e-7, dense near 1."""


@lru_cache(maxsize=128)
def _table(servers: int) -> tuple[np.ndarray, np.ndarray]:
    """Mean and p95 response of an M/M/``servers`` queue with unit service time on
    :data:`_GRID_X` (exact Erlang C and exact p95, computed once per server count)."""
    rho = -np.expm1(-_GRID_X)
    mean, p95 = np.empty(len(rho)), np.empty(len(rho))
    step = max(1, 400_000 // (servers + 1))  # bound the Erlang-C work matrix
    for lo in range(0, len(rho), step):
        r = rho[lo:lo + step]
        c = np.full(len(r), servers)
        wait_p = erlang_c(c, r * servers)
        theta = servers * (1.0 - r)
        mean[lo:lo + step] = wait_p / theta + 1.0
        p95[lo:lo + step] = response_p95(wait_p, theta, np.ones(len(r)))
    return mean, p95


def _host_response(c: np.ndarray, rho: np.ndarray,
                   s_ms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and p95 of the host-level M/M/c response (rho < 1; service ``s_ms``), read off
    the cached exact tables by linear interpolation in -ln(1 - rho) (relative error < 1e-4)."""
    x = -np.log1p(-np.minimum(rho, 1.0 - 1e-7))
    mean, p95 = np.empty(len(rho)), np.empty(len(rho))
    kinds = [c[0]] if len(c) and c.min() == c.max() else np.unique(c)
    for servers in kinds:
        m = c == servers
        tm, tp = _table(int(servers))
        mean[m] = np.interp(x[m], _GRID_X, tm)
        p95[m] = np.interp(x[m], _GRID_X, tp)
    return mean * s_ms, p95 * s_ms


def p95_exact(servers: int, rho: float, s_ms: float) -> float:
    """The exact p95 (ms) of the M/M/c response, scalar and in plain floats (fast for a few
    points): Erlang-B recursion, then Newton on the log of the exact tail."""
    if rho <= 0.0:
        return _LN20 * s_ms
    a, b = rho * servers, 1.0
    for k in range(1, servers + 1):
        b = a * b / (k + a * b)
    wait_p = b / (1.0 - rho + rho * b)
    theta, mu = servers * (1.0 - rho) / s_ms, 1.0 / s_ms
    t = max(_LN20 / mu, math.log(max(wait_p, 1e-300) / P95_Q) / theta)
    target = math.log(P95_Q)
    close = abs(theta - mu) < 1e-9 * mu
    for _ in range(30):
        em, et = math.exp(-mu * t), math.exp(-theta * t)
        if close:
            conv, conv_pdf = (1.0 + mu * t) * em, mu * mu * t * em
        else:
            conv = (theta * em - mu * et) / (theta - mu)
            conv_pdf = theta * mu * (em - et) / (theta - mu)
        tail = (1.0 - wait_p) * em + wait_p * conv
        pdf = (1.0 - wait_p) * mu * em + wait_p * conv_pdf
        step = (math.log(max(tail, 1e-300)) - target) * tail / max(pdf, 1e-300)
        t = max(t + step, 0.5 * t)
        if abs(step) <= 1e-12 * t:
            break
    return t


def _fit_wall_per_cpu() -> float:
    """Wall-clock service time per CPU-millisecond of a web request, fitted so the study's
    default-mode host reaches p95 = 100 ms at 470 VMs
    (consol-dense-mode-medium-p95-consolidation); times scale with S, so one evaluation at
    S = 1 fits it."""
    cpu_ms = WEB_CORE_MS
    rho = STUDY_VMS_P95_DEFAULT * STUDY_RATE * cpu_ms / 1000.0 / STUDY_CORES
    u = STUDY_RATE * cpu_ms / 1000.0
    vm_term = _LN20 * cpu_ms * (1.0 / (1.0 - u) - 1.0)
    return (STUDY_P95_MS - vm_term) / p95_exact(STUDY_CORES, rho, 1.0) / cpu_ms


WALL_PER_CPU = _fit_wall_per_cpu()
"""~9.5: a request's wall-clock service is ~9.5x its CPU time (~29 ms at 2.4 GHz), fitted on
consol-dense-mode-medium-p95-consolidation (default mode, 470 VMs at p95 = 100 ms)."""


# ------------------------------------------------------------------ the model
def solve(c: Compiled, sto: StorageResult, net: NetworkResult,
          fto: FtResult) -> ConsolidationResult:
    vm = c.vm.cols
    n, h = len(c.vm), len(c.host)
    res = ConsolidationResult(
        vm_cpu_util=np.zeros(n), vm_response_ms=np.full(n, np.nan),
        vm_response_p95_ms=np.full(n, np.nan), host_cpu_util=np.zeros(h),
        host_memory_util=np.zeros(h), host_dense_active=np.zeros(h, bool))
    vms_per_host = float((c.vm_host >= 0).sum() / h) if h else 0.0
    res.consolidation = Consolidation(vms_per_host, None, None, None, None)
    if h == 0:
        return res

    st = c.memo("consolidation.static", lambda: _Static(c))  # what no I/O knob moves
    cap, pcpus, ghz_scale, dense_capable = st.cap, st.pcpus, st.ghz_scale, st.dense_capable
    vcpus, web, placed, hidx, sec = st.vcpus, st.web, st.placed, st.hidx, st.sec
    sidx, w_pri, w_sec = st.sidx, st.w_pri, st.w_sec

    # per-VM guest demand (cores) before clock and dense scaling
    rate = vm["workload.req_per_s"] * _ratio(fto, n)
    req_core_s = np.where(web, rate * (WEB_CORE_MS / 1000.0), 0.0)
    other = st.other
    path = _arr(sto.vm_cpu_cores, n) + np.where(web, 0.0, _arr(net.vm_cpu_cores, n))
    # virtualisation: containers and remote memory scale the work's CPU, the hypervisor
    # adds its cost per guest event (models/cpu_virt.py)
    cv = cpu_virt.solve(c, hidx, placed, cap, pcpus, other, web, sto, net)
    req_core_s, other = req_core_s * cv.factor, other * cv.factor
    path = path + cv.overhead_cores

    def per_host(x: np.ndarray) -> np.ndarray:
        return (np.bincount(hidx, x * w_pri, minlength=h)
                + np.bincount(sidx, x * w_sec, minlength=h))

    # default-mode demand decides dense activation (thresholds, case
    # consol-dense-mode-activation-thresholds)
    raw_web = req_core_s * ghz_scale[hidx]
    want = raw_web + other
    guest = np.minimum(want, vcpus)
    demand = guest + path
    host_demand = per_host(demand)
    active = np.zeros(h, bool)
    if dense_capable.any():
        active = st.dense_eligible & (host_demand / cap >= DENSE_MIN_UTIL)
        if active.any():  # dense mode lowers the per-request cost on its hosts
            saving = uncertainty.value("consolidation.dense_saving")  # band
            raw_web = raw_web * np.where(active[hidx] & placed, 1.0 - saving, 1.0)
            want = raw_web + other
            guest = np.minimum(want, vcpus)
            demand = guest + path
            host_demand = per_host(demand)
    res.host_dense_active = active
    res.vm_cpu_cores, res.host_cpu_demand, res.host_memory_gb = demand, host_demand, st.mem
    rho = host_demand / cap
    res.host_cpu_util = np.minimum(rho, 1.0)
    mem, mem_util = st.mem, st.mem_util
    res.host_memory_util = mem_util

    slow = np.maximum(rho, 1.0)[hidx]
    res.vm_cpu_util = np.where(placed, guest / vcpus / slow, guest / vcpus)

    # web response times
    web_p = st.web_p
    if web_p.any():
        _web_response(res, c, web_p, hidx, st.web_hosts, cap, rho, ghz_scale, active, want,
                      vcpus, cv.exclusive)
    if c.detail:  # not read by a summary-only run (a sweep)
        _warnings(res, c, rho, mem_util, cap, mem, active, dense_capable, web_p, want, vcpus)
    res.warnings[:0] = cv.warnings  # rules a design breaks (cannot power on) come first
    res.extras["cpu_virtualization"] = cv.extras

    # consolidation figures for the reference host
    if n:
        ref = st.ref
        res.consolidation, extra = _consolidation(
            c, ref, cap, pcpus, ghz_scale, dense_capable, req_core_s, other, path, vcpus, web,
            st.mix, vms_per_host)
        res.consolidation, extra = cpu_virt.limit_exclusive(c, res.consolidation, extra, ref,
                                                            sec)
        res.extras["consolidation"] = extra
    if c.detail:
        _resources(res, c, rho, host_demand, cap, active, st.memory_resources)
    return res


class _Static:
    """Host capacity, placement, memory and the guest demand of VMs that serve no requests:
    from the design's columns alone, so a knob that moves only I/O or network load reuses
    them (:meth:`Compiled.memo` records the columns read)."""

    def __init__(self, c: Compiled):
        vm, host = c.vm.cols, c.host.cols
        n, h = len(c.vm), len(c.host)
        # host capacity
        cores = host["sockets"] * host["cores_per_socket"]
        ht = host["hyperthreading"]
        self.cap = cores * np.where(ht, HT_THROUGHPUT, 1.0)
        self.pcpus = pcpus = cores * np.where(ht, 2.0, 1.0)
        self.ghz_scale = REF_GHZ / host["ghz"]
        self.dense_capable = (host["dense_mode"] & (host["esxi_version"] >= DENSE_MIN_ESXI)
                              & (host["platform"] == c.host.code("platform", "esxi")))
        # per-VM guest demand (cores) of VMs that serve no requests
        self.vcpus = vcpus = vm["vcpus"]
        prof = vm["workload.profile"]
        self.web = web = prof == c.vm.code("workload.profile", "web")
        other = np.where(prof == c.vm.code("workload.profile", "cpu_bound"), vcpus,
                         vm["workload.cpu_pct"] / 100.0 * vcpus)
        other = np.where(prof == c.vm.code("workload.profile", "idle"), 0.0, other)
        self.other = np.where(web, 0.0, other)
        self.placed = placed = c.vm_host >= 0
        self.hidx = hidx = np.where(placed, c.vm_host, 0)
        self.sec = sec = (c.vm_secondary >= 0) & vm["ft"]
        self.sidx = sidx = np.where(sec, c.vm_secondary, 0)
        self.w_pri = w_pri = placed.astype(np.float64)
        self.w_sec = w_sec = sec.astype(np.float64)

        def per_host(x: np.ndarray) -> np.ndarray:
            return (np.bincount(hidx, x * w_pri, minlength=h)
                    + np.bincount(sidx, x * w_sec, minlength=h))

        # dense-mode thresholds but the utilisation one (consol-dense-mode-activation-...)
        self.dense_eligible = (self.dense_capable
                               & (per_host(np.ones(n)) >= DENSE_MIN_VMS_PER_PCPU * pcpus)
                               & (per_host(vcpus) >= DENSE_MIN_VCPUS_PER_PCPU * pcpus))
        # memory the VMs hold: consumed where measured (workload.memory_gb), else configured
        held = vm["workload.memory_gb"]
        held = np.where(np.isnan(held), vm["memory_gb"], held)
        self.mem = per_host(held)
        self.mem_util = self.mem / host["memory_gb"]
        self.ref = int(np.argmax(np.bincount(c.vm_host[placed], minlength=h))) if n else 0
        self.memory_resources = _memory_resources(c, self.mem_util, self.mem)
        self.web_p = web_p = web & placed
        self.web_hosts = np.flatnonzero(np.bincount(hidx[web_p], minlength=h))
        # the design's mix per VM, FT secondaries included (_consolidation)
        mult = 1.0 + sec
        self.mix = (mult, float(np.mean(vcpus * mult)) if n else float("nan"),
                    float(np.mean(mult)) if n else float("nan"),
                    float(np.mean(held * mult)) if n else float("nan"))


def _arr(x: np.ndarray, n: int) -> np.ndarray:
    return x if len(x) == n else np.zeros(n)


def _ratio(fto: FtResult, n: int) -> np.ndarray:
    r = fto.vm_throughput_ratio
    return r if len(r) == n else np.ones(n)


def _web_response(res: ConsolidationResult, c: Compiled, web_p: np.ndarray, hidx: np.ndarray,
                  hosts: np.ndarray, cap: np.ndarray, rho: np.ndarray, ghz_scale: np.ndarray,
                  active: np.ndarray, want: np.ndarray, vcpus: np.ndarray,
                  exclusive: np.ndarray | None = None) -> None:
    """Response times of the web VMs ``web_p``; ``hosts`` are the hosts they run on."""
    s_ms = WALL_PER_CPU * WEB_CORE_MS * ghz_scale[hosts] * np.where(
        active[hosts], 1.0 - uncertainty.value("consolidation.dense_saving", active[hosts]), 1.0)
    r = rho[hosts]
    ok = r < 1.0
    servers = np.maximum(np.floor(cap[hosts] + 1e-9), 1.0)
    mean_h = np.full(len(hosts), SATURATED_MS)
    p95_h = np.full(len(hosts), SATURATED_MS)
    if ok.any():
        m, p = _host_response(servers[ok], r[ok], s_ms[ok])
        mean_h[ok], p95_h[ok] = m, p
    h = len(c.host)
    mean_by_host, p95_by_host, s_by_host = np.zeros(h), np.zeros(h), np.ones(h)
    mean_by_host[hosts], p95_by_host[hosts], s_by_host[hosts] = mean_h, p95_h, s_ms
    u = want / vcpus
    hv = hidx[web_p]
    uv = u[web_p]
    sat = (uv >= 1.0) | (rho[hv] >= 1.0)
    extra = 1.0 / (1.0 - np.minimum(uv, 0.999999)) - 1.0
    sv = s_by_host[hv]
    cpu_v = sv / WALL_PER_CPU  # the request's CPU time on this host
    host_mean, host_p95 = mean_by_host[hv], p95_by_host[hv]
    if exclusive is not None and exclusive[web_p].any():  # own cores: no wait for a pCPU
        own = exclusive[web_p]
        host_mean, host_p95 = np.where(own, sv, host_mean), np.where(own, _LN20 * sv, host_p95)
    mean_v = np.where(sat, SATURATED_MS, host_mean + cpu_v * extra)
    p95_v = np.where(sat, SATURATED_MS, host_p95 + _LN20 * cpu_v * extra)
    res.vm_response_ms[web_p] = np.minimum(mean_v, SATURATED_MS)
    res.vm_response_p95_ms[web_p] = np.minimum(p95_v, SATURATED_MS)


def _warnings(res: ConsolidationResult, c: Compiled, rho: np.ndarray, mem_util: np.ndarray,
              cap: np.ndarray, mem: np.ndarray, active: np.ndarray,
              dense_capable: np.ndarray, web_p: np.ndarray, want: np.ndarray,
              vcpus: np.ndarray) -> None:
    ids = c.host.ids
    warn = res.warnings
    for i in np.flatnonzero(rho > 1.0):
        warn.append(f"host {ids[i]}: CPU over-committed - VMs demand {rho[i]:.0%} of its"
                    f" {cap[i]:.1f} core-equivalents; every VM is slowed in proportion and"
                    f" web responses saturate (reported as {SATURATED_MS:.0f} ms)")
    for i in np.flatnonzero(mem_util > 1.0):
        warn.append(f"host {ids[i]}: memory over-committed - VMs hold {mem[i]:.0f} GB"
                    " (configured, or consumed where measured) on"
                    f" {c.host.cols['memory_gb'][i]:.0f} GB installed"
                    " (relies on page sharing, ballooning or swapping)")
    if web_p.any():
        over = web_p & (want / vcpus >= 1.0)
        for i in np.flatnonzero(over)[:5]:
            warn.append(f"vm {c.vm.ids[i]}: its requests need {want[i]:.2f} vCPUs of its"
                        f" {vcpus[i]:.0f}; its response time is saturated (reported as"
                        f" {SATURATED_MS:.0f} ms)")
        if over.sum() > 5:
            warn.append(f"... and {int(over.sum()) - 5} more VMs whose vCPUs cannot keep up"
                        " with their request rate")
    hv = c.vm_host
    lat = (c.vm.cols["latency_sensitivity"] == c.vm.code("latency_sensitivity", "high"))
    if lat.any():
        lat_hosts = np.zeros(len(ids), bool)
        lat_hosts[hv[lat & (hv >= 0)]] = True
        for i in np.flatnonzero(lat_hosts & (rho > LATENCY_SENSITIVE_UTIL)):
            warn.append(f"host {ids[i]}: {min(rho[i], 1.0):.0%} CPU with latency-sensitive VMs;"
                        f" about {LATENCY_SENSITIVE_UTIL:.0%} is the usual ceiling that leaves"
                        f" headroom for bursts ({DOCKER})")
        for i in np.flatnonzero(lat_hosts & active):
            warn.append(f"host {ids[i]}: dense mode is active with latency-sensitive VMs; it"
                        f" batches network work and raises their latency ({DENSE})")
        if c.policy["cpu_util_max"] > LATENCY_SENSITIVE_UTIL:
            warn.append(f"policy.cpu_util_max {c.policy['cpu_util_max']:.0%} is above the"
                        f" ~70-75% typical for latency-sensitive workloads ({DOCKER})")
    old = c.host.cols["dense_mode"] & ~dense_capable
    for i in np.flatnonzero(old):
        warn.append(f"host {ids[i]}: dense mode needs ESXi 6.0 or later; it has no effect here")


def _consolidation(c: Compiled, ref: int, cap: np.ndarray, pcpus: np.ndarray,
                   ghz_scale: np.ndarray, dense_capable: np.ndarray, req_core_s: np.ndarray,
                   other: np.ndarray, path: np.ndarray, vcpus: np.ndarray, web: np.ndarray,
                   mix: tuple[np.ndarray, float, float, float],
                   vms_per_host: float) -> tuple[Consolidation, dict[str, Any]]:
    """VMs of the design's mix one host like ``ref`` holds under each limit (closed forms).
    ``mix``: per-VM multiplicity (an FT VM brings its secondary: same CPU and memory,
    ft-secondary-doubles-cpu-memory) and the mean vCPUs, VMs and memory per VM."""
    n = len(vcpus)
    mult, v_per, r_per, m_per = mix
    cap_r, g = float(cap[ref]), float(ghz_scale[ref])
    d_def = float(np.mean((np.minimum(req_core_s * g + other, vcpus) + path) * mult))
    saving = uncertainty.value("consolidation.dense_saving", dense_capable[ref])  # band
    d_den = float(np.mean((np.minimum(req_core_s * g * (1.0 - saving) + other, vcpus)
                           + path) * mult))
    pc = float(pcpus[ref])
    # smallest count at which the dense thresholds hold (all three grow with the count)
    n_act = max(_ceil(DENSE_MIN_VMS_PER_PCPU * pc / r_per),
                _ceil(DENSE_MIN_VCPUS_PER_PCPU * pc / v_per),
                _ceil(DENSE_MIN_UTIL * cap_r / d_def) if d_def > 0 else _MAX_COUNT)
    dense = bool(dense_capable[ref])

    def pick(n_def: int, n_den: int) -> int:
        return n_den if dense and n_def >= n_act - 1 else n_def

    u_max = c.policy["cpu_util_max"]
    by_cpu: int | None = None
    if d_def > 0:
        by_cpu = pick(_floor(u_max * cap_r / d_def), _floor(u_max * cap_r / d_den))
    by_mem = _floor(float(c.host.cols["memory_gb"][ref]) / m_per) if m_per > 0 else None
    by_p95: int | None = None
    if web.any() and d_def > 0:
        u_web = float(np.max(req_core_s[web] * g / vcpus[web]))
        s_def = WALL_PER_CPU * WEB_CORE_MS * g
        servers = max(math.floor(cap_r + 1e-9), 1)
        p95_max = c.policy["p95_ms_max"]
        by_p95 = _count_at_p95(servers, s_def, u_web, p95_max, d_def, cap_r)
        if dense and by_p95 >= n_act - 1:
            by_p95 = _count_at_p95(servers, s_def * (1.0 - saving),
                                   u_web * (1.0 - saving), p95_max, d_den, cap_r)
    limits = {k: v for k, v in (("cpu", by_cpu), ("p95", by_p95), ("memory", by_mem))
              if v is not None}
    binding = min(limits, key=lambda k: limits[k]) if limits else None
    hosts_needed: int | None = None
    if binding is not None and limits[binding] > 0:
        hosts_needed = math.ceil(n / limits[binding]) + int(c.policy["ha_spare_hosts"])
    extra = {"reference_host": c.host.ids[ref], "max_vms_per_host_by_memory": by_mem,
             "cpu_cores_per_vm": d_def, "dense_activation_vms": n_act,
             "web_core_ms_at_2_4ghz": WEB_CORE_MS, "dense_cpu_saving": DENSE_SAVING,
             "web_wall_per_cpu": WALL_PER_CPU}
    return Consolidation(vms_per_host, by_cpu, by_p95, binding, hosts_needed), extra


_MAX_COUNT = 2**31 - 1
"""Counts are capped here (VMs that demand next to nothing fit without a practical limit)."""


def _floor(x: float) -> int:
    if not x < _MAX_COUNT:
        return _MAX_COUNT
    return max(math.floor(x + 1e-9), 0)


def _ceil(x: float) -> int:
    if not x < _MAX_COUNT:
        return _MAX_COUNT
    return max(math.ceil(x - 1e-9), 0)


@lru_cache(maxsize=512)
def _count_at_p95(servers: int, s_ms: float, u: float, p95_max: float, cores_per_vm: float,
                  cap: float) -> int:
    """How many VMs (each ``cores_per_vm``) fit before the p95 passes ``p95_max``.

    The p95 increases with utilisation: the cached table (:func:`_table`) is inverted by
    linear interpolation and the count is then settled exactly (:func:`p95_exact`) on the few
    integers around the interpolated one."""
    if u >= 1.0:
        return 0
    _, tp = _table(servers)
    p95 = s_ms * tp + _LN20 * s_ms / WALL_PER_CPU * (1.0 / (1.0 - u) - 1.0)
    if p95[0] > p95_max:
        return 0
    j = int(np.searchsorted(p95, p95_max, side="right"))
    rho_grid = -np.expm1(-_GRID_X)
    if j >= len(p95):
        rho_star = float(rho_grid[-1])
    else:
        x0, x1, y0, y1 = rho_grid[j - 1], rho_grid[j], p95[j - 1], p95[j]
        rho_star = float(x0 + (x1 - x0) * (p95_max - y0) / max(y1 - y0, 1e-300))
    n0 = _floor(rho_star * cap / cores_per_vm)
    vm_term = _LN20 * s_ms / WALL_PER_CPU * (1.0 / (1.0 - u) - 1.0)

    def meets(k: int) -> bool:
        rho = k * cores_per_vm / cap
        return k <= 0 or (rho < 1.0 and p95_exact(servers, rho, s_ms) + vm_term
                          <= p95_max * (1.0 + 1e-9))

    if n0 >= _MAX_COUNT - 8:
        return _MAX_COUNT
    # the interpolated count is right but for ties: settle it exactly (a few steps at most)
    n = n0 + 1
    if meets(n):
        for _ in range(8):
            if not meets(n + 1):
                break
            n += 1
        return n
    n -= 1
    for _ in range(8):
        if meets(n):
            break
        n -= 1
    return max(n, 0)


def _resources(res: ConsolidationResult, c: Compiled, rho: np.ndarray,
               host_demand: np.ndarray, cap: np.ndarray, active: np.ndarray,
               memory: list[Resource], top: int = 8) -> None:
    """host_cpu and host_memory Resources for the busiest hosts (the per-host arrays carry
    all of them)."""
    ids = c.host.ids
    k = min(top, len(ids))
    for i in np.argsort(-rho, kind="stable")[:k]:
        dense = "; dense mode active" if active[i] else ""
        res.resources.append(Resource(
            ids[i], "host_cpu", float(rho[i]),
            f"{ids[i]}: VMs demand {host_demand[i]:.1f} of {cap[i]:.1f} core-equivalents"
            f" ({rho[i]:.0%}){dense}", DENSE))
    res.resources.extend(memory)


def _memory_resources(c: Compiled, mem_util: np.ndarray, mem: np.ndarray,
                      top: int = 8) -> list[Resource]:
    """host_memory Resources for the hosts with the most memory configured (no knob that
    moves load changes them)."""
    ids = c.host.ids
    installed = c.host.cols["memory_gb"]
    return [Resource(ids[i], "host_memory", float(mem_util[i]),
                     f"{ids[i]}: VMs (FT secondaries included) hold"
                     f" {mem[i]:.0f} of {installed[i]:.0f} GB", FT_BP)
            for i in np.argsort(-mem_util, kind="stable")[:min(top, len(ids))]]
