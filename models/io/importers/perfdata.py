"""Which performance file this is: esxtop batch CSV, an Aria Operations CSV view, or an
RVTools export - for ``headroom calibrate DESIGN --from FILE`` and the app's Calibrate."""

from __future__ import annotations

from pathlib import Path

from models.document.design import DesignError, Issue
from models.io.importers import aria, esxtop
from models.io.importers.measurements import Measurements
from models.io.paths import require_regular_file

FORMATS = ("an esxtop batch CSV (esxtop -b)", "an Aria Operations CSV view export",
           "an RVTools export (.xlsx or a folder of RVTools_tab*.csv)")


def read_performance(path: str | Path, stat: str = "p95") -> Measurements:
    """The measurements in ``path``, whatever it holds; a clear :class:`DesignError` for a
    file none of the readers recognise."""
    p = require_regular_file(path, "performance export", folder_ok=True)
    if p.is_dir() or p.suffix.lower() in (".xlsx", ".xls"):
        from models.io.importers.rvtools import read_measurements  # noqa: PLC0415

        return read_measurements(p)
    if esxtop.is_esxtop(p):
        return esxtop.read(p, stat)
    if p.suffix.lower() in (".csv", ".txt", ".tsv"):
        return aria.read(p, stat)
    raise DesignError([Issue(str(p), "unknown format: expected " + ", ".join(FORMATS))])
