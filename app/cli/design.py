"""``headroom evaluate``, ``sweep`` and ``knobs``: a design's prediction, a knob swept across
a range (:mod:`models.engine.sweep`), and the knobs that apply."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from app import format as fmt
from app.cli.calibrate import capacity_lines
from app.cli.common import UserError, add_eval_opts, emit, engine_for, load
from models.document.design import DesignError, apply_scenario, parse_assignment
from models.document.knobs import knobs_for
from models.document.schema import Value
from models.engine.evaluation import evaluate_bands
from models.engine.kpis import KPI_BY_KEY
from models.engine.sweep import (
    MAX_STEPS,
    SweepError,
    range_values,
    run_steps,
    sweep_overrides,
)
from models.engine.uncertainty import Bands
from models.subsystems import content_library

if TYPE_CHECKING:
    from app.cli.common import Subcommands

COMMANDS = ("evaluate", "sweep", "knobs")


def cmd_evaluate(args: argparse.Namespace) -> int:
    _, engine = engine_for(args)
    pred = engine.evaluate()
    if args.bands:  # two more evaluations at the ends of the published ranges
        pred.bands = evaluate_bands(engine, pred)
    doc = pred.to_dict()
    if args.json:
        emit(doc)
    else:
        s = doc["summary"]
        c = s["consolidation"]
        print(f"{doc['design']} [{doc['scenario']}]")
        print(f"  total IOPS        {s['total_iops']:,.0f}")
        print(f"  mean latency      {s['mean_latency_ms']:.3f} ms   "
              f"p95 {s['p95_latency_ms']:.3f} ms")
        print(f"  FT logging        {s['ft_logging_mbps']:,.1f} Mbit/s")
        print(f"  VMs per host      {c['vms_per_host']:.1f}  (max by CPU "
              f"{fmt.number(c['max_vms_per_host_by_cpu'])}, by p95 "
              f"{fmt.number(c['max_vms_per_host_by_p95'])}; binding {c['binding'] or 'none'};"
              f" hosts needed {fmt.number(c['hosts_needed'])})")
        if KPI_BY_KEY["p95_response_ms"].value(pred) is not None:  # request-driven VMs
            print(f"  web response      mean {pred.mean_response_ms:,.1f} ms   "
                  f"p95 {pred.p95_response_ms:,.1f} ms")
        net = KPI_BY_KEY["network_gbps"].value(pred)
        if net is not None:
            print(f"  network           {net:,.2f} Gbit/s")
        for line in capacity_lines(pred):
            print(line)
        jobs = doc["extras"].get("content_library", [])
        for j in jobs:
            print(f"  library {j['id']} ({j['name']}): "
                  + "; ".join(content_library.describe(jobs, j["id"])))
        for b in doc["bottlenecks"]:
            print(f"  bottleneck {b['component']} {b['resource']} {b['util']:.0%}: "
                  f"{b['explanation']}")
        for w in doc["warnings"]:
            print(f"  warning: {w}")
        if pred.bands is not None:
            print_bands(pred.bands)
    return 0


def print_bands(bands: Bands) -> None:
    """The summary outputs whose published-range band has a width, and the studies behind."""
    wide = [(k, lo, hi) for k, (lo, hi) in bands.summary.items() if hi > lo]
    if not wide:
        print("  bands: none (the design uses no coefficient published as a range)")
    for k, lo, hi in wide:
        print(f"  band {k.removeprefix('summary.'):<36} {lo:,.4g} .. {hi:,.4g}")
    for b in bands.sources:
        print(f"  band source: {b.label()}")


SWEEP_PROBLEMS = {
    "bounds": "--from and --to are required for a numeric knob",
    "steps": f"--steps must be from 1 to {MAX_STEPS}",
    "log": "a log sweep needs --from and --to above 0",
}
""":class:`SweepError` problems in the command line's words."""


def _assignment(path: str, value: Value) -> str:
    return f"{path}={str(value).lower() if isinstance(value, bool) else value}"


def cmd_sweep(args: argparse.Namespace) -> int:
    design, engine = engine_for(args)
    base = apply_scenario(design, args.scenario)
    try:
        values = range_values(args.knob, args.start, args.stop, args.steps, args.log, base)
    except SweepError as err:
        raise UserError(f"sweep: {SWEEP_PROBLEMS[err.problem]}") from None
    if not values:
        raise UserError(f"sweep: no setting of {args.knob} lies from {args.start:g} to"
                        f" {args.stop:g}")
    parse_assignment(base, f"{args.knob}={values[0]}")  # validates the path first
    try:
        overrides = sweep_overrides(base, args.knob, values)
    except DesignError:
        for v in values:  # the first bad value, in the words of --set
            parse_assignment(base, _assignment(args.knob, v))
        raise
    rows = [s.to_dict() for s in run_steps(engine, overrides, detail=False, bands=args.bands)]
    doc = {"format": "headroom-sweep", "version": 1, "design": design.name,
           "scenario": engine.scenario, "knob": args.knob, "steps": rows}
    if args.json:
        emit(doc)
    else:
        print(f"{design.name}: sweep {args.knob}")
        for r in rows:
            s = r["summary"]
            print(f"  {r['value']!s:>10}  IOPS {s['total_iops']:>12,.0f}  mean "
                  f"{s['mean_latency_ms']:8.3f} ms  p95 {s['p95_latency_ms']:8.3f} ms")
    return 0


def cmd_knobs(args: argparse.Namespace) -> int:
    design = load(args.file)
    ks = knobs_for(design)
    if args.json:
        emit({"format": "headroom-knobs", "version": 1, "design": design.name,
              "knobs": [k.to_dict() for k in ks]})
    else:
        for k in ks:
            rng = (", ".join(map(str, k.choices)) if k.choices
                   else f"{k.min:g} .. {k.max:g}")
            print(f"{k.path:36} {k.label} [{rng}] {k.unit}  ({k.source})")
    return 0


def add_commands(sub: Subcommands) -> None:
    p = sub.add_parser("evaluate", help="print the prediction of a design")
    p.add_argument("file")
    add_eval_opts(p)
    p.add_argument("--json", action="store_true")
    p.add_argument("--bands", action="store_true", help="also the range of every output over"
                   " the published ranges of the model's coefficients (2 more evaluations)")
    p.set_defaults(func=cmd_evaluate)

    p = sub.add_parser("sweep", help="one prediction summary per knob value")
    p.add_argument("file")
    p.add_argument("--knob", required=True, metavar="PATH")
    p.add_argument("--from", dest="start", type=float)
    p.add_argument("--to", dest="stop", type=float)
    p.add_argument("--steps", type=int, default=11)
    p.add_argument("--log", action=argparse.BooleanOptionalAction, default=None,
                   help="geometric steps (default: the knob's own scale)")
    add_eval_opts(p)
    p.add_argument("--json", action="store_true")
    p.add_argument("--bands", action="store_true", help="a [low, high] band per summary output"
                   " and step (3 evaluations per step)")
    p.set_defaults(func=cmd_sweep)

    p = sub.add_parser("knobs", help="the knobs that apply to a design")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_knobs)
