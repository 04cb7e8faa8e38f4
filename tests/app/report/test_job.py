"""Exporting from the GUI: prepared in the background, drawn a page per event-loop turn
behind a progress dialog with Cancel; cancelled or failed, nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QTimer
from pytestqt.qtbot import QtBot

from app.report import job as job_mod
from app.report.export import PdfRender
from app.report.job import ReportExport
from app.support import jobs
from models.examples import bundled as examples


def _run(qtbot: QtBot, job: ReportExport) -> bool:
    with qtbot.waitSignal(job.finished, timeout=30000) as done:
        job.start()
    return bool(done.args[0])


def test_export_writes_the_pdf_with_a_cancellable_progress_dialog(qtbot: QtBot,
                                                                  tmp_path: Path) -> None:
    out = tmp_path / "r.pdf"
    job = ReportExport(None, examples.load("vaio-scaling"), "oio 32", out)
    assert job.dialog.labelText() and job.dialog.minimumDuration() == job_mod.SHOW_AFTER_MS
    assert _run(qtbot, job) and job.written
    assert out.read_bytes().startswith(b"%PDF-")
    assert not job.dialog.isVisible()


def test_png_too(qtbot: QtBot, tmp_path: Path) -> None:
    out = tmp_path / "r.png"
    assert _run(qtbot, ReportExport(None, examples.load("dense-web-farm"), "base", out))
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_cancel_between_pages_writes_nothing(qtbot: QtBot, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "r.pdf"
    out.write_bytes(b"previous")
    job = ReportExport(None, examples.load("vaio-scaling"), "base", out)
    drawn: list[int] = []
    draw = PdfRender.draw_next

    def draw_then_cancel(self: PdfRender) -> bool:
        more = draw(self)
        drawn.append(self.done)
        if self.done == 2:
            QTimer.singleShot(0, job.cancel)  # as if Cancel was pressed after page 2
        return more

    monkeypatch.setattr(PdfRender, "draw_next", draw_then_cancel)
    assert not _run(qtbot, job)
    assert drawn == [1, 2]  # one page per event-loop turn, none after the cancel
    assert out.read_bytes() == b"previous" and not job.written


def test_cancel_while_preparing(qtbot: QtBot, tmp_path: Path) -> None:
    out = tmp_path / "r.pdf"
    job = ReportExport(None, examples.load("vaio-scaling"), "base", out)
    with qtbot.waitSignal(job.finished, timeout=30000) as done:
        job.start()
        job.dialog.canceled.emit()  # what the dialog's Cancel button sends
    assert done.args == [False]
    assert jobs.wait_idle()
    QCoreApplication.processEvents()  # a late result of the cancelled job would arrive now
    assert not out.exists() and job.render is None and not job.written


def test_a_failed_write_is_reported(qtbot: QtBot, tmp_path: Path) -> None:
    job = ReportExport(None, examples.load("vaio-scaling"), "base",
                       tmp_path / "missing" / "r.pdf")
    with qtbot.waitSignal(job.failed, timeout=30000) as failed:
        job.start()
    assert "missing" in str(failed.args[0]) or "No such file" in str(failed.args[0])
    assert not job.written
