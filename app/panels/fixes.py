"""Problems in a design that have an obvious fix, and the fix as one undoable edit.

The dashboard lists them under its warnings as links ("Place ioanalyzer1 on Dell R720"); one
click applies the fix through the document, so Ctrl+Z takes it back.  Each problem is found
from the design's structure (not by reading a warning's text), and the fixes are those a user
would make by hand: place unplaced VMs on the least loaded host, put a disk-less I/O VM's
disk on the array, connect a host to the array its VMs' disks are on, give an FT VM its
secondary, a VMXNET3 vNIC to a VM that asks for splitRxMode.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from models.document import numbers as fmt
from models.document.design import Design, Link
from models.document.words import link_text

if TYPE_CHECKING:
    from app.document.design_document import DesignDocument

IO_PROFILES = ("iometer", "oltp")
"""Workloads that do storage I/O (a VM running one needs its disk somewhere)."""
MAX_FIXES = 4


@dataclass(frozen=True)
class Fix:
    problem: str
    """What is wrong, in words ("ioanalyzer1 is on no host")."""
    action: str
    """What the fix does, as its undo text says it ("Place ioanalyzer1 on Dell R720")."""
    apply: Callable[[DesignDocument], None]


def _names(design: Design) -> Callable[[str], str]:
    by_id = {c.id: c.name or c.id for c in design.components}
    return lambda cid: by_id.get(cid, cid)


def _linked(design: Design, kind: str) -> dict[str, str]:
    """source -> target of every ``kind`` link (one-per-source kinds)."""
    return {lk.source: lk.target for lk in design.links if lk.kind == kind}


def _links_fix(problem: str, action: str, links: list[Link]) -> Fix:
    def apply(doc: DesignDocument) -> None:
        doc.add_components([], links, action)

    return Fix(problem, action, apply)


def fixes_for(design: Design) -> list[Fix]:
    """The fixes that apply to ``design``, most basic first (at most :data:`MAX_FIXES`)."""
    name = _names(design)
    hosts = [h.id for h in design.of_kind("host")]
    arrays = [a.id for a in design.of_kind("storage_array")]
    vms = design.of_kind("vm")
    runs_on = _linked(design, "runs_on")
    disk_on = _linked(design, "disk_on")
    out: list[Fix] = []
    unplaced = [v.id for v in vms if v.id not in runs_on]
    if unplaced and hosts:
        load = {h: 0 for h in hosts}
        for host in runs_on.values():
            if host in load:
                load[host] += 1
        host = min(hosts, key=lambda h: load[h])
        what = name(unplaced[0]) if len(unplaced) == 1 else fmt.count(len(unplaced), "VM")
        out.append(_links_fix(f"{what} {'is' if len(unplaced) == 1 else 'are'} on no host",
                              f"Place {what} on {name(host)}",
                              [Link(v, host, "runs_on") for v in unplaced]))
    diskless = [v.id for v in vms if v.id not in disk_on
                and str(v.props.get("workload.profile", "oltp")) in IO_PROFILES]
    if diskless and len(arrays) == 1:
        array = arrays[0]
        what = name(diskless[0]) if len(diskless) == 1 else fmt.count(len(diskless), "VM")
        whose = f"{what}'s disk" if len(diskless) == 1 else f"the disks of {what}"
        out.append(_links_fix(f"{whose} {'is' if len(diskless) == 1 else 'are'} on no array",
                              f"Put {whose} on {name(array)}",
                              [Link(v, array, "disk_on") for v in diskless]))
    reach: dict[str, set[str]] = {}
    for lk in design.links:
        if lk.kind == "storage":
            reach.setdefault(lk.source, set()).add(lk.target)
    missing = sorted({(runs_on[v], a) for v, a in disk_on.items()
                      if v in runs_on and runs_on[v] in reach and a not in reach[runs_on[v]]})
    for host, array in missing[:2]:
        action = link_text("storage", name(host), name(array))
        out.append(_links_fix(f"{name(host)} runs VMs on {name(array)} but its storage links"
                              " name other arrays", action, [Link(host, array, "storage")]))
    secondary = _linked(design, "ft_secondary_on")
    for vm in vms:
        if vm.props.get("ft") is True and vm.id not in secondary and vm.id in runs_on:
            others = [h for h in hosts if h != runs_on[vm.id]]
            if others:
                action = link_text("ft_secondary_on", name(vm.id), name(others[0]))
                out.append(_links_fix(f"{name(vm.id)} is FT-protected but has no secondary",
                                      action, [Link(vm.id, others[0], "ft_secondary_on")]))
                break
    split = [v.id for v in vms if v.props.get("split_rx") is True
             and v.props.get("vnic", "vmxnet3") != "vmxnet3"]
    if split:
        what = name(split[0]) if len(split) == 1 else fmt.count(len(split), "VM")

        def vmxnet3(doc: DesignDocument, ids: list[str] = split) -> None:
            doc.set_values([f"id:{v}" for v in ids], "vnic", "vmxnet3")

        out.append(Fix(f"splitRxMode needs a VMXNET3 vNIC on {what}",
                       f"Give {what} a VMXNET3 vNIC", vmxnet3))
    return out[:MAX_FIXES]
