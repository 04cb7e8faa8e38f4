"""``headroom seek``, ``failure`` and ``sensitivity``: goal seek, host failure (N+1) and which
knob moves an output most (:mod:`models.analysis`)."""

from __future__ import annotations

import argparse
import math
from typing import TYPE_CHECKING

from app.cli.common import add_eval_opts, analysis_design, emit
from models.document import numbers as fmt
from models.document.knobs import Knob, knob
from models.document.numbers import counted
from models.document.schema import Value
from models.engine.kpis import limit_text

if TYPE_CHECKING:
    from app.cli.common import Subcommands

COMMANDS = ("seek", "failure", "sensitivity")


def cmd_seek(args: argparse.Namespace) -> int:
    from models.analysis import seek  # noqa: PLC0415

    design, base = analysis_design(args)
    r = seek(base, args.goal, limit=args.max)
    doc = {"format": "headroom-seek", "version": 1, "design": design.name,
           "scenario": args.scenario or "base", **r.to_dict()}
    if args.json:
        emit(doc)
        return 0
    what = {"hosts": "fewest hosts", "oio": "largest OIO per VM",
            "iops": "largest growth of the I/O", "vms": "most VMs per host"}[r.goal]
    binding = limit_text(r.binding)
    print(f"{design.name} [{doc['scenario']}]: {what} meeting policy")
    if r.value is None:
        print(f"  answer     none in {r.search[0]}..{r.search[1]}: {binding} fails")
    else:
        extra = (f" ({r.extra['active_hosts']} + {r.extra['ha_spare_hosts']} HA spare)"
                 if r.goal == "hosts" else "")
        if r.goal == "iops":
            extra = (f" ({r.extra['iops_at_answer']:,.0f} IOPS over"
                     f" {counted(r.extra['vms_with_io'], 'VM')})")
        print(f"  answer     {fmt.with_unit(r.value, r.unit)}{extra}   (design:"
              f" {fmt.with_unit(r.current, r.unit)})")
        print(f"  binding    {binding}")
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

    design, base = analysis_design(args)
    rep = host_failure(base, args.host, sites=args.site)
    doc = {"format": "headroom-failure", "version": 1, "design": design.name,
           "scenario": args.scenario or "base", **rep.to_dict()}
    if args.json:
        emit(doc)
        return 0
    pol = rep.policy
    print(f"{design.name} [{doc['scenario']}]: host failure, policy CPU <="
          f" {fmt.percent(pol['cpu_util_max'])}, p95 <= {fmt.with_unit(pol['p95_ms_max'], 'ms')}")
    if rep.baseline:
        print(f"  already over policy before any failure: {len(rep.baseline)}")
    names = {c.id: c.name or c.id for c in base.components}

    def name(cid: str | None) -> str:
        return names.get(cid, cid) if cid else ""

    for f in rep.failures:
        moved = ", ".join(f"{name(h)} +{f.vms_after[h] - f.vms_before[h]}" for h in f.vms_after
                          if f.vms_after[h] > f.vms_before[h])
        took = sum(x.lost == "primary" for x in f.ft)
        back = len(f.restarted)
        what = (f"site {name(f.host)} ({counted(len(f.failed), 'host')})" if f.site
                else name(f.host))
        if f.not_restarted:
            moved = f"{counted(len(f.not_restarted), 'VM')} cannot restart; " + (
                moved or "no host gains VMs")
        print(f"  {what} fails: {counted(back, 'VM')} restart{'s' if back == 1 else ''}"
              + (f", {counted(took, 'FT VM')} fail{'s' if took == 1 else ''} over to the"
                 " secondary" if took else "")
              + f" ({moved or 'no host gains VMs'})"
              + ("" if f.new_breaches else ": nothing new breaks"))
        busiest = f.busiest_after()
        if busiest is not None:
            h, cpu, mem = busiest
            print(f"    busiest after the restarts: {name(h)}, CPU {fmt.percent(cpu)},"
                  f" memory {fmt.percent(mem)}")
        for x in f.ft:
            print(f"    FT {name(x.vm)} loses its {x.lost}: runs on {name(x.primary)},"
                  f" secondary {name(x.secondary) or 'none (unprotected)'}")
        for b in f.new_breaches[:10]:
            print(f"    breaks: {b.describe()}")
        if len(f.new_breaches) > 10:
            print(f"    ... and {len(f.new_breaches) - 10} more")
        for n in f.notes:
            print(f"    note: {n}")
    print("  survives a single host failure: " + ("yes" if rep.survives else "no"))
    if rep.sites:
        print("  survives a site failure: " + ("yes" if all(
            not f.new_breaches for f in rep.sites) else "no"))
    return 0


def cmd_sensitivity(args: argparse.Namespace) -> int:
    from models.analysis import sensitivity  # noqa: PLC0415

    design, base = analysis_design(args)
    s = sensitivity(base, args.output, band=args.band)
    doc = {"format": "headroom-sensitivity", "version": 1, "design": design.name,
           "scenario": args.scenario or "base", **s.to_dict()}
    if args.json:
        emit(doc)
        return 0
    from models.engine.kpis import KPI_BY_KEY, SUMMARY_FIGURES  # noqa: PLC0415

    kpi = KPI_BY_KEY.get(s.output)
    title = kpi.title if kpi else SUMMARY_FIGURES.get(s.output, (s.output, ""))[0]

    def out(x: float) -> str:
        return fmt.with_unit(x, s.unit)

    print(f"{design.name} [{doc['scenario']}]: what moves {title}; baseline"
          f" {out(s.baseline)}; {s.band} band; {s.evaluations:,} evaluations in"
          f" {s.elapsed_ms:,.0f} ms")
    for k in s.knobs[:args.top]:
        kn = knob(k.path)

        def text(v: Value, unit: str = k.unit, kn: Knob | None = kn) -> str:
            return kn.text(v) if kn is not None else fmt.value(v, unit)

        rng = f"{text(k.low)} .. {text(k.high)}"
        outs = f"{out(k.output_low):>14} .. {out(k.output_high):<14}"
        if not math.isfinite(k.output_low) or not math.isfinite(k.output_high):
            one = k.high if math.isfinite(k.output_high) else k.low  # a switch's other side
            rng = text(one)
            outs = f"{out(k.output_high if math.isfinite(k.output_high) else k.output_low):>14}"
            outs = f"{outs}{'':18}"
        print(f"  {k.label:34} {rng:>24}  {outs} swing {out(k.swing)}")
    for n in s.notes:
        print(f"  note: {n}")
    return 0


def add_commands(sub: Subcommands) -> None:
    from models.analysis.seek import GOALS  # noqa: PLC0415

    p = sub.add_parser("seek", help="goal seek: fewest hosts, largest OIO, largest growth of"
                       " the measured I/O or most VMs per host that meets the design's policy")
    p.add_argument("file")
    p.add_argument("--goal", required=True, choices=GOALS)
    p.add_argument("--max", type=int, help="search limit (default: one host per VM, the OIO "
                   "knob's maximum 256, 10000%% of today's I/O, 1024 VMs per host)")
    add_eval_opts(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_seek)

    p = sub.add_parser("failure", help="host-failure what-if (N+1): what breaks when a host "
                       "fails and HA restarts its VMs")
    p.add_argument("file")
    p.add_argument("--host", action="append", metavar="ID",
                   help="the host that fails (repeatable; default: each host in turn)")
    p.add_argument("--site", action="append", metavar="ID",
                   help="the site that fails, every host there at once (repeatable; default:"
                        " each site in turn where the design has two or more, unless --host"
                        " is given)")
    add_eval_opts(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_failure)

    p = sub.add_parser("sensitivity", help="which knob moves an output most (tornado)")
    p.add_argument("file")
    p.add_argument("--output", required=True,
                   help="total_iops, mean_latency_ms, p95_latency_ms, ft_logging_mbps,"
                        " vms_per_host, hosts_needed, host_cpu_pct or host_memory_pct"
                        " (an unknown one is an error that lists them)")
    p.add_argument("--band", default="around",
                   help="around: each component's value halved and doubled, a choice's "
                        "neighbours (default); range: each knob from its slider min to max; "
                        "step: one slider step down and up from each component's value")
    p.add_argument("--top", type=int, default=15, help="rows to print (text output)")
    add_eval_opts(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_sensitivity)
