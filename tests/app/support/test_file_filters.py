"""File-dialog filters of the import formats."""

from __future__ import annotations

from app.support.file_filters import file_filter
from models.io.importers import registry
from models.io.importers.importer import MEASUREMENTS


def test_one_filter_per_format_then_all_files() -> None:
    assert file_filter([registry.get("rvtools"), registry.get("vcenter")]) == (
        "RVTools export (*.xlsx *.csv);;All files (*)")  # vCenter reads no file
    assert file_filter(registry.importers(MEASUREMENTS), "Performance data") == (
        "Performance data (*.xlsx *.csv *.zip);;RVTools export (*.xlsx *.csv);;"
        "Live Optics workbook (*.xlsx *.zip);;esxtop batch CSV (*.csv);;"
        "Aria Operations CSV view (*.csv);;All files (*)")
