"""Uncertainty bands: coefficients the studies give as a range, carried through the engine.

Where a study states a range ("VAIO introduces 10%-20% higher CPU overhead per 1K IOPS") or a
figure read off a chart ("about 470 VMs"), the model's coefficient is a :class:`Band`: the
value the model uses (``nominal``, usually the middle of the range) and the ends of the range
(``low`` <= ``high``), beside the case id and quote it comes from.

A :data:`ContextVar` selects the *case* every banded coefficient takes while a model runs:

* ``"nominal"`` (the default): every coefficient at its nominal value; what the engine always
  computes.
* ``"low"``: every coefficient at its *cheaper* end (less CPU, bandwidth or time);
* ``"high"``: every coefficient at its *costlier* end.

:attr:`Band.costlier` says which end of a range costs more (``"low"`` for a saving such as
dense mode's), so the two runs are the optimistic and pessimistic corners of all bands at once.
:func:`models.engine.evaluation.evaluate_bands` runs them and returns, per output, the elementwise
[min, max] over the three runs (:class:`Bands`).  A ContextVar is per thread (and per asyncio
task), so a band run in one thread never changes what another thread's evaluation sees.

How a model adds a band
-----------------------
1. Add a :class:`Band` to :data:`BANDS` below with its case id, study and quote (the citation
   lives here, not beside a module constant).
2. In the model, read the coefficient at solve time with ``uncertainty.value("name", mask)``
   where ``mask`` says which components it applies to (``any()`` of it decides whether the
   band is listed among the sources of a result; a helper that does not know the components
   passes ``False`` and its caller calls ``uncertainty.note("name", mask)``); keep a module
   constant, if other code names it, as ``NAME = uncertainty.nominal("name")``.
3. Nothing else: the engine's band evaluation recomputes every model (``reuse=False``) under
   ``low`` and ``high``, so memoised results never mix cases.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from models.core import coefficients
from models.document.studies import DENSE, FT4, MCAST, PCOIP, PVSCSI, VAIO

if TYPE_CHECKING:
    from models.core.prediction import Prediction

Case = Literal["nominal", "low", "high"]
CASES: tuple[Case, ...] = ("nominal", "low", "high")


@dataclass(frozen=True)
class Band:
    """A coefficient published as a range."""

    name: str
    nominal: float
    """The middle of the published range; a band that names a fitted coefficient takes the
    fitted value instead (:attr:`fitted`)."""
    low: float
    high: float
    unit: str
    case_id: str
    source: str
    """The study's title."""
    quote: str
    costlier: Literal["low", "high"] = "high"
    """The end of the range that costs more CPU, bandwidth or time."""

    @property
    def fitted(self) -> float:
        """The nominal value in effect: the fitted table's when the band names a fitted
        coefficient (:mod:`models.core.coefficients`), else :attr:`nominal`."""
        if self.name in coefficients.DECLARED:
            return coefficients.value(self.name)
        return self.nominal

    def at(self, case: Case) -> float:
        """The coefficient's value in ``case``."""
        if case == "nominal":
            return self.fitted
        cheap, dear = (self.low, self.high) if self.costlier == "high" else (self.high, self.low)
        return dear if case == "high" else cheap

    def label(self) -> str:
        """One line for tooltips: the range and where it comes from."""
        return (f"{self.name} {_g(self.low)}-{_g(self.high)} {self.unit} (nominal "
                f"{_g(self.fitted)}): {self.source} ({self.case_id})")

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "nominal": self.fitted, "low": self.low,
                "high": self.high, "unit": self.unit, "case_id": self.case_id,
                "source": self.source, "quote": self.quote}


def _g(x: float) -> str:
    return f"{x:.3g}"


BANDS: dict[str, Band] = {b.name: b for b in (
    Band("storage.vaio_cpu_extra", 0.15, 0.10, 0.20, "x CPU per I/O",
         "storage-vaio-cpu-per-kiops-overhead", VAIO.title,
         "However, VAIO introduces 10%-20% higher CPU overhead per 1K IOPS."),
    Band("storage.pvscsi_cpio_cut", 0.20, 0.10, 0.30, "share of LSI Logic SAS's CPU per I/O",
         "storage-pvscsi-cpio-reduction",
         PVSCSI.title, "For Fibre Channel, the test results show that PVSCSI reduces the CPIO by "
         "10%-30% . For iSCSI, PVSCSI reduces the CPIO by up to 25%."),
    # the mechanism as fitted logs 950 for 890 Mbit/s received; the sizing rule's 20% over
    # the input is 1.2 x 890 / 950 of that
    Band("ft.log_overhead", 1.0, 1.0, 1.2 * 890.0 / 950.0, "x the modelled logging",
         "ft4-netperf-rx-logging-bandwidth; ft4-logging-bandwidth-formula", FT4.title,
         "with FT enabled, the virtual machine received 890 Mbits/sec of traffic while "
         "generating and sending 950 Mbits/ sec of logging traffic (the sizing rule adds 20%)"),
    # 10% of a vCPU per 10K packets/s is 10 us a packet, 15% is 15 us (at the study's 2.67 GHz)
    Band("multicast.guest_us_per_pkt", 12.5, 10.0, 15.0, "us per packet at 2.67 GHz",
         "mcast-receiver-cpu-per-pps", MCAST.title,
         "Each receiver was using 10-15% of its CPU power for processing 10K packets per "
         "second, and the usage increased linearly as we increased packet rate."),
    # View 5.0's 2x text codec saves share x (1 - 1/2): '30% to 40%' is a share of 0.6 .. 0.8
    Band("vdi.text_share", 0.70, 0.60, 0.80, "share of PCoIP bytes that are text/UI",
         "vdi-pcoip-lossless-codec", PCOIP.title,
         "View 5.0's improved lossless compression algorithm delivers a 30% to 40% reduction in "
         "bandwidth consumption for typical knowledge worker workflows.", costlier="low"),
    # dense mode takes the context-switch part of a request's CPU away (465 -> 495 VMs at
    # 90% CPU); read off Figure 4 to +-5 VMs, 470 -> 490 is two thirds of that saving
    Band("consolidation.dense_saving", 1.0, 2.0 / 3.0, 1.0,
         "share of the context-switch CPU dense mode removes",
         "consol-dense-mode-medium-cpu90-consolidation; "
         "consol-dense-mode-medium-p95-consolidation", DENSE.title,
         "at 90% utilization, default mode consolidates around 465 Web server VMs, whereas "
         "dense mode consolidates about 495", costlier="low"),
)}

_case: ContextVar[Case] = ContextVar("headroom_uncertainty_case", default="nominal")
_used: ContextVar[set[str] | None] = ContextVar("headroom_uncertainty_used", default=None)


def current() -> Case:
    """The case banded coefficients take in this thread/context now."""
    return _case.get()


def nominal(name: str) -> float:
    """The nominal value of band ``name`` now (the fitted one for a fitted coefficient)."""
    return BANDS[name].fitted


def value(name: str, applies: bool | np.ndarray = True) -> float:
    """Band ``name``'s value in the current case.  ``applies`` (a bool or a mask over the
    components the coefficient is used for) records the band as a source of the result when
    any of it is true."""
    band = BANDS[name]
    used = _used.get()
    if used is not None and bool(np.any(applies)):
        used.add(name)
    return band.at(_case.get())


def note(name: str, applies: bool | np.ndarray = True) -> None:
    """Record band ``name`` as a source of the result when any of ``applies`` is true (for a
    coefficient read, with ``applies=False``, in a helper that does not know the components)."""
    used = _used.get()
    if used is not None and bool(np.any(applies)):
        used.add(BANDS[name].name)


@contextmanager
def case(which: Case) -> Iterator[set[str]]:
    """Run the block with every banded coefficient in case ``which``; yields the set of band
    names the models used meanwhile.  The previous case is restored even on an exception."""
    if which not in CASES:
        raise ValueError(f"uncertainty case {which!r}: expected one of {', '.join(CASES)}")
    used: set[str] = set()
    token, token_used = _case.set(which), _used.set(used)
    try:
        yield used
    finally:
        _used.reset(token_used)
        _case.reset(token)


# ---------------------------------------------------------------------- results
Range = tuple[float, float]

SUMMARY_KEYS: tuple[str, ...] = (
    "total_iops", "mean_latency_ms", "p95_latency_ms", "mean_response_ms", "p95_response_ms",
    "ft_logging_mbps", "ft_latency_add_ms", "consolidation.vms_per_host",
    "consolidation.max_vms_per_host_by_cpu", "consolidation.max_vms_per_host_by_p95",
    "consolidation.hosts_needed")
"""Summary outputs a band is computed for (keys as in the prediction JSON's summary)."""


@dataclass
class Bands:
    """Per-output [min, max] over the nominal, low-cost and high-cost runs."""

    summary: dict[str, Range]
    """``"summary.total_iops"`` -> (lo, hi), for every :data:`SUMMARY_KEYS` the run gives."""
    vm_iops: tuple[np.ndarray, np.ndarray]
    vm_latency_ms: tuple[np.ndarray, np.ndarray]
    vm_p95_latency_ms: tuple[np.ndarray, np.ndarray]
    vm_cpu_cost_per_kiops: tuple[np.ndarray, np.ndarray]
    host_cpu_util: tuple[np.ndarray, np.ndarray]
    vm_net_gbps: tuple[np.ndarray, np.ndarray] = (np.zeros(0), np.zeros(0))
    vm_ids: list[str] = field(default_factory=list)
    host_ids: list[str] = field(default_factory=list)
    sources: list[Band] = field(default_factory=list)
    """The bands the models used for this design (none: every band is zero-width)."""
    runs: tuple[Prediction, ...] = ()
    """The nominal, low-cost and high-cost predictions (a view's own figure of a prediction
    gets its band as the min and max over them: :meth:`span`)."""

    def span(self, f: Callable[[Prediction], float | None]) -> Range | None:
        """[min, max] of ``f`` over the three runs (None when ``f`` is None for one);
        differences within the solvers' tolerance count as none."""
        vals = [f(p) for p in self.runs]
        nums = [float(v) for v in vals if v is not None and not math.isnan(v)]
        if not nums or len(nums) < len(vals):
            return None
        nums = [nums[0] if _close(v, nums[0]) else v for v in nums]
        return min(nums), max(nums)

    def get(self, key: str) -> Range | None:
        """The band of summary output ``key`` (``"total_iops"`` or ``"summary.total_iops"``)."""
        return self.summary.get(key if key.startswith("summary.") else f"summary.{key}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"summary.<key>": [lo, hi], ..., "vms": {...}, "hosts": {...},
        "sources": [...]}``; NaN (not modelled) becomes null."""
        out: dict[str, Any] = {k: [_num(lo), _num(hi)] for k, (lo, hi) in self.summary.items()}
        out["vms"] = {vid: {"iops": _pair(self.vm_iops, i),
                            "latency_ms": _pair(self.vm_latency_ms, i),
                            "p95_latency_ms": _pair(self.vm_p95_latency_ms, i),
                            "cpu_cost_per_kiops": _pair(self.vm_cpu_cost_per_kiops, i),
                            "net_gbps": _pair(self.vm_net_gbps, i)}
                      for i, vid in enumerate(self.vm_ids)}
        out["hosts"] = {hid: {"cpu_util": _pair(self.host_cpu_util, i)}
                        for i, hid in enumerate(self.host_ids)}
        out["sources"] = [b.to_dict() for b in self.sources]
        return out


def _num(x: float) -> float | None:
    f = float(x)
    if math.isnan(f):
        return None
    if math.isinf(f) or f < 0:
        raise ValueError(f"band evaluation produced an invalid value {f!r}")
    return f


def _pair(arrs: tuple[np.ndarray, np.ndarray], i: int) -> list[float | None]:
    return [_num(arrs[0][i]), _num(arrs[1][i])]


def _flat(summary: dict[str, Any], prefix: str = "") -> dict[str, float]:
    out: dict[str, float] = {}
    for k, v in summary.items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out[f"{prefix}{k}"] = float(v)
    return out


RTOL = 1e-6
"""Relative differences below this are solver tolerance (the MVA iterates to ~1e-9), not a
band: a design that uses no banded coefficient gets zero-width bands."""


def _close(x: float, nominal: float) -> bool:
    return abs(x - nominal) <= RTOL * max(abs(nominal), 1e-9)


def _span(*arrays: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Elementwise (min, max), NaN where every run says 'not modelled'; the first array is
    the nominal run, and values within :data:`RTOL` of it count as equal to it."""
    nom = np.asarray(arrays[0], dtype=float)
    tol = RTOL * np.maximum(np.abs(nom), 1e-9)
    stack = np.stack([np.where(np.abs(np.asarray(a, dtype=float) - nom) <= tol, nom, a)
                      for a in arrays])
    nan = np.isnan(stack).all(axis=0)
    lo = np.where(nan, np.nan, np.min(np.where(np.isnan(stack), np.inf, stack), axis=0))
    hi = np.where(nan, np.nan, np.max(np.where(np.isnan(stack), -np.inf, stack), axis=0))
    return lo, hi


def combine(nominal: Prediction, low: Prediction, high: Prediction,
            used: set[str]) -> Bands:
    """The :class:`Bands` of three runs of the same design (nominal, low-cost, high-cost)."""
    runs = (nominal, low, high)
    flats = [_flat(p.summary_dict()) for p in runs]
    summary: dict[str, Range] = {}
    for key in SUMMARY_KEYS:
        vals = [f[key] for f in flats if key in f]
        if len(vals) == len(runs):
            vals = [vals[0] if _close(v, vals[0]) else v for v in vals]
            summary[f"summary.{key}"] = (min(vals), max(vals))
    return Bands(
        summary=summary,
        vm_iops=_span(*(p.vms.iops for p in runs)),
        vm_latency_ms=_span(*(p.vms.latency_ms for p in runs)),
        vm_p95_latency_ms=_span(*(p.vms.p95_latency_ms for p in runs)),
        vm_cpu_cost_per_kiops=_span(*(p.vms.cpu_cost_per_kiops for p in runs)),
        host_cpu_util=_span(*(p.hosts.cpu_util for p in runs)),
        vm_net_gbps=_span(*(p.vms.net_gbps for p in runs)),
        vm_ids=list(nominal.vms.ids), host_ids=list(nominal.hosts.ids),
        sources=[BANDS[n] for n in BANDS if n in used], runs=runs)
