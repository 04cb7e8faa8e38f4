"""GUI import: the background job, the progress dialog, the document and the report."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QLineEdit,
    QPushButton,
    QSpinBox,
)
from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.support import jobs
from app.window import importing
from app.window.importing import ImportDialog, ImportJob, start_import
from models.document.design import Design
from models.io.importers import ImportReport, Progress, registry
from models.io.importers.importer import Importer
from tests import vcsim
from tests.conftest import FAKE_SIGNATURE
from tests.models.io.importers.test_perfdata import write_esxtop
from tests.models.io.importers.test_rvtools import estate_rows, write_csv_folder, write_xlsx


def test_rvtools_import_replaces_the_design_and_shows_the_report(qtbot: QtBot,
                                                                   tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "estate.xlsx", estate_rows(200, 16))
    doc = DesignDocument()
    with qtbot.waitSignal(doc.design_replaced, timeout=60_000):
        job = start_import(None, doc, registry.get("rvtools"), str(path),
                           {"site_by": "datacenter", "include_powered_off": False})
        assert job is not None
    assert len(doc.design.of_kind("host")) == 16
    assert job.report is not None and job.report.counts["templates"] == 8
    assert job.message_box is not None
    assert "imported RVTools estate.xlsx" in job.message_box.text()
    assert "template" in job.message_box.detailedText()
    assert not job.running


def test_failed_import_keeps_the_design_and_says_why(qtbot: QtBot, tmp_path: Path) -> None:
    bad = tmp_path / "bad.xlsx"
    bad.write_text("not a workbook")
    doc = DesignDocument()
    before = doc.design
    job = start_import(None, doc, registry.get("rvtools"), str(bad),
                       {"site_by": "cluster", "include_powered_off": True})
    assert job is not None
    with qtbot.waitSignal(job.finished, timeout=30_000) as blocker:
        pass
    assert blocker.args == [False]
    assert doc.design is before
    assert "not an Excel" in job.error
    assert job.message_box is not None and "not an Excel" in job.message_box.text()


def test_cancel_stops_the_import(qtbot: QtBot) -> None:
    calls: list[int] = []

    def work(progress: Progress) -> tuple[Design, ImportReport]:
        calls.append(1)
        progress(0, 10, "working")
        return Design(), ImportReport("x")

    doc = DesignDocument()
    before = doc.design
    job = ImportJob(None, doc, "test", work)
    job.cancel()
    with qtbot.waitSignal(job.finished, timeout=10_000) as blocker:
        job.start()
    assert blocker.args == [False] and job.error == "cancelled" and doc.design is before
    assert calls == []


def test_cancel_during_the_import_keeps_the_design_and_stops_the_worker(qtbot: QtBot) -> None:
    started, release = threading.Event(), threading.Event()
    steps: list[int] = []

    def work(progress: Progress) -> tuple[Design, ImportReport]:
        progress(1, 10, "reading VMs")
        started.set()
        release.wait(5)
        for i in range(2, 11):
            progress(i, 10, "reading VMs")  # raises once cancelled
            steps.append(i)
        return Design(), ImportReport("x")

    doc = DesignDocument()
    before = doc.design
    job = ImportJob(None, doc, "test", work)
    with qtbot.waitSignal(job.runner.progressed, timeout=10_000):
        job.start()
    assert started.wait(5)
    assert "reading VMs... 1 of 10" in job.dialog.labelText()
    finished: list[bool] = []
    job.finished.connect(finished.append)
    button = job.dialog.findChild(QPushButton)
    assert button is not None and button.text() == "Cancel"
    button.click()
    assert finished == [False] and job.error == "cancelled" and not job.running
    release.set()
    assert jobs.wait_idle()
    QApplication.processEvents()
    assert steps == [] and doc.design is before and finished == [False]


def test_vcenter_import_from_the_gui(qtbot: QtBot) -> None:
    doc = DesignDocument()
    with (vcsim.serve("-cluster", "2", "-host", "2", "-vm", "4") as (host, port, user, pw),
          qtbot.waitSignal(doc.design_replaced, timeout=60_000)):
        job = start_import(None, doc, registry.get("vcenter"), host,
                           {"port": port, "user": user, "password": pw, "insecure": True,
                            "site_by": "cluster"})
        assert job is not None
    assert len(doc.design.of_kind("host")) == 4
    assert len(doc.design.of_kind("site")) == 2
    assert len(doc.design.of_kind("vm")) == 8
    assert not job.running


def test_vcenter_dialog_builds_the_connection_and_forgets_the_password(qtbot: QtBot) -> None:
    doc = DesignDocument()
    seen: list[ImportDialog] = []

    def fill(port: int) -> None:
        dialog = next(w for w in QApplication.topLevelWidgets()
                      if isinstance(w, ImportDialog) and w.isVisible())
        seen.append(dialog)
        f = dialog.fields
        assert list(f) == ["server", "port", "user", "password", "insecure", "site_by",
                           "include_powered_off"]
        assert isinstance(f["server"], QLineEdit) and isinstance(f["port"], QSpinBox)
        assert isinstance(f["user"], QLineEdit) and isinstance(f["password"], QLineEdit)
        assert isinstance(f["insecure"], QCheckBox) and isinstance(f["site_by"], QComboBox)
        assert f["password"].echoMode() == QLineEdit.EchoMode.Password
        f["server"].setText("127.0.0.1")
        f["port"].setValue(port)
        f["user"].setText("admin")
        f["password"].setText("hunter2-secret")
        f["insecure"].setChecked(True)
        f["site_by"].setCurrentIndex(1)
        dialog.accept()

    with vcsim.serve("-cluster", "2", "-host", "1", "-vm", "1") as (_, port, _, _):
        QTimer.singleShot(0, lambda: fill(port))
        with qtbot.waitSignal(doc.design_replaced, timeout=60_000):
            job = start_import(None, doc, registry.get("vcenter"))
            assert job is not None
            password = seen[0].fields["password"] if seen else None
            assert isinstance(password, QLineEdit)
            assert password.text() == ""  # before its deleteLater runs
    assert len(doc.design.of_kind("site")) == 2  # one per cluster, as chosen in the dialog
    assert not job.running


def test_cancelled_dialogs_import_nothing(qtbot: QtBot) -> None:
    doc = DesignDocument()

    def reject() -> None:
        for w in QApplication.topLevelWidgets():
            if isinstance(w, ImportDialog) and w.isVisible():
                w.reject()

    QTimer.singleShot(0, reject)
    assert start_import(None, doc, registry.get("vcenter")) is None


def test_the_dialog_holds_what_the_importer_declares(qtbot: QtBot) -> None:
    dialog = ImportDialog(None, registry.get("rvtools"))
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "Import RVTools export"
    assert list(dialog.fields) == ["site_by", "include_powered_off"]  # the file is chosen apart
    assert dialog.values() == {"site_by": "datacenter", "include_powered_off": False}
    site_by = dialog.fields["site_by"]
    assert isinstance(site_by, QComboBox) and site_by.currentText() == "one site per datacenter"
    site_by.setCurrentIndex(1)
    assert dialog.values()["site_by"] == "cluster"


def test_the_chosen_file_is_detected(qtbot: QtBot, tmp_path: Path, fake_importer: Importer,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """File > Import > RVTools Export... of another format's file imports it with that format."""
    path = tmp_path / "estate.data"
    path.write_bytes(FAKE_SIGNATURE)
    monkeypatch.setattr(importing, "ask_import_file", lambda window, importer: str(path))
    doc = DesignDocument()
    with qtbot.waitSignal(doc.design_replaced, timeout=30_000):
        job = start_import(None, doc, registry.get("rvtools"), options={})
        assert job is not None
    assert doc.design.name == "Fake estate from estate.data"
    assert job.report is not None and job.report.source == "Fake estate.data"


def test_a_file_of_measurements_is_no_design(qtbot: QtBot, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    told: list[str] = []
    monkeypatch.setattr(importing.QMessageBox, "information",
                        lambda window, title, text: told.append(f"{title}: {text}"))
    doc = DesignDocument()
    before = doc.design
    esx = write_esxtop(tmp_path / "esx01.csv")
    assert start_import(None, doc, registry.get("rvtools"), str(esx)) is None
    assert told == ["Import RVTools export: esx01.csv is an esxtop batch CSV (esxtop -b):"
                    " measured figures for a design, not a design. File > Import > Calibrate"
                    " from Performance Data puts them onto the open design by name."]
    assert doc.design is before


def test_one_csv_of_an_rvtools_folder_imports_the_folder(qtbot: QtBot, tmp_path: Path) -> None:
    folder = write_csv_folder(tmp_path / "export", estate_rows(20, 4))
    doc = DesignDocument()
    with qtbot.waitSignal(doc.design_replaced, timeout=60_000):
        job = start_import(None, doc, registry.get("rvtools"),
                           str(folder / "RVTools_tabvInfo.csv"), {})
        assert job is not None
    assert len(doc.design.of_kind("host")) == 4
    assert job.report is not None and job.report.source == "RVTools export"


def test_live_optics_import_fills_the_calibration_view(qtbot: QtBot, tmp_path: Path) -> None:
    """File > Import a Live Optics workbook: its stat is a field of the dialog, the import
    runs in the background, and the Calibration view shows the hosts' recorded IOPS."""
    from app.panels.calibration import IOPS_COLUMNS, CalibrationPanel  # noqa: PLC0415
    from tests.liveoptics import workbook, write  # noqa: PLC0415

    imp = registry.get("liveoptics")
    path = write(tmp_path / "LiveOptics_1_VMWARE_06_01_2026.xlsx", workbook(4, 24).sheets)
    assert registry.detect(path) is imp
    dialog = ImportDialog(None, imp)
    qtbot.addWidget(dialog)
    assert dialog.values()["stat"] == "peak"  # the default: what storage is sized to
    doc = DesignDocument()
    panel = CalibrationPanel(doc)
    qtbot.addWidget(panel)
    panel.show()
    with qtbot.waitSignal(doc.design_replaced, timeout=60_000):
        job = start_import(None, doc, imp, str(path), {**imp.defaults(), "stat": "average"})
        assert job is not None
    assert job.report is not None and job.report.coverage.measured_io == 21
    qtbot.waitUntil(lambda: panel.check is not None and panel.hosts.rowCount() == 4)
    assert "host IOPS" in panel.summary.text()
    assert not any(panel.hosts.isColumnHidden(c) for c in IOPS_COLUMNS)
    item = panel.hosts.item(0, IOPS_COLUMNS[1])
    assert item is not None and item.text() not in ("", "–")
