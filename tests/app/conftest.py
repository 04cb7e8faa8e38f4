"""GUI test fixtures: settings and files stay in the test's folder, Qt warnings fail the test,
and top-level widgets a test leaves open are closed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import (
    QCoreApplication,
    QMessageLogContext,
    QStandardPaths,
    QtMsgType,
    qInstallMessageHandler,
)
from PySide6.QtWidgets import QApplication

from app.support import jobs, qt_fixes
from models.document.design import Component, Design, Link
from models.examples import bundled as examples

qt_fixes.install()  # before pytest-qt makes the QApplication, as run_app does

IGNORED = ("This plugin does not support propagateSizeHints()",
           "This plugin does not support raise()",
           "This plugin does not support grabbing the keyboard")
"""Messages of the offscreen platform plugin itself, not of Headroom."""


@pytest.fixture(autouse=True)
def _qt_test_mode(qapp: QApplication) -> Iterator[None]:
    QStandardPaths.setTestModeEnabled(True)
    QCoreApplication.setOrganizationName("HeadroomTest")
    QCoreApplication.setApplicationName("HeadroomTest")
    yield


@pytest.fixture(autouse=True)
def _fail_on_qt_warnings(qapp: QApplication) -> Iterator[list[str]]:
    seen: list[str] = []

    def handler(kind: QtMsgType, _context: QMessageLogContext, message: str) -> None:
        serious = kind in (QtMsgType.QtWarningMsg, QtMsgType.QtCriticalMsg,
                           QtMsgType.QtFatalMsg)
        if serious and not any(message.startswith(m) for m in IGNORED):
            seen.append(message)

    previous = qInstallMessageHandler(handler)
    try:
        yield seen
    finally:
        qInstallMessageHandler(previous)
    if seen:
        pytest.fail("Qt warnings: " + " | ".join(seen))


@pytest.fixture(autouse=True)
def _close_leaked_widgets(qapp: QApplication) -> Iterator[None]:
    yield
    for widget in QApplication.topLevelWidgets():
        if widget.isVisible():
            doc = getattr(widget, "document", None)
            stack = getattr(doc, "undo_stack", None)
            if stack is not None:
                stack.setClean()  # never ask "save changes?" in a test
            widget.close()
    # mime data left on the clipboard is freed by Qt after Python at exit: segfault
    QApplication.clipboard().clear()
    # a background job still running would compete with the next test for the interpreter
    assert jobs.wait_idle(), "a background job did not stop"


@pytest.fixture
def nic_example() -> Design:
    """The bundled example with a NIC installed in its host (every subsystem has data)."""
    design = examples.load(examples.DEFAULT_EXAMPLE)
    if not design.of_kind("nic"):
        design.components.append(Component("n1", "nic", "vmnic0", props={"speed_gbps": 10.0}))
        design.links.append(Link("n1", "h1", "installed_in"))
    return design
