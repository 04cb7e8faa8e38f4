"""The evidence view: every calibration check as a table row and a point on the plot, the
study's quote for the selected row, computed once and only after the window has painted."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.panels import evidence as evidence_mod
from app.panels.evidence import Evidence, EvidenceView
from app.support import theme
from models.calibration import Check, cases
from models.core.registry import SUBSYSTEMS
from models.document.studies import named
from models.examples import bundled as examples


def n_points(item: object) -> int:
    xs = getattr(item, "xData", None)
    return 0 if xs is None else len(xs)


def make_doc() -> DesignDocument:
    return DesignDocument(examples.load(examples.DEFAULT_EXAMPLE))


def cell(view: EvidenceView, row: int, col: int) -> str:
    item = view.table.item(row, col)
    assert item is not None
    return item.text()


def check_of(view: EvidenceView, row: int) -> Check:
    item = view.table.item(row, 0)
    assert item is not None and view.evidence is not None
    return view.evidence.checks[int(item.data(Qt.ItemDataRole.UserRole))]


@pytest.fixture
def fake_evidence(monkeypatch: pytest.MonkeyPatch) -> Evidence:
    ids = list(cases())[:3]
    checks = [Check(ids[0], "IOPS", 1000.0, 1050.0, 0.1, role="fit"),
              Check(ids[1], "latency", 2.0, 3.0, 0.2, role="check",
                    saturates="saturates the storage array a1 (100%)"),
              Check(ids[2], "limit", 4.0, 0.0, 0.0, role="rule")]
    ev = Evidence(checks, ["storage", "ft", "ft"], {"network": "ImportError: broken"})
    monkeypatch.setattr(evidence_mod, "_EVIDENCE", ev)
    return ev


def test_evidence_table_plot_and_quote(qtbot: QtBot, fake_evidence: Evidence) -> None:
    view = EvidenceView(make_doc())
    qtbot.addWidget(view)
    assert view.table.rowCount() == 0  # computed lazily
    view.ensure_loaded()
    assert view.table.rowCount() == 3
    ok = view.table.index_of("OK")
    texts = {check_of(view, r).case_id: cell(view, r, ok) for r in range(3)}
    first, second, third = (c.case_id for c in fake_evidence.checks)
    assert texts == {first: "yes", second: "NO", third: "NO"}
    study = view.table.index_of("Study")
    assert cell(view, 0, study) == check_of(view, 0).study.title
    for r in range(3):  # the case id is in the tooltip, not a column
        assert all(check_of(view, r).case_id not in cell(view, r, col)
                   for col in range(view.table.columnCount()))
    assert list(view.points["storage"].xData) == [3.0]
    assert n_points(view.points["ft"]) == 1  # the zero model value is not plotted
    assert "1 not plotted" in view.summary.text()
    assert "network" in view.summary.text()
    row = next(r for r in range(3) if check_of(view, r).case_id == second)
    view.table.setCurrentCell(row, 0)
    quote = str(cases()[second]["quote"])
    assert quote[:40] in view.quote.toPlainText()
    assert named(str(cases()[second]["study"])).citation in view.quote.toPlainText()
    assert "The model's run saturates the storage array a1 (100%)." in view.quote.toPlainText()
    assert n_points(view.selected) == 1
    view.filter.setCurrentIndex(view.filter.findData("storage"))
    hidden = [view.table.isRowHidden(r) for r in range(3)]
    assert hidden.count(False) == 1
    assert n_points(view.points["ft"]) == 0


def test_evidence_shows_the_cross_validated_error_beside_the_fitted_one(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = list(cases())[:3]
    checks = [Check(ids[0], "IOPS", 1000.0, 1050.0, 0.1, role="fit"),
              Check(ids[1], "latency", 2.0, 3.0, 0.2, role="check",
                    saturates="saturates the storage array a1 (100%)"),
              Check(ids[2], "limit", 4.0, 4.0, 0.0, role="rule")]
    cv: dict[tuple[str, str], dict[str, Any]] = {
          (ids[0], "IOPS"): {"reproduced_only": True, "cv_error": None},
          (ids[1], "latency"): {"reproduced_only": False, "cv_error": 0.62}}
    ev = Evidence(checks, ["storage", "ft", "ft"], {}, cv=cv)
    monkeypatch.setattr(evidence_mod, "_EVIDENCE", ev)
    view = EvidenceView(make_doc())
    qtbot.addWidget(view)
    view.ensure_loaded()
    col = view.table.index_of("Error, study left out")  # it read "CV error"
    got = {check_of(view, r).case_id: cell(view, r, col) for r in range(3)}
    assert got == {ids[0]: "reproduced only", ids[1]: "+62 %", ids[2]: "rule"}
    assert "typical error 62 % with each study left out of the fit" in view.summary.text()
    assert "cross-validated" not in view.summary.text() and "|error|" not in view.summary.text()
    assert "1 reproduced only" in view.summary.text()
    row = next(r for r in range(3) if check_of(view, r).case_id == ids[0])
    view.table.setCurrentCell(row, 0)
    assert "no other study can check it" in view.quote.toPlainText()


def test_stored_cross_validation_covers_every_fitted_and_checked_figure() -> None:
    """The stored cross-validation (written with the fitted table) has a row for every
    figure the Evidence panel shows with a role of fit or check."""
    ev = evidence_mod.evidence()
    for c in ev.checks:
        if c.role != "rule":
            assert evidence_mod.cv_text(c, ev.cv.get((c.case_id, c.quantity))), \
                (c.case_id, c.quantity)


def test_evidence_is_computed_once(qtbot: QtBot, fake_evidence: Evidence) -> None:
    assert evidence_mod.evidence() is fake_evidence
    a, b = EvidenceView(make_doc()), EvidenceView(make_doc())
    qtbot.addWidget(a)
    qtbot.addWidget(b)
    a.ensure_loaded()
    b.ensure_loaded()
    assert a.evidence is b.evidence is fake_evidence
    item = a.table.item(0, 0)
    assert item is not None and item.data(Qt.ItemDataRole.UserRole) is not None


def test_evidence_loads_after_being_shown(qtbot: QtBot, fake_evidence: Evidence) -> None:
    view = EvidenceView(make_doc())
    qtbot.addWidget(view)
    view.show()
    assert view.evidence is None  # the window paints first
    qtbot.waitUntil(lambda: view.table.rowCount() == len(fake_evidence.checks), timeout=5000)


def test_evidence_behind_another_tab_loads_once_its_tab_is_raised(
        qtbot: QtBot, fake_evidence: Evidence) -> None:
    """A dock behind another tab is "visible" to Qt, moved off screen: the checks wait
    until the Evidence tab is raised."""
    from app.window.main_window import MainWindow  # noqa: PLC0415

    window = MainWindow(make_doc(), remember_layout=False)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(300)  # past the load timer
    assert window.evidence.isVisible() and window.evidence.evidence is None
    window.evidence_dock.raise_()
    qtbot.waitUntil(lambda: window.evidence.table.rowCount() == len(fake_evidence.checks),
                    timeout=5000)
    window.document.undo_stack.setClean()


def test_the_view_lists_the_registry_s_subsystems_in_their_colours(qtbot: QtBot) -> None:
    """The filter offers exactly the registry's subsystems by title, in its order, and each
    has a plot item in its colour; the legend sits beside the plot."""
    view = EvidenceView(make_doc())
    qtbot.addWidget(view)
    offered = [(view.filter.itemText(i), view.filter.itemData(i))
               for i in range(1, view.filter.count())]
    assert offered == [(s.title, s.name) for s in SUBSYSTEMS]
    assert list(view.points) == [s.name for s in SUBSYSTEMS]
    for s in SUBSYSTEMS:
        assert view.points[s.name].opts["symbolBrush"].color().name() == s.colour
    assert view.legend.parentItem() is not view.plot.vb  # not drawn over the points
    assert view.plots.ci.getItem(0, 1) is view.legend


def test_the_table_never_scrolls_sideways(qtbot: QtBot, fake_evidence: Evidence) -> None:
    """In a narrow dock the columns of low priority step aside (the figures stay)."""
    view = EvidenceView(make_doc())
    qtbot.addWidget(view)
    view.ensure_loaded()
    view.resize(1400, 300)
    view.show()
    qtbot.waitExposed(view)
    wide = [view.table.isColumnHidden(i) for i in range(view.table.columnCount())]
    view.resize(360, 300)
    qtbot.waitUntil(lambda: view.table.width() < 360)
    narrow = {c.title for i, c in enumerate(view.table.columns)
              if view.table.isColumnHidden(i)}
    assert len(narrow) > sum(wide)  # the narrower, the fewer columns
    assert narrow and not {"Published", "Model", "OK"} & narrow
    assert not view.table.horizontalScrollBar().isVisible()
    shown = sum(view.table.columnWidth(i) for i in range(view.table.columnCount())
                if not view.table.isColumnHidden(i))
    assert shown <= view.table.viewport().width() + 1


def test_each_study_left_out_shows_its_predicted_error_against_its_target(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, fake_evidence: Evidence) -> None:
    """The 'Each study left out' tab lists every study of the stored cross-validation with
    how many of its figures the other studies predict and how far off, in red past target."""
    studies = {"Study A": {"figures": 5, "cv_figures": 4, "cv_median": 0.05, "cv_max": 0.12,
                           "reproduced_only": 1, "target_median": 0.15, "target_max": 0.3},
               "Study B": {"figures": 3, "cv_figures": 2, "cv_median": 0.2, "cv_max": 0.4,
                           "reproduced_only": 1, "target_median": 0.15, "target_max": 0.3},
               "Study C": {"figures": 2, "cv_figures": 0, "cv_median": None, "cv_max": None,
                           "reproduced_only": 2, "target_median": 0.15, "target_max": 0.3}}
    monkeypatch.setattr(evidence_mod, "stored_summary", lambda: {"studies": studies})
    view = EvidenceView(make_doc())
    qtbot.addWidget(view)
    view.resize(1200, 600)
    view.show()
    view.ensure_loaded()
    view.tabs.setCurrentWidget(view.studies)
    t = view.studies
    assert t.rowCount() == 3
    rows = {t.item(r, 0).text(): r for r in range(3)}  # type: ignore[union-attr]
    med = t.index_of("Typical, left out")  # it read "CV median"
    assert t.item(rows["Study A"], med).text() == "5 %"  # type: ignore[union-attr]
    predicted = t.index_of("Predicted")  # of its figures, in the narrowest table too
    assert t.item(rows["Study A"], predicted).text() == "4 of 5"  # type: ignore[union-attr]
    assert t.item(rows["Study C"], med).text() == "none predicted"  # type: ignore[union-attr]
    red = QColor(theme.tones().error)
    assert t.item(rows["Study B"], med).foreground().color() == red  # type: ignore[union-attr]
    assert t.item(rows["Study A"], med).foreground().color() != red  # type: ignore[union-attr]


def test_the_stored_cross_validation_leaves_whole_studies_out() -> None:
    """What the Evidence panel, the README and the report quote: every study's figures
    predicted with the study left out, the studies meeting their targets."""
    from models.calibration.crossval import stored_summary  # noqa: PLC0415

    doc = stored_summary()
    assert doc["by"] == "study"
    studies = doc["studies"]
    assert len(studies) >= 15
    missed = {t: (st["cv_median"], st["cv_max"]) for t, st in studies.items()
              if evidence_mod.off_target(st)}
    assert missed == {}
