"""The schema: every kind's properties carry defaults their own rules accept, a doc line and
a unit where they measure something; links join kinds that exist."""

from __future__ import annotations

import pytest

from models.document.design import check_value
from models.document.schema import DESIGN_PROPS, KINDS, LINKS, PropSpec, prop_spec

ALL: list[tuple[str, PropSpec]] = [
    *((f"{k}.{name}", spec) for k, ks in KINDS.items() for name, spec in ks.props.items()),
    *((f"{k}.{name}", spec) for k, ls in LINKS.items() for name, spec in ls.props.items()),
    *((f"design.{name}", spec) for name, spec in DESIGN_PROPS.items())]


@pytest.mark.parametrize(("path", "spec"), ALL, ids=[p for p, _ in ALL])
def test_a_default_passes_its_own_rules(path: str, spec: PropSpec) -> None:
    assert check_value(spec, spec.default) is None, path


def test_numeric_ranges_are_ordered_and_choices_unique() -> None:
    for path, spec in ALL:
        if spec.min is not None and spec.max is not None:
            assert spec.min < spec.max, path
        if spec.choices is not None:
            assert len(set(spec.choices)) == len(spec.choices), path


def test_links_join_kinds_that_exist() -> None:
    assert all(ls.from_kind in KINDS and ls.to_kind in KINDS for ls in LINKS.values())


def test_prop_spec_finds_kind_link_and_design_properties() -> None:
    assert prop_spec("vm", "workload.io_oio") is KINDS["vm"].props["workload.io_oio"]
    assert prop_spec("wan", "rtt_ms") is LINKS["wan"].props["rtt_ms"]
    assert prop_spec("host", "warp") is None and prop_spec("toaster", "x") is None
