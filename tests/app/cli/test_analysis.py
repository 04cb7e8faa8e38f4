"""`headroom seek`, `headroom failure` and `headroom sensitivity`: JSON documents, text output
and one-line errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.cli.main import main
from models.document.codec import design_to_json
from models.examples.synth import large_design


@pytest.fixture
def estate(tmp_path: Path) -> str:
    f = tmp_path / "estate.json"
    f.write_text(design_to_json(large_design(12, 3, 1)), encoding="utf-8")
    return str(f)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def _one_line_error(code: int, out: str, err: str) -> None:
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("goal", ["hosts", "oio", "vms"])
def test_seek_json(capsys: pytest.CaptureFixture[str], estate: str, goal: str) -> None:
    code, out, _ = run(capsys, "seek", estate, "--goal", goal, "--max", "16", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["format"] == "headroom-seek" and doc["version"] == 1
    assert doc["goal"] == goal and doc["scenario"] == "base"
    assert isinstance(doc["binding"], str) and doc["method"]
    if goal == "hosts":  # the dashboard's count, cluster by cluster
        code, out, _ = run(capsys, "evaluate", estate, "--json")
        summary = json.loads(out)["summary"]["consolidation"]
        assert doc["value"] == summary["hosts_needed"]
        assert doc["binding"] == summary["binding"]
        assert sum(c["hosts_needed"] for c in doc["clusters"]) == doc["value"]
    elif doc["feasible"]:
        value = doc["value"]
        assert isinstance(value, int) and value >= 1 and doc["trials"]
        ok = {t["value"]: t["ok"] for t in doc["trials"]}
        assert ok[value], "the answer is a value that was evaluated and met policy"
    else:
        assert doc["value"] is None


def test_seek_text_and_set(capsys: pytest.CaptureFixture[str], estate: str) -> None:
    code, out, _ = run(capsys, "seek", estate, "--goal", "oio", "--max", "8",
                       "--set", "design.policy.p95_ms_max=50")
    assert code == 0 and "largest OIO per VM" in out and "tried" in out
    code, out, _ = run(capsys, "seek", estate, "--goal", "hosts", "--max", "4")
    assert code == 0 and re.search(r"answer\s+\d+ hosts? \(", out)
    assert " 1 hosts" not in out
    assert not re.search(r"binding\s+(cpu|p95|memory)\b", out)  # the limit in words


def test_seek_errors_are_one_line(capsys: pytest.CaptureFixture[str], estate: str) -> None:
    _one_line_error(*run(capsys, "seek", estate))  # --goal is required
    code, out, err = run(capsys, "seek", estate, "--goal", "oio", "--max", "0")
    _one_line_error(code, out, err)
    assert "at least 1" in err
    code, out, err = run(capsys, "seek", estate, "--goal", "oio", "--set", "vm.nope=1")
    _one_line_error(code, out, err)
    code, out, err = run(capsys, "seek", estate, "--goal", "oio", "--scenario", "dense")
    _one_line_error(code, out, err)
    assert "no scenario named 'dense'" in err


def test_failure_json_every_host(capsys: pytest.CaptureFixture[str], estate: str) -> None:
    code, out, _ = run(capsys, "failure", estate, "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["format"] == "headroom-failure" and doc["version"] == 1
    assert [f["host"] for f in doc["failures"]] == ["h0", "h1", "h2"]
    assert isinstance(doc["survives"], bool)
    for f in doc["failures"]:
        assert all(h["vms_after"] >= h["vms_before"] for h in f["hosts"])
        assert f["host"] not in {h["id"] for h in f["hosts"]}
        for b in f["breaches"]:
            assert {"component", "resource", "value", "limit", "before", "text"} <= set(b)


def test_failure_one_host_text(capsys: pytest.CaptureFixture[str], estate: str) -> None:
    code, out, _ = run(capsys, "failure", estate, "--host", "h1")
    assert code == 0 and "esx001 fails" in out and "survives a single host failure" in out
    assert " h1" not in out and "vm00000" in out  # hosts and VMs by name, not id
    code, out, err = run(capsys, "failure", estate, "--host", "h9")
    _one_line_error(code, out, err)
    assert "no host with that id" in err and "h0" in err


def test_sensitivity_json_is_ranked(capsys: pytest.CaptureFixture[str], estate: str) -> None:
    code, out, _ = run(capsys, "sensitivity", estate, "--output", "total_iops", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["format"] == "headroom-sensitivity" and doc["version"] == 1
    assert doc["output"] == "total_iops" and doc["band"] == "around"  # the default
    swings = [k["swing"] for k in doc["knobs"] if k["swing"] is not None]
    assert swings == sorted(swings, reverse=True)
    assert doc["evaluations"] == 1 + sum(len(k["points"]) for k in doc["knobs"])
    first = doc["knobs"][0]
    assert {"path", "label", "low", "high", "output_low", "output_high", "swing"} <= set(first)


def test_sensitivity_text_step_band_and_errors(capsys: pytest.CaptureFixture[str],
                                               estate: str) -> None:
    code, out, _ = run(capsys, "sensitivity", estate, "--output", "p95_latency_ms",
                       "--band", "step", "--top", "3")
    assert code == 0 and "what moves p95 latency" in out and "step band" in out
    assert not re.search(r"\b(vm|host|nic|storage_array|design)\.[a-z_.]+", out)  # labels
    assert "e+0" not in out  # one number format, never scientific
    _one_line_error(*run(capsys, "sensitivity", estate, "--output", "iops"))
    _one_line_error(*run(capsys, "sensitivity", estate))
