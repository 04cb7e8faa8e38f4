"""The ``headroom`` command line.

``headroom [FILE]`` opens the desktop app; the subcommands below work without a display.
User errors go to stderr as one line, with exit status 2; nothing is written over an existing
file when a command fails.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from app.cli import (
    analysis,
    bom,
    calibrate,
    catalogue,
    design,
    files,
    growth,
    imports,
    refresh,
    report,
    validate,
)
from app.cli.common import PROG, Parser, UserError, fail
from app.cli.gui import run_gui
from models.document.design import DesignError

COMMAND_MODULES = (design, validate, files, report, analysis, growth, refresh, bom, imports,
                   calibrate, catalogue)
"""Each adds its subcommands to the parser, in the order ``--help`` lists them (the import
commands, one per design source of the importer registry, before calibrate)."""

COMMANDS = tuple(c for m in COMMAND_MODULES for c in m.COMMANDS)
"""The subcommands as shipped (:func:`build_parser` reads the importer registry afresh)."""


def build_parser() -> Parser:
    parser = Parser(prog=PROG, description="Headroom: a what-if explorer for vSphere designs.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for module in COMMAND_MODULES:
        module.add_commands(sub)
    parser.commands = tuple(sub.choices)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args_list or (args_list[0] not in parser.commands
                         and args_list[0] not in ("-h", "--help")):
        return run_gui(args_list)
    try:
        args = parser.parse_args(args_list)
        return int(args.func(args))
    except UserError as err:
        return fail(str(err))
    except DesignError as err:
        return fail("; ".join(str(i) for i in err.issues))
    except BrokenPipeError:
        return 0
    except OSError as err:
        return fail(f"{err.filename or ''}: {err.strerror or err}".lstrip(": "))


if __name__ == "__main__":
    raise SystemExit(main())
