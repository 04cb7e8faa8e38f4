"""The figures a knob curve shows for each kind of design, and their breaks at saturation."""

from __future__ import annotations

import math

import numpy as np

from models.engine.evaluation import evaluate
from models.engine.metrics import (
    flat_range,
    latencies,
    saturated_to_nan,
    series,
    throughput_of,
    time_of,
)
from models.engine.sweep import sweep
from models.examples import bundled as examples
from models.subsystems.consolidation import SATURATED_MS


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
    assert np.isnan(saturated_to_nan(np.array([1.0, SATURATED_MS]))).tolist() == [False, True]
    design = examples.load("dense-web-farm")
    preds = sweep(design, None, "vm.workload.req_per_s", [5.0, 50.0, 2000.0])
    _, _, times = time_of(preds[0])
    _, through = throughput_of(preds[0])
    s = series(preds, times, through)
    assert s.has_time and s.times.shape == (3, 2)
    assert math.isfinite(s.mean[0]) and math.isnan(s.mean[-1]) and math.isnan(s.worst[-1])
    assert s.throughput[0] > 0 and math.isnan(s.throughput[-1])
    assert s.times[-1, 0] >= SATURATED_MS  # the models' own figure stays as it was


def test_a_design_without_work_has_no_time_to_plot() -> None:
    net = examples.load("file-transfer-10g")
    preds = sweep(net, None, "vm.workload.net_msg_bytes", [64, 65536])
    _, _, times = time_of(preds[0])
    _, through = throughput_of(preds[0])
    s = series(preds, times, through)
    assert not s.has_time and (s.throughput > 0).all()
