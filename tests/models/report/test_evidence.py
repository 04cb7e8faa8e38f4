"""The appendix lists the studies of the subsystems the predictions use, within them the studies
of what the design has, and no others."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.document.design import Design
from models.document.studies import BEST_PRACTICES_4, DENSE, DOCKER_TX, DOCKER_WEB, VAIO
from models.examples import bundled as examples
from models.io.importers.rvtools import import_rvtools
from models.report import evidence
from models.report.compare import compare
from models.report.evidence import Evidence, gather, relevant, relevant_subsystems
from tests.estates import estate, write_xlsx


def _subsystems(name: str) -> tuple[str, ...]:
    design = examples.load(name)
    cmp = compare(design)
    return relevant_subsystems(design, [(c.name, c.prediction) for c in cmp.columns
                                        if c.prediction is not None])


def test_a_storage_design_rests_on_storage_studies_only() -> None:
    used = _subsystems("vaio-scaling")
    assert "storage" in used and "consolidation" in used
    assert not {"content_library", "vdi", "multicast", "ft", "file_transfer"} & set(used)
    ev = gather(used)
    studies = {c.case()["subsystem"] for c in ev.checks}
    assert "content-library" not in studies and "vdi" not in studies
    assert VAIO in {c.study for c in ev.checks}


def test_each_design_brings_its_own_studies() -> None:
    assert "content_library" in _subsystems("content-library")
    assert "storage" not in _subsystems("content-library")
    assert "vdi" in _subsystems("vdi-pcoip")
    assert "ft" in _subsystems("ft-netperf")
    assert "multicast" in _subsystems("multicast-receivers")
    assert "stretched" in _subsystems("stretched-vsan")
    # the base design runs netperf; its scenarios run scp and bbcp: their studies count
    assert "file_transfer" in _subsystems("file-transfer-10g")


def test_a_broken_check_module_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(subsystems: tuple[str, ...]) -> list[object]:
        raise FileNotFoundError("no cases file")

    monkeypatch.setattr(evidence, "all_checks", boom)
    ev = evidence.gather(("storage",))
    assert not ev.checks and "no cases file" in ev.error


def test_a_bug_in_a_check_module_is_not_swallowed(monkeypatch: pytest.MonkeyPatch) -> None:
    def bug(subsystems: tuple[str, ...]) -> list[object]:
        raise TypeError("a programming error")

    monkeypatch.setattr(evidence, "all_checks", bug)
    with pytest.raises(TypeError):
        evidence.gather(("storage",))


def _evidence(design: Design) -> Evidence:
    cmp = compare(design)
    used = relevant(design, [(c.name, c.prediction) for c in cmp.columns
                             if c.prediction is not None])
    return gather(used.subsystems, used.unused)


def test_an_estate_measured_for_cpu_and_memory_rests_on_no_study(tmp_path: Path) -> None:
    """Its figures are what it measured: the consolidation model's dense-mode, latency
    sensitivity and FT studies are not its own, and nothing else is used."""
    path = write_xlsx(tmp_path / "e.xlsx", estate(4, 40, seed=3).sheets)
    design, _ = import_rvtools(path)
    ev = _evidence(design)
    assert ev.checks == [] and ev.subsystems == () and not ev.error


def test_within_a_subsystem_only_the_studies_of_what_the_design_has() -> None:
    storage = {c.study for c in _evidence(examples.load("vaio-scaling")).checks}
    assert VAIO in storage and not {DENSE, DOCKER_WEB, BEST_PRACTICES_4} & storage
    web = {c.study for c in _evidence(examples.load("dense-web-farm")).checks}
    assert DENSE in web and BEST_PRACTICES_4 not in web
    ft = {c.study for c in _evidence(examples.load("ft-netperf")).checks}
    assert BEST_PRACTICES_4 in ft and DENSE not in ft
    docker = {c.study for c in _evidence(examples.load("docker-cloudstone")).checks}
    assert {DOCKER_WEB, DOCKER_TX} <= docker


def test_the_report_quotes_what_the_other_studies_predict() -> None:
    """The figures behind a file-transfer design: the FedEx runs are predicted with the FedEx
    study left out (the stored cross-validation), so the report can say how many and how
    close; a design resting on figures no other study predicts says none."""
    ft = gather(("file_transfer",))
    n, median = ft.predicted()
    assert n >= 6 and median is not None and 0.0 < median <= 0.15
    vdi = gather(("vdi",))
    assert vdi.predicted() == (0, None)
