"""Measurements from any performance file - for ``headroom calibrate DESIGN --from FILE`` and
the app's Calibrate from File: the registry detects the format (esxtop batch CSV, Aria
Operations CSV view, RVTools export, ...) and its reader reads it."""

from __future__ import annotations

from pathlib import Path

from models.document.design import DesignError, Issue
from models.io.importers import registry
from models.io.importers.importer import MEASUREMENTS
from models.io.importers.measurements import Measurements
from models.io.paths import require_regular_file


def read_performance(path: str | Path, stat: str = "p95") -> Measurements:
    """The measurements in ``path``, whatever it holds; a clear :class:`DesignError` for a
    file none of the readers recognise."""
    p = require_regular_file(path, "performance export", folder_ok=True)
    found = registry.detect(p, MEASUREMENTS)
    if found is None or found.read_measurements is None:
        raise DesignError([Issue(str(p), "unknown format: expected " + ", ".join(
            i.description for i in registry.importers(MEASUREMENTS)))])
    return found.read_measurements(Path(found.source_path(p)), stat)
