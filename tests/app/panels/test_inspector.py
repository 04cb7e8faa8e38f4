"""The inspector shows the selection's properties and validates input as the user types."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.panels.inspector import Inspector
from app.window.main_window import MainWindow
from models.document.design import Component, Design, Link, Override


def make(qtbot: QtBot, design: Design) -> tuple[DesignDocument, Inspector]:
    doc = DesignDocument(design)
    inspector = Inspector(doc)
    qtbot.addWidget(inspector)
    inspector.show()
    qtbot.waitExposed(inspector)
    return doc, inspector


def test_shows_the_selected_component(qtbot: QtBot, nic_example: Design) -> None:
    doc, insp = make(qtbot, nic_example)
    assert not insp.fields
    doc.set_selection(["h1"])
    assert insp.title.text() == "Host: Dell R720"  # by name, not id
    edit = insp.field("sockets").edit
    assert edit is not None and edit.text() == "2"
    assert insp.field("sockets").toolTip().count("sockets")


def test_invalid_text_shows_an_inline_error_and_applies_nothing(qtbot: QtBot,
                                                                nic_example: Design) -> None:
    doc, insp = make(qtbot, nic_example)
    doc.set_selection(["h1"])
    f = insp.field("sockets")
    assert f.edit is not None
    f.edit.setFocus()
    f.edit.selectAll()
    qtbot.keyClicks(f.edit, "-4")
    assert f.has_error
    assert "whole number from 1" in f.error.text()
    qtbot.keyClick(f.edit, Qt.Key.Key_Return)
    assert doc.undo_stack.count() == 0
    f.edit.selectAll()
    qtbot.keyClicks(f.edit, "4")
    assert not f.has_error
    qtbot.keyClick(f.edit, Qt.Key.Key_Return)
    assert doc.value("id:h1", "sockets") == 4
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert f.edit.text() == "2"


def test_choice_and_bool_fields_edit_through_the_document(qtbot: QtBot,
                                                          nic_example: Design) -> None:
    doc, insp = make(qtbot, nic_example)
    doc.set_selection(["a1"])
    combo = insp.field("raid").combo
    assert combo is not None
    combo.activated.emit(combo.findText("RAID 10"))
    assert doc.value("id:a1", "raid") == "raid10"
    check = insp.field("sioc").check
    assert check is not None
    check.setFocus()
    qtbot.keyClick(check, Qt.Key.Key_Space)
    assert doc.value("id:a1", "sioc") is True
    assert doc.undo_stack.count() == 2


def test_multi_selection_edits_all_in_one_step(qtbot: QtBot, nic_example: Design) -> None:
    doc, insp = make(qtbot, nic_example)
    doc.set_selection(["v1", "v2", "v3"])
    assert "3 ×" in insp.title.text()
    f = insp.field("vcpus")
    assert f.edit is not None
    f.edit.setFocus()
    f.edit.selectAll()
    qtbot.keyClicks(f.edit, "2")
    qtbot.keyClick(f.edit, Qt.Key.Key_Return)
    assert [doc.value(f"id:v{i}", "vcpus") for i in (1, 2, 3, 4)] == [2, 2, 2, 1]
    assert doc.undo_stack.count() == 1


def test_two_selected_vms_edited_in_the_window_come_back_with_one_ctrl_z(
        qtbot: QtBot, nic_example: Design) -> None:
    window = MainWindow(DesignDocument(nic_example), remember_layout=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)  # Ctrl+Z is a window shortcut
    doc, insp = window.document, window.inspector
    before = [doc.value(f"id:v{i}", "workload.io_oio") for i in (1, 2, 3)]
    doc.set_selection(["v1", "v2"])
    f = insp.field("workload.io_oio")
    assert f.edit is not None
    f.edit.setFocus()
    f.edit.selectAll()
    qtbot.keyClicks(f.edit, "48")
    qtbot.keyClick(f.edit, Qt.Key.Key_Return)
    assert [doc.value(f"id:v{i}", "workload.io_oio") for i in (1, 2, 3)] == \
        [48, 48, before[2]]
    assert doc.undo_stack.count() == 1
    assert doc.undo_stack.command(0).childCount() == 0  # one command, not a macro of N
    window.view.setFocus()
    qtbot.keySequence(window, QKeySequence("Ctrl+Z"))
    assert [doc.value(f"id:v{i}", "workload.io_oio") for i in (1, 2, 3)] == before
    assert f.edit.text() == str(before[0])  # the inspector shows the restored value


def test_rename_through_the_name_field(qtbot: QtBot, nic_example: Design) -> None:
    doc, insp = make(qtbot, nic_example)
    doc.set_selection(["v1"])
    insp.name_edit.setFocus()
    insp.name_edit.selectAll()
    qtbot.keyClicks(insp.name_edit, "db01")
    qtbot.keyClick(insp.name_edit, Qt.Key.Key_Return)
    assert doc.value("id:v1", "name") == "db01"


def test_in_a_scenario_edits_become_overrides(qtbot: QtBot, nic_example: Design) -> None:
    doc, insp = make(qtbot, nic_example)
    doc.add_scenario("what-if")
    doc.set_scenario("what-if")
    doc.set_selection(["v1"])
    assert "what-if" in insp.title.text()
    f = insp.field("workload.io_oio")
    assert f.edit is not None
    f.edit.setFocus()
    f.edit.selectAll()
    qtbot.keyClicks(f.edit, "16")
    qtbot.keyClick(f.edit, Qt.Key.Key_Return)
    assert Override("id:v1", "workload.io_oio", 16) in doc.design.scenario("what-if").overrides
    doc.set_scenario("base")
    assert f.edit.text() != "16"


def test_shows_what_the_prediction_says(qtbot: QtBot, nic_example: Design) -> None:
    doc, insp = make(qtbot, nic_example)
    doc.set_selection(["a1"])
    assert insp.predicted.isVisible()
    assert "IOPS" in insp.predicted.text()
    doc.set_selection(["a1", "h1"])
    assert not insp.predicted.isVisible()


def test_fields_read_as_labels_and_a_vm_on_no_host_is_not_placed(qtbot: QtBot) -> None:
    design = Design(name="fresh", components=[Component("h1", "host", "esx-01"),
                                              Component("v1", "vm", "db-01")])
    doc, insp = make(qtbot, design)
    doc.set_selection(["v1"])
    form = insp.form
    labels = []
    for i in range(form.rowCount()):
        item = form.itemAt(i, form.ItemRole.LabelRole)
        widget = item.widget() if item is not None else None
        if isinstance(widget, QLabel):
            labels.append(widget.text())
    assert "vCPUs" in labels and "Memory" in labels and "Outstanding I/Os" in labels
    assert not [t for t in labels if "_" in t or t == t.lower()]
    doc.evaluate_now()
    assert insp.predicted.isVisibleTo(insp)
    assert "Not placed" in insp.predicted.text() and "CPU" not in insp.predicted.text()
    doc.add_link(Link("v1", "h1", "runs_on"))
    doc.evaluate_now()
    assert "Not placed" not in insp.predicted.text()


def test_the_canvas_tooltip_of_a_vm_on_no_host_says_so(qtbot: QtBot) -> None:
    from app.canvas.tooltips import component_tooltip  # noqa: PLC0415

    design = Design(name="fresh", components=[Component("h1", "host", "esx-01"),
                                              Component("v1", "vm", "db-01")])
    doc = DesignDocument(design)
    doc.evaluate_now()
    tip = component_tooltip(doc, "v1")
    assert "not placed" in tip and "CPU" not in tip


def test_a_hosts_processor_and_its_per_core_figure_show_with_their_source(
        qtbot: QtBot, nic_example: Design) -> None:
    """Typing a processor into the host's cpu_model changes what the Inspector says its cores
    are worth, with the SPEC figure and how many results it is the median of; undo restores
    the clock-only figure."""
    doc, insp = make(qtbot, nic_example)
    doc.set_selection(["h1"])
    f = insp.field("cpu_model")
    assert f.edit is not None
    f.edit.setFocus()
    f.edit.selectAll()
    qtbot.keyClicks(f.edit, "AMD EPYC 9354 32-Core Processor")
    qtbot.keyClick(f.edit, Qt.Key.Key_Return)
    text = insp.provenance.text()
    assert "AMD EPYC 9354, SPECrate2017_int_base" in text
    assert "SPEC CPU2017 results" in text and "x the reference core per core" in text
    doc.undo_stack.undo()
    assert "AMD EPYC 9354" not in insp.provenance.text()


def test_what_an_import_recorded_shows_only_where_it_did(qtbot: QtBot,
                                                         nic_example: Design) -> None:
    """A drawn host has no recorded usage, background or sources: those rows stay out of its
    form; a host an import recorded shows them, and selecting the drawn one hides them again."""
    nic_example.components.append(Component("h9", "host", "esx09", props={
        "measured.cpu_pct": 41.0, "provenance.measured": "vHost, RVTools"}))
    doc, insp = make(qtbot, nic_example)

    def shown(prop: str) -> bool:
        qtbot.wait(1)  # a row added to a shown form is shown by the event loop
        return insp.field(prop).isVisibleTo(insp)

    doc.set_selection(["h1"])
    assert not shown("measured.cpu_pct")
    assert shown("cpu_model")
    doc.set_selection(["h9"])
    assert shown("measured.cpu_pct")
    assert insp.field("measured.cpu_pct").edit.text() == "41"  # type: ignore[union-attr]
    assert not shown("background.cpu_cores")
    doc.set_selection(["h1"])
    assert not shown("measured.cpu_pct")


def test_a_refreshs_host_shows_read_only_as_the_scenarios_own(qtbot: QtBot) -> None:
    """In a refresh kept as a scenario the canvas shows its hosts: selected, the Inspector
    shows one's properties read-only and says they are the refresh's; a VM the base design
    holds stays editable there (as the scenario's override)."""
    from models.analysis.refresh import refresh, target  # noqa: PLC0415
    from tests.refresh_estate import estate  # noqa: PLC0415

    design = estate()
    rebuild = refresh(design, target("dell-r760", "Intel Xeon Gold 6548Y+", 1024)).rebuild
    doc, insp = make(qtbot, design)
    doc.add_scenario("R760", (), rebuild)
    doc.set_scenario("R760")
    host = next(c for c in rebuild.components if c.kind == "host")
    doc.set_selection([host.id])
    assert insp.title.text() == f"Host: {host.name} · scenario 'R760'"
    assert insp.note.isVisibleTo(insp)
    assert insp.note.text() == ("Part of the refresh ‘R760’: the scenario's own hardware,"
                                " shown read-only.")
    f = insp.field("cpu_model")
    assert f.edit is not None and f.edit.isReadOnly() and insp.name_edit.isReadOnly()
    assert not f.edit.hasFrame()  # looks like a value, not a field to type in
    pal = f.edit.palette()
    assert pal.color(pal.ColorRole.Base) == pal.color(pal.ColorRole.Window)
    assert f.edit.cursorPosition() == 0  # a long processor name shows its start
    assert f.edit.text() == host.props["cpu_model"] and f.edit.text()
    steps = doc.undo_stack.count()
    f.edit.setFocus()
    qtbot.keyClicks(f.edit, "AMD EPYC 9354")
    qtbot.keyClick(f.edit, Qt.Key.Key_Return)
    assert f.edit.text() == host.props["cpu_model"] and doc.undo_stack.count() == steps
    assert not insp.message.isVisibleTo(insp)
    doc.set_selection(["prod-v0"])  # the base design's VM: editable in the refresh
    assert not insp.note.isVisibleTo(insp)
    oio = insp.field("workload.io_oio")
    assert oio.edit is not None and not oio.edit.isReadOnly() and oio.edit.hasFrame()
    doc.set_selection([host.id])
    doc.set_scenario("base")  # not on the base design: nothing selected
    assert doc.selection == [] and insp.title.text().startswith("Nothing selected")


def test_a_processor_field_offers_the_catalogue_as_the_user_types(qtbot: QtBot,
                                                                   nic_example: Design) -> None:
    """Typing part of a model number ('6526') offers the catalogue's processors that hold it;
    picking one (Down, Return) sets the host's processor in one undo step."""
    doc, insp = make(qtbot, nic_example)
    doc.set_selection(["h1"])
    f = insp.field("cpu_model")
    assert f.edit is not None
    done = f.edit.completer()
    assert done is not None
    f.edit.setFocus()
    f.edit.selectAll()
    qtbot.keyClicks(f.edit, "6526")
    model = done.completionModel()
    offered = [model.index(i, 0).data() for i in range(model.rowCount())]
    assert offered == ["Intel Xeon Gold 6526Y"]
    popup = done.popup()
    assert popup is not None
    qtbot.waitUntil(popup.isVisible)
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert f.edit.text() == "Intel Xeon Gold 6526Y"
    assert doc.value("id:h1", "cpu_model") == "Intel Xeon Gold 6526Y"
    assert doc.undo_stack.count() == 1
    sockets = insp.field("sockets").edit
    assert sockets is not None and sockets.completer() is None  # only processors offered
    f.edit.setFocus()
    f.edit.selectAll()
    qtbot.keyClicks(f.edit, "Acme Turbo 9000")  # not in the catalogue: nothing offered
    assert not popup.isVisible()
    qtbot.keyClick(f.edit, Qt.Key.Key_Return)
    assert doc.value("id:h1", "cpu_model") == "Acme Turbo 9000"
    assert doc.undo_stack.count() == 2


def _vsan_design() -> Design:
    """Cluster c1 (no vSAN yet) of three hosts with devices, a VM on one; host h9 and VM v9
    in no cluster."""
    comps = [Component("c1", "cluster", "prod"), Component("h9", "host", "esx09"),
             Component("v1", "vm", "db01", props={"disk.used_gb": 500.0}),
             Component("v9", "vm", "loose")]
    links = [Link("v1", "h1", "runs_on"), Link("v9", "h9", "runs_on")]
    for i in (1, 2, 3):
        comps.append(Component(f"h{i}", "host", f"esx0{i}", props={
            "vsan.devices": 6, "vsan.device_tb": 3.84}))
        links.append(Link(f"h{i}", "c1", "in_cluster"))
    return Design(components=comps, links=links)


def test_vsan_fields_show_where_there_is_vsan(qtbot: QtBot) -> None:
    """A cluster without vSAN shows only the switch that turns it on; turned on (one undo
    step), its policy and reserves show, its hosts' devices (disk groups and cache on OSA
    only), its VMs' own policy; a VM elsewhere has no vSAN field; the cluster's predicted
    figures say usable, data, free, the policy's minimum and what sets its hosts."""
    doc, insp = make(qtbot, _vsan_design())

    def shown(prop: str) -> bool:
        qtbot.wait(1)  # a row added to a shown form is shown by the event loop
        return insp.field(prop).isVisibleTo(insp)

    doc.set_selection(["c1"])
    assert shown("vsan.architecture") and not shown("vsan.policy")
    assert not shown("vsan.compression") and not shown("vsan.thin")
    assert "vSAN" not in insp.predicted.text()
    combo = insp.field("vsan.architecture").combo
    assert combo is not None and combo.currentText() == "none"
    steps = doc.undo_stack.count()
    combo.activated.emit(combo.findData("esa"))
    assert doc.value("id:c1", "vsan.architecture") == "esa"
    assert doc.undo_stack.count() == steps + 1
    assert all(shown(p) for p in ("vsan.policy", "vsan.ftt", "vsan.compression",
                                  "vsan.operations_reserve_pct",
                                  "vsan.host_rebuild_reserve", "vsan.thin"))
    label = insp.form.labelForField(insp.field("vsan.compression"))
    assert isinstance(label, QLabel) and label.text() == "vSAN compression"
    doc.evaluate_now()
    text = insp.predicted.text()
    assert "vSAN ESA RAID 1 FTT 1" in text and "usable" in text and "free" in text
    assert "the policy at least 3 hosts (4 hosts recommended)" in text
    assert "3 hosts needed, set by" in text
    doc.set_selection(["h1"])
    assert shown("vsan.devices") and shown("vsan.device_tb")
    assert not shown("vsan.disk_groups") and not shown("vsan.cache_gb")  # ESA has none
    doc.set_value("id:c1", "vsan.architecture", "osa")
    assert shown("vsan.disk_groups") and shown("vsan.cache_gb")
    doc.set_selection(["v1"])
    assert shown("vsan.policy")
    doc.set_selection(["v9"])
    assert not shown("vsan.policy")
    doc.set_selection(["h9"])  # in no cluster, no devices of its own
    assert not shown("vsan.devices")
    doc.undo_stack.undo()
    doc.undo_stack.undo()  # vSAN off again
    doc.set_selection(["h1"])  # its devices are its own: they still show
    assert shown("vsan.devices") and not shown("vsan.disk_groups")
    doc.set_selection(["c1"])
    assert not shown("vsan.policy")


def test_a_long_value_reads_by_its_start_and_whole_on_hover(qtbot: QtBot, tmp_path: object
                                                             ) -> None:
    """At 1366x768 a host's processor as vCenter names it does not fit its field: the field
    shows its start and "…" (it read "Intel(R) Xeon(R) G", cut without a mark), its tooltip
    the whole value, and clicked it holds the whole value to edit."""
    from pathlib import Path  # noqa: PLC0415

    from PySide6.QtWidgets import QApplication  # noqa: PLC0415

    from models.io.importers.rvtools import import_rvtools  # noqa: PLC0415
    from tests.estates import estate, write_csv_folder  # noqa: PLC0415

    assert isinstance(tmp_path, Path)
    design = import_rvtools(write_csv_folder(tmp_path / "export", estate(3, 20, seed=3).sheets))[0]
    window = MainWindow(DesignDocument(design), remember_layout=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    host = design.of_kind("host")[0]
    window.document.set_selection([host.id])
    QApplication.processEvents()
    whole = str(host.get("cpu_model"))
    assert whole.startswith("Intel(R) Xeon(R) Gold CPU @ ")
    edit = window.inspector.fields["cpu_model"].edit
    assert edit is not None and edit.text() == whole
    shown = edit.shown_text()
    assert shown.endswith("…") and whole.startswith(shown[:-1])
    assert edit.toolTip().startswith(whole)
    edit.setFocus()
    qtbot.waitUntil(edit.hasFocus)
    assert edit.shown_text() == whole
