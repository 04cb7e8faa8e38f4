"""Growth over years: the engine's demand compounded to design.growth.year (measured and
designed alike), one answer whether the year is compiled in or patched, `grow`'s years and the
month a cluster runs out, checked by hand on the refresh test estate."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.analysis.growth import grow
from models.document.design import Override
from models.engine.evaluation import Engine, evaluate
from tests.models.subsystems.test_vsan import cluster
from tests.refresh_estate import estate


def test_year_n_scales_cpu_memory_and_storage_by_the_compound_rates() -> None:
    rates = {"growth.cpu_pct": 20.0, "growth.memory_pct": 10.0, "growth.storage_pct": 30.0,
             "growth.vms_pct": 5.0, "growth.year": 3.0}
    d = cluster(arch="none")  # no vSAN: its own memory per host does not grow
    base = evaluate(d)
    d.policy.update(rates)
    grown = evaluate(d)
    vms = 1.05 ** 3
    cpu = np.asarray(grown.hosts.cpu_util) / np.asarray(base.hosts.cpu_util)
    assert cpu == pytest.approx(np.full(len(cpu), 1.2 ** 3 * vms), rel=0.02)
    mem = np.asarray(grown.hosts.memory_util) / np.asarray(base.hosts.memory_util)
    assert mem == pytest.approx(np.full(len(mem), 1.1 ** 3 * vms), rel=0.02)
    on_vsan = cluster()
    on_vsan.policy.update(rates)
    assert evaluate(on_vsan).to_dict()["vsan"][0]["data_tib"] == pytest.approx(
        20 * 1.3 ** 3 * vms)


def test_patching_the_year_is_the_same_as_compiling_it() -> None:
    d = estate()
    d.policy.update({"growth.cpu_pct": 15.0, "growth.memory_pct": 25.0})
    engine = Engine(d)
    engine.evaluate()
    engine.patch(Override("design", "growth.year", 2.5))
    patched = engine.evaluate()
    d.policy["growth.year"] = 2.5
    compiled = evaluate(d)
    assert list(patched.hosts.cpu_util) == pytest.approx(list(compiled.hosts.cpu_util))
    assert list(patched.hosts.memory_util) == pytest.approx(list(compiled.hosts.memory_util))
    assert patched.consolidation.hosts_needed == compiled.consolidation.hosts_needed
    # back to today: as if never grown
    engine.patch(Override("design", "growth.year", 0.0))
    d.policy["growth.year"] = 0.0
    assert list(engine.evaluate().hosts.cpu_util) == pytest.approx(
        list(evaluate(d).hosts.cpu_util))


def test_a_value_set_today_is_grown_to_the_year_evaluated() -> None:
    d = estate()
    d.policy.update({"growth.cpu_pct": 20.0, "growth.year": 2.0})
    engine = Engine(d)
    engine.patch(Override("vm", "workload.cpu_pct", 10.0))
    patched = engine.evaluate()
    for vm in d.of_kind("vm"):
        vm.props["workload.cpu_pct"] = 10.0
    assert list(patched.hosts.cpu_util) == pytest.approx(list(evaluate(d).hosts.cpu_util))


def test_the_years_and_the_month_prod_runs_out_checked_by_hand() -> None:
    """prod: 4 hosts of 256 GB, 40 VMs of 16 GB, one host held for HA; CPU binds today (4
    hosts needed).  Memory at 30 % a year: a host holds floor(256 / (16 x 1.3^t)) VMs, so
    memory needs ceil(40 / that) + 1 hosts; by hand the first month that passes 4 is 7
    (t = 7/12: 18.65 GB a VM, 13 a host, 4 + 1 hosts; month 6: 18.24 GB, 14 a host, 3 + 1)."""
    r = grow(estate(), 3, {"memory": 30.0})
    prod = [next(c for c in y.clusters if c["id"] == "prod") for y in r.years]
    assert prod[0]["hosts_needed"] == 4 and prod[0]["binding"] == "cpu"

    def by_hand(t: float) -> int:
        return math.ceil(40 / math.floor(256 / (16 * 1.3 ** t))) + 1

    month = next(m for m in range(1, 37) if by_hand(m / 12) > 4)
    assert month == 7
    runs = next(x for x in r.runs_out if x.cluster == "prod")
    assert (runs.month, runs.resource, runs.hosts, runs.hosts_needed) == (7, "memory", 4, 5)
    assert [c["hosts_needed"] for c in prod] == [4, *(by_hand(y) for y in (1, 2, 3))]
    assert runs.text == "cluster prod runs out in month 7 (year 1): host memory needs 5 hosts," \
        " it has 4"
    assert [y.year for y in r.years] == [0.0, 1.0, 2.0, 3.0]
    doc = r.to_dict()
    assert {"year", "hosts_needed", "binding", "cpu_util_mean", "memory_util_mean",
            "storage_used_tib", "licensed_cores", "clusters"} <= set(doc["years"][0])
    assert {"cluster", "resource", "month"} <= set(doc["runs_out"][0])


def test_year_n_of_grow_is_evaluate_with_the_year_set() -> None:
    d = estate()
    r = grow(d, 2, {"cpu": 25.0, "memory": 10.0})
    d.policy.update({"growth.cpu_pct": 25.0, "growth.memory_pct": 10.0, "growth.year": 2.0})
    p = evaluate(d)
    assert r.years[2].hosts_needed == p.consolidation.hosts_needed
    assert r.years[2].cpu_util_mean == pytest.approx(float(np.mean(p.hosts.cpu_util)))


def test_a_refresh_sized_for_the_horizons_end_shows_today_beside() -> None:
    from models.analysis.refresh import for_horizon, refresh, target  # noqa: PLC0415

    to = target("dell-r760", "Gold 6548Y+", 512)
    now = refresh(estate(), to)
    later = for_horizon(estate(), to, 3, {"memory": 30.0})
    assert later.horizon == {"years": 3, "rates": {"cpu": 0.0, "memory": 30.0,
                                                   "storage": 0.0, "iops": 0.0, "vms": 0.0}}
    assert later.after.hosts > now.after.hosts  # 2.2 times the memory in year 3
    assert later.today is not None and later.after.memory_util_mean is not None
    assert later.today.memory_util_mean == pytest.approx(
        later.after.memory_util_mean / 1.3 ** 3, rel=0.01)
    assert later.notes[0].startswith("sized for year 3 at memory 30 % a year; today")
    assert later.to_dict()["today"]["hosts"] == later.after.hosts


def test_storage_used_counts_a_vsan_clusters_data() -> None:
    r = grow(cluster(), 1, {"storage": 10.0})
    assert r.years[0].storage_used_tib == pytest.approx(20.0)
    assert r.years[1].storage_used_tib == pytest.approx(22.0)


def test_a_hosts_background_io_grows_with_the_iops_rate() -> None:
    d = estate()
    for h in d.of_kind("host"):
        h.props.update({"background.iops": 500.0})
    d.policy.update({"growth.iops_pct": 10.0, "growth.year": 2.0})
    engine = Engine(d)
    assert list(engine.compiled.host.cols["background.iops"]) == pytest.approx(
        [500.0 * 1.21] * len(d.of_kind("host")))
