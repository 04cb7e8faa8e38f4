"""The palette: component kinds, presets from the studies and the server catalogue, dragged
onto the canvas.

Drag an entry onto the canvas (or onto a host, to place a VM or NIC on it), or double-click /
press Enter to add it at the centre of the view.  Under Host, the studies' servers have a
heading of their own; the catalogue's servers are grouped by vendor and generation, each with
its processor options under it (fastest per core first): the server itself brings its default
processor (:func:`models.document.catalogue.servers.default_processor`), a processor entry
that one.  The filter looks through every level.
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
from models.document import numbers as fmt
from models.document.catalogue import servers
from models.document.catalogue.processors import Processor
from models.document.presets import Preset, presets, server_preset, server_preset_id
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
        self._icons: dict[str, QIcon] = {}
        self.groups: dict[str, QTreeWidgetItem] = {}
        """Kind -> its top-level item."""
        self.headings: dict[str, QTreeWidgetItem] = {}
        """Headings under a kind ("Servers from the studies", "Dell", "Dell 16G")."""
        for kind, spec in KINDS.items():
            group = QTreeWidgetItem(self.tree, [spec.label])
            group.setIcon(0, QIcon(kind_pixmap(kind, 24)))
            group.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.groups[kind] = group
        for pre in presets():
            under = self._heading(self.groups[pre.kind], pre.group) if pre.group \
                else self.groups[pre.kind]
            self._entry(under, pre, pre.label)
        self.tree.expandAll()
        self._add_catalogue(self.groups["host"])
        self.tree.itemActivated.connect(self._activated)
        self.filter.textChanged.connect(self.set_filter)

    def _heading(self, parent: QTreeWidgetItem, text: str, key: str = "") -> QTreeWidgetItem:
        key = key or text
        found = self.headings.get(key)
        if found is None:
            found = QTreeWidgetItem(parent, [text])
            found.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.headings[key] = found
        return found

    def _entry(self, parent: QTreeWidgetItem, pre: Preset, text: str,
               tip: str = "") -> QTreeWidgetItem:
        entry = QTreeWidgetItem(parent, [text])
        entry.setData(0, PRESET_ROLE, pre.id)
        icon = self._icons.get(pre.kind)
        if icon is None:  # one per kind: the catalogue has some 2,500 entries
            icon = self._icons[pre.kind] = QIcon(kind_pixmap(pre.kind, 20))
        entry.setIcon(0, icon)
        if not tip:
            tip = f"{pre.label} ({KINDS[pre.kind].label})"
            if pre.props:
                tip += "\n" + "\n".join(f"{k} = {v}" for k, v in pre.props.items())
            if pre.source:
                tip += f"\nfrom: {pre.source}"
        entry.setToolTip(0, tip)
        entry.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                       | Qt.ItemFlag.ItemIsDragEnabled)
        self._entries[pre.id] = entry
        return entry

    def _add_catalogue(self, host: QTreeWidgetItem) -> None:
        """The server catalogue under Host: vendor, generation, server, its processors (the
        headings collapsed, so that the studies' presets stay in view)."""
        for server in servers.servers():
            vendor = self._heading(host, f"{server.vendor} servers", server.vendor)
            gen = self._heading(vendor, server.generation, f"{server.vendor} {server.generation}")
            pre = server_preset(server_preset_id(server.id))
            item = self._entry(gen, pre, server.name, _server_tip(server, pre))
            for proc in server.processor_options:
                self._entry(item, Preset(server_preset_id(server.id, proc.model), pre.label,
                                         "host"), _processor_text(proc),
                            _processor_tip(server, proc))

    def entry(self, preset_id: str) -> QTreeWidgetItem:
        return self._entries[preset_id]

    def mime_for(self, preset_id: str) -> QMimeData:
        """The drag payload of ``preset_id`` (what a drag from its entry carries)."""
        return self.tree.mimeData([self._entries[preset_id]])

    def set_filter(self, text: str) -> None:
        """Show the entries whose text, or a heading above them, has ``text``: a heading
        stays while something under it shows; a match below a collapsed heading opens it."""
        needle = text.strip().lower()
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            if group is not None:
                self._filter(group, needle, False)

    def _filter(self, item: QTreeWidgetItem, needle: str, above: bool) -> bool:
        matched = above or not needle or needle in item.text(0).lower()
        shown = False
        for j in range(item.childCount()):
            child = item.child(j)
            if child is not None:
                shown |= self._filter(child, needle, matched)
        visible = matched or shown
        item.setHidden(not visible)
        if needle and shown and not item.isExpanded() and item.parent() is not None:
            item.setExpanded(True)
        return visible

    def _activated(self, item: QTreeWidgetItem, _column: int) -> None:
        pid = item.data(0, PRESET_ROLE)
        if pid:
            self.preset_activated.emit(str(pid))


def _server_tip(server: servers.Server, pre: Preset) -> str:
    props = pre.props
    model = str(props.get("cpu_model", ""))
    cores = props.get("cores_per_socket")
    memory = props.get("memory_gb")
    lines = [f"{server.title} ({server.generation}, {server.form_factor},"
             f" {fmt.count(server.sockets, 'socket')})"]
    if model and isinstance(cores, int):
        lines.append(f"Drops with {model}, {fmt.count(cores, 'core')} per socket: the fastest"
                     " per core of its processors with at least 16 cores (the licensing"
                     " minimum per CPU); expand it for the others")
    if isinstance(memory, (int, float)):
        lines.append(f"Memory {fmt.with_unit(float(memory), 'GB')} (what most of its SPEC"
                     " results ran with)")
    lines.append(f"from: {pre.source}")
    return "\n".join(lines)


def _processor_text(proc: Processor) -> str:
    name = proc.model.removeprefix("Intel Xeon ").removeprefix("AMD ")
    cores = fmt.count(proc.cores, "core") if proc.cores else "cores unknown"
    return f"{name} · {cores}"


def _processor_tip(server: servers.Server, proc: Processor) -> str:
    mark = " (an estimate from CPU2006)" if proc.estimate else ""
    clock = fmt.with_unit(proc.ghz, "GHz") if proc.ghz else "clock unknown"
    return (f"{server.title} with {proc.model}: {clock},"
            f" SPECrate2017_int_base {fmt.number(proc.specrate_per_core)} per core{mark},"
            f" the median of {fmt.count(proc.submissions, 'result')}")
