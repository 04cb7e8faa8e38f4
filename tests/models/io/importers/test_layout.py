"""Auto-layout of imported estates: sites apart, hosts apart, VMs under their host."""

from __future__ import annotations

from models.document.design import Component, Design, Link
from models.io.importers.layout import HOST_PITCH, auto_layout


def _estate() -> Design:
    d = Design()
    for s in ("s1", "s2"):
        d.components.append(Component(s, "site"))
    for i in range(20):
        hid = f"h{i}"
        d.components.append(Component(hid, "host", tags=[f"cluster-c{i // 10}"]))
        d.links.append(Link(hid, "s1" if i < 12 else "s2", "located_at"))
        d.components.append(Component(f"n{i}", "nic"))
        d.links.append(Link(f"n{i}", hid, "installed_in"))
        for k in range(7):
            vid = f"v{i}_{k}"
            d.components.append(Component(vid, "vm"))
            d.links.append(Link(vid, hid, "runs_on"))
    d.components.append(Component("a1", "storage_array"))
    d.links.append(Link("h0", "a1", "storage"))
    d.components.append(Component("lonely", "vm"))
    return d


def test_hosts_do_not_overlap_and_vms_sit_under_their_host() -> None:
    d = _estate()
    auto_layout(d)
    hosts = d.of_kind("host")
    spots = {(h.x, h.y) for h in hosts}
    assert len(spots) == len(hosts)
    by_id = {c.id: c for c in d.components}
    for lk in d.links:
        if lk.kind == "runs_on":
            vm, host = by_id[lk.source], by_id[lk.target]
            assert host.x <= vm.x < host.x + HOST_PITCH and vm.y > host.y
    all_spots = [(c.x, c.y) for c in d.components]
    assert len(set(all_spots)) == len(all_spots)


def test_sites_are_side_by_side_and_layout_is_deterministic() -> None:
    d1, d2 = _estate(), _estate()
    auto_layout(d1)
    auto_layout(d2)
    assert [(c.x, c.y) for c in d1.components] == [(c.x, c.y) for c in d2.components]
    by_id = {c.id: c for c in d1.components}
    s1_hosts = [by_id[lk.source].x for lk in d1.links
                if lk.kind == "located_at" and lk.target == "s1"]
    s2_hosts = [by_id[lk.source].x for lk in d1.links
                if lk.kind == "located_at" and lk.target == "s2"]
    assert max(s1_hosts) < min(s2_hosts)
    assert by_id["s2"].x <= min(s2_hosts)
    # the array sits under the site that reaches it, below that site's hosts
    assert by_id["a1"].y > max(by_id[f"h{i}"].y for i in range(12))
