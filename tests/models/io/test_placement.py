"""Card geometry: what a host card holds and where (no Qt)."""

from __future__ import annotations

import itertools

import pytest

from models.document.design import Component, Design, Link
from models.io.placement import (
    HEAD_H,
    NIC_H,
    NIC_W,
    VM_H,
    VM_W,
    box_around,
    card,
    docked_positions,
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
