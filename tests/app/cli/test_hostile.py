"""Hostile input on the command line: a one-line error naming the place, exit status 2,
nothing written over an existing file; text that is not valid Unicode is repaired with a
warning.  Hypothesis draws the damage; every command that reads a design sees it."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.cli.main import main
from models.document.codec import design_to_dict
from models.examples import bundled as examples
from tests.conftest import ROOT

BASE = design_to_dict(examples.load("vaio-scaling"))


def damaged(kind: str, digits: int) -> tuple[str, str]:
    """(JSON text, what the error must name) for one class of damage."""
    doc: dict[str, Any] = json.loads(json.dumps(BASE))
    host = next(c for c in doc["components"] if c["kind"] == "host")
    if kind == "huge-prop":
        host.setdefault("props", {})["sockets"] = int("9" * digits)
        return json.dumps(doc), "'sockets'"
    if kind == "huge-x":
        host["x"] = int("8" * digits)
        return json.dumps(doc), "'x'"
    if kind == "huge-policy":
        doc["policy"] = {"cpu_util_max": int("7" * digits)}
        return json.dumps(doc), "policy.cpu_util_max"
    if kind == "huge-scenario":
        doc["scenarios"][0]["set"][0]["value"] = int("6" * digits)
        return json.dumps(doc), doc["scenarios"][0]["name"]
    if kind == "nan":
        host.setdefault("props", {})["ghz"] = 1234.5
        return json.dumps(doc).replace("1234.5", "NaN"), "'ghz'"
    doc["scenarios"][0]["set"][0]["select"] = "id:ghost"
    return json.dumps(doc), "'ghost'"


@settings(max_examples=20)
@given(kind=st.sampled_from(["huge-prop", "huge-x", "huge-policy", "huge-scenario", "nan",
                             "ghost"]),
       digits=st.integers(min_value=17, max_value=400),
       command=st.sampled_from(["evaluate", "convert", "sweep", "knobs", "seek"]))
def test_every_class_is_one_line_naming_the_place_and_exit_2(
        kind: str, digits: int, command: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("h")
    text, named = damaged(kind, digits)
    src = folder / "bad.json"
    src.write_text(text, encoding="utf-8")
    out = folder / "out.headroom"
    out.write_bytes(b"precious")
    argv = {"evaluate": ["evaluate", str(src)], "convert": ["convert", str(src), "-o", str(out)],
            "sweep": ["sweep", str(src), "--knob", "vm.workload.io_oio", "--from", "1",
                      "--to", "8", "--steps", "2"],
            "knobs": ["knobs", str(src)], "seek": ["seek", str(src), "--goal", "oio"]}[command]
    stderr, stdout = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(stdout):
        status = main(argv)
    err = stderr.getvalue()
    assert status == 2, err
    assert err.count("\n") == 1 and err.startswith("headroom: error:")
    assert named in err and "Traceback" not in err
    assert out.read_bytes() == b"precious"


def test_a_lone_surrogate_is_repaired_with_a_warning(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    doc = json.loads(json.dumps(BASE))
    doc["name"] = "estate \ud800 east"
    doc["components"][0]["name"] = "esx \udfff 01"
    src = tmp_path / "sur.json"
    src.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["evaluate", str(src)]) == 0
    captured = capsys.readouterr()
    assert "estate \ufffd east" in captured.out
    warnings = captured.err.splitlines()
    assert len(warnings) == 2 and all(w.startswith("headroom: warning: sur.json") for w in
                                      warnings)
    assert any(f"component '{doc['components'][0]['id']}'" in w for w in warnings)
    out = tmp_path / "sur.headroom"
    assert main(["convert", str(src), "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["evaluate", str(out), "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["design"] == "estate \ufffd east"
    assert captured.err == ""  # repaired once, when it was read: the file holds clean text


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_a_named_pipe_is_refused_not_read_forever(tmp_path: Path) -> None:
    fifo = tmp_path / "design.json"
    os.mkfifo(fifo)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    res = subprocess.run([sys.executable, "-m", "app", "evaluate", str(fifo)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, env=env, check=False)
    assert res.returncode == 2
    assert res.stderr.strip() == (f"headroom: error: {fifo}: is a named pipe, not a design"
                                  " file: save it to a file first")
