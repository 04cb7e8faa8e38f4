"""``headroom evaluate``, ``sweep`` and ``knobs``: a design's prediction, a knob swept across
a range (:mod:`models.engine.sweep`), and the knobs that apply."""

from __future__ import annotations

import argparse
import math
from typing import TYPE_CHECKING, Any

import numpy as np

from app.cli.calibrate import CAPACITY_TILES, capacity_lines
from app.cli.common import UserError, add_eval_opts, emit, engine_for, load
from models.core.prediction import Prediction, bottleneck_text
from models.core.uncertainty import Bands
from models.document import numbers as fmt
from models.document.design import (
    Design,
    DesignError,
    apply_scenario,
    every_component,
    parse_assignment,
)
from models.document.knobs import knob_at, knobs_for
from models.document.schema import Value
from models.engine.evaluation import evaluate_bands
from models.engine.kpis import KPIS, NOT_MEASURED, limit_text
from models.engine.metrics import series, throughput_of, time_of
from models.engine.sweep import (
    MAX_STEPS,
    SweepError,
    range_values,
    run_steps,
    sweep_overrides,
)
from models.report.wording import plain
from models.subsystems import content_library

if TYPE_CHECKING:
    from app.cli.common import Subcommands

COMMANDS = ("evaluate", "sweep", "knobs")


def cmd_evaluate(args: argparse.Namespace) -> int:
    design, engine = engine_for(args)
    pred = engine.evaluate()
    # two more evaluations at the ends of the published ranges
    bands = evaluate_bands(engine, pred) if args.bands else None
    doc = pred.to_dict()
    if bands is not None:
        doc["bands"] = bands.to_dict()
    if args.json:
        emit(doc)
    else:
        for line in prediction_lines(design, pred, doc):
            print(line)
        if bands is not None:
            print_bands(bands)
    return 0


def _not_measured(pred: Prediction, key: str) -> int:
    """Hosts whose CPU (``host_cpu_pct``) or memory nothing measured (NaN); 0 otherwise."""
    util = {"host_cpu_pct": pred.hosts.cpu_util, "host_memory_pct": pred.hosts.memory_util}
    return int(np.count_nonzero(np.isnan(util[key]))) if key in util else 0


def prediction_lines(design: Design, pred: Prediction, doc: dict[str, Any]) -> list[str]:
    """The prediction in plain words: each figure the design measures (the KPI table's titles
    and formats), consolidation with its binding limit, capacity, library jobs, then the
    bottlenecks and warnings with components by name and no case ids."""
    names = {c.id: c.name for c in every_component(design) if c.name}

    def name(cid: str) -> str:
        return names.get(cid, cid)

    out = [f"{doc['design']} [{doc['scenario']}]"]
    shown = [k for k in KPIS if k.key not in ("vms_per_host", "hosts_needed", *CAPACITY_TILES)
             and (k.value(pred) is not None or _not_measured(pred, k.key))]
    for k in shown:
        missing = _not_measured(pred, k.key)
        text = k.figure(pred) if k.value(pred) is not None else NOT_MEASURED
        if missing and k.value(pred) is not None:
            text += f" ({fmt.counted(missing, 'host')} not measured)"
        if k.key in ("licensed_cores", "licence_cost") and (note := k.note(pred, name)):
            text += f" ({note})"
        out.append(f"  {k.title:<20}{text}")
        if k.key == "p95_response_ms":
            out.append(f"  {'Mean response':<20}{fmt.with_unit(pred.mean_response_ms, 'ms')}")
    c = pred.consolidation
    limits = [f"{v:,} by {w}" for v, w in ((c.max_vms_per_host_by_cpu, "CPU"),
                                           (c.max_vms_per_host_by_p95, "p95"))
              if v is not None]
    parts = [f"at most {', '.join(limits)}"] if limits else []
    if c.hosts_needed is not None:
        parts.append(f"{fmt.count(c.hosts_needed, 'host')} needed, limited by"
                     f" {limit_text(c.binding, phrase=True)}")
    out.append(f"  {'VMs per host':<20}{fmt.number(c.vms_per_host)}"
               + (f" ({'; '.join(parts)})" if parts else ""))
    out += capacity_lines(pred)
    jobs = pred.sections.content_library or []
    for j in jobs:
        out.append(f"  library {j.name or j.id}: "
                   + "; ".join(content_library.describe(jobs, j.id)))
    for r in pred.bottlenecks():
        out.append(f"  bottleneck: {bottleneck_text(r, name)}: {plain(r.explanation, names)}")
    out += [f"  warning: {plain(w, names)}" for w in pred.warnings]
    return out


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
    steps = list(run_steps(engine, overrides, detail=False, bands=args.bands))
    rows = [s.to_dict() for s in steps]
    doc = {"format": "headroom-sweep", "version": 1, "design": design.name,
           "scenario": engine.scenario, "knob": args.knob, "steps": rows}
    if args.json:
        emit(doc)
        return 0
    # the figures the app's knob curve plots for this design (storage latency and IOPS, web
    # response, network, library jobs, or the hosts' CPU and the hosts needed)
    first = steps[0].prediction
    time_label, (mean_name, worst_name), times = time_of(first)
    through_label, throughput = throughput_of(first)
    unit = time_label[time_label.find("(") + 1:-1] if "(" in time_label else ""
    k = knob_at(base, args.knob)
    print(f"{design.name}: sweep of {k.label if k else args.knob}")
    figures = series([st.prediction for st in steps], times, throughput)
    for step, mean, worst, through in zip(steps, figures.mean, figures.worst,
                                          figures.throughput, strict=True):
        value = fmt.value(step.value, k.unit if k else "")
        # past saturation an unstable queue has no steady state: no time, no throughput
        print(f"  {value:>16}  {through_label} {fmt.number(through):>10}"
              f"  {mean_name} {_or_saturated(mean, unit):>10}"
              f"  {worst_name} {_or_saturated(worst, unit):>10}")
    return 0


def _or_saturated(x: float, unit: str) -> str:
    return "saturated" if math.isnan(x) else fmt.with_unit(x, unit)


def cmd_knobs(args: argparse.Namespace) -> int:
    design = load(args.file)
    ks = knobs_for(design)
    if args.json:
        emit({"format": "headroom-knobs", "version": 1, "design": design.name,
              "knobs": [k.to_dict() for k in ks]})
    else:
        for k in ks:  # choices and ranges as --set takes them, in the schema's unit
            rng = (", ".join(map(str, k.choices)) if k.choices
                   else f"{k.min:g} .. {k.max:g}")
            print(f"{k.path:36} {k.label} [{rng}] {fmt.field_unit(k.unit)}  ({k.source})")
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
