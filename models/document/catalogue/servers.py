"""The server catalogue: the rack servers architects buy and run, with their processor,
memory and NIC options (``resources/catalogue/servers.json``, curated, and
``server_options.json``, which the build derives from SPEC's results).

Each :class:`Server` says where its figures come from (:attr:`Server.sources`); a figure no
document stated is None, never a guess.  Read once, when first asked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from models.document import licensing
from models.document.catalogue import processors as cat
from models.document.catalogue.processors import Processor
from models.document.numbers import with_unit
from models.document.resources import RESOURCES
from models.document.schema import Value

FOLDER = RESOURCES / "catalogue"


@dataclass(frozen=True)
class MemoryConfig:
    """A memory configuration a SPEC result ran the server with."""

    total_gb: int
    dimms: int
    dimm_gb: int
    kind: str
    """"DDR4" or "DDR5"."""
    results: int
    """How many of the server's results ran with it."""

    @property
    def text(self) -> str:
        return (f"{with_unit(self.total_gb, 'GB')} ({self.dimms} x"
                f" {with_unit(self.dimm_gb, 'GB')} {self.kind})")


@dataclass(frozen=True)
class Population:
    """A balanced DIMM population of a server: every memory channel of every socket with the
    same number of DIMMs of one size (:func:`memory_populations`)."""

    total_gb: int
    dimms: int
    """DIMMs in the server, all sockets."""
    dimm_gb: int
    kind: str
    """"DDR5" or "DDR4"."""
    source: str
    """The id of the source (:func:`sources`) the channels and module sizes rest on."""

    @property
    def text(self) -> str:
        return (f"{with_unit(self.total_gb, 'GB')} ({self.dimms} x"
                f" {with_unit(self.dimm_gb, 'GB')} {self.kind})")


@dataclass(frozen=True)
class Server:
    """One server model."""

    id: str
    vendor: str
    name: str
    generation: str
    form_factor: str
    """"1U" or "2U"."""
    sockets: int
    dimm_slots: int | None
    """None where no cited document states it."""
    max_memory_gb: int | None
    memory_type: str | None
    nic_options: tuple[str, ...]
    """NIC options a cited document names; empty where none was found."""
    processor_results: dict[str, int] = field(default_factory=dict)
    """Processor model to the number of SPEC CPU2017 results the server ran with it."""
    memory_configs: tuple[MemoryConfig, ...] = ()
    spec_sockets: int | None = None
    spec_hw_avail_from: str | None = None
    sources: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Source ids (:func:`sources`) by field: ``memory``, ``nics``."""
    notes: str = ""
    channels_per_socket: int | None = None
    """Memory channels per processor; None where no cited document states it."""
    dimms_per_channel: int | None = None
    """The most DIMMs a channel takes (1 or 2); None where no cited document states it."""
    module_gb: tuple[int, ...] = ()
    """The RDIMM sizes a cited document lists for the server, smallest first; empty where none."""

    @property
    def processor_options(self) -> tuple[Processor, ...]:
        """The processors SPEC's results ran the server with, fastest per core first."""
        found = [p for m in self.processor_results if (p := cat.find(m)) is not None]
        return tuple(sorted(found, key=lambda p: (-p.specrate_per_core, p.model)))

    @property
    def title(self) -> str:
        return f"{self.vendor} {self.name}"

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "vendor": self.vendor, "name": self.name,
                "generation": self.generation, "form_factor": self.form_factor,
                "sockets": self.sockets, "dimm_slots": self.dimm_slots,
                "max_memory_gb": self.max_memory_gb, "memory_type": self.memory_type,
                "nic_options": list(self.nic_options),
                "processors": [p.model for p in self.processor_options],
                "memory_configs": [m.text for m in self.memory_configs],
                "spec_results": sum(self.processor_results.values()),
                "spec_hw_avail_from": self.spec_hw_avail_from,
                "sources": {k: list(v) for k, v in self.sources.items()},
                "notes": self.notes,
                "channels_per_socket": self.channels_per_socket,
                "dimms_per_channel": self.dimms_per_channel,
                "module_gb": list(self.module_gb),
                "memory_populations": [m.text for m in memory_populations(self)]}


def _memory(text: str, results: int) -> MemoryConfig:
    total, rest = text.split(" GB (", 1)
    dimms, _, size, _, kind = rest.rstrip(")").split()
    return MemoryConfig(int(total), int(dimms), int(size), kind, results)


@cache
def _documents() -> tuple[dict[str, Any], dict[str, Any]]:
    curated = json.loads((FOLDER / "servers.json").read_text(encoding="utf-8"))
    derived = json.loads((FOLDER / "server_options.json").read_text(encoding="utf-8"))
    return curated, derived


@cache
def servers() -> tuple[Server, ...]:
    """Every server, in the curated order (vendor, then newest generation first)."""
    curated, derived = _documents()
    out = []
    for s in curated["servers"]:
        spec = derived["servers"].get(s["id"], {})
        out.append(Server(
            id=s["id"], vendor=s["vendor"], name=s["name"], generation=s["generation"],
            form_factor=s["form_factor"], sockets=s["sockets"],
            dimm_slots=s["memory"]["dimm_slots"], max_memory_gb=s["memory"]["max_gb"],
            memory_type=s["memory"].get("type"), nic_options=tuple(s["nics"]["options"]),
            processor_results=dict(spec.get("processors", {})),
            memory_configs=tuple(_memory(t, n) for t, n in spec.get("memory", {}).items()),
            spec_sockets=spec.get("sockets"), spec_hw_avail_from=spec.get("spec_hw_avail_from"),
            sources={"memory": tuple(s["memory"]["sources"]),
                     "nics": tuple(s["nics"]["sources"])},
            notes=s.get("notes", ""),
            channels_per_socket=s["memory"].get("channels_per_socket"),
            dimms_per_channel=s["memory"].get("dimms_per_channel"),
            module_gb=tuple(sorted(s["memory"].get("module_gb") or ()))))
    return tuple(out)


def sources() -> dict[str, dict[str, str]]:
    """The documents the curated figures cite, by id: title and address."""
    return dict(_documents()[0]["sources"])


def provenance() -> dict[str, str]:
    """What came from where, in words."""
    return dict(_documents()[0]["provenance"])


def search(text: str = "") -> list[Server]:
    """The servers whose vendor, name or generation contain every word of ``text``."""
    words = text.lower().split()
    return [s for s in servers()
            if all(w in f"{s.vendor} {s.name} {s.generation} {s.id}".lower() for w in words)]


def find(name: str) -> Server | None:
    """The server of an id ("dell-r660") or name ("PowerEdge R660", "Dell PowerEdge R660"),
    any case."""
    n = " ".join(name.lower().split())
    for s in servers():
        if n in (s.id, s.name.lower(), s.title.lower()):
            return s
    return None


# --------------------------------------------------------------------------- memory


PLATFORM = "platform"
"""A population's source where no document of the server lists its module sizes: the sizes
documented for, or run by SPEC's results on, the catalogue's servers of the same memory
platform (memory type and channels per socket)."""


def platform_sizes(server: Server) -> tuple[int, ...]:
    """The module sizes the catalogue knows for ``server``'s memory platform (its memory type
    and channels per socket): those its servers' documents list, and those of the DIMMs
    their SPEC results ran with."""
    kind = _kind(server)
    found: set[int] = set()
    for other in servers():
        if other.channels_per_socket != server.channels_per_socket or _kind(other) != kind:
            continue
        found.update(other.module_gb)
        found.update(m.dimm_gb for m in other.memory_configs)
    return tuple(sorted(found))


def _kind(server: Server) -> str:
    kinds = {m.kind for m in server.memory_configs}
    return server.memory_type or (kinds.pop() if len(kinds) == 1 else "")


def memory_populations(server: Server) -> tuple[Population, ...]:
    """The balanced populations of ``server``: every channel of every socket with one DIMM,
    or (where the server takes two per channel) two, all of one of its module sizes; the
    smallest total first (of equal totals, fewer DIMMs first), none above its maximum memory
    where a document states one.  Where no document of the server lists its module sizes,
    its platform's (:func:`platform_sizes`, source :data:`PLATFORM`).  Empty where the
    catalogue lacks its channels, or knows no size."""
    if not server.channels_per_socket:
        return ()
    own = bool(server.module_gb)
    sizes = server.module_gb if own else platform_sizes(server)
    if not sizes:
        return ()
    channels = server.channels_per_socket * server.sockets
    memory_sources = server.sources.get("memory", ())
    source = (memory_sources[0] if memory_sources else "") if own else PLATFORM
    per_channel = server.dimms_per_channel or 1
    found = {(channels * per * size, channels * per, size)
             for per in range(1, per_channel + 1)
             for size in sizes}
    limit = server.max_memory_gb
    return tuple(Population(total, dimms, size, _kind(server), source)
                 for total, dimms, size in sorted(found)
                 if limit is None or total <= limit)


# --------------------------------------------------------------------------- as a host


def default_processor(server: Server) -> Processor | None:
    """The processor a pick of ``server`` gets unless one is chosen: the fastest per core of
    those with at least the licensing rules' minimum of cores per CPU (16: a smaller one is
    licensed as 16, so its cores cost as much and do less), else the fastest per core."""
    options = server.processor_options
    floor = licensing.rules().min_cores_per_cpu
    full = [p for p in options if (p.cores or 0) >= floor]
    found = full or list(options)
    return found[0] if found else None


def default_memory_gb(server: Server) -> int | None:
    """The memory most of the server's SPEC results ran with (the larger of equals); None
    without any."""
    if not server.memory_configs:
        return None
    return max(server.memory_configs, key=lambda m: (m.results, m.total_gb)).total_gb


def processor_option(server: Server, text: str) -> Processor:
    """The processor ``text`` names among the server's options (its model, or any string
    :func:`~models.document.catalogue.processors.match` knows); ValueError naming the
    options otherwise."""
    options = server.processor_options
    found = cat.match(text)
    if found is None:  # "Gold 6548Y+", "6548Y+": the one option whose name ends so
        words = " ".join(text.lower().split())
        ends = [p for p in options if p.model.lower().endswith(words)
                and p.model.lower()[-len(words) - 1:][:1] in (" ", "")]
        found = ends[0] if len(ends) == 1 else None
    if found is None or found not in options:
        known = ", ".join(p.model.removeprefix("Intel Xeon ").removeprefix("AMD ")
                          for p in options[:12])
        more = f" (and {len(options) - 12} more)" if len(options) > 12 else ""
        raise ValueError(f"{server.title} was not submitted to SPEC with '{text}'; its"
                         f" processors: {known}{more}")
    return found


def host_props(server: Server, processor: Processor | None = None,
               memory_gb: float | None = None) -> dict[str, Value]:
    """A host of ``server`` with ``processor`` (default :func:`default_processor`) and
    ``memory_gb`` (default :func:`default_memory_gb`): sockets, cores per socket, base clock,
    the processor's name (its per-core speed comes from the processor catalogue),
    hyperthreading as SPEC ran it, memory, ESXi 8.0."""
    proc = processor or default_processor(server)
    props: dict[str, Value] = {"sockets": server.sockets, "esxi_version": "8.0"}
    if proc is not None:
        props["cpu_model"] = proc.model
        if proc.cores:
            props["cores_per_socket"] = proc.cores
        if proc.ghz:
            props["ghz"] = proc.ghz
        props["hyperthreading"] = (proc.threads_per_core or 2) > 1
    memory = memory_gb if memory_gb is not None else default_memory_gb(server)
    if memory is not None:
        props["memory_gb"] = float(memory)
    return props
