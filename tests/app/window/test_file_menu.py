"""The File menu: New/Open/Save/Save As round trips, recent files, "save changes?" on close."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from openpyxl import load_workbook
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMainWindow, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.window.file_menu import MAX_RECENT, FileController
from app.window.recovery import RecoveryManager, RecoverySession, recovery_folder
from models.analysis.refresh import refresh, target
from models.document.codec import design_to_json
from models.document.design import Design, Scenario
from models.examples import bundled as examples
from models.io import store
from models.io.files import load_design, save_design
from models.io.importers.importer import Importer
from tests.refresh_estate import estate

Button = QMessageBox.StandardButton


class Harness:
    def __init__(self, window: QMainWindow, doc: DesignDocument, ctrl: FileController,
                 monkeypatch: pytest.MonkeyPatch) -> None:
        self.window, self.doc, self.ctrl = window, doc, ctrl
        self.save_paths: list[str] = []
        self.open_paths: list[str] = []
        self.answers: list[Button] = []
        self.asked = 0
        self.errors: list[str] = []
        monkeypatch.setattr(ctrl, "ask_save_path", self._save_path)
        monkeypatch.setattr(ctrl, "ask_open_path", lambda: self.open_paths.pop(0))
        monkeypatch.setattr(ctrl, "ask_save_changes", self._answer)
        monkeypatch.setattr(ctrl, "show_error", lambda title, msg: self.errors.append(msg))

    def _save_path(self, suggested: str, file_filter: str = "") -> str:
        return self.save_paths.pop(0)

    def _answer(self) -> Button:
        self.asked += 1
        return self.answers.pop(0)

    def modify(self) -> None:
        comp = self.doc.design.components[0]
        self.doc.move_components({comp.id: (comp.x + 10.0, comp.y)})
        assert self.doc.is_modified


@pytest.fixture
def h(qtbot: QtBot, example: Design, monkeypatch: pytest.MonkeyPatch) -> Iterator[Harness]:
    window = QMainWindow()
    doc = DesignDocument(example, window)
    ctrl = FileController(window, doc, recovery=False)
    ctrl.clear_recent()  # QSettings caches its files per process: start every test empty
    yield Harness(window, doc, ctrl, monkeypatch)
    doc.undo_stack.setClean()
    window.close()
    ctrl.recovery.finish()
    window.deleteLater()


def test_menu_has_the_file_actions(h: Harness) -> None:
    menu = h.window.menuBar().actions()[0].menu()
    assert menu is h.ctrl.menu
    shortcuts = {a.text().replace("&", ""): a.shortcut() for a in menu.actions()}
    assert shortcuts["New"] == QKeySequence(QKeySequence.StandardKey.New)
    assert shortcuts["Open..."] == QKeySequence("Ctrl+O")
    assert shortcuts["Save"] == QKeySequence("Ctrl+S")
    assert shortcuts["Save As..."] == QKeySequence("Ctrl+Shift+S")
    assert shortcuts["Quit"] == QKeySequence("Ctrl+Q")
    assert {"Export Report (PDF)...", "Export Report (PNG)..."} <= set(shortcuts)
    acts = h.ctrl.examples_menu.actions()
    assert [a.data() for a in acts] == examples.names()
    assert [a.text() for a in acts] == [examples.load(n).name for n in examples.names()]
    assert "VAIO scaling testbed" in [a.text() for a in acts]  # the design's name, no slug


@pytest.mark.parametrize("ext", [".headroom", ".json"])
def test_save_as_then_open_round_trip(h: Harness, tmp_path: Path, ext: str) -> None:
    target = tmp_path / f"design{ext}"
    before = design_to_json(h.doc.design)
    h.modify()
    edited = design_to_json(h.doc.design)
    assert edited != before
    h.save_paths.append(str(target))
    assert h.ctrl.save_as()
    assert h.doc.path == str(target.resolve()) and not h.doc.is_modified
    assert design_to_json(load_design(target)) == edited
    h.ctrl.new()
    assert h.doc.path == "" and h.doc.design.components == []
    h.open_paths.append(str(target))
    h.ctrl.open()
    assert design_to_json(h.doc.design) == edited
    assert h.doc.path == str(target.resolve()) and not h.doc.is_modified


def test_save_asks_for_a_path_only_when_untitled(h: Harness, tmp_path: Path) -> None:
    h.save_paths.append(str(tmp_path / "noext"))
    assert h.ctrl.save()
    saved = tmp_path / "noext.headroom"
    assert saved.exists() and h.doc.path == str(saved.resolve())
    h.modify()
    assert h.ctrl.save()  # no path left to pop: it must not ask again
    assert load_design(saved).components[0].x == h.doc.design.components[0].x


def test_cancelled_save_as_changes_nothing(h: Harness) -> None:
    h.modify()
    h.save_paths.append("")
    assert not h.ctrl.save_as()
    assert h.doc.is_modified and h.doc.path == ""


def test_open_bad_file_shows_error_and_keeps_document(h: Harness, tmp_path: Path) -> None:
    bad = tmp_path / "bad.headroom"
    bad.write_bytes(b"\x00garbage" * 100)
    before = design_to_json(h.doc.design)
    h.open_paths.append(str(bad))
    h.ctrl.open()
    assert len(h.errors) == 1 and "bad.headroom" in h.errors[0]
    assert design_to_json(h.doc.design) == before
    assert str(bad.resolve()) not in h.ctrl.recent_files()


def test_save_error_is_shown_not_raised(h: Harness, tmp_path: Path) -> None:
    h.save_paths.append(str(tmp_path / "missing-folder" / "x.headroom"))
    assert not h.ctrl.save_as()
    assert h.errors and h.doc.path == ""


def test_recent_files_most_recent_first_and_capped(h: Harness, tmp_path: Path) -> None:
    paths = []
    for i in range(MAX_RECENT + 2):
        p = tmp_path / f"d{i}.json"
        save_design(h.doc.design, p)
        paths.append(str(p.resolve()))
        h.ctrl.open_path(str(p))
    h.ctrl.open_path(paths[3])
    recent = h.ctrl.recent_files()
    assert recent[0] == paths[3] and recent[1] == paths[-1]
    assert len(recent) == MAX_RECENT and len(set(recent)) == MAX_RECENT
    entries = [a for a in h.ctrl.recent_menu.actions() if a.data()]
    assert [a.data() for a in entries] == recent
    entries[2].trigger()
    assert h.doc.path == recent[2]
    h.ctrl.clear_recent()
    assert h.ctrl.recent_files() == [] and not h.ctrl.recent_menu.isEnabled()


def test_new_when_modified_respects_cancel_and_discard(h: Harness) -> None:
    h.modify()
    before = design_to_json(h.doc.design)
    h.answers.append(Button.Cancel)
    h.ctrl.new()
    assert design_to_json(h.doc.design) == before and h.asked == 1
    h.answers.append(Button.Discard)
    h.ctrl.new()
    assert h.doc.design.components == [] and not h.doc.is_modified


def test_close_modified_asks_and_cancel_keeps_window(qtbot: QtBot, h: Harness) -> None:
    h.window.show()
    h.modify()
    h.answers.append(Button.Cancel)
    assert not h.window.close()
    assert h.window.isVisible() and h.asked == 1
    h.answers.append(Button.Discard)
    assert h.window.close()
    assert not h.window.isVisible()


def test_close_modified_save_writes_the_file(qtbot: QtBot, h: Harness, tmp_path: Path) -> None:
    h.window.show()
    h.modify()
    target = tmp_path / "closing.headroom"
    h.answers.append(Button.Save)
    h.save_paths.append(str(target))
    h.ctrl.action_quit.trigger()
    assert not h.window.isVisible()
    assert design_to_json(load_design(target)) == design_to_json(h.doc.design)


def test_close_unmodified_does_not_ask(qtbot: QtBot, h: Harness) -> None:
    h.window.show()
    assert h.window.close() and h.asked == 0


def test_maybe_save_when_save_as_is_cancelled(h: Harness) -> None:
    h.modify()
    h.answers.append(Button.Save)
    h.save_paths.append("")
    assert not h.ctrl.maybe_save()


def test_open_example(h: Harness) -> None:
    name = examples.names()[0]
    h.ctrl.open_example(name)
    assert h.doc.design.name == examples.load(name).name and h.doc.path == ""


def test_export_pdf_and_png(h: Harness, tmp_path: Path, qtbot: QtBot) -> None:
    h.save_paths.extend([str(tmp_path / "r"), str(tmp_path / "r.png")])
    for ext in (".pdf", ".png"):
        assert h.ctrl.export_report(ext)
        job = h.ctrl.report_job
        assert job is not None
        with qtbot.waitSignal(job.finished, timeout=30000) as done:
            pass
        assert done.args == [True]
    assert (tmp_path / "r.pdf").read_bytes().startswith(b"%PDF-")
    assert (tmp_path / "r.png").read_bytes()[:4] == b"\x89PNG"
    assert not h.errors


def test_start_offers_recovery_of_a_crashed_session(qtbot: QtBot, example: Design,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    folder = recovery_folder()
    folder.mkdir(parents=True, exist_ok=True)
    crashed = example.copy()
    crashed.name = "left behind"
    store.save(crashed, folder / "deadbeef.headroom")  # no lock holder: its process is gone
    answers: list[str] = []

    def ask(self: RecoveryManager, session: RecoverySession, count: int,
            parent: QWidget | None) -> Button:
        answers.append(session.session)
        return Button.Yes

    monkeypatch.setattr(RecoveryManager, "ask_recover", ask)
    window = QMainWindow()
    doc = DesignDocument(example, window)
    ctrl = FileController(window, doc)
    try:
        qtbot.waitUntil(lambda: doc.design.name == "left behind", timeout=5000)
        assert answers == ["deadbeef"] and doc.is_modified and doc.path == ""
    finally:
        doc.undo_stack.setClean()
        window.close()
        ctrl.recovery.finish()
        window.deleteLater()


def test_import_lists_the_registrys_design_sources(qtbot: QtBot, example: Design,
                                                   fake_importer: Importer,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    ctrl = FileController(window, DesignDocument(example, window), recovery=False)
    acts = ctrl.import_menu.actions()
    assert [a.text() for a in acts] == ["&RVTools Export...", "Live &vCenter...",
                                        "&Live Optics Workbook...", "&Fake Inventory..."]
    assert acts[3].statusTip() == "Import a fake inventory"
    assert ctrl.import_menu.menuAction() in ctrl.menu.actions()
    started: list[Importer] = []
    monkeypatch.setattr("app.window.importing.start_import",
                        lambda w, d, importer: started.append(importer))
    acts[3].trigger()
    assert started == [fake_importer]


def test_export_workbook_from_the_menu(qtbot: QtBot, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """File > Export Workbook (Excel): the file dialog (mocked), the export in the background,
    the workbook written with a refresh kept as the active scenario beside the base, and the
    status bar saying so; a failed write shown, nothing left."""
    design = estate()
    r = refresh(design, target("dell-r760"))
    design.scenarios.append(Scenario("R760", list(r.overrides), r.rebuild))
    window = QMainWindow()
    qtbot.addWidget(window)
    doc = DesignDocument(design, window)
    ctrl = FileController(window, doc, recovery=False)
    doc.set_scenario("R760")
    h = Harness(window, doc, ctrl, monkeypatch)
    action = next(a for a in ctrl.menu.actions() if a.text() == "Export &Workbook (Excel)...")
    assert action is ctrl.action_export_xlsx
    h.save_paths.append(str(tmp_path / "estate"))
    action.trigger()
    out = tmp_path / "estate.xlsx"
    assert out.exists() and not h.errors
    wb = load_workbook(out)
    assert wb.sheetnames[:4] == ["Summary", "Clusters", "Hosts", "VMs"]
    assert "Assumptions" in wb.sheetnames
    head = [c.value for c in wb["Summary"][1]]
    assert head[:3] == ["Figure", "base", "R760"]
    hosts = {row[0].value: (row[1].value, row[2].value) for row in wb["Summary"].iter_rows()}
    assert hosts["Hosts"] == (6, r.after.hosts)
    assert window.statusBar().currentMessage() == "Exported estate.xlsx: 7 sheets"
    h.save_paths.append(str(tmp_path / "missing" / "w.xlsx"))  # no such folder
    assert not ctrl.export_workbook()
    assert h.errors and not (tmp_path / "missing").exists()
    h.save_paths.append("")  # the dialog cancelled
    assert not ctrl.export_workbook()
    ctrl.recovery.finish()
