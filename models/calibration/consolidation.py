"""Consolidation calibration: the dense-mode study's web farm, the CloudStone headroom figure
and the FT secondary rule, each rebuilt as a design and evaluated through the engine.

Fitted (role ``fit``): the per-request CPU cost (465 VMs at 90% CPU), the dense-mode saving
(465 -> 495 at 90% CPU), the request's wall-clock/CPU ratio (470 VMs at p95 = 100 ms) and the
latency-sensitive ceiling (70-75%).  Checked, not fitted: dense mode under the p95 SLO
(470 -> more than 510) and "up to 10%".  Rules: the three dense-mode thresholds and the FT
secondary's CPU and memory.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from models.calibration import Check, published, speed_of_host
from models.calibration.fit import Fitter
from models.core import uncertainty
from models.core.prediction import Prediction
from models.document.design import Component, Design, Link, Override, Scenario
from models.document.numbers import counted
from models.document.schema import Value
from models.document.studies import DENSE
from models.document.words import kind_count
from models.engine.evaluation import Engine, evaluate
from models.subsystems import consolidation, limits, queueing

DENSE_CASE = "consol-dense-mode-medium-"
DL580_HOST: dict[str, Value] = {
    "sockets": 4, "cores_per_socket": 10, "ghz": 2.4, "hyperthreading": False,
    "cpu_model": "Intel Xeon E7-4870", "memory_gb": 512.0, "esxi_version": "6.0"}
"""The dense-mode study's HP DL580 G7: 4 x 10-core Xeon E7-4870 at 2.4 GHz (HT not stated:
modelled off, as its utilisation is over its 40 cores)."""


def dl580_testbed(n_vms: int = 470, req_per_s: float = 25.0, dense: bool = False,
                  vcpus: int = 1, cpu_pct: float | None = None,
                  profile: str = "web") -> Design:
    """The dense-mode study's testbed: an HP DL580 G7 (4 x 10-core Xeon E7-4870 2.4 GHz,
    512 GB, hyperthreading not stated: the study's utilisation is over its 40 cores), two
    dual-port Intel X520 with three active 10GbE ports, vSphere 6.0, and ``n_vms`` 1-vCPU 1 GB
    RHEL 6.3 web servers (VMXNET3, content cached in memory) serving ~100 KB per request."""
    d = Design(name="Dense-mode web farm (HP DL580 G7)",
               notes=f"{DENSE.title}: RHEL 6.3"
               " web-server VMs (1 vCPU, 1 GB) on an HP DL580 G7; SLOs p95 <= 100 ms and"
               " 90% host CPU.",
               policy={"cpu_util_max": 0.9, "p95_ms_max": 100.0, "ha_spare_hosts": 0})
    d.components.append(Component(
        "h1", "host", "HP DL580 G7", props={**DL580_HOST, "dense_mode": dense}))
    for i, ports in enumerate((2, 1), start=1):  # 2x dual-port X520, 3 ports active
        d.components.append(Component(f"n{i}", "nic", f"Intel X520 #{i}", x=-200.0 + 400 * i,
                                      y=-150.0, props={"speed_gbps": 10.0, "ports": ports,
                                                       "pcie_gen": 2, "pcie_lanes": 8}))
        d.links.append(Link(f"n{i}", "h1", "installed_in"))
    per_row = 30
    for v in range(n_vms):
        props: dict[str, bool | int | float | str | None] = {
            "vcpus": vcpus, "memory_gb": 1.0, "guest_os": "linux", "vnic": "vmxnet3",
            "workload.profile": profile, "workload.req_per_s": req_per_s,
            "workload.resp_kb": 100.0, "workload.io_oio": 0}
        if cpu_pct is not None:
            props["workload.cpu_pct"] = cpu_pct
        vid = f"v{v + 1}"
        d.components.append(Component(vid, "vm", f"rhel63-web{v + 1:03d}",
                                      x=-900.0 + 60.0 * (v % per_row),
                                      y=200.0 + 40.0 * (v // per_row), props=props))
        d.links.append(Link(vid, "h1", "runs_on"))
    return d


def _max_vms(design: Design) -> tuple[int, int]:
    con = evaluate(design).consolidation
    assert con.max_vms_per_host_by_cpu is not None and con.max_vms_per_host_by_p95 is not None
    return con.max_vms_per_host_by_cpu, con.max_vms_per_host_by_p95


def _first_active(counts: range, **kw: float | int | str) -> float:
    """The first VM count at which dense mode is active on the testbed host."""
    for n in counts:
        pred = evaluate(dl580_testbed(n, dense=True, **kw))  # type: ignore[arg-type]
        if bool(pred.hosts.dense_mode_active[0]):
            return float(n)
    return float("nan")


def _lowest_util(eng: Engine, lo: float, hi: float, hit: Callable[[Prediction], bool]) -> float:
    """Host CPU % at the lowest guest CPU demand (``workload.cpu_pct`` of every VM, bisected
    between ``lo`` and ``hi``) at which ``hit`` holds for the engine's prediction."""

    def at(pct: float) -> Prediction:
        eng.patch(Override("vm", "workload.cpu_pct", pct))
        return eng.evaluate()

    if hit(at(lo)) or not hit(at(hi)):
        return float("nan")
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if hit(at(mid)) else (mid, hi)
    return 100.0 * float(at(hi).hosts.cpu_util[0])


def _dense_checks() -> list[Check]:
    out: list[Check] = []
    act = "consol-dense-mode-activation-thresholds"
    # vCPUs >= 2 x PCPUs binds first for 1-vCPU VMs at 30% each (util 50% at 67 VMs)
    n = _first_active(range(70, 91), profile="oltp", cpu_pct=30.0)
    out.append(Check(act, "1-vCPU VMs at which dense mode activates on 40 PCPUs (2 x PCPUs)",
                     80.0, n, 0.0, "rule"))
    # VMs >= PCPUs binds first for 4-vCPU VMs at 15% (vCPUs >= 80 at 20 VMs, util 50% at 34)
    n = _first_active(range(30, 51), profile="oltp", cpu_pct=15.0, vcpus=4)
    out.append(Check(act, "4-vCPU VMs at which dense mode activates on 40 PCPUs (VMs >= PCPUs)",
                     40.0, n, 0.0, "rule"))
    # utilisation >= 50% binds for 100 1-vCPU VMs: raise their CPU until dense activates
    eng = Engine(dl580_testbed(100, dense=True, profile="oltp", cpu_pct=10.0))
    util = _lowest_util(eng, 10.0, 30.0, lambda p: bool(p.hosts.dense_mode_active[0]))
    out.append(Check(act, "host CPU % at which dense mode activates (100 VMs, 40 PCPUs)",
                     50.0, util, 0.02, "rule"))

    cpu_def, p95_def = _max_vms(dl580_testbed(470))
    cpu_den, p95_den = _max_vms(dl580_testbed(470, dense=True))
    cpu90 = DENSE_CASE + "cpu90-consolidation"
    out.append(Check(cpu90, "web VMs at 90% host CPU, default mode", 465.0, cpu_def, 0.05,
                     "fit", note="fits the per-request CPU cost (~3.10 core-ms at 2.4 GHz)"))
    out.append(Check(cpu90, "web VMs at 90% host CPU, dense mode", 495.0, cpu_den, 0.05,
                     "fit", note="fits the dense-mode CPU saving (~6.1%, ~2.91 core-ms); the"
                     " text's 'nearly 10%' is rounder than 465 -> 495 (+6.5%)"))
    p95c = DENSE_CASE + "p95-consolidation"
    out.append(Check(p95c, "web VMs at p95 <= 100 ms, default mode", 470.0, p95_def, 0.05,
                     "fit", note="fits the request's wall-clock/CPU ratio"))
    out.append(Check(p95c, "web VMs at p95 <= 100 ms, dense mode (more than 510)", 510.0,
                     p95_den, 0.03, "check", "gt",
                     note="not fitted: follows from the CPU saving fitted on the 90% case"))
    out.append(Check(p95c, "web VMs at p95 <= 100 ms, dense mode ('over 10%' -> ~517)",
                     517.0, p95_den, 0.05, "check",
                     note="the case notes read 'over 10%' on 470 as about 517-520"))
    hi_def, _ = _max_vms(dl580_testbed(240, req_per_s=2.0 * STUDY_RATE))
    hi_den, _ = _max_vms(dl580_testbed(240, req_per_s=2.0 * STUDY_RATE, dense=True))
    out.append(Check("consol-dense-mode-high-rate-less-benefit",
                     "dense-mode gain at 90% CPU, 50 / 25 requests per second (smaller)", 1.0,
                     (hi_den / hi_def - 1.0) / (cpu_den / cpu_def - 1.0), 0.0, "check", "lt",
                     note=f"{hi_def} -> {kind_count('vm', hi_den)} at 50/s: fewer contexts per"
                     " core"))
    both_def, both_den = min(cpu_def, p95_def), min(cpu_den, p95_den)
    out.append(Check("consol-dense-mode-up-to-10pct",
                     "dense-mode gain in VMs per host under both SLOs, %", 10.0,
                     100.0 * (both_den / max(both_def, 1) - 1.0), 0.0, "check", "lt",
                     note=f"{both_def} -> {counted(both_den, 'VM per host')}"))
    return out


def cloudstone_testbed(cpu_pct: float = 50.0) -> Design:
    """CloudStone scale-out: a Dell R820 (4 x 8-core Xeon E5-4650 2.3 GHz, HT, 512 GB) with
    8 latency-sensitive 8-vCPU 4 GB VMs (64 vCPUs on 32 cores / 64 threads)."""
    d = Design(name="CloudStone scale-out (Dell R820)", policy={"cpu_util_max": 0.75})
    d.components.append(Component("h1", "host", "Dell PowerEdge R820", props={
        "sockets": 4, "cores_per_socket": 8, "ghz": 2.3, "hyperthreading": True,
        "cpu_model": "Intel Xeon E5-4650",
        "memory_gb": 512.0, "esxi_version": "6.0"}))
    d.components.append(Component("n1", "nic", "10GbE", props={"speed_gbps": 10.0}))
    d.links.append(Link("n1", "h1", "installed_in"))
    for v in range(8):
        d.components.append(Component(f"v{v + 1}", "vm", f"cloudstone{v + 1}", props={
            "vcpus": 8, "memory_gb": 4.0, "latency_sensitivity": "high", "containers": 1,
            "workload.profile": "oltp", "workload.cpu_pct": cpu_pct, "workload.io_oio": 0}))
        d.links.append(Link(f"v{v + 1}", "h1", "runs_on"))
    return d


def _cloudstone_check() -> Check:
    """The host utilisation at which the engine starts warning that latency-sensitive VMs have
    lost their burst headroom (found by raising the VMs' CPU demand)."""
    eng = Engine(cloudstone_testbed(10.0))
    util = _lowest_util(eng, 30.0, 60.0, lambda p: any("latency-sensitive VMs; about" in w
                                                       for w in p.warnings))
    return Check("consol-cloudstone-scaleout-cpu-headroom",
                 "host CPU % above which latency-sensitive VMs are warned (70-75% typical)",
                 72.5, util, 0.05, "fit",
                 note="the warning threshold is the range's upper end (75%)")


def ft_testbed(ft: bool = True) -> Design:
    """Two identical hosts; one 4-vCPU 16 GB VM at 50% CPU on h1, FT secondary on h2."""
    d = Design(name="FT secondary resources")
    for h in ("h1", "h2"):
        d.components.append(Component(h, "host", h, props={"esxi_version": "6.0"}))
        for role in ("vm", "ft_logging"):
            d.components.append(Component(f"{h}-{role}", "nic", role, props={"role": role}))
            d.links.append(Link(f"{h}-{role}", h, "installed_in"))
    d.components.append(Component("v1", "vm", "ft-vm", props={
        "vcpus": 4, "memory_gb": 16.0, "ft": ft, "workload.profile": "oltp",
        "workload.cpu_pct": 50.0, "workload.io_oio": 0}))
    d.links.append(Link("v1", "h1", "runs_on"))
    if ft:
        d.links.append(Link("v1", "h2", "ft_secondary_on"))
    return d


def _ft_checks() -> list[Check]:
    on, off = evaluate(ft_testbed(True)), evaluate(ft_testbed(False))
    case = "ft-secondary-doubles-cpu-memory"
    cpu = float(on.hosts.cpu_util.sum() / off.hosts.cpu_util.sum())
    mem = float(on.hosts.memory_util.sum() / off.hosts.memory_util.sum())
    return [
        Check(case, "cluster CPU used by an FT VM over the same VM without FT", 2.0, cpu, 0.0,
              "rule", note="the secondary uses as much CPU as the primary"),
        Check(case, "cluster memory used by an FT VM over the same VM without FT", 2.0, mem,
              0.0, "rule", note="the secondary uses as much memory as the primary"),
    ]


def example_design(n_vms: int = 470) -> Design:
    """The bundled example ``dense-web-farm``: the testbed with two scenarios."""
    d = dl580_testbed(n_vms)
    d.name = "Dense-mode web farm"
    d.scenarios = [
        Scenario("dense mode", [Override("host", "dense_mode", True)]),
        Scenario("high request rate", [Override("vm", "workload.req_per_s", 50.0)]),
    ]
    return d


def checks() -> list[Check]:
    return [*_dense_checks(), _cloudstone_check(), *_ft_checks()]


STUDY_CORES, STUDY_RATE, STUDY_UTIL = 40, 25.0, 0.90
"""The dense-mode testbed: 40 cores, 1-vCPU web servers at 25 requests/s, the 90% CPU SLO."""


def fit(f: Fitter) -> None:
    """A request's CPU, base and context-switch part, from the 90% CPU counts in closed form
    (the default mode holds n at ``B + S n / PCPUs``, dense mode takes its share of the
    context-switch part away); the request's wall-clock/CPU ratio from the p95 count; the
    latency-sensitive ceiling as the top of its stated range."""
    cpu90, p95 = DENSE_CASE + "cpu90-consolidation", DENSE_CASE + "p95-consolidation"
    n_def, n_den = float(published(cpu90, "default")), float(published(cpu90, "dense"))
    pcpus = float(STUDY_CORES)  # hyperthreading off: a PCPU is a core
    # core-ms/s over requests/VM, in the reference core's time (the testbed's E7-4870 cores
    # are slower: the same request takes fewer reference-core ms)
    speed = speed_of_host(DL580_HOST)
    per_request = STUDY_UTIL * STUDY_CORES * 1000.0 / STUDY_RATE * speed
    removed = uncertainty.BANDS["consolidation.dense_saving"].fitted

    def context_ms() -> float:
        c_def, c_den = per_request / n_def, per_request / n_den
        return (c_def - c_den) / (n_def / pcpus - (1.0 - removed) * n_den / pcpus)

    f.closed(limits.WEB_CS_MS, [cpu90], context_ms, figures=2,
             note="465 (default) and 495 (dense) VMs at 90% CPU, with WEB_BASE_MS")
    f.closed(limits.WEB_BASE_MS, [cpu90],
             lambda: per_request / n_def - limits.WEB_CS_MS.value * n_def / pcpus,
             figures=2, note="the same two counts")
    n_p95 = float(published(p95, "default"))
    p95_max = 100.0

    def wall() -> float:
        # the default-mode host at n_p95 VMs has p95 = 100 ms; response scales with the wall
        # ratio, so one evaluation of the exact p95 at unit service time gives it
        cpu_ms = (limits.WEB_BASE_MS.value
                  + limits.WEB_CS_MS.value * n_p95 / pcpus) / speed  # on the testbed
        rho = n_p95 * STUDY_RATE * cpu_ms / 1000.0 / STUDY_CORES
        u = STUDY_RATE * cpu_ms / 1000.0
        vm_term = math.log(20.0) * cpu_ms * (1.0 / (1.0 - u) - 1.0)
        return (p95_max - vm_term) / queueing.p95_exact(STUDY_CORES, rho, 1.0) / cpu_ms

    f.closed(limits.WALL_PER_CPU, [p95], wall, note="470 VMs at p95 = 100 ms")
    head = "consol-cloudstone-scaleout-cpu-headroom"
    f.closed(consolidation.LATENCY_SENSITIVE_UTIL, [head],
             lambda: float(published(head, "cpu_util_pct")[1]) / 100.0,
             note="the top of the stated 70-75% (a warning threshold)")
