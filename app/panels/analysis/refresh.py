"""The Refresh tab: the base design's hosts (of every cluster, or of one) replaced by hosts of
a catalogue server, with a processor of its options and the memory per host; the fewest that
meet the policy, or a count (:func:`models.analysis.refresh.refresh`), computed in the
background.  The refreshed clusters keep their storage, or move to vSAN (ESA or OSA) on the
new hosts' devices with a default policy and an assumed compression
(:func:`models.analysis.refresh.vsan_target`), storage then counting in the hosts needed.
Before and after side by side, each cluster's vSAN in words; "Add as scenario" keeps the
refresh as a scenario of the design (ONE undo step: its hosts and, for vSAN, the clusters'
settings as its overrides), which the dashboard, Compare and the report show against the
base design."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.document.design_document import DesignDocument
from app.panels.analysis.common import LANE, stoppable
from app.support.jobs import Runner
from models.analysis.refresh import DEVICE_TB, DEVICES, RefreshResult, refresh, target, vsan_target
from models.document import numbers as fmt
from models.document.catalogue import servers
from models.document.design import Component, Design, DesignError, Link
from models.document.schema import choice_label
from models.subsystems.vsan import words as vsan_words

DEFAULT_SERVER = "dell-r760"
EVERY = ""
"""The cluster choice that refreshes every cluster."""


def base_copy(doc: DesignDocument) -> Design:
    """The base design as a design of its own (the document may change while it runs)."""
    d = doc.design
    return Design(d.name, d.notes, dict(d.policy),
                  [Component(c.id, c.kind, c.name, c.x, c.y, list(c.tags), dict(c.props))
                   for c in d.components],
                  [Link(lk.source, lk.target, lk.kind, dict(lk.props)) for lk in d.links], [])


class RefreshTab(QWidget):
    """Choose the server, processor, memory, hosts and cluster; Refresh; read before and
    after; Add as scenario."""

    refresh_finished = Signal(object)
    """The RefreshResult shown (tests and the status bar follow it)."""
    status_message = Signal(str)

    def __init__(self, document: DesignDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.result: RefreshResult | None = None
        self._edits = -1
        self.runner = Runner(self, lane=LANE)
        self.runner.finished.connect(self._done)
        self.runner.failed.connect(self._failed)
        v = QVBoxLayout(self)
        grid = QGridLayout()
        self.server_combo = _combo("Server")
        for s in servers.servers():
            self.server_combo.addItem(f"{s.title} ({s.generation})", s.id)
        self.cpu_combo = _combo("Processor")
        self.memory_spin = QSpinBox()
        self.memory_spin.setAccessibleName("Memory per host")
        self.memory_spin.setRange(0, 24576)
        self.memory_spin.setSingleStep(64)
        self.memory_spin.setSuffix(" GB")
        self.memory_spin.setSpecialValueText("sized by the refresh")
        self.memory_spin.setToolTip("Memory per host; when 'sized by the refresh', the"
                                    " smallest of the server's balanced DIMM populations at"
                                    " which memory no longer sets the count")
        self.ht_combo = _combo("Hyperthreading")
        for text, value in (("as each host had it", ""), ("on", "on"), ("off", "off")):
            self.ht_combo.addItem(text, value)
        self.ht_combo.setToolTip("Hyperthreading on the new hosts: like for like unless"
                                 " chosen")
        self.hosts_spin = QSpinBox()
        self.hosts_spin.setAccessibleName("Hosts per cluster")
        self.hosts_spin.setRange(0, 1000)
        self.hosts_spin.setSpecialValueText("fewest meeting policy")
        self.hosts_spin.setToolTip("Hosts per cluster refreshed; the fewest that meet the"
                                   " policy (CPU and memory ceilings, HA admission control,"
                                   " p95) when 0")
        self.cluster_combo = _combo("Cluster")
        self._vsan_fields()
        grid.addWidget(QLabel("Server"), 0, 0)
        grid.addWidget(self.server_combo, 0, 1)
        grid.addWidget(QLabel("Processor"), 0, 2)
        grid.addWidget(self.cpu_combo, 0, 3)
        grid.addWidget(QLabel("Memory"), 1, 0)
        grid.addWidget(self.memory_spin, 1, 1)
        grid.addWidget(QLabel("Hosts"), 1, 2)
        grid.addWidget(self.hosts_spin, 1, 3)
        grid.addWidget(QLabel("Clusters"), 2, 0)
        grid.addWidget(self.cluster_combo, 2, 1)
        grid.addWidget(QLabel("Hyperthreading"), 2, 2)
        grid.addWidget(self.ht_combo, 2, 3)
        grid.addWidget(QLabel("vSAN"), 3, 0)
        grid.addLayout(self.vsan_row, 3, 1, 1, 3)
        buttons = QHBoxLayout()
        self.run_button = QPushButton("Refresh")
        self.run_button.setToolTip("Replace the base design's hosts by the server's and see"
                                   " before and after (the design is not changed)")
        self.run_button.clicked.connect(self.run_refresh)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel_refresh)
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        # four rows of choices: the buttons lead the answer's column (a fifth row took the
        # Knobs dock's height at 1280 x 720)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)
        v.addLayout(grid)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setAccessibleName("Refresh running")
        self.busy.hide()
        v.addWidget(self.busy)
        out = QHBoxLayout()
        self.table = QTableWidget(0, 3)
        self.table.setAccessibleName("Refresh before and after")
        self.table.setHorizontalHeaderLabels(["Figure", "Base design", "Refreshed"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        out.addWidget(self.table, 1)
        side = QVBoxLayout()
        self.answer = QLabel("Choose a server and press Refresh.")
        self.answer.setAccessibleName("Refresh answer")
        self.answer.setWordWrap(True)
        self.detail = QLabel()
        self.detail.setAccessibleName("Refresh detail")
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.name_edit = QLineEdit()
        self.name_edit.setAccessibleName("Scenario name")
        self.name_edit.setPlaceholderText("scenario name")
        self.add_button = QPushButton("Add as scenario")
        self.add_button.setToolTip("Keep the refresh as a scenario of the design (one undo"
                                   " step): Compare and the report show it beside the base")
        self.add_button.setEnabled(False)
        self.add_button.clicked.connect(self.add_scenario)
        keep = QHBoxLayout()
        keep.addWidget(self.name_edit, 1)
        keep.addWidget(self.add_button)
        self.detail_area = QScrollArea()  # the memory, each cluster, its vSAN, the method:
        self.detail_area.setWidget(self.detail)  # more lines than a short dock shows
        self.detail_area.setWidgetResizable(True)
        self.detail_area.setFrameShape(QScrollArea.Shape.NoFrame)
        self.detail_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.detail.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        side.addLayout(buttons)
        side.addWidget(self.answer)
        side.addWidget(self.detail_area, 1)
        side.addLayout(keep)
        out.addLayout(side, 1)
        v.addLayout(out, 1)
        self.server_combo.currentIndexChanged.connect(self._server_changed)
        self.server_combo.setCurrentIndex(max(self.server_combo.findData(DEFAULT_SERVER), 0))
        self._server_changed()
        self._fill_clusters()
        document.design_replaced.connect(self._fill_clusters)
        document.component_added.connect(self._fill_clusters)
        document.component_removed.connect(self._fill_clusters)
        document.prediction_updated.connect(self._design_changed)

    def _vsan_fields(self) -> None:
        """The vSAN row: keep the clusters' storage, or move them to ESA or OSA with a policy,
        the devices of each new host and a compression assumed."""
        self.vsan_combo = _combo("vSAN")
        for text, value in (("keep storage as it is", ""), ("vSAN ESA", "esa"),
                            ("vSAN OSA", "osa")):
            self.vsan_combo.addItem(text, value)
        self.vsan_combo.setToolTip("Move the refreshed clusters to vSAN on the new hosts'"
                                   " devices: storage then counts in the hosts they need"
                                   " (the data under the policy, after the reserves, and the"
                                   " policy's minimum)")
        self.policy_combo = _combo("vSAN storage policy")
        self.policy_combo.addItem("default policy", "")
        for p in ("raid1", "raid5", "raid6"):
            self.policy_combo.addItem(choice_label(p), p)
        self.policy_combo.setToolTip("The clusters' default storage policy: unless chosen RAID"
                                     " 5 on ESA, RAID 1 (FTT 1) on OSA")
        self.devices_spin = QSpinBox()
        self.devices_spin.setAccessibleName("vSAN devices per host")
        self.devices_spin.setRange(1, 64)
        self.devices_spin.setValue(DEVICES)
        self.devices_spin.setSuffix(" dev.")
        self.devices_spin.setToolTip("vSAN capacity devices in each new host (six unless"
                                     " chosen: a mid ESA ReadyNode profile, an assumption)")
        self.device_tb_spin = QDoubleSpinBox()
        self.device_tb_spin.setAccessibleName("vSAN device size")
        self.device_tb_spin.setRange(0.1, 100.0)
        self.device_tb_spin.setDecimals(2)
        self.device_tb_spin.setSingleStep(0.96)
        self.device_tb_spin.setValue(DEVICE_TB)
        self.device_tb_spin.setPrefix("× ")
        self.device_tb_spin.setSuffix(" TB")
        self.device_tb_spin.setToolTip("Each device's raw capacity, decimal TB as vendors state"
                                       " it")
        self.compression_spin = QDoubleSpinBox()
        self.compression_spin.setAccessibleName("vSAN compression")
        self.compression_spin.setRange(1.0, 4.0)
        self.compression_spin.setDecimals(2)
        self.compression_spin.setSingleStep(0.25)
        self.compression_spin.setValue(1.0)
        self.compression_spin.setSuffix(" : 1")
        self.compression_spin.setToolTip("Data reduction assumed (1: nothing pre-spent, as"
                                         " practitioners advise)")
        self.vsan_row = QHBoxLayout()
        for combo in (self.vsan_combo, self.policy_combo):  # the row fits beside the docks
            combo.setMinimumContentsLength(6)
        for w in (self.vsan_combo, self.policy_combo, self.devices_spin,
                  self.device_tb_spin, self.compression_spin):
            self.vsan_row.addWidget(w, 1 if w in (self.vsan_combo, self.policy_combo) else 0)
        self.vsan_combo.currentIndexChanged.connect(self._vsan_changed)
        self._vsan_changed()

    def _vsan_changed(self, *_: object) -> None:
        on = bool(self.vsan_combo.currentData())
        for w in (self.policy_combo, self.devices_spin, self.device_tb_spin,
                  self.compression_spin):
            w.setEnabled(on)

    # ------------------------------------------------------------------ choices
    def _server_changed(self, *_: object) -> None:
        server = servers.find(str(self.server_combo.currentData()))
        self.cpu_combo.clear()
        if server is None:
            return
        default = servers.default_processor(server)
        for p in server.processor_options:
            cores = fmt.count(p.cores, "core") if p.cores else "cores unknown"
            self.cpu_combo.addItem(f"{p.model.removeprefix('Intel Xeon ')} · {cores} ·"
                                   f" {fmt.number(p.specrate_per_core)} per core", p.model)
        if default is not None:
            self.cpu_combo.setCurrentIndex(self.cpu_combo.findData(default.model))

    def _fill_clusters(self, *_: object) -> None:
        chosen = self.cluster_combo.currentData()
        self.cluster_combo.clear()
        self.cluster_combo.addItem("every cluster", EVERY)
        for c in self.document.design.of_kind("cluster"):
            self.cluster_combo.addItem(c.name or c.id, c.id)
        i = self.cluster_combo.findData(chosen)
        self.cluster_combo.setCurrentIndex(max(i, 0))

    def choose(self, server: str | None = None, cpu: str | None = None,
               cluster: str | None = None, hosts: int | None = None,
               memory_gb: int | None = None, ht: str | None = None,
               vsan: str | None = None, policy: str | None = None,
               devices: int | None = None, device_tb: float | None = None,
               compression: float | None = None) -> None:
        """Set the choices (a cluster's context menu, the tests)."""
        if vsan is not None:
            self.vsan_combo.setCurrentIndex(max(self.vsan_combo.findData(vsan), 0))
        if policy is not None:
            self.policy_combo.setCurrentIndex(max(self.policy_combo.findData(policy), 0))
        if devices is not None:
            self.devices_spin.setValue(devices)
        if device_tb is not None:
            self.device_tb_spin.setValue(device_tb)
        if compression is not None:
            self.compression_spin.setValue(compression)
        if server is not None:
            self.server_combo.setCurrentIndex(self.server_combo.findData(server))
        if cpu is not None:
            self.cpu_combo.setCurrentIndex(self.cpu_combo.findData(cpu))
        if memory_gb is not None:
            self.memory_spin.setValue(memory_gb)
        if ht is not None:
            self.ht_combo.setCurrentIndex(max(self.ht_combo.findData(ht), 0))
        if cluster is not None:
            self._fill_clusters()
            self.cluster_combo.setCurrentIndex(max(self.cluster_combo.findData(cluster), 0))
        if hosts is not None:
            self.hosts_spin.setValue(hosts)

    # ------------------------------------------------------------------ running
    def run_refresh(self) -> None:
        """Start the refresh of the base design with the chosen hardware."""
        self.cancel_refresh()
        try:
            to = target(str(self.server_combo.currentData()),
                        str(self.cpu_combo.currentData() or "") or None,
                        float(self.memory_spin.value()) or None)
            arch = str(self.vsan_combo.currentData() or "")
            if arch:  # the clusters move to vSAN on the new hosts' devices
                to = replace(to, vsan=vsan_target(
                    arch, str(self.policy_combo.currentData() or "") or None, None,
                    self.devices_spin.value(), self.device_tb_spin.value(),
                    self.compression_spin.value()))
        except DesignError as err:
            self.answer.setText("Refresh failed.")
            self.detail.setText("; ".join(i.message for i in err.issues))
            return
        hosts = self.hosts_spin.value() or None
        cluster = str(self.cluster_combo.currentData() or "")
        clusters = [cluster] if cluster else None
        design = base_copy(self.document)
        self._edits = self.document.edits
        self.result = None
        self.add_button.setEnabled(False)
        self.answer.setText(f"Refreshing to {to.text}...")
        self.detail.setText("")
        self._running(True)
        ht = {"on": True, "off": False}.get(str(self.ht_combo.currentData() or ""))
        self.runner.submit(lambda task: refresh(design, to, hosts, clusters,
                                                evaluate=stoppable(task), ht=ht))

    def cancel_refresh(self) -> None:
        if self.runner.busy:
            self.runner.cancel()
            self.answer.setText("Refresh cancelled.")
        self._running(False)

    def _running(self, on: bool) -> None:
        self.busy.setVisible(on)
        self.cancel_button.setEnabled(on)
        self.run_button.setEnabled(not on)

    def _done(self, result: object) -> None:
        if not isinstance(result, RefreshResult):
            return
        self._running(False)
        self.result = r = result
        rows = r.rows()
        self.table.setRowCount(len(rows))
        for i, row in enumerate(rows):
            for j, text in enumerate(row):
                item = QTableWidgetItem(text)
                if j:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(i, j, item)
        self.answer.setText(r.rebuild.label[:1].upper() + r.rebuild.label[1:] + ".")
        memory = r.target.memory
        lines = [*([f"Memory: {memory.population.text} per host, {memory.reason}; module"
                    f" sizes: {memory.source}."] if memory is not None else []),
                 *r.cluster_lines(), *vsan_lines(r), f"How many: {r.method()}.",
                 *(f"Changed: {c['text']}." for c in r.changed),
                 *(f"Note: {n}" for n in r.notes)]
        self.detail.setText("\n".join(lines))
        if not self.name_edit.isModified():
            self.name_edit.setText(self._free_name(default_name(r)))
        self.add_button.setEnabled(self.document.edits == self._edits)
        self.refresh_finished.emit(r)
        self.status_message.emit(f"Refresh: {r.rebuild.label}")

    def _failed(self, message: str) -> None:
        self._running(False)
        self.answer.setText("Refresh failed.")
        self.detail.setText(message)

    def _free_name(self, name: str) -> str:
        taken = {s.name for s in self.document.design.scenarios}
        out, n = name, 2
        while out in taken:
            out, n = f"{name} ({n})", n + 1
        return out

    def add_scenario(self) -> None:
        """Keep the refresh as a scenario (ONE undo step) and show it."""
        r = self.result
        if r is None or self.document.edits != self._edits:
            return
        name = self.name_edit.text().strip() or self._free_name(default_name(r))
        try:  # its hosts, and the clusters' vSAN settings where it moves them to vSAN
            self.document.add_scenario(name, list(r.overrides), r.rebuild)
        except DesignError as err:
            self.detail.setText("; ".join(i.message for i in err.issues))
            return
        self.document.set_scenario(name)
        self.add_button.setEnabled(False)
        self._edits = -1
        self.status_message.emit(f"Added the scenario ‘{name}’ (Ctrl+Z undoes it): Compare"
                                 " shows it beside the base design")

    def _design_changed(self, *_: object) -> None:
        if self.result is not None and self.document.edits != self._edits \
                and self.add_button.isEnabled():
            self.add_button.setEnabled(False)
            self.detail.setText(self.detail.text() + "\nThe design changed since: refresh"
                                " again to keep it.")


def default_name(r: RefreshResult) -> str:
    """``refresh to PowerEdge R770`` (``... on vSAN ESA`` where it moves to vSAN)."""
    to = r.target
    where = f" on vSAN {to.vsan.architecture.upper()}" if to.vsan is not None else ""
    return f"refresh to {to.server.name}{where}"


def vsan_lines(r: RefreshResult) -> list[str]:
    """Each refreshed cluster's vSAN after the refresh (and before, where it had one), in
    words (:func:`models.subsystems.vsan.words`)."""
    cap = r.prediction.sections.capacity
    after = {v.cluster: v for v in (cap.vsan or [])} if cap is not None else {}
    before = {c["id"]: c.get("vsan") for c in r.before.clusters}
    out = []
    for g in r.groups:
        v = after.get(g)
        if v is None:
            continue
        was = before.get(g)
        then = (f" (before: {fmt.with_unit(was['usable_tib'], 'TiB')} usable,"
                f" {fmt.with_unit(was['free_tib'], 'TiB')} free)") if was else ""
        out.append(f"vSAN {r.names[g]}: {vsan_words(v)}{then}.")
    return out


def _combo(name: str) -> QComboBox:
    combo = QComboBox()
    combo.setAccessibleName(name)
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(12)
    return combo
