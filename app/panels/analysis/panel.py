"""The Analysis dock: five tabs, each running one analysis of :mod:`models.analysis` on a
copy of the active scenario in the background (:mod:`app.support.jobs`), so the user can keep
editing
while it runs."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from app.document.design_document import DesignDocument
from app.panels.analysis.common import LANE
from app.panels.analysis.goal_seek import GoalSeekTab
from app.panels.analysis.growth import GrowthTab
from app.panels.analysis.host_failure import HostFailureTab
from app.panels.analysis.refresh import RefreshTab
from app.panels.analysis.sensitivity import SensitivityTab

SHUTDOWN_S = 30.0
"""How long closing the window waits for an analysis to reach its next evaluation."""


class AnalysisPanel(QWidget):
    """Five tabs: Goal seek, Sensitivity (tornado), Host failure (N+1), Refresh, Growth."""

    status_message = Signal(str)

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.setAccessibleName("Analysis")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.tabs = QTabWidget(self)
        layout.addWidget(self.tabs)
        self.goal_seek = GoalSeekTab(document)
        self.sensitivity = SensitivityTab(document)
        self.host_failure = HostFailureTab(document)
        self.refresh = RefreshTab(document)
        self.growth = GrowthTab(document)
        self.tabs.addTab(self.goal_seek, "Goal seek")
        self.tabs.addTab(self.sensitivity, "Sensitivity")
        self.tabs.addTab(self.host_failure, "Host failure")
        self.tabs.addTab(self.refresh, "Refresh")
        self.tabs.addTab(self.growth, "Growth")
        self.goal_seek.status_message.connect(self.status_message)
        self.refresh.status_message.connect(self.status_message)
        self.growth.status_message.connect(self.status_message)
        self.tabs.currentChanged.connect(self._tab_changed)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        self._tab_changed(self.tabs.currentIndex())

    def _tab_changed(self, index: int) -> None:
        if self.tabs.widget(index) is self.sensitivity:
            self.sensitivity.shown()

    def shutdown(self) -> None:
        """Stop every analysis and wait for their threads (the window is closing)."""
        self.goal_seek.cancel_seek()
        self.sensitivity.cancel_sensitivity()
        self.host_failure.cancel_failure()
        self.refresh.cancel_refresh()
        self.growth.cancel_growth()
        LANE.join(SHUTDOWN_S)
