"""The importer registry: every format declares a command and a sniff that knows its own files
from the others', and detection picks the format that reads a file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from models.document.design import DesignError
from models.io.importers import registry
from models.io.importers.importer import DESIGN, MEASUREMENTS, Importer
from models.io.importers.perfdata import read_performance
from tests.conftest import FAKE_SIGNATURE
from tests.estates import estate, write_csv_folder, write_xlsx
from tests.liveoptics import workbook
from tests.liveoptics import write as write_liveoptics
from tests.models.io.importers.test_perfdata import write_aria, write_esxtop


def _aria(path: Path) -> Path:
    return write_aria(path.with_suffix(".csv"), [["sql01", "1.5", "300"]],
                      ["Name", "CPU|Demand (GHz)", "Virtual Disk:Aggregate of all"
                       " Instances|Commands per second"])


SAMPLES: dict[str, Callable[[Path], Path]] = {
    "rvtools": lambda p: write_xlsx(p.with_suffix(".xlsx"), estate(2, 6, seed=4).sheets),
    "liveoptics": lambda p: write_liveoptics(p.with_suffix(".xlsx"), workbook(2, 6, seed=4).sheets),
    "esxtop": lambda p: write_esxtop(p.with_suffix(".csv")),
    "aria": _aria,
}
"""A small generated file of each file format, by importer id."""


@pytest.fixture
def samples(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for name, write in SAMPLES.items():
        folder = tmp_path / name
        folder.mkdir()
        out[name] = write(folder / "sample")
    return out


def test_every_format_declares_a_command_and_a_sniff_of_its_files() -> None:
    ids = [i.id for i in registry.IMPORTERS]
    assert len(ids) == len(set(ids))
    for imp in registry.IMPORTERS:
        assert imp.produces, imp.id
        if DESIGN in imp.produces:
            assert imp.command == f"import-{imp.id}" and imp.help and imp.menu_text, imp.id
        else:
            assert imp.command == "calibrate", imp.id  # calibrate --from FILE
        assert (imp.sniff is not None) == imp.reads_files, imp.id
        assert imp.reads_files == bool(imp.patterns), imp.id
    assert sorted(SAMPLES) == sorted(i.id for i in registry.IMPORTERS if i.reads_files)


@pytest.mark.parametrize("importer_id", sorted(SAMPLES))
def test_a_sniff_knows_its_own_file_from_the_others(importer_id: str,
                                                    samples: dict[str, Path]) -> None:
    imp = registry.get(importer_id)
    assert imp.recognises(samples[importer_id])
    for other, path in samples.items():
        if other != importer_id:
            assert not imp.recognises(path), f"{importer_id} claims the {other} sample"
    assert registry.detect(samples[importer_id]) is imp


def test_sniffs_never_fail_on_what_is_no_file(tmp_path: Path) -> None:
    for imp in registry.IMPORTERS:
        assert not imp.recognises(tmp_path / "missing.csv")
        assert not imp.recognises(tmp_path / "missing.xlsx")


def test_rvtools_csv_folder_and_its_files(tmp_path: Path) -> None:
    folder = write_csv_folder(tmp_path / "export", estate(2, 6, seed=4).sheets)
    rvtools = registry.get("rvtools")
    assert registry.detect(folder) is rvtools
    one = next(folder.glob("RVTools_tabvInfo.csv"))
    assert registry.detect(one) is rvtools  # not an Aria view, though it has a VM column
    assert rvtools.source_path(one) == str(folder)
    meas = read_performance(one)  # the file stands for its folder
    assert meas.vms and meas.source.startswith("RVTools export")


def test_detection_falls_back_to_the_format_that_claims_the_suffix(tmp_path: Path) -> None:
    bad = tmp_path / "bad.xlsx"
    bad.write_text("not a workbook")
    assert registry.recognise(bad) is None
    assert registry.detect(bad) is registry.get("rvtools")  # its reader says what is wrong
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\nworld\n")
    assert registry.detect(notes, MEASUREMENTS) is registry.get("aria")
    assert registry.detect(notes, DESIGN) is None
    (tmp_path / "empty").mkdir()
    assert registry.detect(tmp_path / "empty") is registry.get("rvtools")
    pdf = tmp_path / "x.pdf"
    pdf.write_bytes(b"%PDF-1.4")
    assert registry.detect(pdf) is None
    with pytest.raises(DesignError, match="no import format 'nope'"):
        registry.get("nope")


def test_a_registered_format_is_listed_and_detected(fake_importer: Importer,
                                                    tmp_path: Path) -> None:
    assert fake_importer in registry.importers(DESIGN)
    assert fake_importer not in registry.importers(MEASUREMENTS)
    path = tmp_path / "estate.data"
    path.write_bytes(FAKE_SIGNATURE + b"hosts: 1\n")
    assert registry.detect(path) is fake_importer  # by its content, whatever the suffix
    assert registry.detect(tmp_path / "other.fake") is fake_importer  # by its suffix
    assert fake_importer.read_design is not None
    design, report = fake_importer.read_design(str(path), fake_importer.defaults(), None)
    assert design.name == "Fake estate from estate.data" and report.counts == {"hosts": 1}


def test_listed() -> None:
    assert registry.listed(["a"]) == "a"
    assert registry.listed(["a", "b", "c"]) == "a, b or c"
    assert registry.listed(["a", "b"], "and") == "a and b"
