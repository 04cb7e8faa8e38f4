"""The fitted table is what the fitting routines produce from the cases (issue 16, item 1)."""

from __future__ import annotations

import json

import pytest

from models.calibration import cases
from models.calibration.fit import FitResult, Fitter, Target, fit_all, priors, table_document
from models.core import coefficients


@pytest.fixture(scope="module")
def refit() -> FitResult:
    return fit_all()


def test_the_table_is_what_the_fit_produces(refit: FitResult) -> None:
    """Re-run every fitting routine from the priors and compare with the committed table: a
    value typed into the table, or a routine changed without regenerating it, fails here
    (regenerate with ``python -m models.calibration.fit``)."""
    on_disk = json.loads(coefficients.TABLE_PATH.read_text(encoding="utf-8"))
    fresh = table_document(refit)
    assert [r["name"] for r in on_disk["coefficients"]] == [
        r["name"] for r in fresh["coefficients"]]
    for old, new in zip(on_disk["coefficients"], fresh["coefficients"], strict=True):
        assert old["value"] == pytest.approx(new["value"], rel=1e-7), old["name"]
        assert old["cases"] == new["cases"], old["name"]
        assert old["one_figure"] == new["one_figure"], old["name"]


def test_every_declared_coefficient_is_fitted_from_existing_cases(refit: FitResult) -> None:
    declared = set(priors())
    assert {r.name for r in refit.rows} == declared
    assert refit.unpinned == set()
    for row in refit.rows:
        assert row.cases, row.name
        assert all(cid in cases() for cid in row.cases), row.name
        assert row.value > 0


def test_one_figure_coefficients_say_so(refit: FitResult) -> None:
    doc = table_document(refit)
    ones = [r for r in doc["coefficients"] if r["one_figure"]]
    assert ones and all(r["figures"] == 1 for r in ones)


def test_a_coefficient_whose_case_is_left_out_keeps_its_prior() -> None:
    values = priors()
    coef = coefficients.DECLARED["vdi.cache_hit"]
    f = Fitter("vdi", values, frozenset(cases()) - {"vdi-pcoip-client-cache"})
    v = f.closed(coef, ["vdi-pcoip-client-cache"], lambda: 0.9)
    assert v == coef.prior and coef.name in f.unpinned and not f.rows


def test_least_squares_meets_an_equation_and_keeps_a_met_bound_at_the_prior() -> None:
    coef = coefficients.DECLARED["vdi.cache_hit"]
    values = priors()
    f = Fitter("vdi", values)
    f.least_squares([coef], lambda: [Target("vdi-pcoip-client-cache", 2.0 * coef.value, 0.5)])
    assert values[coef.name] == pytest.approx(0.25, rel=1e-6)
    values = priors()
    f = Fitter("vdi", values)
    f.least_squares([coef], lambda: [Target("vdi-pcoip-client-cache", coef.value, 0.01, "gt")])
    assert values[coef.name] == coef.prior
    assert f.rows[0].method.startswith("prior")


def test_overrides_are_scoped() -> None:
    name = "vdi.cache_hit"
    before = coefficients.value(name)
    with coefficients.using({name: 0.123}):
        assert coefficients.value(name) == 0.123
        assert coefficients.overridden()
    assert coefficients.value(name) == before


def test_a_joint_fit_with_fewer_figures_than_coefficients_says_so() -> None:
    """Two coefficients, one figure: the fit meets it, but only one combination of the two
    is identified; both are listed as underdetermined (cross-validation then marks what they
    move as reproduced only)."""
    a, b = coefficients.DECLARED["vdi.cache_hit"], coefficients.DECLARED["vdi.btl_share"]
    f = Fitter("vdi", priors())
    f.least_squares([a, b], lambda: [Target("vdi-pcoip-client-cache", a.value * b.value, 0.3)])
    assert f.values[a.name] * f.values[b.name] == pytest.approx(0.3, rel=1e-6)
    assert f.underdetermined == {a.name, b.name}
    g = Fitter("vdi", priors())
    g.least_squares([a, b], lambda: [Target("vdi-pcoip-client-cache", a.value * b.value, 0.3),
                                     Target("vdi-pcoip-disable-btl", a.value / b.value, 0.6)])
    assert g.underdetermined == set()
