"""``headroom report``: the PDF or PNG report, headless.  The one command that draws, so the
one that imports Qt (when it runs, not when the command line starts)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.common import add_eval_opts, engine_for

if TYPE_CHECKING:
    from app.cli.common import Subcommands

COMMANDS = ("report",)


def cmd_report(args: argparse.Namespace) -> int:
    from app.report.export import export_report  # noqa: PLC0415  (Qt only when needed)

    design, engine = engine_for(args)
    export_report(design, engine.scenario, Path(args.output), engine.evaluate())
    print(f"wrote {args.output}")
    return 0


def add_commands(sub: Subcommands) -> None:
    p = sub.add_parser("report", help="write the report as PDF or PNG, headless")
    p.add_argument("file")
    p.add_argument("-o", "--output", required=True)
    add_eval_opts(p)
    p.set_defaults(func=cmd_report)
