"""The subsystem table against what it stands for: the case file, the calibration modules, the
fitting order and the views that list subsystems."""

from __future__ import annotations

import re

import pytest

from models.calibration import cases, module
from models.core import coefficients
from models.core.registry import FIT_ORDER, NAMES, SUBSYSTEMS, of_cases, subsystem
from models.report.evidence import Evidence


def test_every_subsystem_has_cases_and_every_case_a_subsystem() -> None:
    keys = {str(c["subsystem"]) for c in cases().values()}
    assert keys == {s.cases for s in SUBSYSTEMS}
    assert all(of_cases(s.cases) is s for s in SUBSYSTEMS)


@pytest.mark.parametrize("name", NAMES)
def test_every_subsystem_has_a_calibration_module_that_checks_and_fits(name: str) -> None:
    mod = module(name)
    assert callable(getattr(mod, "checks", None)) and callable(getattr(mod, "fit", None))


def test_names_titles_and_colours_are_each_one_of_a_kind() -> None:
    for field in ("name", "title", "colour", "cases", "fit_order"):
        values = [getattr(s, field) for s in SUBSYSTEMS]
        assert len(set(values)) == len(values), field
    assert sorted(s.fit_order for s in SUBSYSTEMS) == list(range(len(SUBSYSTEMS)))
    assert all(re.fullmatch(r"#[0-9a-f]{6}", s.colour) for s in SUBSYSTEMS)
    assert all(s.title[0].isupper() for s in SUBSYSTEMS)


def test_the_fitting_order_is_the_committed_table_s() -> None:
    """The fitted table lists its coefficients by subsystem in fitting order (a model fitted
    later may use the values fitted before it: FT the network's, stretched the storage's)."""
    on_disk = [row["subsystem"] for row in coefficients.table().values()]
    assert list(dict.fromkeys(on_disk)) == list(FIT_ORDER)
    assert FIT_ORDER.index("network") < FIT_ORDER.index("ft")
    assert FIT_ORDER.index("storage") < FIT_ORDER.index("stretched")


def test_a_subsystem_reads_by_name_and_an_unknown_one_is_refused() -> None:
    assert subsystem("stretched").title == "Stretched cluster"
    assert of_cases("stretched-cluster").name == "stretched"
    with pytest.raises(KeyError):
        subsystem("toaster")


def test_the_report_titles_its_subsystems_from_the_table() -> None:
    ev = Evidence(("ft", "content_library"))
    assert ev.titles == ["Fault Tolerance", "Content Library"]
