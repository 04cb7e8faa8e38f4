"""A refresh kept as a scenario in the report's content: before and after side by side, the
summary's sentence, what the scenario changes and the knob table."""

from __future__ import annotations

from models.analysis.refresh import refresh, target
from models.document.design import Component, Design, Link, Rebuild, Scenario
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
