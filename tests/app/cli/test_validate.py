"""``headroom validate``: the fitted comparison, ``--cv`` (cross-validation) and ``--refit``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from models.calibration import crossval
from models.core import coefficients


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


@pytest.fixture
def vdi_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cross-validate one small subsystem (the whole run takes half a minute)."""
    full = crossval.cross_validate

    def small(by: Any = "study", modules: Any = None, full_fit: Any = None) -> Any:
        return full(by, ("vdi", "file_transfer"))

    monkeypatch.setattr(crossval, "cross_validate", small)


def test_validate_keeps_its_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "validate", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["format"] == "headroom-validation"
    assert {"summary", "checks"} <= set(doc)
    failed = [r for r in doc["checks"] if not r["ok"]]
    assert doc["summary"]["failed"] == len(failed)
    # a comparison outside its tolerance says what would close it, and every one says what
    # its run saturates
    assert all("would close it" in r["note"] for r in failed)
    assert all(r["saturates"] for r in doc["checks"])


@pytest.mark.usefixtures("vdi_only")
def test_cv_json_reports_each_figure_subsystem_and_overall(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "validate", "--cv", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["format"] == "headroom-cross-validation"
    assert set(doc["subsystems"]) == {"vdi", "file-transfer"} and doc["by"] == "study"
    rows = doc["comparisons"]
    assert rows and all("cv_error" in r and "reproduced_only" in r for r in rows)
    assert any(r["reproduced_only"] for r in rows) and any(r["cv_error"] for r in rows)
    assert doc["summary"]["figures"] == (doc["summary"]["cv_figures"]
                                         + doc["summary"]["reproduced_only"])


@pytest.mark.usefixtures("vdi_only")
def test_cv_text_names_reproduced_only_figures(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "validate", "--cv")
    assert code == 0
    assert "reproduced only" in out and "cv median" in out
    assert "vdi-pcoip-client-cache" in out


def test_refit_rewrites_the_table_from_the_cases(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path) -> None:
    table = tmp_path / "fitted.json"
    monkeypatch.setattr(coefficients, "TABLE_PATH", table)
    monkeypatch.setattr(crossval, "STORED_PATH", tmp_path / "crossval.json")
    full = crossval.cross_validate
    monkeypatch.setattr(crossval, "cross_validate", lambda *a, **k: full("case", ("vdi",)))
    coefficients.table.cache_clear()
    try:
        code, out = run(capsys, "validate", "--refit")
        assert code == 0 and "refitted" in out and "comparisons within tolerance" in out
        doc = json.loads(table.read_text(encoding="utf-8"))
        assert doc["format"] == coefficients.FORMAT and doc["coefficients"]
        cv = json.loads((tmp_path / "crossval.json").read_text(encoding="utf-8"))
        assert cv["format"] == "headroom-cross-validation" and cv["comparisons"]
    finally:
        monkeypatch.undo()
        coefficients.table.cache_clear()


def test_validate_counts_the_coefficients_against_the_figures(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Fewer coefficients than figures, both printed (and in the JSON summary)."""
    code, out = run(capsys, "validate")
    last = out.strip().splitlines()[-1]
    assert code == 0 and last.endswith("published figures (bounds and rules aside)")
    doc = json.loads(run(capsys, "validate", "--json")[1])["summary"]
    assert f"{doc['coefficients']} coefficients fitted" in last
    assert f"for {doc['figures']} published figures" in last
    assert 0 < doc["coefficients"] < doc["figures"]
