"""Autosave and crash recovery: a session killed mid-edit is offered back at the next start."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QLockFile, Qt, QTimer
from PySide6.QtWidgets import QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.window import recovery
from app.window.recovery import RecoveryManager, RecoverySession, stale_sessions
from models.document.codec import design_to_json
from models.document.design import Design
from models.io import store
from tests.conftest import ROOT

Button = QMessageBox.StandardButton


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "recovery"


@pytest.fixture
def doc(example: Design) -> Iterator[DesignDocument]:
    d = DesignDocument(example)
    yield d
    d.deleteLater()


@pytest.fixture
def mgr(doc: DesignDocument, folder: Path) -> Iterator[RecoveryManager]:
    m = RecoveryManager(doc, folder=folder, interval_s=3600)
    yield m
    m.finish()


def _modify(doc: DesignDocument) -> None:
    c = doc.design.components[0]
    doc.move_components({c.id: (c.x + 25.0, c.y)})


def test_no_autosave_while_unmodified(mgr: RecoveryManager) -> None:
    assert not mgr.autosave()
    assert not mgr.design_path.exists()


def test_autosave_writes_a_loadable_copy(mgr: RecoveryManager, doc: DesignDocument) -> None:
    _modify(doc)
    assert mgr.autosave()
    assert design_to_json(store.load(mgr.design_path)) == design_to_json(doc.design)
    info = json.loads(mgr.info_path.read_text())
    assert info["name"] == doc.design.name and info["saved_at"]
    assert mgr.lock.isLocked()
    assert not mgr.autosave(), "nothing changed since the last autosave"


def test_timer_autosaves_when_modified(qtbot: QtBot, doc: DesignDocument,
                                       folder: Path) -> None:
    m = RecoveryManager(doc, folder=folder, interval_s=0.02)
    try:
        _modify(doc)
        with qtbot.waitSignal(m.autosaved, timeout=5000) as blocker:
            pass
        assert blocker.args == [str(m.design_path)]
    finally:
        m.finish()


def test_clean_save_removes_the_autosave(mgr: RecoveryManager, doc: DesignDocument,
                                         tmp_path: Path) -> None:
    _modify(doc)
    mgr.autosave()
    assert mgr.design_path.exists()
    doc.mark_saved(str(tmp_path / "saved.headroom"))
    assert not mgr.design_path.exists() and not mgr.info_path.exists()


def test_finish_removes_autosave_and_lock(mgr: RecoveryManager, doc: DesignDocument) -> None:
    _modify(doc)
    mgr.autosave()
    mgr.finish()
    assert not mgr.design_path.exists() and not mgr.lock.isLocked()
    assert stale_sessions(mgr.folder) == []


def test_a_running_session_is_not_offered(mgr: RecoveryManager, doc: DesignDocument,
                                          example: Design) -> None:
    _modify(doc)
    mgr.autosave()
    other = DesignDocument(example)
    m2 = RecoveryManager(other, folder=mgr.folder, interval_s=3600)
    try:
        assert m2.stale_sessions() == []
    finally:
        m2.finish()
        other.deleteLater()


_CRASHER = """
import os, signal, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from app.support import qt_fixes
qt_fixes.install()
from PySide6.QtCore import QCoreApplication
from app.document.design_document import DesignDocument
from app.window.recovery import RecoveryManager
from models.examples import bundled as examples
app = QCoreApplication([])
doc = DesignDocument(examples.load(examples.DEFAULT_EXAMPLE))
doc.design.name = "crashed edit"
if len(sys.argv) > 3:
    doc.set_path(sys.argv[3])
    doc.design.name = "crashed " + Path(sys.argv[3]).stem
c = doc.design.components[0]
doc.move_components({c.id: (c.x + 123.0, c.y)})
mgr = RecoveryManager(doc, folder=Path(sys.argv[2]), interval_s=3600)
assert mgr.autosave(), mgr.last_error
print(mgr.session, flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # a crash: no cleanup, the lock file stays behind
"""


def _crash(folder: Path, path: str = "") -> str:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    res = subprocess.run([sys.executable, "-c", _CRASHER, str(ROOT), str(folder),
                          *([path] if path else [])],
                         capture_output=True, text=True, env=env, timeout=120, check=False)
    assert res.returncode == -9, res.stderr
    session = res.stdout.strip()
    assert (folder / f"{session}.lock").exists(), "the crash should leave its lock behind"
    return session


def _ask(answer: Button, calls: list[RecoverySession]) -> object:
    def ask(session: RecoverySession, count: int, parent: QWidget | None) -> Button:
        calls.append(session)
        return answer

    return ask


def test_crash_is_recovered_into_a_new_document(mgr: RecoveryManager, doc: DesignDocument,
                                                folder: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    session = _crash(folder)
    calls: list[RecoverySession] = []
    monkeypatch.setattr(mgr, "ask_recover", _ask(Button.Yes, calls))
    assert mgr.offer_recovery()
    assert [s.session for s in calls] == [session]
    assert calls[0].name == "crashed edit"
    assert doc.design.name == "crashed edit"
    assert doc.path == "" and doc.is_modified
    assert not (folder / f"{session}.headroom").exists()
    assert not (folder / f"{session}.lock").exists()
    assert mgr.stale_sessions() == []


def test_declined_recovery_is_offered_again(mgr: RecoveryManager, doc: DesignDocument,
                                            folder: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    session = _crash(folder)
    before = design_to_json(doc.design)
    monkeypatch.setattr(mgr, "ask_recover", _ask(Button.No, []))
    assert not mgr.offer_recovery()
    assert design_to_json(doc.design) == before
    assert [s.session for s in mgr.stale_sessions()] == [session]


def test_discarded_recovery_is_deleted(mgr: RecoveryManager, folder: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    session = _crash(folder)
    monkeypatch.setattr(mgr, "ask_recover", _ask(Button.Discard, []))
    assert not mgr.offer_recovery()
    assert not (folder / f"{session}.headroom").exists()
    assert mgr.stale_sessions() == []


def test_stale_lock_of_a_dead_pid_is_offered(folder: Path, example: Design) -> None:
    folder.mkdir(parents=True)
    store.save(example, folder / "abc.headroom")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    lock = QLockFile(str(folder / "x.lock"))
    assert lock.tryLock(0)
    host_app = (folder / "x.lock").read_text().splitlines()[1:]
    lock.unlock()
    (folder / "abc.lock").write_text("\n".join([dead, *host_app]) + "\n")
    found = stale_sessions(folder)
    try:
        assert [s.session for s in found] == ["abc"]
        assert design_to_json(found[0].load()) == design_to_json(example)
    finally:
        for s in found:
            s.release()


def test_damaged_autosave_reports_and_keeps_document(mgr: RecoveryManager,
                                                      doc: DesignDocument, folder: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bad.headroom").write_bytes(b"not sqlite at all")
    errors: list[str] = []
    monkeypatch.setattr(mgr, "ask_recover", _ask(Button.Yes, []))
    monkeypatch.setattr(mgr, "show_error", lambda parent, msg: errors.append(msg))
    before = design_to_json(doc.design)
    assert not mgr.offer_recovery()
    assert errors and "bad.headroom" in errors[0]
    assert design_to_json(doc.design) == before


def test_autosave_failure_is_silent(mgr: RecoveryManager, doc: DesignDocument,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(design: Design, path: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(recovery.store, "save", boom)
    _modify(doc)
    assert not mgr.autosave()
    assert "No space" in mgr.last_error


def test_default_folder_is_under_app_data() -> None:
    assert recovery.recovery_folder().name == "recovery"


def test_the_design_asked_for_is_the_one_offered(doc: DesignDocument, folder: Path,
                                                 tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening b.headroom offers b's autosave (and only it), recovered as b with unsaved
    changes; another design's autosave waits; none of b's: no question at all."""
    a, b = str(tmp_path / "a.headroom"), str(tmp_path / "b.headroom")
    _crash(folder, a)
    _crash(folder, b)
    doc.set_path(b)
    mgr = RecoveryManager(doc, folder=folder, interval_s=3600)
    try:
        calls: list[RecoverySession] = []
        monkeypatch.setattr(mgr, "ask_recover", _ask(Button.Yes, calls))
        assert mgr.offer_recovery()
        assert [s.original_path for s in calls] == [b]
        assert doc.design.name == "crashed b" and doc.path == b and doc.is_modified
        assert [s.original_path for s in mgr.stale_sessions()] == [a]
        for s in mgr.stale_sessions():
            s.release()
        doc.set_path(str(tmp_path / "c.headroom"))
        calls.clear()
        assert not mgr.offer_recovery() and not calls
    finally:
        mgr.finish()


def test_the_prompt_says_what_each_button_does_and_esc_keeps_the_autosave(
        mgr: RecoveryManager, doc: DesignDocument, folder: Path, tmp_path: Path,
        qtbot: QtBot) -> None:
    path = str(tmp_path / "plan.headroom")
    _crash(folder, path)
    doc.set_path(path)
    seen: list[str] = []

    def answer() -> None:
        box = mgr.prompt
        if box is None or not box.isVisible():
            QTimer.singleShot(20, answer)
            return
        seen.extend(b.text() for b in box.buttons())
        seen.append(box.text())
        qtbot.keyClick(box, Qt.Key.Key_Escape)

    QTimer.singleShot(0, answer)
    assert not mgr.offer_recovery()
    assert seen[:3] == ["Recover autosave", "Open plan.headroom as saved", "Delete autosave"]
    assert "'crashed plan'" in seen[3] and path in seen[3]
    assert [s.original_path for s in mgr.stale_sessions()] == [path]  # kept for later
    for s in mgr.stale_sessions():
        s.release()
