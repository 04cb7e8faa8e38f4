"""The Goal seek tab: the fewest hosts, the largest outstanding I/Os, the largest growth of the
measured I/O (an imported estate) or the most VMs per host that meet the design's policy
(:func:`models.analysis.seek`), searched in the background with a busy bar and Cancel;
"Apply" changes the design to the answer as ONE undo step."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.document.design_document import DesignDocument
from app.panels.analysis.common import LANE, analysis_copy, place_rebuilt, plain, stoppable
from app.support.jobs import Runner
from models.analysis import SeekResult, rebuild, seek
from models.analysis.resize import resize
from models.document import numbers as fmt
from models.engine.kpis import limit_text

GOAL_LABELS = {"hosts": "Fewest hosts that meet policy",
               "oio": "Largest outstanding I/Os per VM that meets policy",
               "iops": "Largest growth of the measured I/O that meets policy (p95 latency)",
               "vms": "Most VMs per host that meet policy"}


class GoalSeekTab(QWidget):
    """Choose a goal, Seek, read the answer and what binds it, Apply."""

    seek_finished = Signal(object)
    """The SeekResult shown (tests and the status bar follow it)."""
    status_message = Signal(str)

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.seek_result: SeekResult | None = None
        self._seek_edits = -1
        self.runner = Runner(self, lane=LANE)
        self.runner.finished.connect(self._seek_done)
        self.runner.failed.connect(self._seek_failed)
        v = QVBoxLayout(self)
        row = QHBoxLayout()
        self.goal_combo = QComboBox()
        self.goal_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.goal_combo.setMinimumContentsLength(12)  # as narrow as its dock needs, never wider
        self.goal_combo.setAccessibleName("Goal")
        for goal, label in GOAL_LABELS.items():
            self.goal_combo.addItem(label, goal)
        row.addWidget(self.goal_combo, 1)
        self.seek_button = QPushButton("Seek")
        self.seek_button.setToolTip("Search the smallest/largest setting that keeps every"
                                    " component within the design's policy")
        self.seek_button.clicked.connect(self.run_seek)
        row.addWidget(self.seek_button)
        self.seek_cancel = QPushButton("Cancel")
        self.seek_cancel.clicked.connect(self.cancel_seek)
        self.seek_cancel.setEnabled(False)
        row.addWidget(self.seek_cancel)
        v.addLayout(row)
        self.seek_busy = QProgressBar()
        self.seek_busy.setRange(0, 0)
        self.seek_busy.setAccessibleName("Goal seek running")
        self.seek_busy.hide()
        v.addWidget(self.seek_busy)
        self.seek_answer = QLabel("Choose a goal and press Seek.")
        self.seek_answer.setAccessibleName("Goal seek answer")
        self.seek_answer.setWordWrap(True)
        font = self.seek_answer.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.seek_answer.setFont(font)
        v.addWidget(self.seek_answer)
        self.seek_detail = QLabel()
        self.seek_detail.setWordWrap(True)
        self.seek_detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.seek_detail.setAccessibleName("Goal seek detail")
        v.addWidget(self.seek_detail)
        self.apply_button = QPushButton("Apply")
        self.apply_button.setToolTip("Change the design to the answer (one undo step)")
        self.apply_button.setEnabled(False)
        self.apply_button.clicked.connect(self.apply_seek)
        v.addWidget(self.apply_button, 0, Qt.AlignmentFlag.AlignLeft)
        v.addStretch(1)
        document.prediction_updated.connect(self._design_changed)
        document.design_replaced.connect(self._design_changed)

    def run_seek(self, goal: str | None = None) -> None:
        """Start a goal seek (``goal``: hosts, oio or vms; default: the chosen one)."""
        if isinstance(goal, str):
            self.goal_combo.setCurrentIndex(self.goal_combo.findData(goal))
        chosen = str(self.goal_combo.currentData())
        self.cancel_seek()
        design = analysis_copy(self.document)
        self._seek_edits = self.document.edits
        self.seek_result = None
        self.apply_button.setEnabled(False)
        self.seek_answer.setText(f"Seeking: {GOAL_LABELS[chosen].lower()}...")
        self.seek_detail.setText("")
        self._seek_running(True)
        self.runner.submit(lambda task: seek(design, chosen, evaluate=stoppable(task)))

    def cancel_seek(self) -> None:
        if self.runner.busy:
            self.runner.cancel()
            self.seek_answer.setText("Goal seek cancelled.")
        self._seek_running(False)

    def _seek_running(self, on: bool) -> None:
        self.seek_busy.setVisible(on)
        self.seek_cancel.setEnabled(on)
        self.seek_button.setEnabled(not on)

    def _seek_done(self, result: object) -> None:
        if not isinstance(result, SeekResult):
            return
        self._seek_running(False)
        self.seek_result = r = result
        if r.value is None:
            self.seek_answer.setText(f"No setting in {r.search[0]}..{r.search[1]} meets"
                                     f" policy ({limit_text(r.binding)} fails).")
        else:
            extra = (f" ({r.extra['active_hosts']} + {r.extra['ha_spare_hosts']} HA spare)"
                     if r.goal == "hosts" else "")
            current = "" if r.current is None else \
                f"; the design has {fmt.with_unit(r.current, r.unit)}"
            if r.goal == "iops":  # today's I/O is 100%
                extra = f" ({fmt.with_unit(r.extra['iops_at_answer'], 'IOPS')})"
                current = f"; today {fmt.with_unit(r.extra['iops_today'], 'IOPS')}"
            self.seek_answer.setText(f"{fmt.with_unit(r.value, r.unit)}{extra}{current}")
        lines = [f"Binding: {limit_text(r.binding)}"] if r.binding else []
        lines += [f"  {plain(self.document, b.describe())}" for b in r.binding_detail[:3]]
        clusters = [c for c in r.extra.get("clusters", []) if c["id"]]
        lines += [f"  {c['name']}: {c['hosts_needed']} of {c['hosts']}"
                  f" ({c['binding']}; {c['admission_control']})" for c in clusters]
        if r.trials:
            tried = ", ".join(f"{t.value} {'ok' if t.ok else 'fails'}"
                              for t in sorted(r.trials, key=lambda t: t.value))
            lines.append(f"Tried: {tried}")
        lines += [f"Note: {n}" for n in r.notes]
        self.seek_detail.setText("\n".join(lines))
        self.seek_detail.setToolTip(r.method)
        self.apply_button.setEnabled(r.value is not None and self._can_apply(r))
        self.seek_finished.emit(r)
        self.status_message.emit(f"Goal seek: {self.seek_answer.text()}")

    def _seek_failed(self, message: str) -> None:
        self._seek_running(False)
        self.seek_answer.setText("Goal seek failed.")
        self.seek_detail.setText(message)

    def _can_apply(self, r: SeekResult) -> bool:
        if r.goal == "oio":
            return True
        if r.goal == "iops":  # an answer about the estate, not a change to it
            self.apply_button.setToolTip("The I/O growth the design takes is an answer, not a"
                                         " change: nothing to apply")
            return False
        ok = self.document.scenario == "base"
        if not ok:
            self.apply_button.setToolTip("Hosts and VM counts change the base design: switch"
                                         " to the base scenario to apply")
        return ok

    def apply_seek(self) -> None:
        """Apply the answer as ONE undo step: OIO on every VM (in the active scenario), or
        the design rebuilt with that many hosts / VMs per host."""
        r = self.seek_result
        if r is None or r.value is None:
            return
        doc = self.document
        self.seek_result = None  # applied: the design now differs from the one searched
        if r.goal == "oio":
            doc.set_value("vm", "workload.io_oio", int(r.value))
        else:
            base = analysis_copy(doc) if doc.scenario == "base" else doc.design
            if r.goal == "hosts":  # each cluster to its own count, its VMs within it
                new, _ = resize(base, {c["id"]: int(c["hosts_needed"])
                                       for c in r.extra["clusters"]
                                       if c["hosts_needed"] is not None})
                text = f"Goal seek: {fmt.count(int(r.value), 'host')}"
            else:
                new, _ = rebuild(base, vms_per_host=int(r.value))
                text = f"Goal seek: {fmt.count(int(r.value), 'VM per host')}"
            place_rebuilt(doc.design, new)
            doc.replace_contents(new, text)
        self.apply_button.setEnabled(False)
        self.seek_detail.setText(self.seek_detail.text() + "\nApplied as one undo step"
                                 " (Ctrl+Z restores the design).")
        self.status_message.emit(f"Applied: {r.value} {r.unit} (Ctrl+Z undoes it)")

    def _design_changed(self, *_: object) -> None:
        if self.seek_result is not None and self.document.edits != self._seek_edits \
                and not self.runner.busy and self.apply_button.isEnabled():
            self.apply_button.setEnabled(False)
            self.seek_detail.setText(self.seek_detail.text() + "\nThe design changed since:"
                                     " seek again to apply.")
