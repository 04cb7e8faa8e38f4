"""Reducing one VM's PerformanceManager series to its measured demand (no vCenter needed)."""

from __future__ import annotations

import numpy as np
import pytest

from models.io.importers.vcenter_perf import _vm, host_io

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


def test_a_hosts_datastore_counters_are_its_recorded_io() -> None:
    series = {"datastore.numberReadAveraged.average": np.array([[300.0, 100.0], [60.0, 20.0]]),
              "datastore.numberWriteAveraged.average": np.array([[40.0, 40.0], [0.0, 0.0]]),
              "datastore.read.average": np.array([[3000.0, 1000.0], [600.0, 200.0]]),
              "datastore.write.average": np.array([[800.0, 800.0], [0.0, 0.0]])}
    iops, read_pct, io_kb = host_io(series, "max")
    assert iops == pytest.approx(400.0)  # 300 + 60 + 40 at the first sample
    assert read_pct == pytest.approx(480.0 / 560.0 * 100.0)
    assert io_kb == pytest.approx(6400.0 / 560.0)
    assert host_io({}, "max") == (None, None, None)


def test_latency_is_kept_as_the_mean_over_its_ios_and_as_the_statistic() -> None:
    series = _series(288, 288)
    series["virtualDisk.totalReadLatency.average"][:, :20] = 40.0  # slow reads, 7 % of samples
    m = _vm(series, "p95", SOURCE)
    assert m.latency_ms == pytest.approx((120 * (4.0 * 268 + 40.0 * 20) / 288 + 40 * 2.0)
                                         / 160.0)
    assert m.latency_peak_ms == pytest.approx((120 * 40.0 + 40 * 2.0) / 160.0)
    assert _vm(series, "mean", SOURCE).latency_peak_ms is None
