"""The dashboard shows what the prediction says, updates tiles in place, and shows deltas."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QResizeEvent
from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.panels.dashboard import Dashboard
from models.document import numbers as fmt
from models.document.design import Component, Design, Link
from models.document.studies import FT4, VAIO
from models.engine.kpis import KPI_BY_KEY, KPIS
from models.examples import bundled as examples


def make(qtbot: QtBot) -> tuple[DesignDocument, Dashboard]:
    doc = DesignDocument(examples.load(examples.DEFAULT_EXAMPLE))
    dash = Dashboard(doc)
    qtbot.addWidget(dash)
    return doc, dash


def test_tiles_show_the_prediction(qtbot: QtBot) -> None:
    doc, dash = make(qtbot)
    p = doc.prediction
    assert p is not None
    assert [k.key for k in KPIS] == list(dash.tiles)
    for kpi in KPIS:
        tile = dash.tiles[kpi.key]
        assert tile.value_label.text() == kpi.figure(p, short=True)
        after = kpi.after if kpi.value(p) is not None else ""  # "of a core" leads the line
        assert tile.detail_label.text() == "; ".join(
            t for t in (after, kpi.note(p, dash.name_of)) if t)
        assert not tile.delta_label.isVisibleTo(dash)
    c = p.consolidation
    assert c.binding == "cpu"
    assert dash.tiles["hosts_needed"].detail_label.text() == "binding limit: CPU"


def test_tooltips_name_the_study(qtbot: QtBot) -> None:
    _, dash = make(qtbot)
    assert VAIO.title in dash.tiles["mean_latency_ms"].toolTip()
    assert FT4.title in dash.tiles["ft_logging_mbps"].toolTip()
    for tile in dash.tiles.values():
        assert "Study behind it" in tile.toolTip()
        assert tile.accessibleName()


def test_tiles_update_in_place(qtbot: QtBot) -> None:
    doc, dash = make(qtbot)
    labels = {k: t.value_label for k, t in dash.tiles.items()}
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_value("vm", "workload.io_oio", 2)
    assert doc.prediction is not None
    for key, tile in dash.tiles.items():
        assert tile.value_label is labels[key]
        assert tile.value_label.text() == KPI_BY_KEY[key].figure(doc.prediction, short=True)


def test_scenario_shows_deltas_against_base(qtbot: QtBot) -> None:
    doc, dash = make(qtbot)
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_scenario("oio 32")
    assert doc.scenario == "oio 32"
    assert "oio 32" in dash.scenario_label.text()
    p, base = doc.prediction, doc.baseline
    assert p is not None and base is not None and p is not base
    for kpi in KPIS:
        tile = dash.tiles[kpi.key]
        assert tile.value_label.text() == kpi.figure(p, short=True)
        if kpi.value(p) is None and kpi.value(base) is None:  # nothing to compare
            assert not tile.delta_label.isVisibleTo(dash), kpi.key
            continue
        assert tile.delta_label.isVisibleTo(dash)
        assert tile.delta_label.text() == "vs base: " + fmt.delta(kpi.value(p), kpi.value(base),
                                                                  kpi.unit)
    assert not dash.tiles["library_min"].delta_label.isVisibleTo(dash)  # no libraries
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_scenario("base")
    assert all(not t.delta_label.isVisibleTo(dash) for t in dash.tiles.values())


def test_network_design_shows_throughput_and_no_storage_figures(qtbot: QtBot) -> None:
    """The 10GbE file-transfer testbed does no storage I/O: its latency tiles read as a dash
    ("0 ms" would claim excellent storage), and the network tile carries the figure."""
    doc = DesignDocument(examples.load("file-transfer-10g"))
    dash = Dashboard(doc)
    qtbot.addWidget(dash)
    p = doc.prediction
    assert p is not None and p.total_iops == 0
    for key in ("total_iops", "mean_latency_ms", "p95_latency_ms", "cpu_per_kiops"):
        assert dash.tiles[key].value_label.text() == fmt.NONE
        assert dash.tiles[key].detail_label.text() == "no storage I/O"
    assert dash.tiles["ft_latency_add_ms"].value_label.text() == fmt.NONE
    assert dash.tiles["p95_response_ms"].value_label.text() == fmt.NONE
    # tiles with nothing to measure step aside, so that the design's own figures lead
    assert dash.hidden == {"total_iops", "mean_latency_ms", "p95_latency_ms", "cpu_per_kiops",
                           "p95_response_ms", "ft_logging_mbps", "ft_latency_add_ms",
                           "wan_pct", "library_min", "licence_cost", "cluster_headroom",
                           "storage_used_pct", "vcpu_per_core", "memory_overcommit",
                           "vsan_free_tib"}
    # (licence cost: no price; the estate's figures: no clusters)
    assert all(not dash.tiles[k].isVisibleTo(dash) for k in dash.hidden)
    assert "Licence cost" not in dash.hidden_label.text()  # asked for, not missing
    first: Any = dash.grid.getItemPosition(dash.grid.indexOf(dash.tiles["network_gbps"]))
    assert tuple(first[:2]) == (0, 0)
    assert dash.hidden_label.isVisibleTo(dash)
    assert dash.hidden_label.text().startswith("Nothing to measure in this design: Total IOPS")
    assert "Cluster headroom" not in dash.hidden_label.text()  # an estate's, not missing here
    net = dash.tiles["network_gbps"]
    assert net.value_label.text() == fmt.with_unit(float(p.vms.net_gbps.sum()), "Gbit/s")
    assert net.value_label.text().startswith("5.8")
    nic = doc.component("n1")
    assert nic is not None and nic.name
    assert net.detail_label.text().startswith(f"busiest NIC {nic.name} at ")  # not its id
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_scenario("native")
    assert net.delta_label.text().startswith("vs base: +")  # bare metal: near line rate


def test_a_tile_comes_back_when_its_figure_appears(qtbot: QtBot) -> None:
    """Turning FT on in the storage testbed brings the FT tiles back; undo hides them; an
    empty design shows no tile but how to begin."""
    doc, dash = make(qtbot)
    assert "ft_logging_mbps" in dash.hidden and "total_iops" not in dash.hidden
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_values(["id:v1"], "ft", True)
    assert "ft_logging_mbps" not in dash.hidden
    assert dash.tiles["ft_logging_mbps"].isVisibleTo(dash)
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.undo_stack.undo()
    assert "ft_logging_mbps" in dash.hidden
    assert not dash.tiles["ft_logging_mbps"].isVisibleTo(dash)
    empty = Dashboard(DesignDocument(Design(name="empty")))
    qtbot.addWidget(empty)
    assert empty.hidden == set(empty.tiles) and not empty.hidden_label.isVisibleTo(empty)
    assert empty.empty_label.isVisibleTo(empty) and "Drag a host" in empty.empty_label.text()
    assert not dash.empty_label.isVisibleTo(dash)


def test_storage_design_has_no_network_figure(qtbot: QtBot) -> None:
    doc, dash = make(qtbot)
    assert doc.prediction is not None and doc.prediction.total_iops > 0
    assert dash.tiles["mean_latency_ms"].value_label.text().endswith(" ms")
    assert dash.tiles["network_gbps"].value_label.text() == fmt.NONE


def test_library_tile_names_the_slowest_job(qtbot: QtBot) -> None:
    doc = DesignDocument(examples.load("content-library"))
    dash = Dashboard(doc)
    qtbot.addWidget(dash)
    p = doc.prediction
    assert p is not None
    tile = dash.tiles["library_min"]
    assert tile.value_label.text() == fmt.with_unit(p.library_slowest_s / 60, "min") == "91.7 min"
    assert tile.detail_label.text() == "Branch 1 library 1 (sync), bound by WAN 100 Mbit/s"
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_value("content_library", "mirror_server", True)  # one WAN copy per site
    assert "vs base" not in tile.delta_label.text()  # an edit of base, not a scenario
    assert float(tile.value_label.text().split()[0]) < 91.7
    _, io = make(qtbot)
    assert io.tiles["library_min"].value_label.text() == fmt.NONE
    assert io.tiles["library_min"].detail_label.text() == "no library transfers"


def test_wan_tile_shows_the_busiest_inter_site_link(qtbot: QtBot) -> None:
    """The VDI branch: 80 PCoIP desktops use 34% of the 25 Mbit/s link; a scenario with more
    bandwidth per desktop raises it; a design without WAN links hides the tile."""
    doc = DesignDocument(examples.load("vdi-pcoip"))
    dash = Dashboard(doc)
    qtbot.addWidget(dash)
    p = doc.prediction
    assert p is not None
    wan = [r for r in p.resources if r.resource == "wan"]
    tile = dash.tiles["wan_pct"]
    assert tile.value_label.text() == fmt.with_unit(100 * max(r.util for r in wan), "%")
    assert tile.value_label.text().startswith("34.3")
    assert tile.detail_label.text().startswith("PCoIP of 80 desktops")
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_value("vm", "workload.pcoip_kbps", 400.0)
    assert float(tile.value_label.text().split()[0]) > 36.4
    _, io = make(qtbot)
    assert "wan_pct" in io.hidden


def test_delta_formatting() -> None:
    assert fmt.delta(12.0, 10.0, "ms") == "+2 ms (+20 %)"
    assert fmt.delta(5.0, 10.0, "ms") == "−5 ms (−50 %)"
    assert fmt.delta(43.15, 41.5, "%") == "+1.65 points (+4 %)"  # not "+1.65 % (+4 %)"
    assert fmt.delta(3.0, 3.0, "ms") == "no change"
    assert fmt.delta(75_000.00203, 75_000.0, "IOPS") == "no change"  # solver noise
    assert fmt.delta(27.3 - 7.39e-7, 27.3, "ms") == "no change"
    assert fmt.delta(74_983 - 2.28, 74_983, "IOPS") == "no change"  # below the resolution
    assert fmt.delta(75_100.0, 75_000.0, "IOPS").startswith("+100 IOPS")
    assert fmt.delta(None, 3.0) == fmt.NONE
    assert fmt.number(123456.7) == "123,457"
    assert fmt.number(0.01234) == "0.0123"
    assert fmt.number(4.0) == "4"
    assert fmt.si(123456.0) == "123k"
    assert fmt.percent(0.873) == "87.3 %"
    assert fmt.value(None) == fmt.MIXED
    assert fmt.value(True) == "on"
    assert fmt.value(0.9, "fraction") == "90 %"  # a CPU ceiling, not "0.9"
    assert fmt.with_unit(float("nan"), "ms") == fmt.NONE


def test_tiles_reflow_to_the_dock_width(qtbot: QtBot) -> None:
    _, dash = make(qtbot)
    tile = dash.tiles["hosts_needed"]
    dash.resizeEvent(QResizeEvent(QSize(340, 500), QSize(900, 300)))
    assert dash.columns == 2
    assert dash.tiles["hosts_needed"] is tile
    position: Any = dash.grid.getItemPosition(dash.grid.indexOf(tile))
    shown = [k.key for k in KPIS if k.key not in dash.hidden]  # the shown tiles, in order
    i = shown.index("hosts_needed")
    assert tuple(position[:2]) == (i // 2, i % 2)
    dash.resizeEvent(QResizeEvent(QSize(2000, 300), QSize(340, 500)))
    assert dash.columns == 4


def test_cpu_per_kiops_tile_is_the_iops_weighted_cost(qtbot: QtBot) -> None:
    doc, dash = make(qtbot)
    p = doc.prediction
    assert p is not None
    value = KPI_BY_KEY["cpu_per_kiops"].value(p)
    iops, cost = p.vms.iops, p.vms.cpu_cost_per_kiops
    assert value is not None and abs(value - (iops * cost).sum() / iops.sum()) < 1e-9
    tile = dash.tiles["cpu_per_kiops"]  # "2.7 % of a core per 1,000 IOPS" (was "% core")
    assert tile.title_label.text() == "CPU per 1,000 IOPS"
    assert tile.value_label.text().endswith(" %")
    assert tile.detail_label.text().startswith("of a core")
    assert KPI_BY_KEY["cpu_per_kiops"].text(value).endswith(" % of a core")
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.set_value("vm", "vaio_filter", "null")  # the filter costs 10-20% more per 1K IOPS
    after = KPI_BY_KEY["cpu_per_kiops"].value(doc.prediction) if doc.prediction else None
    assert after is not None and after == pytest.approx(value * 1.15)


def test_a_problem_with_an_obvious_fix_offers_it_and_one_click_applies_it(
        qtbot: QtBot) -> None:
    """A VM on no host is 'not placed'; the dashboard offers to place it on the host, applies
    it as one undo step, and the offer goes; a host whose storage links name another array
    than its VM's disk offers to connect it."""
    design = Design(name="fresh", components=[
        Component("h1", "host", "esx-01"), Component("a1", "storage_array", "array-1"),
        Component("v1", "vm", "db-01")], links=[Link("v1", "a1", "disk_on")])
    doc = DesignDocument(design)
    dash = Dashboard(doc)
    qtbot.addWidget(dash)
    assert [f.action for f in dash.fixes] == ["Place db-01 on esx-01"]
    assert dash.fix_label.isVisibleTo(dash)
    assert "db-01 is on no host" in dash.fix_label.text()
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        dash.fix_label.linkActivated.emit("0")
    assert Link("v1", "h1", "runs_on") in doc.design.links
    assert doc.undo_stack.undoText() == "Place db-01 on esx-01"
    qtbot.waitUntil(lambda: not dash.fixes)
    assert not dash.fix_label.isVisibleTo(dash)
    doc.add_components([Component("a2", "storage_array", "array-2")],
                       [Link("h1", "a2", "storage")])
    qtbot.waitUntil(lambda: bool(dash.fixes))
    assert [f.action for f in dash.fixes] == ["Connect esx-01 to array-1"]
    p = doc.evaluate_now()
    assert any("storage links name other arrays" in w for w in p.warnings)
    assert "host esx-01 runs VMs on array array-1" in dash.warnings_label.text()  # names
    doc.undo_stack.undo()
    qtbot.waitUntil(lambda: not dash.fixes)
    doc.undo_stack.undo()
    qtbot.waitUntil(lambda: [f.action for f in dash.fixes] == ["Place db-01 on esx-01"])


def test_host_tiles_show_the_mean_and_name_the_busiest_host() -> None:
    """Host CPU and memory: the mean over the hosts, the busiest host by name beneath (a
    single host is just named: its figure is the mean)."""
    from models.engine.evaluation import evaluate  # noqa: PLC0415
    from models.examples import synth  # noqa: PLC0415

    d = synth.large_design(40, 2)
    d.component("v0").props["vcpus"] = 8  # type: ignore[union-attr]
    p = evaluate(d)
    cpu, mem = KPI_BY_KEY["host_cpu_pct"], KPI_BY_KEY["host_memory_pct"]
    assert cpu.value(p) == pytest.approx(float(p.hosts.cpu_util.mean()) * 100)
    assert mem.value(p) == pytest.approx(float(p.hosts.memory_util.mean()) * 100)
    busy = int(p.hosts.cpu_util.argmax())
    names = {h: f"esx-{h}" for h in p.hosts.ids}
    assert KPI_BY_KEY["host_cpu_pct"].note(p, names.__getitem__) == (
        f"busiest esx-{p.hosts.ids[busy]} at"
        f" {fmt.percent(float(p.hosts.cpu_util[busy])).replace(' ', chr(0xA0))}")
    one = evaluate(examples.load("vaio-scaling"))
    assert KPI_BY_KEY["host_cpu_pct"].note(one, lambda h: "Dell R720") == "Dell R720"
    assert cpu.value(evaluate(Design(name="empty"))) is None
    assert KPI_BY_KEY["host_cpu_pct"].note(evaluate(Design(name="empty"))) == "no hosts"


def test_an_estate_shows_its_capacity_and_says_what_was_not_measured(qtbot: QtBot) -> None:
    from tests.models.engine.test_kpis import capacity_estate  # noqa: PLC0415

    doc = DesignDocument(capacity_estate(None))
    dash = Dashboard(doc)
    qtbot.addWidget(dash)
    p = doc.prediction
    cap = p.sections.capacity if p is not None else None
    assert p is not None and cap is not None
    for key in ("cluster_headroom", "vcpu_per_core", "memory_overcommit", "storage_used_pct"):
        assert key not in dash.hidden and dash.tiles[key].isVisibleTo(dash)
        assert dash.tiles[key].value_label.text() == KPI_BY_KEY[key].figure(p, short=True)
    assert dash.tiles["vcpu_per_core"].value_label.text() == fmt.number(cap.vcpu_per_core)
    storage = dash.tiles["storage_used_pct"]
    assert storage.value_label.text() == fmt.NOT_MEASURED != "0 %"
    assert "capacity not measured" in storage.detail_label.text()
    assert "Storage capacity" not in dash.hidden_label.text()
    before = dash.tiles["memory_overcommit"].value_label.text()
    with qtbot.waitSignal(doc.prediction_updated):
        doc.set_value("host", "memory_gb", 512.0)  # twice the memory installed
    memory = dash.tiles["memory_overcommit"]  # "memory 39 % allocated of installed"
    assert memory.title_label.text() == "Memory allocated"
    assert memory.value_label.text() == fmt.with_unit(100 * 800 / 2048, "%")
    assert memory.detail_label.text().startswith("of installed")
    with qtbot.waitSignal(doc.prediction_updated):
        doc.undo_stack.undo()
    assert dash.tiles["memory_overcommit"].value_label.text() == before


def test_the_busiest_host_is_named_without_the_domain_every_host_shares(qtbot: QtBot) -> None:
    """'busiest esx1 at ...', as the canvas names it, not 'esx1.corp.local'."""
    from models.examples import synth  # noqa: PLC0415

    d = synth.large_design(40, 2)
    for i, h in enumerate(d.of_kind("host")):
        h.name = f"esx{i}.corp.local"
    doc = DesignDocument(d)
    dash = Dashboard(doc)
    qtbot.addWidget(dash)
    line = dash.tiles["host_cpu_pct"].detail_label.text()
    assert line.startswith("busiest esx") and "corp.local" not in line
    assert dash.name_of(d.of_kind("host")[0].id) == "esx0"
