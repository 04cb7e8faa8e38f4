"""Card geometry: what a host card holds and where (no Qt)."""

from __future__ import annotations

import itertools

import pytest

from models.document.design import Component, Design, Link
from models.io.placement import (
    BOXES,
    CAPTION_PX,
    COUNT_SHARE,
    HEAD_H,
    NIC_H,
    NIC_W,
    TITLE_SHARE,
    VM_H,
    VM_W,
    array_groups,
    box_around,
    box_styles,
    card,
    docked_positions,
    group_title,
    holdings,
    vm_columns,
)


def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize(("nics", "vms"), [(0, 0), (1, 1), (2, 16), (4, 470), (9, 3)])
def test_a_card_holds_its_chips_and_pills_apart_and_inside(nics: int, vms: int) -> None:
    c = card(nics, vms)
    x0, y0, w, h = c.rect
    assert y0 == -HEAD_H / 2  # the host's position is its header's centre
    chips = [(x - NIC_W / 2, y - NIC_H / 2, NIC_W, NIC_H)
             for x, y in (c.nic_offset(i) for i in range(nics))]
    pills = [(x - VM_W / 2, y - VM_H / 2, VM_W, VM_H)
             for x, y in (c.vm_offset(i) for i in range(vms))]
    for r in chips + pills:
        assert x0 <= r[0] and r[0] + r[2] <= x0 + w and y0 + HEAD_H <= r[1]
        assert r[1] + r[3] <= y0 + h
    assert not any(overlap(a, b) for a, b in itertools.combinations(chips + pills, 2))
    if chips and pills:
        assert max(r[1] + r[3] for r in chips) < min(r[1] for r in pills)  # chips, then VMs


def test_the_vm_grid_is_wider_than_tall_and_a_slot_finds_its_vm() -> None:
    assert [vm_columns(n) for n in (0, 1, 2, 4, 16, 470)] == [0, 1, 1, 2, 3, 15]
    c = card(2, 470)
    ax, ay, aw, ah = c.vm_area
    assert aw > ah
    for i in (0, 14, 15, 469):
        x, y = c.vm_offset(i)
        assert c.vm_at(x, y) == i
    assert c.vm_at(ax - 1, ay) is None and c.vm_at(*c.nic_offset(0)) is None
    rows = c.vm_range(ax, ay + 30, ax + 10, ay + 60)
    assert rows is not None and list(rows) == [1, 2]


def test_holdings_and_docked_positions_follow_the_links() -> None:
    d = Design(components=[Component("h1", "host", x=100, y=50),
                           Component("h2", "host", x=900, y=50),
                           Component("s1", "site"),
                           Component("n1", "nic"), *(Component(f"v{i}", "vm") for i in range(5))],
               links=[Link("n1", "h1", "installed_in"), Link("h1", "s1", "located_at"),
                      *(Link(f"v{i}", "h1" if i < 3 else "h2", "runs_on") for i in range(5))])
    held = holdings(d)
    assert held.vms == {"h1": ["v0", "v1", "v2"], "h2": ["v3", "v4"]}
    assert held.nics == {"h1": ["n1"], "h2": []}
    assert held.containers == {"s1": ["h1"]} and held.member_of == {"h1": ["s1"]}
    at = docked_positions(d, held)
    c1, c2 = card(1, 3), card(0, 2)
    assert at["v1"] == (100 + c1.vm_offset(1)[0], 50 + c1.vm_offset(1)[1])
    assert at["v4"] == (900 + c2.vm_offset(1)[0], 50 + c2.vm_offset(1)[1])
    assert at["n1"] == (100 + c1.nic_offset(0)[0], 50 + c1.nic_offset(0)[1])
    moved = docked_positions(d, held, {"h2": (0.0, 0.0)})
    assert moved["v4"] == c2.vm_offset(1)


def test_a_box_surrounds_what_it_holds_with_room_for_its_name() -> None:
    box = box_around([(0.0, 0.0, 100.0, 50.0), (200.0, 100.0, 100.0, 50.0)], "site")
    assert box is not None
    x, y, w, h = box
    assert x < 0 and y < -20 and x + w > 300 and y + h > 150
    inner = box_around([(0.0, 0.0, 100.0, 50.0)], "cluster")
    assert inner is not None and inner[0] > x and inner[1] > y  # a cluster fits in a site
    assert box_around([], "site") is None


def storage_estate(arrays_a: int = 5, arrays_b: int = 3) -> Design:
    """Two clusters of three hosts; ``arrays_a`` arrays reached by the first cluster's hosts,
    ``arrays_b`` by the second's, one by both, one by none."""
    comps = [Component("k1", "cluster", "Gold"), Component("k2", "cluster", "Silver")]
    links = []
    for h in range(6):
        comps.append(Component(f"h{h}", "host", f"esx{h:02d}.corp.local"))
        links.append(Link(f"h{h}", "k1" if h < 3 else "k2", "in_cluster"))
    for i in range(arrays_a + arrays_b + 2):
        comps.append(Component(f"a{i}", "storage_array", f"DS{i:02d}"))
        reach = range(3) if i < arrays_a else range(3, 6) if i < arrays_a + arrays_b else \
            range(6) if i == arrays_a + arrays_b else ()
        links += [Link(f"h{h}", f"a{i}", "storage") for h in reach]
    return Design(components=comps, links=links)


def test_arrays_the_same_clusters_reach_are_one_group() -> None:
    groups = array_groups(storage_estate())
    assert [(g.reach, len(g.arrays)) for g in groups] == [(("k1",), 5), (("k2",), 3)]
    assert [group_title(g, {"k1": "Gold", "k2": "Silver"}.__getitem__) for g in groups] == \
        ["Gold", "Silver"]  # the array both reach and the one none reaches stand alone
    assert array_groups(storage_estate(2, 2)) == []  # a testbed's few arrays: no groups


def test_box_names_get_a_band_that_reads_at_the_fit_of_an_estate() -> None:
    testbed, estate = box_styles(0.41), box_styles(0.05)
    assert testbed == BOXES  # a testbed keeps its layout
    for kind, style in estate.items():
        band = style.head + style.pad - 6.0
        assert band * TITLE_SHARE * 0.05 >= CAPTION_PX[kind] - 0.5  # the name, in pixels
        assert band * COUNT_SHARE * 0.05 >= 11.0 - 0.5  # the count beside it
        assert style.width_for("CL02-DMZ", kind) * 0.05 >= 8 * 0.8 * CAPTION_PX[kind]
    wide = box_around([(0.0, 0.0, 100.0, 50.0)], "cluster", estate["cluster"], 900.0)
    assert wide is not None and wide[2] == 900.0
