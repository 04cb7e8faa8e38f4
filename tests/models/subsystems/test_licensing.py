"""Licensed cores: per cluster and in total, the per-CPU minimum, the order minimum, hosts
that run no hypervisor, the yearly cost; in the summary and ``extras.capacity``."""

from __future__ import annotations

from models.core.prediction import Prediction
from models.core.sections import Capacity, Licensing
from models.document.design import Component, Design, Link, Override, apply_overrides
from models.document.schema import Value
from models.engine.evaluation import evaluate
from models.engine.kpis import KPI_BY_KEY


def capacity(p: Prediction) -> Capacity:
    assert p.sections.capacity is not None
    return p.sections.capacity


def licensing_of(p: Prediction) -> Licensing:
    lic = capacity(p).licensing
    assert lic is not None
    return lic


def estate(price: float | None = None) -> Design:
    """Broadcom's example (2 x 8 cores and 2 x 24 cores) in cluster c1, a 1-socket 8-core host
    in c2, and a native (no ESXi) host in no cluster."""
    d = Design(name="lic")
    if price is not None:
        d.policy["licence_price_per_core"] = price
    shapes = {"a": (2, 8, "c1"), "b": (2, 24, "c1"), "c": (1, 8, "c2"), "n": (2, 32, "")}
    for hid, (sockets, cores, cluster) in shapes.items():
        props: dict[str, Value] = {"sockets": sockets, "cores_per_socket": cores,
                                   "memory_gb": 256.0}
        if hid == "n":
            props["platform"] = "native"
        d.components.append(Component(hid, "host", props=props))
        if cluster:
            d.links.append(Link(hid, cluster, "in_cluster"))
    d.components += [Component("c1", "cluster", "prod"), Component("c2", "cluster", "edge")]
    for j, h in enumerate("abcn"):
        d.components.append(Component(f"v{j}", "vm", props={
            "vcpus": 2, "memory_gb": 4.0, "workload.profile": "measured",
            "workload.cpu_pct": 10.0}))
        d.links.append(Link(f"v{j}", h, "runs_on"))
    return d


def test_each_cpu_counts_at_least_16_cores_and_a_native_host_none() -> None:
    p = evaluate(estate())
    lic = licensing_of(p)
    assert lic.licensed_cores == 80 + 16 and lic.physical_cores == 16 + 48 + 8
    assert lic.hosts == 3 and lic.min_cores_per_cpu == 16
    rows = {c.name: c for c in capacity(p).clusters}
    assert (rows["prod"].licensed_cores, rows["prod"].physical_cores) == (80, 64)
    assert (rows["edge"].licensed_cores, rows["edge"].physical_cores) == (16, 8)
    assert rows["hosts in no cluster"].licensed_cores == 0
    assert p.licence_cost_per_year is None


def test_the_summary_and_extras_carry_the_licensed_cores() -> None:
    doc = evaluate(estate(price=100.0)).to_dict()
    assert doc["summary"]["licensed_cores"] == 96
    assert doc["summary"]["licence_cost_per_year"] == 9600.0
    cap = doc["extras"]["capacity"]
    assert [c["licensed_cores"] for c in cap["clusters"]] == [80, 16, 0]
    assert cap["licensing"]["edition"] == "vcf" and cap["licensing"]["price_per_core"] == 100.0
    assert cap["licensing"]["sources"][0].startswith("Broadcom KB 313548")


def test_the_order_minimum_is_off_until_the_policy_turns_it_on() -> None:
    small = estate()
    gone = {"a", "b", "n", "v0", "v1", "v3"}
    small.components = [c for c in small.components if c.id not in gone]
    small.links = [lk for lk in small.links if not {lk.source, lk.target} & gone]
    assert evaluate(small).licensed_cores == 16
    on = apply_overrides(small, [Override("design", "policy.licence_order_minimum", True)])
    p = evaluate(on)
    assert p.licensed_cores == 72 and licensing_of(p).order_minimum_cores == 72


def test_the_kpis_read_the_count_and_the_cost_with_the_rule_in_words() -> None:
    p = evaluate(estate(price=350.0))
    k, cost = KPI_BY_KEY["licensed_cores"], KPI_BY_KEY["licence_cost"]
    assert k.figure(p) == "96 cores"
    assert k.note(p) == "min 16 per CPU; 72 physical"
    assert cost.figure(p) == "33,600 per year"
    assert cost.note(p) == "VMware Cloud Foundation at 350 per core per year"
    assert KPI_BY_KEY["licence_cost"].value(evaluate(estate())) is None
    assert cost.optional and not k.optional
