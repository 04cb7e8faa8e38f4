"""Auto-layout of an imported estate: sites side by side, clusters stacked inside a site,
hosts in rows inside a cluster, each host's NICs just below it and its VMs in a small grid under
those; storage arrays in a row under the site that reaches them.

Pure geometry on the design's links (``located_at``, ``runs_on``, ``installed_in``, ``storage``,
``disk_on``) and the ``cluster-<name>`` tags the importers set.  Coordinates are canvas units
(roughly pixels at 100 % zoom); the engine ignores them.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.document.design import Component, Design

HOST_PITCH = 240.0
"""Horizontal distance between hosts; wide enough for a host with VM_COLS VMs under it."""
VM_COLS = 3
VM_DX = 72.0
VM_DY = 48.0
NIC_DX = 60.0
ROW_GAP = 90.0
"""Space between a cluster's host rows and between clusters."""
HOSTS_PER_ROW = 8
SITE_GAP = 200.0
ARRAY_PITCH = 160.0
UNPLACED_COLS = 8
"""Columns of the Unplaced area (VMs on no host)."""
HEADER = 110.0
"""Room above a site's first cluster for the site itself."""


@dataclass
class _Group:
    name: str
    hosts: list[Component]


def _cluster(comp: Component) -> str:
    return next((t for t in comp.tags if t.startswith("cluster-")), "")


def auto_layout(design: Design) -> None:
    """Set ``x``/``y`` of every component of ``design`` in place (deterministic)."""
    by_id = {c.id: c for c in design.components}
    site_of: dict[str, str] = {}
    vms_of: dict[str, list[Component]] = {}
    nics_of: dict[str, list[Component]] = {}
    arrays_of_host: dict[str, list[str]] = {}
    cluster_of: dict[str, str] = {}
    placed: set[str] = set()
    for lk in design.links:
        src = by_id.get(lk.source)
        if src is None:
            continue
        if lk.kind == "located_at":
            site_of[lk.source] = lk.target
        elif lk.kind == "runs_on":
            vms_of.setdefault(lk.target, []).append(src)
        elif lk.kind == "installed_in":
            nics_of.setdefault(lk.target, []).append(src)
        elif lk.kind == "storage":
            arrays_of_host.setdefault(lk.source, []).append(lk.target)
        elif lk.kind == "in_cluster":
            cluster_of[lk.source] = lk.target

    sites = [c for c in design.components if c.kind == "site"]
    hosts_by_site: dict[str, list[Component]] = {s.id: [] for s in sites}
    hosts_by_site[""] = []
    for c in design.components:
        if c.kind == "host":
            hosts_by_site.setdefault(site_of.get(c.id, ""), []).append(c)

    x0 = 0.0
    for site_id in [s.id for s in sites] + [""]:
        hosts = hosts_by_site.get(site_id, [])
        if not hosts and site_id == "":
            continue
        groups: dict[str, _Group] = {}
        for h in hosts:
            key = _cluster(h)
            groups.setdefault(key, _Group(key, [])).hosts.append(h)
        y = HEADER
        width = HOST_PITCH
        site_arrays: list[str] = []
        for group in groups.values():
            cid = next((cluster_of[h.id] for h in group.hosts if h.id in cluster_of), None)
            if cid is not None and cid not in placed:  # the cluster just above its hosts
                by_id[cid].x, by_id[cid].y = x0, y - 50.0
                placed.add(cid)
            for start in range(0, len(group.hosts), HOSTS_PER_ROW):
                row = group.hosts[start:start + HOSTS_PER_ROW]
                depth = 0.0
                for i, h in enumerate(row):
                    hx = x0 + i * HOST_PITCH
                    h.x, h.y = hx, y
                    placed.add(h.id)
                    for j, nic in enumerate(nics_of.get(h.id, [])):
                        nic.x, nic.y = hx + (j % 4) * NIC_DX, y + 60.0 + (j // 4) * 36.0
                        placed.add(nic.id)
                    nic_rows = (len(nics_of.get(h.id, [])) + 3) // 4
                    vy = y + 60.0 + nic_rows * 36.0 + 20.0
                    vms = vms_of.get(h.id, [])
                    for k, vm in enumerate(vms):
                        vm.x = hx + (k % VM_COLS) * VM_DX
                        vm.y = vy + (k // VM_COLS) * VM_DY
                        placed.add(vm.id)
                    depth = max(depth, vy - y + ((len(vms) + VM_COLS - 1) // VM_COLS) * VM_DY)
                    for a in arrays_of_host.get(h.id, []):
                        if a not in site_arrays:
                            site_arrays.append(a)
                width = max(width, len(row) * HOST_PITCH)
                y += max(depth, 60.0) + ROW_GAP
        todo = [a for a in site_arrays if a not in placed]
        for i, aid in enumerate(todo):
            arr = by_id[aid]
            arr.x = x0 + (i % HOSTS_PER_ROW) * ARRAY_PITCH * 1.5
            arr.y = y + (i // HOSTS_PER_ROW) * 90.0
            placed.add(aid)
        if site_id:
            site = by_id[site_id]
            site.x, site.y = x0, 0.0
            placed.add(site_id)
        width = max(width, min(len(todo), HOSTS_PER_ROW) * ARRAY_PITCH * 1.5)
        x0 += width + SITE_GAP

    # VMs on no host: the Unplaced area, a grid right of the sites
    unplaced = [c for c in design.components if c.kind == "vm" and c.id not in placed]
    for i, c in enumerate(unplaced):
        c.x = x0 + (i % UNPLACED_COLS) * VM_DX
        c.y = HEADER + (i // UNPLACED_COLS) * VM_DY
        placed.add(c.id)
    if unplaced:
        x0 += UNPLACED_COLS * VM_DX + SITE_GAP
    rest = [c for c in design.components if c.id not in placed]
    for i, c in enumerate(rest):
        c.x = x0 + (i % 10) * VM_DX * 1.5
        c.y = HEADER + (i // 10) * VM_DY * 1.5
