"""``headroom [FILE]``: the desktop app (Qt is imported only here, once a display is known)."""

from __future__ import annotations

import os
import sys

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
    from app.main import run_app  # noqa: PLC0415  (Qt only for the GUI)

    return run_app(args.file, self_test=args.self_test)


def has_display() -> bool:
    """Whether Qt can open a window here: always on Windows and macOS; on Linux and other
    X11/Wayland systems only with a display or an explicitly chosen platform (Qt would
    otherwise abort the process without a word of ours)."""
    if sys.platform in ("win32", "darwin"):
        return True
    return any(os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"))
