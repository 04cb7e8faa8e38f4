"""``headroom catalogue processors|servers``: readable tables with SPEC's attribution, and
JSON lists of objects."""

from __future__ import annotations

import json

import pytest

from app.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_processors_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "catalogue", "processors", "--search", "gold 6140")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["processor", "per", "core"]
    assert any(line.startswith("Intel Xeon Gold 6140 ") and " 5.14 " in line for line in lines)
    assert any(line.startswith("Intel Xeon Gold 6140M ") for line in lines)
    assert "registered trademarks of the Standard Performance Evaluation" in out


def test_estimates_are_marked(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "catalogue", "processors", "--search", "E5-2665")
    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith("Intel Xeon E5-2665"))
    assert row.endswith("estimate")


def test_processors_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "catalogue", "processors", "--search", "EPYC 9354", "--json")
    assert code == 0
    doc = json.loads(out)
    assert isinstance(doc, list) and {p["model"] for p in doc} == {"AMD EPYC 9354",
                                                                   "AMD EPYC 9354P"}
    for p in doc:
        for field in ("model", "specrate_per_core", "cores", "threads_per_core", "ghz", "year",
                      "submissions"):
            assert field in p
    code, out, _ = run(capsys, "catalogue", "processors", "--json")
    assert len(json.loads(out)) > 1000


def test_servers_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "catalogue", "servers", "--search", "poweredge r760")
    assert code == 0
    assert "Dell PowerEdge R760" in out and "Standard Performance Evaluation" in out
    assert "\n1 server. CPUs:" in out  # one, not '1 servers'
    code, out, _ = run(capsys, "catalogue", "servers", "--json")
    doc = json.loads(out)
    assert isinstance(doc, list) and len(doc) >= 40
    r660 = next(s for s in doc if s["id"] == "dell-r660")
    assert r660["sockets"] == 2 and r660["processors"] and r660["memory_configs"]


def test_nothing_found_and_bad_use(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "catalogue", "processors", "--search", "no such thing", "--json")
    assert code == 0 and json.loads(out) == []
    code, _, err = run(capsys, "catalogue")
    assert code == 2 and err.count("\n") == 1
    code, _, err = run(capsys, "catalogue", "gpus")
    assert code == 2 and "invalid choice" in err


def test_servers_table_shows_channels_and_populations(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "catalogue", "servers", "--search", "sr630 v3")
    assert code == 0
    row = next(line for line in out.splitlines() if "ThinkSystem SR630 V3" in line)
    assert " 8x2 " in row and " 32 " in row and " 8192 " in row
    assert "populations: 256 GB (16 x 16 GB DDR5) .. 8 TB (32 x 256 GB DDR5) (10)" in out
    code, out, _ = run(capsys, "catalogue", "servers", "--search", "gen12", "--json")
    doc = json.loads(out)
    assert [s["id"] for s in doc] == ["hpe-dl360-gen12", "hpe-dl380-gen12", "hpe-dl325-gen12"]
    # no document lists their module sizes: the populations are their memory platform's
    assert all(s["channels_per_socket"] in (8, 12) and s["memory_populations"]
               and s["module_gb"] == [] and "dimms_per_channel" in s for s in doc)
    assert all(s["processors"] for s in doc)
