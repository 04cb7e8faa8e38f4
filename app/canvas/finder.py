"""The finder: a filter box over the canvas (Ctrl+F) that finds a host, VM, array, site or
library by name and selects and centres it.

Typing lists the matches (any part of the name, any case; a VM's entry names its host); Enter
or a click on one selects it and brings it into view, zoomed in until its name reads (a VM
drawn only in its host's aggregate gets an item of its own).  The list is made on first use
after each change of the design (50,000 names in about 0.1 s), not when a design opens.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent
from PySide6.QtWidgets import QCompleter, QLineEdit, QWidget

from app.canvas.protocol import Canvas
from models.document.schema import KINDS

FOUND_KINDS = ("host", "vm", "storage_array", "site", "cluster", "content_library", "nic")


class Finder(QLineEdit):
    """A line edit with a completer over the names on ``canvas``; ``reveal`` brings a found
    component into view, and Escape gives the focus back to ``view``."""

    found = Signal(str)
    """A component was found (its id), selected and centred."""

    def __init__(self, canvas: Canvas, reveal: Callable[[str], object], view: QWidget,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.canvas = canvas
        self.reveal = reveal
        self.view = view
        self.setObjectName("canvas_finder")
        self.setPlaceholderText("Find a host, VM or array (Ctrl+F)")
        self.setAccessibleName("Find on canvas")
        self.setClearButtonEnabled(True)
        self.setFixedWidth(280)
        self._model = QStringListModel(self)
        self._ids: dict[str, str] = {}
        self._version: tuple[int, int] | None = None
        completer = QCompleter(self._model, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setMaxVisibleItems(12)
        completer.activated.connect(self.go_to)
        self.setCompleter(completer)
        self.returnPressed.connect(lambda: self.go_to(self.text()))
        self.textEdited.connect(lambda _t: self.refresh())

    def refresh(self) -> None:
        """Make the list of names again if the design changed since it was made."""
        doc = self.canvas.document
        design = doc.shown_design()  # in a refresh, its hosts
        version = (doc.edits, id(design))
        if version == self._version:
            return
        self._version = version
        host_of = self.canvas.holdings.host_of
        names = {c.id: c.name or c.id for c in design.components}
        entries: dict[str, str] = {}
        for c in design.components:
            if c.kind not in FOUND_KINDS:
                continue
            label = KINDS[c.kind].label if c.kind in KINDS else c.kind
            where = f" on {names[host_of[c.id]]}" if c.id in host_of else ""
            text = f"{names[c.id]} · {label}{where}"
            if text in entries:
                text = f"{text} ({c.id})"
            entries[text] = c.id
        self._ids = entries
        self._model.setStringList(list(entries))

    def matches(self, text: str) -> list[str]:
        """Ids of the components whose entry contains ``text`` (any case), in design order."""
        self.refresh()
        needle = text.strip().lower()
        return [cid for entry, cid in self._ids.items() if needle in entry.lower()]

    def go_to(self, text: str) -> bool:
        """Select and centre the component of entry ``text`` (or the first whose name holds
        it); False, with a word on the status bar, when there is none."""
        self.refresh()
        canvas, doc = self.canvas, self.canvas.document
        cid = self._ids.get(text)
        if cid is None and text.strip():
            exact = [c for c in self.matches(text)
                     if doc.name_of(c).lower() == text.strip().lower()]
            found = exact or self.matches(text)
            cid = found[0] if found else None
        if cid is None:
            canvas.tell(f"Nothing on the canvas is called '{text.strip()}'"
                        if text.strip() else "Type part of a name to find it")
            return False
        doc.set_selection([cid])
        self.reveal(cid)
        host = canvas.holdings.host_of.get(cid)
        canvas.tell(f"Found {doc.name_of(cid)}" + (f" on {doc.name_of(host)}" if host else ""))
        self.found.emit(cid)
        return True

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802 (Qt)
        self.refresh()
        super().focusInEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt)
        if event.key() == Qt.Key.Key_Escape:
            self.clear()
            self.view.setFocus()
            event.accept()
            return
        super().keyPressEvent(event)
