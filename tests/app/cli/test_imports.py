"""`headroom import-<format>`: one command per design source of the importer registry, its
arguments built from the options the source declares."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import build_parser, main
from models.io.files import load_design
from models.io.importers import registry
from models.io.importers.importer import DESIGN, Importer
from tests.conftest import FAKE_SIGNATURE


def test_every_importer_has_its_subcommand() -> None:
    commands = build_parser().commands
    for imp in registry.IMPORTERS:
        assert imp.command in commands, imp.id
    assert [c for c in commands if c.startswith("import-")] == [
        i.command for i in registry.importers(DESIGN)]


@pytest.mark.parametrize("importer", registry.importers(DESIGN), ids=lambda i: i.id)
def test_help_lists_the_declared_options(importer: Importer,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([importer.command, "--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    assert importer.source.name in text
    for option in importer.all_options:
        if option.flag:
            assert option.flag in text, option.name
    assert "95%" in text and "--json" in text and "--output" in text


def test_calibrate_names_the_measurement_sources(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["calibrate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for imp in registry.importers("measurements"):
        assert imp.title in text


def test_a_registered_format_gets_its_command(fake_importer: Importer, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert "import-fake" in build_parser().commands
    source = tmp_path / "estate.fake"
    source.write_bytes(FAKE_SIGNATURE)
    out = tmp_path / "fake.json"
    assert main(["import-fake", str(source), "-o", str(out), "--site-by", "cluster",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["source"] == "Fake estate.fake"
    assert load_design(out).name == "Fake estate from estate.fake"
    assert main(["import-fake", str(source), "-o", str(tmp_path / "x.txt")]) == 2
    assert "import-fake: -o must end in .json or .headroom" in capsys.readouterr().err


def test_a_secret_is_never_an_argument(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    assert main(["import-vcenter", "vc.lab", "--user", "u", "--password", "x",
                 "-o", str(tmp_path / "x.json")]) == 2
    assert "unrecognized arguments: --password" in capsys.readouterr().err
    monkeypatch.delenv("HEADROOM_VCENTER_PASSWORD", raising=False)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert main(["import-vcenter", "https://root:pw@vc.lab/sdk", "--user", "u",
                 "-o", str(tmp_path / "x.json")]) == 2
    assert "credentials" in capsys.readouterr().err  # checked before the password is asked


def test_import_liveoptics_prints_coverage_and_the_check(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.liveoptics import workbook, write  # noqa: PLC0415

    src = write(tmp_path / "LiveOptics_1_VMWARE_06_01_2026.xlsx", workbook(4, 24, seed=3).sheets)
    out = tmp_path / "estate.headroom"
    assert main(["import-liveoptics", str(src), "-o", str(out), "--stat", "average"]) == 0
    text = capsys.readouterr().out
    assert "coverage: 21 of 21 VMs on their host" in text and "storage I/O 21 of 21" in text
    assert "host IOPS" in text and "(--stat average)" in text and f"wrote {out}" in text
    vm = load_design(out).of_kind("vm")[0]
    assert str(vm.props["provenance.io"]).startswith("measured: Live Optics VM Performance")
    assert main(["calibrate", str(out), "--check", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert all(h["iops_recorded"] is not None for h in doc["hosts"])
    assert doc["summary"]["vms_without_io"] == 0
    assert main(["import-liveoptics", str(src), "-o", str(out), "--stat", "p95"]) == 2
    assert "invalid choice: 'p95'" in capsys.readouterr().err
