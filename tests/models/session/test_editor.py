"""The editor: every edit applies, undoes through its inverse, and redoes; what it derives from
the design follows the design's revisions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from models.document.codec import design_to_dict
from models.document.design import Component, Design, DesignError, Link, Override
from models.document.edits import (
    Batch,
    Change,
    Edit,
    Move,
    RestoreValues,
    SetOverrides,
    SetValues,
    Snapshot,
    Structure,
)
from models.document.schema import Value
from models.examples import bundled as examples
from models.session.editor import Editor
from models.session.memo import Memo


@pytest.fixture
def session() -> Editor:
    design = examples.load(examples.DEFAULT_EXAMPLE)
    if not design.of_kind("nic"):
        design.components.append(Component("n1", "nic", "vmnic0",
                                           props={"speed_gbps": 10.0}))
        design.links.append(Link("n1", "h1", "installed_in"))
    return Editor(design)


def state(s: Editor) -> dict[str, Any]:
    return design_to_dict(s.design)


def do_undo_redo(s: Editor, build: Callable[[], Edit],
                 check: Callable[[], bool]) -> tuple[Change, Change]:
    """Apply the edit, undo it through its inverse, apply it again: the design goes to the
    new state, back to the start exactly, and to the new state again."""
    before = state(s)
    edit = build()
    inverse, done = s.apply(edit)
    after = state(s)
    assert after != before and check()
    _, undone = s.apply(inverse)
    assert state(s) == before and not check()
    s.apply(edit)
    assert state(s) == after and check()
    return done, undone


def test_add_components_with_links(session: Editor) -> None:
    comps = [Component("h9", "host", "esx-09"), Component("v99", "vm")]
    done, undone = do_undo_redo(
        session, lambda: session.add_components(comps, [Link("v99", "h9", "runs_on")]),
        lambda: session.component("v99") is not None
        and any(lk.source == "v99" for lk in session.design.links))
    assert done.added == ["h9", "v99"] and [lk.source for lk in done.links_added] == ["v99"]
    assert undone.removed == ["h9", "v99"] and done.stale


def test_remove_components_takes_their_links_and_puts_them_back_in_place(
        session: Editor) -> None:
    order = [c.id for c in session.design.components]
    link_order = [(lk.source, lk.target, lk.kind) for lk in session.design.links]
    edit = session.remove_components(["h1", "v3"])
    assert edit is not None
    inverse, change = session.apply(edit)
    assert session.component("h1") is None
    assert not any("h1" in (lk.source, lk.target) for lk in session.design.links)
    assert set(change.removed) == {"h1", "v3"} and change.links_removed
    session.apply(inverse)
    assert [c.id for c in session.design.components] == order
    assert [(lk.source, lk.target, lk.kind) for lk in session.design.links] == link_order


def test_delete_of_a_selection_with_links_is_one_edit(session: Editor) -> None:
    disk = next(lk for lk in session.design.links if lk.kind == "disk_on")
    edit = session.remove_components(["v2"], [disk])
    assert isinstance(edit, Structure)
    do_undo_redo(session, lambda: edit,
                 lambda: session.component("v2") is None and disk not in session.design.links)
    assert session.remove_components(["nope"]) is None


def test_move(session: Editor) -> None:
    edit = session.move_components({"h1": (50.0, 60.0), "v1": (1.0, 2.0)})
    assert isinstance(edit, Move)
    done, _ = do_undo_redo(session, lambda: edit,
                           lambda: (session.design.components[0].x,
                                    session.design.components[0].y) == (50.0, 60.0))
    assert sorted(done.moved) == ["h1", "v1"] and not done.stale
    h1 = session.component("h1")
    assert h1 is not None
    assert session.move_components({"h1": (h1.x, h1.y)}) is None


def test_add_link_and_the_link_it_replaces(session: Editor) -> None:
    session.apply(session.add_components([Component("h2", "host", "esx-02")]))
    do_undo_redo(session, lambda: session.add_link(Link("v2", "h2", "runs_on")),
                 lambda: [lk.target for lk in session.design.links
                          if lk.source == "v2" and lk.kind == "runs_on"] == ["h2"])
    edit = session.add_link(Link("v3", "h2", "runs_on"))
    assert edit.label == "Link Iometer VM 3 on esx-02" or "esx-02" in edit.label


def test_remove_link(session: Editor) -> None:
    link = next(lk for lk in session.design.links if lk.kind == "installed_in")
    edit = session.remove_link(link)
    assert edit is not None
    do_undo_redo(session, lambda: edit, lambda: link not in session.design.links)
    session.apply(edit)
    assert session.remove_link(link) is None


@pytest.mark.parametrize(("link", "reason"), [
    (Link("v1", "a1", "runs_on"), "goes from a vm to a host"),
    (Link("v1", "v1", "disk_on"), "goes from a vm to a storage_array"),
    (Link("v1", "zz", "runs_on"), "which is not a component of the design"),
    (Link("v1", "h1", "ft_secondary_on"),
     "ioanalyzer1.s FT secondary must run on another host than the one ioanalyzer1 runs on"),
    (Link("v1", "h1", "teleport"), "unknown link kind"),
])
def test_illegal_links_are_refused_with_the_rule_they_break(session: Editor, link: Link,
                                                            reason: str) -> None:
    before = state(session)
    with pytest.raises(DesignError, match=reason):
        session.add_link(link)
    assert state(session) == before


def test_add_components_checks_kinds_ids_and_properties(session: Editor) -> None:
    with pytest.raises(DesignError) as err:
        session.add_components([Component("h1", "host"), Component("x", "toaster"),
                                Component("v9", "vm", props={"vcpus": 0})])
    text = err.value.describe()
    assert "duplicate id 'h1'" in text and "unknown kind 'toaster'" in text
    assert "'vcpus'" in text


def test_kind_wide_value_edit_and_its_undo(session: Editor) -> None:
    vms = session.design.of_kind("vm")
    done, undone = do_undo_redo(session, lambda: session.set_values(["vm"], "vcpus", 4),
                                lambda: all(c.get("vcpus") == 4 for c in vms))
    assert done.values is not None and sorted(done.values[2]) == sorted(c.id for c in vms)
    assert undone.values is not None and done.stale


def test_mixed_values_are_restored_per_component(session: Editor) -> None:
    session.apply(session.set_values(["id:v1"], "workload.io_oio", 7))
    before = {c.id: c.get("workload.io_oio") for c in session.design.of_kind("vm")}
    inverse, _ = session.apply(session.set_values(["vm"], "workload.io_oio", 32))
    assert isinstance(inverse, RestoreValues) and inverse.snapshot.column is not None
    assert session.value("vm", "workload.io_oio") == 32
    session.apply(inverse)
    assert {c.id: c.get("workload.io_oio") for c in session.design.of_kind("vm")} == before
    assert session.value("vm", "workload.io_oio") is None  # mixed


def test_the_undo_of_many_differing_values_is_not_a_record_per_target() -> None:
    """A kind-wide edit of VMs that held different values keeps what they held side by side:
    the collector walks every object a live undo step holds, and a record per VM of a
    50,000-VM drag held it for tens of milliseconds."""
    import gc  # noqa: PLC0415

    from models.examples.synth import large_design  # noqa: PLC0415

    editor = Editor(large_design(1000, 10))
    inverse, _ = editor.apply(editor.set_values(["vm"], "workload.io_oio", 64))
    assert isinstance(inverse, RestoreValues)
    snap = inverse.snapshot
    inner = [o for o in gc.get_referents(snap) if o is not snap.targets]
    tracked = [o for o in inner for o in (o, *gc.get_referents(o)) if gc.is_tracked(o)]
    assert len(tracked) < 10
    editor.apply(inverse)
    assert [v.get("workload.io_oio") for v in editor.design.of_kind("vm")][:4] == [4, 5, 6, 7]


def test_undo_of_a_default_removes_the_explicit_value(session: Editor) -> None:
    vm = session.design.of_kind("vm")[0]
    had = "memory_gb" in vm.props
    inverse, _ = session.apply(session.set_values(["vm"], "memory_gb", 3.0))
    session.apply(inverse)
    assert ("memory_gb" in vm.props) == had


def test_a_kind_wide_edit_keeps_one_record_for_uniform_values(session: Editor) -> None:
    inverse, _ = session.apply(session.set_values(["vm"], "workload.io_oio", 16))
    assert isinstance(inverse, RestoreValues)
    assert inverse.snapshot.uniform is not None and inverse.snapshot.column is None
    assert len(inverse.snapshot.targets) == len(session.design.of_kind("vm"))


@pytest.mark.parametrize("held", [[4, 4.0], [1, True], [None, "absent"], [8, 8]])
def test_equal_values_of_other_types_are_restored_as_they_were(session: Editor,
                                                               held: list[object]) -> None:
    """4 and 4.0, 1 and True, None and an absent property compare alike but are not the
    same: a kind-wide edit's undo brings each VM's own back (one record only for 8 and 8)."""
    vms = session.design.of_kind("vm")
    for i, vm in enumerate(vms):
        value = held[i % 2]
        if value == "absent":
            vm.props.pop("workload.io_oio", None)
        else:
            vm.props["workload.io_oio"] = value  # type: ignore[assignment]
    before = [(vm.props.get("workload.io_oio", "absent"), type(vm.props.get("workload.io_oio")))
              for vm in vms]
    inverse, _ = session.apply(session.set_values(["vm"], "workload.io_oio", 32))
    assert isinstance(inverse, RestoreValues)
    assert (inverse.snapshot.uniform is not None) == (held == [8, 8] or len(vms) == 1)
    session.apply(inverse)
    assert [(vm.props.get("workload.io_oio", "absent"), type(vm.props.get("workload.io_oio")))
            for vm in vms] == before


@pytest.mark.parametrize(("select", "prop", "value", "read"), [
    ("design", "name", "Renamed", lambda d: d.name),
    ("design", "notes", "a note", lambda d: d.notes),
    ("design", "report.title", "Contoso Ltd", lambda d: d.report_title),
    ("design", "report.notes", "For the 2027 refresh", lambda d: d.report_notes),
    ("design", "policy.cpu_util_max", 0.8, lambda d: d.policy_value("cpu_util_max")),
    ("id:h1", "name", "esx-01", lambda d: d.component("h1").name),
    ("tag:iometer", "vcpus", 2, lambda d: d.of_kind("vm")[0].get("vcpus")),
])
def test_fields_policy_and_selectors(session: Editor, select: str, prop: str,
                                     value: Value, read: Callable[[Design], object]) -> None:
    if select.startswith("tag:"):
        for c in session.design.of_kind("vm"):
            c.tags.append("iometer")
    do_undo_redo(session, lambda: session.set_values([select], prop, value),
                 lambda: read(session.design) == value)
    assert session.value(select, prop) == value


def test_invalid_values_and_selectors_change_nothing(session: Editor) -> None:
    before = state(session)
    for select, prop, value in (("vm", "workload.io_oio", -3), ("id:nope", "vcpus", 2),
                                ("vm", "no_such_prop", 2), ("design", "name", " ")):
        with pytest.raises(DesignError):
            session.set_values([select], prop, value)
    assert state(session) == before


def test_a_scenario_edit_is_an_override_and_the_base_stays(session: Editor) -> None:
    session.apply(session.add_scenario("deep"))
    session.set_scenario("deep")
    edit = session.set_values(["vm"], "workload.io_oio", 4)
    assert isinstance(edit, SetValues) and edit.scenario == "deep"
    inverse, change = session.apply(edit)
    assert isinstance(inverse, SetOverrides) and change.scenarios and change.stale
    assert session.design.scenario("deep").overrides == [Override("vm", "workload.io_oio", 4)]
    assert session.value("vm", "workload.io_oio") == 4
    v1 = session.component("v1")
    assert v1 is not None and v1.props["workload.io_oio"] == 128
    session.apply(inverse)
    assert session.design.scenario("deep").overrides == []
    session.set_scenario("base")
    assert session.value("vm", "workload.io_oio") == 128


def test_value_under_a_scenario_follows_the_override_rule(session: Editor) -> None:
    session.apply(session.add_scenario("one", [Override("id:v1", "workload.io_oio", 8)]))
    session.set_scenario("one")
    assert session.value("id:v1", "workload.io_oio") == 8
    assert session.value("id:v2", "workload.io_oio") == 128
    assert session.value("vm", "workload.io_oio") is None  # mixed under the scenario


def test_add_and_remove_scenario(session: Editor) -> None:
    do_undo_redo(session, lambda: session.add_scenario("x"),
                 lambda: any(s.name == "x" for s in session.design.scenarios))
    names = [s.name for s in session.design.scenarios]
    first = names[0]
    do_undo_redo(session, lambda: session.remove_scenario(first),
                 lambda: first not in [s.name for s in session.design.scenarios])
    assert [s.name for s in session.design.scenarios] == names[1:]
    with pytest.raises(DesignError):
        session.add_scenario("base")
    with pytest.raises(DesignError):
        session.remove_scenario("ghost")


def test_removing_the_active_scenario_returns_to_base(session: Editor) -> None:
    session.apply(session.add_scenario("x"))
    session.set_scenario("x")
    _, change = session.apply(session.remove_scenario("x"))
    assert change.scenario_reset and session.scenario == "base"


def test_replace_contents_keeps_scenarios_and_policy(session: Editor) -> None:
    smaller = Design(components=[Component("h1", "host")])
    scenarios = list(session.design.scenarios)
    done, _ = do_undo_redo(session, lambda: session.replace_contents(smaller, "Apply"),
                           lambda: len(session.design.components) == 1)
    assert done.contents and session.design.scenarios == scenarios


def test_the_next_step_of_a_drag_does_not_read_the_values_again(
        session: Editor, monkeypatch: pytest.MonkeyPatch) -> None:
    session.apply(session.set_values(["vm"], "workload.io_oio", 8))
    reads: list[str] = []
    real = session._read_values

    def counting(selects: tuple[str, ...], prop: str) -> Snapshot:
        reads.append(prop)
        return real(selects, prop)

    monkeypatch.setattr(session, "_read_values", counting)
    inverse, _ = session.apply(session.set_values(["vm"], "workload.io_oio", 9))
    assert reads == []
    assert isinstance(inverse, RestoreValues) and inverse.snapshot.uniform is not None
    assert inverse.snapshot.uniform.value == 8


def test_labels_use_display_names(session: Editor) -> None:
    h1 = session.component("h1")
    assert h1 is not None and h1.name
    move = session.move_components({"h1": (1.0, 1.0)})
    assert move is not None and move.label == f"Move {h1.name}"
    removal = session.remove_components(["h1"])
    assert removal is not None and removal.label == f"Delete {h1.name}"


def test_a_batch_is_one_edit_with_one_revision(session: Editor) -> None:
    h1 = session.component("h1")
    assert h1 is not None
    session.apply(session.add_components([Component("s9", "site", "dc-9")]))
    edits, structure = session.edits, session.structure
    heard: list[Change] = []
    session.listeners.append(heard.append)
    batch, refused = session.move_and_join({"h1": (5.0, 6.0)},
                                           [Link("h1", "s9", "located_at")])
    assert isinstance(batch, Batch) and refused == []
    assert batch.label == f"Move {h1.name} to dc-9"
    done, undone = do_undo_redo(session, lambda: batch,
                                lambda: any(lk.target == "s9" for lk in session.links_of("h1")))
    assert done.moved == ["h1"] and done.links_added == [Link("h1", "s9", "located_at")]
    assert done.structure and undone.structure and undone.links_removed
    assert (session.edits, session.structure) == (edits + 3, structure + 3)
    assert len(heard) == 3  # one notice per applied edit, not per part


def test_what_the_editor_derives_follows_the_revision(session: Editor) -> None:
    index = session._index_map()
    assert session._index_map() is index  # kept while the design stands still
    session.apply(session.set_values(["vm"], "workload.io_oio", 8))
    assert session._index_map() is index  # a value write leaves the structure alone
    session.apply(session.add_components([Component("h9", "host")]))
    assert session._index_map() is not index and "h9" in session._index_map()


def test_memo_recomputes_only_for_a_new_revision() -> None:
    memo, calls = Memo(), []
    def compute() -> int:
        calls.append(1)
        return len(calls)
    assert [memo.get("x", 1, compute), memo.get("x", 1, compute),
            memo.get("x", 2, compute)] == [1, 1, 2]


def test_a_value_write_says_how_an_engine_follows(session: Editor) -> None:
    _, change = session.apply(session.set_values(["vm"], "workload.io_oio", 8))
    assert change.written == "base" and not change.structure
    assert change.patches == (Override("vm", "workload.io_oio", 8),)
    vm = session.design.of_kind("vm")[0]
    _, renamed = session.apply(session.set_values([f"id:{vm.id}"], "name", "db-9"))
    assert renamed.structure  # names are part of the prediction
    session.apply(session.add_scenario("x"))
    session.set_scenario("x")
    _, scenario = session.apply(session.set_values(["vm"], "workload.io_oio", 4))
    assert scenario.written == "x" and scenario.patches is not None


def test_move_and_join_leaves_out_a_refused_link_and_says_why(session: Editor) -> None:
    vm = session.design.of_kind("vm")[0]
    edit, refused = session.move_and_join({vm.id: (1.0, 2.0)}, [Link(vm.id, vm.id, "runs_on")])
    assert isinstance(edit, Move) and len(refused) == 1
    assert refused[0].startswith(f"Not moved onto {vm.name or vm.id}:")


def test_moving_a_vm_pins_its_share_to_the_processor_it_left_in_the_same_step() -> None:
    """A VM dropped from the palette names no processor: moved from an E5-2665 host to an
    EPYC 9354 one, its share is pinned to the E5 (one undo step with the move), so on the
    EPYC it takes SPEC's per-core ratio fewer cores."""
    from models.core.platform import REF_GHZ  # noqa: PLC0415
    from models.engine.evaluation import evaluate  # noqa: PLC0415
    from tests.models.core.test_pin_work import two_hosts  # noqa: PLC0415

    ed = Editor(two_hosts())
    before = evaluate(ed.design).vms.cpu_util[0]
    edit = ed.add_link(Link("vm", "new", "runs_on"))
    assert isinstance(edit, Batch) and len(edit.edits) == 2  # the pin and the move: one step
    inverse, _ = ed.apply(edit)
    vm = ed.component("vm")
    assert vm is not None and vm.get("workload.cpu_ghz") == pytest.approx(REF_GHZ)
    after = evaluate(ed.design).vms.cpu_util[0]
    assert after < before / 2  # the EPYC 9354 core at 3.25 GHz is 2.3 times the E5's
    ed.apply(inverse)
    vm = ed.component("vm")
    assert vm is not None and vm.props.get("workload.cpu_ghz") is None
    assert [lk.target for lk in ed.design.links if lk.kind == "runs_on"] == ["old"]


def test_several_design_values_are_one_edit_and_its_inverse_restores_them() -> None:
    """The Growth tab's Keep: the rates set together, one edit, undone together; unchanged
    values are left out, and nothing to change is no edit."""
    from models.session.session import Session  # noqa: PLC0415

    s = Session(Design())
    rates = {"growth.cpu_pct": 15.0, "growth.memory_pct": 20.0, "growth.vms_pct": 0.0}
    edit = s.set_design_values(rates, "Keep the growth rates")
    assert edit is not None and edit.label == "Keep the growth rates"
    inverse, _ = s.apply(edit)
    assert s.design.policy == {"growth.cpu_pct": 15.0, "growth.memory_pct": 20.0}
    assert s.set_design_values(rates, "again") is None
    s.apply(inverse)
    assert s.design.policy == {}
