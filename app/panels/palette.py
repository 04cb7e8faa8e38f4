"""The palette: component kinds and presets from the studies, dragged onto the canvas.

Drag an entry onto the canvas (or onto a host, to place a VM or NIC on it), or double-click /
press Enter to add it at the centre of the view.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLineEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.canvas.drop import MIME, preset_mime
from app.canvas.items import kind_pixmap
from app.document.design_document import DesignDocument
from models.document.presets import presets
from models.document.schema import KINDS

PRESET_ROLE = Qt.ItemDataRole.UserRole + 1


class PresetTree(QTreeWidget):
    """Kinds as groups, presets as draggable entries."""

    def mimeData(self, items: Sequence[QTreeWidgetItem]) -> QMimeData:  # noqa: N802 (Qt)
        for item in items:
            pid = item.data(0, PRESET_ROLE)
            if pid:
                return preset_mime(str(pid))
        return QMimeData()

    def mimeTypes(self) -> list[str]:  # noqa: N802 (Qt)
        return [MIME]


class Palette(QWidget):
    preset_activated = Signal(str)
    """A preset was double-clicked or activated with Enter (add it at the view centre)."""

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText("Filter presets")
        self.filter.setClearButtonEnabled(True)
        self.tree = PresetTree(self)
        self.tree.setHeaderHidden(True)
        self.tree.setDragEnabled(True)
        self.tree.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setRootIsDecorated(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.filter)
        layout.addWidget(self.tree)
        self._entries: dict[str, QTreeWidgetItem] = {}
        groups: dict[str, QTreeWidgetItem] = {}
        for kind, spec in KINDS.items():
            group = QTreeWidgetItem(self.tree, [spec.label])
            group.setIcon(0, QIcon(kind_pixmap(kind, 24)))
            group.setFlags(Qt.ItemFlag.ItemIsEnabled)
            groups[kind] = group
        for pre in presets():
            entry = QTreeWidgetItem(groups[pre.kind], [pre.label])
            entry.setData(0, PRESET_ROLE, pre.id)
            entry.setIcon(0, QIcon(kind_pixmap(pre.kind, 20)))
            tip = f"{pre.label} ({KINDS[pre.kind].label})"
            if pre.props:
                tip += "\n" + "\n".join(f"{k} = {v}" for k, v in pre.props.items())
            if pre.source:
                tip += f"\nfrom: {pre.source}"
            entry.setToolTip(0, tip)
            entry.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                           | Qt.ItemFlag.ItemIsDragEnabled)
            self._entries[pre.id] = entry
        self.tree.expandAll()
        self.tree.itemActivated.connect(self._activated)
        self.filter.textChanged.connect(self.set_filter)

    def entry(self, preset_id: str) -> QTreeWidgetItem:
        return self._entries[preset_id]

    def mime_for(self, preset_id: str) -> QMimeData:
        """The drag payload of ``preset_id`` (what a drag from its entry carries)."""
        return self.tree.mimeData([self._entries[preset_id]])

    def set_filter(self, text: str) -> None:
        needle = text.strip().lower()
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            if group is None:
                continue
            visible = 0
            for j in range(group.childCount()):
                child = group.child(j)
                if child is None:
                    continue
                show = not needle or needle in child.text(0).lower() or needle in \
                    group.text(0).lower()
                child.setHidden(not show)
                visible += show
            group.setHidden(visible == 0)

    def _activated(self, item: QTreeWidgetItem, _column: int) -> None:
        pid = item.data(0, PRESET_ROLE)
        if pid:
            self.preset_activated.emit(str(pid))
