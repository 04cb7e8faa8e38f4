"""`headroom examples`, `example` and `convert`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
from models.examples import bundled as examples


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


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
