"""``make bench``: importing a generated 10,000-VM RVTools export, and how well the baseline
matches what generated estates of several sizes recorded (host CPU and memory residuals)."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from models.analysis import baseline
from models.io.importers.rvtools import import_rvtools
from tests.estates import estate, write_xlsx

ESTATES = ((2, 5), (6, 60), (12, 211), (34, 805), (90, 2400))
"""(hosts, VMs) of the estates whose residuals are recorded: the sizes of the issue's real
exports (2 to 34 hosts, 5 to 805 VMs) and a larger one."""


def bench_rvtools_import(n_vms: int = 10_000, n_hosts: int = 250,
                         repeat: int = 3) -> dict[str, Any]:
    """Seconds to import a generated RVTools 4.x export of ``n_vms`` VMs (every sheet: vInfo,
    vCPU, vMemory, vDisk, vPartition, ...), reading through the calibrated baseline."""
    with tempfile.TemporaryDirectory() as tmp:
        path = write_xlsx(Path(tmp) / "big.xlsx", estate(n_hosts, n_vms, seed=42).sheets)
        size = path.stat().st_size
        times = []
        report = None
        for _ in range(repeat):
            t0 = time.perf_counter()
            _, report = import_rvtools(path)
            times.append(time.perf_counter() - t0)
    assert report is not None
    return {"vms": n_vms, "hosts": n_hosts, "file_mb": round(size / 2**20, 1),
            "imported_vms": report.counts["vms"], "median_s": statistics.median(times),
            "min_s": min(times), "runs": repeat}


DEFECTS: dict[str, dict[str, Any]] = {
    "23_hosts_571_vms_filtered_busy_ht": {"filtered": 0.1, "ht_charge": 1.0, "load": 3.0},
    "23_hosts_571_vms_filtered_25pct": {"filtered": 0.25},
    "23_hosts_571_vms_no_vcpu_row_20pct": {"unmeasured": 0.2, "filtered": 0.1},
}
"""What real exports do to the record (issue 22; :func:`tests.estates.estate`)."""


def baseline_residuals() -> dict[str, Any]:
    """Host CPU and memory residuals (predicted - recorded, points) of the calibrated baseline
    on generated estates, per estate and header generation, with the hosts' background load
    (recorded, not explained by their VMs), the partial hosts named and the hosts whose VMs
    were scaled to their record; and on estates with the defects real exports have."""
    out: dict[str, Any] = {}
    runs: list[tuple[str, dict[str, Any]]] = [
        (f"{h}_hosts_{v}_vms_{gen}", {"n_hosts": h, "n_vms": v, "seed": h, "generation": gen})
        for h, v in ESTATES for gen in ("4x", "3x")]
    runs += [(k, {"n_hosts": 23, "n_vms": 571, "seed": 22, **kw}) for k, kw in DEFECTS.items()]
    with tempfile.TemporaryDirectory() as tmp:
        for key, kw in runs:
            e = estate(**kw)
            design, _ = import_rvtools(write_xlsx(Path(tmp) / f"{key}.xlsx", e.sheets))
            check = baseline.check(design)
            out[key] = {"cpu": check.stats("cpu"), "memory": check.stats("memory"),
                        "within_target": check.within_target,
                        "background": {"cpu": check.background_stats("cpu"),
                                       "memory": check.background_stats("memory")},
                        "partial_hosts": len(check.partial),
                        "partial_hosts_in_the_estate": len(e.truth.partial),
                        "scaled_hosts": len(check.scaled)}
    return out
