"""`headroom import-rvtools` coverage, `headroom calibrate` and `headroom place`: what the
architect's first minute runs, and one-line errors that write nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
from models.io.files import load_design
from tests.estates import estate, write_xlsx
from tests.models.io.importers.test_perfdata import HOST, write_esxtop


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_partial_export_fails_with_exit_2_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = write_xlsx(tmp_path / "anon.xlsx", estate(6, 60, seed=6, anonymise_hosts=True).sheets)
    out = tmp_path / "anon.json"
    code, stdout, err = run(capsys, "import-rvtools", str(src), "-o", str(out))
    assert code == 2 and stdout == "" and not out.exists()
    assert "coverage: 0 of" in err and "placed" in err  # the report says which and why
    assert err.strip().splitlines()[-1].startswith("headroom: error: import-rvtools: only 0 of")
    assert "--allow-partial" in err
    code, stdout, _ = run(capsys, "import-rvtools", str(src), "-o", str(out), "--allow-partial")
    assert code == 0 and out.exists() and "placed in their cluster" in stdout


def test_import_then_check_then_calibrate_from_esxtop(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    e = estate(4, 40, seed=7)
    vinfo = e.sheets["vInfo"]
    on = vinfo[0].index("Powerstate")
    first = next(r for r in vinfo[1:] if r[on] == "poweredOn")
    renames = {first[0]: "sql01", e.sheets["vHost"][1][0]: HOST}  # as the esxtop file names
    for rows in e.sheets.values():
        for row in rows[1:]:
            row[:] = [renames.get(v, v) if isinstance(v, str) else v for v in row]
    design = tmp_path / "estate.headroom"
    code, stdout, _ = run(capsys, "import-rvtools", str(write_xlsx(tmp_path / "e.xlsx",
                                                                    e.sheets)),
                          "-o", str(design))
    assert code == 0 and "baseline check" in stdout and "target" in stdout
    code, stdout, _ = run(capsys, "evaluate", str(design))
    assert code == 0 and "lack I/O data" in stdout and "vCPUs per core" in stdout
    assert "Memory allocated" in stdout and "of installed" in stdout
    assert "Cluster headroom" in stdout
    code, stdout, _ = run(capsys, "calibrate", str(design), "--check", "--json")
    doc = json.loads(stdout)
    assert doc["summary"]["cpu"]["hosts"] == 4 and doc["summary"]["vms_without_io"] > 0
    esx = write_esxtop(tmp_path / "esx01.csv")
    before = design.read_bytes()  # a dry run with data: what it would give, nothing written
    code, stdout, _ = run(capsys, "calibrate", str(design), "--from", str(esx), "--check")
    assert code == 0 and "nothing written" in stdout and "1 of 37 VMs" in stdout
    assert design.read_bytes() == before
    code, stdout, _ = run(capsys, "calibrate", str(design), "--from", str(esx))
    assert code == 0, stdout
    assert design.read_bytes() != before
    assert "2 VMs in the file are not in the design: web01, ghost99" in stdout
    vm = next(v for v in load_design(design).of_kind("vm") if v.name == "sql01")
    assert str(vm.props["provenance.io"]).startswith("measured: esxtop batch esx01.csv, p95")
    assert vm.props["workload.io_iops"] == pytest.approx(1000.0)


def test_calibrate_errors_are_one_line_and_write_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    design = tmp_path / "estate.json"
    assert run(capsys, "import-rvtools", str(write_xlsx(tmp_path / "e.xlsx",
                                                        estate(3, 20, seed=8).sheets)),
               "-o", str(design))[0] == 0
    before = design.read_bytes()
    other = tmp_path / "notes.txt"
    other.write_text("hello\nworld\n")
    for args in (("--from", str(other)), ("--from", str(tmp_path / "nope.csv")),
                 ("--from", str(write_esxtop(tmp_path / "x.csv"))), ("--stat", "median")):
        code, stdout, err = run(capsys, "calibrate", str(design), *args)
        assert code == 2 and stdout == "" and err.count("\n") == 1, (args, err)
        assert "Traceback" not in err
    assert "matches the design by name" in run(capsys, "calibrate", str(design), "--from",
                                               str(tmp_path / "x.csv"))[2]
    assert design.read_bytes() == before


def test_place_puts_the_unplaced_vms_on_hosts(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    e = estate(4, 30, seed=9)
    vinfo = e.sheets["vInfo"]
    host, cluster = vinfo[0].index("Host"), vinfo[0].index("Cluster")
    for row in vinfo[1:6]:
        row[host], row[cluster] = "gone.corp.local", ""
    design = tmp_path / "estate.json"
    code, stdout, _ = run(capsys, "import-rvtools", str(write_xlsx(tmp_path / "e.xlsx",
                                                                    e.sheets)),
                          "-o", str(design), "--allow-partial")
    assert code == 0 and "unplaced" in stdout
    unplaced = [v.id for v in load_design(design).of_kind("vm") if "unplaced" in v.tags]
    assert 3 <= len(unplaced) <= 5  # rows 1-5, less the powered-off ones
    code, stdout, _ = run(capsys, "place", str(design))
    assert code == 0 and stdout.startswith(f"placed {len(unplaced)} VMs")
    d = load_design(design)
    runs_on = {lk.source for lk in d.links if lk.kind == "runs_on"}
    assert runs_on == {v.id for v in d.of_kind("vm")}
    assert run(capsys, "place", str(design))[1].startswith("no unplaced VMs")


def test_a_filtered_export_names_its_partial_hosts_and_meets_the_record(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22: a filtered export lists only some of its hosts' VMs; the import, the check
    and its JSON name each partial host with its counts, and the baseline meets the record
    there (what the export leaves out is the partial hosts' background load); a host it lists
    completely keeps its residual (the hypervisor's own work, samples a moment apart)."""
    e = estate(6, 90, seed=14, filtered=0.2)

    design = tmp_path / "estate.headroom"
    code, stdout, _ = run(capsys, "import-rvtools", str(write_xlsx(tmp_path / "e.xlsx",
                                                                    e.sheets)),
                          "-o", str(design))
    assert code == 0
    n = len(e.truth.partial)
    assert n and f"{n} hosts partial" in stdout and f"{n} partial hosts" in stdout
    host, (recorded, listed) = next(iter(e.truth.partial.items()))
    assert f"{host}: {recorded} VMs recorded, {listed} in the export" in stdout
    code, stdout, _ = run(capsys, "calibrate", str(design), "--check")
    assert code == 0 and "target (median <= 5, p90 <= 10): met" in stdout
    assert f"{host}: {recorded} VMs recorded" in stdout
    code, stdout, _ = run(capsys, "calibrate", str(design), "--check", "--json")
    doc = json.loads(stdout)
    assert doc["summary"]["partial_hosts"] == n
    assert sum(h["partial"] for h in doc["hosts"]) == n
    partial = [h for h in doc["hosts"] if h["partial"]]
    assert all(abs(h["cpu_residual"]) <= 1e-3 and abs(h["memory_residual"]) <= 1e-3
               and h["background_cpu_pct"] for h in partial)
    complete = [h for h in doc["hosts"] if not h["partial"]]
    assert complete and all(h["background_cpu_pct"] is None and h["cpu_residual"] < -1.0
                            for h in complete)


def test_an_export_without_cpu_figures_reads_not_measured(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No vCPU sheet and no recorded host usage: host CPU is "not measured" (null), not 0 %."""
    e = estate(3, 24, seed=15, generation="3x", host_usage=False)
    design = tmp_path / "estate.json"
    code, stdout, _ = run(capsys, "import-rvtools", str(write_xlsx(tmp_path / "e.xlsx",
                                                                    e.sheets)),
                          "-o", str(design))
    assert code == 0 and "3 hosts' CPU not measured" in stdout
    code, stdout, _ = run(capsys, "evaluate", str(design))
    assert code == 0
    line = next(ln for ln in stdout.splitlines() if ln.strip().startswith("Host CPU"))
    assert line.split()[-2:] == ["not", "measured"] and "0 %" not in line
    code, stdout, _ = run(capsys, "evaluate", str(design), "--json")
    hosts = json.loads(stdout)["hosts"]
    assert hosts and all(h["cpu_util"] is None for h in hosts)


def test_calibrate_an_rvtools_estate_from_live_optics(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.liveoptics import collection, from_rvtools, write  # noqa: PLC0415

    e = estate(4, 40, seed=8)

    design = tmp_path / "estate.headroom"
    code, stdout, _ = run(capsys, "import-rvtools", str(write_xlsx(tmp_path / "e.xlsx",
                                                                    e.sheets)),
                          "-o", str(design))
    assert code == 0 and "storage I/O 0 of" in stdout
    lo = write(tmp_path / "lo.xlsx", collection(*from_rvtools(e.sheets), seed=8).sheets)
    code, stdout, _ = run(capsys, "calibrate", str(design), "--from", str(lo), "--stat", "mean")
    assert code == 0 and "4 hosts" in stdout and "host IOPS" in stdout
    assert "lack I/O data" not in stdout
    doc = load_design(design)
    assert all(str(v.props["provenance.io"]).startswith("measured: Live Optics")
               for v in doc.of_kind("vm"))


def test_calibrate_from_an_aria_cluster_view(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from models.io.files import save_design  # noqa: PLC0415
    from tests.models.io.importers.test_aria import estate as aria_estate  # noqa: PLC0415
    from tests.models.io.importers.test_aria import write as write_view  # noqa: PLC0415

    design = tmp_path / "estate.json"
    save_design(aria_estate(), design)
    view = write_view(tmp_path / "cluster.csv", ["Name", "Cluster|CPU|Usage|Avg"],
                      [["Prod", "38,400"]])
    code, stdout, _ = run(capsys, "calibrate", str(design), "--from", str(view))
    assert code == 0 and "1 cluster" in stdout and "cluster Prod" in stdout
    assert load_design(design).component("cl1").props["measured.cpu_pct"] == 25.0  # type: ignore[union-attr]
