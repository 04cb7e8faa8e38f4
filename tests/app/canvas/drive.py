"""How the canvas tests drive it as a user does: a document on a real scene and view, and the
mouse, the keyboard and drags from the palette aimed at the items of the canvas."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QAction, QContextMenuEvent, QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QMenu
from pytestqt.qtbot import QtBot

from app.canvas.scene import DesignScene
from app.canvas.view import DesignView
from app.document.design_document import DesignDocument
from models.document.design import Design, Link

LEFT = Qt.MouseButton.LeftButton
NONE = Qt.KeyboardModifier.NoModifier
ALT = Qt.KeyboardModifier.AltModifier
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def make(qtbot: QtBot, design: Design) -> tuple[DesignDocument, DesignScene, DesignView]:
    """``design`` open on a canvas of 1000 x 700, fitted to view."""
    doc = DesignDocument(design)
    scene = DesignScene(doc)
    view = DesignView(scene)
    view.resize(1000, 700)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    view.fit()
    return doc, scene, view


def at(view: DesignView, cid: str) -> QPoint:
    """Where ``cid``'s item is, in the view's viewport."""
    item = view.design_scene.item(cid)
    assert item is not None, cid
    return view.mapFromScene(item.pos())


def drag(qtbot: QtBot, view: DesignView, start: QPoint, end: QPoint,
         mods: Qt.KeyboardModifier = NONE, steps: int = 4) -> None:
    """Press at ``start``, move there in ``steps`` and let go at ``end`` (viewport points)."""
    vp = view.viewport()
    qtbot.mousePress(vp, LEFT, mods, start)
    for k in range(1, steps + 1):
        qtbot.mouseMove(vp, start + (end - start) * k / steps)
    qtbot.mouseRelease(vp, LEFT, mods, end)


def drag_scene(qtbot: QtBot, view: DesignView, start: QPointF, end: QPointF,
               mods: Qt.KeyboardModifier = NONE) -> None:
    """:func:`drag` between two scene points."""
    drag(qtbot, view, view.mapFromScene(start), view.mapFromScene(end), mods)


def drop(view: DesignView, mime: QMimeData, pos: QPoint) -> None:
    """What a drag from the palette does when it enters the canvas, moves and is let go at
    ``pos``."""
    vp = view.viewport()
    actions = Qt.DropAction.CopyAction
    enter = QDragEnterEvent(QPointF(pos), actions, mime, LEFT, NONE)
    QApplication.sendEvent(vp, enter)
    assert enter.isAccepted()
    move = QDragMoveEvent(QPointF(pos), actions, mime, LEFT, NONE)
    QApplication.sendEvent(vp, move)
    QApplication.sendEvent(vp, QDropEvent(QPointF(pos), actions, mime, LEFT, NONE))


def undo_key(qtbot: QtBot, view: DesignView, redo: bool = False) -> None:
    """Ctrl+Z (Ctrl+Shift+Z to redo) as the main window's Edit menu has it: the document's
    undo stack's actions on the canvas."""
    doc = view.design_scene.document
    for act in view.actions():
        if act.objectName() == "canvas_undo":
            break
    else:
        undo = doc.undo_stack.createUndoAction(view)
        undo.setObjectName("canvas_undo")
        undo.setShortcut("Ctrl+Z")
        redo_act = doc.undo_stack.createRedoAction(view)
        redo_act.setObjectName("canvas_redo")
        redo_act.setShortcut("Ctrl+Shift+Z")
        for a in (undo, redo_act):
            a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            view.addAction(a)
    if not view.isActiveWindow():  # a shortcut reaches only the active window
        view.activateWindow()
        qtbot.waitUntil(view.isActiveWindow)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Z, CTRL | SHIFT if redo else CTRL)


def runs_on(doc: DesignDocument, vm: str) -> list[str]:
    """The hosts ``vm`` runs on (one, or none)."""
    return [lk.target for lk in doc.links_of(vm) if lk.kind == "runs_on"]


def has(doc: DesignDocument, link: Link) -> bool:
    return any((lk.kind, lk.source, lk.target) == (link.kind, link.source, link.target)
               for lk in doc.design.links)


def empty_spot(view: DesignView) -> QPoint:
    """A point of the viewport over no item and inside no box: empty canvas."""
    scene = view.design_scene
    vp = view.viewport()
    for fy in (0.95, 0.05, 0.5):
        for fx in (0.05, 0.95, 0.5, 0.25, 0.75):
            p = QPoint(int(vp.width() * fx), int(vp.height() * fy))
            pos = view.mapToScene(p)
            if not scene.items(pos) and scene.target_at(pos) is None:
                return p
    raise AssertionError("no empty canvas in view")


def right_click(view: DesignView, pos: QPoint, choose: Callable[[QMenu], None]
                ) -> list[QMenu]:
    """Right-click the viewport at ``pos``; ``choose`` acts on the menu while it is open
    (then it closes).  Returns the menus shown (none over empty canvas)."""
    shown: list[QMenu] = []

    def answer() -> None:
        menu = QApplication.activePopupWidget()
        if isinstance(menu, QMenu):
            shown.append(menu)
            try:
                choose(menu)
            finally:
                menu.close()

    timer = QTimer()
    timer.setSingleShot(True)
    timer.timeout.connect(answer)
    timer.start(0)  # runs in the menu's own event loop
    vp = view.viewport()
    QApplication.sendEvent(vp, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos,
                                                 vp.mapToGlobal(pos)))
    timer.stop()  # no menu opened: nothing to answer later
    return shown


def action(menu: QMenu, starts: str) -> QAction:
    """The action of ``menu`` whose text starts with ``starts``."""
    found = [a for a in menu.actions() if a.text().startswith(starts)]
    assert len(found) == 1, [a.text() for a in menu.actions()]
    return found[0]
