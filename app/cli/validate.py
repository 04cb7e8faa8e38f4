"""``headroom validate``: every calibration case, published figure against the model's."""

from __future__ import annotations

import argparse
import statistics
from typing import TYPE_CHECKING

from app.cli.common import emit

if TYPE_CHECKING:
    from app.cli.common import Subcommands

COMMANDS = ("validate",)


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
        emit({"format": "headroom-validation", "version": 1, "summary": summary,
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


def add_commands(sub: Subcommands) -> None:
    p = sub.add_parser("validate", help="every calibration case: model vs published")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_validate)
