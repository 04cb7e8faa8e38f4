"""The report's baseline page: where an imported estate's figures come from, and how well the
baseline reproduces what the estate recorded (the residuals per host)."""

from __future__ import annotations

import re
from collections import Counter

from PySide6.QtCore import QRectF, Qt

from app.report.document import Report
from app.report.draw import BAD, GOOD, MARGIN, MUTED, Column, Sheet
from models.analysis import baseline
from models.document import numbers as fmt
from models.document.design import Design

RIGHT = Qt.AlignmentFlag.AlignRight
HOST_ROWS = 14
HEADING = "Baseline: measured against recorded"


def has_baseline(design: Design) -> bool:
    """Whether the design holds measured figures (an imported or calibrated estate)."""
    return any(c.get("workload.profile") == "measured" for c in design.of_kind("vm")) or any(
        c.get("measured.cpu_pct") is not None for c in design.of_kind("host"))


_PER_HOST = re.compile(r"(?::)? \d+(?:\.\d+)?% of each VM's own peak \(host .*?'s recorded"
                       r" peak shared by its VMs' own peaks\)")
"""The part of a VM's provenance that names its host and its host's share (Live Optics at
peak: 'at its host's peak: 32% of each VM's own peak (host esx-04's ...)')."""


def provenance_kind(text: str) -> str:
    """A VM's provenance without what is particular to its host, so VMs measured alike are
    counted as one row: a share of its host's record, a share of its host's peak."""
    if text.startswith("solved: share by"):
        return text.split(" of host ", 1)[0] + " of its host's record"
    measured, scaled, _ = text.partition(baseline.SCALED)
    kind = _PER_HOST.sub(" (each host's recorded peak shared by its VMs' own peaks)", measured)
    return kind + "; scaled down to its host's recorded CPU usage (its VMs' MHz add up to" \
        " more)" if scaled else kind


def provenance_counts(design: Design) -> list[tuple[str, str, int]]:
    """(figure, where it comes from, VMs) over the measured VMs, most VMs first; a solved
    share is counted once whatever its host."""
    counts: Counter[tuple[str, str]] = Counter()
    for c in design.of_kind("vm"):
        if c.get("workload.profile") != "measured":
            counts[("workload", f"assumed: profile {c.get('workload.profile')}")] += 1
            continue
        for key, label in (("cpu", "CPU"), ("memory", "memory"), ("io", "storage I/O")):
            counts[(label, provenance_kind(str(c.get(f"provenance.{key}") or
                                               fmt.NOT_MEASURED)))] += 1
    return [(f, t, n) for (f, t), n in counts.most_common()]


def baseline_page(s: Sheet, number: int, total: int, r: Report) -> None:
    check = baseline.check(r.design)
    y = s.heading(HEADING, "Where the base design's figures come from, and the residual of"
                           " the baseline against what the estate recorded")
    w = s.width - 2 * MARGIN
    rows = [[figure, text, f"{n:,}"] for figure, text, n in provenance_counts(r.design)[:10]]
    if rows:
        y = s.wrapped_table(MARGIN, y, w, [Column("Figure", 0.12),
                                           Column("Where it comes from", 0.78),
                                           Column("VMs", 0.10, RIGHT)], rows, 11.5, 22)
        y += 14
    for line in check.lines(limit=0)[1:]:
        y += s.wrapped(MARGIN, y, w, line.strip(), 12.5) + 2
    y += 10
    hosts = sorted((h for h in check.hosts if h.cpu_residual is not None
                    or h.memory_residual is not None),
                   key=lambda h: -max(abs(h.cpu_residual or 0), abs(h.memory_residual or 0)))
    if hosts:
        def pct(x: float | None, missing: str = "–") -> str:
            return missing if x is None else f"{x:.1f} %"

        def res(x: float | None) -> str:
            return "–" if x is None else f"{x:+.1f}"

        def name(h: baseline.HostResidual) -> str:  # a partial host: how many it lists
            return f"{h.name} ({h.vms_listed} of {fmt.counted(h.vms_recorded or 0, 'VM')})" \
                if h.partial \
                else h.name

        table = [[name(h), pct(h.cpu_predicted, fmt.NOT_MEASURED), pct(h.cpu_recorded),
                  res(h.cpu_residual), pct(h.memory_predicted, fmt.NOT_MEASURED),
                  pct(h.memory_recorded), res(h.memory_residual)]
                 for h in hosts[:HOST_ROWS]]
        colors = [GOOD if max(abs(h.cpu_residual or 0), abs(h.memory_residual or 0))
                  <= baseline.TARGET_P90 else BAD for h in hosts[:HOST_ROWS]]
        y = s.table(MARGIN, y, w, [Column("Host (largest residuals first)", 0.31),
                                   Column("CPU predicted", 0.12, RIGHT),
                                   Column("recorded", 0.11, RIGHT),
                                   Column("residual", 0.11, RIGHT),
                                   Column("Memory predicted", 0.13, RIGHT),
                                   Column("recorded", 0.11, RIGHT),
                                   Column("residual", 0.11, RIGHT)], table, 11, 22, colors)
        if len(hosts) > HOST_ROWS:
            s.text(QRectF(MARGIN, y + 4, w, 20), f"… and {len(hosts) - HOST_ROWS} more hosts"
                   " (headroom calibrate DESIGN --check lists all)", 11, color=MUTED)
    s.footer(r.footer, number, total)
