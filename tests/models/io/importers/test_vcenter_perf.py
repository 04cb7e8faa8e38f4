"""Reducing one VM's PerformanceManager series to its measured demand (no vCenter needed)."""

from __future__ import annotations

import numpy as np
import pytest

from models.io.importers.vcenter_perf import _vm

SOURCE = "vCenter {counter} p95 over 1 days (5-minute samples to 2026-11-25)"


def _series(n_reads: int, n_writes: int) -> dict[str, np.ndarray]:
    return {"virtualDisk.numberReadAveraged.average": np.full((2, n_reads), 60.0),
            "virtualDisk.numberWriteAveraged.average": np.full((2, n_writes), 20.0),
            "virtualDisk.totalReadLatency.average": np.full((2, n_reads), 4.0),
            "virtualDisk.totalWriteLatency.average": np.full((2, n_writes), 2.0)}


@pytest.mark.parametrize(("n_reads", "n_writes"), [(288, 288), (289, 288), (288, 287)])
def test_io_is_measured_when_one_counter_has_a_sample_more(n_reads: int, n_writes: int) -> None:
    """A query that straddles a sample boundary returns one counter a sample longer than
    another: the VM's I/O is still measured, each rate with its own interval's latency."""
    m = _vm(_series(n_reads, n_writes), "p95", SOURCE)
    assert m.iops == pytest.approx(160.0)
    assert m.read_pct == pytest.approx(75.0)
    assert m.latency_ms == pytest.approx((120 * 4.0 + 40 * 2.0) / 160.0)
    assert m.sources["io"].startswith("vCenter virtualDisk.numberRead/WriteAveraged p95")


def test_io_without_write_counters_is_not_measured() -> None:
    series = _series(288, 288)
    del series["virtualDisk.numberWriteAveraged.average"]
    m = _vm(series, "p95", SOURCE)
    assert m.iops is None and "io" not in m.sources
