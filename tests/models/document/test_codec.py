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
