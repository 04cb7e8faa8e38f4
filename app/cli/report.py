"""``headroom report``: the PDF or PNG report, headless.  The one command that draws, so the
one that imports Qt (when it runs, not when the command line starts)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.bom import add_prices_option, read_prices
from app.cli.common import add_eval_opts, load, overrides, warn
from models.analysis.growth import MAX_YEARS
from models.document.design import Design, apply_overrides, apply_scenario
from models.document.numbers import counted
from models.document.schema import prop_label
from models.report.growth import has_rates

if TYPE_CHECKING:
    from app.cli.common import Subcommands

COMMANDS = ("report",)


def report_design(args: argparse.Namespace) -> Design:
    """The file's design with the ``--set`` overrides folded into the scenario reported (into
    the base design when that is reported), so the report's scenario comparison and its
    pages agree on what was asked."""
    design = load(args.file)
    if args.scenario:
        design.scenario(args.scenario)  # raises with the known names
    if args.title is not None:
        design.report_title = args.title
    if args.notes is not None:
        design.report_notes = args.notes
    sets = overrides(apply_scenario(design, args.scenario), args.set or [])
    if not sets:
        return design
    if not args.scenario or args.scenario == "base":
        return apply_overrides(design, sets)
    out = design.copy()
    scenario = out.scenario(args.scenario)
    scenario.overrides = [*scenario.overrides, *sets]
    return out


def _years(text: str) -> int:
    """A horizon of 1 to :data:`MAX_YEARS` years."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= MAX_YEARS:
        raise argparse.ArgumentTypeError(f"takes 1 to {counted(MAX_YEARS, 'year')}, got"
                                         f" {text!r}")
    return n


def cmd_report(args: argparse.Namespace) -> int:
    from app.report.export import export_report  # noqa: PLC0415  (Qt only when needed)

    design = report_design(args)
    if args.years is not None and not has_rates(apply_scenario(design, args.scenario)):
        warn("--years: the design keeps no growth rates: no growth page (every year would"
             " read as today; set design.growth.cpu_pct, ... to grow it)")
    export_report(design, args.scenario or "base", Path(args.output), years=args.years,
                  prices=read_prices(args.prices))
    print(f"wrote {args.output}")
    return 0


def add_commands(sub: Subcommands) -> None:
    p = sub.add_parser("report", help="write the report as PDF or PNG, headless")
    p.add_argument("file")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--title", metavar="TEXT",
                   help=f"{prop_label('design', 'report.title')}: the customer or project the"
                   " report is for, leading its title page (the file is not changed)")
    p.add_argument("--notes", metavar="TEXT",
                   help=f"{prop_label('design', 'report.notes')}: the architect's notes on the"
                   " title page (the file is not changed)")
    p.add_argument("--years", type=_years, metavar="N",
                   help="a growth page for years 0 to N at the design's growth rates (by"
                   " default over five years; a design without rates has none)")
    add_prices_option(p)
    add_eval_opts(p)
    p.set_defaults(func=cmd_report)
