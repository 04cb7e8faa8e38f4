"""The one KPI table: each figure cites its studies, reads the prediction, and is None (not 0)
where the design has nothing to measure."""

from __future__ import annotations

import numpy as np
import pytest

from models.analysis import OUTPUTS
from models.core import uncertainty
from models.document.design import Component, Design, Link
from models.document.knobs import CAPACITY
from models.document.numbers import NONE, NOT_MEASURED
from models.document.studies import GUIDES, STUDIES
from models.engine.evaluation import evaluate
from models.engine.kpis import (
    KPI_BY_KEY,
    KPIS,
    LIMITS,
    SUMMARY_FIGURES,
    busiest,
    busiest_wan,
    limit_text,
    mean_pct,
    slowest_library_job,
)
from models.examples import bundled as examples


def test_every_kpi_cites_known_studies_and_says_what_it_is() -> None:
    """A study, a product guide whose rules the model implements (HA admission control for
    cluster headroom), or Headroom's own arithmetic (storage capacity)."""
    assert len(KPI_BY_KEY) == len(KPIS)
    known = {s.title for s in STUDIES + GUIDES} | {CAPACITY}
    for kpi in KPIS:
        assert kpi.title and kpi.doc
        cited = kpi.source.split("; ")
        # a study, a product document whose rule the figure follows (licensing, HA), or
        # Headroom's own arithmetic
        assert cited and set(cited) <= known, kpi.key


def test_sensitivity_outputs_are_named_by_their_kpis() -> None:
    assert set(OUTPUTS) <= set(KPI_BY_KEY)


def test_summary_figures_name_every_banded_output() -> None:
    assert set(SUMMARY_FIGURES) == set(uncertainty.SUMMARY_KEYS)
    assert all(label and unit for label, unit in SUMMARY_FIGURES.values())


def test_a_storage_design_measures_storage_not_requests() -> None:
    p = evaluate(examples.load("vaio-scaling"))
    values = {k.key: k.value(p) for k in KPIS}
    assert values["total_iops"] == pytest.approx(p.total_iops) and p.total_iops > 0
    assert values["mean_latency_ms"] == pytest.approx(p.mean_latency_ms)
    assert values["p95_response_ms"] is None and values["library_min"] is None
    assert values["ft_logging_mbps"] is None  # no FT VMs: nothing, not 0 Mbit/s
    absent = {k.key for k in KPIS if k.absent and values[k.key] is None}
    assert "p95_response_ms" in absent and "total_iops" not in absent


def test_a_web_farm_has_no_storage_figures() -> None:
    p = evaluate(examples.load("dense-web-farm"))
    for key in ("total_iops", "mean_latency_ms", "p95_latency_ms", "cpu_per_kiops"):
        assert KPI_BY_KEY[key].value(p) is None, key
        assert KPI_BY_KEY[key].absent == "no storage I/O"
    assert KPI_BY_KEY["p95_response_ms"].value(p) == pytest.approx(p.p95_response_ms)
    nic = busiest(p, "nic")
    assert nic is not None and all(nic.util >= r.util for r in p.resources
                                   if r.resource == "nic")


def test_wan_and_library_figures_pick_the_busiest_and_slowest() -> None:
    p = evaluate(examples.load("content-library"))
    job = slowest_library_job(p)
    assert job is not None
    assert KPI_BY_KEY["library_min"].value(p) == pytest.approx((job.completion_s or 0.0) / 60)
    wan = busiest_wan(p)  # the library's "WAN" stage counts as an inter-site link too
    assert wan is not None and wan.resource == "WAN"
    assert KPI_BY_KEY["wan_pct"].value(p) == pytest.approx(100.0 * wan.util)
    io = evaluate(examples.load("vaio-scaling"))
    assert slowest_library_job(io) is None and KPI_BY_KEY["wan_pct"].value(io) is None


def test_host_figures_average_the_hosts_something_measured() -> None:
    """A host whose CPU nothing measured is NaN ("not measured"): the mean leaves it out,
    and is None when no host was measured, never 0."""
    assert mean_pct(np.array([0.2, np.nan, 0.4])) == pytest.approx(30.0)
    assert mean_pct(np.array([np.nan, np.nan])) is None
    assert mean_pct(np.zeros(0)) is None
def test_every_kpi_of_every_example_reads_in_one_format() -> None:
    """The same figure reads the same in a tile, a table and a range: no '75k' beside
    '7,263', no '0.0091 Gbit/s'."""
    for name in examples.names():
        p = evaluate(examples.load(name))
        for kpi in KPIS:
            text = kpi.figure(p)
            assert "k " not in text and not text.startswith("0.00"), (name, kpi.key, text)


def test_binding_limits_read_in_words_on_the_kpi_table() -> None:
    """The dashboard, the report and the command line read a binding limit from one table:
    'FT secondary', never 'ft'."""
    assert limit_text("ft") == "FT secondary"
    assert limit_text("ft", phrase=True).startswith("the FT secondary")
    assert limit_text("cpu") == "CPU" and limit_text("cpu", phrase=True) == "host CPU"
    assert limit_text("cpu+memory") == "CPU and memory"
    assert limit_text(None) == "none" and limit_text(None, phrase=True) == "nothing"
    assert limit_text("one host") == "one host"  # a goal seek's own words stay
    ft = evaluate(examples.load("ft-netperf"))
    assert ft.consolidation.binding == "ft"
    assert KPI_BY_KEY["hosts_needed"].note(ft) == "binding limit: FT secondary"


def test_every_limit_the_models_report_has_words() -> None:
    """Each binding the consolidation models, the cluster capacity, a goal seek's policy
    checks and a host failure can report is in :data:`LIMITS`."""
    from models.analysis.common import policy_breaches  # noqa: PLC0415

    given = {"cpu", "p95", "memory", "ft", "restart"}  # consolidation, capacity, failure
    for name in examples.names():
        p = evaluate(examples.load(name))
        given |= {b.resource for b in policy_breaches(p, {"cpu_util_max": 0.0,
                                                            "p95_ms_max": 0.0})}
        if p.consolidation.binding:
            given.add(p.consolidation.binding)
    assert given <= set(LIMITS), given - set(LIMITS)


def test_each_kpi_says_its_own_detail_line() -> None:
    """The line under a figure comes from its KPI (one detail function each), names the
    components through the caller's function and says what is missing when nothing is."""
    vaio = evaluate(examples.load("vaio-scaling"))
    web = evaluate(examples.load("dense-web-farm"))
    ft = evaluate(examples.load("ft-netperf"))
    assert KPI_BY_KEY["total_iops"].note(vaio) == f"{len(vaio.vms.ids)} VMs doing I/O"
    assert KPI_BY_KEY["mean_latency_ms"].note(vaio) == \
        f"highest VM p95 {KPI_BY_KEY['p95_latency_ms'].figure(vaio)}"
    assert KPI_BY_KEY["total_iops"].note(web) == "no storage I/O"
    assert KPI_BY_KEY["ft_logging_mbps"].note(ft) == "1 FT-protected VM"
    assert KPI_BY_KEY["ft_logging_mbps"].note(web) == "no FT-protected VMs"
    assert KPI_BY_KEY["p95_response_ms"].note(web).startswith("mean ")
    assert KPI_BY_KEY["network_gbps"].note(web, lambda cid: f"<{cid}>").startswith(
        "busiest NIC <")
    by_cpu = ft.consolidation.max_vms_per_host_by_cpu
    assert KPI_BY_KEY["vms_per_host"].note(ft) == f"max {by_cpu} by CPU"  # no "– by p95"
    assert KPI_BY_KEY["hosts_needed"].note(web) == "binding limit: CPU"
    assert KPI_BY_KEY["total_iops"].note(None) == ""


def capacity_estate(capacity_gb: float | None) -> Design:
    """Two clusters (N+1) of two hosts, VMs using disk space on one array of
    ``capacity_gb`` (None: the import had no datastore capacity)."""
    comps = [Component("a1", "storage_array", props={"used_gb": 600.0,
                                                     "provisioned_gb": 900.0,
                                                     "capacity_gb": capacity_gb})]
    links = []
    for k, (name, vms) in enumerate((("Gold", 10), ("Silver", 40))):
        comps.append(Component(f"k{k}", "cluster", name, props={
            "ha_enabled": True, "admission_control": "failover_hosts", "failover_hosts": 1}))
        for h in range(2):
            hid = f"h{k}{h}"
            comps.append(Component(hid, "host", props={"sockets": 2, "cores_per_socket": 8,
                                                       "memory_gb": 256.0}))
            links += [Link(hid, f"k{k}", "in_cluster"), Link(hid, "a1", "storage")]
        for v in range(vms):
            comps.append(Component(f"v{k}_{v}", "vm", props={
                "vcpus": 4, "memory_gb": 16.0, "workload.profile": "measured",
                "workload.cpu_pct": 20.0, "disk.used_gb": 10.0}))
            links += [Link(f"v{k}_{v}", f"h{k}{v % 2}", "runs_on"),
                      Link(f"v{k}_{v}", "a1", "disk_on")]
    return Design(components=comps, links=links)


def test_the_capacity_tiles_read_the_capacity_section() -> None:
    """One answer: vCPU:core, memory overcommit, cluster headroom and storage are the
    prediction's capacity section, as evaluate --json writes it."""
    p = evaluate(capacity_estate(1000.0))
    cap = p.sections.capacity
    assert cap is not None
    assert KPI_BY_KEY["vcpu_per_core"].value(p) == cap.vcpu_per_core == 200 / 64
    assert cap.memory_overcommit == 800 / 1024  # the tile: memory allocated of installed
    assert KPI_BY_KEY["memory_overcommit"].value(p) == pytest.approx(100 * 800 / 1024)
    assert KPI_BY_KEY["memory_overcommit"].text(100 * 800 / 1024) == "78.1 % of installed"
    gold, silver = (c for c in cap.clusters if c.id)
    spare = min(c.hosts - (c.hosts_needed or 0) for c in (gold, silver))
    assert KPI_BY_KEY["cluster_headroom"].value(p) == spare
    note = KPI_BY_KEY["cluster_headroom"].note(p)
    tight = min((gold, silver), key=lambda c: c.hosts - (c.hosts_needed or 0))
    assert note.startswith(f"{tight.name} 2 hosts, {tight.hosts_needed} needed")
    storage = KPI_BY_KEY["storage_used_pct"]
    assert storage.value(p) == 60.0 and storage.figure(p) == "60 %"
    assert storage.note(p) == "used 600 GB of 1,000 GB, provisioned 900 GB"


def test_storage_the_data_does_not_give_reads_not_measured_never_0() -> None:
    storage = KPI_BY_KEY["storage_used_pct"]
    p = evaluate(capacity_estate(None))
    assert storage.value(p) is None and storage.not_measured(p)
    assert storage.figure(p) == NOT_MEASURED
    assert storage.note(p) == "used 600 GB, capacity not measured"
    testbed = evaluate(examples.load("vaio-scaling"))  # nothing of the kind to measure
    assert storage.value(testbed) is None and not storage.not_measured(testbed)
    assert storage.figure(testbed) == NONE
    for key in ("cluster_headroom", "vcpu_per_core", "memory_overcommit"):
        assert KPI_BY_KEY[key].value(testbed) is None  # no clusters: a testbed, not an estate
