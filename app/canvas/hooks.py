"""The scene's side of the interactions: it keeps those the view installed and passes them
its mouse events, context menus and changes, in the order they were installed.

:class:`HookedScene` knows nothing of the design; :class:`~app.canvas.scene.DesignScene`
extends it with the mirror of the document.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import (
    QGraphicsScene,
    QGraphicsSceneContextMenuEvent,
    QGraphicsSceneMouseEvent,
)

from app.canvas.protocol import Interaction


def next_turn(parent: QObject, slot: Callable[[], None]) -> QTimer:
    """A timer that runs ``slot`` once on the next event-loop turn however often started."""
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(0)
    timer.timeout.connect(slot)
    return timer


class HookedScene(QGraphicsScene):
    """A scene whose mouse events go to the installed interactions' hooks first (a hook that
    returns True takes the event) and, once the scene has handled them, to their
    after-hooks."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._interactions: list[Interaction] = []
        self.additive = False
        """The press held Ctrl: what it selects adds to the selection there was."""

    def install(self, interaction: Interaction) -> None:
        """Let ``interaction`` see this scene's events and changes (after those installed
        before it)."""
        self._interactions.append(interaction)

    def selecting(self) -> None:
        """Qt changed which items are selected: the interactions may trim it (the rubber
        band) before the document hears."""
        for i in self._interactions:
            i.selecting()

    def shown_changed(self) -> None:
        """The selection or what holds what changed (the detail keeper follows)."""
        for i in self._interactions:
            i.shown_changed()

    def contextMenuEvent(self, event: QGraphicsSceneContextMenuEvent  # noqa: N802 (Qt)
                         ) -> None:
        if any(i.context_menu(event) for i in self._interactions):
            event.accept()
        else:
            event.ignore()

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802 (Qt)
        self.additive = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        if any(i.press(event) for i in self._interactions):
            event.accept()
            return
        super().mousePressEvent(event)
        for i in self._interactions:
            i.pressed(event)

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802 (Qt)
        if any(i.move(event) for i in self._interactions):
            event.accept()
            return
        super().mouseMoveEvent(event)
        for i in self._interactions:
            i.moved(event)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802 (Qt)
        if any(i.release(event) for i in self._interactions):
            event.accept()
            return
        super().mouseReleaseEvent(event)
        event.accept()
        for i in self._interactions:
            i.released(event)
        self.additive = False
