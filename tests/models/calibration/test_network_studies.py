"""validate: every case of the file-transfer, multicast and VDI studies'
subsystems is covered, and each study fits some figures and checks others."""

from __future__ import annotations

import pytest

from models.calibration import Check, cases, covered_cases, file_transfer, multicast, vdi

MODULES = {"file-transfer": file_transfer, "multicast": multicast, "vdi": vdi}


@pytest.fixture(scope="module")
def results() -> dict[str, list[Check]]:
    return {sub: mod.checks() for sub, mod in MODULES.items()}


@pytest.mark.parametrize("sub", sorted(MODULES))
def test_every_case_of_the_subsystem_is_covered(results: dict[str, list[Check]],
                                                sub: str) -> None:
    want = {cid for cid, c in cases().items() if c["subsystem"] == sub}
    assert want and want <= covered_cases(results[sub])


@pytest.mark.parametrize("sub", sorted(MODULES))
def test_each_study_fits_some_figures_and_checks_others(results: dict[str, list[Check]],
                                                        sub: str) -> None:
    roles = {c.role for c in results[sub]}
    assert {"fit", "check"} <= roles


def test_checks_serialise_for_the_report(results: dict[str, list[Check]]) -> None:
    for checks in results.values():
        for c in checks:
            d = c.to_dict()
            assert d["case"] == c.case_id and d["quote"]
