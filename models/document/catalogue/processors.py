"""The processor catalogue: per-core performance of each Xeon, EPYC and Opteron model from
SPEC's published results (``resources/catalogue/processors.json``, written by
:mod:`models.document.catalogue.build`).

:func:`match` finds the processor a host's CPU string names ("Intel(R) Xeon(R) Gold 6140 CPU @
2.30GHz", as vCenter, RVTools and Live Optics print it); :func:`processors` lists them all and
:func:`search` those whose name contains a text.  The table is read once, when first asked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from models.document.catalogue.names import key
from models.document.resources import RESOURCES

PATH = RESOURCES / "catalogue" / "processors.json"


@dataclass(frozen=True)
class Processor:
    """One processor model and what SPEC's results say of it."""

    model: str
    """Canonical name: "Intel Xeon Gold 6140", "AMD EPYC 9354", "Intel Xeon E5-2650 v4"."""
    vendor: str
    """"Intel" or "AMD"."""
    specrate_per_core: float
    """SPECrate2017_int_base per core: the median over submissions of base result / system
    cores (SMT on in nearly all of them, so it includes SMT's gain).  Where :attr:`estimate`,
    the CPU2006 figure times the bridge."""
    p10: float
    """10th percentile over the submissions (same units)."""
    p90: float
    """90th percentile over the submissions."""
    submissions: int
    """How many results the figure is the median of."""
    estimate: bool
    """True when bridged from CPU2006 (a processor older than CPU2017): not a SPEC result."""
    source: str
    """How the figure was obtained, in words."""
    cores: int | None
    """Cores per socket."""
    threads_per_core: int | None
    """Hardware threads per core as the submissions ran it; None where unknown (the peak-only
    CPU2006 file has no such column)."""
    ghz: float | None
    """Base clock."""
    year: int | None
    """First hardware availability."""
    cpu2006_per_core: float | None = None
    """SPECint_rate_base2006 per core, for a bridged processor."""
    cpu2017_direct: float | None = None
    """The median of a bridged processor's few CPU2017 results, for comparison."""
    cpu2017_submissions: int | None = None

    @property
    def socket_specrate(self) -> float | None:
        """SPECrate2017_int_base of one socket (per core times cores)."""
        return None if self.cores is None else self.specrate_per_core * self.cores

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass(frozen=True)
class Bridge:
    """The CPU2006-to-CPU2017 ratio per core, and how widely it varied where measured."""

    factor: float
    p10: float
    p90: float
    low: float
    high: float
    measured_on: tuple[str, ...]
    """The processors (Xeon Scalable gen 1) it was measured on."""


@dataclass(frozen=True)
class Catalogue:
    """The processor table and what it rests on."""

    processors: tuple[Processor, ...]
    attribution: str
    """SPEC's trademark and date line: shown wherever figures from the table are."""
    bridge: Bridge
    provenance: dict[str, Any]


@cache
def catalogue() -> Catalogue:
    """The table, read once."""
    doc = json.loads(PATH.read_text(encoding="utf-8"))
    b = doc["provenance"]["bridge"]
    bridge = Bridge(factor=b["factor"], p10=b["p10"], p90=b["p90"], low=b["min"],
                    high=b["max"], measured_on=tuple(p["model"] for p in b["processors"]))
    return Catalogue(processors=tuple(Processor(**p) for p in doc["processors"]),
                     attribution=doc["attribution"], bridge=bridge,
                     provenance=doc["provenance"])


@cache
def _index() -> dict[tuple[str, str], Processor]:
    """Processors by :func:`~models.document.catalogue.names.key`."""
    out = {}
    for p in processors():
        k = key(p.model)
        assert k is not None, p.model
        out[k] = p
    return out


@cache
def _by_number() -> dict[tuple[str, str], list[Processor]]:
    """Processors by family and model without the brand word ("6140" for "Gold 6140")."""
    out: dict[tuple[str, str], list[Processor]] = {}
    for (family, model), p in _index().items():
        out.setdefault((family, _unbranded(model)), []).append(p)
    return out


def _unbranded(model: str) -> str:
    words = model.split()
    return " ".join(words[1:]) if len(words) > 1 and not any(c.isdigit() for c in words[0]) \
        else model


def processors() -> tuple[Processor, ...]:
    """Every processor, by vendor and model."""
    return catalogue().processors


def match(text: str) -> Processor | None:
    """The processor a CPU string names, or None when the catalogue does not know it.

    Matches by model number with its letters and version: "Intel(R) Xeon(R) CPU E5-2650 v4 @
    2.20GHz" is the E5-2650 v4, not the E5-2650; "Gold 6140M" is not "Gold 6140".  A string
    without the brand word ("Xeon 6140") matches when one processor has that number.

    >>> match("Intel(R) Xeon(R) Gold 6140 CPU @ 2.30GHz").model
    'Intel Xeon Gold 6140'
    """
    k = key(text)
    if k is None:
        return None
    found = _index().get(k)
    if found is not None:
        return found
    if k[1] != _unbranded(k[1]):  # a brand word the catalogue does not have with this number
        return None
    candidates = _by_number().get(k, [])
    return candidates[0] if len(candidates) == 1 else None


def search(text: str = "") -> list[Processor]:
    """The processors whose name contains every word of ``text`` (any case); all for ""."""
    words = text.lower().split()
    return [p for p in processors() if all(w in p.model.lower() for w in words)]


def find(model: str) -> Processor | None:
    """The processor of a canonical name (or any string :func:`match` knows)."""
    return match(model)
