"""The layout: nothing overlaps, cards sit in their boxes, new items find room (no Qt)."""

from __future__ import annotations

import numpy as np
import pytest

from models.document.design import Component, Design, Link
from models.examples import bundled as examples
from models.examples.synth import large_design
from models.io.arrange import (
    arrange,
    arrange_in_place,
    free_spot,
    layout_rects,
    layout_styles,
    overlapping,
    overlaps,
    top_level_rects,
)
from models.io.placement import (
    BOXES,
    array_groups,
    box_around,
    cards,
    extent_zoom,
    holdings,
    rect_of,
)


def boxes(design: Design) -> dict[str, tuple[float, float, float, float]]:
    """Each container's box, drawn around what it holds (as the canvas draws it)."""
    held = holdings(design)
    cs = cards(design, held)
    by_id = {c.id: c for c in design.components}
    out = {}
    for bid, members in held.containers.items():
        box = box_around([rect_of(by_id[m], cs) for m in members], by_id[bid].kind)
        if box is not None:
            out[bid] = box
    return out


def inside(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return b[0] <= a[0] and b[1] <= a[1] and a[0] + a[2] <= b[0] + b[2] \
        and a[1] + a[3] <= b[1] + b[3]


@pytest.mark.parametrize("name", examples.names())
def test_every_bundled_example_arranges_without_overlap(name: str) -> None:
    design = arrange_in_place(examples.load(name))
    assert overlaps(design) == 0
    drawn = boxes(design)
    # sites side by side, not on top of each other; a stretched cluster's box (stretched-vsan)
    # is drawn around its hosts at both sites (as in the test above)
    site_of = {lk.source: lk.target for lk in design.links if lk.kind == "located_at"}
    spanning = {k for k, members in holdings(design).containers.items()
                if len({site_of[m] for m in members if m in site_of}) > 1}
    assert overlapping_boxes({k: v for k, v in drawn.items() if k not in spanning}) == 0
    assert arrange(design) == {c.id: (c.x, c.y) for c in design.components}  # stable


def overlapping_boxes(drawn: dict[str, tuple[float, float, float, float]]) -> int:
    import numpy as np  # noqa: PLC0415

    r = np.array([(x, y, x + w, y + h) for x, y, w, h in drawn.values()]).reshape(-1, 4)
    return len(overlapping(r))


def clustered() -> Design:
    """Two sites, three clusters (one stretched over both sites), hosts with VMs, a loose VM
    and an array every host reaches."""
    comps = [Component("a1", "storage_array"), Component("s1", "site"), Component("s2", "site"),
             Component("k1", "cluster"), Component("k2", "cluster"), Component("k3", "cluster"),
             Component("loose", "vm")]
    links = []
    for i in range(12):
        hid = f"h{i}"
        comps.append(Component(hid, "host"))
        links += [Link(hid, "s1" if i < 7 else "s2", "located_at"), Link(hid, "a1", "storage"),
                  Link(hid, "k1" if i < 4 else "k2" if i < 7 else "k3" if i < 10 else "k2",
                       "in_cluster")]
        for v in range(i % 5):
            comps.append(Component(f"v{i}_{v}", "vm"))
            links.append(Link(f"v{i}_{v}", hid, "runs_on"))
    return Design(components=comps, links=links)


def test_clusters_sit_in_their_site_and_the_sites_side_by_side() -> None:
    design = arrange_in_place(clustered())
    assert overlaps(design) == 0
    drawn = boxes(design)
    assert inside(drawn["k1"], drawn["s1"]) and inside(drawn["k3"], drawn["s2"])
    assert not inside(drawn["k2"], drawn["s1"])  # k2 spans both sites: the sites keep theirs
    assert overlapping_boxes({k: v for k, v in drawn.items() if k in ("s1", "s2")}) == 0
    a1 = design.component("a1")
    assert a1 is not None and a1.y < min(b[1] for b in drawn.values())  # the array above
    assert set(BOXES) == {"site", "cluster"}


def test_an_estate_of_ten_thousand_vms_arranges_in_one_pass() -> None:
    design = arrange_in_place(large_design(10000, 250))
    assert overlaps(design) == 0
    rects = layout_rects(design)
    width = max(x + w for x, _, w, _ in rects) - min(x for x, _, _, _ in rects)
    height = max(y + h for _, y, _, h in rects) - min(y for _, y, _, _ in rects)
    assert 1.0 < width / height < 6.0  # rows, not one line of 250 hosts


def test_a_new_item_goes_to_the_nearest_free_spot() -> None:
    design = arrange_in_place(examples.load("vaio-scaling"))
    host = design.component("h1")
    assert host is not None
    x, y = free_spot(design, (240.0, 64.0), (host.x, host.y))
    design.components.append(Component("a9", "storage_array", x=x, y=y))
    assert overlaps(design) == 0
    assert abs(x - host.x) + abs(y - host.y) < 2000  # near where it was dropped
    assert free_spot(Design(), (100.0, 40.0), (5.0, 7.0)) == (5.0, 7.0)


def estate_design(clusters: int = 4, hosts: int = 8, vms: int = 20, arrays: int = 4) -> Design:
    """``clusters`` clusters of ``hosts`` hosts running ``vms`` VMs each, at two sites, each
    cluster reaching ``arrays`` arrays of its own: an imported estate's shape."""
    comps = [Component("s1", "site", "DC1"), Component("s2", "site", "DC2")]
    links = []
    for k in range(clusters):
        comps.append(Component(f"k{k}", "cluster", f"Cluster{k}-Prod"))
        for a in range(arrays):
            comps.append(Component(f"a{k}_{a}", "storage_array", f"DS{k}{a}"))
        for h in range(hosts):
            hid = f"h{k}_{h}"
            comps.append(Component(hid, "host", f"esx{k}{h:02d}.corp.local"))
            links += [Link(hid, f"k{k}", "in_cluster"), Link(hid, f"s{k % 2 + 1}", "located_at")]
            links += [Link(hid, f"a{k}_{a}", "storage") for a in range(arrays)]
            for v in range(vms):
                comps.append(Component(f"v{k}_{h}_{v}", "vm"))
                links.append(Link(f"v{k}_{h}_{v}", hid, "runs_on"))
    return Design(components=comps, links=links)


def styled_boxes(design: Design) -> dict[str, tuple[float, float, float, float]]:
    """Each container's box as the canvas draws it: in the layout's styles, wide enough for
    its name."""
    held = holdings(design)
    cs = cards(design, held)
    styles = layout_styles(design, held, cs)
    by_id = {c.id: c for c in design.components}
    out: dict[str, tuple[float, float, float, float]] = {}
    for bid in sorted(held.containers, key=lambda b: by_id[b].kind == "site"):
        comp = by_id[bid]
        rects = [rect_of(by_id[m], cs) for m in held.containers[bid]]
        if comp.kind == "site":  # round the clusters wholly inside
            rects += [out[k] for k in out if set(held.containers[k]) <= set(held.containers[bid])]
        style = styles[comp.kind]
        box = box_around(rects, comp.kind, style, style.width_for(comp.name, comp.kind))
        if box is not None:
            out[bid] = box
    return out


def test_an_estates_boxes_and_array_groups_read_at_its_fit() -> None:
    design = arrange_in_place(estate_design())
    assert overlaps(design) == 0
    held = holdings(design)
    styles = layout_styles(design)
    zoom = extent_zoom(top_level_rects(design)[1])
    drawn = styled_boxes(design)
    clusters = {k: v for k, v in drawn.items() if k.startswith("k")}
    assert overlapping_boxes(clusters) == 0
    assert inside(drawn["k0"], drawn["s1"]) and inside(drawn["k1"], drawn["s2"])
    for bid, (_, _, w, _) in drawn.items():
        comp = design.component(bid)
        assert comp is not None
        style = styles[comp.kind]
        assert (style.head + style.pad - 6.0) * 0.8 * zoom >= 11.0 * 0.9  # the name reads
        assert w * zoom >= len(comp.name) * 0.8 * 13.0 * 0.9  # and has room
    groups = array_groups(design, held)
    assert len(groups) == 4 and all(len(g.arrays) == 4 for g in groups)
    by_id = {c.id: c for c in design.components}
    spans = []
    for g in groups:  # a group's arrays lie together, apart from the others, beside the site
        xs, ys = [by_id[a].x for a in g.arrays], [by_id[a].y for a in g.arrays]
        spans.append((min(xs) - 120, min(ys) - 32, max(xs) + 120, max(ys) + 32))
        (cluster,) = g.reach  # of the cluster it serves: at its right, level with it
        site = drawn[f"s{int(cluster[1:]) % 2 + 1}"]
        assert min(xs) - 120 >= site[0] + site[2]
        assert min(ys) - 32 < site[1] + site[3] and max(ys) + 32 > site[1]
    assert not overlapping(np.array(spans))
    for x, y, w, h in drawn.values():  # and outside every box
        assert not overlapping(np.array([*spans, (x, y, x + w, y + h)])) - set(range(len(spans)))
    assert arrange(design) == {c.id: (c.x, c.y) for c in design.components}  # stable


def test_overlaps_counts_cards_at_the_width_the_canvas_draws_them() -> None:
    """A design laid out before far-out cards were widened for their names: its cards at the
    old width overlap nothing, at the drawn width they do, and the open hint says so."""
    from models.io.placement import HOST_MIN_W, cards, holdings, host_widths  # noqa: PLC0415

    d = estate_design(clusters=6, hosts=12, vms=2)
    for c in d.of_kind("host"):
        c.name = f"esx-production-{c.id}-rack{c.id[-2:]}.corp.local"
    arrange_in_place(d)
    held = holdings(d)
    widths = host_widths(d, layout_styles(d, held))
    assert widths  # far out, these names need wider cards
    for i, c in enumerate(d.of_kind("host")):  # as an older layout packed them
        c.x, c.y = i * (HOST_MIN_W + 10.0), 0.0
    _, narrow = top_level_rects(d, held, cards(d, held))
    assert not len(overlapping(narrow))
    assert overlaps(d) > 0
