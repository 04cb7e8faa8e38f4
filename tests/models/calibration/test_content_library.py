"""Every direct / needs-calibration Content Library case is covered."""

from __future__ import annotations

import pytest

from models.calibration import Check, cases
from models.calibration.content_library import checks


@pytest.fixture(scope="module")
def cl_checks() -> list[Check]:
    return checks()


def test_every_modelable_content_library_case_is_covered(cl_checks: list[Check]) -> None:
    wanted = {cid for cid, c in cases().items() if c["subsystem"] == "content-library"
              and c["modelability"] in ("direct", "needs-calibration")}
    assert len(wanted) == 18
    assert sorted(wanted - {c.case_id for c in cl_checks}) == []


def test_some_are_fitted_some_checked_some_rules(cl_checks: list[Check]) -> None:
    roles = [c.role for c in cl_checks]
    assert {"fit", "check", "rule"} <= set(roles)
    assert roles.count("check") >= 10


def test_checks_serialise(cl_checks: list[Check]) -> None:
    row = cl_checks[0].to_dict()
    assert row["subsystem"] == "content-library" and row["ok"]
