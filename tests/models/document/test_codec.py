"""The JSON codec: a design round-trips with only its explicit values; bad JSON, NaN and
infinity are clear errors naming where."""

from __future__ import annotations

import json

import pytest

from models.document.codec import design_to_dict, loads, parse_design
from models.document.design import DesignError
from tests.models.document.sample import doc


def test_round_trip_keeps_only_explicit_values() -> None:
    design = parse_design(doc())
    out = design_to_dict(design)
    assert parse_design(out) == design
    assert out["components"][2]["props"] == {"workload": {"io_oio": 4}}


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_nan_and_infinity_are_rejected_naming_the_property(constant: str) -> None:
    text = json.dumps(doc()).replace('"io_oio": 4', f'"io_oio": {constant}')
    with pytest.raises(DesignError) as info:
        loads(text)
    issue = info.value.issues[0]
    assert issue.where.startswith("component 'v1'") and issue.prop == "workload.io_oio"
    assert "not a finite number" in issue.message


def test_bad_json_reports_line_and_column() -> None:
    with pytest.raises(DesignError) as info:
        loads('{"format": "headroom-design",\n "version": 1,,}')
    assert info.value.issues[0].where == "line 2 column 15"


@pytest.mark.parametrize("text", ["[" * 100000 + "]" * 100000,
                                  '{"format": "headroom-design", "version": 1, "components": '
                                  '[{"id": "h", "kind": "host", "props": '
                                  + '{"a": ' * 5000 + "1" + "}" * 5000 + "}]}"])
def test_deeply_nested_json_is_a_clear_error(text: str) -> None:
    with pytest.raises(DesignError) as info:
        loads(text)
    assert "nested too deeply" in str(info.value)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("name", 0, "'name' must be a string, got 0"),
    ("name", False, "'name' must be a string"),
    ("x", True, "'x' must be a number"),
    ("y", "3", "'y' must be a number"),
    ("tags", None, "'tags' must be a list of strings"),
    ("tags", ["web", 3], "'tags' must be a list of strings"),
    ("id", " ", "'id' must be a non-empty string"),
    ("colour", "red", "unknown field 'colour'"),
])
def test_a_component_that_looks_valid_is_checked_field_by_field(
        field: str, value: object, message: str) -> None:
    """A component is read on a fast path only when every field is of its type; anything
    else is refused naming the field, as before the fast path."""
    bad = doc()
    bad["components"][0][field] = value
    with pytest.raises(DesignError) as info:
        parse_design(bad)
    assert any(message in i.message for i in info.value.issues), info.value.issues


@pytest.mark.parametrize(("change", "message"), [
    ({"to": None}, "'from' and 'to' must be component ids"),
    ({"kind": "runs_on", "to": "v1"}, "a link cannot join a component to itself"),
    ({"kind": "disk_on"}, "a disk_on link goes from a vm to a storage_array"),
    ({"weight": 2}, "unknown field 'weight'"),
])
def test_a_link_that_looks_valid_is_checked_field_by_field(
        change: dict[str, object], message: str) -> None:
    bad = doc()
    runs_on = next(lk for lk in bad["links"] if lk["kind"] == "runs_on")
    runs_on.update(change)
    with pytest.raises(DesignError) as info:
        parse_design(bad)
    assert any(message in i.message for i in info.value.issues), info.value.issues


def test_a_consumed_document_gives_the_same_design_and_keeps_none_of_its_parts() -> None:
    """loads reads its own decoded document consuming it: each component and link is
    dropped once read, so the document and the design are not held whole at once."""
    kept, eaten = doc(), doc()
    assert parse_design(eaten, consume=True) == parse_design(kept)
    assert eaten["components"] == [None] * len(kept["components"])
    assert eaten["links"] == [None] * len(kept["links"])
    assert kept == doc()  # without consume the caller's document is untouched


def test_the_reports_title_and_notes_round_trip_and_are_left_out_when_empty() -> None:
    design = parse_design(doc(report={"title": "Contoso Ltd", "notes": "Refresh of 2027."}))
    assert (design.report_title, design.report_notes) == ("Contoso Ltd", "Refresh of 2027.")
    out = design_to_dict(design)
    assert out["report"] == {"title": "Contoso Ltd", "notes": "Refresh of 2027."}
    assert parse_design(out) == design
    assert "report" not in design_to_dict(parse_design(doc()))
    assert design.copy().report_title == "Contoso Ltd"


@pytest.mark.parametrize(("report", "message"), [
    ("Contoso", "expected an object"),
    ({"title": 3}, "'title' must be a string"),
    ({"customer": "Contoso"}, "unknown field 'customer' (known: title, notes)"),
])
def test_a_bad_report_object_is_named(report: object, message: str) -> None:
    with pytest.raises(DesignError) as info:
        parse_design(doc(report=report))
    assert [i.where for i in info.value.issues] == ["report"]
    assert message in info.value.issues[0].message
