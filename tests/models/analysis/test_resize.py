"""Resizing a design's clusters: each cluster gets its own count of hosts, its VMs stay in it,
and the design with the answer applied needs what it has."""

from __future__ import annotations

from pathlib import Path

import pytest

from models import analysis
from models.analysis.resize import groups_of, resize
from models.document.design import Design
from models.engine.evaluation import evaluate
from models.io.importers.rvtools import import_rvtools
from tests.estates import estate, write_xlsx


def imported(tmp_path: Path) -> Design:
    design, _ = import_rvtools(write_xlsx(tmp_path / "e.xlsx", estate(12, 160, seed=4).sheets))
    return design


def test_each_cluster_gets_its_count_and_keeps_its_vms(tmp_path: Path) -> None:
    design = imported(tmp_path)
    before = groups_of(design)
    counts = {gid: len(hosts) + 1 for gid, (hosts, _) in before.items()}
    out, _ = resize(design, counts)
    after = groups_of(out)
    for gid, (hosts, vms) in after.items():
        assert len(hosts) == counts[gid]
        assert {v.id for v in vms} == {v.id for v in before[gid][1]}
    assert len(design.of_kind("host")) == sum(len(h) for h, _ in before.values())  # untouched


def test_the_seek_answer_applied_needs_what_it_has(tmp_path: Path) -> None:
    """Goal seek's hosts are the dashboard's; applied cluster by cluster, the new design's
    own count is the answer again (one answer, whichever way it is asked)."""
    design = imported(tmp_path)
    r = analysis.seek(design, "hosts")
    assert r.value == evaluate(design).consolidation.hosts_needed
    out, _ = resize(design, {c["id"]: c["hosts_needed"] for c in r.extra["clusters"]})
    assert len(out.of_kind("host")) == r.value
    assert evaluate(out).consolidation.hosts_needed == r.value


def test_a_partial_estates_background_is_spread_and_the_answer_still_holds(tmp_path: Path
                                                                          ) -> None:
    """A filtered export: its hosts' background (the VMs it does not list) is counted in
    hosts needed, spread evenly over a cluster's new hosts, and the applied design needs
    what it has."""
    design, _ = import_rvtools(write_xlsx(tmp_path / "f.xlsx",
                                          estate(12, 160, seed=4, filtered=0.3).sheets))
    total = analysis.common.background_of(design.of_kind("host"))
    assert total[0] > 0 and total[1] > 0
    r = analysis.seek(design, "hosts")
    out, notes = resize(design, {c["id"]: c["hosts_needed"] for c in r.extra["clusters"]})
    assert len(out.of_kind("host")) == r.value == evaluate(out).consolidation.hosts_needed
    after = analysis.common.background_of(out.of_kind("host"))
    assert after == (pytest.approx(total[0]), pytest.approx(total[1]))
    assert any("background load" in n for n in notes)
