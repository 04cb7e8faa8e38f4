"""A new design opens on the start page: recent files, imports, examples, a blank start."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.window import start_page
from app.window.main_window import MainWindow
from models.document.design import Component
from models.examples import bundled as examples
from models.io.files import save_design
from models.io.importers.importer import Importer


def make(qtbot: QtBot) -> MainWindow:
    window = MainWindow(DesignDocument(examples.load("vaio-scaling")), remember_layout=False)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_new_opens_the_start_page_and_blank_the_empty_canvas_with_a_hint(
        qtbot: QtBot) -> None:
    window = make(qtbot)
    assert not window.start.showing_page  # an example design: its canvas
    window.files.action_new.trigger()
    assert window.start.showing_page and not window.document.design.components
    assert not window.charts_dock.isVisible()  # the page gets the height
    page = window.start.page
    qtbot.mouseClick(page.blank_button, Qt.MouseButton.LeftButton)
    assert not window.start.showing_page and window.start.blank
    assert window.charts_dock.isVisible() and window.evidence_dock.toggleViewAction().isChecked()
    assert window.statusBar().currentMessage() == start_page.BLANK_HINT
    assert "Drag a host from the Palette" in page.hint.text()
    window.document.add_component(Component("h1", "host", "esx-01"))
    assert not window.start.showing_page
    window.document.undo_stack.setClean()  # closing asks nothing


def test_an_example_opens_from_the_page(qtbot: QtBot) -> None:
    window = make(qtbot)
    window.files.action_new.trigger()
    button = window.start.page.example_buttons["dense-web-farm"]
    assert button.text() == examples.load("dense-web-farm").name
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert window.document.design.name == examples.load("dense-web-farm").name
    assert not window.start.showing_page


def test_recent_files_open_from_the_page(qtbot: QtBot, tmp_path: Path) -> None:
    window = make(qtbot)
    path = tmp_path / "plan.headroom"
    save_design(examples.load("ft-netperf"), path)
    window.files.clear_recent()  # QSettings keeps other tests' files in this process
    window.files.add_recent(str(path))
    window.files.action_new.trigger()
    buttons = window.start.page.recent_buttons
    assert [b.toolTip() for b in buttons] == [str(path)]
    assert buttons[0].text().startswith("plan.headroom")
    qtbot.mouseClick(buttons[0], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.document.path == str(path.resolve()))
    assert window.document.design.name == examples.load("ft-netperf").name
    assert not window.start.showing_page


@pytest.mark.parametrize("button", ["rvtools", "vcenter", "open"])
def test_imports_and_open_start_from_the_page(qtbot: QtBot, button: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    window = make(qtbot)
    window.files.action_new.trigger()
    called: list[str] = []
    monkeypatch.setattr(window.files, "import_from", called.append)
    monkeypatch.setattr(window.files, "open", lambda: called.append("open"))
    page = window.start.page
    clicked = page.open_button if button == "open" else page.import_buttons[button]
    qtbot.mouseClick(clicked, Qt.MouseButton.LeftButton)
    assert called == [button]


def test_every_design_source_has_its_button(qtbot: QtBot, fake_importer: Importer,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    window = make(qtbot)
    window.files.action_new.trigger()
    buttons = window.start.page.import_buttons
    assert [b.text() for b in buttons.values()] == ["RVTools export…", "Live vCenter…",
                                                    "Live Optics workbook…", "Fake inventory…"]
    assert buttons["fake"].toolTip() == "Import a fake inventory"
    called: list[str] = []
    monkeypatch.setattr(window.files, "import_from", called.append)
    qtbot.mouseClick(buttons["fake"], Qt.MouseButton.LeftButton)
    assert called == ["fake"]


def test_the_page_knows_no_window(qtbot: QtBot) -> None:
    """The start page answers to signals: it imports nothing of the main window."""
    import ast  # noqa: PLC0415

    tree = ast.parse(Path(start_page.__file__).read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "app.window.main_window" not in imported
    page = start_page.StartPage()
    qtbot.addWidget(page)
    page.refresh_recent(["/tmp/a.headroom"])
    with qtbot.waitSignal(page.recent_chosen) as blocker:
        qtbot.mouseClick(page.recent_buttons[0], Qt.MouseButton.LeftButton)
    assert blocker.args == ["/tmp/a.headroom"]
    with qtbot.waitSignal(page.import_chosen) as blocker:
        qtbot.mouseClick(page.import_buttons["vcenter"], Qt.MouseButton.LeftButton)
    assert blocker.args == ["vcenter"]
