"""The ``headroom`` command line.

``headroom [FILE]`` opens the desktop app; the subcommands below work without a display.
User errors go to stderr as one line, with exit status 2; nothing is written over an existing
file when a command fails.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from app.cli import calibrate as calibrate_cli
from models.document.design import (
    Design,
    DesignError,
    Override,
    apply_scenario,
    make_override,
    parse_assignment,
    parse_value,
    selector_kind,
)
from models.document.knobs import knob, knob_at, knobs_for
from models.document.schema import prop_spec
from models.engine.evaluation import Engine, evaluate_bands
from models.engine.uncertainty import Bands
from models.examples import bundled as examples
from models.io.files import load_design, save_design
from models.subsystems import content_library

PROG = "headroom"


class UserError(Exception):
    """A problem with what the user asked for: reported on one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UserError(f"{self.prog}: {message}")


def _emit(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, allow_nan=False) + "\n")


def _load(path: str) -> Design:
    return load_design(Path(path))


def _overrides(design: Design, sets: Sequence[str]) -> list[Override]:
    return [parse_assignment(design, s) for s in sets]


def _engine(args: argparse.Namespace) -> tuple[Design, Engine]:
    design = _load(args.file)
    if args.scenario:
        design.scenario(args.scenario)  # raises with the known names
    base = apply_scenario(design, args.scenario)
    engine = Engine(base)
    engine.scenario = args.scenario or "base"
    for ov in _overrides(base, args.set or []):
        engine.patch(ov)
    return design, engine


# --------------------------------------------------------------------------- commands


def cmd_evaluate(args: argparse.Namespace) -> int:
    _, engine = _engine(args)
    pred = engine.evaluate()
    if args.bands:  # two more evaluations at the ends of the published ranges
        pred.bands = evaluate_bands(engine, pred)
    doc = pred.to_dict()
    if args.json:
        _emit(doc)
    else:
        s = doc["summary"]
        c = s["consolidation"]
        print(f"{doc['design']} [{doc['scenario']}]")
        print(f"  total IOPS        {s['total_iops']:,.0f}")
        print(f"  mean latency      {s['mean_latency_ms']:.3f} ms   "
              f"p95 {s['p95_latency_ms']:.3f} ms")
        print(f"  FT logging        {s['ft_logging_mbps']:,.1f} Mbit/s")
        print(f"  VMs per host      {c['vms_per_host']:.1f}  (max by CPU "
              f"{c['max_vms_per_host_by_cpu']}, by p95 {c['max_vms_per_host_by_p95']}; "
              f"binding {c['binding']}; hosts needed {c['hosts_needed']})")
        if pred.vms.request_driven.any():
            print(f"  web response      mean {pred.mean_response_ms:,.1f} ms   "
                  f"p95 {pred.p95_response_ms:,.1f} ms")
        net = pred.total_net_gbps
        if net > 0:
            print(f"  network           {net:,.2f} Gbit/s")
        for line in calibrate_cli.capacity_lines(pred):
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
            _print_bands(pred.bands)
    return 0


def _print_bands(bands: Bands) -> None:
    """The summary outputs whose published-range band has a width, and the studies behind."""
    wide = [(k, lo, hi) for k, (lo, hi) in bands.summary.items() if hi > lo]
    if not wide:
        print("  bands: none (the design uses no coefficient published as a range)")
    for k, lo, hi in wide:
        print(f"  band {k.removeprefix('summary.'):<36} {lo:,.4g} .. {hi:,.4g}")
    for b in bands.sources:
        print(f"  band source: {b.label()}")


def sweep_values(path: str, start: float | None, stop: float | None, steps: int,
                 log: bool | None, design: Design | None = None) -> list[Any]:
    """The values a sweep visits: numbers from start to stop, or every choice of an enum.
    With ``design``, an ``id:``/``tag:`` path finds the knob of the selected kind."""
    k = knob_at(design, path) if design is not None else knob(path)
    spec = k.spec if k else None
    if k is not None and spec is not None and spec.type in ("bool", "enum") and start is None:
        return [c == "true" if spec.type == "bool" else c for c in k.choices or ()]
    if start is None or stop is None:
        raise UserError("sweep: --from and --to are required for a numeric knob")
    if steps < 1 or steps > 100000:
        raise UserError("sweep: --steps must be from 1 to 100000")
    use_log = log if log is not None else bool(k and k.log)
    if use_log and (start <= 0 or stop <= 0):
        raise UserError("sweep: a log sweep needs --from and --to above 0")
    vals = (np.geomspace(start, stop, steps) if use_log else np.linspace(start, stop, steps))
    if spec is not None and spec.type == "int":
        return sorted({round(float(v)) for v in vals}, reverse=start > stop)
    if spec is not None and spec.choices is not None:
        return [float(c) for c in spec.choices
                if min(start, stop) <= float(c) <= max(start, stop)]
    return [float(v) for v in vals]


def _sweep_override(base: Design, text: str, first: Override | None) -> Override:
    """``parse_assignment``, but after a sweep's first step only the value is checked (the
    path matches the same components every step; finding them is the costly part)."""
    kind = selector_kind(base, first.select) if first is not None else None
    spec = prop_spec(kind, first.prop) if first is not None and kind else None
    if first is None or spec is None:
        return parse_assignment(base, text)
    try:
        value = parse_value(spec, text.partition("=")[2])
    except ValueError:
        return parse_assignment(base, text)  # raises with the precise reason
    return make_override(base, first.select, first.prop, value)


def run_sweep(engine: Engine, base: Design, path: str,
              values: Sequence[Any], bands: bool = False) -> list[dict[str, Any]]:
    rows = []
    first: Override | None = None
    for v in values:
        text = f"{path}={str(v).lower() if isinstance(v, bool) else v}"
        ov = first = _sweep_override(base, text, first)
        engine.patch(ov)
        pred = engine.evaluate(detail=False)  # a row keeps only the summary
        row: dict[str, Any] = {"value": ov.value, "summary": pred.summary_dict()}
        if bands:
            b = evaluate_bands(engine, pred)
            row["bands"] = {k: [lo, hi] for k, (lo, hi) in b.summary.items()}
            row["bands"]["sources"] = [s.case_id for s in b.sources]
        rows.append(row)
    return rows


def cmd_sweep(args: argparse.Namespace) -> int:
    design, engine = _engine(args)
    base = apply_scenario(design, args.scenario)
    values = sweep_values(args.knob, args.start, args.stop, args.steps, args.log, base)
    parse_assignment(base, f"{args.knob}={values[0]}")  # validates the path first
    rows = run_sweep(engine, base, args.knob, values, args.bands)
    doc = {"format": "headroom-sweep", "version": 1, "design": design.name,
           "scenario": engine.scenario, "knob": args.knob, "steps": rows}
    if args.json:
        _emit(doc)
    else:
        print(f"{design.name}: sweep {args.knob}")
        for r in rows:
            s = r["summary"]
            print(f"  {r['value']!s:>10}  IOPS {s['total_iops']:>12,.0f}  mean "
                  f"{s['mean_latency_ms']:8.3f} ms  p95 {s['p95_latency_ms']:8.3f} ms")
    return 0


def cmd_knobs(args: argparse.Namespace) -> int:
    design = _load(args.file)
    ks = knobs_for(design)
    if args.json:
        _emit({"format": "headroom-knobs", "version": 1, "design": design.name,
               "knobs": [k.to_dict() for k in ks]})
    else:
        for k in ks:
            rng = (", ".join(map(str, k.choices)) if k.choices
                   else f"{k.min:g} .. {k.max:g}")
            print(f"{k.path:36} {k.label} [{rng}] {k.unit}  ({k.source})")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from models.calibration import all_checks  # noqa: PLC0415

    checks = all_checks()
    rows = [c.to_dict() for c in checks]
    numeric = [abs(c.error) for c in checks if c.bound == "eq"]
    by_role_error: dict[str, float | None] = {}
    for role in ("fit", "check", "rule"):
        errs = [abs(c.error) for c in checks if c.bound == "eq" and c.role == role]
        by_role_error[role] = statistics.median(errs) if errs else None
    summary = {"cases": len({c.case_id for c in checks}), "comparisons": len(checks),
               "passed": sum(c.ok for c in checks), "failed": sum(not c.ok for c in checks),
               "median_abs_error": statistics.median(numeric) if numeric else 0.0,
               "median_abs_error_by_role": by_role_error,
               "by_role": {r: sum(c.role == r for c in checks) for r in ("fit", "check", "rule")}}
    if args.json:
        _emit({"format": "headroom-validation", "version": 1, "summary": summary,
               "checks": rows})
        return 0
    for role, title in (("fit", "Fitted (coefficients were fitted to these)"),
                        ("rule", "Rules (implemented as the study states them)"),
                        ("check", "Checked (not used in fitting)")):
        part = [r for r in rows if r["role"] == role]
        if not part:
            continue
        print(f"\n{title}: {len(part)}")
        print(f"  {'case':44} {'quantity':44} {'published':>11} {'model':>11} {'error':>8}")
        for r in part:
            pub = ("> " if r["bound"] == "gt" else "< " if r["bound"] == "lt" else "") + \
                f"{r['published']:.4g}"
            mark = "ok" if r["ok"] else "FAIL"
            print(f"  {r['case'][:44]:44} {r['quantity'][:44]:44} {pub:>11} "
                  f"{r['model']:>11.4g} {r['error']:>+8.1%} {mark}")
    by_role = ", ".join(f"{r} {v:.1%}" for r, v in by_role_error.items() if v is not None)
    print(f"\n{summary['passed']} of {summary['comparisons']} comparisons within tolerance over "
          f"{summary['cases']} cases; median |error| {summary['median_abs_error']:.1%} "
          f"({by_role})")
    return 0


def cmd_examples(args: argparse.Namespace) -> int:
    rows = [{"name": n, "design": examples.load(n).name} for n in examples.names()]
    if args.json:
        _emit({"examples": rows})
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
    save_design(_load(args.input), dst)
    print(f"wrote {dst}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from app.report.export import export_report  # noqa: PLC0415  (Qt only when needed)

    design, engine = _engine(args)
    export_report(design, engine.scenario, Path(args.output), engine.evaluate())
    print(f"wrote {args.output}")
    return 0


# --------------------------------------------------------------------------- import

VCENTER_PASSWORD_ENV = "HEADROOM_VCENTER_PASSWORD"


def _import_output(args: argparse.Namespace) -> Path:
    out = Path(args.output)
    if out.suffix.lower() not in (".json", ".headroom"):
        raise UserError(f"{args.command}: -o must end in .json or .headroom, got '{out.name}'")
    return out


def _finish_import(args: argparse.Namespace, design: Design, report: Any) -> int:
    out = _import_output(args)
    calibrate_cli.check_coverage(args, report)
    save_design(design, out)
    if args.json:
        _emit(report.to_dict())
    else:
        print("\n".join(report.lines()))
        print(f"wrote {out}")
    return 0


def cmd_import_rvtools(args: argparse.Namespace) -> int:
    from models.io.importers.rvtools import import_rvtools  # noqa: PLC0415

    _import_output(args)
    design, report = import_rvtools(args.source, site_by=args.site_by,
                                    include_powered_off=args.include_powered_off)
    return _finish_import(args, design, report)


def cmd_import_vcenter(args: argparse.Namespace) -> int:
    import getpass  # noqa: PLC0415
    import os  # noqa: PLC0415

    from models.io.importers.vcenter import Connection, import_vcenter, parse_server  # noqa: PLC0415

    _import_output(args)
    host, port = parse_server(args.server, args.port)
    password = os.environ.get(VCENTER_PASSWORD_ENV)
    if password is None:
        if not sys.stdin.isatty():
            raise UserError(f"import-vcenter: set {VCENTER_PASSWORD_ENV} or run it in a"
                            " terminal to be asked for the password")
        password = getpass.getpass(f"password for {args.user} at {host}: ")
    conn = Connection(host, args.user, password, port, insecure=args.insecure)
    design, report = import_vcenter(conn, site_by=args.site_by,
                                    include_powered_off=args.include_powered_off,
                                    perf_days=args.perf, stat=args.stat)
    return _finish_import(args, design, report)


# --------------------------------------------------------------------------- analysis


def _analysis_design(args: argparse.Namespace) -> tuple[Design, Design]:
    """The file's design and the one to analyse (scenario and --set applied)."""
    from models.document.design import apply_overrides  # noqa: PLC0415

    design = _load(args.file)
    if args.scenario:
        design.scenario(args.scenario)  # raises with the known names
    base = apply_scenario(design, args.scenario)
    return design, apply_overrides(base, _overrides(base, args.set or []))


def cmd_seek(args: argparse.Namespace) -> int:
    from models.analysis import seek  # noqa: PLC0415

    design, base = _analysis_design(args)
    r = seek(base, args.goal, limit=args.max)
    doc = {"format": "headroom-seek", "version": 1, "design": design.name,
           "scenario": args.scenario or "base", **r.to_dict()}
    if args.json:
        _emit(doc)
        return 0
    what = {"hosts": "fewest hosts", "oio": "largest OIO per VM",
            "vms": "most VMs per host"}[r.goal]
    print(f"{design.name} [{doc['scenario']}]: {what} meeting policy")
    if r.value is None:
        print(f"  answer     none in {r.search[0]}..{r.search[1]}: {r.binding} fails")
    else:
        extra = (f" ({r.extra['active_hosts']} + {r.extra['ha_spare_hosts']} HA spare)"
                 if r.goal == "hosts" else "")
        print(f"  answer     {r.value} {r.unit}{extra}   (design: {r.current:g})")
        print(f"  binding    {r.binding}")
    for b in r.binding_detail[:3]:
        print(f"             {b.describe()}")
    tried = ", ".join(f"{t.value} {'ok' if t.ok else 'fails'}"
                      for t in sorted(r.trials, key=lambda t: t.value))
    print(f"  tried      {tried}")
    print(f"  method     {r.method}")
    for n in r.notes:
        print(f"  note: {n}")
    return 0


def cmd_failure(args: argparse.Namespace) -> int:
    from models.analysis import host_failure  # noqa: PLC0415

    design, base = _analysis_design(args)
    rep = host_failure(base, args.host)
    doc = {"format": "headroom-failure", "version": 1, "design": design.name,
           "scenario": args.scenario or "base", **rep.to_dict()}
    if args.json:
        _emit(doc)
        return 0
    pol = rep.policy
    print(f"{design.name} [{doc['scenario']}]: host failure, policy CPU <= "
          f"{pol['cpu_util_max']:.0%}, p95 <= {pol['p95_ms_max']:g} ms")
    if rep.baseline:
        print(f"  already over policy before any failure: {len(rep.baseline)}")
    for f in rep.failures:
        moved = ", ".join(f"{h} +{f.vms_after[h] - f.vms_before[h]}" for h in f.vms_after
                          if f.vms_after[h] > f.vms_before[h])
        took = sum(x.lost == "primary" for x in f.ft)
        print(f"  {f.host} fails: {len(f.restarted)} VMs restart"
              + (f", {took} FT VMs fail over to their secondary" if took else "")
              + f" ({moved or 'no host gains VMs'})"
              + ("" if f.new_breaches else ": nothing new breaks"))
        for x in f.ft:
            print(f"    FT {x.vm} loses its {x.lost}: runs on {x.primary}, secondary "
                  f"{x.secondary or 'none (unprotected)'}")
        for b in f.new_breaches[:10]:
            print(f"    breaks: {b.describe()}")
        if len(f.new_breaches) > 10:
            print(f"    ... and {len(f.new_breaches) - 10} more")
        for n in f.notes:
            print(f"    note: {n}")
    print("  survives a single host failure: " + ("yes" if rep.survives else "no"))
    return 0


def cmd_sensitivity(args: argparse.Namespace) -> int:
    from models.analysis import sensitivity  # noqa: PLC0415

    design, base = _analysis_design(args)
    s = sensitivity(base, args.output, band=args.band)
    doc = {"format": "headroom-sensitivity", "version": 1, "design": design.name,
           "scenario": args.scenario or "base", **s.to_dict()}
    if args.json:
        _emit(doc)
        return 0
    print(f"{design.name} [{doc['scenario']}]: what moves {s.output} ({s.unit}); baseline "
          f"{s.baseline:,.4g}; band {s.band}; {s.evaluations} evaluations in "
          f"{s.elapsed_ms:,.0f} ms")
    for k in s.knobs[:args.top]:
        rng = f"{k.low!s} .. {k.high!s}"
        print(f"  {k.path:34} {rng:>22}  {k.output_low:>11,.4g} .. {k.output_high:<11,.4g}"
              f" swing {k.swing:,.4g}")
    for n in s.notes:
        print(f"  note: {n}")
    return 0


# --------------------------------------------------------------------------- parser


def _add_eval_opts(p: argparse.ArgumentParser) -> None:
    p.add_argument("--scenario", help="a scenario of the design (default: the base design)")
    p.add_argument("--set", action="append", metavar="PATH=VALUE",
                   help="override a property: vm.workload.io_oio=32, id:v1.vcpus=4, "
                        "design.policy.cpu_util_max=0.8 (repeatable)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Headroom: a what-if explorer for vSphere designs.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("evaluate", help="print the prediction of a design")
    p.add_argument("file")
    _add_eval_opts(p)
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
    _add_eval_opts(p)
    p.add_argument("--json", action="store_true")
    p.add_argument("--bands", action="store_true", help="a [low, high] band per summary output"
                   " and step (3 evaluations per step)")
    p.set_defaults(func=cmd_sweep)

    p = sub.add_parser("knobs", help="the knobs that apply to a design")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_knobs)

    p = sub.add_parser("validate", help="every calibration case: model vs published")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_validate)

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

    p = sub.add_parser("report", help="write the report as PDF or PNG, headless")
    p.add_argument("file")
    p.add_argument("-o", "--output", required=True)
    _add_eval_opts(p)
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("seek", help="goal seek: fewest hosts, largest OIO or VMs per host "
                       "that meets the design's policy")
    p.add_argument("file")
    p.add_argument("--goal", required=True, choices=("hosts", "oio", "vms"))
    p.add_argument("--max", type=int, help="search limit (default: one host per VM, the OIO "
                   "knob's maximum 256, 1024 VMs per host)")
    _add_eval_opts(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_seek)

    p = sub.add_parser("failure", help="host-failure what-if (N+1): what breaks when a host "
                       "fails and HA restarts its VMs")
    p.add_argument("file")
    p.add_argument("--host", action="append", metavar="ID",
                   help="the host that fails (repeatable; default: each host in turn)")
    _add_eval_opts(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_failure)

    p = sub.add_parser("sensitivity", help="which knob moves an output most (tornado)")
    p.add_argument("file")
    p.add_argument("--output", required=True,
                   choices=("total_iops", "mean_latency_ms", "p95_latency_ms",
                            "ft_logging_mbps", "vms_per_host", "hosts_needed"))
    p.add_argument("--band", choices=("range", "step"), default="range",
                   help="range: each knob from its slider min to max (default); step: one "
                        "slider step down and up from each component's value")
    p.add_argument("--top", type=int, default=15, help="rows to print (text output)")
    _add_eval_opts(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_sensitivity)

    p = sub.add_parser("import-rvtools", help="import an RVTools export (.xlsx, or a folder"
                       " of RVTools_tab*.csv) as a design")
    p.add_argument("source", help="the .xlsx workbook or the csv folder")
    _add_import_opts(p)
    p.set_defaults(func=cmd_import_rvtools)

    p = sub.add_parser("import-vcenter", help="import a live vCenter inventory as a design"
                       f" (password from ${VCENTER_PASSWORD_ENV} or a prompt)")
    p.add_argument("server", help="vCenter host name, host:port or https://host/sdk")
    p.add_argument("--user", required=True)
    p.add_argument("--port", type=int, default=443)
    p.add_argument("--insecure", action="store_true",
                   help="do not verify the server's TLS certificate (labs and simulators only)")
    _add_import_opts(p)
    p.set_defaults(func=cmd_import_vcenter)
    calibrate_cli.register(sub)
    return parser


def _add_import_opts(p: argparse.ArgumentParser) -> None:
    p.add_argument("-o", "--output", required=True, help="the design file (.json/.headroom)")
    p.add_argument("--site-by", choices=("datacenter", "cluster"), default="datacenter",
                   help="make a site of each datacenter (default) or of each cluster")
    p.add_argument("--include-powered-off", action="store_true",
                   help="import powered-off VMs too (idle, tagged powered-off)")
    p.add_argument("--json", action="store_true", help="print the import report as JSON")



COMMANDS = ("evaluate", "sweep", "knobs", "validate", "examples", "example", "convert", "report",
            "seek", "failure", "sensitivity",
            "import-rvtools", "import-vcenter", "calibrate", "place")


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args_list or (args_list[0] not in COMMANDS and args_list[0] not in ("-h", "--help")):
        return _gui(args_list)
    try:
        args = parser.parse_args(args_list)
        return int(args.func(args))
    except UserError as err:
        return _fail(str(err))
    except DesignError as err:
        return _fail("; ".join(str(i) for i in err.issues))
    except BrokenPipeError:
        return 0
    except OSError as err:
        return _fail(f"{err.filename or ''}: {err.strerror or err}".lstrip(": "))


def _fail(message: str) -> int:
    text = message if message.startswith(PROG) else f"{PROG}: error: {message}"
    sys.stderr.write(" ".join(text.split("\n")) + "\n")
    return 2


def _gui(argv: list[str]) -> int:
    parser = _Parser(prog=PROG, usage=f"{PROG} [FILE] | {PROG} COMMAND ...")
    parser.add_argument("file", nargs="?")
    parser.add_argument("--self-test", action="store_true",
                        help="start, evaluate the bundled example, and exit (for packaging)")
    try:
        args = parser.parse_args(argv)
    except UserError as err:
        return _fail(str(err))
    if not _has_display():
        if not args.self_test:
            return _fail("no display to open the window on (neither DISPLAY nor "
                         "WAYLAND_DISPLAY is set); the commands work without one "
                         f"({PROG} --help), or set QT_QPA_PLATFORM=offscreen")
        os.environ["QT_QPA_PLATFORM"] = "offscreen"  # the self-test shows nothing
    from app.main import run_app  # noqa: PLC0415  (Qt only for the GUI)

    return run_app(args.file, self_test=args.self_test)


def _has_display() -> bool:
    """Whether Qt can open a window here: always on Windows and macOS; on Linux and other
    X11/Wayland systems only with a display or an explicitly chosen platform (Qt would
    otherwise abort the process without a word of ours)."""
    if sys.platform in ("win32", "darwin"):
        return True
    return any(os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"))


if __name__ == "__main__":
    raise SystemExit(main())
