"""Everything a report says about a design, computed once and without Qt: the prediction of
the scenario reported, every scenario side by side, the knob table, the change that relieves
the bottleneck, each host failed in turn (one run, which the summary, What to do and the
host-failure page all read), the executive summary, each refresh kept as a scenario and the
bill of materials (of each refresh, else of the design), the uncertainty bands and the
calibration checks of the studies the predictions use.  :func:`build` may run in a worker
thread (it touches no Qt object); drawing it is :mod:`app.report`'s business."""

from __future__ import annotations

from dataclasses import dataclass, field

from models.analysis.bom import PriceList
from models.core.prediction import Prediction
from models.core.uncertainty import Bands
from models.document.design import Design, DesignError, apply_scenario
from models.engine.evaluation import Engine, evaluate_bands
from models.report.bom import BillView, bills
from models.report.compare import BASE, Comparison, Progress, compare
from models.report.evidence import Evidence, gather, relevant
from models.report.failure import Failures
from models.report.failure import run as fail_hosts
from models.report.growth import GrowthView
from models.report.growth import run as grow_years
from models.report.levers import Remedy, relieve
from models.report.refresh import RefreshView, views
from models.report.settings import KnobRow, knob_rows
from models.report.summary import Summary, summarise


@dataclass
class Content:
    design: Design
    scenario: str
    prediction: Prediction
    """The prediction of the scenario reported (``base``: the design itself)."""
    comparison: Comparison
    knobs: list[KnobRow]
    remedy: Remedy | None
    summary: Summary
    evidence: Evidence
    bands: Bands | None = None
    refreshes: list[RefreshView] = field(default_factory=list)
    """The hardware refreshes kept as scenarios, each before and after."""
    failure: Failures | None = None
    """Each host of the reported design failed in turn (None: no hosts or no VMs)."""
    growth: GrowthView | None = None
    """The reported design year by year (None: it keeps no growth rates and no horizon was
    asked)."""
    bills: list[BillView] = field(default_factory=list)
    """The bill of materials of each refresh kept as a scenario, else of the design reported
    where it is more than a testbed (:func:`models.report.bom.bills`)."""

    @property
    def effective(self) -> Design:
        """The design with the reported scenario applied."""
        try:
            return apply_scenario(self.design, self.scenario)
        except DesignError:  # a scenario renamed away: the base design's values
            return self.design


def build(design: Design, scenario: str, prediction: Prediction | None = None,
          progress: Progress | None = None, checks: bool = True,
          years: int | None = None, prices: PriceList | None = None) -> Content:
    """What the report of ``design`` in ``scenario`` says.  ``prediction`` is that
    scenario's prediction when the caller has it (the app's, so the report shows what the
    dashboard shows); ``checks=False`` skips the calibration checks (a PNG has no appendix);
    ``years``, a horizon for the growth page (else the design's rates over five years, where
    it keeps any); ``prices``, the price list the bills of materials are priced with.
    ``progress(done, total, what)`` is called between steps and may raise to stop."""
    scenario = scenario or BASE
    steps = 2 + len([s for s in design.scenarios if s.name != BASE]) + 5
    done = 0

    def step(what: str) -> None:
        nonlocal done
        if progress is not None:
            progress(done, steps, what)
        done += 1

    step("Evaluating the design")
    effective = apply_scenario(design, scenario)
    if prediction is None:
        engine = Engine(effective)
        engine.scenario = scenario
        prediction = engine.evaluate()

    def compared(i: int, total: int, what: str) -> None:
        step(what)

    comparison = compare(design, {scenario: prediction}, compared)
    step("Trying changes against the bottleneck")
    remedy = relieve(effective, prediction)
    step("Failing each host in turn")
    at = done

    def failed(i: int, total: int) -> None:
        if progress is not None:
            progress(at, steps, f"Failing each host in turn ({i:,} of {total:,})")

    failure = fail_hosts(effective, prediction, failed)
    step("Growing the design year by year")
    growth = grow_years(effective, years)
    step("Computing the uncertainty bands")
    bands: Bands | None
    try:
        engine = Engine(effective)
        engine.scenario = scenario
        bands = evaluate_bands(engine, prediction)
    except (DesignError, ArithmeticError, ValueError):  # an extra: the report helps without
        bands = None  # them (a design the engine cannot evaluate at a band's ends)
    step("Running the calibration checks")
    used = relevant(design, [(c.name, c.prediction) for c in comparison.columns
                             if c.prediction is not None])
    evidence = gather(used.subsystems, used.unused) if checks else Evidence(used.subsystems)
    summary = summarise(design, scenario, prediction, comparison, remedy, failure)
    refreshes = views(design, comparison)
    bought = bills(design, scenario, prediction, comparison,
                   [v.scenario for v in refreshes if v.replaces], prices)
    return Content(design, scenario, prediction, comparison, knob_rows(design), remedy,
                   summary, evidence, bands, refreshes, failure, growth, bought)
