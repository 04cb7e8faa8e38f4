"""``headroom [FILE]``: the desktop app (Qt is imported only here, once a display is known)."""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable, Mapping

from app.cli.common import PROG, Parser, UserError, fail


def run_gui(argv: list[str]) -> int:
    """Open the app on ``argv``'s file (``--self-test``: start, evaluate, exit)."""
    parser = Parser(prog=PROG, usage=f"{PROG} [FILE] | {PROG} COMMAND ...")
    parser.add_argument("file", nargs="?")
    parser.add_argument("--self-test", action="store_true",
                        help="start, evaluate the bundled example, and exit (for packaging)")
    try:
        args = parser.parse_args(argv)
    except UserError as err:
        return fail(str(err))
    if not has_display():
        if not args.self_test:
            return fail("no display to open the window on (neither DISPLAY nor "
                        "WAYLAND_DISPLAY is set); the commands work without one "
                        f"({PROG} --help), or set QT_QPA_PLATFORM=offscreen")
        os.environ["QT_QPA_PLATFORM"] = "offscreen"  # the self-test shows nothing
    problem = xcb_problem()
    if problem:  # Qt would abort with its own message about xcb-cursor
        return fail(problem)
    from app.window.run import run_app  # noqa: PLC0415  (Qt only for the GUI)

    return run_app(args.file, self_test=args.self_test)


def has_display() -> bool:
    """Whether Qt can open a window here: always on Windows and macOS; on Linux and other
    X11/Wayland systems only with a display or an explicitly chosen platform (Qt would
    otherwise abort the process without a word of ours)."""
    if sys.platform in ("win32", "darwin"):
        return True
    return any(os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"))


XCB_LIBS = {"libxcb-cursor.so.0": "libxcb-cursor0", "libxcb-icccm.so.4": "libxcb-icccm4",
            "libxcb-keysyms.so.1": "libxcb-keysyms1", "libxcb-image.so.0": "libxcb-image0",
            "libxcb-render-util.so.0": "libxcb-render-util0",
            "libxcb-shape.so.0": "libxcb-shape0", "libxcb-xkb.so.1": "libxcb-xkb1",
            "libxkbcommon-x11.so.0": "libxkbcommon-x11-0"}
"""The libraries Qt's X11 (xcb) platform plugin loads beyond Qt's own, with the Debian and
Ubuntu packages that hold them (the Makefile's XCB_LIBS)."""


def _loads(soname: str) -> bool:
    try:
        ctypes.CDLL(soname)
    except OSError:
        return False
    return True


def xcb_problem(env: Mapping[str, str] = os.environ,
                loads: Callable[[str], bool] | None = None) -> str:
    """What keeps Qt's X11 plugin from loading, in one line with what to install ("" when
    nothing does, or when Qt will not use X11: another platform chosen, or Wayland)."""
    if not sys.platform.startswith("linux"):
        return ""
    platform = env.get("QT_QPA_PLATFORM", "")
    x11 = platform.startswith("xcb") or (not platform and bool(env.get("DISPLAY"))
                                         and not env.get("WAYLAND_DISPLAY"))
    if not x11:
        return ""
    load = loads or _loads
    missing = [pkg for soname, pkg in XCB_LIBS.items() if not load(soname)]
    if not missing:
        return ""
    return (f"the window cannot open on this X11 display: Qt's X11 plugin needs"
            f" {', '.join(missing)}, which {'is' if len(missing) == 1 else 'are'} not"
            f" installed. Install with: sudo apt-get install {' '.join(missing)}"
            " (make run installs them too)")
