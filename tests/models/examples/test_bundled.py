"""Every bundled example evaluates to a contract-valid prediction (spec: prediction JSON)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from models.engine.evaluation import evaluate
from models.examples import bundled as examples

VM_KEYS = {"id", "name", "host", "iops", "storage_mbps", "latency_ms", "p95_latency_ms",
           "net_gbps", "cpu_util", "cpu_cost_per_kiops", "ft", "bound_by"}
HOST_KEYS = {"id", "cpu_util", "memory_util", "vms", "dense_mode_active", "ft_logging_mbps",
             "nics"}
SUMMARY_KEYS = {"total_iops", "mean_latency_ms", "p95_latency_ms", "ft_logging_mbps",
                "consolidation"}
CONSOLIDATION_KEYS = {"vms_per_host", "max_vms_per_host_by_cpu", "max_vms_per_host_by_p95",
                      "binding", "hosts_needed"}


def _numbers(obj: Any) -> list[float]:
    if isinstance(obj, bool) or obj is None or isinstance(obj, str):
        return []
    if isinstance(obj, (int, float)):
        return [float(obj)]
    if isinstance(obj, dict):
        return [x for v in obj.values() for x in _numbers(v)]
    if isinstance(obj, list):
        return [x for v in obj for x in _numbers(v)]
    return []


def _cases() -> list[tuple[str, str]]:
    out = []
    for name in examples.names():
        design = examples.load(name)
        out.append((name, "base"))
        out.extend((name, s.name) for s in design.scenarios)
    return out


def test_there_are_at_least_five_examples() -> None:
    assert len(examples.names()) >= 5


@pytest.mark.parametrize(("name", "scenario"), _cases())
def test_example_prediction_is_contract_valid(name: str, scenario: str) -> None:
    design = examples.load(name)
    doc = evaluate(design, scenario).to_dict()
    text = json.dumps(doc, allow_nan=False)  # raises on NaN/inf
    assert json.loads(text) == doc
    assert doc["format"] == "headroom-prediction" and doc["scenario"] == scenario
    assert len(doc["vms"]) == len(design.of_kind("vm"))
    for vm in doc["vms"]:
        assert set(vm) >= VM_KEYS
        if vm["ft"] is not None:
            assert set(vm["ft"]) == {"logging_mbps", "latency_add_ms", "throughput_ratio"}
            assert vm["ft"]["throughput_ratio"] <= 1.0 + 1e-9
    for host in doc["hosts"]:
        assert set(host) >= HOST_KEYS
    assert set(doc["summary"]) >= SUMMARY_KEYS
    assert set(doc["summary"]["consolidation"]) >= CONSOLIDATION_KEYS
    for b in doc["bottlenecks"]:
        assert {"component", "resource", "util", "explanation", "source"} <= set(b)
    nums = _numbers(doc)
    assert all(math.isfinite(x) and x >= 0 for x in nums)


@pytest.mark.parametrize("name", examples.names())
def test_example_does_something(name: str) -> None:
    """An example that predicts nothing is a broken first impression."""
    s = evaluate(examples.load(name)).summary_dict()
    assert s["total_iops"] > 0 or s["ft_logging_mbps"] > 0 or \
        s["consolidation"]["vms_per_host"] > 0


def test_web_farm_reports_response_time_not_storage_latency() -> None:
    p = evaluate(examples.load("dense-web-farm"))
    s = p.summary_dict()
    assert p.vms.request_driven.all()
    assert s["total_iops"] == 0 and s["mean_latency_ms"] == 0
    assert 0 < s["mean_response_ms"] <= s["p95_response_ms"]
    assert s["p95_response_ms"] == pytest.approx(float(p.vms.p95_latency_ms.max()))
