"""Presets load, validate against the schema, and make valid components."""

from __future__ import annotations

import pytest

from models.document.codec import design_to_dict, parse_design
from models.document.design import Design, DesignError
from models.document.presets import parse_presets, preset, presets


def test_bundled_presets_are_valid_components() -> None:
    design = Design(components=[p.component(f"c{i}") for i, p in enumerate(presets())])
    assert parse_design(design_to_dict(design)).components[0].kind == presets()[0].kind


def test_study_hardware_is_there() -> None:
    r720 = preset("dell-r720")
    assert (r720.kind, r720.props["cores_per_socket"]) == ("host", 8)
    assert preset("emc-vnx5700").kind == "storage_array"


def test_bad_preset_names_the_problem() -> None:
    with pytest.raises(DesignError, match=r"preset 'x'.*vcpus"):
        parse_presets({"presets": [{"id": "x", "kind": "vm", "props": {"vcpus": -1}}]})
    with pytest.raises(DesignError, match="unknown kind"):
        parse_presets({"presets": [{"id": "y", "kind": "toaster"}]})
