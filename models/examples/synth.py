"""Synthetic designs of any size, for benchmarks and scale tests."""

from __future__ import annotations

from models.document.design import Component, Design, Link
from models.document.schema import Value
from models.document.words import kind_count

PROFILES = ("oltp", "iometer", "web", "cpu_bound", "netperf")


def large_design(n_vms: int = 2000, n_hosts: int = 50, n_arrays: int = 10) -> Design:
    """A mixed estate: hosts with two NICs each, arrays shared by all hosts, VMs spread evenly
    with a rotating mix of workload profiles (a few FT-protected)."""
    d = Design(name=f"Synthetic {kind_count('vm', n_vms)} / {kind_count('host', n_hosts)}")
    for a in range(n_arrays):
        d.components.append(Component(f"a{a}", "storage_array", f"Array {a}", x=a * 160.0,
                                      y=-300.0, props={"disks": 24, "media": "ssd"}))
    for h in range(n_hosts):
        d.components.append(Component(f"h{h}", "host", f"esx{h:03d}", x=h * 220.0, y=0.0))
        for k, role in enumerate(("vm", "ft_logging")):
            nid = f"n{h}_{k}"
            d.components.append(Component(nid, "nic", f"vmnic{k}", props={"role": role}))
            d.links.append(Link(nid, f"h{h}", "installed_in"))
        for a in range(n_arrays):
            d.links.append(Link(f"h{h}", f"a{a}", "storage"))
    for v in range(n_vms):
        h = v % n_hosts
        profile = PROFILES[v % len(PROFILES)]
        props: dict[str, Value] = {"workload.profile": profile, "workload.io_oio": 4 + v % 29}
        if profile == "web":
            props["workload.req_per_s"] = 20.0
        if profile == "netperf":
            props["workload.net_rx_mbps"] = 50.0
        ft = v % 97 == 0 and n_hosts > 1
        if ft:
            props["ft"] = True
            props["vcpus"] = 1
        d.components.append(Component(f"v{v}", "vm", f"vm{v:05d}", x=h * 220.0,
                                      y=80.0 + (v // n_hosts) * 20.0,
                                      props=props))
        d.links.append(Link(f"v{v}", f"h{h}", "runs_on"))
        d.links.append(Link(f"v{v}", f"a{v % n_arrays}", "disk_on"))
        if ft:
            d.links.append(Link(f"v{v}", f"h{(h + 1) % n_hosts}", "ft_secondary_on"))
    return d
