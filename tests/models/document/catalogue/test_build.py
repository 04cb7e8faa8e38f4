"""The committed tables are what the build makes of SPEC's dumps (when the dumps are here)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from models.document.catalogue import build, spec
from models.document.catalogue.build import quantile, system_name

HAVE_DUMPS = (build.DEFAULT_SPEC / spec.CPU2017).is_file()


@pytest.mark.skipif(not HAVE_DUMPS, reason=f"no SPEC dumps in {build.DEFAULT_SPEC}")
def test_rebuilding_gives_the_committed_tables(tmp_path: Path) -> None:
    curated = build.OUT / "servers.json"
    if curated.is_file():
        shutil.copy(curated, tmp_path / "servers.json")
    written = build.write(build.DEFAULT_SPEC, tmp_path)
    assert written
    for path in written:
        committed = build.OUT / path.name
        assert path.read_text(encoding="utf-8") == committed.read_text(encoding="utf-8"), \
            f"{path.name} differs: run python -m models.document.catalogue.build"


def test_the_build_says_where_the_dumps_are_missing(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert build.main([str(tmp_path)]) == 2
    assert "no SPEC dumps" in capsys.readouterr().err


def test_quantile() -> None:
    assert quantile([3.0], 0.1) == 3.0
    assert quantile([1.0, 2.0, 3.0, 4.0, 5.0], 0.5) == 3.0
    assert quantile([1.0, 2.0], 0.1) == pytest.approx(1.1)
    assert quantile([5.0, 1.0], 0.0) == 1.0 and quantile([5.0, 1.0], 1.0) == 5.0


@pytest.mark.parametrize(("system", "name"), [
    ("PowerEdge R640 (Intel Xeon Gold 6140, 2.30 GHz)", "poweredge r640"),
    ("ProLiant DL380 Gen10 (2.30 GHz, Intel Xeon Gold 6140)", "proliant dl380 gen10"),
    ("ThinkSystem SR635 2.00 GHz, AMD EPYC 7662", "thinksystem sr635"),
    ("ThinkSystem SR655 V3 2.40 GHz, AMD EPYC 9654", "thinksystem sr655 v3"),
    ("Cisco UCS C240 M5 (Intel Xeon Platinum 8180, 2.50GHz)", "ucs c240 m5"),
    ("Dell PowerEdge R7415 (AMD EPYC 7551P, 2.00 GHz)", "poweredge r7415"),
    ("ProLiant DL365 Gen10 Plus v2 AMD EPYC 7373X", "proliant dl365 gen10 plus v2"),
])
def test_system_names(system: str, name: str) -> None:
    assert system_name(system) == name


def test_month() -> None:
    assert spec.month("Feb-2025") == (2025, 2)
    assert spec.month("feb-2025") == (2025, 2)
    assert spec.month("2025") is None and spec.month("Foo-2025") is None
    assert spec.month_text((2017, 6)) == "Jun-2017" and spec.month_text(None) == ""
