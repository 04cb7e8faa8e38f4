"""The first window fits the screen it opens on; a remembered geometry is restored only where
it fits (app/window/geometry.py and MainWindow.restore_layout)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QByteArray, QRect, QSettings, QSize
from pytestqt.qtbot import QtBot

from app.document.design_document import DesignDocument
from app.window import geometry
from app.window.main_window import SETTINGS_GROUP, MainWindow
from models.examples import bundled as examples

ROOT = Path(__file__).resolve().parents[3]


def test_the_first_geometry_is_the_default_size_within_the_screen_centred() -> None:
    laptop = QRect(0, 0, 1366, 768)
    assert geometry.first_geometry(laptop) == laptop
    desktop = QRect(0, 0, 1920, 1080)
    assert geometry.first_geometry(desktop) == QRect(160, 40, 1600, 1000)
    panel = QRect(0, 27, 1280, 693)  # a top panel takes 27 px
    assert geometry.first_geometry(panel) == panel
    assert geometry.first_geometry(QRect(1920, 0, 1280, 1024), QSize(1600, 1000)) \
        == QRect(1920, 12, 1280, 1000)  # a second screen to the right


def window(qtbot: QtBot) -> MainWindow:
    w = MainWindow(DesignDocument(examples.load(examples.DEFAULT_EXAMPLE)))
    qtbot.addWidget(w)
    return w


def test_the_window_opens_within_the_screen(qtbot: QtBot) -> None:
    w = window(qtbot)
    area = geometry.available(w)
    assert area.contains(w.geometry())
    assert w.size() == QSize(min(1600, area.width()), min(1000, area.height()))


def remember(rect: QRect, qtbot: QtBot) -> None:
    """Settings as a window at ``rect`` leaves them on closing."""
    w = window(qtbot)
    w.setGeometry(rect)
    w.save_layout()
    w.deleteLater()


def test_a_remembered_geometry_is_restored_where_it_fits(qtbot: QtBot) -> None:
    area = geometry.available(window(qtbot))
    small = QRect(area.x() + 10, area.y() + 20, area.width() // 2, area.height() // 2)
    remember(small, qtbot)
    w = window(qtbot)
    assert w.size() == small.size()
    assert w.restore_layout()


def test_a_geometry_remembered_on_a_larger_screen_is_not(qtbot: QtBot) -> None:
    area = geometry.available(window(qtbot))
    remember(QRect(0, 0, area.width() + 600, area.height() + 300), qtbot)
    w = window(qtbot)
    assert area.contains(w.geometry())
    assert not w.restore_layout()  # the docks get their default sizes at the first show
    settings = QSettings()
    settings.beginGroup(SETTINGS_GROUP)
    assert isinstance(settings.value("state"), QByteArray)  # their places are kept


def test_the_app_s_first_window_fits_a_1366x768_screen(tmp_path: Path) -> None:
    """The app as started (its self-test) on an offscreen screen of a laptop's size."""
    screen = tmp_path / "screen.json"
    screen.write_text(json.dumps({"screens": [
        {"name": "laptop", "x": 0, "y": 0, "width": 1366, "height": 768,
         "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}), encoding="utf-8")
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={screen}",
           "HOME": str(tmp_path)}
    res = subprocess.run([sys.executable, "-m", "app", "--self-test"], check=False, cwd=ROOT,
                         capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0, res.stderr
    assert "self-test: window 1366x768 on a screen of 1366x768" in res.stdout
