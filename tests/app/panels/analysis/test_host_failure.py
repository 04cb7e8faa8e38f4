"""Host failure (N+1): one table row per host and what breaks."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.app.panels.analysis.windows import SLOW_MS, make, menu_action


def test_host_failure_table_lists_every_host(qtbot: QtBot) -> None:
    window = make(qtbot, "dense-web-farm")
    tab = window.analysis.host_failure
    with qtbot.waitSignal(tab.failure_finished, timeout=SLOW_MS) as blocker:
        menu_action(window, "Host Failure")
    report = blocker.args[0]
    hosts = window.document.design.of_kind("host")
    assert tab.failure_table.rowCount() == len(report.failures) == len(hosts)
    item = tab.failure_table.item(0, 5)  # one host: nowhere to restart
    assert item is not None and "cannot restart" in item.text()
    after = tab.failure_table.item(0, 4)
    assert after is not None and after.text() == "no host left"
    assert tab.failure_summary.text().startswith("Does NOT survive")


def test_cancelled_host_failure_shows_nothing(qtbot: QtBot) -> None:
    window = make(qtbot, "dense-web-farm")
    tab = window.analysis.host_failure
    tab.run_failure()
    assert tab.failure_cancel.isEnabled() and not tab.failure_button.isEnabled()
    qtbot.mouseClick(tab.failure_cancel, Qt.MouseButton.LeftButton)
    assert tab.failure_summary.text() == "Cancelled." and tab.failure_button.isEnabled()
    window.analysis.shutdown()
    assert tab.failure_report is None and tab.failure_table.rowCount() == 0


def test_the_table_names_hosts_whole_fails_each_site_and_shows_the_hosts_after(
        qtbot: QtBot) -> None:
    window = make(qtbot, "stretched-vsan")
    tab = window.analysis.host_failure
    with qtbot.waitSignal(tab.failure_finished, timeout=SLOW_MS) as blocker:
        menu_action(window, "Host Failure")
    report = blocker.args[0]
    table = tab.failure_table
    names = [table.item(i, 0).text() for i in range(table.rowCount())]  # type: ignore[union-attr]
    assert names[-2:] == ["site Preferred site (5 hosts)", "site Secondary site (4 hosts)"]
    assert "esx01" in names
    metrics = table.fontMetrics()
    assert all(metrics.horizontalAdvance(n) <= table.columnWidth(0) for n in names)  # whole
    assert "site failure" in tab.failure_summary.text()
    busiest = table.item(0, 4)
    assert busiest is not None and "CPU" in busiest.text() and "memory" in busiest.text()
    table.selectRow(len(names) - 2)  # the preferred site fails: the other site takes its VMs
    hosts = tab.hosts_table
    site = report.failures[len(names) - 2]
    assert hosts.rowCount() == len(site.vms_after) == 4
    first = [hosts.item(0, j).text() for j in range(4)]  # type: ignore[union-attr]
    before, after = first[1].split(" → ")
    assert int(after) > int(before) and first[0] in {"esx06", "esx07", "esx08", "esx09"}
    assert "Preferred site" in tab.hosts_label.text()


def test_the_policy_line_names_p95_only_where_a_response_bears_on_it(qtbot: QtBot) -> None:
    """An estate measured for CPU and memory has no latency to hold to a p95 ceiling: the
    summary's policy names CPU and memory; a design with storage I/O names p95 too."""
    from tests.models.subsystems.test_capacity import farm  # noqa: PLC0415

    window = make(qtbot, farm(n_hosts=3, n_vms=12, vm_pct=2.0))
    tab = window.analysis.host_failure
    qtbot.waitUntil(lambda: window.document.prediction is not None)
    with qtbot.waitSignal(tab.failure_finished, timeout=SLOW_MS):
        menu_action(window, "Host Failure")
    text = tab.failure_summary.text()
    assert "Policy: CPU <=" in text and "memory <=" in text and "p95" not in text
    cell = tab.failure_table.item(0, 5)
    assert cell is not None and cell.text() == "nothing"
    io = make(qtbot, "vaio-scaling")
    tab = io.analysis.host_failure
    qtbot.waitUntil(lambda: io.document.prediction is not None)
    with qtbot.waitSignal(tab.failure_finished, timeout=SLOW_MS):
        menu_action(io, "Host Failure")
    assert "p95 <=" in tab.failure_summary.text()


def test_the_what_breaks_header_stays_whole_beside_a_long_busiest_host(qtbot: QtBot) -> None:
    """The busiest host's figures give way (elided at BUSIEST_MAX, whole in the tooltip and
    the table below); the stretched "What breaks" column never shrinks under its header."""
    from app.panels.analysis.host_failure import BUSIEST, BUSIEST_MAX  # noqa: PLC0415

    window = make(qtbot, "stretched-vsan")
    tab = window.analysis.host_failure
    window.analysis.resize(600, 400)
    with qtbot.waitSignal(tab.failure_finished, timeout=SLOW_MS):
        menu_action(window, "Host Failure")
    table = tab.failure_table
    header = table.horizontalHeader()
    last = table.columnCount() - 1
    assert table.columnWidth(BUSIEST) <= BUSIEST_MAX
    assert header.sectionSize(last) >= header.sectionSizeFromContents(last).width()
    busiest = table.item(0, BUSIEST)
    assert busiest is not None and busiest.toolTip() == busiest.text()


def test_the_failing_host_is_the_first_row_and_the_table_shows_its_rows(
        qtbot: QtBot) -> None:
    """Of three hosts, only the failure of the third (the large one, with most VMs) breaks
    policy: it is row 0, selected, with the surviving hosts under it (issue 39: the table
    showed three rows with the failing host not first)."""
    from models.document.design import Link  # noqa: PLC0415
    from tests.models.subsystems.test_capacity import farm  # noqa: PLC0415

    design = farm(n_hosts=3, n_vms=12, vm_pct=30.0, cluster={})
    for c in design.components:
        if c.id in ("h0", "h1"):
            c.props.update(sockets=1, cores_per_socket=4)
    design.links = [Link(lk.source, {"v0": "h0", "v1": "h1"}.get(lk.source, "h2"), lk.kind)
                    if lk.kind == "runs_on" else lk for lk in design.links]
    window = make(qtbot, design)
    tab = window.analysis.host_failure
    qtbot.waitUntil(lambda: window.document.prediction is not None)
    with qtbot.waitSignal(tab.failure_finished, timeout=SLOW_MS) as blocker:
        menu_action(window, "Host Failure")
    report = blocker.args[0]
    assert [f.host for f in report.failures] == ["h0", "h1", "h2"]  # the design's order
    table = tab.failure_table
    assert table.item(0, 0).text() == window.document.name_of("h2")  # type: ignore[union-attr]
    assert table.item(0, 3).text() == str(len(report.failures[2].new_breaches))  # type: ignore[union-attr]
    assert table.item(1, 3).text() == table.item(2, 3).text() == "0"  # type: ignore[union-attr]
    assert "h2" not in tab.hosts_table.item(0, 0).text()  # type: ignore[union-attr]
    assert tab.hosts_table.rowCount() == 2  # the selected (first) failure's survivors
    rows = table.verticalHeader()
    assert rows.defaultSectionSize() <= table.fontMetrics().height() + 6  # compact rows
