"""Hostile and damaged exports: a cell of hundreds of digits, NaN or infinity in any numeric
column, a named pipe instead of a file.  Every importer either skips the row naming it or
refuses the file with a DesignError; the design it builds is always valid and saves."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.document.codec import design_to_dict, loads
from models.document.design import DesignError
from models.io import store
from models.io.importers.perfdata import read_performance
from models.io.importers.rvtools import import_rvtools
from tests.estates import estate, write_csv_folder

BASE = estate(3, 24, seed=5).sheets
NUMERIC = [(sheet, col) for sheet, rows in BASE.items() for col, v in enumerate(rows[1])
           if isinstance(v, (int, float)) and not isinstance(v, bool)]

damage = st.one_of(st.integers(min_value=17, max_value=400).map(lambda n: "9" * n),
                   st.sampled_from(["NaN", "nan", "inf", "-Infinity", "1e999", "-1e400"]))


@settings(max_examples=40)
@given(place=st.sampled_from(NUMERIC), row=st.integers(min_value=1, max_value=20),
       bad=damage)
def test_a_damaged_number_anywhere_in_an_rvtools_export(place: tuple[str, int], row: int,
                                                        bad: str,
                                                        tmp_path_factory: pytest.TempPathFactory
                                                        ) -> None:
    sheet, col = place
    sheets: dict[str, list[list[Any]]] = {k: [list(r) for r in v] for k, v in BASE.items()}
    rows = sheets[sheet]
    rows[min(row, len(rows) - 1)][col] = bad
    folder = write_csv_folder(tmp_path_factory.mktemp("rv") / "export", sheets)
    try:
        design, report = import_rvtools(folder)
    except DesignError as err:
        assert str(err)  # refused with a message, never a traceback
        return
    text = json.dumps(design_to_dict(design))
    assert loads(text).name == design.name  # what was built is a valid design
    out = tmp_path_factory.mktemp("o") / "estate.headroom"
    store.save(design, out)
    assert report.lines()  # the report can be printed


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
@pytest.mark.parametrize("reader", ["rvtools", "perf", "csv-in-folder"])
def test_named_pipes_are_refused(reader: str, tmp_path: Path) -> None:
    fifo = tmp_path / "export.csv"
    if reader == "csv-in-folder":
        folder = write_csv_folder(tmp_path / "rv", BASE)
        (folder / "RVTools_tabvHost.csv").unlink()
        os.mkfifo(folder / "RVTools_tabvHost.csv")
        with pytest.raises(DesignError, match="named pipe"):
            import_rvtools(folder)
        return
    os.mkfifo(fifo)
    with pytest.raises(DesignError, match="is a named pipe"):
        if reader == "rvtools":
            import_rvtools(fifo)
        else:
            read_performance(fifo)
