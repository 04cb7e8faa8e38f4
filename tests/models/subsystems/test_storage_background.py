"""A host's background I/O (issue 36): open-loop load on the arrays the host reaches, split
by its VMs' I/O there, else evenly; counted in the arrays' figures and the total IOPS."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from models.core.prediction import Prediction
from models.document.design import Component, Design, Link
from models.engine.evaluation import evaluate


def estate(host: dict[str, Any] | None = None, io: float | None = 400.0,
           links: bool = True) -> Design:
    """Host h1 reaches arrays a1 and a2 and runs v1 (I/O on a1); host h2 reaches a2 alone and
    runs v2 there."""
    d = Design(name="background")
    d.components += [
        Component("h1", "host", "esx01", props=dict(host or {})),
        Component("h2", "host", "esx02"),
        Component("a1", "storage_array", "fast", props={"media": "ssd", "disks": 4}),
        Component("a2", "storage_array", "slow", props={"media": "hdd10k", "disks": 24}),
        Component("v1", "vm", "db01", props={"workload.profile": "measured",
                                             "workload.io_iops": io}),
        Component("v2", "vm", "db02", props={"workload.profile": "measured",
                                             "workload.io_iops": 300.0}),
    ]
    d.links += [Link("v1", "h1", "runs_on"), Link("v2", "h2", "runs_on"),
                Link("v1", "a1", "disk_on"), Link("v2", "a2", "disk_on")]
    if links:
        d.links += [Link("h1", "a1", "storage"), Link("h1", "a2", "storage"),
                    Link("h2", "a2", "storage")]
    return d


def _arrays(p: Prediction) -> dict[str, tuple[float, float, float]]:
    return {aid: (float(p.arrays.iops[i]), float(p.arrays.latency_ms[i]),
                  float(p.arrays.util[i])) for i, aid in enumerate(p.arrays.ids)}


def test_no_background_changes_nothing() -> None:
    p = evaluate(estate())
    assert p.total_iops == pytest.approx(700.0)
    assert p.hosts.background_iops.tolist() == [0.0, 0.0]
    assert p.to_dict()["hosts"][0]["background_iops"] == 0.0


def test_background_goes_where_the_hosts_vms_do_their_io() -> None:
    base = _arrays(evaluate(estate()))
    p = evaluate(estate({"background.iops": 2000.0, "background.read_pct": 60.0,
                         "background.io_kb": 16.0}))
    got = _arrays(p)
    assert got["a1"][0] == pytest.approx(base["a1"][0] + 2000.0)  # v1's array, not a2
    assert got["a2"] == pytest.approx(base["a2"])
    assert got["a1"][2] > base["a1"][2] and got["a1"][1] > base["a1"][1]
    assert p.total_iops == pytest.approx(2700.0)
    assert p.hosts.background_iops.tolist() == pytest.approx([2000.0, 0.0])
    # the VM that shares the array slows down; the VMs' own IOPS are their own
    assert p.vms.latency_ms[0] > evaluate(estate()).vms.latency_ms[0]
    assert np.nansum(p.vms.iops) == pytest.approx(700.0)


def test_without_vm_io_evenly_over_its_storage_links_else_its_vms_arrays() -> None:
    base = evaluate(estate(io=None))
    assert np.isnan(base.arrays.iops[0])  # v1's I/O is not measured: nor is its array's
    p = evaluate(estate({"background.iops": 1000.0}, io=None))
    assert p.arrays.iops.tolist() == pytest.approx([500.0, 300.0 + 500.0])  # now it is
    p = evaluate(estate({"background.iops": 1000.0}, io=None, links=False))
    assert p.arrays.iops.tolist() == pytest.approx([1000.0, 300.0])  # v1's disk


def test_background_past_its_arrays_is_capped_and_a_host_without_one_is_said() -> None:
    p = evaluate(estate({"background.iops": 5.0e7}))
    assert p.arrays.util[0] >= 0.97 and p.hosts.background_iops[0] < 5.0e7
    assert any("background I/O of host esx01 offers more than its arrays can serve" in w
               for w in p.warnings)
    d = estate()
    d.components.append(Component("h3", "host", "esx03", props={"background.iops": 50.0}))
    p = evaluate(d)
    assert any("background I/O of host esx03 reaches no array" in w for w in p.warnings)
    assert p.total_iops == pytest.approx(700.0)


def test_a_vsan_datastore_serves_its_hosts_background() -> None:
    from models.io.files import load_design  # noqa: PLC0415
    from tests.conftest import ROOT  # noqa: PLC0415

    d = load_design(ROOT / "resources" / "examples" / "stretched-vsan.json")
    base = evaluate(d)
    host = d.of_kind("host")[0]
    host.props["background.iops"] = 2000.0
    p = evaluate(d)
    assert p.hosts.background_iops[0] == pytest.approx(2000.0)
    assert p.arrays.util[0] > base.arrays.util[0]
    assert p.mean_latency_ms > base.mean_latency_ms
