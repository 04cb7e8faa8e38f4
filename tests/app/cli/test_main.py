from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli.main import main
from models.examples import bundled as examples

ROOT = Path(__file__).resolve().parents[3]

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
    assert "  library deploy (Deploy VMs): deploy of 4 items: 4.9 min at 300 MB/s" in out
    assert "network" not in out.split("library")[0]  # no traffic: no network line
    _, web, _ = run(capsys, "evaluate", str(examples.path("dense-web-farm")))
    assert "  web response      mean " in web and "  network           " in web
    _, io, _ = run(capsys, "evaluate", EXAMPLE)
    assert "web response" not in io and "library" not in io


def test_set_error_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "evaluate", EXAMPLE, "--set", "vm.workload.io_oio=-1", "--json")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "workload.io_oio" in err and "Traceback" not in err


def test_unknown_scenario_lists_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "evaluate", EXAMPLE, "--scenario", "nope")
    assert code == 2 and "no scenario named 'nope'" in err and "iofilter" in err


def test_missing_file_and_bad_extension(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    code, _, err = run(capsys, "evaluate", str(tmp_path / "missing.json"))
    assert code == 2 and "no such file" in err
    bad = tmp_path / "design.txt"
    bad.write_text("{}")
    code, _, err = run(capsys, "evaluate", str(bad))
    assert code == 2 and "unknown file type" in err


def test_malformed_design_file_is_a_clear_error(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    f = tmp_path / "bad.json"
    f.write_bytes(b"\xff\xfe\x00garbage")
    code, _, err = run(capsys, "evaluate", str(f))
    assert code == 2 and "bad.json" in err


def test_sweep_visits_each_step(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sweep", EXAMPLE, "--knob", "vm.workload.io_oio", "--from", "1",
                       "--to", "64", "--steps", "7", "--json")
    assert code == 0
    doc = json.loads(out)
    assert [s["value"] for s in doc["steps"]] == [1, 2, 4, 8, 16, 32, 64]


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


def test_example_and_convert_round_trip(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    out_file = tmp_path / "e.json"
    assert run(capsys, "example", examples.DEFAULT_EXAMPLE, "-o", str(out_file))[0] == 0
    copy = tmp_path / "copy.json"
    assert run(capsys, "convert", str(out_file), "-o", str(copy))[0] == 0
    assert json.loads(copy.read_text()) == json.loads(out_file.read_text())


def test_unknown_example_leaves_no_file(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    target = tmp_path / "x.json"
    code, _, err = run(capsys, "example", "nope", "-o", str(target))
    assert code == 2 and not target.exists() and "known:" in err


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
    lo, hi = bands["summary.consolidation.max_vms_per_host_by_cpu"]
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


def _headless(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m app ARGS`` as on a server: no display, no Qt platform chosen."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    return subprocess.run([sys.executable, "-m", "app", *args], check=False, cwd=ROOT,
                          capture_output=True, text=True, env=env, timeout=120)


def test_the_app_without_a_display_says_so_in_one_line(tmp_path: Path) -> None:
    res = _headless(tmp_path)
    assert res.returncode == 2
    assert res.stderr.startswith("headroom: error: no display") and res.stderr.count("\n") == 1
    assert "Traceback" not in res.stderr and "Aborted" not in res.stderr


def test_the_self_test_runs_without_a_display(tmp_path: Path) -> None:
    res = _headless(tmp_path, "--self-test")
    assert res.returncode == 0, res.stderr
    assert "self-test: ok" in res.stdout
