"""``evaluate(design) -> Prediction``: the subsystem models run in order on compiled arrays.

Order and data flow (each arrow is an array handed on):

    stretched.solve  -> per-VM write delay (inter-site round trip)
    ft.io_delay_ms   -> per-VM write delay (FT output commit)
    storage.solve    -> IOPS, latency, disk reads, I/O CPU
    network.solve    -> throughput, NIC load, network CPU
    ft.solve         -> logging bandwidth, stalls, added latency, secondary load
    consolidation.solve -> CPU/memory per host, web response times, VMs per host

:class:`Engine` keeps the compiled design, so a knob change is an in-place patch followed by
one evaluation (milliseconds for thousands of VMs).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace

import numpy as np

from models.core import coefficients, uncertainty
from models.core.compiled import Compiled, compile_design
from models.core.prediction import (
    ArrayArrays,
    HostArrays,
    Labels,
    NicArrays,
    Prediction,
    VmArrays,
    resource_words,
)
from models.core.results import FtResult, NetworkResult
from models.core.sections import Sections, Stretched
from models.core.uncertainty import Bands
from models.document.design import Design, Override, apply_scenario
from models.subsystems import (
    capacity,
    consolidation,
    content_library,
    ft,
    network,
    storage,
    stretched,
    vdi,
    vsan_io,
)


class Engine:
    """A compiled design that can be patched and re-evaluated cheaply."""

    def __init__(self, design: Design, scenario: str | None = None):
        self.scenario = scenario or "base"
        self.compiled: Compiled = compile_design(apply_scenario(design, scenario))

    def patch(self, override: Override) -> None:
        self.compiled.patch(override)

    def evaluate(self, detail: bool = True) -> Prediction:
        """The prediction of the current arrays; ``detail=False`` when only the summary is
        read (a sweep): models skip bottleneck Resources, warnings and sections."""
        self.compiled.detail = detail
        return run(self.compiled, self.scenario, reuse=True)


def evaluate_bands(engine: Engine, nominal: Prediction | None = None) -> Bands:
    """Uncertainty bands of ``engine``'s current design: two more full evaluations, with every
    banded coefficient (:mod:`models.core.uncertainty`) at its cheaper and at its costlier end.
    ``nominal`` is the engine's latest prediction (evaluated when not given).  The engine's
    memo and warm starts are left as they were, so its next evaluation is unchanged."""
    p = nominal if nominal is not None else engine.evaluate()
    c = engine.compiled
    with c.isolated():
        with uncertainty.case("low") as used_low:
            low = run(c, engine.scenario)
        with uncertainty.case("high") as used_high:
            high = run(c, engine.scenario)
    return uncertainty.combine(p, low, high, used_low | used_high)


def evaluate(design: Design, scenario: str | None = None) -> Prediction:
    """Evaluate ``design`` (optionally under a named scenario)."""
    return Engine(design, scenario).evaluate()


@dataclass
class _Static:
    """Per-design lists that knob patches never change (computed once per compile)."""

    vm_names: list[str]
    vm_host: list[str | None]
    host_names: list[str]
    host_vms: np.ndarray
    nic_host: list[str | None]
    array_names: list[str]


def _static(c: Compiled) -> _Static:
    cached = c.cache.get("engine.static")
    if isinstance(cached, _Static):
        return cached
    host_ids = c.host.ids
    st = _Static(
        vm_names=c.names_of("vm"),
        vm_host=[host_ids[h] if h >= 0 else None for h in c.vm_host.tolist()],
        host_names=c.names_of("host"),
        host_vms=np.bincount(c.vm_host[c.vm_host >= 0], minlength=len(host_ids)),
        nic_host=[host_ids[h] if h >= 0 else None for h in c.nic_host.tolist()],
        array_names=c.names_of("storage_array"))
    c.cache["engine.static"] = st
    return st


def run(c: Compiled, scenario: str = "base", reuse: bool = False) -> Prediction:
    """Evaluate compiled arrays.  With ``reuse`` (the :class:`Engine`, whose every write is a
    patch) a model whose inputs did not change returns its last result; without it (callers
    that write arrays directly, such as the analyses) everything is recomputed.  Under
    overridden coefficients (a fit trying values) nothing is reused and nothing is kept."""
    if coefficients.overridden():
        with c.isolated():
            c.reuse = False
            p = _run(c, scenario)
    else:
        p = _run(c, scenario, reuse)
    seen = _WATCH.get()
    if seen is not None and p.resources:
        seen.last = (p, c.names)
    return p


@dataclass
class Watch:
    """The last prediction with its resources made while :func:`watching` is open in this
    thread (and the names of its design's components)."""

    last: tuple[Prediction, dict[str, str]] | None = None

    def busiest(self) -> tuple[str, float] | None:
        """The busiest resource a run's work passes through in that prediction, in words
        ("the storage array a1") with its utilisation; None without one.  A host's memory is
        room, not a rate: however full, it slows no figure, so it is not among them."""
        if self.last is None:
            return None
        p, names = self.last
        rates = [r for r in p.resources if r.resource not in ROOM and np.isfinite(r.util)]
        if not rates:
            return None
        r = max(rates, key=lambda x: x.util)
        return resource_words(r.resource).phrase.format(names.get(r.component, r.component)), \
            float(r.util)


ROOM = frozenset({"host_memory"})
"""Resources that hold rather than serve (:meth:`Watch.busiest` leaves them out)."""

_WATCH: ContextVar[Watch | None] = ContextVar("evaluation_watch", default=None)


def current_watch() -> Watch | None:
    """The watch open in this thread (:func:`watching`), if any."""
    return _WATCH.get()


@contextmanager
def watching() -> Iterator[Watch]:
    """Keep the last prediction this thread makes while open (the calibration checks name
    the resource each published figure's run saturates)."""
    watch = Watch()
    token = _WATCH.set(watch)
    try:
        yield watch
    finally:
        _WATCH.reset(token)


def _run(c: Compiled, scenario: str = "base", reuse: bool = False) -> Prediction:
    c.reuse = reuse and uncertainty.current() == "nominal"  # memo holds nominal results
    step = c.memo
    st = step("stretched", lambda: stretched.solve(c))
    delay = step("ft.io_delay", lambda: ft.io_delay_ms(c))
    write_delay = step("write_delay", lambda: st.vm_write_delay_ms + delay, st, delay)
    sto = step("storage", lambda: storage.solve(c, write_delay), write_delay)
    app_net = sto.app_net_mbps  # None without application VMs: network is then reused
    net0 = step("network", lambda: network.solve(c, app_net, delay), app_net, delay)

    def _ft() -> tuple[FtResult, NetworkResult]:
        # ft.solve scales the NIC load and labels of stalled VMs in place: it gets a copy, so
        # that a reused network result stays as the network model left it
        net = replace(net0, nic_gbps=net0.nic_gbps.copy(), nic_util=net0.nic_util.copy(),
                      vm_bound_by=list(net0.vm_bound_by))
        return ft.solve(c, sto, net), net

    fto, net = step("ft", _ft, sto, net0)
    con = step("consolidation", lambda: consolidation.solve(c, sto, net, fto), sto, net0, fto)
    cap = step("capacity", lambda: capacity.solve(c, con), con)
    desk = step("vdi", lambda: vdi.solve(c, net0.vm_tx_mbps), net0)
    lib = step("content_library", lambda: content_library.solve(c))

    ratio = fto.vm_throughput_ratio
    iops = sto.vm_iops * ratio
    mbps = sto.vm_mbps * ratio
    unmeasured = sto.vm_not_measured  # storage figures of VMs without measured I/O: NaN
    storage_lat, storage_p95 = sto.vm_latency_ms, sto.vm_p95_ms
    cpio = sto.vm_cpu_cost_per_kiops
    if unmeasured.any():
        iops, mbps = np.where(unmeasured, np.nan, iops), np.where(unmeasured, np.nan, mbps)
        storage_lat = np.where(unmeasured, np.nan, storage_lat)
        storage_p95 = np.where(unmeasured, np.nan, storage_p95)
        cpio = np.where(unmeasured, np.nan, cpio)
    net_gbps = (net.vm_rx_mbps + net.vm_tx_mbps) * ratio / 1000.0
    # Storage latency already carries FT's output-commit delay on writes (ft.io_delay_ms);
    # a request-driven VM's response pays it once more on the transmit of its reply.
    web = ~np.isnan(con.vm_response_ms)
    ft_add = np.where(c.vm.cols["ft"], fto.vm_latency_add_ms, 0.0)
    latency = np.where(web, con.vm_response_ms + ft_add, storage_lat)
    p95 = np.where(web, con.vm_response_p95_ms + ft_add, storage_p95)
    bound = Labels(lambda: [s or n or "" for s, n in zip(sto.vm_bound_by, net.vm_bound_by,
                                                           strict=True)])

    st_ = _static(c)
    host_ids = c.host.ids
    vms = VmArrays(
        ids=c.vm.ids, names=st_.vm_names, host=st_.vm_host, iops=iops,
        storage_mbps=mbps, latency_ms=latency, p95_latency_ms=np.maximum(p95, latency),
        net_gbps=net_gbps, cpu_util=con.vm_cpu_util,
        cpu_cost_per_kiops=cpio, ft=c.vm.cols["ft"].copy(),
        ft_logging_mbps=fto.vm_logging_mbps, ft_latency_add_ms=fto.vm_latency_add_ms,
        ft_throughput_ratio=ratio, bound_by=bound, request_driven=web,
        rx_pps=net.vm_rx_pps * ratio, tx_pps=net.vm_tx_pps * ratio,
        txn_per_s=(sto.vm_txn_per_s * ratio if sto.vm_txn_per_s is not None
                   else np.full(len(ratio), np.nan)),
        txn_response_ms=(sto.vm_txn_response_ms if sto.vm_txn_response_ms is not None
                         else np.full(len(ratio), np.nan)),
        max_users=(sto.vm_max_users if sto.vm_max_users is not None
                   else np.full(len(ratio), np.nan)),
        cpu_cores=con.vm_cpu_cores, io_not_measured=unmeasured,
        saturated=web & con.vm_saturated if len(con.vm_saturated) else np.zeros(len(web), bool))
    hosts = HostArrays(
        ids=host_ids, names=st_.host_names, cpu_util=con.host_cpu_util,
        memory_util=con.host_memory_util, vms=st_.host_vms, dense_mode_active=con.host_dense_active,
        ft_logging_mbps=fto.host_logging_mbps, background_iops=sto.host_background_iops)
    nics = NicArrays(ids=c.nic.ids, host=st_.nic_host, util=net.nic_util + fto.nic_util,
                     gbps=net.nic_gbps + fto.nic_gbps)
    arr_iops, arr_lat = sto.array_iops, sto.array_latency_ms
    arr_unmeasured = np.zeros(len(c.array), bool)
    if unmeasured.any() and len(c.array):  # arrays whose every VM lacks I/O data
        on = c.vm_array >= 0
        vms_on = np.bincount(c.vm_array[on], minlength=len(c.array))
        blind = np.bincount(c.vm_array[on & unmeasured], minlength=len(c.array))
        arr_unmeasured = (vms_on > 0) & (blind == vms_on)
        if sto.host_background_iops.any():  # a host's background I/O there is measured
            vm_x = np.bincount(c.vm_array[on], np.nan_to_num(sto.vm_iops[on]),
                               minlength=len(c.array))
            arr_unmeasured &= sto.array_iops <= vm_x + 1e-9
        arr_iops = np.where(arr_unmeasured, np.nan, arr_iops)
        arr_lat = np.where(arr_unmeasured, np.nan, arr_lat)
    arrays = ArrayArrays(ids=c.array.ids, names=st_.array_names, iops=arr_iops,
                         latency_ms=arr_lat, util=sto.array_util,
                         io_not_measured=arr_unmeasured)
    parts = (st, sto, net, fto, con, desk, lib)
    capacity_section = step("vsan.latency", lambda: vsan_io.with_latency(c, cap.capacity, sto),
                            cap, sto)
    sections = Sections(
        stretched=Stretched(st.witness_required_mbps, sto.wan_required_mbps)
        if st.witness_required_mbps or sto.wan_required_mbps else None,
        storage_mva_iterations=sto.mva_iterations, network=net.detail,
        multicast=net.multicast, ft=fto.detail, cpu_virtualization=con.cpu_virtualization,
        consolidation=con.detail, vdi=desk.vdi, content_library=lib.jobs,
        capacity=capacity_section)
    return Prediction(
        design=c.design.name, scenario=scenario, vms=vms, hosts=hosts, nics=nics,
        arrays=arrays, consolidation=cap.consolidation,
        resources=[r for p in parts for r in p.resources],
        warnings=[w for p in parts for w in p.warnings] + cap.warnings, sections=sections)
