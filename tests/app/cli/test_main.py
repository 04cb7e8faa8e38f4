"""The command line as a whole: one-line errors, the app without a display, and commands that
never import Qt (only `report` and the app do)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from app.cli.main import COMMANDS, build_parser, main
from models.examples import bundled as examples

ROOT = Path(__file__).resolve().parents[3]

EXAMPLE = str(examples.path(examples.DEFAULT_EXAMPLE))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_parser_has_every_modules_commands_in_order() -> None:
    assert COMMANDS == ("evaluate", "sweep", "knobs", "validate", "examples", "example",
                        "convert", "report", "seek", "failure", "sensitivity", "grow", "refresh",
                        "bom", "export", "import-rvtools", "import-vcenter", "import-liveoptics",
                        "calibrate", "place", "catalogue")
    assert "{" + ",".join(COMMANDS) + "}" in build_parser().format_usage()


def test_set_error_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "evaluate", EXAMPLE, "--set", "vm.workload.io_oio=-1", "--json")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "workload.io_oio" in err and "Traceback" not in err


def test_unknown_scenario_lists_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "evaluate", EXAMPLE, "--scenario", "nope")
    assert code == 2 and "no scenario named 'nope'" in err and "iofilter" in err


def test_missing_file_and_bad_extension(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    code, _, err = run(capsys, "evaluate", str(tmp_path / "missing.json"))
    assert code == 2 and "no such file" in err
    bad = tmp_path / "design.txt"
    bad.write_text("{}")
    code, _, err = run(capsys, "evaluate", str(bad))
    assert code == 2 and "unknown file type" in err


def test_malformed_design_file_is_a_clear_error(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    f = tmp_path / "bad.json"
    f.write_bytes(b"\xff\xfe\x00garbage")
    code, _, err = run(capsys, "evaluate", str(f))
    assert code == 2 and "bad.json" in err


def _headless(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m app ARGS`` as on a server: no display, no Qt platform chosen."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    return subprocess.run([sys.executable, "-m", "app", *args], check=False, cwd=ROOT,
                          capture_output=True, text=True, env=env, timeout=120)


def test_the_app_without_a_display_says_so_in_one_line(tmp_path: Path) -> None:
    res = _headless(tmp_path)
    assert res.returncode == 2
    assert res.stderr.startswith("headroom: error: no display") and res.stderr.count("\n") == 1
    assert "Traceback" not in res.stderr and "Aborted" not in res.stderr


def test_the_self_test_runs_without_a_display(tmp_path: Path) -> None:
    res = _headless(tmp_path, "--self-test")
    assert res.returncode == 0, res.stderr
    assert "self-test: ok" in res.stdout


NO_QT = r"""
import contextlib, io, sys
from pathlib import Path
from app.cli.main import main
example, out = sys.argv[1], Path(sys.argv[2])
qt = ("PySide6", "shiboken6", "pyqtgraph")
with contextlib.redirect_stdout(io.StringIO()):
    for args in (["evaluate", example, "--json"], ["validate"], ["knobs", example],
                 ["sweep", example, "--knob", "vm.workload.io_oio", "--from", "1", "--to", "8",
                  "--steps", "4", "--json"],
                 ["examples"], ["example", "vaio-scaling", "-o", str(out / "e.json")]):
        assert main(args) == 0, args
loaded = sorted(m for m in sys.modules if m.split(".")[0] in qt)
assert not loaded, loaded
refs = sys.getrefcount(None)
with contextlib.redirect_stdout(io.StringIO()):
    assert main(["report", example, "-o", str(out / "r.pdf")]) == 0
assert "PySide6" in sys.modules and (out / "r.pdf").stat().st_size > 1000
# the report started Qt, so it installed the PySide6 workaround (app/support/qt_fixes.py) first
assert sys.version_info >= (3, 12) or sys.getrefcount(None) > refs + (1 << 59)
print("ok")
"""


def test_commands_run_without_qt_and_the_report_installs_the_fix(tmp_path: Path) -> None:
    """`import app` applies nothing: evaluate, validate, knobs, sweep... never import PySide6;
    `report` does, headless, after installing the PySide6 workaround."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}  # no display, no platform chosen
    res = subprocess.run([sys.executable, "-c", NO_QT, EXAMPLE, str(tmp_path)], check=False,
                         cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "ok"


def test_a_missing_xcb_library_is_named_with_what_to_install() -> None:
    """Instead of Qt's raw abort about xcb-cursor: one line naming the package."""
    from app.cli.gui import xcb_problem  # noqa: PLC0415

    x11 = {"DISPLAY": ":0"}
    problem = xcb_problem(x11, lambda so: so != "libxcb-cursor.so.0")
    assert "libxcb-cursor0" in problem and "\n" not in problem
    assert "sudo apt-get install libxcb-cursor0 " in problem
    assert xcb_problem(x11, lambda so: True) == ""
    assert xcb_problem({**x11, "QT_QPA_PLATFORM": "offscreen"}, lambda so: False) == ""
    assert xcb_problem({**x11, "WAYLAND_DISPLAY": "wayland-0"}, lambda so: False) == ""
    assert "libxcb-xkb1" in xcb_problem({"QT_QPA_PLATFORM": "xcb"}, lambda so: "xkb" not in so)


def test_the_app_on_x11_without_xcb_cursor_says_what_to_install(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli import gui  # noqa: PLC0415

    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(gui, "_loads", lambda so: so != "libxcb-cursor.so.0")
    assert gui.run_gui([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("headroom: error: the window cannot open") and err.count("\n") == 1
    assert "sudo apt-get install libxcb-cursor0" in err
