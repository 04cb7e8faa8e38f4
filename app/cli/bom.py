"""``headroom bom DESIGN [--scenario S] [--prices F] [--json]`` and ``headroom export DESIGN -o
FILE.xlsx [--scenario S] [--prices F]``: the bill of materials (:mod:`models.analysis.bom`)
and the Excel workbook (:mod:`models.io.workbook_export`) of a design or of a scenario (a
refresh kept as one: what it buys, and before and after)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.common import emit, load
from models.analysis.bom import PriceList, parse_prices
from models.document.design import DesignError, Issue
from models.document.numbers import counted

if TYPE_CHECKING:
    from app.cli.common import Subcommands

COMMANDS = ("bom", "export")


def read_prices(path: str | None) -> PriceList | None:
    """The price list in ``path`` (a CSV: ``item,unit_price,currency``); None without one."""
    if not path:
        return None
    return parse_prices(Path(path).read_text(encoding="utf-8-sig"), Path(path).name)


def add_prices_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--prices", metavar="FILE.csv",
                   help="a price list, item,unit_price,currency (matched to the bill by item"
                        " name; licences priced per year)")


def cmd_bom(args: argparse.Namespace) -> int:
    from models.analysis.bom import bill, bought_of  # noqa: PLC0415
    from models.io.workbook_sheets import evaluated  # noqa: PLC0415

    design = load(args.file)
    prices = read_prices(args.prices)
    side = evaluated(design, args.scenario)
    b = bill(side.design, side.prediction, bought_of(design, args.scenario), prices=prices)
    doc = {"format": "headroom-bom", "version": 1, "design": design.name,
           "scenario": side.label, **b.to_dict()}
    if args.json:
        emit(doc)
        return 0
    print(f"{design.name} [{side.label}]: bill of materials")
    for line in b.text():
        print(f"  {line}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from models.io.workbook_export import export_workbook  # noqa: PLC0415

    out = Path(args.output)
    if out.suffix.lower() != ".xlsx":
        raise DesignError([Issue("export", f"-o must end in .xlsx, got '{out.name}'")])
    design = load(args.file)
    prices = read_prices(args.prices)
    if args.scenario:
        design.scenario(args.scenario)  # raises with the known names
    c = export_workbook(design, out, args.scenario, prices)
    sheets = ", ".join(t.name for t in c.tables)
    print(f"wrote {out} ({counted(len(c.tables), 'sheet')}: {sheets})")
    return 0


def add_commands(sub: Subcommands) -> None:
    p = sub.add_parser("bom", help="the bill of materials: servers, processors, memory, NICs,"
                       " vSAN devices and licences, each with its source; priced with"
                       " --prices")
    p.add_argument("file")
    p.add_argument("--scenario", help="a scenario of the design (a refresh kept as one: what"
                   " it buys); default: the base design")
    add_prices_option(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bom)

    p = sub.add_parser("export", help="the design as an Excel workbook: summary, clusters,"
                       " hosts, VMs, bill of materials, licences, assumptions (and growth,"
                       " vSAN)")
    p.add_argument("file")
    p.add_argument("-o", "--output", required=True, metavar="FILE.xlsx")
    p.add_argument("--scenario", help="a scenario of the design (one that rebuilds the"
                   " hardware, a refresh, beside the base design); default: the base design")
    add_prices_option(p)
    p.set_defaults(func=cmd_export)
