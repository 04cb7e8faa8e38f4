"""Opening and saving run in the background: the window keeps painting, a progress dialog
with Cancel shows after half a second, and Cancel leaves the document (and the file on disk)
as they were."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow, QProgressDialog, QPushButton
from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.support import jobs
from app.window import file_menu
from app.window.file_menu import FileController
from app.window.progress import run_with_progress
from models.document.codec import design_to_json
from models.document.design import Design
from models.examples import bundled as examples
from models.io.files import load_design, save_design


@pytest.fixture
def setup(qtbot: QtBot, example: Design) -> Iterator[tuple[QMainWindow, DesignDocument,
                                                           FileController]]:
    window = QMainWindow()
    doc = DesignDocument(example, window)
    ctrl = FileController(window, doc, recovery=False)
    window.show()
    qtbot.waitExposed(window)
    yield window, doc, ctrl
    doc.undo_stack.setClean()
    window.close()
    ctrl.recovery.finish()
    window.deleteLater()


def progress_dialog() -> QProgressDialog | None:
    found = [w for w in QApplication.topLevelWidgets()
             if isinstance(w, QProgressDialog) and w.isVisible()]
    return found[0] if found else None


def cancel_when_shown(qtbot: QtBot, seen: list[str], esc: bool = False) -> None:
    """Press Cancel (or Esc) on the progress dialog as soon as it shows (noting its text)."""
    dialog = progress_dialog()
    if dialog is None:
        QTimer.singleShot(20, lambda: cancel_when_shown(qtbot, seen, esc))
        return
    seen.append(dialog.labelText())
    if esc:
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    else:
        button = dialog.findChild(QPushButton)
        assert button is not None and button.text() == "Cancel"
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_a_slow_open_shows_progress_and_cancel_leaves_the_document(
        setup: tuple[QMainWindow, DesignDocument, FileController], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, qtbot: QtBot) -> None:
    _, doc, ctrl = setup
    path = tmp_path / "big.headroom"
    save_design(examples.load("dense-web-farm"), path)
    release = threading.Event()

    def slow_load(p: str) -> Design:
        release.wait(10)  # a large design on a slow disk
        return load_design(p)

    monkeypatch.setattr(file_menu, "load_design", slow_load)
    before = design_to_json(doc.design)
    seen: list[str] = []
    QTimer.singleShot(0, lambda: cancel_when_shown(qtbot, seen))
    try:
        assert not ctrl.open_path(str(path))
    finally:
        release.set()
    assert seen == ["Opening big.headroom…"], "the progress dialog showed"
    assert design_to_json(doc.design) == before and doc.path == ""
    assert progress_dialog() is None


def test_a_quick_open_shows_no_dialog(setup: tuple[QMainWindow, DesignDocument,
                                                   FileController], tmp_path: Path) -> None:
    _, doc, ctrl = setup
    path = tmp_path / "small.json"
    save_design(examples.load("ft-netperf"), path)
    shown: list[bool] = []
    QTimer.singleShot(100, lambda: shown.append(progress_dialog() is not None))
    assert ctrl.open_path(str(path))
    assert doc.design.name == examples.load("ft-netperf").name
    assert shown in ([], [False])


def test_a_cancelled_save_leaves_the_old_file_and_the_document_unsaved(
        setup: tuple[QMainWindow, DesignDocument, FileController], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, qtbot: QtBot) -> None:
    _, doc, ctrl = setup
    path = tmp_path / "plan.headroom"
    save_design(examples.load("ft-netperf"), path)
    old = path.read_bytes()
    comp = doc.design.components[0]
    doc.move_components({comp.id: (comp.x + 10.0, comp.y)})
    release = threading.Event()

    def slow_save(design: Design, p: Path) -> None:
        release.wait(10)
        save_design(design, p)

    monkeypatch.setattr(file_menu, "save_design", slow_save)
    seen: list[str] = []
    QTimer.singleShot(0, lambda: cancel_when_shown(qtbot, seen, esc=True))
    try:
        assert not ctrl.save_to(str(path))
    finally:
        release.set()
    assert jobs.wait_idle()  # the write, released, ends by removing what it wrote
    assert seen == ["Saving plan.headroom…"]
    assert doc.is_modified and doc.path != str(path)
    assert path.read_bytes() == old
    left = [p.name for p in tmp_path.iterdir() if p.name != "home"]
    assert left == ["plan.headroom"]  # no staged file left behind


def test_a_save_replaces_the_file_and_keeps_its_permissions(
        setup: tuple[QMainWindow, DesignDocument, FileController], tmp_path: Path) -> None:
    _, doc, ctrl = setup
    path = tmp_path / "plan.json"
    path.write_text("{}")
    path.chmod(0o600)
    assert ctrl.save_to(str(path))
    assert design_to_json(load_design(path)) == design_to_json(doc.design)
    assert path.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in tmp_path.iterdir() if p.name != "home"] == ["plan.json"]


def test_a_failed_step_reports_in_words(qtbot: QtBot) -> None:
    def broken(_task: object) -> None:
        raise OSError("disk on fire")

    outcome = run_with_progress(None, "Open", "Opening…", broken)
    assert not outcome.ok and not outcome.cancelled and outcome.error == "disk on fire"
