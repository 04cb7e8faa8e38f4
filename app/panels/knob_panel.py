"""The knob panel: one control per knob of :mod:`models.document.knobs`, grouped, with the study
behind it.

Controls are built from the registry (slider for numbers, combo box for choices, check box for
switches) and re-filtered when the selection changes: with components selected, the panel shows
the knobs of the selected kinds and edits those components (``id:<id>``); otherwise it shows the
kind-wide knobs (``vm``, ``host``, ``design``, ``wan``...).  Every edit goes through
:meth:`DesignDocument.set_value` with a merge key, so a slider drag is one undo step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from app.support import theme, wheel
from models.document import numbers as fmt
from models.document.design import DesignError, selector_kind
from models.document.knobs import (
    WORKLOAD_PROPS,
    Knob,
    is_imported,
    knobs_for_selection,
    measured_sources,
)
from models.document.schema import Value
from models.engine.sweep import KnobScale

if TYPE_CHECKING:
    from app.document.design_document import DesignDocument

class ElidedLabel(QLabel):
    """One line of text, cut with "…" where the width runs out (the whole in the tooltip);
    it never asks for more width than a few characters."""

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(self.fontMetrics().horizontalAdvance("Study…"),
                     super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(self.minimumSizeHint().width(), super().sizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        painter = QPainter(self)
        rect = self.contentsRect()
        text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                             rect.width())
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        painter.drawText(rect, int(self.alignment()), text)

    def is_elided(self) -> bool:
        return self.fontMetrics().horizontalAdvance(self.text()) > self.contentsRect().width()


class KnobRow(QWidget):
    """One knob: label, control, current value with unit, and the study as a caption."""

    def __init__(self, document: DesignDocument, knob: Knob, selects: list[str],
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.knob = knob
        self.selects = selects
        self._updating = False
        self._gesture = 0
        self._last: Value = None
        spec = knob.spec
        # a measured-demand knob says where the figures it moves came from
        sources = measured_sources(document.design, knob) if knob.relative else ""
        self.setToolTip(_tooltip(knob, sources))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 1, 0, 3)
        layout.setSpacing(0)
        top = QHBoxLayout()
        top.setSpacing(4)
        self.label = QLabel(knob.label)
        self.label.setWordWrap(True)  # a long name wraps instead of widening the dock
        self.label.setMinimumWidth(60)
        self.value_label = QLabel()
        self.value_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.value_label.setAccessibleName(f"{knob.label} value")
        top.addWidget(self.label, 1)
        top.addWidget(self.value_label)
        layout.addLayout(top)
        self.slider: QSlider | None = None
        self.combo: QComboBox | None = None
        self.check: QCheckBox | None = None
        self.mapping: KnobScale | None = None
        control: QWidget
        if spec.type == "bool":
            self.check = QCheckBox("enabled")
            self.check.toggled.connect(self._on_toggled)
            control = self.check
        elif knob.choices is not None:
            self.combo = QComboBox()
            # as narrow as the dock: a long choice ("null filter (pass-through)") is cut in
            # the closed box, whole in the list and the value beside the label
            self.combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            self.combo.setMinimumContentsLength(6)
            for c in knob.choices:
                self.combo.addItem(fmt.choice(knob.prop, c, knob.unit), c)
            self.combo.setPlaceholderText(fmt.MIXED)
            self.combo.activated.connect(self._on_activated)
            control = self.combo
        else:
            self.mapping = KnobScale(knob)
            self.slider = QSlider(Qt.Orientation.Horizontal)
            self.slider.setRange(0, self.mapping.positions)
            self.slider.setSingleStep(1)
            self.slider.setPageStep(max(1, self.mapping.positions // 10))
            self.slider.sliderPressed.connect(self._new_gesture)
            self.slider.valueChanged.connect(self._on_slider)
            control = self.slider
            # a fixed size that holds every value the slider can take: a new value's text
            # during a drag then repaints the label only, instead of re-laying out the panel
            # and the dock (QLabel.setText -> layout), and no value is ever cut
            metrics = self.value_label.fontMetrics()
            n = self.mapping.positions
            step = max(1, n // 100)
            texts = {knob.text(self.mapping.to_value(i)) for i in [*range(0, n + 1, step), n]}
            width = max(metrics.horizontalAdvance(t) for t in [*texts, fmt.MIXED])
            self.value_label.setFixedSize(width + 6, metrics.height() + 2)
        control.setAccessibleName(f"{knob.label} ({knob.unit})" if knob.unit else knob.label)
        control.setAccessibleDescription(f"{spec.doc}. {_source_line(knob, sources)}")
        control.setToolTip(self.toolTip())
        control.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        wheel.guard(control)  # a wheel over it scrolls the panel until it is clicked
        self.control = control
        self.label.setBuddy(control)
        layout.addWidget(control)
        # one line: the study's full title is in the tooltip, so a knob takes three lines
        # and the panel shows three times as many knobs as with wrapped titles
        self.caption = ElidedLabel(sources or knob.source)
        self.caption.setStyleSheet("font-size: 8pt;")
        self.caption.setToolTip(_source_line(knob, sources))
        theme.tone(self.caption, "muted")
        layout.addWidget(self.caption)
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("font-size: 8pt;")
        theme.tone(self.error_label, "error")
        self.error_label.hide()
        layout.addWidget(self.error_label)
        self.refresh()

    # ------------------------------------------------------------------ model -> view
    def current(self) -> Value:
        """The effective value over every target, or None when they differ."""
        values = [self.document.value(s, self.knob.prop) for s in self.selects]
        first = values[0] if values else None
        return first if all(v == first for v in values[1:]) else None

    def refresh(self) -> None:
        value = self.current()
        self._last = value
        self.value_label.setText(self.knob.text(value))
        self._updating = True
        try:
            if self.slider is not None and self.mapping is not None:
                if value is None and len(self.selects) == 1:  # mixed: where most stand
                    value = self.document.typical(self.selects[0], self.knob.prop)
                if value is not None and not isinstance(value, (str, bool)) \
                        and not self.slider.isSliderDown() \
                        and self.mapping.to_value(self.slider.value()) != value:
                    self.slider.setValue(self.mapping.to_pos(value))
            elif self.combo is not None:
                index = self.combo.findData(value) if value is not None else -1
                if index < 0 and isinstance(value, (int, float)) and self.knob.choices:
                    index = next((i for i, c in enumerate(self.knob.choices)
                                  if isinstance(c, (int, float)) and float(c) == float(value)),
                                 -1)
                self.combo.setCurrentIndex(index)
            elif self.check is not None:
                self.check.setTristate(value is None)
                if value is None:
                    self.check.setCheckState(Qt.CheckState.PartiallyChecked)
                else:
                    self.check.setChecked(bool(value))
        finally:
            self._updating = False

    # ------------------------------------------------------------------ view -> model
    def _new_gesture(self) -> None:
        self._gesture += 1

    def _merge_key(self) -> str:
        return f"{self.knob.path}@{'|'.join(self.selects)}#{self._gesture}"

    def _apply(self, value: Value, merge: bool) -> None:
        if self._updating or value == self._last:
            return
        key = self._merge_key() if merge else None
        try:  # one undo step for the whole selection; a drag merges into it
            self.document.set_values(self.selects, self.knob.prop, value, merge_key=key)
        except DesignError as err:
            self.error_label.setText(str(err))
            self.error_label.show()
            self.refresh()
            return
        self.error_label.hide()
        self._last = value
        self.value_label.setText(self.knob.text(value))

    def _on_slider(self, pos: int) -> None:
        if self.mapping is not None:
            self._apply(self.mapping.to_value(pos), merge=True)

    def _on_activated(self, index: int) -> None:
        if self.combo is not None and index >= 0:
            self._apply(self.combo.itemData(index), merge=False)

    def _on_toggled(self, checked: bool) -> None:
        if self.check is not None and not self._updating:
            self.check.setTristate(False)
            self._apply(bool(checked), merge=False)


def _source_line(knob: Knob, sources: str) -> str:
    """Where a knob's effect comes from: the study, or for a measured-demand knob where the
    figures it moves came from."""
    if knob.relative:
        return f"Figures it moves: {sources or 'none measured yet'}"
    return f"Study behind it: {knob.source}"


def _tooltip(knob: Knob, sources: str) -> str:
    """What the knob does, where its effect or its figures come from, and its path."""
    if not knob.relative:
        return f"{knob.label}: {knob.spec.doc}\n{_source_line(knob, sources)}\nKnob: {knob.path}"
    return (f"{knob.label}: {knob.spec.doc}.\nIt moves each VM's own figure by one factor and"
            f" never sets them to one value.\n{_source_line(knob, sources)}\nOne VM's own"
            f" figure: select it and set it in the Inspector.\nKnob: {knob.path}")


class KnobPanel(QWidget):
    """Sliders, combo boxes and check boxes for every knob that applies, grouped by subsystem."""

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.rows: dict[str, KnobRow] = {}
        self._signature: tuple[object, ...] = ()
        self.setAccessibleName("Knob panel")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        self.scope_label = QLabel()
        self.scope_label.setWordWrap(True)
        self.scope_label.setAccessibleName("Knob scope")
        outer.addWidget(self.scope_label)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        # the rows take the dock's width (labels wrap, captions elide): never sideways
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setFrameShape(QScrollArea.Shape.NoFrame)
        outer.addWidget(self.scroll_area, 1)
        self._rebuild_timer = QTimer(self)
        self._rebuild_timer.setSingleShot(True)
        self._rebuild_timer.setInterval(0)
        self._rebuild_timer.timeout.connect(self.rebuild)
        document.design_replaced.connect(self.rebuild)
        document.selection_changed.connect(self._schedule_rebuild)
        document.component_added.connect(self._schedule_rebuild)
        document.component_removed.connect(self._schedule_rebuild)
        document.link_added.connect(self._schedule_rebuild)
        document.link_removed.connect(self._schedule_rebuild)
        document.scenario_changed.connect(self.refresh_values)
        document.scenarios_changed.connect(self.refresh_values)
        document.values_changed.connect(self._on_values_changed)
        self.rebuild()

    # ------------------------------------------------------------------ structure
    def _scope(self) -> tuple[list[tuple[Knob, list[str]]], str]:
        design = self.document.design
        applicable = self.document.knobs()
        selected = [c for c in (design.component(i) for i in self.document.selection) if c]
        if not selected:
            return [(k, [k.kind]) for k in applicable], "All components (kind-wide knobs)"
        by_kind: dict[str, list[str]] = {}
        for c in selected:
            by_kind.setdefault(c.kind, []).append(f"id:{c.id}")
        rows = [(k, by_kind[k.kind]) for k in knobs_for_selection(design, selected, applicable)]
        names = ", ".join(c.name or c.id for c in selected[:4])
        more = f" and {len(selected) - 4} more" if len(selected) > 4 else ""
        measured = sum(is_imported(c) for c in selected)
        their = "its" if measured == 1 else "their"
        note = (f"\n{fmt.counted(measured, 'VM')} measured: set {their} own figures in the"
                " Inspector; with nothing selected, the Measured demand knobs move every VM's"
                " by a factor") if measured else ""
        return rows, f"Selected: {names}{more}{note}"

    def _schedule_rebuild(self, *_: object) -> None:
        self._rebuild_timer.start()

    def rebuild(self) -> None:
        """Rebuild the rows if the set of knobs or their targets changed."""
        rows, scope = self._scope()
        self.scope_label.setText(scope)
        signature = tuple((k.path, tuple(s)) for k, s in rows)
        if signature == self._signature and self.rows:
            self.refresh_values()
            return
        self._signature = signature
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(0, 0, 0, 0)
        groups: dict[str, QFormLayout] = {}
        self.rows = {}
        # the group of the design's main workload first (Content Library for a library
        # design, Network for netperf...): what the architect came to move
        lead = self.document.default_knob()
        if lead is not None:
            rows = sorted(rows, key=lambda r: r[0].group != lead.group)
        for k, selects in rows:
            form = groups.get(k.group)
            if form is None:
                box = QGroupBox(k.group or "Other")
                box.setAccessibleName(f"{k.group or 'Other'} knobs")
                form = QFormLayout(box)
                form.setContentsMargins(6, 6, 6, 6)
                groups[k.group] = form
                layout.addWidget(box)
            row = KnobRow(self.document, k, selects)
            form.addRow(row)
            self.rows[k.path] = row
        if not rows:
            layout.addWidget(QLabel("No knobs apply to this selection."))
        layout.addStretch(1)
        old = self.scroll_area.takeWidget()
        self.scroll_area.setWidget(content)
        if old is not None:
            old.deleteLater()

    def refresh_values(self, *_: object) -> None:
        for row in self.rows.values():
            row.refresh()

    def _on_values_changed(self, select: str, prop: str) -> None:
        """Refresh only the rows showing ``prop`` (reading a value costs a pass over the
        components, so a drag must not re-read every knob)."""
        if prop in WORKLOAD_PROPS:  # a VM became a web server, measured I/O came: the
            self._schedule_rebuild()  # knobs that apply may be others
        kind = selector_kind(self.document.design, select)
        for row in self.rows.values():
            if row.knob.prop == prop and row.knob.kind == kind:
                row.refresh()

    def row(self, path: str) -> KnobRow:
        """The row of knob ``path`` (``vm.workload.io_oio``); KeyError when not shown."""
        return self.rows[path]
