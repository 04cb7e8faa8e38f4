"""An application in its own terms: a closed loop of users whose transactions spend CPU and
I/Os; throughput, IOPS, response, host CPU and network load follow (models/subsystems/storage.py,
issue 16)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.core.prediction import Prediction
from models.document.design import Component, Design, Link
from models.engine.evaluation import evaluate


def app_design(users: int = 16, think_ms: float = 0.0, cpu_ms: float = 2.0, ios: float = 4.0,
               vcpus: int = 4, n_vms: int = 1, **extra: Any) -> Design:
    d = Design(name="application")
    d.components.append(Component("h1", "host", props={"sockets": 2, "cores_per_socket": 8,
                                                       "ghz": 2.4, "hyperthreading": False}))
    d.components.append(Component("n1", "nic", props={"speed_gbps": 10.0}))
    d.links.append(Link("n1", "h1", "installed_in"))
    d.components.append(Component("a1", "storage_array", props={"media": "ssd", "disks": 8}))
    d.links.append(Link("h1", "a1", "storage"))
    for i in range(n_vms):
        d.components.append(Component(f"v{i}", "vm", props={
            "vcpus": vcpus, "workload.profile": "oltp", "workload.app_users": users,
            "workload.app_think_ms": think_ms, "workload.app_cpu_ms": cpu_ms,
            "workload.app_ios_per_txn": ios, **extra}))
        d.links.append(Link(f"v{i}", "h1", "runs_on"))
        d.links.append(Link(f"v{i}", "a1", "disk_on"))
    return d


def _txn(p: Prediction) -> float:
    return float(p.vms.txn_per_s[0])


def test_littles_law_holds_for_the_users() -> None:
    p = evaluate(app_design(users=24, think_ms=5.0))
    x, r = _txn(p), float(p.vms.txn_response_ms[0])
    assert pytest.approx(x * (r + 5.0) / 1000.0, rel=1e-6) == 24
    assert float(p.vms.iops[0]) == pytest.approx(4.0 * x)


def test_throughput_saturates_at_the_vcpus() -> None:
    xs = [_txn(evaluate(app_design(users=n))) for n in (1, 2, 4, 8, 32, 256)]
    assert all(a < b for a, b in itertools.pairwise(xs))
    # four vCPUs at 2 ms a transaction (plus a few us of I/O path per I/O): under 2000/s
    assert xs[-1] < 2000.0 and xs[-1] > 0.95 * 2000.0 / (1 + 4 * 0.03 / 2.0)


def test_think_time_lowers_throughput_and_not_response() -> None:
    fast, slow = evaluate(app_design(users=2)), evaluate(app_design(users=2, think_ms=100.0))
    assert _txn(slow) < _txn(fast)
    assert float(slow.vms.txn_response_ms[0]) <= float(fast.vms.txn_response_ms[0]) + 1e-9


def test_host_cpu_and_network_follow_the_transactions() -> None:
    extra: dict[str, Any] = {"workload.app_rx_kb_per_txn": 10.0,
                             "workload.app_tx_kb_per_txn": 30.0}
    p = evaluate(app_design(users=8, **extra))
    x = _txn(p)
    assert float(p.vms.net_gbps[0]) == pytest.approx(x * 40.0 * 8e-6, rel=1e-6)
    assert float(p.vms.cpu_util[0]) == pytest.approx(x * 2.0 / 1000.0 / 4.0, rel=1e-3)
    assert p.summary_dict()["total_txn_per_s"] == pytest.approx(x)
    doc = p.to_dict()["vms"][0]
    assert doc["txn_per_s"] == pytest.approx(x) and doc["rx_pps"] > 0


def test_vms_without_an_application_report_no_transactions() -> None:
    p = evaluate(app_design(users=0))
    assert np.isnan(p.vms.txn_per_s).all()
    assert p.to_dict()["vms"][0]["txn_per_s"] is None


@settings(max_examples=25, deadline=None)
@given(users=st.integers(1, 200), think=st.floats(0.0, 500.0), cpu=st.floats(0.05, 50.0),
       ios=st.floats(0.5, 40.0), vcpus=st.integers(1, 8))
def test_more_users_never_lower_throughput(users: int, think: float, cpu: float, ios: float,
                                           vcpus: int) -> None:
    a = _txn(evaluate(app_design(users, think, cpu, ios, vcpus)))
    b = _txn(evaluate(app_design(users + 1, think, cpu, ios, vcpus)))
    assert b >= a * (1 - 1e-6)
    assert a <= vcpus * 1000.0 / cpu * (1 + 1e-6)  # the vCPUs bound it


def test_max_users_is_the_closed_loops_asymptote_at_the_response_ceiling() -> None:
    """Users the VM carries before its mean response reaches policy.p95_ms_max / 3: the
    bottleneck's rate x (ceiling + think); thinking longer carries more users, and running
    that many users puts the response near the ceiling."""
    d = app_design(users=4, think_ms=50.0)
    d.policy["p95_ms_max"] = 300.0
    p = evaluate(d)
    users = float(p.vms.max_users[0])
    x_max = 4.0 * 1000.0 / 2.0  # four vCPUs at 2 ms a transaction bind first
    assert users == pytest.approx(x_max * (0.3 / 3.0 + 0.05), rel=0.02)
    more = app_design(users=4, think_ms=500.0)
    more.policy["p95_ms_max"] = 300.0
    assert float(evaluate(more).vms.max_users[0]) > users
    at = app_design(users=round(users), think_ms=50.0)
    at.policy["p95_ms_max"] = 300.0
    resp = float(evaluate(at).vms.txn_response_ms[0])
    assert 0.6 * 100.0 < resp < 1.2 * 100.0
    assert p.to_dict()["vms"][0]["max_users"] == pytest.approx(users)
