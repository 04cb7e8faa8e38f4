"""The main window: the canvas in the middle, docks around it, menus, toolbar, status bar.

Docks: palette and knobs (left), inspector and dashboard (right), evidence (bottom).  Their
layout is remembered with QSettings (``saveState``/``restoreState``).  The title shows the
file, the design name and ``*`` while there are unsaved changes.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QRect, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QScrollArea,
    QTabWidget,
    QToolBar,
    QWidget,
)

from app.canvas import clipboard
from app.canvas.delete import delete_selection
from app.canvas.drop import drop_preset
from app.canvas.items import ComponentItem
from app.canvas.layout import arrange_vms, overlapping_vms
from app.canvas.readonly import read_only
from app.canvas.scene import DesignScene
from app.canvas.view import DesignView
from app.charts.knob_curve import KnobCurve
from app.charts.utilisation import UtilisationChart
from app.document.design_document import DesignDocument
from app.panels.analysis import AnalysisPanel
from app.panels.calibration import CalibrationPanel
from app.panels.dashboard import Dashboard
from app.panels.evidence import EvidenceView
from app.panels.inspector import Inspector
from app.panels.knob_panel import KnobPanel
from app.panels.palette import Palette
from app.panels.scenarios import ScenarioBar
from app.support import first_paint
from app.window import geometry, start_page
from app.window.file_menu import FileController
from models.core.prediction import Prediction, bottleneck_text
from models.document import numbers as fmt
from models.io.importers import registry
from models.io.importers.importer import MEASUREMENTS

STATE_VERSION = 2
SETTINGS_GROUP = "main_window"


class MainWindow(QMainWindow):
    def __init__(self, document: DesignDocument | None = None,
                 parent: QWidget | None = None, remember_layout: bool = True):
        super().__init__(parent)
        self.remember_layout = remember_layout
        self.document = document if document is not None else DesignDocument(parent=self)
        if self.document.parent() is None:
            self.document.setParent(self)
        doc = self.document
        self.setObjectName("MainWindow")
        # within the screen it opens on: Qt does not shrink a window to its screen
        self.setGeometry(geometry.first_geometry(geometry.available(self)))
        self.scene = DesignScene(doc, self)
        self.view = DesignView(self.scene, self)
        self.setCentralWidget(self.view)

        self.palette_panel = Palette(doc, self)
        self.inspector = Inspector(doc, self)
        self.knob_panel = KnobPanel(doc, self)
        self.dashboard = Dashboard(doc, self)
        self.evidence = EvidenceView(doc, self)
        self.knob_curve = KnobCurve(doc, self)
        self.utilisation = UtilisationChart(doc, self)
        charts = QTabWidget(self)
        charts.setAccessibleName("Charts")
        charts.addTab(self.knob_curve, "Knob curve")
        charts.addTab(self.utilisation, "Utilisation")
        self.charts = charts
        self.scenario_bar = ScenarioBar(doc, self)
        self.analysis = AnalysisPanel(doc, self)
        self.calibration = CalibrationPanel(doc, self)
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        self.palette_dock = self._dock("Palette", "palette_dock", self.palette_panel, left)
        self.knob_dock = self._dock("Knobs", "knob_dock", self.knob_panel, left)
        self.inspector_dock = self._dock("Inspector", "inspector_dock", self.inspector, right)
        # scrolls when the dock is short: tiles and warnings keep their height, never clipped
        self.dashboard_dock = self._dock("Dashboard", "dashboard_dock",
                                         scrolled(self.dashboard), right)
        self.evidence_dock = self._dock("Evidence", "evidence_dock", self.evidence,
                                        Qt.DockWidgetArea.BottomDockWidgetArea)
        self.charts_dock = self._dock("Charts", "charts_dock", self.charts,
                                      Qt.DockWidgetArea.BottomDockWidgetArea)
        self.analysis_dock = self._dock("Analysis", "analysis_dock", self.analysis,
                                        Qt.DockWidgetArea.BottomDockWidgetArea)
        self.calibration_dock = self._dock("Calibration", "calibration_dock", self.calibration,
                                           Qt.DockWidgetArea.BottomDockWidgetArea)
        # the side columns run the full height (the knobs and the dashboard need it); the
        # charts sit under the canvas
        self.setCorner(Qt.Corner.BottomLeftCorner, left)
        self.setCorner(Qt.Corner.BottomRightCorner, right)
        self.tabifyDockWidget(self.charts_dock, self.evidence_dock)
        self.tabifyDockWidget(self.charts_dock, self.analysis_dock)
        self.tabifyDockWidget(self.charts_dock, self.calibration_dock)
        self.charts_dock.raise_()
        # a tab behind another is only moved off screen: these panels work once it is raised
        self.evidence_dock.visibilityChanged.connect(self._evidence_shown)
        self.calibration_dock.visibilityChanged.connect(self._calibration_shown)

        self.files = FileController(self, doc)
        self._build_import_menu()
        self._build_edit_menu()
        self._build_view_menu()
        self._build_analysis_menu()
        self._build_help_menu()
        self._build_toolbar()
        self.start = self._install_start_page()  # a new, empty design opens on it
        self.status_detail = QLabel(self)
        # a fixed size: the figures change with every knob move, and a label whose size may
        # change re-lays out the status bar and the whole window each time
        metrics = self.status_detail.fontMetrics()
        self.status_detail.setFixedSize(metrics.horizontalAdvance("0" * 72),
                                        metrics.height() + 2)
        self.status_detail.setAlignment(Qt.AlignmentFlag.AlignRight
                                        | Qt.AlignmentFlag.AlignVCenter)
        self.statusBar().addPermanentWidget(self.status_detail)
        # a message (a refused link's reason) gets the whole bar while it shows: beside the
        # figures it was cut
        self.statusBar().messageChanged.connect(
            lambda text: self.status_detail.setVisible(not text))

        self.scene.status_message.connect(self.show_status)
        self.analysis.status_message.connect(self.show_status)
        self.calibration.status_message.connect(self.show_status)
        self.palette_panel.preset_activated.connect(self.add_preset_at_centre)
        self.palette_panel.in_use.connect(self._palette_in_use)
        doc.design_replaced.connect(self._design_replaced)
        self._shown_rebuild = doc.rebuild()
        doc.scenario_changed.connect(self._scenario_switched)
        doc.design_changed.connect(lambda _prop: self.update_title())
        doc.modified_changed.connect(lambda _m: self.update_title())
        doc.path_changed.connect(lambda _p: self.update_title())
        doc.prediction_updated.connect(self._prediction_updated)
        doc.evaluation_failed.connect(lambda msg: self.show_status(f"Evaluation failed: {msg}"))
        self.update_title()
        self._fitted = False
        self._restored = remember_layout and self.restore_layout()
        if doc.prediction is not None:
            self._prediction_updated(doc.prediction)
        first_paint.watch(self.view.viewport())
        first_paint.later(self._hint_overlaps)  # a pass over every component: after the paint

    # ------------------------------------------------------------------ construction
    def _dock(self, title: str, name: str, widget: QWidget,
              area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _action(self, text: str, slot: object, shortcut: str | QKeySequence.StandardKey
                | None = None, tip: str = "") -> QAction:
        act = QAction(text, self)
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        if tip:
            act.setStatusTip(tip)
            act.setToolTip(tip)
        act.triggered.connect(slot)
        self.addAction(act)
        return act

    def _build_edit_menu(self) -> None:
        stack = self.document.undo_stack
        menu = self.menuBar().addMenu("&Edit")
        self.undo_action = stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcuts([QKeySequence("Ctrl+Z")])
        self.redo_action = stack.createRedoAction(self, "&Redo")
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        menu.addAction(self.undo_action)
        menu.addAction(self.redo_action)
        menu.addSeparator()
        self.cut_action = self._action("Cu&t", self.cut, QKeySequence.StandardKey.Cut)
        self.copy_action = self._action("&Copy", self.copy, QKeySequence.StandardKey.Copy)
        self.paste_action = self._action("&Paste", self.paste, QKeySequence.StandardKey.Paste)
        self.delete_action = self._action("&Delete", self.delete, QKeySequence.StandardKey.Delete)
        self.delete_action.setShortcuts([QKeySequence(QKeySequence.StandardKey.Delete),
                                         QKeySequence("Backspace")])
        self.select_all_action = self._action("Select &All", self.select_all,
                                              QKeySequence.StandardKey.SelectAll)
        for act in (self.cut_action, self.copy_action, self.paste_action, self.delete_action):
            act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.view.addAction(act)
            menu.addAction(act)
        menu.addSeparator()
        menu.addAction(self.select_all_action)
        self.select_all_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.view.addAction(self.select_all_action)
        menu.addAction(self.view.find_action)  # Ctrl+F: the canvas's finder

    def _build_view_menu(self) -> None:
        menu = self.menuBar().addMenu("&View")
        for dock in (self.palette_dock, self.knob_dock, self.inspector_dock,
                     self.dashboard_dock, self.charts_dock, self.evidence_dock,
                     self.analysis_dock, self.calibration_dock):
            menu.addAction(dock.toggleViewAction())
        menu.addSeparator()
        self.zoom_in_action = self._action("Zoom &In", self.view.zoom_in, "Ctrl+=")
        self.zoom_in_action.setShortcuts([QKeySequence("Ctrl+="), QKeySequence("Ctrl++")])
        self.zoom_out_action = self._action("Zoom &Out", self.view.zoom_out, "Ctrl+-")
        self.zoom_reset_action = self._action("&Actual Size", self.view.reset_zoom, "Ctrl+0")
        self.fit_action = self._action("&Fit Design", self.view.fit, "F",
                                       "Zoom to show the whole design")
        self.fit_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.view.addAction(self.fit_action)
        self.link_mode_action = self._action("&Link Mode", self._toggle_link_mode, "L",
                                             "Drag from one component to another to link"
                                             " them (Alt+drag works in any mode)")
        self.link_mode_action.setCheckable(True)
        self.link_mode_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.view.addAction(self.link_mode_action)
        for act in (self.zoom_in_action, self.zoom_out_action, self.zoom_reset_action,
                    self.fit_action):
            menu.addAction(act)
        menu.addSeparator()
        menu.addAction(self.link_mode_action)
        self.arrange_action = self._action(
            "&Arrange Design", self.arrange_vms, "Ctrl+Shift+A",
            "Lay the design out so that nothing overlaps: host cards in rows inside their"
            " sites, arrays above them (one undo step)")
        menu.addAction(self.arrange_action)
        menu.addSeparator()
        menu.addAction(self._action("&Reset Layout", self.reset_layout))

    def _build_analysis_menu(self) -> None:
        """Analysis: goal seek, tornado and N+1 open the Analysis dock on their tab."""
        menu = self.menuBar().addMenu("&Analysis")
        self.seek_action = self._action(
            "&Goal Seek...", self.show_goal_seek, "Ctrl+Shift+G",
            "Fewest hosts, largest OIO or most VMs per host that meet the policy")
        self.tornado_action = self._action(
            "&Sensitivity (Tornado)", self.show_tornado, "Ctrl+Shift+T",
            "Which knob moves an output (IOPS, latency, VMs per host...) most")
        self.failure_action = self._action(
            "Host &Failure (N+1)", self.show_host_failure, "Ctrl+Shift+F",
            "Fail each host in turn: what breaks when HA restarts its VMs")
        self.refresh_action = self._action(
            "&Refresh...", self.show_refresh, "Ctrl+Shift+R",
            "Replace the hosts by a current server's: how many, where it binds, licensed"
            " cores")
        self.growth_action = self._action(
            "Gro&wth...", self.show_growth, "Ctrl+Shift+Y",
            "The design year by year at growth rates: hosts needed and the month each"
            " cluster runs out")
        for act in (self.seek_action, self.tornado_action, self.failure_action,
                    self.refresh_action, self.growth_action):
            menu.addAction(act)
        self.analysis_menu = menu
        self.view.context_menu.extras.append(self._refresh_entry)

    def _show_analysis(self, tab: QWidget) -> None:
        self.analysis_dock.show()
        self.analysis_dock.raise_()
        self.analysis.tabs.setCurrentWidget(tab)

    def show_goal_seek(self) -> None:
        self._show_analysis(self.analysis.goal_seek)
        self.analysis.goal_seek.goal_combo.setFocus()

    def show_tornado(self) -> None:
        tornado = self.analysis.sensitivity
        self._show_analysis(tornado)
        if not tornado.swings and not tornado.sensitivity_running:
            tornado.start_sensitivity()

    def show_refresh(self, cluster: str | None = None) -> None:
        """The Refresh tab, for ``cluster`` (its id) or every cluster."""
        tab = self.analysis.refresh
        self._show_analysis(tab)
        tab.choose(cluster=cluster if isinstance(cluster, str) else None)
        tab.server_combo.setFocus()

    def show_growth(self) -> None:
        """The Growth tab at the design's rates, grown once at first."""
        tab = self.analysis.growth
        self._show_analysis(tab)
        if tab.result is None and not tab.runner.busy:
            tab.run_growth()
        tab.rate_spins["cpu"].setFocus()

    def _refresh_entry(self, item: ComponentItem, menu: QMenu) -> None:
        """A cluster's context menu: Refresh this cluster."""
        if item.kind != "cluster":
            return
        act = menu.addAction(f"Refresh {self.document.name_of(item.cid)}...")
        act.triggered.connect(lambda: self.show_refresh(item.cid))

    def show_host_failure(self) -> None:
        failure = self.analysis.host_failure
        self._show_analysis(failure)
        if failure.failure_report is None:
            failure.run_failure()

    def _build_import_menu(self) -> None:
        """File > Import: the file controller's entries, one per design source of the importer
        registry (an estate becomes a new design), then calibration from measurements."""
        menu = self.files.import_menu
        menu.addSeparator()
        names = registry.listed([i.name for i in registry.importers(MEASUREMENTS)])
        menu.addAction(self._action("&Calibrate from Performance Data...", self.calibrate_from,
                                    None, f"Measured figures from {names} onto this design by"
                                    " VM name"))
        self.import_menu = menu

    def _install_start_page(self) -> start_page.StartStack:
        # every bottom dock steps aside (the Calibration dock too: alone it took the page's
        # lower half)
        stack = start_page.install(self, self.document,
                                   (self.charts_dock, self.evidence_dock, self.analysis_dock,
                                    self.calibration_dock), self.files.recent_files)
        page = stack.page
        # the lambdas look the file controller's methods up when called (tests replace them)
        page.open_chosen.connect(lambda: self.files.open())  # noqa: PLW0108
        page.recent_chosen.connect(lambda path: self.files.open_recent(path))  # noqa: PLW0108
        page.example_chosen.connect(lambda name: self.files.open_example(name))  # noqa: PLW0108
        page.import_chosen.connect(lambda i: self.files.import_from(i))  # noqa: PLW0108
        stack.status_message.connect(self.show_status)
        return stack

    def _evidence_shown(self, shown: bool) -> None:
        if shown:
            self.evidence.load_soon()

    def _calibration_shown(self, shown: bool) -> None:
        if shown:
            self.calibration.follow()

    def calibrate_from(self) -> None:
        self.calibration_dock.show()
        self.calibration_dock.raise_()
        self.calibration.calibrate_button.click()

    def _build_help_menu(self) -> None:
        menu = self.menuBar().addMenu("&Help")
        menu.addAction(self._action("&Canvas Gestures", self.show_gestures))
        menu.addAction(self._action("&About Headroom", self.show_about))

    def _build_toolbar(self) -> None:
        bar = QToolBar("Main", self)
        bar.setObjectName("main_toolbar")
        # "Undo"/"Redo" whatever the step: the menu's actions carry the step's words
        # ("Undo Set Outstanding I/Os on 16 VMs"), which would resize the buttons and move
        # the whole toolbar at every edit; here the words go to the tooltip
        stack = self.document.undo_stack
        self.toolbar_undo = QAction("Undo", self)
        self.toolbar_undo.triggered.connect(stack.undo)
        self.toolbar_redo = QAction("Redo", self)
        self.toolbar_redo.triggered.connect(stack.redo)
        stack.canUndoChanged.connect(self.toolbar_undo.setEnabled)
        stack.canRedoChanged.connect(self.toolbar_redo.setEnabled)
        stack.undoTextChanged.connect(
            lambda text: self.toolbar_undo.setToolTip(f"Undo {text} (Ctrl+Z)"))
        stack.redoTextChanged.connect(
            lambda text: self.toolbar_redo.setToolTip(f"Redo {text} (Ctrl+Shift+Z)"))
        self.toolbar_undo.setEnabled(stack.canUndo())
        self.toolbar_redo.setEnabled(stack.canRedo())
        bar.addAction(self.toolbar_undo)
        bar.addAction(self.toolbar_redo)
        bar.addSeparator()
        bar.addAction(self.link_mode_action)
        bar.addAction(self.fit_action)
        bar.addWidget(self.view.finder)  # in the toolbar, not over the canvas
        bar.addSeparator()
        bar.addWidget(self.scenario_bar)
        self.addToolBar(bar)

    # ------------------------------------------------------------------ edit actions
    def _refused(self, verb: str) -> bool:
        """Whether the canvas shows a refresh, where it takes no edit (said on the status
        bar: "Not cut: the canvas shows the refresh ...")."""
        why = read_only(self.document)
        if why:
            self.show_status(f"Not {verb}: {why}")
        return bool(why)

    def cut(self) -> None:
        if self._refused("cut"):
            return
        n = clipboard.cut_selection(self.document)
        self.show_status(f"Cut {fmt.count(n, 'component')}" if n else "Nothing selected")

    def copy(self) -> None:
        n = clipboard.copy_selection(self.document)
        self.show_status(f"Copied {fmt.count(n, 'component')}" if n else "Nothing selected")

    def paste(self) -> None:
        self.show_status(clipboard.paste(self.document))

    def delete(self) -> None:
        if self._refused("deleted"):
            return
        n = delete_selection(self.scene)
        self.show_status(f"Deleted {fmt.count(n, 'item')}" if n else "Nothing selected")

    def select_all(self) -> None:
        self.document.set_selection([c.id for c in self.document.shown_design().components])

    def add_preset_at_centre(self, preset_id: str) -> None:
        centre = self.view.mapToScene(self.view.viewport().rect().center())
        self.show_status(drop_preset(self.scene, preset_id, centre))

    def arrange_vms(self) -> None:
        if self._refused("arranged"):
            return
        moves = arrange_vms(self.document.design)
        self.document.move_components(moves)
        self.show_status(f"Arranged {fmt.count(len(moves), 'component')} (Ctrl+Z restores)"
                         if moves else "The design is already arranged")
        if moves:
            self.view.fit()

    def _toggle_link_mode(self, on: bool) -> None:
        self.view.link_tool.link_mode = on
        self.show_status("Link mode: drag from one component to another" if on else
                         "Link mode off: drag moves components")

    # ------------------------------------------------------------------ status/title
    def show_status(self, text: str) -> None:
        self.statusBar().showMessage(text, 8000)

    def update_title(self) -> None:
        doc = self.document
        name = Path(doc.path).name if doc.path else "Untitled"
        self.setWindowFilePath(doc.path)
        self.setWindowTitle(f"{name}[*] - {doc.design.name} - Headroom")
        self.setWindowModified(doc.is_modified)

    def _prediction_updated(self, p: Prediction) -> None:
        text = status_line(p, self.document.session.name_of, self.dashboard.names())
        # the label keeps its size (see __init__): what follows the most important fact is
        # cut first, the whole line in the tip
        self.status_detail.setToolTip(text)
        self.status_detail.setText(self.status_detail.fontMetrics().elidedText(
            text, Qt.TextElideMode.ElideRight, self.status_detail.width()))

    def _scenario_switched(self, *_: object) -> None:
        """Into or out of a refresh the canvas shows other hosts: fitted to them."""
        rb = self.document.rebuild()
        if rb is not self._shown_rebuild:
            self._shown_rebuild = rb
            self.view.fit()

    def _design_replaced(self) -> None:
        self.update_title()
        self.view.fit()
        self._hint_overlaps()

    def _hint_overlaps(self) -> None:
        n = overlapping_vms(self.document.design)
        if n:
            overlap = fmt.count(n, "host, array or library overlaps",
                                "hosts, arrays or libraries overlap")
            self.show_status(f"{overlap}: View > Arrange Design (Ctrl+Shift+A) lays the design"
                             " out")

    # ------------------------------------------------------------------ help
    def show_gestures(self) -> None:
        QMessageBox.information(self, "Canvas gestures", GESTURES)

    def show_about(self) -> None:
        QMessageBox.about(self, "About Headroom",
                          "<b>Headroom</b><br>A what-if explorer for VMware vSphere designs:"
                          " place hosts, NICs, arrays, sites and VMs, move knobs, and see"
                          " IOPS, latency, FT overhead and consolidation recomputed live.")

    # ------------------------------------------------------------------ layout
    def restore_layout(self) -> bool:
        """Restore the saved geometry and dock layout; False when there was none, or when the
        saved window does not fit the screen it opens on now (a layout kept from a larger
        screen: the window keeps its first geometry, the docks their places at their default
        sizes)."""
        settings = QSettings()
        settings.beginGroup(SETTINGS_GROUP)
        saved = settings.value("geometry")
        state = settings.value("state")
        rect = settings.value("rect")
        settings.endGroup()
        if not isinstance(saved, QByteArray) or not isinstance(state, QByteArray):
            return False
        if not isinstance(rect, QRect) or not geometry.fits(rect, geometry.available(self)):
            self.restoreState(state, STATE_VERSION)
            return False
        self.restoreGeometry(saved)
        return self.restoreState(state, STATE_VERSION)

    def default_dock_sizes(self) -> None:
        """Side columns in proportion to the window (at 1280 px: 240 and 300, so knob values
        and two tile columns fit), the canvas gets the rest; the inspector a share of its
        column that shows about eight fields at 1366x768."""
        width = self.width()
        left = max(240, min(300, round(width * 0.19)))
        right = max(300, min(380, round(width * 0.25)))
        self.resizeDocks([self.palette_dock, self.inspector_dock], [left, right],
                         Qt.Orientation.Horizontal)
        # the knobs get most of the left column: the palette shows its kinds, and gets more
        # while one is open (_palette_in_use)
        rest = self._palette_at_rest()
        column = self.palette_dock.height() + self.knob_dock.height()
        self.resizeDocks([self.palette_dock, self.knob_dock],
                         [rest, max(column - rest, 300)],
                         Qt.Orientation.Vertical)
        # a short window gives the inspector a larger share (at 768 px it showed four
        # fields); the dashboard scrolls rather than cut a tile
        share = 0.35 if self.height() >= 900 else 0.43
        self.resizeDocks([self.inspector_dock, self.dashboard_dock],
                         [round(1000 * share), round(1000 * (1 - share))],
                         Qt.Orientation.Vertical)
        self.resizeDocks([self.evidence_dock], [240], Qt.Orientation.Vertical)

    def _palette_in_use(self, using: bool) -> None:
        """The knobs yield height to the palette while it is in use (a kind open, the filter
        holding text) and take it back after: at 1366x768 the palette showed six rows."""
        if self.palette_dock.isFloating() or self.knob_dock.isFloating() \
                or not self.knob_dock.isVisible() or not self.palette_dock.isVisible() \
                or self.dockWidgetArea(self.palette_dock) != self.dockWidgetArea(self.knob_dock):
            return
        column = self.palette_dock.height() + self.knob_dock.height()
        mine = round(column * PALETTE_IN_USE) if using else self._palette_at_rest()
        self.resizeDocks([self.palette_dock, self.knob_dock], [mine, column - mine],
                         Qt.Orientation.Vertical)

    def _palette_at_rest(self) -> int:
        """The palette's height at rest: its share of the window, and at least what shows
        every kind's row under its title bar."""
        title = self.palette_dock.fontMetrics().height() + 10
        return max(150, round(self.height() * PALETTE_SHARE),
                   self.palette_panel.kinds_height() + title)

    def save_layout(self) -> None:
        settings = QSettings()
        settings.beginGroup(SETTINGS_GROUP)
        settings.setValue("geometry", self.saveGeometry())
        settings.setValue("rect", self.geometry())  # to tell whether it fits a screen later
        settings.setValue("state", self.saveState(STATE_VERSION))
        settings.endGroup()

    def reset_layout(self) -> None:
        for dock in (self.palette_dock, self.knob_dock, self.inspector_dock,
                     self.dashboard_dock, self.charts_dock, self.evidence_dock,
                     self.analysis_dock):
            dock.setFloating(False)
            dock.show()
        self.default_dock_sizes()
        settings = QSettings()
        settings.remove(SETTINGS_GROUP)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt)
        super().showEvent(event)
        if not self._fitted:
            self._fitted = True
            if not self._restored:
                self.default_dock_sizes()
            self.view.fit()
            QTimer.singleShot(0, self.view.fit)  # again once the docks have their sizes

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt)
        self.analysis.shutdown()
        self.start.restore_docks()  # the layout the user had, not the start page's
        if self.remember_layout:
            self.save_layout()
        super().closeEvent(event)


PALETTE_SHARE = 0.24
"""The palette's share of the window's height at rest (its kinds in view)."""
PALETTE_IN_USE = 0.6
"""...and of its column while a kind is open or the filter holds text."""


def scrolled(widget: QWidget) -> QScrollArea:
    """``widget`` in a frameless vertical scroll area that gives it the full width."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(widget)
    area.setAccessibleName(widget.accessibleName())
    return area


GESTURES = """Canvas gestures
- Drag a preset from the palette onto the canvas to add it; drop a VM or NIC onto a host's
  card to place it there (the VM runs on the host, the NIC is installed in it), a host into
  a site's box to place it at that site. What is not placed on a card goes to the nearest
  free spot.
- A host is a card holding its NICs and VMs; a site is a box around its hosts. Drag a site
  by its name or edge to move all it holds; let a host go inside another site's box to move
  it there (one undo step).
- Zoomed out, a card shows its VMs as a count and a strip of their CPU grades; zoom in
  (or select one, or find it) to see each VM.
- Ctrl+F finds a host, VM or array by name, selects it and brings it into view.
- Double-click a preset (or select it and press Enter) to add it at the centre of the view.
- Click to select; Ctrl+click to add to the selection; drag on empty canvas for a rubber band.
- Drag selected items to move them (one undo step per drag).
- Alt+drag from one component to another links them (or press L for link mode); with Shift a
  VM-to-host link is the FT secondary. Illegal links are refused with the reason in the
  status bar.
- Right-click a component or link: select linked, remove a link, delete.
- Hover a component for its predicted figures; the red "!" marks the top bottleneck (on a
  card's VM aggregate when the busiest is one of its VMs).
- View > Arrange Design (Ctrl+Shift+A) lays the whole design out so nothing overlaps.
- Wheel or Ctrl+= / Ctrl+- zoom, Ctrl+0 actual size, F fits the design, middle-drag pans.
- Ctrl+Z undo, Ctrl+Shift+Z redo, Ctrl+X/C/V cut/copy/paste, Delete removes the selection.
- Analysis: Ctrl+Shift+G goal seek, Ctrl+Shift+T sensitivity (tornado), Ctrl+Shift+F host
  failure (N+1), Ctrl+Shift+Y growth over years.
"""


def status_line(p: Prediction, name: fmt.Names, short: dict[str, str] | None = None) -> str:
    """The status bar's line, the most important fact first: the scenario where it is not
    the base, what binds (the busiest resource, a host by the part of its name that tells it
    apart: ``short``), then the counts (:func:`status_summary`)."""
    short = short or {}
    top = p.bottlenecks(1)
    neck = f"bottleneck: {bottleneck_text(top[0], lambda c: short.get(c) or name(c))}" \
        if top else ""
    scen = "" if p.scenario == "base" else f"scenario {p.scenario}"
    return " · ".join(part for part in (scen, neck, status_summary(p)) if part)


def status_summary(p: Prediction) -> str:
    """``470 VMs · 1 host · 9.63 Gbit/s``: counts, then what the design moves (IOPS, network,
    or both; IOPS alone when it moves nothing, as a design without VMs does)."""
    parts = [fmt.count(len(p.vms.ids), "VM"), fmt.count(len(p.hosts.ids), "host")]
    net = p.total_net_gbps
    blind = p.vms.io_not_measured
    if p.total_iops == 0 and net <= 0 and len(blind) and blind.all():
        parts.append("storage I/O not measured")  # an estate imported without I/O data
    elif p.total_iops > 0 or net <= 0:
        parts.append(fmt.with_unit(p.total_iops, "IOPS"))
    if net > 0:
        parts.append(fmt.with_unit(net, "Gbit/s"))
    return " · ".join(parts)
