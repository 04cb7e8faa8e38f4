"""`headroom calibrate DESIGN --storage` (issue 36 item 3): the check offers to fit an array's
service time to its VMs' recorded latency; only the flag fits it, and --check writes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
from models.io.files import load_design, save_design
from tests.models.analysis.test_background_io import estate


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


def test_the_offer_then_the_fit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "estate.headroom"
    save_design(estate(), path)
    code, out = run(capsys, "calibrate", str(path))  # the baseline: offered, not fitted
    assert code == 0 and "headroom calibrate DESIGN --storage fits" in out
    assert "disk_iops" not in load_design(path).component("a1").props  # type: ignore[union-attr]
    assert "background.iops" in load_design(path).component("h1").props  # type: ignore
    before = path.read_bytes()
    code, out = run(capsys, "calibrate", str(path), "--storage", "--check", "--json")
    doc = json.loads(out)
    assert code == 0 and path.read_bytes() == before and doc["output"] is None
    (fit,) = doc["storage"]["fitted"]
    assert fit["id"] == "a1" and fit["latency_ms_after"] == pytest.approx(4.0, rel=1e-3)
    assert doc["check"]["arrays"][0]["latency_ms_predicted"] == pytest.approx(4.0, rel=1e-3)
    code, out = run(capsys, "calibrate", str(path), "--storage")
    assert code == 0 and out.startswith("storage: 1 array fitted, each to the average latency")
    assert "  vnx: drive service time 0.107 ->" in out and f"wrote {path}" in out
    a1 = load_design(path).component("a1")
    assert a1 is not None and a1.props["disk_iops"] == pytest.approx(fit["disk_iops_after"])
