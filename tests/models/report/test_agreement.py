"""The summary and What to do read the same analyses as the screens: the hosts needed are
the dashboard's and ``headroom seek --goal hosts``' (per cluster on the refresh page too),
the room What to do names is ``seek --goal vms``' answer, and what a host failure does is
``headroom failure``'s - on the refresh estate with a refresh kept (either side reported)
and on the vSAN ESA example's every scenario."""

from __future__ import annotations

import re

import pytest

from models.analysis.refresh import refresh, target
from models.analysis.seek import seek
from models.document.design import Design, Scenario, apply_scenario
from models.engine.kpis import KPI_BY_KEY
from models.examples import bundled as examples
from models.report.content import Content, build
from tests.models.report.test_failure import agrees
from tests.refresh_estate import estate


def _kept() -> Design:
    d = estate()
    r = refresh(d, target("dell-r760", "Gold 6544Y", 512))
    d.scenarios.append(Scenario("R760", list(r.overrides), r.rebuild))
    return d


def _vsan() -> list[tuple[Design, str]]:
    d = examples.load("vsan-esa")
    return [(d, s) for s in ["base", *(x.name for x in d.scenarios)]]


CASES = [(_kept(), "base"), (_kept(), "R760"), *_vsan()]


def _said(c: Content) -> dict[str, str]:
    return dict(c.summary.paragraphs())


@pytest.mark.parametrize(("design", "scenario"), CASES,
                         ids=[f"{d.name}:{s}" for d, s in CASES])
def test_the_summary_agrees_with_failure_seek_and_the_dashboard(design: Design,
                                                                scenario: str) -> None:
    c = build(design, scenario, checks=False)
    said = _said(c)
    agrees(c, said)  # headroom failure's verdict, the baseline's breaches, the shortfall
    p = c.prediction
    hosts = seek(c.effective, "hosts")
    dashboard = KPI_BY_KEY["hosts_needed"].value(p)
    assert hosts.value == p.consolidation.hosts_needed == dashboard
    needs = re.search(r"need (\d[\d,]*) hosts?", said["What it achieves"])
    assert needs is not None and int(needs.group(1).replace(",", "")) == hosts.value
    room = re.search(r"every host can run up to (\d[\d,]*) VMs?", said["What to do"])
    if room is not None:  # the room is goal seek's, as Analysis > Goal seek shows it
        most = seek(c.effective, "vms")
        assert int(room.group(1).replace(",", "")) == most.value
    for v in c.refreshes:  # the refresh page's hosts needed: seek's per cluster
        after = seek(apply_scenario(design, v.scenario), "hosts").extra["clusters"]
        names = {g["name"]: g for g in after}
        assert v.clusters
        for row in v.clusters:
            assert row.hosts_needed[1] == names[row.name]["hosts_needed"]
            assert row.hosts[1] == names[row.name]["hosts"]
