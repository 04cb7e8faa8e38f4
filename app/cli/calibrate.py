"""Command line: a baseline that matches the estate.

``headroom calibrate DESIGN --from FILE``   measured figures from a file of any measurement
                                            source of the registry (esxtop, Aria Operations,
                                            a fresher RVTools export), onto the design by name
``headroom calibrate DESIGN --check``       predicted vs recorded, per host and per VM
``headroom calibrate DESIGN``               solve the baseline again from ``measured.*``
``headroom calibrate DESIGN --storage``     and fit each array's drive service time to its
                                            VMs' recorded average latency where the model
                                            disagrees (the check offers it, never applies it)

``headroom place FILE``                     the VMs on no host where there is room

and what the imports (:mod:`app.cli.imports`) ask of it: :func:`check_coverage` (an import
below :data:`MIN_COVERAGE` of its VMs on their own hosts fails with exit status 2 and writes
nothing unless ``--allow-partial`` is given) and the evaluate command's capacity lines.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from models.document import numbers as fmt
from models.document.design import DesignError, Issue
from models.engine.kpis import KPI_BY_KEY, limit_text
from models.io.importers import registry
from models.io.importers.importer import MEASUREMENTS, MIN_COVERAGE
from models.io.importers.measurements import STATS
from models.subsystems import vsan

if TYPE_CHECKING:
    from app.cli.common import Subcommands
    from models.core.prediction import Prediction

COMMANDS = ("calibrate", "place")


def add_commands(sub: Subcommands) -> None:
    """Add ``calibrate`` and ``place`` to the ``headroom`` subparsers."""
    sources = registry.importers(MEASUREMENTS)
    p = sub.add_parser("calibrate", help="calibrate a design against what the estate measured"
                       f" ({', '.join(i.name for i in sources)}), or check its baseline")
    p.add_argument("design", help="the design (.json or .headroom)")
    p.add_argument("--from", dest="source", metavar="FILE",
                   help=registry.listed([i.title for i in sources]) + " (detected)")
    p.add_argument("--stat", choices=STATS, default="p95",
                   help="statistic over a file's samples (default p95)")
    p.add_argument("--check", action="store_true",
                   help="only print predicted vs recorded, after --from's data when given"
                   " (writes nothing)")
    p.add_argument("--storage", action="store_true",
                   help="also fit each array's drive service time to the average latency its"
                   " VMs recorded, where the model's disagrees (the check offers it; nothing"
                   " is fitted unless asked; with --check, what it would fit)")
    p.add_argument("-o", "--output", help="write here instead of over DESIGN")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_calibrate)
    p = sub.add_parser("place", help="place the VMs on no host (an import's Unplaced area)"
                       " where the design has room")
    p.add_argument("file")
    p.add_argument("-o", "--output", help="write here instead of over FILE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_place)


def check_coverage(args: argparse.Namespace, report: Any) -> None:
    """Refuse an import that placed too few VMs on their own host (unless --allow-partial):
    the report is printed to stderr so the user sees which VMs and why."""
    cov = report.coverage
    if cov.ratio >= MIN_COVERAGE or getattr(args, "allow_partial", False):
        return
    sys.stderr.write("\n".join(report.lines(limit=20)) + "\n")
    raise DesignError([Issue(args.command, f"only {cov.on_their_host:,} of"
                             f" {fmt.count(cov.runnable, 'VM')}"
                             f" ({cov.ratio:.0%}) are on a host of the export (below"
                             f" {MIN_COVERAGE:.0%}): nothing written; --allow-partial writes"
                             " the design with the others placed in their cluster or"
                             " unplaced")])


def cmd_calibrate(args: argparse.Namespace) -> int:
    from models.analysis import baseline  # noqa: PLC0415
    from models.io.files import load_design, save_design  # noqa: PLC0415

    design = load_design(Path(args.design))
    if args.check and not args.source and not args.storage:
        result = baseline.check(design)
        _print(args, result.to_dict(), result.lines(limit=20))
        return 0
    out = Path(args.output or args.design)
    if out.suffix.lower() not in (".json", ".headroom"):
        raise DesignError([Issue("calibrate", f"-o must end in .json or .headroom, got"
                                 f" '{out.name}'")])
    lines: list[str] = []
    applied: dict[str, Any] = {}
    if args.source:
        from models.io.importers.measurements import apply_measurements  # noqa: PLC0415
        from models.io.importers.perfdata import read_performance  # noqa: PLC0415

        meas = read_performance(args.source, args.stat)
        rep = apply_measurements(design, meas)
        if rep.vms_matched == 0 and rep.hosts_matched == 0 and rep.clusters_matched == 0:
            named = ", ".join((rep.unmatched_vms + rep.unmatched_hosts)[:5]) or "nothing"
            raise DesignError([Issue("calibrate", f"no VM or host of {Path(args.source).name}"
                                     f" matches the design by name (the file names {named}):"
                                     " nothing written")])
        lines += rep.lines()
        applied = rep.to_dict()
    result = baseline.calibrate(design)
    doc: dict[str, Any] = {"calibrated": applied}
    if args.storage:  # asked for: each disagreeing array's service time fitted
        from models.analysis import latency  # noqa: PLC0415

        fit = latency.fit(design)
        lines += fit.lines()
        latency.apply(design, fit)
        result = baseline.check(design)
        doc["storage"] = fit.to_dict()
    lines += result.lines(limit=20)
    doc["check"] = result.to_dict()
    if args.check:  # a dry run: what calibrating would give, and nothing written
        lines.append("nothing written (--check)")
        _print(args, doc | {"output": None}, lines)
        return 0
    save_design(design, out)
    lines.append(f"wrote {out}")
    _print(args, doc | {"output": str(out)}, lines)
    return 0


def _print(args: argparse.Namespace, doc: dict[str, Any], lines: list[str]) -> None:
    if args.json:
        sys.stdout.write(json.dumps(doc, indent=2, allow_nan=False) + "\n")
    else:
        print("\n".join(lines))


def cmd_place(args: argparse.Namespace) -> int:
    from models.analysis.placement import apply_placement, place_unplaced  # noqa: PLC0415
    from models.io.files import load_design, save_design  # noqa: PLC0415

    design = load_design(Path(args.file))
    out = Path(args.output or args.file)
    if out.suffix.lower() not in (".json", ".headroom"):
        raise DesignError([Issue("place", f"-o must end in .json or .headroom, got"
                                 f" '{out.name}'")])
    result = place_unplaced(design)
    lines = result.lines()
    if result.placed:
        apply_placement(design, result)
        save_design(design, out)
        lines.append(f"wrote {out}")
    _print(args, result.to_dict(), lines)
    return 0


CAPACITY_TILES = ("cluster_headroom", "vcpu_per_core", "memory_overcommit", "storage_used_pct",
                  "vsan_free_tib")
"""The dashboard's capacity figures, which ``evaluate`` prints in the tiles' words."""


def capacity_lines(pred: Prediction) -> list[str]:
    """The evaluate command's lines for what was not measured, clusters, overcommit and
    storage capacity (the prediction's capacity section, overcommit and storage as the
    dashboard's tiles read them: :data:`models.engine.kpis.KPIS`)."""
    out: list[str] = []
    v = pred.vms
    missing = int(np.count_nonzero(v.io_not_measured)) if len(v.io_not_measured) else 0
    if missing:
        out.append(f"  {'Not measured':<20}{missing:,} of {fmt.count(len(v.ids), 'VM')} lack I/O"
                   " data (their storage figures read 'not measured')")
    cap = pred.sections.capacity
    if cap is None:
        return out
    for cl in cap.clusters:
        if not cl.id:
            continue
        short = f", short by {cl.short_by_hosts}" if cl.short_by_hosts else ""
        ratio = f", vCPU:core {cl.vcpu_per_core:.1f}" if cl.vcpu_per_core is not None else ""
        lic = f", {fmt.count(cl.licensed_cores, 'licensed core')}" if cl.licensed_cores else ""
        out.append(f"  cluster {cl.name}: {fmt.count(cl.hosts, 'host')},"
                   f" {cl.hosts_needed if cl.hosts_needed is not None else 'none'} needed"
                   f" ({limit_text(cl.binding)};"
                   f" {cl.admission_control})"
                   f"{short}{ratio}{lic}")
    for vs in cap.vsan or []:
        out.append(f"  vSAN {vs.name}: {vsan.words(vs)}")
    for key in CAPACITY_TILES:  # as the dashboard's tiles read them
        kpi = KPI_BY_KEY[key]
        figure = kpi.value(pred)
        if figure is not None or kpi.not_measured(pred):
            note = kpi.note(pred, lambda c: c, figure)
            out.append(f"  {kpi.title:<20}{kpi.figure(pred)}" + (f" ({note})" if note else ""))
    if cap.unplaced_vms:
        out.append(f"  {'Unplaced':<20}{fmt.count(cap.unplaced_vms, 'VM')} on no host (counted"
                   " in hosts needed; headroom place FILE puts them where there is room)")
    return out
