"""The inspector: the selected component's properties, validated as typed.

Fields come from :mod:`models.document.schema` (type, unit, range, choices, meaning).  A number is
checked on every keystroke with :func:`models.document.design.check_value`; a problem shows inline
under the field and nothing is applied until the value is valid.  Valid edits go through
``document.set_values(['id:<id>', ...], prop, value)``: one undoable command for the whole
selection (in a named scenario the values become that scenario's overrides), so an edit of
several components of one kind is one undo step.  The components are those the canvas shows
(:meth:`~app.document.design_document.DesignDocument.shown_component`): in a refresh kept as
a scenario, the hosts and NICs it adds show read-only, as the refresh's own.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QRect, Qt, Signal
from PySide6.QtGui import QFont, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QStyle,
    QStyleOptionFrame,
    QVBoxLayout,
    QWidget,
)

from app.canvas.tooltips import component_tooltip, provenance_html
from app.document.design_document import DesignDocument
from app.support import theme, wheel
from models.document import numbers as fmt
from models.document.catalogue import processors
from models.document.design import DesignError, parse_value
from models.document.schema import KINDS, PropSpec, Value, prop_label

MIXED = "(mixed)"
NOT_PLACED = ("<b>Not placed</b>: on no host, so it runs nowhere and has no figures. Drop it"
              " on a host (or Alt+drag from it to a host) to place it.")


def format_value(value: Value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else f"{value:g}"
    return str(value)


def show_read_only(edit: QLineEdit, read_only: bool) -> None:
    """``edit`` takes no typing and looks it: no frame, the panel's background behind its
    text (a value to read; the text stays selectable); or back to a field."""
    edit.setReadOnly(read_only)
    edit.setFrame(not read_only)
    if read_only:
        pal = QPalette(edit.palette())
        pal.setColor(QPalette.ColorRole.Base, pal.color(QPalette.ColorRole.Window))
        edit.setPalette(pal)
    else:
        edit.setPalette(QPalette())


PROCESSOR_PROPS = ("cpu_model", "vcenter_cpu_model")
"""Fields that name a processor: typing offers the catalogue's models."""


def _processor_completer(parent: QWidget) -> QCompleter:
    """The processor catalogue's models, offered as the user types any part of one ('6526'
    offers Intel Xeon Gold 6526Y)."""
    done = QCompleter([p.model for p in processors.processors()], parent)
    done.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    done.setFilterMode(Qt.MatchFlag.MatchContains)
    return done


class ElidedEdit(QLineEdit):
    """A field that shows a value too long for it by its start and "…" while it is not being
    edited (the whole value in its tooltip, and in the field once clicked): a host's
    processor read "Intel(R) Xeon(R) G", cut without a mark."""

    def shown_text(self) -> str:
        """The text as painted now: whole while focused or when it fits."""
        text = self.text()
        room = self._room().width()
        if self.hasFocus() or not text or self.fontMetrics().horizontalAdvance(text) <= room:
            return text
        return self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, room)

    def _room(self) -> QRect:
        opt = QStyleOptionFrame()
        self.initStyleOption(opt)
        box = self.style().subElementRect(QStyle.SubElement.SE_LineEditContents, opt, self)
        m = self.textMargins()
        return box.adjusted(m.left() + 2, m.top(), -m.right() - 2, -m.bottom())

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt)
        shown = self.shown_text()
        if shown == self.text():
            super().paintEvent(event)
            return
        opt = QStyleOptionFrame()
        self.initStyleOption(opt)
        painter = QPainter(self)
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_PanelLineEdit, opt, painter, self)
        painter.setPen(self.palette().color(QPalette.ColorRole.Text))
        painter.setFont(self.font())
        painter.drawText(self._room(), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         shown)
        painter.end()


class Field(QWidget):
    """One property editor: the input, its unit, and an inline error line."""

    committed = Signal(str, object)
    """(prop, value) when the user finished a valid edit."""

    def __init__(self, spec: PropSpec, parent: QWidget | None = None):
        super().__init__(parent)
        self.spec = spec
        self.prop = spec.name
        self.error = QLabel(self)
        theme.tone(self.error, "error")
        self.error.setWordWrap(True)
        self.error.hide()
        self.check: QCheckBox | None = None
        self.combo: QComboBox | None = None
        self.edit: ElidedEdit | None = None
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        if spec.type == "bool":
            self.check = QCheckBox(self)
            self.check.setTristate(False)
            self.check.clicked.connect(lambda on: self.committed.emit(self.prop, bool(on)))
            row.addWidget(self.check)
        elif spec.choices is not None:
            self.combo = QComboBox(self)
            for c in spec.choices:
                text = fmt.choice(spec.name, c) if isinstance(c, str) else format_value(c)
                self.combo.addItem(text, c)
            self.combo.activated.connect(self._combo_activated)
            self.combo.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            wheel.guard(self.combo)  # a wheel over it scrolls the inspector until clicked
            row.addWidget(self.combo, 1)
        else:
            self.edit = ElidedEdit(self)
            if spec.nullable:
                self.edit.setPlaceholderText("default")
            self.edit.textEdited.connect(self._validate)
            self.edit.editingFinished.connect(self._commit_text)
            if spec.name in PROCESSOR_PROPS:
                done = _processor_completer(self.edit)
                self.edit.setCompleter(done)
                done.activated.connect(self._completed)
            row.addWidget(self.edit, 1)
        if fmt.field_unit(spec.unit):
            text = fmt.field_unit(spec.unit)
            unit = QLabel(text if len(text) <= UNIT_CHARS else text.split()[0][:UNIT_CHARS - 1]
                          + "…", self)
            unit.setToolTip(text)  # a long unit ('SPECrate2017_int_base per core') in short
            unit.setMinimumWidth(10)
            row.addWidget(unit)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(1)
        outer.addLayout(row)
        outer.addWidget(self.error)
        self.setToolTip(f"{spec.doc}\nexpected: {spec.expected()}\ndefault: "
                        f"{format_value(spec.default) or 'none'}")
        if self.edit is not None:  # the value whole over its (perhaps cut) field
            self.edit.setToolTip(self.toolTip())
        self._shown = ""

    # ------------------------------------------------------------------ value <-> widget
    def set_read_only(self, read_only: bool) -> None:
        """Show the value without taking edits (a text stays selectable, without the frame
        that says a field takes typing)."""
        if self.edit is not None:
            show_read_only(self.edit, read_only)
        for w in (self.check, self.combo):
            if w is not None:
                w.setEnabled(not read_only)

    def set_value(self, value: Value, mixed: bool = False, explicit: bool = False) -> None:
        """Show ``value`` (unless the user is typing in this field)."""
        if self.check is not None:
            self.check.setChecked(bool(value) and not mixed)
        elif self.combo is not None:
            idx = -1 if mixed else self._combo_index(value)
            self.combo.setCurrentIndex(idx)
            if mixed:
                self.combo.setPlaceholderText(MIXED)
        elif self.edit is not None:
            if self.edit.hasFocus() and self.edit.isModified():
                return
            self._shown = "" if mixed else format_value(value)
            self.edit.setText(self._shown)
            self.edit.setToolTip(f"{self._shown}\n\n{self.toolTip()}" if self._shown
                                 else self.toolTip())
            if not self.edit.hasFocus():  # a long value shows its start, not its end
                self.edit.setCursorPosition(0)
            self.edit.setPlaceholderText(MIXED if mixed else
                                         ("default" if self.spec.nullable else ""))
            self.edit.setModified(False)
            self._show_error(None)
        font = QFont(self.font())
        font.setBold(explicit)
        for w in (self.check, self.combo, self.edit):
            if w is not None:
                w.setFont(font)

    def _combo_index(self, value: Value) -> int:
        assert self.combo is not None
        for i in range(self.combo.count()):
            data = self.combo.itemData(i)
            if data == value or (isinstance(data, float) and isinstance(value, (int, float))
                                 and not isinstance(value, bool)
                                 and math.isclose(data, float(value))):
                return i
        return -1

    def _combo_activated(self, index: int) -> None:
        assert self.combo is not None
        self.committed.emit(self.prop, self.combo.itemData(index))

    def parse(self, text: str) -> tuple[Value, str | None]:
        """The value of ``text`` or (None, the reason it is invalid)."""
        try:
            return parse_value(self.spec, text), None
        except ValueError as err:
            return None, str(err)

    def _validate(self, text: str) -> None:
        _, problem = self.parse(text)
        self._show_error(problem)

    def _completed(self, text: str) -> None:
        """A processor picked from the catalogue's list: taken as if typed (the pick's own
        text: the field's may not hold it yet when this runs)."""
        assert self.edit is not None
        self.edit.setText(text)
        self.edit.setModified(True)
        self._commit_text()

    def _commit_text(self) -> None:
        assert self.edit is not None
        if not self.edit.isModified():
            return
        done = self.edit.completer()
        popup = done.popup() if done is not None else None
        if popup is not None and popup.isVisible():
            return  # Return on a pick reaches the field first: the pick commits (_completed)
        text = self.edit.text()
        if text == self._shown:
            self.edit.setModified(False)
            return
        value, problem = self.parse(text)
        self._show_error(problem)
        if problem is None:
            self.edit.setModified(False)
            self._shown = text
            self.committed.emit(self.prop, value)

    def _show_error(self, problem: str | None) -> None:
        self.error.setText(problem or "")
        self.error.setVisible(bool(problem))
        if self.edit is not None:
            self.edit.setStyleSheet("border: 1px solid #d9534f;" if problem else "")

    @property
    def has_error(self) -> bool:
        return not self.error.isHidden()


UNIT_CHARS = 10
"""A unit longer than this is cut beside its field (the whole of it in its tooltip)."""

IMPORTED = ("measured.", "background.", "provenance.")
"""Properties an import records (what vCenter measured, a host's background load, where each
figure came from): the Inspector shows them only for components that have them."""


def imported_only(prop: str) -> bool:
    return prop.startswith(IMPORTED)


VSAN = "vsan."
"""A vSAN setting: on a cluster its policy and reserves, on a host its devices, on a VM its
own policy.  Shown where the component is (or sits in) a vSAN cluster, or sets one itself
(:func:`vsan_shown`); a cluster's ``vsan.architecture`` always shows (it turns vSAN on)."""
OSA_ONLY = ("vsan.disk_groups", "vsan.cache_gb")
"""A host's OSA settings: shown where its cluster runs OSA (ESA has no disk groups)."""


def vsan_shown(doc: DesignDocument, kind: str, ids: list[str],
               clusters: set[str] | None = None) -> set[str]:
    """The ``vsan.*`` fields the selection of ``ids`` (all of ``kind``) needs, in the active
    scenario: a vSAN cluster's settings, the devices of a host in one (its disk groups and
    cache where that cluster runs OSA), a VM's policy where it runs in one; and any a
    component sets itself.  ``clusters``: the clusters the hosts (or the VMs' hosts) are in,
    when the caller knows them (:func:`clusters_of`).  Where no cluster runs vSAN this costs
    one memoised lookup."""
    props = [p for p in KINDS[kind].props if p.startswith(VSAN) and p != "vsan.architecture"]
    if not props:
        return set()
    spec = KINDS[kind].props
    comps = [c for cid in ids if (c := doc.shown_component(cid)) is not None]
    shown = {p for p in props for c in comps
             if c.props.get(p, spec[p].default) != spec[p].default}
    if kind == "cluster":
        clusters = set(ids)
    elif doc.value("cluster", "vsan.architecture") == "none":  # no cluster runs vSAN
        clusters = set()
    elif clusters is None:
        clusters = clusters_of(doc, kind, ids)
    archs = {doc.value(f"id:{g}", "vsan.architecture") for g in clusters}
    if archs - {"none", None}:
        shown |= {p for p in props if p not in OSA_ONLY or "osa" in archs}
    return shown


def clusters_of(doc: DesignDocument, kind: str, ids: list[str]) -> set[str]:
    """The clusters the hosts (or the VMs' hosts) of ``ids`` are in: one pass over the links
    of the design the canvas shows (a refresh's hosts too)."""
    wanted = set(ids)
    host_of: dict[str, str] = {}
    cluster_of: dict[str, str] = {}
    for lk in doc.shown_design().links:
        if lk.kind == "in_cluster":
            cluster_of[lk.source] = lk.target
        elif lk.kind == "runs_on" and kind == "vm" and lk.source in wanted:
            host_of[lk.source] = lk.target
    hosts = {host_of[v] for v in ids if v in host_of} if kind == "vm" else wanted
    return {cluster_of[h] for h in hosts if h in cluster_of}


class Inspector(QWidget):
    """Properties of the selected component(s)."""

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.title = QLabel(self)
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.1)
        self.title.setFont(font)
        self.name_edit = QLineEdit(self)
        self.name_edit.setPlaceholderText("name")
        self.name_edit.editingFinished.connect(self._commit_name)
        self.predicted = QLabel(self)
        self.predicted.setTextFormat(Qt.TextFormat.RichText)
        self.predicted.setWordWrap(True)
        self.predicted.setStyleSheet("padding: 4px; border: 1px solid palette(mid);"
                                     " border-radius: 4px;")
        self.predicted.hide()
        self.provenance = QLabel(self)
        self.provenance.setTextFormat(Qt.TextFormat.RichText)
        self.provenance.setWordWrap(True)
        self.provenance.setAccessibleName("Where the figures come from")
        self.provenance.setStyleSheet("padding: 4px; border: 1px solid palette(mid);"
                                      " border-radius: 4px; font-size: 8pt;")
        self.provenance.hide()
        self.message = QLabel(self)
        theme.tone(self.message, "error")
        self.message.setWordWrap(True)
        self.message.hide()
        self.note = QLabel(self)
        """Says that the selection is a refresh's own hardware, shown read-only."""
        self.note.setWordWrap(True)
        self.note.hide()
        # the fields, then what the prediction says and where the figures come from, all in
        # one scroll area under the name: in a short dock the fields keep the room (at
        # 1366x768 the boxes above them left the fields two rows)
        body = QWidget(self)
        self.form_host = QWidget(body)
        self.form = QFormLayout(self.form_host)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        # a label too long for its column puts its field on the line below (wrapped labels
        # in a form were cut to half a line each)
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        column = QVBoxLayout(body)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.message)
        column.addWidget(self.note)
        column.addWidget(self.form_host)
        column.addWidget(self.predicted)
        column.addWidget(self.provenance)
        column.addStretch(1)
        self.fields_area = QScrollArea(self)
        self.fields_area.setWidgetResizable(True)
        self.fields_area.setWidget(body)
        self.fields_area.setFrameShape(QScrollArea.Shape.NoFrame)
        self.fields_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.title)
        layout.addWidget(self.name_edit)
        layout.addWidget(self.fields_area, 1)
        self.fields: dict[str, Field] = {}
        self.ids: list[str] = []
        self.kind = ""
        self.read_only = False
        """The selection is hardware a refresh adds (its properties are the scenario's)."""
        self._clusters_at: tuple[tuple[object, ...], set[str]] | None = None
        document.selection_changed.connect(self._selection_changed)
        document.component_changed.connect(self._component_changed)
        document.design_replaced.connect(self._rebuild)
        document.scenario_changed.connect(lambda _name: self._rebuild())
        document.values_changed.connect(lambda _s, _p: self.refresh())
        document.prediction_updated.connect(lambda _p: self._show_prediction())
        self._rebuild()

    # ------------------------------------------------------------------ building
    def _selection_changed(self, _ids: list[str]) -> None:
        self._rebuild()

    def _rebuild(self) -> None:
        doc = self.document
        ids = [cid for cid in doc.selection if doc.shown_component(cid)]
        kinds = {comp.kind for cid in ids if (comp := doc.shown_component(cid))}
        self.message.hide()
        if len(kinds) > 1:
            ids = []
            self.title.setText(f"{fmt.count(len(self.document.selection), 'component')} of"
                               " different kinds selected")
        kind = kinds.pop() if len(kinds) == 1 else ""
        if kind != self.kind or not ids:
            self._clear_fields()
        self.ids, self.kind = ids, kind
        self.read_only = any(doc.component(cid) is None for cid in ids)  # not the base's
        self.note.setText(f"Part of the refresh ‘{doc.scenario}’: the scenario's own"
                          " hardware, shown read-only." if self.read_only else "")
        self.note.setVisible(self.read_only)
        self._show_prediction()
        if not ids:
            if not self.document.selection:
                self.title.setText("Nothing selected: click a component on the canvas")
            self.name_edit.hide()
            return
        if not self.fields:
            for spec in KINDS[kind].props.values():
                f = Field(spec, self.form_host)
                f.committed.connect(self._commit)
                label = QLabel(prop_label(kind, spec.name))
                label.setToolTip(f"{spec.doc} ({spec.name})")
                self.form.addRow(label, f)
                self.fields[spec.name] = f
        for f in self.fields.values():
            f.set_read_only(self.read_only)
        show_read_only(self.name_edit, self.read_only)
        self.name_edit.setVisible(len(ids) == 1)
        self.refresh()

    def _show_prediction(self) -> None:
        """What the latest prediction says about the one selected component."""
        self._show_provenance()
        if len(self.ids) != 1 or self.document.prediction is None:
            self.predicted.hide()
            return
        if self.kind == "vm" and not any(lk.kind == "runs_on" for lk in
                                         self.document.links_of(self.ids[0])):
            self.predicted.setText(NOT_PLACED)
            self.predicted.setVisible(True)
            return
        text = component_tooltip(self.document, self.ids[0], provenance=False)
        lines = text.split("<br>")[1:]  # the title is already shown above
        self.predicted.setText("<b>Predicted</b>: " + " · ".join(lines) if lines else "")
        self.predicted.setVisible(bool(lines))

    def _show_provenance(self) -> None:
        """Where the one selected component's workload figures come from."""
        comp = self.document.shown_component(self.ids[0]) if len(self.ids) == 1 else None
        lines = provenance_html(comp) if comp is not None else []
        self.provenance.setText("<b>Where the figures come from</b><br>" + "<br>".join(lines)
                                if lines else "")
        self.provenance.setVisible(bool(lines))

    def _clear_fields(self) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self.fields.clear()

    def refresh(self) -> None:
        """Show the effective values (active scenario) of the selected components."""
        if not self.ids:
            return
        doc = self.document
        label = KINDS[self.kind].label
        if len(self.ids) == 1:
            comp = doc.shown_component(self.ids[0])
            assert comp is not None
            scen = "" if doc.scenario == "base" else f" · scenario '{doc.scenario}'"
            self.title.setText(f"{label}: {comp.name or comp.id}{scen}")
            if not self.name_edit.hasFocus():
                self.name_edit.setText(comp.name)
        else:
            self.title.setText(f"{len(self.ids)} × {label}")
        comps = [c for cid in self.ids if (c := doc.shown_component(cid)) is not None]
        vsan = vsan_shown(doc, self.kind, self.ids, self._clusters())
        for prop, f in self.fields.items():
            values = [doc.value(f"id:{cid}", prop) for cid in self.ids]
            mixed = any(v != values[0] for v in values[1:])
            explicit = any(prop in c.props for c in comps)
            f.set_value(values[0], mixed=mixed, explicit=explicit)
            if imported_only(prop):  # what an import recorded: shown where it did
                self.form.setRowVisible(f, explicit)
            elif prop.startswith(VSAN) and prop != "vsan.architecture":
                self.form.setRowVisible(f, prop in vsan)  # vSAN's, where there is vSAN

    def _clusters(self) -> set[str] | None:
        """The clusters the selected hosts (or VMs' hosts) are in, found again only when the
        selection, the scenario or the design's links changed (a slider drag repaints the
        fields at every step); None for a selection of another kind."""
        if self.kind not in ("host", "vm"):
            return None
        doc = self.document
        key = (tuple(self.ids), doc.scenario, doc.session.structure)
        if self._clusters_at is None or self._clusters_at[0] != key:
            self._clusters_at = (key, clusters_of(doc, self.kind, self.ids))
        return self._clusters_at[1]

    def field(self, prop: str) -> Field:
        return self.fields[prop]

    # ------------------------------------------------------------------ edits
    def _commit(self, prop: str, value: Value) -> None:
        doc = self.document
        try:
            doc.set_values([f"id:{cid}" for cid in self.ids], prop, value)  # ONE undo step
            self.message.hide()
        except DesignError as err:
            self.message.setText(str(err))
            self.message.show()

    def _commit_name(self) -> None:
        if len(self.ids) != 1 or not self.name_edit.isModified():
            return
        self.name_edit.setModified(False)
        comp = self.document.component(self.ids[0])
        if comp is not None and comp.name != self.name_edit.text():
            self.document.set_value(f"id:{comp.id}", "name", self.name_edit.text())

    def _component_changed(self, cid: str, _prop: str) -> None:
        if cid in self.ids:
            self.refresh()
            self._show_provenance()
