"""``headroom examples``, ``example`` and ``convert``: the bundled designs, and a design
between ``.json`` and ``.headroom``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.common import UserError, emit, load
from models.examples import bundled as examples
from models.io.files import save_design

if TYPE_CHECKING:
    from app.cli.common import Subcommands

COMMANDS = ("examples", "example", "convert")


def cmd_examples(args: argparse.Namespace) -> int:
    rows = [{"name": n, "design": examples.load(n).name} for n in examples.names()]
    if args.json:
        emit({"examples": rows})
    else:
        for r in rows:
            print(f"{r['name']:28} {r['design']}")
    return 0


def cmd_example(args: argparse.Namespace) -> int:
    try:
        design = examples.load(args.name)
    except KeyError:
        raise UserError(f"example: no example named '{args.name}' (known: "
                        + ", ".join(examples.names()) + ")") from None
    save_design(design, Path(args.output))
    print(f"wrote {args.output}")
    return 0


def cmd_convert(args: argparse.Namespace) -> int:
    src, dst = Path(args.input), Path(args.output)
    if src.resolve() == dst.resolve():
        raise UserError("convert: input and output are the same file")
    save_design(load(args.input), dst)
    print(f"wrote {dst}")
    return 0


def add_commands(sub: Subcommands) -> None:
    p = sub.add_parser("examples", help="list the bundled example designs")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_examples)

    p = sub.add_parser("example", help="write a bundled example design to a file")
    p.add_argument("name")
    p.add_argument("-o", "--output", required=True)
    p.set_defaults(func=cmd_example)

    p = sub.add_parser("convert", help="convert between .json and .headroom")
    p.add_argument("input")
    p.add_argument("-o", "--output", required=True)
    p.set_defaults(func=cmd_convert)
