"""Tooltips say what the latest prediction says about a component, in the user's words."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.canvas.tooltips import component_tooltip
from models.document import numbers as fmt
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
    assert "sync of 3 items: 1.5 h at 2.94 MB/s" in text and "bound by WAN 100 Mbit/s" in text
    assert "publishes to 4 subscribed libraries" in component_tooltip(doc, "pub-nfs")
    inspector = Inspector(doc)
    qtbot.addWidget(inspector)
    doc.set_selection(["deploy"])
    assert "deploy of 4 items" in inspector.predicted.text()


def test_a_web_server_reads_its_response_not_a_storage_latency(qtbot: QtBot) -> None:
    """A web VM's latency is its response time: it read "0 IOPS at 33.6 ms"."""
    doc, _, _ = make(qtbot, examples.load("dense-web-farm"))
    vm = doc.design.of_kind("vm")[0].id
    p = doc.prediction
    assert p is not None
    i = p.vms.ids.index(vm)
    text = component_tooltip(doc, vm)
    assert "IOPS" not in text
    assert f"web response {fmt.with_unit(float(p.vms.latency_ms[i]), 'ms')}" in text
    assert f"(p95 {fmt.with_unit(float(p.vms.p95_latency_ms[i]), 'ms')})" in text
    storage, _, _ = make(qtbot, examples.load("vaio-scaling"))
    io_vm = component_tooltip(storage, "v1")
    assert "IOPS at" in io_vm and "web response" not in io_vm
