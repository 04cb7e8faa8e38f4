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


SIGNED = {"free_tib"}
"""Figures the contract lets go below zero: a vSAN cluster's free space is negative where its
data does not fit (the RAID 1 and one-host-fewer scenarios of ``vsan-esa``)."""


def _numbers(obj: Any) -> list[float]:
    if isinstance(obj, bool) or obj is None or isinstance(obj, str):
        return []
    if isinstance(obj, (int, float)):
        return [float(obj)]
    if isinstance(obj, dict):
        return [x for k, v in obj.items() for x in _numbers(v)
                if k not in SIGNED or not isinstance(v, (int, float))]
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


def _vsan(scenario: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The vsan-esa example's one vSAN cluster and the consolidation, in ``scenario``."""
    doc = evaluate(examples.load("vsan-esa"), scenario).to_dict()
    [cluster] = doc["vsan"]
    return cluster, doc["summary"]["consolidation"]


def test_the_vsan_example_is_six_current_hosts_whose_storage_sets_the_count() -> None:
    """Six R770s of the catalogue on ESA RAID 5: vSAN storage sets the six hosts (five hold
    the CPU and memory with HA's spare), and each scenario moves what it should."""
    from models.document.catalogue import servers  # noqa: PLC0415

    design = examples.load("vsan-esa")
    hosts = design.of_kind("host")
    r770 = servers.find("dell-r770")
    assert r770 is not None and len(hosts) == 6
    assert {str(h.get("cpu_model")) for h in hosts} == {"Intel Xeon 6530P"}
    assert "Intel Xeon 6530P" in r770.processor_results  # SPEC ran the R770 with it
    assert any(m.total_gb == 1024 for m in r770.memory_configs)  # and with 1 TB
    assert all(h.get("memory_gb") == 1024 and h.get("vsan.devices") == 6 for h in hosts)
    assert {n.get("speed_gbps") for n in design.of_kind("nic")} == {25.0}  # ESA needs 25 GbE
    base, cons = _vsan("base")
    assert (base["architecture"], base["policy"], base["hosts"]) == ("esa", "raid5", 6)
    assert cons["binding"] == "storage" and cons["hosts_needed"] == 6
    assert 0 < base["free_tib"] < base["usable_tib"]
    raid1, cons = _vsan("RAID 1")
    assert raid1["free_tib"] < 0 and cons["hosts_needed"] == 7
    raid6, _ = _vsan("RAID 6")
    assert raid6["min_hosts"] == 6 and 0 < raid6["free_tib"] < base["free_tib"]
    squeezed, cons = _vsan("compression 1.5")
    assert squeezed["free_tib"] > base["free_tib"] and cons["binding"] == "memory"
    osa, _ = _vsan("OSA, two disk groups")
    assert osa["architecture"] == "osa" and osa["min_hosts"] == 4
    more, _ = _vsan("one host more")
    assert more["hosts"] == 7 and more["free_tib"] > base["free_tib"]
    fewer, cons = _vsan("one host fewer")
    assert fewer["hosts"] == 5 and fewer["free_tib"] < 0 and cons["hosts_needed"] == 6
    lic = evaluate(design, "vSphere Foundation licence").sections.capacity
    assert lic is not None and lic.licensing is not None
    assert (lic.licensing.vsan_addon_tib or 0) > 0  # VVF's 0.25 TiB a core falls short
