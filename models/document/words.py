"""How edits and link refusals read to the user: undo texts ("Set Outstanding I/Os on 16 VMs",
"Put Iometer 1's disk on Intel S3700 SSD") and why a link cannot be made, in words.

The session (:mod:`models.session.session`) names its edits with these; the canvas says a
refusal with them.  Components are named by the caller (their names, else their ids);
properties by the knob registry's label, else the schema's (:func:`prop_text`); kinds and
their counts by :data:`KIND_WORDS` (:func:`kind_count`, through the one counting function,
:func:`models.document.numbers.counted`).
"""

from __future__ import annotations

import functools

from models.document import numbers as fmt
from models.document.design import Component, Link
from models.document.knobs import knob
from models.document.numbers import counted, plural
from models.document.rules import SELF_LINK, duplicate_link, same_host
from models.document.schema import KINDS, LINKS, Value, prop_label

LINK_TEXTS: dict[str, tuple[str, str, str]] = {
    "runs_on": ("Place {a} on {b}", "Take {a} off {b}", "{a} runs on {b}"),
    "ft_secondary_on": ("Put {a}'s FT secondary on {b}", "Remove {a}'s FT secondary from {b}",
                        "{a}'s FT secondary runs on {b}"),
    "installed_in": ("Install {a} in {b}", "Remove {a} from {b}", "{a} is installed in {b}"),
    "passthrough": ("Pass {a} through to {b}", "Stop passing {a} through to {b}",
                    "{a} is passed through to {b}"),
    "disk_on": ("Put {a}'s disk on {b}", "Unlink {a}'s disk from {b}", "{a}'s disk is on {b}"),
    "storage": ("Connect {a} to {b}", "Disconnect {a} from {b}", "{a} reaches {b}"),
    "located_at": ("Place {a} at {b}", "Take {a} off {b}", "{a} is at {b}"),
    "subscribes_to": ("Subscribe {a} to {b}", "Unsubscribe {a} from {b}",
                      "{a} subscribes to {b}"),
    "library_at": ("Place {a} at {b}", "Take {a} off {b}", "{a} is at {b}"),
    "wan": ("Connect {a} to {b} by WAN", "Remove the WAN link from {a} to {b}",
            "{a} and {b} are linked by WAN"),
}
"""Per link kind: the undo text of adding it, of removing it, and the fact it states."""

KIND_WORDS: dict[str, tuple[str, str]] = {
    "host": ("host", "hosts"), "vm": ("VM", "VMs"), "nic": ("NIC", "NICs"),
    "storage_array": ("storage array", "storage arrays"), "site": ("site", "sites"),
    "cluster": ("cluster", "clusters"), "content_library": ("library", "libraries"),
    "wan": ("WAN link", "WAN links"), "ft_secondary_on": ("FT link", "FT links"),
    "design": ("policy", "policy"),
}
"""Component and link kinds as a sentence names them, singular and plural (the one table:
undo texts, refusals, the report and the import summary read it)."""


def kind_text(kind: str, n: int = 1) -> str:
    """``kind`` as a noun agreeing with ``n``: ``host``, ``storage arrays``."""
    one, many = KIND_WORDS.get(kind, (kind.replace("_", " "), plural(kind.replace("_", " "))))
    return one if n == 1 else many


def kind_count(kind: str, n: int, adjective: str = "") -> str:
    """``1 host``, ``3 storage arrays``, ``2 more VMs``: a count of components of ``kind``
    (``adjective`` between the count and the noun)."""
    first = f"{adjective} " if adjective else ""
    return counted(n, first + kind_text(kind), first + kind_text(kind, 2))


def link_text(kind: str, a: str, b: str, which: int = 0) -> str:
    """The undo text of adding (``which`` 0) or removing (1) a ``kind`` link from ``a`` to
    ``b``, or the fact it states (2); ``a`` and ``b`` are names."""
    texts = LINK_TEXTS.get(kind)
    if texts is None:
        word = kind.replace("_", " ")
        texts = (f"Link {{a}} {word} {{b}}", f"Unlink {{a}} {word} {{b}}",
                 f"{{a}} {word} {{b}}")
    return texts[which].format(a=a, b=b)


def prop_text(kind: str, prop: str) -> str:
    """The words for ``prop`` of ``kind``: the knob's label where it is a knob."""
    k = knob(f"{kind}.{prop}")
    return k.label if k is not None else prop_label(kind, prop)


def link_refusal(kind: str, a: str, b: str, reason: str, source: str, target: str) -> str:
    """Why a ``kind`` link from ``source`` (named ``a``) to ``target`` (``b``) was refused,
    in words; ``reason`` is what :func:`models.document.rules.link_problem` said."""
    if reason == SELF_LINK:
        return "a component cannot be linked to itself"
    if kind in LINKS and reason == duplicate_link(Link(source, target, kind)):
        return f"already linked: {link_text(kind, a, b, 2)}"
    if reason == same_host(target):
        return f"{a}'s FT secondary must run on another host than the one {a} runs on ({b})"
    return reason


LINK_ENDS: dict[str, tuple[str, str]] = {
    "runs_on": ("runs on a host", "runs VMs"),
    "ft_secondary_on": ("has its FT secondary on a host", "runs FT secondaries"),
    "installed_in": ("is installed in a host", "holds physical NICs"),
    "passthrough": ("can be passed through to a VM", "can take a physical NIC passed through"),
    "disk_on": ("keeps its disk on a storage array", "holds VM disks"),
    "storage": ("reaches storage arrays", "is reached by hosts"),
    "located_at": ("is at a site", "holds hosts"),
    "subscribes_to": ("subscribes to a content library", "has subscribers"),
    "library_at": ("is at a site", "holds content libraries"),
    "wan": ("links to other sites by WAN", "links to other sites by WAN"),
}
"""Per link kind, what it lets its source and its target do."""


def no_link_text(kind_a: str, kind_b: str) -> str:
    """Why nothing links a ``kind_a`` to a ``kind_b``, and what a ``kind_a`` does link to:
    "A VM cannot be linked to a site: a VM runs on a host, ..."."""
    ways = [LINK_ENDS[k][0 if spec.from_kind == kind_a else 1] for k, spec in LINKS.items()
            if kind_a in (spec.from_kind, spec.to_kind) and k in LINK_ENDS]
    head = f"A {kind_text(kind_a)} cannot be linked to a {kind_text(kind_b)}"
    if not ways:
        return head + "."
    return f"{head}: a {kind_text(kind_a)} " + ", ".join(dict.fromkeys(ways)) + "."


def set_text(kind: str | None, prop: str, targets: int, one: str = "") -> str:
    """``Set Outstanding I/Os on 16 VMs``: the undo text of setting ``prop`` on ``targets``
    components of ``kind`` (``one``: the name when there is a single target; ``kind`` None
    or ``design``: a setting of the design itself)."""
    if kind is None or kind == "design":
        return f"Set {prop_text('design', prop)}"
    label = prop_text(kind, prop)
    if targets == 1 and one:
        return f"Set {label} on {one}"
    return f"Set {label} on {kind_count(kind, targets)}" if kind in KINDS or kind in LINKS \
        else f"Set {label}"


def component_summary(comp: Component) -> str:
    """A component's hardware or policy in one line ("16 cores · 2.4 GHz · 256 GB", "HA N+1 ·
    DRS on", "HA N+1 · DRS on · vSAN ESA RAID 5"): a canvas item's second line and the
    report's tables."""
    if comp.kind == "host":
        cores = int(comp.get("sockets") or 0) * int(comp.get("cores_per_socket") or 0)
        return _host_line(cores, comp.get("ghz"), comp.get("memory_gb"))
    if comp.kind == "storage_array":
        media, raid = fmt.value(comp.get("media")), fmt.value(comp.get("raid"))
        local = "local · " if comp.get("local") else ""  # one host's disks, not shared
        return f"{local}{comp.get('disks')} × {media} · {raid}"
    if comp.kind == "nic":
        return f"{_num(comp.get('speed_gbps'))} GbE"
    if comp.kind == "vm":
        return fmt.value(comp.get("workload.profile"))
    if comp.kind == "cluster":
        if not comp.get("ha_enabled"):
            ha = "HA off"
        elif comp.get("admission_control") == "failover_hosts":
            ha = f"HA N+{comp.get('failover_hosts')}"
        elif comp.get("admission_control") == "percentage":
            ha = f"HA {fmt.value(comp.get('cpu_failover_pct'), '%')} reserved"
        else:
            ha = "HA, no admission control"
        arch = comp.get("vsan.architecture")
        vsan = f" · vSAN {str(arch).upper()} {fmt.value(comp.get('vsan.policy'))}" \
            if arch not in (None, "none") else ""  # its datastore: the hosts' devices
        return f"{ha} · DRS {'on' if comp.get('drs_enabled') else 'off'}{vsan}"
    if comp.kind == "content_library":
        gbe = _num(comp.get("network_gbps"))
        return f"{comp.get('operation')} · {comp.get('backing')} · {gbe} GbE"
    return ""


@functools.lru_cache(maxsize=256, typed=True)
def _host_line(cores: int, ghz: Value, memory_gb: Value) -> str:
    """A host's line of :func:`component_summary` (an estate's 1,250 hosts are a few kinds
    of server: each line is worded once)."""
    return " · ".join((fmt.count(cores, "core"), fmt.value(ghz, "GHz"),
                       fmt.value(memory_gb, "GB")))


def _num(v: object) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def common_suffix(names: list[str]) -> str:
    """The domain every dotted name of ``names`` ends in (``.corp.local`` for
    ``esx01.corp.local`` and ``esx02.corp.local``), "" when they share none or a name is an
    IP address (``10.1.2.3`` is told apart by its last part)."""
    dotted = [n for n in names if "." in n.strip(".")]
    if not dotted or any(n.replace(".", "").isdigit() for n in dotted):
        return ""
    parts = [n.split(".") for n in dotted]
    shared = 0
    for group in zip(*(reversed(p[1:]) for p in parts), strict=False):
        if len(set(group)) != 1:
            break
        shared += 1
    if not shared or min(len(p) for p in parts) < 2:
        return ""
    return "." + ".".join(parts[0][-shared:])


def short_name(name: str, suffix: str, prefix: str = "") -> str:
    """``name`` without the common ``suffix`` (:func:`common_suffix`) and ``prefix``
    (:func:`common_prefix`): the part of a host's name that tells it apart."""
    if suffix and name.endswith(suffix) and name != suffix:
        name = name[:-len(suffix)]
    if prefix and name.startswith(prefix) and name != prefix:
        name = name[len(prefix):]
    return name


SEPARATORS = "-_. "
"""Where a host name's shared start may end: after one of these (``bru-esx-``), never inside
a word (``prod`` and ``pci`` share a ``p`` that tells nothing)."""


def common_prefix(names: list[str]) -> str:
    """The start every one of ``names`` shares, up to and including a separator
    (:data:`SEPARATORS`): ``bru-esx-`` for ``bru-esx-prod1-01`` and ``bru-esx-dev3-11``; ""
    for fewer than two names, an address (``10.1.2.3``), or where what is left of a name
    would be a bare number or nothing (``esx-01`` and ``esx-02`` keep ``esx-``)."""
    if len(names) < 2 or any(n.replace(".", "").isdigit() for n in names):
        return ""
    first, last = min(names), max(names)  # the shared start of all is theirs
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:
        n += 1
    cut = max((i + 1 for i in range(n) if first[i] in SEPARATORS), default=0)
    while cut:
        rests = [name[cut:] for name in names]
        if all(r and not r.replace("-", "").replace("_", "").isdigit() for r in rests):
            return first[:cut]
        cut = max((i + 1 for i in range(cut - 1) if first[i] in SEPARATORS), default=0)
    return ""


def host_affixes(names: list[str]) -> tuple[str, str]:
    """(prefix, suffix) every host name of ``names`` sheds on the canvas, the same for all:
    the domain they share (:func:`common_suffix`), then the start they share
    (:func:`common_prefix`), so ``bru-esx-prod1-01.infra.example.org`` reads ``prod1-01``
    beside ``dev3-11`` (the whole name in the tooltip and the Inspector)."""
    suffix = common_suffix(names)
    return common_prefix([short_name(n, suffix) for n in names]), suffix
