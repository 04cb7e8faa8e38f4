"""`headroom grow`: the years in words and as JSON, the rates from the options or the design,
one-line errors; the growth kept in the design file under `growth`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
from models.document.codec import design_to_json, loads
from tests.refresh_estate import estate


@pytest.fixture
def old(tmp_path: Path) -> str:
    d = estate()
    d.policy["growth.memory_pct"] = 30.0  # the design's own rate
    f = tmp_path / "old.json"
    f.write_text(design_to_json(d), encoding="utf-8")
    return str(f)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_grow_json_and_words(capsys: pytest.CaptureFixture[str], old: str) -> None:
    code, out, _ = run(capsys, "grow", old, "--years", "3", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["format"] == "headroom-growth" and doc["rates"]["memory"] == 30.0
    assert [y["year"] for y in doc["years"]] == [0, 1, 2, 3]
    assert doc["runs_out"][0]["cluster"] == "prod" and doc["runs_out"][0]["month"] == 7
    code, out, _ = run(capsys, "grow", old, "--years", "2", "--memory", "0", "--cpu", "10")
    assert code == 0
    assert "rates a year: cpu 10 %" in out and "memory" not in out.splitlines()[1]
    assert "no cluster runs out within 2 years" in out or "runs out in month" in out
    code, out, err = run(capsys, "grow", old, "--years", "0")
    assert code == 2 and "--years takes 1 to 30" in err


def test_growth_is_kept_under_growth_in_the_file() -> None:
    d = estate()
    d.policy.update({"growth.cpu_pct": 15.0, "growth.year": 2.0, "cpu_util_max": 0.8})
    doc = json.loads(design_to_json(d))
    assert doc["growth"] == {"cpu_pct": 15.0, "year": 2.0}
    assert doc["policy"] == {"cpu_util_max": 0.8}
    assert loads(design_to_json(d)).policy == d.policy


def test_refresh_for_a_horizon(capsys: pytest.CaptureFixture[str], old: str) -> None:
    code, out, _ = run(capsys, "refresh", old, "--to", "dell-r760", "--cpu", "Gold 6548Y+",
                       "--memory-gb", "512", "--years", "2", "--cpu-growth", "10", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["horizon"]["years"] == 2 and doc["horizon"]["rates"]["cpu"] == 10.0
    assert doc["horizon"]["rates"]["memory"] == 30.0  # the design's own rate
    assert doc["today"]["memory_util_mean"] < doc["after"]["memory_util_mean"]
    code, out, err = run(capsys, "refresh", old, "--to", "dell-r760", "--vms-growth", "5")
    assert code == 2 and "give --years N" in err


def test_suggest_from_a_history_prints_the_rates_and_uses_none(
        capsys: pytest.CaptureFixture[str], old: str, tmp_path: Path) -> None:
    """--suggest-from fits a rate per resource and says how to use it; the years are the
    design's rates all the same (memory 30 %, CPU 0 %), in words and in the JSON."""
    from tests.models.analysis.test_trend import aria_history  # noqa: PLC0415

    history = str(aria_history(tmp_path / "h.csv", 200, vms=5))
    code, out, _ = run(capsys, "grow", old, "--years", "1", "--suggest-from", history)
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith("suggested from h.csv: vm view (not used: pass --cpu 1")
    assert "  CPU 1" in out and "a year ± " in out and "200 daily means" in out
    assert "rates a year: memory 30 %" in out
    code, out, _ = run(capsys, "grow", old, "--years", "1", "--suggest-from", history,
                       "--json")
    doc = json.loads(out)
    assert doc["rates"]["cpu"] == 0.0 and doc["rates"]["memory"] == 30.0
    cpu = doc["suggested"]["rates"]["cpu"]
    assert cpu["days"] == 200 and 0 < cpu["se_pct"] < 10 and cpu["why"] is None
