"""The rules hypervisor licences are counted by (``resources/licensing.json``): data with their
sources and dates, so that they can be changed when the vendor changes them.

VMware by Broadcom's per-core subscription (2024): every physical core of every CPU of every
ESXi host licensed counts, hyperthreads do not, and each CPU counts at least
:attr:`Rules.min_cores_per_cpu` cores (16).  The 72-core minimum per order announced for
April 2025 is disputed (reported as introduced, and as walked back): it is in the rules, off
unless the design's ``policy.licence_order_minimum`` turns it on.  An edition names the
subscription a price per core is for; the count is the same for each.

Read once, when first asked.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from models.document.resources import RESOURCES

PATH = RESOURCES / "licensing.json"


@dataclass(frozen=True)
class Source:
    id: str
    title: str
    url: str
    says: str


@dataclass(frozen=True)
class Edition:
    id: str
    name: str
    short: str
    min_cores_per_cpu: int | None
    """The edition's own minimum per CPU where it differs from the rules' (None: the same)."""
    sources: tuple[str, ...]
    vsan_tib_per_core: float = 0.0
    """vSAN raw capacity each licensed core entitles (TiB); beyond it the per-TiB add-on."""


@dataclass(frozen=True)
class OrderMinimum:
    cores: int
    default: bool
    announced: str
    status: str
    text: str
    sources: tuple[str, ...]


@dataclass(frozen=True)
class Rules:
    vendor: str
    model: str
    since: str
    checked: str
    """When the rules were last checked against their sources (year-month)."""
    metric: str
    min_cores_per_cpu: int
    min_text: str
    rule_sources: tuple[str, ...]
    order_minimum: OrderMinimum
    editions: tuple[Edition, ...]
    sources: dict[str, Source]

    def edition(self, key: str) -> Edition:
        """The edition of an id ("vcf"); the first for one the rules do not know."""
        return next((e for e in self.editions if e.id == key), self.editions[0])

    def per_cpu(self, edition: str) -> int:
        """The cores each CPU counts at least under ``edition``."""
        own = self.edition(edition).min_cores_per_cpu
        return self.min_cores_per_cpu if own is None else own

    @property
    def summary(self) -> str:
        """The rules in one line, with their date: ``VMware by Broadcom per-core
        subscription (2024): physical cores, at least 16 per CPU``."""
        return (f"{self.vendor} {self.model} ({self.since}): physical cores, at least"
                f" {self.min_cores_per_cpu} per CPU")

    def cited(self, ids: tuple[str, ...] | None = None) -> list[Source]:
        """The sources of the rule (or of ``ids``), in order."""
        return [self.sources[i] for i in (ids if ids is not None else self.rule_sources)
                if i in self.sources]


def parse(doc: dict[str, Any]) -> Rules:
    """Rules from a decoded ``headroom-licensing`` document."""
    if doc.get("format") != "headroom-licensing":
        raise ValueError("not a headroom-licensing document")
    o = doc["order_minimum"]
    sources = {k: Source(k, v["title"], v["url"], v.get("says", ""))
               for k, v in doc["sources"].items()}
    editions = tuple(Edition(e["id"], e["name"], e.get("short", e["name"]),
                             e.get("min_cores_per_cpu"), tuple(e.get("sources", ())),
                             float(e.get("vsan_tib_per_core", 0.0)))
                     for e in doc["editions"])
    if not editions:
        raise ValueError("the licensing rules name no edition")
    missing = [s for e in editions for s in e.sources if s not in sources] + \
        [s for s in (*doc["sources_of_rule"], *o["sources"]) if s not in sources]
    if missing:
        raise ValueError(f"licensing rules cite unknown sources: {', '.join(missing)}")
    return Rules(
        vendor=doc["vendor"], model=doc["model"], since=str(doc["since"]),
        checked=str(doc["checked"]), metric=doc["metric"],
        min_cores_per_cpu=int(doc["min_cores_per_cpu"]),
        min_text=doc.get("min_cores_per_cpu_text", ""),
        rule_sources=tuple(doc["sources_of_rule"]),
        order_minimum=OrderMinimum(int(o["cores"]), bool(o["default"]), str(o["announced"]),
                                   str(o["status"]), o["text"], tuple(o["sources"])),
        editions=editions, sources=sources)


@cache
def rules() -> Rules:
    """The bundled rules, read once."""
    return parse(json.loads(PATH.read_text(encoding="utf-8")))


def edition_ids() -> tuple[str, ...]:
    """The editions' ids, in the rules' order (the choices of ``policy.licence_edition``)."""
    return tuple(e.id for e in rules().editions)


def licensed_cores(sockets: np.ndarray, cores_per_socket: np.ndarray,
                   per_cpu: int | None = None) -> np.ndarray:
    """Licensed cores of each host: its physical cores, each CPU counted at least ``per_cpu``
    cores (the rules' minimum by default).

    >>> licensed_cores(np.array([2, 2]), np.array([8, 24])).tolist()  # Broadcom's example
    [32.0, 48.0]
    """
    floor = rules().min_cores_per_cpu if per_cpu is None else per_cpu
    return (np.asarray(sockets, np.float64)
            * np.maximum(np.asarray(cores_per_socket, np.float64), float(floor)))


def with_order_minimum(cores: float, on: bool) -> float:
    """A total of licensed cores raised to the minimum per order where that rule is ``on``
    (an order of nothing stays nothing)."""
    if not on or cores <= 0 or not math.isfinite(cores):
        return cores
    return max(cores, float(rules().order_minimum.cores))
