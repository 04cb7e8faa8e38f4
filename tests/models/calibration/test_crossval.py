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


def test_a_check_no_coefficient_is_fitted_to_is_predicted_as_fitted(vdi: CvReport) -> None:
    combined = [c for c in vdi.comparisons if c.check.case_id == "vdi-pcoip-combined-out-of-box"]
    assert combined and all(c.cv_model == c.check.model for c in combined)


def test_a_figure_only_its_own_case_pins_is_reproduced_only(vdi: CvReport) -> None:
    cache = [c for c in vdi.comparisons if c.check.case_id == "vdi-pcoip-client-cache"]
    assert cache and all(c.reproduced_only for c in cache)
    assert all("vdi.cache_hit" in c.unpinned for c in cache)
    assert all(c.cv_error is None for c in cache)


def test_rules_are_not_cross_validated(full: FitResult) -> None:
    report = cross_validate("case", ("ft",), full)
    assert report.comparisons
    assert all(c.check.role in ("fit", "check") for c in report.comparisons)


def test_a_refit_on_other_figures_predicts_with_an_error(full: FitResult) -> None:
    """The stretched cluster's two figures pin two coefficients together: without one of
    them the other still pins a combination, and the left-out figure is predicted."""
    report = cross_validate("case", ("stretched",), full)
    errs = [c.cv_error for c in report.comparisons]
    assert all(e is not None for e in errs)
    assert any(abs(e) > 1e-3 for e in errs if e is not None)


def test_stats_and_json_shape(vdi: CvReport) -> None:
    doc = vdi.to_dict()
    assert doc["format"] == "headroom-cross-validation"
    assert set(doc["subsystems"]) == {"vdi"}
    s = doc["summary"]
    assert s["figures"] == s["cv_figures"] + s["reproduced_only"]
    assert s["fitted_median"] is not None
