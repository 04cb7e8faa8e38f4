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
* **Background load**: a host's ``background.*`` (what it recorded beyond its VMs in the
  design: VMs an export does not list, the hypervisor's own; :mod:`models.analysis.baseline`)
  joins its CPU demand (scaled by its clock as measured work is) and its memory.  A host whose
  CPU or memory nothing measured (its VMs imported without the figure, no record, no
  background) reads NaN, "not measured", never 0.
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

import numpy as np

from models.core import coefficients
from models.core.compiled import Compiled
from models.core.platform import REF_GHZ, compute, stand_in_words
from models.core.prediction import SATURATED_MS, Consolidation, Resource
from models.core.results import (
    ConsolidationResult,
    Demand,
    FtResult,
    NetworkResult,
    StorageResult,
)
from models.document.numbers import NOT_MEASURED, with_unit
from models.document.schema import ESXI_VERSIONS
from models.document.studies import BEST_PRACTICES_4, DENSE, DOCKER_WEB
from models.subsystems import cpu_virt, vsan_io
from models.subsystems.limits import (
    DENSE_MIN_UTIL,
    DENSE_MIN_VCPUS_PER_PCPU,
    DENSE_MIN_VMS_PER_PCPU,
    WALL_PER_CPU,
    limits_for,
    request_core_ms,
)
from models.subsystems.queueing import (
    _LN20,
    _host_response,
)

DENSE_MIN_ESXI = ESXI_VERSIONS.index("6.0")  # the feature appeared in vSphere 6.0


LATENCY_SENSITIVE_UTIL = coefficients.declare(
    "consolidation.latency_sensitive_util", "host CPU fraction", 0.8,
    "Average host CPU above which latency-sensitive VMs lose their burst headroom: 'around"
    " 70-75% ... typical average CPU utilization for latency sensitive workloads'"
    " (consol-cloudstone-scaleout-cpu-headroom; the upper end, a warning threshold).  Prior:"
    " 80%.")






def density(c: Compiled, vms: np.ndarray | None = None) -> float:
    """VMs per host as an architect counts them: the VM instances running (an FT VM's
    secondary is one more, on its own host) over the hosts running at least one, so a
    placed VM never reads as half a VM per host; of the VMs ``vms`` (indices), every VM by
    default."""
    pick = np.zeros(len(c.vm), bool)
    pick[slice(None) if vms is None else vms] = True
    running = c.vm_host[(c.vm_host >= 0) & pick]
    secondaries = c.vm_secondary[(c.vm_secondary >= 0) & c.vm.cols["ft"] & pick]
    hosts = np.unique(np.concatenate([running, secondaries]))
    return float((len(running) + len(secondaries)) / len(hosts)) if len(hosts) else 0.0


def background(c: Compiled) -> tuple[np.ndarray, np.ndarray]:
    """Each host's background load, beyond the design's VMs (``background.*``: the VMs an
    export does not list, the hypervisor's own, as the baseline solved them): CPU in
    core-equivalents at the host's clock (measured at ``background.cpu_ghz``, it scales as a
    VM's measured work does) and memory in GB; zero where there is none."""
    return c.memo("consolidation.background", lambda: _background(c))


def _background(c: Compiled) -> tuple[np.ndarray, np.ndarray]:
    host = c.host.cols
    cores, clock = host["background.cpu_cores"], host["background.cpu_ghz"]
    speed = compute(c).speed
    scale = np.where(np.isnan(clock), 1.0, clock / REF_GHZ / np.where(speed > 0, speed, 1.0))
    return np.nan_to_num(cores) * scale, np.nan_to_num(host["background.memory_gb"])


def not_measured(c: Compiled) -> tuple[np.ndarray, np.ndarray]:
    """Hosts whose CPU (first) and memory (second) utilisation nothing measured: VMs run on
    them, every one a ``measured`` VM whose figure its provenance calls not measured (an
    import found nothing: idle CPU, configured memory) and no one has set since, and the
    host recorded nothing and holds no background.  Their utilisation is NaN: "not
    measured", never 0."""
    return c.memo("consolidation.not_measured", lambda: _not_measured(c))


def _unmeasured(c: Compiled, prop: str) -> np.ndarray:
    """VMs whose ``provenance.*`` says not measured (memoised apart: no knob moves it)."""
    def find() -> np.ndarray:
        text = c.vm.cols[prop]
        return np.char.startswith(text.astype(str), NOT_MEASURED) if len(text) \
            else np.zeros(0, bool)
    return c.memo(f"consolidation.unmeasured.{prop}", find)


def _not_measured(c: Compiled) -> tuple[np.ndarray, np.ndarray]:
    vm, host = c.vm.cols, c.host.cols
    h = len(c.host)
    measured = vm["workload.profile"] == c.vm.code("workload.profile", "measured")
    cpu_basis = ~measured | ~np.isnan(vm["measured.cpu_mhz"]) | (vm["workload.cpu_pct"] > 0) \
        | ~_unmeasured(c, "provenance.cpu")
    memory_basis = ~measured | ~np.isnan(vm["workload.memory_gb"]) \
        | ~_unmeasured(c, "provenance.memory")
    placed = c.vm_host >= 0
    sec = (c.vm_secondary >= 0) & vm["ft"]
    on = np.concatenate([c.vm_host[placed], c.vm_secondary[sec]])

    def count(mask: np.ndarray) -> np.ndarray:
        return np.bincount(np.concatenate([c.vm_host[placed & mask],
                                           c.vm_secondary[sec & mask]]), minlength=h)

    runs = np.bincount(on, minlength=h) > 0
    cpu = runs & (count(cpu_basis) == 0) & np.isnan(host["measured.cpu_pct"]) \
        & np.isnan(host["background.cpu_cores"])
    memory = runs & (count(memory_basis) == 0) & np.isnan(host["measured.memory_pct"]) \
        & np.isnan(host["background.memory_gb"])
    return cpu, memory


def fewest_hosts(c: Compiled, vms: np.ndarray | slice | None = None) -> int:
    """The fewest hosts that can run the VMs (``vms``: indices, every VM by default) at all:
    two when one of them is FT-protected, whose secondary must run on another host than its
    primary (vSphere FT), one otherwise."""
    if vms is None:  # links and the ft column only: once per compile
        return c.memo("consolidation.fewest_hosts", lambda: fewest_hosts(c, slice(None)))
    ft = (c.vm_secondary >= 0) | c.vm.cols["ft"]
    return 2 if ft[vms].any() else 1


# ------------------------------------------------------------------ the model
def solve(c: Compiled, sto: StorageResult, net: NetworkResult,
          fto: FtResult) -> ConsolidationResult:
    vm = c.vm.cols
    n, h = len(c.vm), len(c.host)
    res = ConsolidationResult(
        vm_cpu_util=np.zeros(n), vm_response_ms=np.full(n, np.nan),
        vm_response_p95_ms=np.full(n, np.nan), vm_saturated=np.zeros(n, bool),
        host_cpu_util=np.zeros(h),
        host_memory_util=np.zeros(h), host_dense_active=np.zeros(h, bool))
    vms_per_host = c.memo("consolidation.density", lambda: density(c))  # links only
    res.consolidation = Consolidation(vms_per_host, None, None, None, None)
    if h == 0:
        return res

    st = c.memo("consolidation.static", lambda: _Static(c))  # what no I/O knob moves
    cap, pcpus, ghz_scale, dense_capable = st.cap, st.pcpus, st.ghz_scale, st.dense_capable
    vcpus, web, placed, hidx = st.vcpus, st.web, st.placed, st.hidx
    sidx, w_pri, w_sec = st.sidx, st.w_pri, st.w_sec

    # per-VM guest demand (cores) before clock and dense scaling; a request's CPU grows with
    # the contexts per PCPU of its host (default mode)
    rate = vm["workload.req_per_s"] * _ratio(fto, n)
    cost_def = request_core_ms(st.contexts, np.zeros(h, bool))
    req_core_s = np.where(web, rate * cost_def[hidx] / 1000.0, 0.0)
    other = st.other
    if sto.vm_app_cores is not None and len(sto.vm_app_cores) == n:
        # an application's guest CPU follows its transactions (models/subsystems/storage.py)
        txn = sto.vm_txn_per_s if sto.vm_txn_per_s is not None else np.full(n, np.nan)
        other = np.where(np.isnan(txn), other, sto.vm_app_cores)
    path = _arr(sto.vm_cpu_cores, n) + np.where(web, 0.0, _arr(net.vm_cpu_cores, n))
    # virtualisation: containers and remote memory scale the work's CPU, the hypervisor
    # adds its cost per blocking context switch (models/cpu_virt.py)
    cv = cpu_virt.solve(c, hidx, placed, cap, pcpus, other, web, sto, net)
    req_core_s, other = req_core_s * cv.factor, other * cv.factor
    req_rate = np.where(web, rate / 1000.0, 0.0) * cv.factor  # core-s per core-ms of cost
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
    host_demand = per_host(demand) + st.bg_cpu  # the background: what the export omits
    active = np.zeros(h, bool)
    if dense_capable.any():
        active = st.dense_eligible & (host_demand / cap >= DENSE_MIN_UTIL)
        if active.any():  # dense mode takes the context-switch part off on its hosts
            cost = request_core_ms(st.contexts, active)
            raw_web = raw_web * np.where(active[hidx] & placed, cost[hidx] / cost_def[hidx],
                                         1.0)
            want = raw_web + other
            guest = np.minimum(want, vcpus)
            demand = guest + path
            host_demand = per_host(demand) + st.bg_cpu
    res.host_dense_active = active
    res.vm_cpu_cores, res.host_cpu_demand, res.host_memory_gb = demand, host_demand, st.mem
    rho = host_demand / cap
    cpu_unknown, memory_unknown = not_measured(c)
    res.host_cpu_util = np.where(cpu_unknown, np.nan, np.minimum(rho, 1.0))
    mem, mem_util = st.mem, st.mem_util
    res.host_memory_util = np.where(memory_unknown, np.nan, mem_util)

    slow = np.maximum(rho, 1.0)[hidx]
    res.vm_cpu_util = np.where(placed, guest / vcpus / slow, guest / vcpus)

    # web response times
    web_p = st.web_p
    if web_p.any():
        cost = request_core_ms(st.contexts, active) if active.any() else cost_def
        _web_response(res, c, web_p, hidx, st.web_hosts, cap, rho, ghz_scale, cost, want,
                      vcpus, cv.exclusive)
    if c.detail:  # not read by a summary-only run (a sweep)
        _warnings(res, c, rho, mem_util, cap, mem, active, dense_capable, web_p, want, vcpus)
    res.warnings[:0] = cv.warnings  # rules a design breaks (cannot power on) come first
    if c.detail:
        hc = compute(c)
        for model, found in hc.stand_ins:
            res.warnings.append(f"processor '{model}' is not in the processor catalogue:"
                                f" {stand_in_words(found)}, scaled by its hosts' clock; set"
                                " host.specrate_per_core where SPEC's figure is known")
        for model in hc.unknown_models:
            res.warnings.append(f"processor '{model}' is not in the processor catalogue and"
                                " no family's rule knows it: its hosts' per-core performance"
                                " follows their clock alone (a core of 2012's Xeon E5-2665 at"
                                " that clock); set host.specrate_per_core where SPEC's figure"
                                " is known")
    res.cpu_virtualization = cv.section

    # consolidation figures for the reference host: how many VMs of the design's mix one
    # host holds under each limit (every cluster counts its own hosts the same way:
    # models/subsystems/capacity.py)
    if n:
        res.demand = Demand(cap, pcpus, ghz_scale, dense_capable, req_rate, other, path, vcpus,
                            web, st.mult, st.held, st.exclusive)
        lim = limits_for(c, res.demand, np.arange(n), st.ref, vms_per_host)
        res.consolidation = Consolidation(vms_per_host, lim.by_cpu, lim.by_p95, lim.binding,
                                          None)
        res.detail = lim.detail
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
        # host capacity (the platform's columns); per-request costs are in reference-core
        # time, the dense-mode study's 2.4 GHz Xeon E7-4870
        hc = compute(c)
        self.cap = hc.capacity
        self.pcpus = pcpus = hc.cores * np.where(host["hyperthreading"], 2.0, 1.0)
        self.ghz_scale = 1.0 / hc.speed
        self.dense_capable = (host["dense_mode"] & (host["esxi_version"] >= DENSE_MIN_ESXI)
                              & (host["platform"] == c.host.code("platform", "esxi")))
        # per-VM guest demand (cores) of VMs that serve no requests
        self.vcpus = vcpus = vm["vcpus"]
        prof = vm["workload.profile"]
        self.web = web = prof == c.vm.code("workload.profile", "web")
        other = np.where(prof == c.vm.code("workload.profile", "cpu_bound"), vcpus,
                         vm["workload.cpu_pct"] / 100.0 * vcpus)
        other = np.where(prof == c.vm.code("workload.profile", "idle"), 0.0, other)
        self.placed = placed = c.vm_host >= 0
        self.hidx = hidx = np.where(placed, c.vm_host, 0)
        # demand measured at another core clock (workload.cpu_ghz): the same work is fewer
        # cores on a faster host, more on a slower one
        clock = vm["workload.cpu_ghz"]
        if h:
            other = other * np.where(np.isnan(clock) | ~placed, 1.0,
                                     clock / REF_GHZ / hc.speed[hidx])
        self.other = np.where(web, 0.0, other)
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
        # memory the VMs hold: consumed where measured (workload.memory_gb), else configured;
        # and the hosts' background load (models/analysis/baseline.py solves it)
        held = vm["workload.memory_gb"]
        held = np.where(np.isnan(held), vm["memory_gb"], held)
        self.bg_cpu, bg_memory = background(c)
        self.mem = per_host(held) + bg_memory + vsan_io.memory_gb(c)  # vSAN's own too
        # contexts that share the host's PCPUs: each VM's vCPUs and device-emulation threads
        # (counted per VM), FT secondaries included
        self.contexts = per_host(np.ones(n)) / np.maximum(pcpus, 1.0)
        self.mem_util = self.mem / host["memory_gb"]
        self.ref = int(np.argmax(np.bincount(c.vm_host[placed], minlength=h))) if n else 0
        self.memory_resources = _memory_resources(c, self.mem_util, self.mem,
                                                  np.bincount(sidx, w_sec, minlength=h))
        self.web_p = web_p = web & placed
        self.web_hosts = np.flatnonzero(np.bincount(hidx[web_p], minlength=h))
        # per VM, FT secondaries included (the per-host limits count the mix with them)
        self.mult = 1.0 + sec
        self.held = held
        lat = vm["latency_sensitivity"] == c.vm.code("latency_sensitivity", "high")
        self.exclusive = vcpus * lat * self.mult


def _arr(x: np.ndarray, n: int) -> np.ndarray:
    return x if len(x) == n else np.zeros(n)


def _ratio(fto: FtResult, n: int) -> np.ndarray:
    r = fto.vm_throughput_ratio
    return r if len(r) == n else np.ones(n)


def _web_response(res: ConsolidationResult, c: Compiled, web_p: np.ndarray, hidx: np.ndarray,
                  hosts: np.ndarray, cap: np.ndarray, rho: np.ndarray, ghz_scale: np.ndarray,
                  cost: np.ndarray, want: np.ndarray, vcpus: np.ndarray,
                  exclusive: np.ndarray | None = None) -> None:
    """Response times of the web VMs ``web_p``; ``hosts`` are the hosts they run on and
    ``cost`` each host's CPU per request (core-ms of the reference core)."""
    s_ms = WALL_PER_CPU.value * cost[hosts] * ghz_scale[hosts]
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
    cpu_v = sv / WALL_PER_CPU.value  # the request's CPU time on this host
    host_mean, host_p95 = mean_by_host[hv], p95_by_host[hv]
    if exclusive is not None and exclusive[web_p].any():  # own cores: no wait for a pCPU
        own = exclusive[web_p]
        host_mean, host_p95 = np.where(own, sv, host_mean), np.where(own, _LN20 * sv, host_p95)
    mean_v = np.where(sat, SATURATED_MS, host_mean + cpu_v * extra)
    p95_v = np.where(sat, SATURATED_MS, host_p95 + _LN20 * cpu_v * extra)
    res.vm_response_ms[web_p] = np.minimum(mean_v, SATURATED_MS)
    res.vm_response_p95_ms[web_p] = np.minimum(p95_v, SATURATED_MS)
    res.vm_saturated[web_p] = sat


_NAMED = 5
"""Hosts a warning names one by one; the rest are counted in one line (an estate of a
thousand over-committed hosts reads as five examples and a count, not a thousand lines)."""


def _worst(util: np.ndarray, above: float) -> np.ndarray:
    """Indices of the hosts whose ``util`` is over ``above``, the highest first."""
    over = np.flatnonzero(util > above)
    return over[np.argsort(-util[over], kind="stable")]


def _span(util: np.ndarray) -> str:
    """'150% to 210%', or 'all at 200%' when the rounded ends agree."""
    low, high = f"{util.min():.0%}", f"{util.max():.0%}"
    return f"all at {low}" if low == high else f"{low} to {high}"


def _warnings(res: ConsolidationResult, c: Compiled, rho: np.ndarray, mem_util: np.ndarray,
              cap: np.ndarray, mem: np.ndarray, active: np.ndarray,
              dense_capable: np.ndarray, web_p: np.ndarray, want: np.ndarray,
              vcpus: np.ndarray) -> None:
    ids = c.host.ids
    warn = res.warnings
    cpu_over = _worst(rho, 1.0)
    web_on = np.zeros(len(ids), bool)  # the hosts whose web responses saturate with them
    web_on[c.vm_host[web_p]] = True
    for i in cpu_over[:_NAMED]:
        web = (f" and web responses saturate (reported as {SATURATED_MS:.0f} ms)"
               if web_on[i] else "")
        warn.append(f"host {ids[i]}: CPU over-committed - VMs demand {rho[i]:.0%} of its"
                    f" {cap[i]:.1f} core-equivalents; every VM is slowed in"
                    f" proportion{web}")
    if len(cpu_over) > _NAMED:
        warn.append(f"... and {len(cpu_over) - _NAMED} more hosts with CPU over-committed"
                    f" ({_span(rho[cpu_over[_NAMED:]])} of their core-equivalents)")
    mem_over = _worst(mem_util, 1.0)
    for i in mem_over[:_NAMED]:
        warn.append(f"host {ids[i]}: memory over-committed - VMs hold {mem[i]:.0f} GB"
                    " (configured, or consumed where measured) on"
                    f" {c.host.cols['memory_gb'][i]:.0f} GB installed"
                    " (relies on page sharing, ballooning or swapping)")
    if len(mem_over) > _NAMED:
        warn.append(f"... and {len(mem_over) - _NAMED} more hosts with memory over-committed"
                    f" ({_span(mem_util[mem_over[_NAMED:]])} of their installed memory)")
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
        ceiling = LATENCY_SENSITIVE_UTIL.value
        for i in np.flatnonzero(lat_hosts & (rho > ceiling)):
            warn.append(f"host {ids[i]}: {min(rho[i], 1.0):.0%} CPU with latency-sensitive VMs;"
                        f" about {ceiling:.0%} is the usual ceiling that leaves"
                        f" headroom for bursts ({DOCKER_WEB.title})")
        for i in np.flatnonzero(lat_hosts & active):
            warn.append(f"host {ids[i]}: dense mode is active with latency-sensitive VMs; it"
                        f" batches network work and raises their latency ({DENSE.title})")
        if c.policy["cpu_util_max"] > ceiling:
            warn.append(f"policy.cpu_util_max {c.policy['cpu_util_max']:.0%} is above the"
                        f" ~70-75% typical for latency-sensitive workloads ({DOCKER_WEB.title})")
    old = c.host.cols["dense_mode"] & ~dense_capable
    for i in np.flatnonzero(old):
        warn.append(f"host {ids[i]}: dense mode needs ESXi 6.0 or later; it has no effect here")


def _resources(res: ConsolidationResult, c: Compiled, rho: np.ndarray,
               host_demand: np.ndarray, cap: np.ndarray, active: np.ndarray,
               memory: list[Resource], top: int = 8) -> None:
    """host_cpu and host_memory Resources for the busiest hosts (the per-host arrays carry
    all of them)."""
    ids = c.host.ids
    k = min(top, len(ids))
    unknown = not_measured(c)[0]  # nothing measured: no figure to rank
    bg = background(c)[0]
    for i in [i for i in np.argsort(-np.round(rho, 6), kind="stable")  # ties within the MVA
              if not unknown[i]][:k]:  # tolerance
        dense = "; dense mode active" if active[i] else ""
        res.resources.append(Resource(
            ids[i], "host_cpu", float(rho[i]),
            f"{ids[i]}: {_load(bg[i])} demand {host_demand[i]:.1f} of {cap[i]:.1f}"
            f" core-equivalents ({rho[i]:.0%}){dense}", DENSE.title))
    res.resources.extend(memory)


def _load(background: float) -> str:
    """Who holds a host's load, in a bottleneck's words: its VMs, and where the export left
    some out, their background too."""
    return "VMs and the unlisted VMs' background" if background > 0 else "VMs"


def _memory_resources(c: Compiled, mem_util: np.ndarray, mem: np.ndarray,
                      secondaries: np.ndarray, top: int = 8) -> list[Resource]:
    """host_memory Resources for the hosts with the most memory configured (no knob that
    moves load changes them); ``secondaries``: the FT secondaries on each host."""
    ids = c.host.ids
    installed = c.host.cols["memory_gb"]
    unknown = not_measured(c)[1]
    bg = background(c)[1]
    return [Resource(ids[i], "host_memory", float(mem_util[i]),
                     f"{ids[i]}: {_load(bg[i])}"
                     + (" (FT secondaries included)" if secondaries[i] else "")
                     + f" hold {with_unit(float(mem[i]), 'GB')} of"
                     f" {with_unit(float(installed[i]), 'GB')}", BEST_PRACTICES_4.title)
            for i in [i for i in np.argsort(-mem_util, kind="stable")
                      if not unknown[i]][:min(top, len(ids))]]
