"""Tooltips say what the latest prediction says about a component, in the user's words."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.canvas.tooltips import component_tooltip
from models.document.design import Design
from models.examples import bundled as examples
from tests.app.canvas.drive import make


def test_tooltip_reports_the_prediction(qtbot: QtBot, nic_example: Design) -> None:
    doc, _, _ = make(qtbot, nic_example)
    text = component_tooltip(doc, "a1")
    assert "IOPS" in text and "busy" in text
    assert "vCPU" not in component_tooltip(doc, "h1") and "CPU" in component_tooltip(doc, "h1")
    assert "on Dell R720" in component_tooltip(doc, "v1")  # its host by name
    assert component_tooltip(doc, "nope") == ""


def test_library_tooltip_and_inspector_say_how_long_its_job_takes(qtbot: QtBot) -> None:
    from app.panels.inspector import Inspector  # noqa: PLC0415

    doc, _, _ = make(qtbot, examples.load("content-library"))
    text = component_tooltip(doc, "br1-lib1")
    assert "sync of 3 items: 89.9 min at 3 MB/s" in text and "bound by WAN 100 Mbit/s" in text
    assert "publishes to 4 subscribed libraries" in component_tooltip(doc, "pub-nfs")
    inspector = Inspector(doc)
    qtbot.addWidget(inspector)
    doc.set_selection(["deploy"])
    assert "deploy of 4 items" in inspector.predicted.text()
