"""``headroom import-rvtools`` and ``import-vcenter``: an inventory as a design file, with a
report of what was read, skipped and cannot be known (:mod:`models.io.importers`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cli.calibrate import MIN_COVERAGE, check_coverage
from app.cli.common import UserError, emit
from models.document.design import Design
from models.io.files import save_design
from models.io.importers.measurements import STATS

if TYPE_CHECKING:
    from app.cli.common import Subcommands

COMMANDS = ("import-rvtools", "import-vcenter")

VCENTER_PASSWORD_ENV = "HEADROOM_VCENTER_PASSWORD"


def _import_output(args: argparse.Namespace) -> Path:
    out = Path(args.output)
    if out.suffix.lower() not in (".json", ".headroom"):
        raise UserError(f"{args.command}: -o must end in .json or .headroom, got '{out.name}'")
    return out


def _finish_import(args: argparse.Namespace, design: Design, report: Any) -> int:
    out = _import_output(args)
    check_coverage(args, report)
    save_design(design, out)
    if args.json:
        emit(report.to_dict())
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


def add_commands(sub: Subcommands) -> None:
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
    p.add_argument("--perf", type=int, metavar="DAYS",
                   help="read DAYS of performance history (CPU, memory, virtual disks,"
                   " network) and set each VM's demand from it")
    p.add_argument("--stat", choices=STATS, default="p95",
                   help="statistic of the performance history (default p95)")
    _add_import_opts(p)
    p.set_defaults(func=cmd_import_vcenter)


def _add_import_opts(p: argparse.ArgumentParser) -> None:
    p.add_argument("-o", "--output", required=True, help="the design file (.json/.headroom)")
    p.add_argument("--site-by", choices=("datacenter", "cluster"), default="datacenter",
                   help="make a site of each datacenter (default) or of each cluster")
    p.add_argument("--include-powered-off", action="store_true",
                   help="import powered-off VMs too (idle, tagged powered-off)")
    p.add_argument("--json", action="store_true", help="print the import report as JSON")
    p.add_argument("--allow-partial", action="store_true",
                   help=f"write the design even when fewer than {MIN_COVERAGE:.0%} of the VMs"
                   " are on their own host (an anonymised or partial export)")
