"""The start page: what a new design begins from, in place of an empty canvas.

A new (empty) design shows this page in the canvas's place: open a recent file, import an
estate (RVTools, vCenter), open one of the example testbeds, or start blank with a one-line
hint of the first gestures.  The canvas comes back as soon as the design has a component or
the user starts blank.  :func:`install` wraps the window's central widget, so the window's
own construction is untouched.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDockWidget,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.support import theme
from app.window.file_menu import example_titles

if TYPE_CHECKING:
    from app.window.main_window import MainWindow

BLANK_HINT = ("Drag a host from the Palette onto the canvas, then a VM onto the host and a"
              " storage array beside it; drop the VM on the array for its disk. Alt+drag"
              " links any two components.")
MAX_RECENT_SHOWN = 5


class StartPage(QScrollArea):
    """Recent files, imports, examples and a blank start, as buttons."""

    blank_chosen = Signal()

    def __init__(self, window: MainWindow):
        super().__init__(window)
        self.window_ = window
        self.setObjectName("start_page")
        self.setAccessibleName("Start page")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(32, 24, 32, 24)
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
        # the lambdas look the window's methods up when clicked (tests replace them)
        self.open_button = QPushButton("Open a file…")
        self.open_button.clicked.connect(lambda: self.window_.files.open())  # noqa: PLW0108

        left.addWidget(self._heading("Import an estate"))
        row = QHBoxLayout()
        self.rvtools_button = QPushButton("RVTools export…")
        self.rvtools_button.setToolTip("An RVTools .xlsx, or a folder of RVTools csv files")
        self.rvtools_button.clicked.connect(lambda: self.window_.import_rvtools())  # noqa: PLW0108
        self.vcenter_button = QPushButton("Live vCenter…")
        self.vcenter_button.setToolTip("Hosts, VMs and datastores read from a vCenter")
        self.vcenter_button.clicked.connect(lambda: self.window_.import_vcenter())  # noqa: PLW0108
        row.addWidget(self.rvtools_button)
        row.addWidget(self.vcenter_button)
        row.addStretch(1)
        left.addLayout(row)
        left.addStretch(1)

        right.addWidget(self._heading("Open an example: a published testbed"))
        self.example_buttons: dict[str, QPushButton] = {}
        for name, (design_name, study) in example_titles().items():
            button = QPushButton(design_name)
            button.setAccessibleName(f"Open example {design_name}")
            button.setToolTip(f"Open the example: {study}")
            button.setStyleSheet("text-align: left; padding: 3px 8px;")
            button.clicked.connect(lambda _=False, n=name: window.files.open_example(n))
            label = QLabel(study)
            label.setWordWrap(True)
            label.setStyleSheet("font-size: 8pt; margin-left: 8px;")
            theme.tone(label, "muted")
            right.addWidget(button)
            right.addWidget(label)
            right.addSpacing(6)
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

    def refresh_recent(self) -> None:
        """The recent files, newest first, each a button; then Open."""
        while self.recent_box.count():
            item = self.recent_box.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None and widget is not self.open_button:
                widget.deleteLater()
        files = self.window_.files
        self.recent_buttons = []
        for path in files.recent_files()[:MAX_RECENT_SHOWN]:
            button = QPushButton(f"{Path(path).name}  —  {Path(path).parent}")
            button.setToolTip(path)
            button.setStyleSheet("text-align: left; padding: 3px 8px;")
            button.clicked.connect(lambda _=False, p=path: files.open_recent(p))
            self.recent_box.addWidget(button)
            self.recent_buttons.append(button)
        if not self.recent_buttons:
            none = QLabel("No recent files yet.")
            theme.tone(none, "muted")
            self.recent_box.addWidget(none)
        self.recent_box.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignLeft)


class StartStack(QStackedWidget):
    """The canvas, or the start page while the design is new and empty."""

    def __init__(self, window: MainWindow, canvas: QWidget):
        super().__init__(window)
        self.window_ = window
        self.canvas = canvas
        self.page = StartPage(window)
        self.addWidget(canvas)
        self.addWidget(self.page)
        self.blank = False
        """Whether the user chose to start blank (the empty canvas, not this page)."""
        self._folded: list[QDockWidget] = []
        self.page.blank_chosen.connect(self.start_blank)
        doc = window.document
        doc.design_replaced.connect(self._on_replaced)
        doc.component_added.connect(lambda _cid: self.show_canvas())
        self._on_replaced()

    def _on_replaced(self) -> None:
        self.blank = False
        if self.window_.document.design.components:
            self.show_canvas()
        else:
            self.show_page()

    def show_page(self) -> None:
        self.page.refresh_recent()
        if self.currentWidget() is not self.page:
            # the page needs the height: the bottom docks (empty for an empty design) step
            # aside until the canvas comes back, and return as they were
            w = self.window_
            shown = w.isVisible()  # before the window shows, every dock counts as open
            self._folded = [d for d in (w.charts_dock, w.evidence_dock, w.analysis_dock)
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
        self.window_.show_status(BLANK_HINT)

    @property
    def showing_page(self) -> bool:
        return self.currentWidget() is self.page


def install(window: MainWindow) -> StartStack:
    """Put the start page beside the window's canvas (its central widget)."""
    canvas = window.takeCentralWidget()
    if canvas is None:
        raise RuntimeError("the window has no canvas yet")
    stack = StartStack(window, canvas)
    window.setCentralWidget(stack)
    return stack
