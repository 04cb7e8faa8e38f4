"""Work that waits until the window has painted once (app/support/first_paint.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from app.support import first_paint


@pytest.fixture(autouse=True)
def _nothing_left_waiting() -> Iterator[None]:
    yield
    first_paint.flush()


def test_without_a_window_to_wait_for_work_runs_at_once() -> None:
    done: list[str] = []
    first_paint.later(lambda: done.append("now"))
    assert done == ["now"] and not first_paint.awaiting()


class _Paints(QObject):
    def __init__(self, log: list[str]):
        super().__init__()
        self.log = log

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt)
        if event.type() == QEvent.Type.Paint:
            self.log.append("paint")
        return False


def test_work_waits_for_the_first_paint_and_runs_in_order_after_it(qtbot: QtBot) -> None:
    log: list[str] = []
    first_paint.expect()
    first_paint.later(lambda: log.append("settle"))
    first_paint.later(lambda: log.append("hint"))
    first_paint.later(lambda: log.append("shown"), first=True)
    label = QLabel("a window")
    qtbot.addWidget(label)
    painted = _Paints(log)
    label.installEventFilter(painted)
    first_paint.watch(label)
    assert log == [] and first_paint.awaiting()
    label.show()
    qtbot.waitUntil(lambda: not first_paint.awaiting(), timeout=5000)
    assert log[0] == "paint" and log[1:4] == ["shown", "settle", "hint"]
    first_paint.later(lambda: log.append("after"))  # once painted: at once again
    assert log[-1] == "after"


def test_flush_runs_what_waits_when_the_window_never_painted() -> None:
    done: list[int] = []
    first_paint.expect()
    first_paint.later(lambda: done.append(1))
    assert done == []
    first_paint.flush()
    assert done == [1] and not first_paint.awaiting()
