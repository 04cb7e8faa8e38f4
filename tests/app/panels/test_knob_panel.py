"""The knob panel drives the document the way a user does: sliders, combo boxes, check boxes."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QSlider
from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.panels.dashboard import Dashboard
from app.panels.knob_panel import KnobPanel, KnobRow
from models.document import numbers as fmt
from models.document.knobs import knob, knobs_for
from models.engine.kpis import KPI_BY_KEY
from models.examples import bundled as examples

OIO = "vm.workload.io_oio"


def make(qtbot: QtBot) -> tuple[DesignDocument, KnobPanel, Dashboard]:
    doc = DesignDocument(examples.load(examples.DEFAULT_EXAMPLE))
    panel = KnobPanel(doc)
    dash = Dashboard(doc)
    qtbot.addWidget(panel)
    qtbot.addWidget(dash)
    return doc, panel, dash


def slider_of(row: KnobRow) -> QSlider:
    assert row.slider is not None
    return row.slider


def test_every_applicable_knob_has_a_labelled_control(qtbot: QtBot) -> None:
    doc, panel, _ = make(qtbot)
    assert list(panel.rows) == [k.path for k in knobs_for(doc.design)]
    for path, row in panel.rows.items():
        k = knob(path)
        assert k is not None
        assert row.control.accessibleName().startswith(k.label)
        assert k.source in row.control.toolTip()
        assert row.caption.text() == k.source
        if k.spec.type == "bool":
            assert isinstance(row.control, QCheckBox)
        elif k.choices is not None:
            assert isinstance(row.control, QComboBox)
        else:
            assert isinstance(row.control, QSlider)
        assert row.control.focusPolicy() == Qt.FocusPolicy.StrongFocus


def test_the_main_workload_group_comes_first(qtbot: QtBot) -> None:
    """A library design leads with its Content Library knobs, a netperf pair with Network,
    a storage testbed with Storage; within a group the registry's order holds."""
    from PySide6.QtWidgets import QGroupBox  # noqa: PLC0415

    for example, first in (("content-library", "Content Library"), ("ft-netperf", "Network"),
                           ("vaio-scaling", "Storage")):
        doc = DesignDocument(examples.load(example))
        panel = KnobPanel(doc)
        qtbot.addWidget(panel)
        content = panel.scroll_area.widget()
        assert content is not None
        boxes = [b.title() for b in content.findChildren(QGroupBox)]
        assert boxes[0] == first, example
        assert sorted(panel.rows) == sorted(k.path for k in knobs_for(doc.design))
        ours = [p for p in panel.rows if (k := knob(p)) is not None and k.group == first]
        assert ours == [k.path for k in knobs_for(doc.design) if k.group == first]


def test_values_and_units_are_shown(qtbot: QtBot) -> None:
    doc, panel, _ = make(qtbot)
    row = panel.row(OIO)
    assert row.value_label.text() == fmt.value(doc.value("vm", "workload.io_oio"), "I/Os")
    assert row.value_label.text() == "128 I/Os"


def test_slider_move_reaches_the_latency_tile_and_undo_restores_it(qtbot: QtBot) -> None:
    doc, panel, dash = make(qtbot)
    tile = dash.tiles["mean_latency_ms"]
    before_text = tile.value_label.text()
    before_value = doc.value("vm", "workload.io_oio")
    slider = slider_of(panel.row(OIO))
    start = slider.value()
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        slider.setValue(start // 4)
    assert doc.value("vm", "workload.io_oio") != before_value
    assert doc.prediction is not None
    assert tile.value_label.text() == KPI_BY_KEY["mean_latency_ms"].figure(doc.prediction)
    assert dash.tiles["total_iops"].value_label.text() == \
        KPI_BY_KEY["total_iops"].figure(doc.prediction)
    assert panel.row(OIO).value_label.text() == \
        fmt.value(doc.value("vm", "workload.io_oio"), "I/Os")
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        doc.undo_stack.undo()
    assert doc.value("vm", "workload.io_oio") == before_value
    assert tile.value_label.text() == before_text
    assert slider.value() == start


def test_a_drag_is_one_undo_step_and_two_drags_are_two(qtbot: QtBot) -> None:
    doc, panel, _ = make(qtbot)
    slider = slider_of(panel.row(OIO))
    start = slider.value()
    for target in (start - 60, start - 120):
        slider.setSliderDown(True)  # press: a new gesture
        for pos in range(slider.value() - 1, target, -7):
            slider.setValue(pos)
        slider.setSliderDown(False)
    assert doc.undo_stack.count() == 2
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.value("vm", "workload.io_oio") == 128


def test_keyboard_moves_the_slider(qtbot: QtBot) -> None:
    doc, panel, _ = make(qtbot)
    slider = slider_of(panel.row(OIO))
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000):
        qtbot.keyClick(slider, Qt.Key.Key_PageDown)
        qtbot.keyClick(slider, Qt.Key.Key_PageDown)
    value = doc.value("vm", "workload.io_oio")
    assert isinstance(value, int) and value < 128
    assert doc.undo_stack.count() == 1


def test_combo_and_check_box_edit_the_document(qtbot: QtBot) -> None:
    doc, panel, _ = make(qtbot)
    combo = panel.row("vm.vscsi").control
    assert isinstance(combo, QComboBox)
    index = combo.findData("lsi_sas")
    assert index >= 0
    combo.setCurrentIndex(index)
    combo.activated.emit(index)
    assert doc.value("vm", "vscsi") == "lsi_sas"
    check = panel.row("vm.ft").control
    assert isinstance(check, QCheckBox)
    check.click()
    assert doc.value("vm", "ft") is True
    doc.undo_stack.undo()
    assert doc.value("vm", "ft") is False
    assert not check.isChecked()
    doc.undo_stack.undo()
    assert combo.currentData() == "pvscsi"


def test_mixed_values_read_mixed(qtbot: QtBot) -> None:
    doc, panel, _ = make(qtbot)
    doc.set_value("id:v1", "workload.io_oio", 4)
    doc.set_value("id:v2", "vscsi", "lsi_sas")
    assert panel.row(OIO).value_label.text() == fmt.MIXED
    combo = panel.row("vm.vscsi").control
    assert isinstance(combo, QComboBox)
    assert combo.currentIndex() == -1
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert panel.row(OIO).value_label.text() == "128 I/Os"


def test_a_mixed_slider_stands_where_most_components_stand(qtbot: QtBot) -> None:
    """Mixed values ('mixed' on the label) left the handle where it was, at the slider's
    start on an imported estate: a click there set every host to one core.  It stands at
    the value most components hold."""
    design = examples.load(examples.DEFAULT_EXAMPLE)
    design.of_kind("vm")[0].props["workload.io_oio"] = 4  # 15 VMs at 128, one at 4
    doc = DesignDocument(design)
    panel = KnobPanel(doc)
    qtbot.addWidget(panel)
    row = panel.row(OIO)
    assert row.value_label.text() == fmt.MIXED
    assert row.mapping is not None
    assert row.mapping.to_value(slider_of(row).value()) == 128
    assert doc.value("vm", "workload.io_oio") is None and doc.typical("vm",
                                                                     "workload.io_oio") == 128


def test_selection_filters_knobs_and_targets_the_selected(qtbot: QtBot) -> None:
    doc, panel, _ = make(qtbot)
    doc.set_selection(["a1"])
    qtbot.waitUntil(lambda: "storage_array.disks" in panel.rows and OIO not in panel.rows)
    assert all(p.startswith("storage_array.") for p in panel.rows)
    row = panel.row("storage_array.disks")
    assert row.selects == ["id:a1"]
    slider = slider_of(row)
    slider.setValue(slider.maximum())
    assert doc.value("id:a1", "disks") == 500
    doc.set_selection(["v1", "v2"])
    qtbot.waitUntil(lambda: OIO in panel.rows)
    assert panel.row(OIO).selects == ["id:v1", "id:v2"]
    count = doc.undo_stack.count()
    slider_of(panel.row(OIO)).setValue(0)
    assert doc.undo_stack.count() == count + 1  # both VMs in one step
    assert doc.value("id:v1", "workload.io_oio") == doc.value("id:v2", "workload.io_oio") == 1
    assert doc.value("id:v3", "workload.io_oio") == 128
    doc.set_selection([])
    qtbot.waitUntil(lambda: "design.policy.cpu_util_max" in panel.rows)
    assert panel.row(OIO).selects == ["vm"]
    assert panel.row(OIO).value_label.text() == fmt.MIXED


def test_scenario_edits_go_to_the_scenario(qtbot: QtBot) -> None:
    doc, panel, _ = make(qtbot)
    doc.set_scenario("oio 32")
    assert panel.row(OIO).value_label.text() == "32 I/Os"
    doc.set_scenario("base")
    assert panel.row(OIO).value_label.text() == "128 I/Os"


def test_a_drag_over_a_multi_selection_is_one_undo_step(qtbot: QtBot) -> None:
    doc, panel, _ = make(qtbot)
    doc.set_selection(["v1", "v2"])
    qtbot.waitUntil(lambda: OIO in panel.rows and panel.row(OIO).selects == ["id:v1", "id:v2"])
    slider = slider_of(panel.row(OIO))
    count = doc.undo_stack.count()
    slider.setSliderDown(True)
    for pos in range(slider.value() - 1, slider.value() - 60, -7):
        slider.setValue(pos)
    slider.setSliderDown(False)
    assert doc.undo_stack.count() == count + 1
    moved = doc.value("id:v1", "workload.io_oio")
    assert moved == doc.value("id:v2", "workload.io_oio") != 128
    doc.undo_stack.undo()
    assert doc.value("id:v1", "workload.io_oio") == doc.value("id:v2", "workload.io_oio") == 128
    doc.undo_stack.redo()
    assert doc.value("id:v1", "workload.io_oio") == moved


def test_the_null_filter_reads_as_a_filter_not_a_missing_value(qtbot: QtBot) -> None:
    """The VAIO study's 'null' filter passes I/O through; the combo says so and still sets
    the value 'null'."""
    doc, panel, _ = make(qtbot)
    combo = panel.rows["vm.vaio_filter"].combo
    assert combo is not None
    i = combo.findData("null")
    assert combo.itemText(i) == "null filter (pass-through)"
    combo.setCurrentIndex(i)
    combo.activated.emit(i)
    assert doc.value("vm", "vaio_filter") == "null"
    assert panel.rows["vm.vaio_filter"].value_label.text() == "null filter (pass-through)"
    assert fmt.choice("raid", "raid5") == "RAID 5" and fmt.choice("x", 3.0, "ms") == "3 ms"


def test_an_estate_shows_web_knobs_only_once_it_has_a_web_vm(qtbot: QtBot) -> None:
    from tests.models.document.test_knobs import WEB_KNOBS, estate  # noqa: PLC0415

    doc = DesignDocument(estate())
    panel = KnobPanel(doc)
    qtbot.addWidget(panel)
    assert "host.cores_per_socket" in panel.rows and not WEB_KNOBS & set(panel.rows)
    doc.set_value("id:v0", "workload.profile", "web")  # one VM now serves requests
    qtbot.waitUntil(lambda: set(panel.rows) >= WEB_KNOBS)
    doc.undo_stack.undo()
    qtbot.waitUntil(lambda: not WEB_KNOBS & set(panel.rows))
    doc.undo_stack.redo()
    qtbot.waitUntil(lambda: set(panel.rows) >= WEB_KNOBS)


def test_the_vsan_knobs_move_the_hosts_a_vsan_cluster_needs(qtbot: QtBot) -> None:
    """On the vSAN example the vSAN group offers the policy, FTT, compression and devices:
    RAID 1 from the combo needs a host more (vSAN storage binds), fewer devices from the
    slider more hosts again, each one undo step; a cluster without vSAN has no such group
    until vsan.architecture turns it on."""
    from tests.models.document.test_knobs import VSAN_KNOBS, estate  # noqa: PLC0415

    doc = DesignDocument(examples.load("vsan-esa"))
    panel = KnobPanel(doc)
    dash = Dashboard(doc)
    qtbot.addWidget(panel)
    qtbot.addWidget(dash)
    assert set(panel.rows) >= VSAN_KNOBS
    needed = dash.tiles["hosts_needed"].value_label
    doc.evaluate_now()
    assert needed.text() == "6"
    combo = panel.row("cluster.vsan.policy").control
    assert isinstance(combo, QComboBox) and combo.currentText() == "RAID 5"
    i = combo.findData("raid1")
    combo.setCurrentIndex(i)
    combo.activated.emit(i)
    doc.evaluate_now()
    assert doc.value("id:prod", "vsan.policy") == "raid1" and needed.text() == "7"
    doc.undo_stack.undo()
    doc.evaluate_now()
    assert needed.text() == "6"
    devices = slider_of(panel.row("host.vsan.devices"))
    step = doc.undo_stack.index()
    devices.setValue(devices.minimum() + 3)  # 4 devices a host
    assert doc.value("host", "vsan.devices") == 4 and doc.undo_stack.index() == step + 1
    doc.evaluate_now()
    assert int(needed.text()) > 6
    plain = DesignDocument(estate())
    other = KnobPanel(plain)
    qtbot.addWidget(other)
    assert not VSAN_KNOBS & set(other.rows)
    plain.set_value("id:k1", "vsan.architecture", "esa")
    qtbot.waitUntil(lambda: set(other.rows) >= VSAN_KNOBS)
