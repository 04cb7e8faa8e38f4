"""File-dialog filters of the import formats (:mod:`models.io.importers.registry`)."""

from __future__ import annotations

from collections.abc import Sequence

from models.io.importers.importer import Importer


def file_filter(importers: Sequence[Importer], everything: str = "") -> str:
    """``RVTools export (*.xlsx *.csv);;All files (*)``: one filter per importer that reads
    files, first ``everything`` (all their patterns) when named, last all files."""
    readers = [i for i in importers if i.patterns]
    parts = [f"{i.title} ({' '.join(i.patterns)})" for i in readers]
    if everything:
        patterns = dict.fromkeys(p for i in readers for p in i.patterns)
        parts.insert(0, f"{everything} ({' '.join(patterns)})")
    return ";;".join([*parts, "All files (*)"])
