"""``headroom refresh DESIGN --to SERVER [--cpu PROCESSOR] [--memory-gb N] [--hosts N]
[--ht on|off] [--cluster NAME]... [--scenario NAME] [--prices F] [--json] [-o OUT]``: a
hardware refresh as a what-if (:mod:`models.analysis.refresh`): before and after side by side
and what it buys (its bill of materials, priced with ``--prices``); with ``-o``
the design is written with the refresh kept as a scenario (its hosts replaced, the VMs placed
on the new ones), which ``evaluate --scenario``, ``report`` and the app's Compare read."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.bom import add_prices_option, read_prices
from app.cli.common import emit, load
from app.cli.growth import add_rate_options
from models.document import numbers as fmt
from models.document.design import DesignError, Issue, Scenario

if TYPE_CHECKING:
    from app.cli.common import Subcommands

COMMANDS = ("refresh",)


def cmd_refresh(args: argparse.Namespace) -> int:
    from app.cli.growth import rates  # noqa: PLC0415
    from models.analysis.refresh import (  # noqa: PLC0415
        for_horizon,
        refresh,
        target,
        vsan_target,
    )
    from models.io.files import save_design  # noqa: PLC0415

    design = load(args.file)
    out = Path(args.output) if args.output else None
    if out is not None and out.suffix.lower() not in (".json", ".headroom"):
        raise DesignError([Issue("refresh", f"-o must end in .json or .headroom, got"
                                 f" '{out.name}'")])
    to = target(args.to, args.cpu, args.memory_gb)
    if args.vsan:
        to = replace(to, vsan=vsan_target(args.vsan, args.policy, args.ftt, args.devices,
                                          args.device_tb, args.compression))
    elif any(v is not None for v in (args.policy, args.ftt, args.devices, args.device_tb,
                                      args.compression)):
        raise DesignError([Issue("refresh", "--policy, --ftt, --devices, --device-tb and"
                                 " --compression size a vSAN: give --vsan esa or --vsan osa")])
    name = args.scenario or f"refresh to {to.server.name}"
    if any(s.name == name for s in design.scenarios) or name == "base":
        raise DesignError([Issue("refresh", f"the design already has a scenario '{name}':"
                                 " --scenario names another")])
    ht = None if args.ht is None else args.ht == "on"
    if args.years is not None:
        r = for_horizon(design, to, args.years, rates(args), hosts=args.hosts,
                        clusters=args.cluster, ht=ht)
    elif any(v is not None for v in rates(args).values()):
        raise DesignError([Issue("refresh", "--cpu-growth, --memory-growth, --storage-growth,"
                                 " --iops-growth and --vms-growth grow the design for a"
                                 " horizon: give --years N")])
    else:
        r = refresh(design, to, hosts=args.hosts, clusters=args.cluster, ht=ht)
    if out is not None:
        design.scenarios.append(Scenario(name, list(r.overrides), r.rebuild))
        save_design(design, out)
    prices = read_prices(args.prices)
    doc = {"format": "headroom-refresh", "version": 1, "design": design.name,
           "scenario": name, **r.to_dict(prices),
           "output": str(out) if out is not None else None}
    if args.json:
        emit(doc)
        return 0
    print(f"{design.name}: refresh to {r.target.text}")
    if r.target.memory is not None:
        m = r.target.memory
        print(f"  memory     {m.population.text} per host: {m.reason}; module sizes: {m.source}")
    print(f"  {r.rebuild.label}")
    print(f"  {'':22}{'before':>14}{'after':>14}")
    for label, before, after in r.rows():
        print(f"  {label:<22}{before:>14}{after:>14}")
    for line in r.cluster_lines():
        print(f"  {line}")
    print(f"  method     {r.method()}")
    for c in r.changed:
        print(f"  changed    {c['text']}")
    for c in r.after.clusters:
        if c.get("vsan") and c["id"] in r.groups:
            v = c["vsan"]
            print(f"  vSAN       {c['name']}: {fmt.with_unit(v['raw_tib'], 'TiB')} raw,"
                  f" {fmt.with_unit(v['usable_tib'], 'TiB')} usable after reserves,"
                  f" {fmt.with_unit(v['data_tib'], 'TiB')} of data,"
                  f" {fmt.with_unit(v['free_tib'], 'TiB')} free; the policy at least"
                  f" {fmt.counted(v['min_hosts'], 'host')}")
    for n in r.notes:
        print(f"  note: {n}")
    for line in r.bom(prices).text():
        print(f"  bom        {line}")
    if out is not None:
        print(f"wrote {out} (scenario '{name}': compare it with the base design, or"
              f" headroom report {out.name} --scenario \"{name}\")")
    return 0


def add_commands(sub: Subcommands) -> None:
    p = sub.add_parser("refresh", help="hardware refresh: the hosts replaced by a catalogue"
                       " server's, the fewest that meet the policy (or --hosts), before and"
                       " after with licensed cores")
    p.add_argument("file")
    p.add_argument("--to", required=True, metavar="SERVER",
                   help="a server of the catalogue: id or name (dell-r760, \"PowerEdge R760\";"
                        " headroom catalogue servers lists them)")
    p.add_argument("--cpu", metavar="PROCESSOR",
                   help="one of the server's processors (\"Gold 6548Y+\"); default: the"
                        " fastest per core with at least 16 cores")
    p.add_argument("--memory-gb", type=float, metavar="N",
                   help="memory per host (default: the smallest of the server's balanced DIMM"
                        " populations at which memory no longer sets the count)")
    p.add_argument("--hosts", type=int, metavar="N",
                   help="hosts per cluster refreshed (default: the fewest meeting the policy)")
    p.add_argument("--ht", choices=("on", "off"),
                   help="hyperthreading on the new hosts (default: as each old host had it)")
    p.add_argument("--vsan", choices=("esa", "osa"),
                   help="move the refreshed clusters to vSAN on the new hosts' devices, sized"
                        " with compute and memory")
    p.add_argument("--policy", choices=("raid1", "raid5", "raid6"),
                   help="the vSAN default storage policy (default: RAID 5 on ESA, RAID 1 on"
                        " OSA)")
    p.add_argument("--ftt", type=int, metavar="N",
                   help="failures to tolerate (RAID 1: 1-3; RAID 5 is 1, RAID 6 is 2)")
    p.add_argument("--devices", type=int, metavar="N",
                   help="vSAN capacity devices a new host (default 6)")
    p.add_argument("--device-tb", type=float, metavar="X",
                   help="each device's raw TB (default 3.84)")
    p.add_argument("--compression", type=float, metavar="R",
                   help="vSAN data reduction assumed (default 1.0: nothing pre-spent)")
    p.add_argument("--years", type=float, metavar="N",
                   help="size for the horizon's end: the design grown N years at the rates"
                        " below (default: the design's growth rates); today's figures beside")
    add_rate_options(p, "-growth")  # --cpu is the processor here
    p.add_argument("--cluster", action="append", metavar="NAME",
                   help="refresh this cluster only (repeatable; default: every cluster)")
    p.add_argument("--scenario", metavar="NAME",
                   help="the name the refresh is kept under as a scenario with -o (default:"
                        " \"refresh to <server>\")")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="write the design with the refresh as a scenario (.json or .headroom)")
    add_prices_option(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_refresh)
