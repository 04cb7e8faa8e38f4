"""Cross-validation refits without the left-out case and predicts it (issue 16, item 2)."""

from __future__ import annotations

import pytest

from models.calibration.crossval import CvReport, cross_validate
from models.calibration.fit import FitResult, fit_all


@pytest.fixture(scope="module")
def full() -> FitResult:
    return fit_all()


@pytest.fixture(scope="module")
def vdi(full: FitResult) -> CvReport:
    return cross_validate("case", ("vdi",), full)


@pytest.fixture(scope="module")
def multicast(full: FitResult) -> CvReport:
    return cross_validate("case", ("multicast",), full)


def test_a_check_no_coefficient_is_fitted_to_is_predicted_as_fitted(
        multicast: CvReport) -> None:
    split = [c for c in multicast.comparisons if c.check.case_id == "mcast-splitrx-cpu-cost-claim"]
    assert split and all(c.cv_model == c.check.model for c in split)


def test_a_figure_only_its_own_case_pins_is_reproduced_only(multicast: CvReport) -> None:
    most = [c for c in multicast.comparisons if c.check.case_id == "mcast-default-max-vms-40kpps"]
    assert most and all(c.reproduced_only for c in most)
    assert all("multicast.t_copy_us" in c.unpinned for c in most)
    assert all(c.cv_error is None for c in most)


def test_rules_are_not_cross_validated(full: FitResult) -> None:
    report = cross_validate("case", ("ft",), full)
    assert report.comparisons
    assert all(c.check.role in ("fit", "check") for c in report.comparisons)


def test_a_figure_other_cases_also_pin_is_predicted_from_them(vdi: CvReport) -> None:
    """The client cache's share is fitted on its own 30% and on the combined saving: without
    its own case the combined one still pins it, and the 30% is predicted, with an error."""
    cache = [c for c in vdi.comparisons if c.check.case_id == "vdi-pcoip-client-cache"]
    assert cache and all(not c.reproduced_only for c in cache)
    errs = [c.cv_error for c in cache]
    assert all(e is not None and abs(e) > 1e-3 for e in errs)
    assert all(abs(c.cv_error or 0.0) >= abs(c.check.error) for c in cache)


def test_stats_and_json_shape(vdi: CvReport) -> None:
    doc = vdi.to_dict()
    assert doc["format"] == "headroom-cross-validation"
    assert set(doc["subsystems"]) == {"vdi"}
    s = doc["summary"]
    assert s["figures"] == s["cv_figures"] + s["reproduced_only"]
    assert s["fitted_median"] is not None


def test_the_stored_cross_validation_is_what_a_rerun_gives(full: FitResult) -> None:
    """resources/fitted/crossval.json is written with the fitted table (python -m
    models.calibration), leaving whole studies out; rerunning one subsystem's gives the same."""
    from models.calibration.crossval import stored  # noqa: PLC0415

    rows = stored()
    for c in cross_validate("study", ("vdi", "file_transfer"), full).comparisons:
        row = rows[(c.check.case_id, c.check.quantity)]
        assert row["reproduced_only"] == c.reproduced_only
        if c.cv_model is not None:
            assert row["cv_model"] == pytest.approx(c.cv_model, rel=1e-6)
