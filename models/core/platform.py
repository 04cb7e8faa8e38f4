"""A host's compute: how many cores it has, what they are worth, and how fast each one is.

Every subsystem that turns work into host CPU reads these columns, computed once per compile
(and again only when a knob moves a column they read):

* ``cores``: physical cores, ``sockets x cores_per_socket``;
* ``speed``: what one thread, alone on a core, does per second relative to the *reference
  core* (1.0): a core of the Xeon E5-2665 at 2.4 GHz (2012; the VAIO study's processor).
  A host's processor sets it (``cpu_model`` matched to the processor catalogue, or
  ``specrate_per_core`` where the catalogue lacks it): SPECrate2017_int_base per core over the
  reference's, scaled by the host's clock over the processor's base clock (a clock what-if).
  A processor the catalogue does not know counts as its family's stand-in
  (:mod:`models.document.catalogue.families`: "AMD Ryzen 7 PRO 5850U" as the Zen 3 EPYC that
  stands for Milan), scaled the same way; one no family knows falls back to its clock:
  ``ghz / 2.4``, a core of the reference's generation at that clock.  The prediction says
  which;
* ``capacity``: the host's own core-equivalents: cores, times :data:`HT_THROUGHPUT` with
  hyperthreading on.

Work per event (per I/O, packet, byte, request, ...) is written once, in microseconds of the
reference core; on a host it takes that time over ``speed``, in the host's own cores, which its
capacity holds.

SPECrate already includes SMT: nearly all rate results ran two threads per core, so a per-core
figure is what a core does with hyperthreading on.  A host with hyperthreading off delivers
that figure over :data:`HT_THROUGHPUT` (the rule, measured on SPEC's results of the same
processors with hyperthreading on and off).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import numpy as np

from models.core.compiled import Compiled
from models.document import numbers
from models.document.catalogue import families, processors
from models.document.catalogue.families import StandIn
from models.document.design import Component, Design

REF_GHZ = 2.4
"""The reference core's clock: a processor the catalogue does not know runs at ``ghz / REF_GHZ``
of it."""

REFERENCE_PROCESSOR = "Intel Xeon E5-2665"
"""The reference core (speed 1.0): the VAIO study's Dell R720 processor, 8 cores at 2.4 GHz."""

HT_THROUGHPUT = 1.22
"""A core's throughput with its second hardware thread busy over one thread alone: the median
over the 13 processors SPEC has CPU2017 integer rate results of with both one and two threads
per core (1.13-1.26: Platinum 8176 1.13, Gold 6148 1.18, Gold 5120 1.23, Silver 4116 1.23,
Platinum 8568Y+ 1.26, EPYC 7702P 1.16; a second group near 2.0, whose one-thread results count
threads as cores, is left out).  VMware's own rule of thumb, "slightly more than half the
throughput" per thread of a busy core (vSphere Resource Management Guide, Hyperthreading),
says 1.15."""


@cache
def reference_specrate() -> float:
    """SPECrate2017_int_base per core of the reference core (the catalogue's figure)."""
    ref = processors.find(REFERENCE_PROCESSOR)
    if ref is None:
        raise LookupError(f"{REFERENCE_PROCESSOR} is missing from the processor catalogue")
    return ref.specrate_per_core


@dataclass(frozen=True)
class Compute:
    """Per-host compute columns (indexed like ``c.host``)."""

    cores: np.ndarray
    """Physical cores."""
    capacity: np.ndarray
    """The host's core-equivalents (its cores, hyperthreads counted)."""
    speed: np.ndarray
    """Per-thread speed relative to the reference core."""
    known: np.ndarray
    """bool: the speed comes from the host's processor, or its family's stand-in (else from
    its clock alone)."""
    unknown_models: tuple[str, ...] = ()
    """Processor strings neither the catalogue nor a family knows (their hosts fall back to
    the clock)."""
    stand_ins: tuple[tuple[str, StandIn], ...] = ()
    """Processor strings the catalogue lacks, each with the family stand-in it counts as."""

    @property
    def clock_ghz(self) -> np.ndarray:
        """The clock a reference core would need to match a core of the host: where a cost
        is counted in cycles (ciphers), cycles over this is time."""
        return self.speed * REF_GHZ


def compute(c: Compiled) -> Compute:
    """The hosts' compute columns (memoised: recomputed only when a column they read is
    patched)."""
    return c.memo("platform.compute", lambda: _compute(c))


@cache
def counted_as(model: str) -> tuple[processors.Processor, StandIn | None] | None:
    """The catalogue processor a processor string counts as: its own entry (and None), else
    its family's stand-in (and the :class:`~models.document.catalogue.families.StandIn`);
    None when neither knows it."""
    if not model.strip():
        return None
    proc = processors.match(model)
    if proc is not None:
        return proc, None
    found = families.stand_in(model)
    return None if found is None else (found.processor, found)


@cache
def _per_core(model: str) -> tuple[float, float] | None:
    """(SPECrate per core, base GHz) of a processor string, or of its family's stand-in;
    None when neither is known."""
    found = counted_as(model)
    if found is None:
        return None
    return found[0].specrate_per_core, float(found[0].ghz or 0.0)


def processor_speed(model: str) -> float:
    """Per-core speed of processor ``model`` at its base clock, relative to the reference core
    (a catalogue's processor; LookupError when the catalogue lacks it: no family stand-in
    here, where no clock scales it)."""
    proc = processors.match(model) if model.strip() else None
    if proc is None:
        raise LookupError(f"{model} is missing from the processor catalogue")
    return proc.specrate_per_core / reference_specrate()


def stand_in_words(found: StandIn) -> str:
    """How a stand-in reads: "counted as its family's AMD EPYC 73F3 (Zen 3, EPYC 7003 Milan;
    SPECrate2017_int_base 10.6 per core at 3.5 GHz)"; the caller says the clock it scales
    to."""
    proc = found.processor
    base = f" at {numbers.with_unit(proc.ghz, 'GHz')}" if proc.ghz else ""
    return (f"counted as its family's {proc.model} ({found.family.name};"
            f" SPECrate2017_int_base {numbers.number(proc.specrate_per_core)} per core{base})")


def host_speed(ghz: float, specrate_per_core: float, cpu_model: str) -> float | None:
    """One host's per-core speed from its processor (``specrate_per_core`` where stated - NaN
    where not -, else ``cpu_model`` matched to the catalogue, else its family's stand-in:
    :func:`counted_as`), scaled by ``ghz`` over the processor's base clock; None when none
    says it (the host then runs at ``ghz / REF_GHZ``)."""
    if not np.isnan(specrate_per_core):  # stated for this host, at its own clock
        return specrate_per_core / reference_specrate()
    found = _per_core(cpu_model)
    if found is None:
        return None
    spc, base = found
    return spc / reference_specrate() * (ghz / base if base > 0 else 1.0)


def processor_text(props: Mapping[str, Any]) -> str:
    """What a host's processor is worth per core and where the figure comes from, in words
    (the Inspector and the host's tooltip): its catalogue entry, a per-core figure stated on
    the host, its family's stand-in, or its clock alone."""
    ghz = float(props.get("ghz") or REF_GHZ)
    given = props.get("specrate_per_core")
    model = str(props.get("cpu_model") or "").strip()
    ref = reference_specrate()
    if isinstance(given, (int, float)) and not math.isnan(float(given)):
        return (f"{numbers.number(float(given) / ref)} x the reference core per core:"
                f" SPECrate2017_int_base {numbers.number(float(given))} per core, stated on the"
                " host")
    found = counted_as(model)
    if found is None:
        what = f"{model}: not in the processor catalogue" if model else "no processor given"
        return (f"{numbers.number(ghz / REF_GHZ)} x the reference core per core: {what}, so"
                f" from its {numbers.with_unit(ghz, 'GHz')} clock alone")
    proc, stood = found
    speed = proc.specrate_per_core / ref * (ghz / proc.ghz if proc.ghz else 1.0)
    if stood is not None:
        return (f"{numbers.number(speed)} x the reference core per core: {model}: not in the"
                f" catalogue; {stand_in_words(stood)}, scaled to its"
                f" {numbers.with_unit(ghz, 'GHz')} clock")
    source = (f"estimated from {numbers.counted(proc.submissions, 'CPU2006 result')}"
              if proc.estimate else
              f"median of {numbers.counted(proc.submissions, 'SPEC CPU2017 result')}")
    clock = ("" if not proc.ghz or abs(ghz - proc.ghz) < 1e-9 else
             f", at {numbers.with_unit(ghz, 'GHz')} against its base"
             f" {numbers.with_unit(proc.ghz, 'GHz')}")
    return (f"{numbers.number(speed)} x the reference core per core: {proc.model},"
            f" SPECrate2017_int_base {numbers.number(proc.specrate_per_core)} per core"
            f" ({source}){clock}")


def _compute(c: Compiled) -> Compute:
    host = c.host.cols
    n = len(c.host)
    cores = (host["sockets"] * host["cores_per_socket"]).astype(np.float64)
    ghz = host["ghz"].astype(np.float64)
    speed = ghz / REF_GHZ
    known = np.zeros(n, bool)
    unknown: list[str] = []
    stood: dict[str, StandIn] = {}
    given = host["specrate_per_core"]
    models = host["cpu_model"]
    for j in range(n):
        text = str(models[j] or "")
        found = host_speed(float(ghz[j]), float(given[j]), text)
        if found is None:
            if text.strip() and text not in unknown:
                unknown.append(text)
            continue
        speed[j], known[j] = found, True
        counted = counted_as(text) if np.isnan(given[j]) else None
        if counted is not None and counted[1] is not None:
            stood.setdefault(text, counted[1])
    capacity = cores * np.where(host["hyperthreading"], HT_THROUGHPUT, 1.0)
    return Compute(cores=cores, capacity=capacity, speed=speed, known=known,
                   unknown_models=tuple(unknown), stand_ins=tuple(stood.items()))


def pin_work(design: Design) -> Design:
    """``design`` with every placed VM's CPU share pinned to the processor it was entered on:
    a VM without ``workload.cpu_ghz`` (its share "of its vCPUs on its host") gets its host's
    per-core speed as that clock (x :data:`REF_GHZ`), so it reads as before there and, moved
    or with its host's processor changed (a knob, a refresh), takes SPEC's per-core ratio
    more or fewer cores.  Web VMs (demand from requests in reference-core time) and VMs that
    pin already are left as they are; the input is never changed (the VMs pinned are
    copies)."""
    hosts = {h.id: h for h in design.components if h.kind == "host"}
    runs = {lk.source: lk.target for lk in design.links if lk.kind == "runs_on"}
    out = []
    changed = False
    for comp in design.components:
        h = hosts.get(runs.get(comp.id, "")) if comp.kind == "vm" else None
        if h is None or comp.props.get("workload.cpu_ghz") is not None \
                or comp.get("workload.profile") == "web":
            out.append(comp)
            continue
        given = h.get("specrate_per_core")
        ghz = float(h.get("ghz") or REF_GHZ)
        speed = host_speed(ghz, float(given) if isinstance(given, (int, float)) else math.nan,
                           str(h.get("cpu_model") or ""))
        clock = (speed if speed is not None else ghz / REF_GHZ) * REF_GHZ
        clock = min(max(clock, 0.1), 10.0)  # the property's range
        out.append(Component(comp.id, comp.kind, comp.name, comp.x, comp.y, list(comp.tags),
                             {**comp.props, "workload.cpu_ghz": round(clock, 6)}))
        changed = True
    return replace(design, components=out) if changed else design


def speed_of(c: Compiled, host: np.ndarray) -> np.ndarray:
    """Per-core speed of the hosts ``host`` (indices, -1 for none: the reference core)."""
    speed = compute(c).speed
    if not len(speed):
        return np.ones(len(host))
    return np.where(host >= 0, speed[np.maximum(host, 0)], 1.0)
