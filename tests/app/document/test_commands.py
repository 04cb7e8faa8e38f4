"""Every undo command: do, assert, undo, assert back to the start, redo, assert again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from models.document.codec import design_to_dict
from models.document.design import Component, Design, Link, Override


def snapshot(doc: DesignDocument) -> dict[str, Any]:
    return design_to_dict(doc.design)


def do_undo_redo(doc: DesignDocument, edit: Callable[[], object],
                 check: Callable[[], bool]) -> None:
    before = snapshot(doc)
    edit()
    after = snapshot(doc)
    assert after != before
    assert check()
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert snapshot(doc) == before
    assert not check()
    doc.undo_stack.redo()
    assert snapshot(doc) == after
    assert check()


def test_add_components(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    comps = [Component("h9", "host"), Component("v99", "vm")]
    do_undo_redo(doc, lambda: doc.add_components(comps, [Link("v99", "h9", "runs_on")]),
                 lambda: doc.design.component("v99") is not None
                 and any(lk.source == "v99" for lk in doc.design.links))


def test_remove_components_restores_links_in_place(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    do_undo_redo(doc, lambda: doc.remove_components(["h1", "v3"]),
                 lambda: doc.design.component("h1") is None
                 and not any("h1" in (lk.source, lk.target) for lk in doc.design.links))


def test_move_components(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)

    def moved() -> bool:
        h1 = doc.design.component("h1")
        return h1 is not None and (h1.x, h1.y) == (50.0, 60.0)

    do_undo_redo(doc, lambda: doc.move_components({"h1": (50.0, 60.0), "v1": (1.0, 2.0)}),
                 moved)


def test_add_link(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    doc.add_component(Component("h2", "host"))
    doc.undo_stack.clear()
    link = Link("h2", "a1", "storage")
    do_undo_redo(doc, lambda: doc.add_link(link),
                 lambda: any(lk.kind == "storage" and lk.source == "h2"
                             for lk in doc.design.links))


def test_add_link_that_replaces(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    doc.add_component(Component("h2", "host"))
    doc.undo_stack.clear()
    do_undo_redo(doc, lambda: doc.add_link(Link("v2", "h2", "runs_on")),
                 lambda: any(lk.source == "v2" and lk.target == "h2"
                             for lk in doc.design.links))


def test_remove_link(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    link = next(lk for lk in doc.design.links if lk.kind == "runs_on")
    do_undo_redo(doc, lambda: doc.remove_link(Link(link.source, link.target, link.kind)),
                 lambda: not any(lk.kind == "runs_on" and lk.source == link.source
                                 for lk in doc.design.links))


def test_set_value_on_a_kind(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    do_undo_redo(doc, lambda: doc.set_value("vm", "workload.io_oio", 7),
                 lambda: doc.value("vm", "workload.io_oio") == 7)


def test_set_value_of_a_default_property_removes_it_on_undo(qtbot: QtBot,
                                                            nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    do_undo_redo(doc, lambda: doc.set_value("id:h1", "dense_mode", True),
                 lambda: doc.value("id:h1", "dense_mode") is True)
    doc.undo_stack.undo()
    h1 = doc.design.component("h1")
    assert h1 is not None and "dense_mode" not in h1.props


def test_set_value_policy(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    do_undo_redo(doc, lambda: doc.set_value("design", "policy.cpu_util_max", 0.7),
                 lambda: doc.value("design", "policy.cpu_util_max") == 0.7)


def test_set_value_rename(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    do_undo_redo(doc, lambda: doc.set_value("id:v1", "name", "renamed"),
                 lambda: doc.value("id:v1", "name") == "renamed")


def test_set_value_link_property(qtbot: QtBot) -> None:
    design = Design(components=[Component("s1", "site"), Component("s2", "site")],
                    links=[Link("s1", "s2", "wan")])
    doc = DesignDocument(design)
    do_undo_redo(doc, lambda: doc.set_value("wan", "rtt_ms", 5.0),
                 lambda: doc.value("wan", "rtt_ms") == 5.0)


def test_set_value_in_a_scenario(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    doc.add_scenario("s")
    doc.set_scenario("s")
    doc.undo_stack.clear()
    do_undo_redo(doc, lambda: doc.set_value("vm", "vcpus", 4),
                 lambda: doc.design.scenario("s").overrides == [Override("vm", "vcpus", 4)])


def test_add_scenario(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    do_undo_redo(doc, lambda: doc.add_scenario("dense"),
                 lambda: any(s.name == "dense" for s in doc.design.scenarios))


def test_remove_scenario(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    doc.add_scenario("a", [Override("host", "dense_mode", True)])
    doc.add_scenario("b")
    doc.set_scenario("a")
    doc.undo_stack.clear()
    do_undo_redo(doc, lambda: doc.remove_scenario("a"),
                 lambda: "a" not in [s.name for s in doc.design.scenarios])
    doc.undo_stack.undo()
    assert doc.design.scenario("a").overrides == [Override("host", "dense_mode", True)]
    assert doc.scenario == "base"  # removing the active scenario fell back to base


def test_merge_only_same_key_and_target(qtbot: QtBot, nic_example: Design) -> None:
    doc = DesignDocument(nic_example)
    doc.set_value("vm", "workload.io_oio", 2, merge_key="k")
    doc.set_value("vm", "vcpus", 2, merge_key="k")
    doc.set_value("vm", "vcpus", 3, merge_key="other")
    assert doc.undo_stack.count() == 3
