"""``headroom validate``: every calibration case, published figure against the model's."""

from __future__ import annotations

import argparse
import statistics
from typing import TYPE_CHECKING

from app.cli.common import emit
from models.document.numbers import counted, plural

if TYPE_CHECKING:
    from app.cli.common import Subcommands

COMMANDS = ("validate",)


def cmd_validate(args: argparse.Namespace) -> int:
    from models.calibration import NOTHING_SATURATES, all_checks  # noqa: PLC0415
    from models.core import coefficients  # noqa: PLC0415

    if args.refit:
        from models.calibration import crossval  # noqa: PLC0415
        from models.calibration.fit import write_table  # noqa: PLC0415

        doc = write_table()
        if not args.json:
            print(f"refitted {len(doc['coefficients'])} coefficients from the cases")
        if not args.cv:  # --cv below computes it anyway; the views read the stored one
            crossval.write_stored()
    if args.cv:
        return _cross_validate(args)
    checks = all_checks()
    rows = [c.to_dict() for c in checks]
    numeric = [abs(c.error) for c in checks if c.bound == "eq"]
    by_role_error: dict[str, float | None] = {}
    for role in ("fit", "check", "rule"):
        errs = [abs(c.error) for c in checks if c.bound == "eq" and c.role == role]
        by_role_error[role] = statistics.median(errs) if errs else None
    summary = {"cases": len({c.case_id for c in checks}), "comparisons": len(checks),
               "figures": len(numeric), "coefficients": coefficients.free(),
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
        print(f"  {'case':44} {'quantity':44} {'published':>11} {'model':>11} {'error':>8}"
              "      what the run saturates")
        for r in part:
            pub = ("> " if r["bound"] == "gt" else "< " if r["bound"] == "lt" else "") + \
                f"{r['published']:.4g}"
            mark = "ok" if r["ok"] else "FAIL"
            print(f"  {r['case'][:44]:44} {r['quantity'][:44]:44} {pub:>11} "
                  f"{r['model']:>11.4g} {r['error']:>+8.1%} {mark:4}  {r['saturates'] or '-'}")
    by_role = ", ".join(f"{r} {v:.1%}" for r, v in by_role_error.items() if v is not None)
    print(f"\n{summary['passed']} of {summary['comparisons']} comparisons within tolerance over "
          f"{counted(int(str(summary['cases'])), 'case')}; median |error|"
          f" {summary['median_abs_error']:.1%} "
          f"({by_role})")
    bound = sum(bool(c.saturates) and not c.saturates.startswith(NOTHING_SATURATES)
                for c in checks)
    print(f"{bound} of {len(checks)} comparisons run a resource to saturation; the rest say"
          " what is busiest")
    print(_counts(summary["coefficients"], summary["figures"]))
    return 0


def _counts(free: object, figures: object) -> str:
    """The fit's degrees of freedom against what it must match."""
    return (f"{counted(int(str(free)), 'coefficient')} fitted, by code, for"
            f" {counted(int(str(figures)), 'published figure')} (bounds and rules aside)")


def _pct(x: float | None, sign: bool = False) -> str:
    if x is None:
        return "-"
    return f"{x:+.1%}" if sign else f"{x:.1%}"


def _cross_validate(args: argparse.Namespace) -> int:
    """``--cv``: refit each subsystem without each case (or study) and predict it."""
    from models.calibration.crossval import cross_validate  # noqa: PLC0415

    report = cross_validate(args.cv_by)
    if args.refit and args.cv_by == "study":
        from models.calibration.crossval import write_stored  # noqa: PLC0415

        write_stored(report)
    if args.json:
        emit(report.to_dict())
        return 0
    print(f"Cross-validation: every coefficient refitted without one {args.cv_by} at a time,"
          " the left-out figures predicted")
    print(f"  {'case':44} {'quantity':40} {'published':>10} {'fitted':>8} {'cv':>8}")
    for c in report.comparisons:
        ch = c.check
        pub = ("> " if ch.bound == "gt" else "< " if ch.bound == "lt" else "") + \
            f"{ch.published:.4g}"
        cv = "reproduced only" if c.reproduced_only else _pct(c.cv_error, True)
        print(f"  {ch.case_id[:44]:44} {ch.quantity[:40]:40} {pub:>10} "
              f"{_pct(ch.error, True):>8} {cv:>8}")
    print(f"\n  {'subsystem':20} {'figures':>7} {'fitted median':>13} {'max':>7} "
          f"{'cv median':>10} {'max':>7} {'predicted':>9} {'reproduced only':>15}")
    for name, st in report.by_subsystem().items():
        print(f"  {name:20} {st['figures']:>7} {_pct(st['fitted_median']):>13} "
              f"{_pct(st['fitted_max']):>7} {_pct(st['cv_median']):>10} "
              f"{_pct(st['cv_max']):>7} {st['cv_figures']:>9} {st['reproduced_only']:>15}")
    s = report.stats()
    by = args.cv_by
    print(f"\n{s['figures']} published figures: median |error| fitted {_pct(s['fitted_median'])},"
          f" cross-validated {_pct(s['cv_median'])} over the {s['cv_figures']} that the other"
          f" {plural(by)} can predict ({s['reproduced_only']} reproduced only: only their own {by}"
          f" pins their coefficients); bounds held when left out: {s['bounds_held_cv']} of"
          f" {s['bounds'] - s['bounds_reproduced_only']}")
    from models.core import coefficients  # noqa: PLC0415

    print(_counts(coefficients.free(), s["figures"]))
    return 0


def add_commands(sub: Subcommands) -> None:
    p = sub.add_parser("validate", help="every calibration case: model vs published")
    p.add_argument("--json", action="store_true")
    p.add_argument("--cv", action="store_true",
                   help="cross-validate: refit without each study and predict its figures")
    p.add_argument("--cv-by", choices=("case", "study"), default="study",
                   help="leave out one study (default: the accuracy quoted) or one case at a time")
    p.add_argument("--refit", action="store_true",
                   help="rerun every fit from the cases and rewrite the fitted table first")
    p.set_defaults(func=cmd_validate)
