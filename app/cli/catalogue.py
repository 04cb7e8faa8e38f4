"""``headroom catalogue processors|servers [--search TEXT] [--json]``: the processor catalogue
(SPECrate2017_int_base per core from SPEC's published results) and the server catalogue
(:mod:`models.document.catalogue`)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from app.cli.common import Parser, emit
from models.document.catalogue import processors, servers
from models.document.numbers import counted

if TYPE_CHECKING:
    from app.cli.common import Subcommands

COMMANDS = ("catalogue",)


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "~"


def _number(value: float | None, fmt: str = "{:g}") -> str:
    return "-" if value is None else fmt.format(value)


def _channels(server: servers.Server) -> str:
    """"8x2": channels per socket x DIMMs per channel; "8" where the DIMMs per channel are not
    known; "-" without channels."""
    if server.channels_per_socket is None:
        return "-"
    per = server.dimms_per_channel
    return f"{server.channels_per_socket}x{per}" if per else str(server.channels_per_socket)


def cmd_processors(args: argparse.Namespace) -> int:
    found = processors.search(args.search or "")
    if args.json:
        emit([p.to_dict() for p in found])
        return 0
    print(f"{'processor':34} {'per core':>8} {'p10-p90':>13} {'results':>7} {'cores':>5} "
          f"{'thr':>3} {'GHz':>5} {'year':>4}")
    for p in found:
        spread = f"{p.p10:.2f}-{p.p90:.2f}"
        mark = " estimate" if p.estimate else ""
        print(f"{_cut(p.model, 34):34} {p.specrate_per_core:>8.2f} {spread:>13} "
              f"{p.submissions:>7} {_number(p.cores):>5} {_number(p.threads_per_core):>3} "
              f"{_number(p.ghz, '{:.2f}'):>5} {_number(p.year):>4}{mark}")
    cat = processors.catalogue()
    b = cat.bridge
    print(f"\n{counted(len(found), 'processor')}. Per core: SPECrate2017_int_base / cores,"
          f" the median of the results. An estimate is CPU2006 x {b.factor} (measured on "
          f"{len(b.measured_on)} Xeon Scalable gen 1 processors, p10-p90 {b.p10}-{b.p90}).")
    print(cat.attribution)
    return 0


def cmd_servers(args: argparse.Namespace) -> int:
    found = servers.search(args.search or "")
    if args.json:
        emit([s.to_dict() for s in found])
        return 0
    print(f"{'server':34} {'gen':12} {'size':4} {'sockets':>7} {'chan':>5} {'DIMMs':>5} "
          f"{'max GB':>6} {'CPUs':>4}  memory SPEC ran / NICs")
    for s in found:
        memory = ", ".join(m.text for m in s.memory_configs[-2:]) or "-"
        print(f"{_cut(s.title, 34):34} {_cut(s.generation, 12):12} {s.form_factor:4} "
              f"{s.sockets:>7} {_channels(s):>5} {_number(s.dimm_slots):>5} "
              f"{_number(s.max_memory_gb):>6} {len(s.processor_results):>4}  {memory}")
        if populations := servers.memory_populations(s):
            print(f"{'':78}populations: {populations[0].text} .. {populations[-1].text}"
                  f" ({len(populations)})")
        if s.nic_options:
            print(f"{'':78}NICs: {', '.join(s.nic_options)}")
    print(f"\n{counted(len(found), 'server')}. CPUs: the processors SPEC's CPU2017 results ran"
          " each with (--json lists them); chan: memory channels per socket x DIMMs per "
          "channel; populations: the balanced DIMM populations of the module sizes a cited "
          "document lists, or where none does those of its memory platform (--json lists "
          "them); chan, DIMMs, max GB and NICs only where a cited "
          "document states them (- elsewhere).")
    print(processors.catalogue().attribution)
    return 0


def add_commands(sub: Subcommands) -> None:
    p = sub.add_parser("catalogue", help="the processor and server catalogues")
    inner = p.add_subparsers(dest="catalogue", required=True, parser_class=Parser)
    q = inner.add_parser("processors", help="per-core SPECrate2017_int_base of each processor")
    q.add_argument("--search", metavar="TEXT", help="only processors whose name has these words")
    q.add_argument("--json", action="store_true", help="a JSON list of objects")
    q.set_defaults(func=cmd_processors)
    s = inner.add_parser("servers", help="rack servers with their processor and memory options")
    s.add_argument("--search", metavar="TEXT", help="only servers whose name has these words")
    s.add_argument("--json", action="store_true", help="a JSON list of objects")
    s.set_defaults(func=cmd_servers)
