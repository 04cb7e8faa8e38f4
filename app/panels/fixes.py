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
from models.document.design import Component, Design, Link
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
    """How the user knows a component, by id; the table is made when first asked (most
    designs have no fix, and a 50,000-VM estate's table took a tenth of a second)."""
    by_id: dict[str, str] = {}

    def name(cid: str) -> str:
        if not by_id:
            by_id.update((c.id, c.name or c.id) for c in design.components)
        return by_id.get(cid, cid)

    return name


def _links_fix(problem: str, action: str, links: list[Link]) -> Fix:
    def apply(doc: DesignDocument) -> None:
        doc.add_components([], links, action)

    return Fix(problem, action, apply)


def fixes_for(design: Design) -> list[Fix]:
    """The fixes that apply to ``design``, most basic first (at most :data:`MAX_FIXES`)."""
    name = _names(design)
    hosts: list[str] = []
    arrays: list[str] = []
    vms: list[Component] = []
    for comp in design.components:
        if comp.kind == "vm":
            vms.append(comp)
        elif comp.kind == "host":
            hosts.append(comp.id)
        elif comp.kind == "storage_array":
            arrays.append(comp.id)
    # source -> target of the one-per-source kinds, a host's arrays: one pass over the links
    runs_on: dict[str, str] = {}
    disk_on: dict[str, str] = {}
    secondary: dict[str, str] = {}
    reach: dict[str, set[str]] = {}
    one = {"runs_on": runs_on, "disk_on": disk_on, "ft_secondary_on": secondary}
    for lk in design.links:
        found = one.get(lk.kind)
        if found is not None:
            found[lk.source] = lk.target
        elif lk.kind == "storage":
            reach.setdefault(lk.source, set()).add(lk.target)
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
    missing = sorted({(runs_on[v], a) for v, a in disk_on.items()
                      if v in runs_on and runs_on[v] in reach and a not in reach[runs_on[v]]})
    for host, array in missing[:2]:
        action = link_text("storage", name(host), name(array))
        out.append(_links_fix(f"{name(host)} runs VMs on {name(array)} but its storage links"
                              " name other arrays", action, [Link(host, array, "storage")]))
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
