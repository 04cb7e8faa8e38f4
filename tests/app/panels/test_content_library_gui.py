"""The desktop app handles Content Library components: palette entry, drop onto the canvas,
inspector edits with undo, and the library's stage as the badged bottleneck."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from app.canvas.drop import preset_mime
from app.canvas.scene import DesignScene
from app.canvas.view import DesignView
from app.document.design_document import DesignDocument
from app.panels.inspector import Inspector
from app.panels.palette import Palette
from models.document.design import Design, Link
from tests.app.canvas.drive import drop


def make(qtbot: QtBot) -> tuple[DesignDocument, DesignScene, DesignView, Inspector]:
    doc = DesignDocument(Design(name="libraries"))
    scene = DesignScene(doc)
    view = DesignView(scene)
    view.resize(900, 600)
    inspector = Inspector(doc)
    for w in (view, inspector):
        qtbot.addWidget(w)
        w.show()
    qtbot.waitExposed(view)
    return doc, scene, view, inspector


def test_palette_lists_the_library_presets(qtbot: QtBot) -> None:
    palette = Palette(DesignDocument())
    qtbot.addWidget(palette)
    assert palette.entry("content_library").text(0) == "Content Library"
    assert palette.entry("cl-published-nfs").text(0) == "Published library on NFS"
    assert not palette.entry("cl-subscribed-elm").icon(0).isNull()


def test_drop_a_library_and_edit_it_with_undo(qtbot: QtBot) -> None:
    doc, scene, view, insp = make(qtbot)
    drop(view, preset_mime("cl-published-nfs"), QPoint(200, 200))
    pub = doc.design.components[-1]
    assert (pub.kind, pub.get("backing")) == ("content_library", "nfs")
    item = scene.item(pub.id)
    assert item is not None and "nfs" in item.subtitle
    drop(view, preset_mime("cl-subscribed-elm"), QPoint(600, 200))
    sub = doc.design.components[-1]
    doc.add_link(Link(sub.id, pub.id, "subscribes_to"))
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000) as blocker:
        doc.request_evaluation()
    rows = {r["id"]: r for r in blocker.args[0].sections.to_json()["content_library"]}
    fast = rows[sub.id]["completion_s"]
    assert rows[sub.id]["mode"] == "streaming" and fast > 0

    doc.set_selection([sub.id])
    assert insp.title.text() == f"Content Library: {sub.name}"
    check = insp.field("rhttpproxy").check
    assert check is not None and check.isChecked()
    check.setFocus()
    qtbot.keyClick(check, Qt.Key.Key_Space)
    assert doc.value(f"id:{sub.id}", "rhttpproxy") is False
    f = insp.field("items")
    assert f.edit is not None
    f.edit.setFocus()
    f.edit.selectAll()
    qtbot.keyClicks(f.edit, "12")
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000) as blocker:
        qtbot.keyClick(f.edit, Qt.Key.Key_Return)
    assert doc.value(f"id:{sub.id}", "items") == 12
    row = {r["id"]: r for r in blocker.args[0].sections.to_json()["content_library"]}[sub.id]
    assert row["queued"] == 7 and row["completion_s"] > fast
    steps = doc.undo_stack.count()
    doc.undo_stack.undo()
    assert doc.value(f"id:{sub.id}", "items") == 1
    assert f.edit.text() == "1"
    doc.undo_stack.undo()
    assert doc.value(f"id:{sub.id}", "rhttpproxy") is True
    doc.undo_stack.redo()
    assert doc.value(f"id:{sub.id}", "rhttpproxy") is False
    assert doc.undo_stack.count() == steps


def test_library_bottleneck_is_badged(qtbot: QtBot) -> None:
    doc, scene, view, _ = make(qtbot)
    drop(view, preset_mime("content_library"), QPoint(300, 300))
    lib = doc.design.components[-1]
    doc.set_value(f"id:{lib.id}", "operation", "export")
    with qtbot.waitSignal(doc.prediction_updated, timeout=5000) as blocker:
        doc.request_evaluation()
    top = blocker.args[0].bottlenecks(1)[0]
    assert top.component == lib.id and top.resource == "vCenter compression"
    item = scene.item(lib.id)
    assert item is not None
    qtbot.waitUntil(lambda: item.badge)
