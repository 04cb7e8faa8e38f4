"""GUI import: the background job, the progress dialog, the document and the report."""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QPushButton
from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.support import jobs
from app.window.importing import ImportJob, VCenterDialog, import_rvtools, import_vcenter
from models.document.design import Design
from models.io.importers import ImportReport, Progress
from models.io.importers.vcenter import Connection
from tests import vcsim
from tests.models.io.importers.test_rvtools import estate_rows, write_xlsx


def test_rvtools_import_replaces_the_design_and_shows_the_report(qtbot: QtBot,
                                                                   tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "estate.xlsx", estate_rows(200, 16))
    doc = DesignDocument()
    with qtbot.waitSignal(doc.design_replaced, timeout=60_000):
        job = import_rvtools(None, doc, str(path), site_by="datacenter",
                             include_powered_off=False)
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
    job = import_rvtools(None, doc, str(bad), site_by="cluster", include_powered_off=True)
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
    with vcsim.serve("-cluster", "2", "-host", "2", "-vm", "4") as (host, port, user, pw):
        conn = Connection(host, user, pw, port, insecure=True)
        with qtbot.waitSignal(doc.design_replaced, timeout=60_000):
            job = import_vcenter(None, doc, conn, site_by="cluster")
            assert job is not None
    assert len(doc.design.of_kind("host")) == 4
    assert len(doc.design.of_kind("site")) == 2
    assert len(doc.design.of_kind("vm")) == 8
    assert not job.running


def test_vcenter_dialog_builds_the_connection_and_forgets_the_password(qtbot: QtBot) -> None:
    doc = DesignDocument()
    seen: list[VCenterDialog] = []

    def fill(port: int) -> None:
        dialog = next(w for w in QApplication.topLevelWidgets()
                      if isinstance(w, VCenterDialog) and w.isVisible())
        seen.append(dialog)
        dialog.server.setText("127.0.0.1")
        dialog.port.setValue(port)
        dialog.user.setText("admin")
        dialog.password.setText("hunter2-secret")
        dialog.insecure.setChecked(True)
        dialog.form.site_by.setCurrentIndex(1)
        dialog.accept()

    with vcsim.serve("-cluster", "2", "-host", "1", "-vm", "1") as (_, port, _, _):
        QTimer.singleShot(0, lambda: fill(port))
        with qtbot.waitSignal(doc.design_replaced, timeout=60_000):
            job = import_vcenter(None, doc)
            assert job is not None
            assert seen and seen[0].password.text() == ""  # before its deleteLater runs
    assert len(doc.design.of_kind("site")) == 2  # one per cluster, as chosen in the dialog
    assert not job.running


def test_cancelled_dialogs_import_nothing(qtbot: QtBot) -> None:
    doc = DesignDocument()

    def reject() -> None:
        for w in QApplication.topLevelWidgets():
            if isinstance(w, VCenterDialog) and w.isVisible():
                w.reject()

    QTimer.singleShot(0, reject)
    assert import_vcenter(None, doc) is None
