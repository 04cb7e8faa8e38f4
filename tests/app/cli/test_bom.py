"""`headroom bom` and `headroom export`: the bill of a kept refresh is the refresh's own, a
price list's totals in words and JSON, one-line errors that write nothing, and neither command
imports Qt."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli.main import main
from models.document.codec import design_to_json
from tests.refresh_estate import estate

ROOT = Path(__file__).resolve().parents[3]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, dict]:
    """The refresh test estate with a refresh to R760s kept as scenario R760, and what
    ``refresh --json`` said of it."""
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(design_to_json(estate()), encoding="utf-8")
    code, out, err = run(capsys, "refresh", str(old), "--to", "dell-r760", "--scenario", "R760",
                         "-o", str(new), "--json")
    assert code == 0, err
    return new, json.loads(out)


def test_the_bill_of_a_kept_refresh_is_the_refreshs(capsys: pytest.CaptureFixture[str],
                                                   kept: tuple[Path, dict]) -> None:
    path, refresh = kept
    code, out, _ = run(capsys, "bom", str(path), "--scenario", "R760", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["format"] == "headroom-bom" and doc["scenario"] == "R760"
    assert [(x["item"], x["quantity"]) for x in doc["lines"]] == \
        [(x["item"], x["quantity"]) for x in refresh["after"]["bom"]]
    code, out, _ = run(capsys, "bom", str(path))
    assert code == 0 and "model not stated" in out and "population not stated" in out


def test_prices_in_words_and_json(capsys: pytest.CaptureFixture[str], kept: tuple[Path, dict],
                                  tmp_path: Path) -> None:
    path, _ = kept
    prices = tmp_path / "prices.csv"
    prices.write_text("\ufeffitem,unit_price,currency\nDell PowerEdge R760,10000,USD\n"
                      "VMware Cloud Foundation subscription (per core),300,USD\n",
                      encoding="utf-8")
    code, out, _ = run(capsys, "bom", str(path), "--scenario", "R760", "--prices",
                       str(prices))
    assert code == 0
    assert ("total USD: hardware 40,000.00 USD once, subscriptions 38,400.00 USD a year;"
            " 78,400.00 USD over 1 year") in out
    assert "no price for: Intel Xeon Gold 6544Y; 64 GB DDR5 RDIMM" in out
    code, out, _ = run(capsys, "bom", str(path), "--scenario", "R760", "--prices",
                       str(prices), "--json")
    (usd,) = json.loads(out)["totals"]
    assert usd == {"currency": "USD", "hardware": 40000.0, "per_year": 38400.0,
                   "years": 1.0, "horizon": 78400.0}
    code, out, _ = run(capsys, "refresh", str(path), "--to", "dell-r760", "--years", "2",
                       "--prices", str(prices), "--json")
    assert code == 0
    totals = json.loads(out)["after"]["bom_totals"]
    assert totals["years"] == 2 and totals["totals"][0]["horizon"] == 40000 + 2 * 38400


def test_errors_are_one_line_and_write_nothing(capsys: pytest.CaptureFixture[str],
                                               kept: tuple[Path, dict], tmp_path: Path) -> None:
    path, _ = kept
    bad = tmp_path / "bad.csv"
    bad.write_text("item,unit_price\nDell PowerEdge R760,cheap\n", encoding="utf-8")
    out_file = tmp_path / "w.xlsx"
    for args in (("bom", str(path), "--prices", str(bad)),
                 ("export", str(path), "-o", str(out_file), "--prices", str(bad)),
                 ("export", str(path), "-o", str(out_file), "--scenario", "nope"),
                 ("export", str(path), "-o", str(tmp_path / "w.xls"))):
        code, _, err = run(capsys, *args)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, args
    assert not out_file.exists() and not (tmp_path / "w.xls").exists()
    assert "line 2" in run(capsys, "bom", str(path), "--prices", str(bad))[2]


NO_QT = r"""
import contextlib, io, sys
from app.cli.main import main
design, out = sys.argv[1], sys.argv[2]
with contextlib.redirect_stdout(io.StringIO()):
    assert main(["bom", design, "--scenario", "R760", "--json"]) == 0
    assert main(["export", design, "-o", out, "--scenario", "R760"]) == 0
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6"))
assert not loaded, loaded
print("ok")
"""


def test_bom_and_export_run_without_qt(kept: tuple[Path, dict], tmp_path: Path) -> None:
    path, _ = kept
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    res = subprocess.run([sys.executable, "-c", NO_QT, str(path), str(tmp_path / "w.xlsx")],
                         check=False, cwd=ROOT, capture_output=True, text=True, env=env,
                         timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "ok" and (tmp_path / "w.xlsx").stat().st_size > 1000
