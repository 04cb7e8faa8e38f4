"""The palette: component kinds, presets from the studies and the server catalogue, dragged
onto the canvas.

Drag an entry onto the canvas (or onto a host, to place a VM or NIC on it), or double-click /
press Enter to add it at the centre of the view.  Each kind is a group that opens and closes
with a click, one open at a time, so that every kind stays in view on a short screen (the
palette says when it is in use, :attr:`Palette.in_use`: the window gives it more height).
Under Host, the studies' servers have a heading of their own; the catalogue's servers are
grouped by vendor and generation, each with its processor options under it (fastest per core
first): the server itself brings its default processor
(:func:`models.document.catalogue.servers.default_processor`), a processor entry that one.
The filter looks through every level and opens the kinds where it finds something.
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
    in_use = Signal(bool)
    """A kind was opened or the filter holds text (True), or every kind is closed again and
    the filter empty (False)."""

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
        layout = self.column = QVBoxLayout(self)
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
        for group in self.groups.values():  # every kind in view, each opened by a click
            group.setExpanded(False)
        self.opened: QTreeWidgetItem | None = None
        """The kind the user opened (one at a time), kept while the filter opens others."""
        self._using = False
        self._filtering = False
        self.tree.itemActivated.connect(self._activated)
        self.tree.itemClicked.connect(self._clicked)
        self.tree.itemExpanded.connect(self._expanded)
        self.tree.itemCollapsed.connect(self._collapsed)
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
        stays while something under it shows; a match below a collapsed heading (or kind)
        opens it.  Cleared, the kinds close again but the one the user opened."""
        needle = text.strip().lower()
        self._filtering = True  # the kinds open and close here, not by the user
        for group in self.groups.values():
            shown = self._filter(group, needle, False)
            group.setExpanded(shown if needle else group is self.opened)
        self._filtering = False
        self._say_in_use()

    def kinds_height(self) -> int:
        """The height that shows the filter and every kind's row (all closed), pixels."""
        rows = sum(max(self.tree.sizeHintForRow(0), self.tree.fontMetrics().height() + 4)
                   for _ in self.groups)
        margins = self.column.contentsMargins()
        return (rows + 2 * self.tree.frameWidth() + self.filter.sizeHint().height()
                + self.column.spacing() + margins.top() + margins.bottom() + 4)

    def _clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        """A kind's row opens or closes it with one click."""
        if item.parent() is None:
            item.setExpanded(not item.isExpanded())

    def _expanded(self, item: QTreeWidgetItem) -> None:
        """A kind opened by the user: the others close (one open at a time)."""
        if item.parent() is not None or self._filtering or self.filter.text().strip():
            return
        self.opened = item
        for group in self.groups.values():
            if group is not item and group.isExpanded():
                group.setExpanded(False)
        self._say_in_use()

    def _collapsed(self, item: QTreeWidgetItem) -> None:
        if item.parent() is None and item is self.opened and not self._filtering:
            self.opened = None
            self._say_in_use()

    def _say_in_use(self) -> None:
        using = self.opened is not None or bool(self.filter.text().strip())
        if using != self._using:
            self._using = using
            self.in_use.emit(using)

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
