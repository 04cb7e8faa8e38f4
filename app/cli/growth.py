"""``headroom grow DESIGN [--scenario S] --years N [--cpu PCT] [--memory PCT] [--storage PCT]
[--iops PCT] [--vms PCT] [--suggest-from FILE] [--json]``: the design in year 0..N at compound
rates a year (:mod:`models.analysis.growth`): hosts needed with what binds, utilisation,
storage, licensed cores, and the month each cluster runs out.  ``--suggest-from`` fits a rate
to each resource of a measured history (:mod:`models.analysis.trend`) and prints it with its
spread: a suggestion, never used unless given as ``--cpu`` ... ."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.common import add_eval_opts, analysis_design, emit
from models.document.numbers import counted

if TYPE_CHECKING:
    from app.cli.common import Subcommands

COMMANDS = ("grow",)

RATE_OPTIONS = (("cpu", "CPU demand"), ("memory", "memory held"),
                ("storage", "storage used"), ("iops", "storage I/O and network traffic"),
                ("vms", "the VM count (new VMs of the average size in their clusters)"))
"""The rates each growth command takes (``--cpu PCT`` ...), as ``grow`` and ``refresh``
offer them."""


def add_rate_options(p: argparse.ArgumentParser, suffix: str = "") -> None:
    """``--cpu``, ``--memory``, ``--storage``, ``--iops``, ``--vms``: % a year (with
    ``suffix``, ``--cpu-growth`` ...: where ``--cpu`` names a processor)."""
    for key, what in RATE_OPTIONS:
        p.add_argument(f"--{key}{suffix}", type=float, metavar="PCT", dest=f"growth_{key}",
                       help=f"compound growth of {what}, %% a year (default: the design's"
                            f" growth.{key}_pct)")


def rates(args: argparse.Namespace) -> dict[str, float | None]:
    return {key: getattr(args, f"growth_{key}") for key, _ in RATE_OPTIONS}


def cmd_grow(args: argparse.Namespace) -> int:
    from models.analysis.growth import grow, lines  # noqa: PLC0415

    design, base = analysis_design(args)
    r = grow(base, args.years, rates(args))
    doc = {"format": "headroom-growth", "version": 1, "design": design.name,
           "scenario": args.scenario or "base", **r.to_dict()}
    hints: list[str] = []
    if args.suggest_from:
        from models.analysis.trend import lines as trend_lines  # noqa: PLC0415
        from models.analysis.trend import read_aria_history  # noqa: PLC0415

        history = read_aria_history(Path(args.suggest_from))
        doc["suggested"] = {
            "source": history.source, "notes": history.notes,
            "rates": {k: {"rate_pct": t.rate_pct, "se_pct": t.se_pct, "days": t.days,
                          "first": str(t.first) if t.first else None,
                          "last": str(t.last) if t.last else None, "why": t.why or None}
                      for k, t in history.trends().items()}}
        use = " ".join(f"--{k} {v:g}" for k, v in history.suggested().items())
        hints = [f"suggested from {history.source} (not used{': pass ' + use if use else ''}):",
                 *(f"  {line}" for line in trend_lines(history))]
    if args.json:
        emit(doc)
        return 0
    for line in hints:
        print(line)
    print(f"{design.name} [{doc['scenario']}]: growth over {counted(args.years, 'year')}")
    for line in lines(r):
        print(f"  {line}")
    return 0


def add_commands(sub: Subcommands) -> None:
    p = sub.add_parser("grow", help="the design year by year at compound growth rates: hosts"
                       " needed and what binds, and the month each cluster runs out")
    p.add_argument("file")
    p.add_argument("--years", type=int, required=True, metavar="N",
                   help="the horizon: years 0 (today) to N")
    add_rate_options(p)
    p.add_argument("--suggest-from", metavar="FILE",
                   help="suggest each rate from a measured history (an Aria Operations view"
                   " with an interval breakdown): the fitted rate a year, its standard error and"
                   " the days it rests on; printed, not used (JSON: suggested)")
    add_eval_opts(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_grow)
