"""The start page: what a new design begins from, in place of an empty canvas.

A new (empty) design shows this page in the canvas's place: open a recent file, import an
estate (one button per design source of the importer registry), open one of the example
testbeds, or start blank with a one-line hint of the first gestures.  The canvas comes back as
soon as the design has a component or the user starts blank.  :func:`install` wraps a main
window's central widget, so the window's own construction is untouched.

The page knows no window: it says what the user chose through its signals (``open_chosen``,
``recent_chosen``, ``example_chosen``, ``import_chosen``, ``blank_chosen``), and whoever installs
it answers them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDockWidget,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.support import theme
from app.window.file_menu import example_titles
from models.io.importers import registry
from models.io.importers.importer import DESIGN

if TYPE_CHECKING:
    from app.document.design_document import DesignDocument

BLANK_HINT = ("Drag a host from the Palette onto the canvas, then a VM onto the host and a"
              " storage array beside it; drop the VM on the array for its disk. Alt+drag"
              " links any two components.")
MAX_RECENT_SHOWN = 5


class StartPage(QScrollArea):
    """Recent files, imports, examples and a blank start, as buttons."""

    blank_chosen = Signal()
    open_chosen = Signal()
    recent_chosen = Signal(str)
    """A recent file's path."""
    example_chosen = Signal(str)
    """An example's name."""
    import_chosen = Signal(str)
    """An importer's id."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("start_page")
        self.setAccessibleName("Start page")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(32, 16, 32, 16)
        layout.setSpacing(10)
        title = QLabel("Start a design")
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        title.setFont(font)
        layout.addWidget(title)

        self.blank_button = QPushButton("Blank design")
        self.blank_button.setAccessibleName("Start a blank design")
        self.blank_button.clicked.connect(self.blank_chosen)
        hint = QLabel(BLANK_HINT)
        hint.setWordWrap(True)
        theme.tone(hint, "muted")
        self.hint = hint
        row = QHBoxLayout()
        row.addWidget(self.blank_button)
        row.addWidget(hint, 1)
        layout.addLayout(row)

        columns = QHBoxLayout()
        columns.setSpacing(24)
        layout.addLayout(columns)
        left, right = QVBoxLayout(), QVBoxLayout()
        right.setSpacing(2)
        columns.addLayout(left, 2)
        columns.addLayout(right, 3)
        left.addWidget(self._heading("Open recent"))
        self.recent_box = QVBoxLayout()
        left.addLayout(self.recent_box)
        self.recent_buttons: list[QPushButton] = []
        self.open_button = QPushButton("Open a file…")
        self.open_button.clicked.connect(self.open_chosen)

        left.addWidget(self._heading("Import an estate"))
        self.import_buttons: dict[str, QPushButton] = {}
        for importer in registry.importers(DESIGN):  # one under the other: a list that grows
            button = QPushButton(f"{importer.title}…")
            button.setToolTip(importer.tip)
            button.clicked.connect(lambda _=False, i=importer.id: self.import_chosen.emit(i))
            left.addWidget(button, 0, Qt.AlignmentFlag.AlignLeft)
            self.import_buttons[importer.id] = button
        left.addStretch(1)

        right.addWidget(self._heading("Open an example: a published testbed"))
        self.example_buttons: dict[str, QPushButton] = {}
        for name, (design_name, study) in example_titles().items():
            button = QPushButton(design_name)
            button.setAccessibleName(f"Open example {design_name}")
            button.setToolTip(f"Open the example: {study}")
            button.setStyleSheet("text-align: left; padding: 3px 8px;")
            button.clicked.connect(lambda _=False, n=name: self.example_chosen.emit(n))
            label = QLabel(study)
            label.setWordWrap(True)
            label.setStyleSheet("font-size: 8pt; margin-left: 8px;")
            theme.tone(label, "muted")
            right.addWidget(button)
            right.addWidget(label)
            right.addSpacing(1)  # eleven examples and their studies fit a 1280x720 window
            self.example_buttons[name] = button
        right.addStretch(1)
        layout.addStretch(1)
        self.setWidget(body)

    @staticmethod
    def _heading(text: str) -> QLabel:
        label = QLabel(text)
        font = label.font()
        font.setBold(True)
        label.setFont(font)
        return label

    def refresh_recent(self, paths: Sequence[str]) -> None:
        """The recent files ``paths``, newest first, each a button; then Open."""
        while self.recent_box.count():
            item = self.recent_box.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None and widget is not self.open_button:
                widget.deleteLater()
        self.recent_buttons = []
        for path in paths[:MAX_RECENT_SHOWN]:
            button = QPushButton(f"{Path(path).name}  —  {Path(path).parent}")
            button.setToolTip(path)
            button.setStyleSheet("text-align: left; padding: 3px 8px;")
            button.clicked.connect(lambda _=False, p=path: self.recent_chosen.emit(p))
            self.recent_box.addWidget(button)
            self.recent_buttons.append(button)
        if not self.recent_buttons:
            none = QLabel("No recent files yet.")
            theme.tone(none, "muted")
            self.recent_box.addWidget(none)
        self.recent_box.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignLeft)


class StartStack(QStackedWidget):
    """The canvas, or the start page while the design is new and empty."""

    status_message = Signal(str)

    def __init__(self, document: DesignDocument, canvas: QWidget,
                 folding: Sequence[QDockWidget] = (),
                 recent_files: Callable[[], list[str]] = list,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.canvas = canvas
        self.folding = tuple(folding)
        """The docks that step aside while the page shows (the bottom ones)."""
        self.recent_files = recent_files
        self.page = StartPage(self)
        self.addWidget(canvas)
        self.addWidget(self.page)
        self.blank = False
        """Whether the user chose to start blank (the empty canvas, not this page)."""
        self._folded: list[QDockWidget] = []
        self.page.blank_chosen.connect(self.start_blank)
        document.design_replaced.connect(self._on_replaced)
        document.component_added.connect(lambda _cid: self.show_canvas())
        self._on_replaced()

    def _on_replaced(self) -> None:
        self.blank = False
        if self.document.design.components:
            self.show_canvas()
        else:
            self.show_page()

    def show_page(self) -> None:
        self.page.refresh_recent(self.recent_files())
        if self.currentWidget() is not self.page:
            # the page needs the height: the bottom docks (empty for an empty design) step
            # aside until the canvas comes back, and return as they were
            shown = self.window().isVisible()  # before it shows, every dock counts as open
            self._folded = [d for d in self.folding
                            if (d.toggleViewAction().isChecked() or not shown)
                            and not d.isFloating()]
            for dock in self._folded:
                dock.hide()
        self.setCurrentWidget(self.page)

    def show_canvas(self) -> None:
        self.restore_docks()
        self.setCurrentWidget(self.canvas)

    def restore_docks(self) -> None:
        """Show the bottom docks the page folded away (before the layout is saved, too)."""
        folded, self._folded = self._folded, []
        for dock in folded:
            dock.show()
        if folded:
            folded[0].raise_()

    def start_blank(self) -> None:
        self.blank = True
        self.show_canvas()
        self.canvas.setFocus()
        self.status_message.emit(BLANK_HINT)

    @property
    def showing_page(self) -> bool:
        return self.currentWidget() is self.page


def install(window: QMainWindow, document: DesignDocument, folding: Sequence[QDockWidget] = (),
            recent_files: Callable[[], list[str]] = list) -> StartStack:
    """Put the start page beside ``window``'s canvas (its central widget); ``folding`` are the
    docks that step aside while the page shows, ``recent_files`` lists the files it offers."""
    canvas = window.takeCentralWidget()
    if canvas is None:
        raise RuntimeError("the window has no canvas yet")
    stack = StartStack(document, canvas, folding, recent_files, window)
    window.setCentralWidget(stack)
    return stack
