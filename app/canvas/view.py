"""The canvas view, where the canvas is put together: zoom (wheel, Ctrl+= / Ctrl+- / Ctrl+0),
pan (middle drag), fit, the drop target for palette presets, and the finder (Ctrl+F).

The scene only mirrors the document; the view installs the interactions on it (linking,
moving, the rubber band, the context menu, level of detail: one module each, each seeing the
scene as a :class:`~app.canvas.protocol.Canvas`).  After every zoom, scroll or resize the view
tells the detail keeper what it shows, so that VMs get items of their own only where they can
be read (:mod:`app.canvas.detail`)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPalette,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QGraphicsView, QLabel, QWidget

from app.canvas.cards import DETAIL_ZOOM
from app.canvas.context_menu import ContextMenu
from app.canvas.detail import Detail
from app.canvas.drop import drop_preset, preset_of
from app.canvas.finder import Finder
from app.canvas.linking import LinkTool
from app.canvas.move import MoveTracker
from app.canvas.readonly import note
from app.canvas.rubberband import RubberBand
from app.canvas.scene import DesignScene

MIN_ZOOM, MAX_ZOOM = 0.02, 8.0
STEP = 1.25
FOUND_ZOOM = 0.6
"""A host or array found far out is brought at least this close (its name reads)."""


class DesignView(QGraphicsView):
    zoom_changed = Signal(float)

    def __init__(self, scene: DesignScene, parent: QWidget | None = None):
        super().__init__(scene, parent)
        self.design_scene = scene
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setAcceptDrops(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.link_tool = LinkTool(scene)  # first: an Alt+press links, and moves nothing
        self.mover = MoveTracker(scene)
        self.rubber_band = RubberBand(scene, self)
        self.context_menu = ContextMenu(scene)
        self.detail = Detail(scene)
        for interaction in (self.link_tool, self.mover, self.rubber_band, self.context_menu,
                            self.detail):
            scene.install(interaction)
        self.detail.refresh()  # the selected VMs there are get their items
        self._pan_from: QPoint | None = None
        self._detail_timer = QTimer(self)
        self._detail_timer.setSingleShot(True)
        self._detail_timer.setInterval(0)
        self._detail_timer.timeout.connect(self.update_detail)
        scene.document.design_replaced.connect(self.update_detail)
        self.finder = Finder(scene, self.reveal, self, self)
        self.find_action = QAction("&Find on Canvas...", self)
        self.find_action.setShortcut(QKeySequence.StandardKey.Find)
        self.find_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.find_action.triggered.connect(self.focus_finder)
        self.addAction(self.find_action)
        self._place_finder()
        self.banner = Note(self)
        """Says, in a scenario that rebuilds the hosts (a refresh), what it does and that the
        canvas shows its hosts (:func:`app.canvas.readonly.note`); a click hides it until the
        scenario changes."""
        self.banner.setAccessibleName("Canvas note")
        self.banner.setWordWrap(True)
        self.banner.setAutoFillBackground(True)
        self.banner.setBackgroundRole(QPalette.ColorRole.ToolTipBase)
        self.banner.setForegroundRole(QPalette.ColorRole.ToolTipText)
        self.banner.setContentsMargins(8, 4, 8, 4)
        self.banner.hide()
        doc = scene.document
        for signal in (doc.scenario_changed, doc.scenarios_changed, doc.design_replaced):
            signal.connect(self._update_banner)
        self._update_banner()

    def _update_banner(self, *_: object) -> None:
        text = note(self.design_scene.document)
        if not text:
            self.banner.hide()
            return
        self.banner.setText(text)
        self.banner.setToolTip("Click to hide this note")
        self._place_banner()
        self.banner.show()

    def _place_banner(self) -> None:
        box = self.viewport().geometry()
        width = max(200, min(box.width() - 20, 640))
        self.banner.setFixedWidth(width)
        self.banner.adjustSize()
        self.banner.move(box.left() + 10, box.bottom() - self.banner.height() - 10)
        self.banner.raise_()

    def focus_finder(self) -> None:
        self.finder.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.finder.selectAll()

    def _place_finder(self) -> None:
        """Float the finder at the top right, unless a toolbar has taken it."""
        if self.finder.parent() is not self:
            return
        box = self.viewport().geometry()
        self.finder.move(box.right() - self.finder.width() - 10, box.top() + 10)
        self.finder.raise_()

    def update_detail(self) -> None:
        """Tell the detail keeper what the view shows now (the scene makes or drops VM items
        to match)."""
        self._detail_timer.stop()
        rect = self.mapToScene(self.viewport().rect()).boundingRect()
        self.detail.set_view(rect, self.zoom)

    def scrollContentsBy(self, dx: int, dy: int) -> None:  # noqa: N802 (Qt)
        super().scrollContentsBy(dx, dy)
        self._detail_timer.start()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt)
        super().resizeEvent(event)
        self._place_finder()
        if self.banner.isVisible():
            self._place_banner()
        self._detail_timer.start()

    def reveal(self, cid: str) -> bool:
        """Centre ``cid`` in the view, zoomed in until its name reads (a VM gets its item);
        False when there is no such component on the canvas."""
        sc = self.design_scene
        item = sc.item(cid)
        at: QPointF | None = item.pos() if item is not None else sc.child_pos(cid)
        if at is None:
            return False
        if sc.holdings.host_of.get(cid) and self.zoom < DETAIL_ZOOM:
            self.set_zoom(1.0)
        elif self.zoom < FOUND_ZOOM:
            self.set_zoom(FOUND_ZOOM)
        seen = self.mapToScene(self.viewport().rect()).boundingRect()
        room = QRectF(at.x() - seen.width() / 2, at.y() - seen.height() / 2, seen.width(),
                      seen.height())
        if not self.sceneRect().contains(room):  # an item at the design's edge (an estate's
            # first row of cards) is centred too; the next fit follows the scene again
            self.setSceneRect(self.sceneRect().united(room))
        self.centerOn(at)
        self.update_detail()
        return True

    # ------------------------------------------------------------------ zoom
    @property
    def zoom(self) -> float:
        return float(self.transform().m11())

    def set_zoom(self, zoom: float) -> None:
        zoom = max(MIN_ZOOM, min(MAX_ZOOM, zoom))
        factor = zoom / self.zoom
        if abs(factor - 1.0) > 1e-9:
            self.scale(factor, factor)
            self.update_detail()
            self.zoom_changed.emit(self.zoom)

    def zoom_in(self) -> None:
        self.set_zoom(self.zoom * STEP)

    def zoom_out(self) -> None:
        self.set_zoom(self.zoom / STEP)

    def reset_zoom(self) -> None:
        self.set_zoom(1.0)

    def fit(self) -> None:
        """Show every item (at most 100%), below the finder."""
        self.setSceneRect(QRectF())  # the scene's own again (a find may have widened it)
        rect = self.design_scene.itemsBoundingRect()
        if rect.isEmpty():
            self.reset_zoom()
            return
        rect = rect.adjusted(-12, -12, 12, 12)
        if self.finder.parent() is self:  # floating over the top of the view: keep clear
            rect.setTop(rect.top() - (self.finder.height() + 12) * rect.height()
                        / max(1, self.viewport().height()))
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        if self.zoom > 1.0:
            self.reset_zoom()
        self.centerOn(rect.center())
        self.update_detail()
        self.zoom_changed.emit(self.zoom)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt)
        dy = event.angleDelta().y()
        if dy == 0:
            super().wheelEvent(event)
            return
        self.set_zoom(self.zoom * (STEP ** (dy / 120.0)))
        event.accept()

    # ------------------------------------------------------------------ pan
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt)
        if event.button() == Qt.MouseButton.MiddleButton:
            self._pan_from = event.position().toPoint()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt)
        if self._pan_from is not None:
            now = event.position().toPoint()
            delta = now - self._pan_from
            self._pan_from = now
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - delta.y())
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt)
        if self._pan_from is not None and event.button() == Qt.MouseButton.MiddleButton:
            self._pan_from = None
            self.viewport().unsetCursor()
            event.accept()
            return
        super().mouseReleaseEvent(event)

    # ------------------------------------------------------------------ drop
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt)
        if preset_of(event.mimeData()) is not None:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:  # noqa: N802 (Qt)
        if preset_of(event.mimeData()) is not None:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 (Qt)
        pid = preset_of(event.mimeData())
        if pid is None:
            event.ignore()
            return
        pos = self.mapToScene(event.position().toPoint())
        self.design_scene.tell(drop_preset(self.design_scene, pid, pos))
        event.acceptProposedAction()


class Note(QLabel):
    """A note over the canvas that a click puts away."""

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt)
        event.accept()  # the click is the note's, not the canvas's under it

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt)
        event.accept()
        self.hide()
