"""What every command shares: the one-line user error, JSON output, loading a design with its
scenario and ``--set`` overrides."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from models.document.design import (
    Design,
    Override,
    apply_overrides,
    apply_scenario,
    parse_assignment,
)
from models.engine.evaluation import Engine
from models.io.files import load_design

PROG = "headroom"

if TYPE_CHECKING:  # argparse names no public type for it (and it is generic only in stubs)
    Subcommands = argparse._SubParsersAction[argparse.ArgumentParser]
    """What ``add_subparsers`` returns: each command module adds its commands to it."""


class UserError(Exception):
    """A problem with what the user asked for: reported on one line, exit status 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are :class:`UserError` (one line, exit status 2)."""

    commands: tuple[str, ...] = ()
    """Its subcommands, in order (set by whoever adds them)."""

    def error(self, message: str) -> NoReturn:
        raise UserError(f"{self.prog}: {message}")


def fail(message: str) -> int:
    """Report ``message`` on stderr as one line (``headroom: error: ...``); exit status 2."""
    text = message if message.startswith(PROG) else f"{PROG}: error: {message}"
    sys.stderr.write(" ".join(text.split("\n")) + "\n")
    return 2


def emit(obj: Any) -> None:
    """``obj`` as indented JSON on stdout (never NaN or infinity)."""
    sys.stdout.write(json.dumps(obj, indent=2, allow_nan=False) + "\n")


def load(path: str) -> Design:
    """The design in ``path``; what was repaired while reading it (text that was not valid
    Unicode) is reported on stderr, one warning per place."""
    design = load_design(Path(path))
    for issue in design.repairs:
        warn(f"{Path(path).name}: {issue}")
    return design


def warn(message: str) -> None:
    """``headroom: warning: ...`` on stderr, one line."""
    sys.stderr.write(f"{PROG}: warning: " + " ".join(message.split("\n")) + "\n")


def overrides(design: Design, sets: Sequence[str]) -> list[Override]:
    """The ``--set PATH=VALUE`` assignments, checked against ``design``."""
    return [parse_assignment(design, s) for s in sets]


def engine_for(args: argparse.Namespace) -> tuple[Design, Engine]:
    """The file's design and an engine of its ``--scenario`` with the ``--set`` overrides
    patched in."""
    design = load(args.file)
    if args.scenario:
        design.scenario(args.scenario)  # raises with the known names
    base = apply_scenario(design, args.scenario)
    engine = Engine(base)
    engine.scenario = args.scenario or "base"
    for ov in overrides(base, args.set or []):
        engine.patch(ov)
    return design, engine


def analysis_design(args: argparse.Namespace) -> tuple[Design, Design]:
    """The file's design and the one to analyse (scenario and --set applied)."""
    design = load(args.file)
    if args.scenario:
        design.scenario(args.scenario)  # raises with the known names
    base = apply_scenario(design, args.scenario)
    return design, apply_overrides(base, overrides(base, args.set or []))


def add_eval_opts(p: argparse.ArgumentParser) -> None:
    """``--scenario`` and ``--set``: which variant of the design a command works on."""
    p.add_argument("--scenario", help="a scenario of the design (default: the base design)")
    p.add_argument("--set", action="append", metavar="PATH=VALUE",
                   help="override a property: vm.workload.io_oio=32, id:v1.vcpus=4, "
                        "design.policy.cpu_util_max=0.8 (repeatable)")
