"""The figures a knob curve shows for each kind of design, and their breaks at saturation."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from models.engine.evaluation import evaluate
from models.engine.metrics import (
    falling,
    flat_range,
    focus,
    latencies,
    series,
    throughput_of,
    time_of,
)
from models.engine.sweep import sweep
from models.examples import bundled as examples
from models.io.importers.rvtools import import_rvtools
from tests.estates import estate, write_xlsx


def test_a_web_farm_plots_response_time_a_storage_design_latency() -> None:
    web = evaluate(examples.load("dense-web-farm"))
    assert latencies(web) == (web.mean_response_ms, web.p95_response_ms)
    assert latencies(web)[0] > 0
    io = evaluate(examples.load("vaio-scaling"))
    assert latencies(io) == (io.mean_latency_ms, io.p95_latency_ms)
    assert time_of(io)[:2] == ("time (ms)", ("mean", "p95"))
    assert throughput_of(io)[0] == "total IOPS"
    assert throughput_of(None)[0] == "total IOPS"  # nothing evaluated yet: the default


def test_network_and_library_designs_plot_their_own_work() -> None:
    net = evaluate(examples.load("file-transfer-10g"))
    label, figure = throughput_of(net)
    assert label == "net Gbit/s" and figure(net) == net.total_net_gbps > 0
    lib = evaluate(examples.load("content-library"))
    label, names, times = time_of(lib)
    assert (label, names) == ("job (min)", ("mean", "slowest"))
    assert times(lib) == (lib.library_mean_s / 60.0, lib.library_slowest_s / 60.0)
    label, figure = throughput_of(lib)
    assert label == "MB/s moved" and figure(lib) == lib.library_mb_per_s


def test_flat_range_starts_at_zero_only_for_a_flat_curve() -> None:
    assert flat_range(np.array([1.0, 2.0])) is None
    assert flat_range(np.array([0.0, 0.0])) == (0.0, 1.0)
    assert flat_range(np.array([np.nan, np.nan])) is None
    assert flat_range(np.array([155000.0, 155000.01])) == (0.0, 1.2 * 155000.01)


def test_past_saturation_neither_time_nor_throughput_has_a_value() -> None:
    design = examples.load("dense-web-farm")
    preds = sweep(design, None, "vm.workload.req_per_s", [5.0, 50.0, 2000.0])
    _, _, times = time_of(preds[0])
    _, through = throughput_of(preds[0])
    s = series(preds, times, through)
    assert s.has_time and s.times.shape == (3, 2)
    assert math.isfinite(s.mean[0]) and math.isnan(s.mean[-1]) and math.isnan(s.worst[-1])
    assert s.throughput[0] > 0 and math.isnan(s.throughput[-1])
    assert s.saturated.tolist() == [False, True, True] and preds[-1].response_saturated
    assert not preds[0].response_saturated


def test_a_design_without_work_has_no_time_to_plot() -> None:
    net = examples.load("file-transfer-10g")
    preds = sweep(net, None, "vm.workload.net_msg_bytes", [64, 65536])
    _, _, times = time_of(preds[0])
    _, through = throughput_of(preds[0])
    s = series(preds, times, through)
    assert not s.has_time and (s.throughput > 0).all()


def test_an_estate_without_io_plots_its_hosts_cpu_and_the_hosts_it_needs(
        tmp_path: Path) -> None:
    """An RVTools estate measures CPU and memory only: the curve of cores per socket shows the
    hosts' mean and busiest CPU falling and the hosts needed with them (not a flat 0 IOPS)."""
    design, _ = import_rvtools(write_xlsx(tmp_path / "e.xlsx", estate(6, 60, seed=3).sheets))
    p = evaluate(design)
    label, names, times = time_of(p)
    assert (label, names) == ("host CPU (%)", ("mean host", "busiest host"))
    mean, busiest = times(p)
    assert 0 < mean <= busiest <= 100
    assert mean == pytest.approx(float(p.hosts.cpu_util.mean()) * 100)
    label, through = throughput_of(p)
    assert label == "hosts needed" and through(p) == p.consolidation.hosts_needed
    preds = sweep(design, None, "host.cores_per_socket", [2, 8, 32])
    s = series(preds, times, through)
    assert s.has_time and falling(s.mean) and s.mean[0] > s.mean[-1]
    assert s.throughput[0] > s.throughput[-1] >= 1  # HA off in this estate: no reserve
    io = evaluate(examples.load("vaio-scaling"))  # a design with I/O keeps its latencies
    assert time_of(io)[0] == "time (ms)" and throughput_of(io)[0] == "total IOPS"


def test_falling_reads_the_finite_ends_of_a_curve() -> None:
    assert falling(np.array([3.0, np.nan, 1.0])) and not falling(np.array([1.0, 3.0]))
    assert not falling(np.array([np.nan, 2.0]))


def test_a_curve_of_hosts_needed_is_drawn_round_todays_count() -> None:
    ys = np.array([600.0, 120.0, 40.0, 25.0, 23.0, 22.0, 22.0])
    lo, hi = focus(ys, 23.0) or (0.0, 0.0)
    assert hi == 46.0 and 0 < lo < 22.0  # 22-46: the counts that matter, not 0-600
    assert focus(np.array([30.0, 25.0, 23.0]), 23.0) is None  # all of it reads: auto-range
    assert focus(ys, math.nan) is None and focus(np.array([math.nan]), 23.0) is None
