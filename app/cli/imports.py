"""``headroom import-<format>``: an inventory as a design file, with a report of what was read,
skipped and cannot be known.  One command per design source of the registry
(:mod:`models.io.importers.registry`: ``import-rvtools``, ``import-vcenter``), its arguments
built from the options the source declares."""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cli.calibrate import check_coverage
from app.cli.common import UserError, emit
from models.document.design import Design
from models.io.files import save_design
from models.io.importers import registry
from models.io.importers.importer import DESIGN, DESIGN_OPTIONS, Importer, Option, Value

if TYPE_CHECKING:
    from app.cli.common import Subcommands

COMMANDS = tuple(i.command for i in registry.importers(DESIGN))
"""The import commands of the registry as it ships (the parser reads the registry when built)."""


def _import_output(args: argparse.Namespace) -> Path:
    out = Path(args.output)
    if out.suffix.lower() not in (".json", ".headroom"):
        raise UserError(f"{args.command}: -o must end in .json or .headroom, got '{out.name}'")
    return out


def _finish_import(args: argparse.Namespace, design: Design, report: Any) -> int:
    out = _import_output(args)
    check_coverage(args, report)
    save_design(design, out)
    if args.json:
        emit(report.to_dict())
    else:
        print("\n".join(report.lines()))
        print(f"wrote {out}")
    return 0


def cmd_import(importer: Importer, args: argparse.Namespace) -> int:
    """Run ``importer`` on the command's source and options, then write the design."""
    _import_output(args)
    source = str(getattr(args, importer.source.name))
    options: dict[str, Value] = {o.name: getattr(args, o.name) for o in importer.all_options
                                 if o.flag}
    if importer.check is not None:
        importer.check(source, options)
    for secret in (o for o in importer.all_options if o.kind == "secret"):
        options[secret.name] = _secret(args.command, secret, source, options)
    assert importer.read_design is not None
    design, report = importer.read_design(source, options, None)
    return _finish_import(args, design, report)


def _secret(command: str, option: Option, source: str, options: dict[str, Value]) -> str:
    """A secret from its environment variable, else asked for in a terminal."""
    import getpass  # noqa: PLC0415
    import os  # noqa: PLC0415

    value = os.environ.get(option.env) if option.env else None
    if value is not None:
        return value
    what = option.label.lower() or option.name
    if not sys.stdin.isatty():
        raise UserError(f"{command}: set {option.env} or run it in a terminal to be asked for"
                        f" the {what}" if option.env else
                        f"{command}: run it in a terminal to be asked for the {what}")
    return getpass.getpass(option.prompt.format(**{**options, "source": source}) or f"{what}: ")


def add_commands(sub: Subcommands) -> None:
    """One ``import-<format>`` command per design source of the registry."""
    for importer in registry.importers(DESIGN):
        p = sub.add_parser(importer.command, help=importer.help)
        add_argument(p, importer.source)
        for option in importer.options:
            add_argument(p, option)
        p.add_argument("-o", "--output", required=True, help="the design file (.json/.headroom)")
        for option in DESIGN_OPTIONS:
            add_argument(p, option)
        p.add_argument("--json", action="store_true", help="print the import report as JSON")
        p.set_defaults(func=partial(cmd_import, importer))


def add_argument(p: argparse.ArgumentParser, option: Option) -> None:
    """``option`` as an argument of ``p``: the source positional, a flag as a switch; a secret
    is never an argument (it would end up in the shell's history)."""
    if option.kind == "secret":
        return
    text = option.help.replace("%", "%%") or None  # argparse formats help with %
    if not option.flag:
        p.add_argument(option.name, help=text)
        return
    kw: dict[str, Any] = {"dest": option.name, "help": text}
    if option.kind == "flag":
        p.add_argument(option.flag, action="store_true", **kw)
        return
    if option.kind == "int":
        kw["type"] = int
    if option.choices:
        kw["choices"] = option.values
    if option.metavar:
        kw["metavar"] = option.metavar
    p.add_argument(option.flag, default=option.default, required=option.required, **kw)
