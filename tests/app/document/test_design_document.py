"""DesignDocument: edits push one undo step each, signals follow, evaluation is coalesced."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from app.document import commands
from app.document.design_document import DesignDocument
from models.core.prediction import Prediction
from models.document.design import Component, Design, DesignError, Link, Override
from models.document.edits import RestoreValues
from models.document.rules import link_problem


def test_constructed_document_has_a_prediction(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    assert isinstance(doc.prediction, Prediction)
    assert doc.baseline is doc.prediction
    assert not doc.is_modified
    assert doc.path == ""


def test_slider_drag_with_merge_key_is_one_undo_step(qtbot: QtBot, nic_example: Design
                                                     ) -> None:
    doc = DesignDocument(nic_example)
    for oio in (16, 32, 64):
        doc.set_value("vm", "workload.io_oio", oio, merge_key="drag-1")
    assert doc.undo_stack.count() == 1
    assert doc.value("vm", "workload.io_oio") == 64
    doc.undo_stack.undo()
    assert doc.value("vm", "workload.io_oio") == 128
    doc.undo_stack.redo()
    assert doc.value("vm", "workload.io_oio") == 64


def test_set_value_without_merge_key_makes_separate_steps(qtbot: QtBot, nic_example: Design
                                                          ) -> None:
    doc = DesignDocument(nic_example)
    doc.set_value("vm", "workload.io_oio", 16)
    doc.set_value("vm", "workload.io_oio", 32)
    assert doc.undo_stack.count() == 2


def test_knob_change_patches_and_reevaluates_once(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    before = doc.prediction
    assert before is not None
    seen: list[Prediction] = []
    doc.prediction_updated.connect(seen.append)
    with qtbot.waitSignal(doc.prediction_updated):
        doc.set_value("vm", "workload.io_oio", 1)
        doc.set_value("vm", "workload.io_oio", 2)
    assert len(seen) == 1
    assert seen[0].total_iops < before.total_iops


def test_invalid_value_raises_and_pushes_nothing(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    with pytest.raises(DesignError, match="io_oio"):
        doc.set_value("vm", "workload.io_oio", -3)
    with pytest.raises(DesignError):
        doc.set_value("id:nope", "vcpus", 2)
    with pytest.raises(DesignError):
        doc.set_value("vm", "no_such_prop", 2)
    assert doc.undo_stack.count() == 0


def test_value_is_none_when_mixed(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    doc.set_value("id:v1", "vcpus", 4)
    assert doc.value("id:v1", "vcpus") == 4
    assert doc.value("vm", "vcpus") is None
    assert doc.value("host", "sockets") == 2


def test_scenario_edit_becomes_an_override(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    doc.add_scenario("deep")
    doc.set_scenario("deep")
    doc.set_value("vm", "workload.io_oio", 4)
    assert doc.design.scenario("deep").overrides == [Override("vm", "workload.io_oio", 4)]
    assert doc.value("vm", "workload.io_oio") == 4
    v1 = doc.design.component("v1")
    assert v1 is not None and v1.props["workload.io_oio"] == 128  # the base is untouched
    doc.evaluate_now()
    assert doc.baseline is not None and doc.prediction is not None
    assert doc.baseline is not doc.prediction
    assert doc.prediction.scenario == "deep"
    doc.set_scenario("base")
    assert doc.value("vm", "workload.io_oio") == 128


def test_add_link_refuses_illegal_links_with_a_reason(qtbot: QtBot, nic_example: Design
                                                      ) -> None:
    doc = DesignDocument(nic_example)
    reason = doc.add_link(Link("v1", "a1", "runs_on"))
    assert reason is not None and "vm to a host" in reason
    assert doc.undo_stack.count() == 0
    assert doc.add_link(Link("v1", "v1", "disk_on")) is not None
    assert link_problem(doc.design, Link("v1", "zz", "runs_on")) is not None


def test_add_link_rehomes_a_vm_in_one_step(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    doc.add_component(Component("h2", "host", "second"))
    assert doc.add_link(Link("v1", "h2", "runs_on")) is None
    homes = [lk.target for lk in doc.design.links if lk.kind == "runs_on" and lk.source == "v1"]
    assert homes == ["h2"]
    doc.undo_stack.undo()
    homes = [lk.target for lk in doc.design.links if lk.kind == "runs_on" and lk.source == "v1"]
    assert homes == ["h1"]


def test_ft_secondary_must_differ_from_primary(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    reason = doc.add_link(Link("v1", "h1", "ft_secondary_on"))
    assert reason is not None and "must run on another host than the one" in reason


def test_modified_flag_and_mark_saved(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    with qtbot.waitSignal(doc.modified_changed) as blocker:
        doc.move_components({"h1": (10.0, 20.0)})
    assert blocker.args == [True]
    assert doc.is_modified
    doc.mark_saved("/tmp/x.json")
    assert not doc.is_modified
    assert doc.path == "/tmp/x.json"


def test_replace_design_clears_undo_and_selection(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    doc.set_selection(["h1"])
    doc.move_components({"h1": (10.0, 20.0)})
    with qtbot.waitSignal(doc.design_replaced):
        doc.replace_design(Design(name="empty"), "/tmp/e.json")
    assert doc.undo_stack.count() == 0
    assert doc.selection == []
    assert doc.path == "/tmp/e.json"
    assert not doc.is_modified


def test_selection_drops_unknown_ids(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    with qtbot.waitSignal(doc.selection_changed) as blocker:
        doc.set_selection(["h1", "nope", "h1"])
    assert blocker.args == [["h1"]]


def test_sweep_does_not_change_the_document(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    preds = doc.sweep("vm.workload.io_oio", [1, 8, 64])
    assert [len(p.vms.ids) for p in preds] == [16, 16, 16]
    assert preds[0].total_iops < preds[2].total_iops
    assert doc.value("vm", "workload.io_oio") == 128
    assert doc.undo_stack.count() == 0


def test_engine_failure_is_reported_not_raised(qtbot: QtBot, nic_example: Design,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    doc = DesignDocument(nic_example)

    def boom(self: object) -> Prediction:
        raise RuntimeError("model exploded")

    monkeypatch.setattr("models.engine.evaluation.Engine.evaluate", boom)
    with qtbot.waitSignal(doc.evaluation_failed) as blocker:
        doc.move_components({"h1": (5.0, 5.0)})
        doc.request_evaluation()
    assert "model exploded" in blocker.args[0]
    assert doc.prediction is not None  # the last good prediction stays


def test_rename_component_and_design(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    was = doc.name_of("h1")
    assert was not in ("", "h1", "esx-01")
    with qtbot.waitSignal(doc.component_changed) as blocker:
        doc.set_value("id:h1", "name", "esx-01")
    assert blocker.args == ["h1", ""]
    assert doc.value("id:h1", "name") == "esx-01"
    assert doc.name_of("h1") == "esx-01"  # how views name it
    doc.undo_stack.undo()
    assert doc.name_of("h1") == was
    doc.undo_stack.redo()
    assert (doc.name_of("h1"), doc.name_of("gone")) == ("esx-01", "gone")
    with qtbot.waitSignal(doc.design_changed):
        doc.set_value("design", "name", "Renamed")
    assert doc.design.name == "Renamed"
    with pytest.raises(DesignError):
        doc.set_value("design", "name", " ")


def test_new_id_avoids_taken(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    first = doc.new_id("vm")
    assert doc.design.component(first) is None
    assert doc.new_id("vm", {first}) != first


def test_kind_wide_edit_is_one_signal_for_all_components(qtbot: QtBot,
                                                         nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    singles: list[str] = []
    doc.component_changed.connect(lambda cid, _p: singles.append(cid))
    with qtbot.waitSignal(doc.components_changed) as blocker:
        doc.set_value("vm", "vcpus", 4)
    ids, prop = blocker.args
    assert sorted(ids) == sorted(c.id for c in nic_example.of_kind("vm")) and prop == "vcpus"
    assert singles == []
    with qtbot.waitSignal(doc.components_changed):
        doc.undo_stack.undo()
    assert all(c.get("vcpus") == 1 for c in doc.design.of_kind("vm"))


def test_kind_wide_undo_restores_mixed_values_per_component(qtbot: QtBot,
                                                             nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    vms = [c.id for c in doc.design.of_kind("vm")]
    assert len(vms) >= 2
    doc.set_value(f"id:{vms[0]}", "workload.io_oio", 7)
    before = {v: doc.value(f"id:{v}", "workload.io_oio") for v in vms}
    assert doc.value("vm", "workload.io_oio") is None  # mixed
    for oio in (16, 32):
        doc.set_value("vm", "workload.io_oio", oio, merge_key="drag")
    assert doc.value("vm", "workload.io_oio") == 32
    assert all(doc.value(f"id:{v}", "workload.io_oio") == 32 for v in vms)
    doc.undo_stack.undo()
    assert {v: doc.value(f"id:{v}", "workload.io_oio") for v in vms} == before
    assert doc.value("vm", "workload.io_oio") is None
    doc.undo_stack.redo()
    assert doc.value("vm", "workload.io_oio") == 32


def test_kind_wide_edit_stores_one_record_not_one_per_component(qtbot: QtBot,
                                                                nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    doc.set_value("vm", "workload.io_oio", 16, merge_key="drag")
    doc.set_value("vm", "workload.io_oio", 20, merge_key="drag")
    cmd = doc.undo_stack.command(0)
    assert isinstance(cmd, commands.EditCommand) and isinstance(cmd.inverse, RestoreValues)
    old = cmd.inverse.snapshot
    assert old.uniform is not None and old.column is None
    assert len(old.targets) == len(doc.design.of_kind("vm"))
    doc.undo_stack.undo()
    assert doc.value("vm", "workload.io_oio") == 128
    assert all("workload.io_oio" not in c.props or c.props["workload.io_oio"] == 128
               for c in doc.design.of_kind("vm"))


def test_undo_of_a_default_value_removes_the_explicit_value(qtbot: QtBot,
                                                            nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    vm = doc.design.of_kind("vm")[0]
    prop = "vcpus"
    had = prop in vm.props
    doc.set_value("vm", prop, 3)
    doc.undo_stack.undo()
    assert (prop in vm.props) == had
