"""How a report names things: components by their names, resources and properties by labels,
choices in words, and the models' own texts with their ids and case ids put in plain words.

Every figure is formatted by a :class:`Numbers` the caller passes (:mod:`app.support.format` is
one),
so this module decides words, never digits.
"""

from __future__ import annotations

import math
import re
from functools import cache
from typing import Protocol

from models.calibration import cases
from models.document.design import Design, Override
from models.document.knobs import knob
from models.document.schema import KINDS, LINKS, Value, prop_spec
from models.document.studies import named
from models.engine.kpis import Kpi


class Numbers(Protocol):
    """The number formats a report uses (:mod:`app.support.format` provides them all)."""

    def number(self, x: float | None, digits: int = 3) -> str: ...
    def with_unit(self, x: float | None, unit: str, digits: int = 3) -> str: ...
    def percent(self, fraction: float | None, digits: int = 3) -> str: ...
    def count(self, n: int, word: str) -> str: ...
    def kpi_value(self, kpi: Kpi, v: float | None) -> str: ...


# --------------------------------------------------------------------------- components

NOUNS: dict[str, tuple[str, str]] = {
    "vm": ("VM", "VMs"), "host": ("host", "hosts"), "nic": ("NIC", "NICs"),
    "storage_array": ("storage array", "storage arrays"), "site": ("site", "sites"),
    "content_library": ("library", "libraries"), "wan": ("WAN link", "WAN links"),
    "ft_secondary_on": ("FT link", "FT links"), "design": ("policy", "policy"),
}
"""(singular, plural) of each kind as a sentence names it."""


def noun(kind: str, n: int = 1) -> str:
    one, many = NOUNS.get(kind, (kind.replace("_", " "), kind.replace("_", " ") + "s"))
    return one if n == 1 else many


def component_name(design: Design, cid: str) -> str:
    """How the user knows a component: its name, else its id.  A link named by its two
    ends (``siteA-siteB``, as the WAN models name them) reads ``Site A – Site B``."""
    c = design.component(cid)
    if c is not None:
        return c.name or c.id
    for i in range(1, len(cid)):  # ids may hold hyphens: try every split
        if cid[i] == "-":
            a, b = design.component(cid[:i]), design.component(cid[i + 1:])
            if a is not None and b is not None:
                return f"{a.name or a.id} – {b.name or b.id}"
    return cid


# --------------------------------------------------------------------------- resources

RESOURCE_NAMES: dict[str, str] = {
    "host_cpu": "host CPU", "host_memory": "host memory", "array": "storage array",
    "hba": "storage HBA ports", "vcpu_io": "vCPU I/O issue", "nic": "NIC",
    "ft_logging_nic": "FT logging NIC", "pcie": "PCIe slot", "wan": "WAN link",
    "multicast_replication": "multicast replication",
}
"""The engine's resource types as people say them (Content Library stages are words already)."""

_PHRASES: dict[str, str] = {
    "host_cpu": "the CPU of host {}", "host_memory": "the memory of host {}",
    "array": "the storage array {}", "hba": "the storage HBA ports of host {}",
    "vcpu_io": "the vCPU I/O issue path of VM {}", "nic": "the NIC {}",
    "ft_logging_nic": "the FT logging network of host {}", "pcie": "the PCIe slot of NIC {}",
    "wan": "the WAN link {}", "multicast_replication": "multicast replication on host {}",
}


def resource_name(resource: str) -> str:
    return RESOURCE_NAMES.get(resource, resource.replace("_", " "))


def resource_label(design: Design, component: str, resource: str) -> str:
    """``storage array · Intel S3700``: the resource first, so that a label cut short in a
    narrow column still says what is busy."""
    return f"{resource_name(resource)} · {component_name(design, component)}"


def resource_phrase(design: Design, component: str, resource: str) -> str:
    """The resource as a sentence names it: ``the CPU of host Dell R720``."""
    name = component_name(design, component)
    if resource in _PHRASES:
        return _PHRASES[resource].format(name)
    return f"the {resource_name(resource)} of {name}"  # a Content Library stage


# --------------------------------------------------------------------------- properties

PROP_WORDS: dict[str, str] = {
    "workload.profile": "Workload", "workload.io_iops": "Offered IOPS",
    "workload.io_random_pct": "Random share", "workload.io_app_cpu_us": "Application CPU per I/O",
    "workload.net_tx_mbps": "Offered transmit load", "workload.resp_kb": "Response size",
    "workload.multicast_packet_bytes": "Multicast packet size", "disk_shares": "Disk shares",
    "guest_os": "Guest OS", "role": "NIC role", "ports": "Ports", "sockets": "Sockets",
    "hba_count": "HBA ports", "disk_iops": "IOPS per drive", "protocol": "Storage protocol",
    "fabric_gbps": "Fabric speed", "vaai": "VAAI", "cabling": "Cabling",
    "esxi_hosts": "ESXi hosts", "datastore_mbps": "Datastore throughput",
    "compression_ratio": "Compression ratio",
}
"""Labels of the properties no knob covers (a knob's label wins where there is one)."""


def in_sentence(label: str) -> str:
    """A label inside a sentence: its first letter small unless its first word is a name or
    an acronym (``Outstanding I/Os`` -> ``outstanding I/Os``; ``NetQueue / VMDq`` stays)."""
    first = label.split(" ", 1)[0]
    if first[:1].isupper() and not any(ch.isupper() for ch in first[1:]):
        return label[0].lower() + label[1:]
    return label


def prop_label(kind: str, prop: str) -> str:
    """A property as a label: the knob's label, else a word for it."""
    k = knob(f"{kind}.{prop}") or (knob(f"design.{prop}") if kind == "design" else None)
    if k is not None:
        return k.label
    if prop in PROP_WORDS:
        return PROP_WORDS[prop]
    text = prop.removeprefix("workload.").removeprefix("policy.").replace("_", " ")
    return text[:1].upper() + text[1:]


CHOICE_WORDS: dict[str, str] = {
    "esxi": "ESXi", "native": "native (bare metal)", "vm": "VM traffic",
    "ft_logging": "FT logging", "vmotion": "vMotion", "ssd": "SSD", "hdd15k": "15K HDD",
    "hdd10k": "10K HDD", "hdd7k": "7.2K HDD", "none": "none", "raid0": "RAID 0",
    "raid1": "RAID 1", "raid5": "RAID 5", "raid6": "RAID 6", "raid10": "RAID 10",
    "raid_group": "RAID group", "pool": "storage pool", "fc": "Fibre Channel",
    "iscsi": "iSCSI", "nfs": "NFS", "sas": "SAS", "vsan": "vSAN", "vmxnet3": "VMXNET3",
    "vmxnet2": "VMXNET2", "e1000": "E1000", "pvscsi": "PVSCSI", "lsi_sas": "LSI Logic SAS",
    "null": "null filter (pass-through)", "cache": "caching filter",
    "replication": "replication filter", "iometer": "Iometer", "oltp": "OLTP",
    "web": "web", "netperf": "netperf", "file_transfer": "file transfer",
    "multicast_rx": "multicast receiver", "cpu_bound": "CPU-bound", "vdi": "VDI desktop",
    "idle": "idle", "scp": "scp", "rsync": "rsync", "bbcp": "bbcp", "ftp": "FTP",
    "openssh": "OpenSSH", "hpn_ssh": "HPN-SSH", "view4": "View 4.x", "view5": "View 5",
    "datastore": "datastore", "sync": "sync", "deploy": "deploy", "import": "import",
    "export": "export", "vaai": "VAAI copy", "same_host": "through one host",
    "cross_host": "between two hosts", "upload_client": "upload from a client",
    "web_server": "from a web server", "linux": "Linux", "windows": "Windows",
    "normal": "normal", "high": "high", "unspecified": "unspecified", "twinax": "twinax",
    "10gbase_t": "10GBASE-T", "10gbase_sr": "10GBASE-SR", "management": "management",
    "storage": "storage",
}
"""Each enum choice of the schema in words."""


SCALES: dict[str, tuple[tuple[float, str, float], ...]] = {
    "Gbit/s": ((1.0, "Gbit/s", 1.0), (1e-3, "Mbit/s", 1e3), (0.0, "kbit/s", 1e6)),
    "Mbit/s": ((1e3, "Gbit/s", 1e-3), (1.0, "Mbit/s", 1.0), (0.0, "kbit/s", 1e3)),
    "kbit/s": ((1e6, "Gbit/s", 1e-6), (1e3, "Mbit/s", 1e-3), (0.0, "kbit/s", 1.0)),
    "ms": ((1e3, "s", 1e-3), (1.0, "ms", 1.0), (0.0, "µs", 1e3)),
    "min": ((120.0, "h", 1 / 60), (1.0, "min", 1.0), (0.0, "s", 60.0)),
    "GB": ((1024.0, "TB", 1 / 1024), (1.0, "GB", 1.0), (0.0, "MB", 1024.0)),
    "MB/s": ((1e3, "GB/s", 1e-3), (0.0, "MB/s", 1.0)),
}
"""Per unit: (from this magnitude, the unit to use, factor); the first that fits wins."""

COUNT_UNITS = frozenset({
    "vCPUs", "drives", "items", "streams", "containers", "cores", "hosts", "transfers",
    "ports", "lanes", "I/Os", "sockets", "shares", "VMs", "requests/s", "packets/s"})
"""Units that are counted things: ``1 vCPU``, ``2 vCPUs``."""


def scaled(x: float, unit: str) -> tuple[float, str]:
    """``x`` in the unit of its magnitude: 0.025 Gbit/s -> 25 Mbit/s, 1,500 ms -> 1.5 s."""
    for start, name, factor in SCALES.get(unit, ()):
        if abs(x) >= start or start == 0.0:
            return x * factor, name
    return x, unit


def quantity(numbers: Numbers, x: float | None, unit: str) -> str:
    """A figure with its unit chosen per magnitude and its plural right (``1 vCPU``)."""
    if x is None:
        return numbers.number(None)
    if unit == "fraction":
        return numbers.percent(x)
    v, u = scaled(x, unit) if x else (x, unit)
    text = numbers.with_unit(v, u)
    if u in COUNT_UNITS and numbers.number(v) == "1":
        one = u.replace("s/s", "/s") if u.endswith("s/s") else u.removesuffix("s")
        text = text.replace(u, one, 1)
    return text


def value_text(numbers: Numbers, kind: str, prop: str, value: Value) -> str:
    """A property value as a report shows it: ``32 I/Os``, ``on``, ``RAID 5``, ``auto``."""
    spec = prop_spec(kind, prop)
    if value is None:
        return "auto"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, str):
        if prop == "esxi_version":
            return f"ESXi {value}"
        return CHOICE_WORDS.get(value, value.replace("_", " "))
    if prop == "pcie_gen":
        return f"Gen{value:g}"
    if prop == "pcie_lanes":
        return f"x{value:g}"
    return quantity(numbers, float(value), spec.unit if spec is not None else "")


def saturated(kpi: Kpi, v: float | None) -> bool:
    """Whether ``v`` is a queue's "no steady state" (demand past capacity): an unbounded
    time, which the KPI table gives as infinity."""
    return v is not None and math.isinf(v)


def kpi_text(numbers: Numbers, kpi: Kpi, v: float | None) -> str:
    """A KPI's figure as the report reads it (large counts shortened where the KPI asks,
    units per magnitude otherwise; a saturated response time as ``saturated``)."""
    if saturated(kpi, v):
        return "saturated"
    if v is not None and kpi.short and abs(v) >= 1e6:
        return f"{numbers.number(v / 1e6)}M {kpi.unit}".rstrip()
    if v is None or kpi.short or kpi.unit in ("", "%", "IOPS"):
        return numbers.kpi_value(kpi, v)
    return quantity(numbers, v, kpi.unit)


def target_text(design: Design, select: str) -> str:
    """Which components an override touches, in words: ``every VM``, ``VM ioanalyzer1``,
    ``the 8 VMs tagged small``, ``the policy``."""
    if select == "design":
        return "the policy"
    if select in KINDS or select in LINKS:
        return f"every {noun(select)}"
    if select.startswith("id:"):
        c = design.component(select[3:])
        return f"{noun(c.kind)} {c.name or c.id}" if c is not None else select[3:]
    if select.startswith("tag:"):
        tag = select[4:]
        tagged = [c for c in design.components if tag in c.tags]
        kinds = {c.kind for c in tagged}
        what = noun(kinds.pop(), len(tagged)) if len(kinds) == 1 else \
            ("component" if len(tagged) == 1 else "components")
        return f"the {len(tagged)} {what} tagged {tag}" if len(tagged) != 1 else \
            f"the {what} tagged {tag}"
    return select


def override_text(design: Design, numbers: Numbers, ov: Override) -> str:
    """``Outstanding I/Os set to 32 I/Os on every VM``: one override of a scenario in words."""
    kind = "design" if ov.select == "design" else _kind_of(design, ov.select)
    prop = ov.prop.removeprefix("policy.") if kind == "design" else ov.prop
    label = prop_label(kind, f"policy.{prop}" if kind == "design" else prop)
    value = value_text(numbers, kind, f"policy.{prop}" if kind == "design" else prop, ov.value)
    where = "" if kind == "design" else f" on {target_text(design, ov.select)}"
    return f"{label} set to {value}{where}"


def changes_text(design: Design, numbers: Numbers, overrides: list[Override]) -> str:
    """A scenario's overrides in words, grouped by what they touch: ``on VM ioanalyzer1:
    outstanding I/Os → 32 I/Os, VAIO I/O filter → caching filter; the policy: CPU utilisation
    ceiling → 80 %``."""
    groups: dict[str, list[str]] = {}
    for ov in overrides:
        kind = "design" if ov.select == "design" else _kind_of(design, ov.select)
        prop = f"policy.{ov.prop.removeprefix('policy.')}" if kind == "design" else ov.prop
        label = in_sentence(prop_label(kind, prop))
        where = "the policy" if kind == "design" else f"on {target_text(design, ov.select)}"
        groups.setdefault(where, []).append(
            f"{label} → {value_text(numbers, kind, prop, ov.value)}")
    return "; ".join(f"{where}: {', '.join(parts)}" for where, parts in groups.items())


def _kind_of(design: Design, select: str) -> str:
    if select in KINDS or select in LINKS:
        return select
    if select.startswith("id:"):
        c = design.component(select[3:])
        return c.kind if c is not None else ""
    for c in design.components:
        if select.startswith("tag:") and select[4:] in c.tags:
            return c.kind
    return ""


# --------------------------------------------------------------------------- model texts


@cache
def _case_ids() -> tuple[str, ...]:
    return tuple(sorted(cases(), key=len, reverse=True))


_KIND_WORDS = ((re.compile(r"\bvm\b"), "VM"), (re.compile(r"\bnic\b"), "NIC"),
               (re.compile(r"\bwan\b"), "WAN link"), (re.compile(r"\bhba\b"), "HBA"))


def _readable_id(cid: str) -> bool:
    """Whether an id is safe to replace wherever it stands in prose: one with a digit,
    an upper-case letter, a hyphen or an underscore (``h1``, ``siteA``, ``esx01-nic``);
    a plain word (``branch``, ``deploy``) would also match the prose around it."""
    return any(ch.isdigit() or ch.isupper() or ch in "-_" for ch in cid)


def plain(design: Design, text: str) -> str:
    """A model's explanation or warning with component ids put as names, kind codes as
    words (``vm`` -> ``VM``) and calibration case ids left out (the study is named
    elsewhere)."""
    if not text:
        return text
    ids = _case_ids()
    for cid in ids:
        if cid in text:
            text = re.sub(rf"[,;]?\s*\b{re.escape(cid)}\b", "", text)
    text = re.sub(r"\(\s*[,;]?\s*\)", "", text)  # parentheses left empty
    text = re.sub(r"\(\s*[,;]\s*", "(", text)
    comps = sorted((c for c in design.components if c.name and c.name != c.id),
                   key=lambda c: len(c.id), reverse=True)
    if comps:
        by_id = {c.id: c.name for c in comps}
        pairs = re.compile(r"(?<![\w-])([\w.]+)-([\w.]+)(?![\w-])")
        text = pairs.sub(lambda m: f"{by_id[m[1]]} – {by_id[m[2]]}"
                         if m[1] in by_id and m[2] in by_id else m[0], text)
        loose = [c.id for c in comps if _readable_id(c.id)]
        if loose:
            one = re.compile(r"(?<![\w-])(" + "|".join(re.escape(i) for i in loose)
                             + r")(?![\w-])")
            text = one.sub(lambda m: by_id[m[1]], text)
    for pattern, word in _KIND_WORDS:
        text = pattern.sub(word, text)
    return re.sub(r"\s{2,}", " ", text).replace(" .", ".").replace(" ,", ",").strip()


def explanation(design: Design, component: str, text: str) -> str:
    """A resource's explanation to follow its name in a sentence: in plain words, without
    the component's name it starts with, first letter small unless a name or acronym."""
    text = plain(design, text).rstrip(".")
    name = component_name(design, component)
    if text.startswith(f"{name}: "):
        text = text[len(name) + 2:]
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        text = text[0].lower() + text[1:]
    return text


def study_title(case_or_study: str) -> str:
    """A study's title (:mod:`models.document.studies`) from a case id (or a ``;``-joined
    list of them) or from any name the case file gives it; other text as it is."""
    known = cases()
    first = case_or_study.split(";", maxsplit=1)[0].strip()
    name = str(known[first]["study"]) if first in known else case_or_study
    try:
        return named(name).title
    except KeyError:
        return case_or_study
