"""A refresh kept as a scenario in the report's content: before and after side by side, the
summary's sentence, what the scenario changes and the knob table."""

from __future__ import annotations

from dataclasses import replace

import pytest

from models.analysis.refresh import RefreshResult, refresh, target, vsan_target
from models.document.design import Component, Design, Link, Override, Rebuild, Scenario
from models.document.numbers import counted
from models.report.content import build
from models.report.settings import scenario_text
from tests.refresh_estate import estate


def refreshed() -> Design:
    d = estate()
    r = refresh(d, target("dell-r760", "Gold 6548Y+", 1024))
    d.scenarios.append(Scenario("R760", [], r.rebuild))
    return d


def test_the_report_puts_the_refresh_beside_the_base_design() -> None:
    c = build(refreshed(), "base", checks=False)
    assert [v.scenario for v in c.refreshes] == ["R760"]
    rows = {label: (b, a) for label, b, a in c.refreshes[0].rows}
    assert rows["Hosts"] == ("6", "4") and rows["Licensed cores"] == ("192", "256")
    assert rows["Tightest limit"][1] in ("CPU", "memory")
    assert set(rows) >= {"Hosts needed", "Host CPU (mean)", "Host memory (mean)",
                         "Physical cores"}
    assert "p95 storage latency" not in rows  # nothing measured, nothing shown


def test_the_summary_says_what_the_refresh_does() -> None:
    c = build(refreshed(), "base", checks=False)
    heads = dict(c.summary.paragraphs())
    text = heads["The refresh"]
    assert text.startswith("‘R760’: 6 hosts of prod, dmz replaced by 4 hosts of Dell"
                           " PowerEdge R760")
    assert "Mean host CPU goes from" in text and "licensed cores from 192 to 256" in text
    # what sets the count is no limit reached: "meet the policy", never "binds" there
    assert "The new hosts meet the policy (host memory is the tightest limit)." in text
    assert "binds" not in text
    assert text.endswith("Settings it changes: ESXi version 6.0 -> 8.0.")


def test_the_knob_table_names_the_new_hardware() -> None:
    c = build(refreshed(), "base", checks=False)
    texts = {k.knob.label: scenario_text(k) for k in c.knobs}
    assert texts["Cores per socket"] == "32 cores in ‘R760’"
    assert texts["Host memory"] == "1 TB in ‘R760’"
    assert "Hyperthreading" not in texts  # on before and after


def test_a_design_without_a_refresh_has_none() -> None:
    c = build(estate(), "base", checks=False)
    assert c.refreshes == [] and "The refresh" not in dict(c.summary.paragraphs())


def test_a_host_more_or_fewer_changes_no_setting() -> None:
    """A rebuild that only adds a host (or only takes one out) has no new hardware to compare
    with the old: it read 'Settings it changes: Hyperthreading  -> on, ESXi version  -> 6.0'
    ('on -> ' for a host fewer) and spoke of 'the new hosts'."""
    d = estate()
    h0 = d.component("prod-h0")
    assert h0 is not None
    extra = Component("prod-h9", "host", "prod-h9", props=dict(h0.props))
    d.scenarios += [
        Scenario("one host more", [], Rebuild([], [extra], [Link("prod-h9", "prod",
                                                                 "in_cluster")], "a host more")),
        Scenario("one host fewer", [], Rebuild(["prod-h3"], [], [], "a host fewer"))]
    views = {v.scenario: v for v in build(d, "base", checks=False).refreshes}
    more, fewer = views["one host more"], views["one host fewer"]
    assert more.changed == () and fewer.changed == ()
    assert not more.replaces and not fewer.replaces
    assert "Settings it changes" not in more.sentence + fewer.sentence
    assert "new hosts" not in more.sentence + fewer.sentence
    assert "The hosts meet the policy" in more.sentence
    assert all(v.replaces for v in build(refreshed(), "base", checks=False).refreshes)


def _kept(d: Design, r: RefreshResult) -> Design:
    """``d`` with ``r`` kept as the scenario 'R', as ``headroom refresh -o`` keeps it."""
    out = d.copy()
    out.scenarios.append(Scenario("R", list(r.overrides), r.rebuild))
    return out


def _ha_off(d: Design) -> Design:
    for c in d.of_kind("cluster"):
        c.props["ha_enabled"] = False
    return d


@pytest.mark.parametrize(("server", "cpu", "memory", "vsan", "ha"), [
    ("dell-r760", "Gold 6548Y+", 1024, False, True),  # 1 host holds the load; HA adds 1
    ("dell-r760", "Gold 6544Y", 512, False, True),    # host memory sets 2 hosts for the load
    ("dell-r660", None, 256, False, False),           # HA off: no host added for it
    ("dell-r770", None, None, True, True)])           # vSAN: the policy's minimum sets 3
def test_each_cluster_says_what_set_its_count_as_the_refresh_does(
        server: str, cpu: str | None, memory: float | None, vsan: bool, ha: bool) -> None:
    """The report reads a kept refresh's count from its prediction (the capacity section's
    binding, hosts needed and reserve; the hosts it has) and words it as ``headroom refresh``
    does (``set_by_text``), cluster by cluster."""
    d = estate() if ha else _ha_off(estate())
    t = target(server, cpu, memory)
    if vsan:
        t = replace(t, vsan=vsan_target("esa"))
    r = refresh(d, t)
    view = build(_kept(d, r), "base", checks=False).refreshes[0]
    want = {c["name"]: c["set_by_text"] for c in r.after.clusters}
    assert {c.name: c.why for c in view.clusters} == want
    after = {c["name"]: c for c in r.after.clusters}
    for c in view.clusters:  # the figures refresh gives, before and after
        assert c.hosts[1] == after[c.name]["hosts"] == r.counts[c.name]
        assert c.licensed_cores[1] == after[c.name]["licensed_cores"]
        assert c.cells[1] == f"{c.hosts[0]:,} → {c.hosts[1]:,}"
    if vsan:
        assert want["dmz"] == "the vSAN policy's minimum hosts sets 3 hosts"
    elif not ha:
        assert all("HA" not in w for w in want.values())
    else:
        assert all(w.endswith("HA adds 1 (admission control reserves 1 host)")
                   for w in want.values())


def test_hosts_the_refresh_adds_beyond_the_capacity_count_are_said_as_its_own() -> None:
    """Hosts beyond the capacity model's count are the refresh's (a host over the policy as
    placed, a host's failure, a count that moved with the placement): the prediction does
    not tell which, so the report says them as the refresh's, not put down to HA."""
    d = _kept(estate(), refresh(estate(), target("dell-r760", "Gold 6544Y", 512)))
    rb = d.scenarios[0].rebuild
    assert rb is not None
    extra = next(c for c in rb.components if c.kind == "host" and "prod" in c.id)
    more = Component(extra.id + "-more", "host", extra.name + " more", props=dict(extra.props))
    rb.components.append(more)
    rb.links.append(Link(more.id, "prod", "in_cluster"))
    prod = {c.name: c for c in build(d, "base", checks=False).refreshes[0].clusters}["prod"]
    assert prod.hosts == (4, 4)
    assert prod.why == ("host memory sets 2 hosts for the load; HA adds 1 (admission control"
                        " reserves 1 host); the refresh adds 1 host for the VMs as placed"
                        " (every host within the policy and room to restart any one host's"
                        " VMs)")


def test_a_cluster_short_of_its_count_says_how_many() -> None:
    """A kept refresh edited since (its VMs grown): the count it needs, and how many short."""
    d = refreshed()
    d.scenarios[0].overrides.append(Override("vm", "memory_gb", 64.0))
    view = build(d, "base", checks=False).refreshes[0]
    prod = {c.name: c for c in view.clusters}["prod"]
    assert prod.hosts_needed[1] is not None and prod.hosts_needed[1] > prod.hosts[1]
    assert prod.why.endswith(f"; it has {prod.hosts[1]:,},"
                             f" {counted(prod.hosts_needed[1] - prod.hosts[1], 'host')} short")


def test_a_refresh_of_one_cluster_names_the_clusters_it_keeps() -> None:
    d = estate()
    view = build(_kept(d, refresh(d, target("dell-r760", "Gold 6548Y+", 1024),
                                  clusters=["prod"])), "base", checks=False).refreshes[0]
    assert [c.name for c in view.clusters] == ["prod"] and view.kept == ("dmz",)
