"""`headroom evaluate`, `sweep` and `knobs`; the command line's sweep is the models' one, so it
agrees with the document's, the knob curve's and its band's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.charts.knob_curve import KnobCurve
from app.cli.main import main
from app.document.design_document import DesignDocument
from models.engine.sweep import sweep_bands
from models.examples import bundled as examples
from models.io.files import save_design
from models.io.importers.rvtools import import_rvtools
from tests.estates import estate, write_xlsx

EXAMPLE = str(examples.path(examples.DEFAULT_EXAMPLE))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_evaluate_json_is_a_contract_prediction(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "evaluate", EXAMPLE, "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["format"] == "headroom-prediction" and doc["version"] == 1
    assert {"vms", "hosts", "arrays", "summary", "bottlenecks", "warnings"} <= set(doc)


def test_evaluate_text_lists_what_the_design_does(capsys: pytest.CaptureFixture[str]) -> None:
    """Beyond IOPS: library jobs in words, network throughput, web response times."""
    code, out, _ = run(capsys, "evaluate", str(examples.path("content-library")))
    assert code == 0
    assert "  library Deploy VMs: deploy of 4 items: 4.9 min at 294 MB/s" in out
    assert "Network" not in out.split("library")[0]  # no traffic: no network line
    _, web, _ = run(capsys, "evaluate", str(examples.path("dense-web-farm")))
    assert "  p95 response        " in web and "  Mean response       " in web
    assert "  Network             " in web
    _, io, _ = run(capsys, "evaluate", EXAMPLE)
    assert "response" not in io and "library" not in io
    assert "  Total IOPS          75,000 IOPS" in io


def test_evaluate_text_names_components_and_leaves_out_ids(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 17: 'bottleneck a1 (100%)', 'by p95 None' and case ids read in plain words."""
    _, ft, _ = run(capsys, "evaluate", str(examples.path("ft-netperf")))
    assert "None" not in ft and "ft4-logging-bandwidth-formula" not in ft
    assert "bottleneck: Dell PowerEdge 2950 (primary) FT logging NIC at 101 %" in ft
    assert "2 hosts needed, limited by the FT secondary's own host" in ft
    assert not re.search(r"(bottleneck:?|host|NIC) (h1|h2|n1)\b", ft)
    assert not re.search(r"\bh[12]\b", ft)  # nor inside a name
    _, lib, _ = run(capsys, "evaluate", str(examples.path("content-library")))
    assert "VMs per host        1 (1 host needed, limited by host memory)" in lib
    assert "at most ;" not in lib  # no CPU limit to state: none is stated


def test_sweep_visits_each_step(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sweep", EXAMPLE, "--knob", "vm.workload.io_oio", "--from", "1",
                       "--to", "64", "--steps", "7", "--json")
    assert code == 0
    doc = json.loads(out)
    assert [s["value"] for s in doc["steps"]] == [1, 2, 4, 8, 16, 32, 64]


def test_sweep_text_shows_the_figures_the_knob_curve_plots(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """In words and units: storage IOPS and latency, a web farm's response (saturated past
    where its queue has no steady state), an estate's host CPU and hosts needed."""
    code, out, _ = run(capsys, "sweep", EXAMPLE, "--knob", "vm.workload.io_oio", "--from", "1",
                       "--to", "64", "--steps", "3")
    assert code == 0 and "sweep of Outstanding I/Os" in out and "1 I/O  total IOPS" in out
    assert re.search(r"64 I/Os\s+total IOPS\s+[\d,]+\s+mean\s+[\d.]+ ms\s+p95", out)
    web = tmp_path / "web.json"
    run(capsys, "example", "dense-web-farm", "-o", str(web))
    code, out, _ = run(capsys, "sweep", str(web), "--knob", "vm.workload.req_per_s", "--from",
                       "5", "--to", "40", "--steps", "4")
    assert code == 0 and "net Gbit/s" in out and "mean  saturated" in out
    assert "10 s" not in out  # the models' saturation marker is not a response time
    design, _ = import_rvtools(write_xlsx(tmp_path / "e.xlsx", estate(4, 40, seed=2).sheets))
    save_design(design, tmp_path / "estate.json")
    code, out, _ = run(capsys, "sweep", str(tmp_path / "estate.json"), "--knob", "host.ghz",
                       "--from", "2", "--to", "3", "--steps", "2")
    assert code == 0 and "2 GHz  hosts needed" in out and "mean host" in out
    assert "IOPS" not in out


def test_sweep_through_a_selector_uses_the_knobs_log_scale(
        capsys: pytest.CaptureFixture[str]) -> None:
    # id:v1 is a VM: its io_oio knob is log-scaled, so 7 steps from 1 to 64 double each time
    for path in ("id:v1.workload.io_oio", "tag:other-vms.workload.io_oio"):
        code, out, _ = run(capsys, "sweep", EXAMPLE, "--knob", path, "--from", "1", "--to",
                           "64", "--steps", "7", "--json")
        assert code == 0
        assert [s["value"] for s in json.loads(out)["steps"]] == [1, 2, 4, 8, 16, 32, 64]
    code, out, _ = run(capsys, "sweep", EXAMPLE, "--knob", "id:v1.vaio_filter", "--json")
    assert code == 0
    assert [s["value"] for s in json.loads(out)["steps"]] == ["none", "null", "cache",
                                                               "replication"]


def test_sweep_over_enum_knob_visits_choices(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sweep", EXAMPLE, "--knob", "vm.vaio_filter", "--json")
    assert code == 0
    assert [s["value"] for s in json.loads(out)["steps"]] == ["none", "null", "cache",
                                                               "replication"]


def test_knobs_json_lists_applicable_knobs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "knobs", EXAMPLE, "--json")
    paths = {k["path"] for k in json.loads(out)["knobs"]}
    assert code == 0 and "vm.workload.io_oio" in paths and "wan.rtt_ms" not in paths


def test_evaluate_bands_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    vaio = str(examples.path("vaio-scaling"))
    code, out, _ = run(capsys, "evaluate", vaio, "--scenario", "iofilter", "--json", "--bands")
    assert code == 0
    doc = json.loads(out, parse_constant=lambda c: pytest.fail(f"non-finite {c} in JSON"))
    bands = doc["bands"]
    for key in ("summary.total_iops", "summary.mean_latency_ms", "summary.p95_latency_ms",
                "summary.ft_logging_mbps", "summary.consolidation.vms_per_host"):
        lo, hi = bands[key]
        assert 0 <= lo <= hi
    host = doc["hosts"][0]["id"]
    lo, hi = bands["hosts"][host]["cpu_util"]
    assert lo < hi  # the filter's 10-20% extra CPU per 1K IOPS
    assert [s["case_id"] for s in bands["sources"]] == ["storage-vaio-cpu-per-kiops-overhead"]
    vm = doc["vms"][0]["id"]
    assert set(bands["vms"][vm]) >= {"iops", "latency_ms", "p95_latency_ms"}
    code, out, _ = run(capsys, "evaluate", vaio, "--scenario", "iofilter", "--json")
    assert "bands" not in json.loads(out)


def test_evaluate_bands_text_names_the_study(capsys: pytest.CaptureFixture[str]) -> None:
    vaio = str(examples.path("vaio-scaling"))
    code, out, _ = run(capsys, "evaluate", vaio, "--scenario", "iofilter", "--bands")
    assert code == 0 and "storage-vaio-cpu-per-kiops-overhead" in out
    code, out, _ = run(capsys, "evaluate", vaio, "--bands")
    assert code == 0 and "bands: none" in out


def test_sweep_bands_one_range_per_step(capsys: pytest.CaptureFixture[str]) -> None:
    vaio = str(examples.path("vaio-scaling"))
    code, out, _ = run(capsys, "sweep", vaio, "--scenario", "iofilter", "--knob",
                       "vm.workload.io_oio", "--from", "1", "--to", "64", "--steps", "3",
                       "--json", "--bands")
    assert code == 0
    for step in json.loads(out)["steps"]:
        lo, hi = step["bands"]["summary.total_iops"]
        assert lo <= step["summary"]["total_iops"] <= hi
        assert step["bands"]["sources"] == ["storage-vaio-cpu-per-kiops-overhead"]


def test_sweep_errors_speak_of_the_command_lines_flags(
        capsys: pytest.CaptureFixture[str]) -> None:
    oio = ["sweep", EXAMPLE, "--knob", "vm.workload.io_oio"]
    for args, message in (
            (["--steps", "5"], "sweep: --from and --to are required for a numeric knob"),
            (["--from", "1", "--to", "9", "--steps", "0"], "sweep: --steps must be from 1 to"
                                                           " 100000"),
            (["--from", "0", "--to", "9"], "sweep: a log sweep needs --from and --to above 0")):
        code, out, err = run(capsys, *oio, *args)
        assert (code, out, err) == (2, "", f"headroom: error: {message}\n")
    # a value out of range mid-sweep: named as --set would name it, before any output
    code, out, err = run(capsys, "sweep", EXAMPLE, "--knob", "vm.workload.io_read_pct",
                         "--from", "50", "--to", "150", "--steps", "3")
    assert code == 2 and out == ""
    assert err == ("headroom: error: --set vm.workload.io_read_pct: property"
                   " 'workload.io_read_pct': expected a number from 0 to 100 (%), got 150.0"
                   " (out of range)\n")
    code, _, err = run(capsys, "sweep", EXAMPLE, "--knob", "nic.speed_gbps", "--from", "2",
                       "--to", "3", "--steps", "3")
    assert code == 2 and "no setting of nic.speed_gbps lies from 2 to 3" in err


def test_the_command_line_the_document_the_curve_and_its_band_sweep_alike(
        qtbot: QtBot, capsys: pytest.CaptureFixture[str]) -> None:
    """The four former sweeps are one: `headroom sweep`, the document's sweep (which the knob
    curve draws) and the curve's band give the same predictions at the same values."""
    vaio = examples.path("vaio-scaling")
    code, out, _ = run(capsys, "sweep", str(vaio), "--scenario", "iofilter", "--knob",
                       "vm.workload.io_oio", "--from", "1", "--to", "256", "--steps", "9",
                       "--json")
    assert code == 0
    steps = json.loads(out)["steps"]
    values = [s["value"] for s in steps]
    assert values == [1, 2, 4, 8, 16, 32, 64, 128, 256]
    doc = DesignDocument(examples.load("vaio-scaling"))
    doc.set_scenario("iofilter")
    preds = doc.sweep("vm.workload.io_oio", values)
    assert [p.summary_dict() for p in preds] == [s["summary"] for s in steps]
    bands = list(sweep_bands(doc.design.copy(), "iofilter", "vm.workload.io_oio", values))
    assert [b.runs[0].summary_dict() for b in bands] == [s["summary"] for s in steps]
    curve = KnobCurve(doc)  # opens on outstanding I/Os: draws the document's sweep
    qtbot.addWidget(curve)
    assert curve.knob is not None and curve.knob.path == "vm.workload.io_oio"
    # the ends of the knob's scale are on the curve too; the curve steps through other
    # values on the way, so its warm-started solver agrees to its tolerance, not to the bit
    drawn = dict(zip(curve._values, curve.latency_curve.yData, strict=True))
    iops = dict(zip(curve._values, curve.iops_curve.yData, strict=True))
    for v in (1, 256):
        step = steps[values.index(v)]["summary"]
        assert drawn[v] == pytest.approx(step["mean_latency_ms"], rel=1e-6)
        assert iops[v] == pytest.approx(step["total_iops"], rel=1e-6)
    assert np.isfinite(curve.latency_curve.yData).all()
