"""`headroom refresh`: before and after in words and as JSON, the refresh written as a
scenario that evaluate and report read, and one-line errors that write nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
from models.document.codec import design_to_json
from models.io.files import load_design
from tests.refresh_estate import estate


@pytest.fixture
def old(tmp_path: Path) -> str:
    f = tmp_path / "old.json"
    f.write_text(design_to_json(estate()), encoding="utf-8")
    return str(f)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_has_before_and_after(capsys: pytest.CaptureFixture[str], old: str) -> None:
    code, out, _ = run(capsys, "refresh", old, "--to", "dell-r760", "--cpu", "Gold 6548Y+",
                       "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["format"] == "headroom-refresh" and doc["output"] is None
    for side in ("before", "after"):
        assert {"hosts", "hosts_needed", "cpu_util_mean", "memory_util_mean", "binding",
                "licensed_cores"} <= set(doc[side])
        assert 0 < doc[side]["cpu_util_mean"] < 1 and 0 < doc[side]["memory_util_mean"] < 1
    assert doc["before"]["hosts"] == 6 and doc["after"]["hosts"] == 4
    assert doc["before"]["licensed_cores"] == 192 and doc["after"]["licensed_cores"] == 256
    assert doc["target"]["processor"] == "Intel Xeon Gold 6548Y+"


def test_text_and_the_scenario_written(capsys: pytest.CaptureFixture[str], old: str,
                                       tmp_path: Path) -> None:
    out_file = tmp_path / "new.headroom"
    code, out, _ = run(capsys, "refresh", old, "--to", "PowerEdge R760", "--cpu",
                       "Gold 6548Y+", "--scenario", "R760", "-o", str(out_file))
    assert code == 0
    assert "6 hosts of prod, dmz replaced by 4 hosts of Dell PowerEdge R760" in out
    assert "Licensed cores" in out and "cluster prod: 4 hosts -> 2 hosts" in out
    assert f"wrote {out_file}" in out
    design = load_design(out_file)
    assert [s.name for s in design.scenarios] == ["R760"]
    assert len(design.of_kind("host")) == 6  # the base design keeps its hosts
    code, out, _ = run(capsys, "evaluate", str(out_file), "--scenario", "R760", "--json")
    doc = json.loads(out)
    assert len(doc["hosts"]) == 4 and doc["summary"]["licensed_cores"] == 256
    code, out, _ = run(capsys, "evaluate", str(out_file), "--scenario", "R760")
    assert "prod PowerEdge R760 01" in out or "Licensed cores      256 cores" in out


@pytest.mark.parametrize(("args", "words"), [
    (["--to", "no-such"], "no server 'no-such'"),
    (["--to", "dell-r760", "--cpu", "E5-2665"], "was not submitted to SPEC"),
    (["--to", "dell-r760", "--cluster", "qa"], "no cluster 'qa'"),
    (["--to", "dell-r760", "-o", "x.txt"], "-o must end in .json or .headroom"),
])
def test_errors_are_one_line_and_write_nothing(capsys: pytest.CaptureFixture[str], old: str,
                                               tmp_path: Path, args: list[str],
                                               words: str) -> None:
    out_file = tmp_path / "new.json"
    code, out, err = run(capsys, "refresh", old, *args, *(
        [] if "-o" in args else ["-o", str(out_file)]))
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err
    assert not out_file.exists()


def test_a_refresh_to_vsan_from_the_command_line(capsys: pytest.CaptureFixture[str], old: str,
                                                 tmp_path: Path) -> None:
    out_file = tmp_path / "vsan.json"
    code, out, _ = run(capsys, "refresh", old, "--to", "dell-r760", "--cpu", "Gold 6548Y+",
                       "--memory-gb", "1024", "--vsan", "esa", "--devices", "4", "--json",
                       "-o", str(out_file))
    assert code == 0
    doc = json.loads(out)
    assert doc["target"]["vsan"]["architecture"] == "esa"
    assert doc["target"]["vsan"]["policy"] == "raid5" and doc["target"]["vsan"]["devices"] == 4
    assert all(c["vsan"] is not None for c in doc["after"]["clusters"])
    assert all(c["vsan"] is None for c in doc["before"]["clusters"])
    kept = load_design(out_file).scenario("refresh to PowerEdge R760")
    assert {o.prop for o in kept.overrides} >= {"vsan.architecture", "vsan.policy"}
    code, out, err = run(capsys, "refresh", old, "--to", "dell-r760", "--policy", "raid6")
    assert code == 2 and "give --vsan esa or --vsan osa" in err and out == ""
