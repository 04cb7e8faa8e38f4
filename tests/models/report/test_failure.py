"""One answer in the report: the summary, What to do and the host-failure page read the one
host-failure run the report makes (:func:`models.analysis.host_failure`, what ``headroom
failure`` runs), the baseline's policy breaches and the capacity section, so no summary says
"Nothing needs to change" beside a failure that breaks something, a breach or a cluster short
of hosts; a cluster with HA off is said plainly to leave its VMs down."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from models.analysis import host_failure, policy_breaches
from models.document.design import Component, Design, Link, Value
from models.examples import synth
from models.report import failure as failures
from models.report.content import Content, build
from models.report.failure import FAILURE_BUDGET, hosts_to_fail, rows, summary_text, told

SAMPLES = Path(__file__).resolve().parents[3].parent / "shared" / "samples"
NOTHING = "Nothing needs to change"


def cluster(name: str, hosts: int = 2, vms_per_host: int = 4, vm_pct: float = 10.0,
            vm_gb: float = 16.0, props: dict[str, Value] | None = None) -> Design:
    """Cluster ``prod`` of ``hosts`` hosts (2 x 8 cores at 2.7 GHz, 256 GB), each running
    ``vms_per_host`` 4-vCPU VMs of ``vm_gb`` with a measured CPU share of ``vm_pct``;
    ``props`` are the cluster's (``ha_enabled``, ``admission_control``)."""
    d = Design(name=name)
    d.components.append(Component("c1", "cluster", "prod", props=dict(props or {})))
    for i in range(hosts):
        d.components.append(Component(f"h{i}", "host", f"esx{i:02d}", props={
            "sockets": 2, "cores_per_socket": 8, "ghz": 2.7, "memory_gb": 256.0,
            "esxi_version": "7.0"}))
        d.links.append(Link(f"h{i}", "c1", "in_cluster"))
        for j in range(vms_per_host):
            vid = f"v{i}-{j}"
            d.components.append(Component(vid, "vm", f"vm{i}{j}", props={
                "vcpus": 4, "memory_gb": vm_gb, "workload.profile": "measured",
                "workload.cpu_pct": vm_pct}))
            d.links.append(Link(vid, f"h{i}", "runs_on"))
    return d


def ha_off() -> Design:
    """(a) HA off, two lightly loaded hosts: a host failure leaves its VMs down."""
    return cluster("HA off", props={"ha_enabled": False})


def overcommitted() -> Design:
    """(b) Two hosts whose VMs hold 110 % of the memory installed."""
    return cluster("over-committed", vm_gb=70.4)


def tight(props: dict[str, Value] | None = None) -> Design:
    """(c) An HA cluster of three hosts at 66 % CPU: a failure puts the others at 98 %."""
    return cluster("tight", hosts=3, vm_pct=80.0, props=props)


def roomy() -> Design:
    """Three hosts at 43 % CPU: any one can fail."""
    return cluster("roomy", hosts=3, vm_pct=52.0)


def report(design: Design) -> tuple[Content, dict[str, str]]:
    c = build(design, "base", checks=False)
    return c, dict(c.summary.paragraphs())


def agrees(c: Content, said: dict[str, str]) -> None:
    """The summary's verdict is the analyses': host failure's survives and baseline, the
    capacity section's shortfall."""
    fl = c.failure
    assert fl is not None
    again = host_failure(c.effective)  # what `headroom failure` runs
    assert fl.survives == again.survives
    assert [b.describe() for b in fl.report.baseline] == \
        [b.describe() for b in policy_breaches(c.prediction, again.policy)]
    cap = c.prediction.sections.capacity
    short = cap is not None and any(g.short_by_hosts for g in cap.clusters)
    breaks = bool(told(fl.report.baseline))
    action, text = said["What to do"], said["If a host fails"]
    assert text == summary_text(c.effective, fl)  # the page leads with the same paragraph
    assert (NOTHING in action) == (fl.survives and not breaks and not short), action
    assert bool(re.search(r"\bbreaks? the policy", text)) == bool(fl.breaking), text
    if not fl.survives:
        assert "can fail" not in text, text
    needed, hosts = c.prediction.consolidation.hosts_needed, len(c.prediction.hosts.ids)
    every = " ".join(said.values())
    if breaks or (needed is not None and needed > hosts):
        assert "it has what its policy needs" not in every


def test_ha_off_is_said_plainly_and_never_nothing_to_change() -> None:
    c, said = report(ha_off())
    agrees(c, said)
    assert c.failure is not None and not c.failure.survives and not c.failure.breaking
    assert said["If a host fails"] == ("Cluster prod has HA off: a host failure leaves its VMs"
                                       " down until the host is back (up to 4 VMs, when"
                                       " esx00 fails).")
    assert said["What to do"].startswith("Turn on vSphere HA in cluster prod if its VMs must"
                                         " restart when their host fails. Otherwise the load"
                                         " needs no change: every host can run up to")
    assert "broken" not in " ".join(said.values())  # a choice, not a broken design
    assert {r.tone for r in rows(c.effective, c.failure)} == {"choice"}
    assert rows(c.effective, c.failure)[0].breaks == "4 VMs stay down (HA off)"


def test_a_baseline_breach_is_said_and_asks_for_hosts() -> None:
    c, said = report(overcommitted())
    agrees(c, said)
    assert "It breaks its policy: host memory on 2 hosts over-committed (up to 110 %)." \
        in said["What binds"]
    assert c.failure is not None and c.failure.survives  # nothing new breaks: already broken
    assert said["If a host fails"].startswith("A failure of any one of its 2 hosts adds no"
                                              " breach to those it already has")
    assert "Add 2 hosts to cluster prod, or move VMs out of it: under its policy it needs 4" \
        " hosts, 1 host held for HA, and it has 2." in said["What to do"]


def test_a_failure_that_overloads_an_ha_cluster_is_on_the_first_page() -> None:
    c, said = report(tight())
    agrees(c, said)
    assert said["If a host fails"] == (
        "A failure of any one of its 3 hosts breaks the policy in cluster prod; the worst,"
        " when esx00 fails: HA restarts its 4 VMs and the CPU of hosts esx01 and esx02"
        " reaches up to 98.4 %, over the 90 % ceiling.")
    assert said["What to do"] == (
        "Add 1 host to cluster prod, or move VMs out of it: under its policy it needs 4"
        " hosts, 1 host held for HA, and it has 3. As it stands, a host failure there breaks"
        " the policy (If a host fails, above).")
    assert c.failure is not None
    assert [r.tone for r in rows(c.effective, c.failure)] == ["breaks"] * 3


def test_without_admission_control_the_failure_alone_asks_for_room() -> None:
    c, said = report(tight({"admission_control": "disabled"}))
    agrees(c, said)
    assert "need 3 hosts, limited by host CPU" in said["What it achieves"]  # none short
    assert said["What to do"] == ("So that a host failure breaks nothing, make room in cluster"
                                  " prod for a failed host's VMs (a host more, or less"
                                  " load).")


def test_a_design_that_survives_needs_nothing() -> None:
    c, said = report(roomy())
    agrees(c, said)
    assert said["If a host fails"].startswith("Any one of its 3 hosts can fail: HA restarts"
                                              " its VMs on the others within the policy;"
                                              " at worst, when esx00 fails, esx01 runs at")
    assert said["What to do"].startswith(NOTHING)


def test_one_host_is_a_design_choice_said_once() -> None:
    d = cluster("one", hosts=1)
    d.components = [x for x in d.components if x.kind != "cluster"]
    d.links = [lk for lk in d.links if lk.kind != "in_cluster"]
    c, said = report(d)
    agrees(c, said)
    assert said["If a host fails"] == ("It has one host: if it fails, its 4 VMs stay down"
                                       " until it is back.")
    assert said["What to do"].startswith("Add a second host if its VMs must restart when"
                                         " this one fails. Otherwise the load needs no change")


def test_the_report_runs_host_failure_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = failures.host_failure

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(failures, "host_failure", counting)
    c, said = report(tight())
    assert len(calls) == 1 and c.failure is not None
    assert "breaks the policy" in said["If a host fails"]


def test_a_large_estate_fails_the_busiest_hosts_of_each_cluster() -> None:
    small = tight()
    assert hosts_to_fail(small, build(small, "base", checks=False).prediction) is None
    big = synth.large_design(20000, 1000, 5)
    c = build(big, "base", checks=False)
    fl = c.failure
    assert fl is not None and not fl.every
    tried = [f.host for f in fl.tried]
    assert 0 < len(tried) <= max(failures.MIN_TRIED, FAILURE_BUDGET // 20000)
    cpu = dict(zip(c.prediction.hosts.ids, c.prediction.hosts.cpu_util, strict=True))
    assert max(cpu, key=lambda h: cpu[h]) in tried  # the busiest host is among them
    assert "busiest of its 1,000 hosts" in failures.method_text(fl)


@pytest.mark.skipif(not (SAMPLES / "rvtools-anonymised-805-vms.xlsx").exists(),
                    reason="no ../shared/samples")
def test_the_805_vm_estate_survives_and_says_so() -> None:
    from models.io.importers.rvtools import import_rvtools  # noqa: PLC0415

    design, _ = import_rvtools(SAMPLES / "rvtools-anonymised-805-vms.xlsx")
    c, said = report(design)
    agrees(c, said)
    assert c.failure is not None and c.failure.every and c.failure.survives
    assert said["If a host fails"].startswith("Any one of its 34 hosts can fail")


@pytest.mark.skipif(not (SAMPLES / "liveoptics-masked-83-vms.xlsx").exists(),
                    reason="no ../shared/samples")
def test_the_live_optics_estate_no_longer_reads_nothing_to_change() -> None:
    """It needs 10 hosts and has 8, and 5 of its 8 host failures break its policy: its
    summary read 'Nothing needs to change'."""
    from models.io.importers.liveoptics import import_liveoptics  # noqa: PLC0415

    design, _ = import_liveoptics(SAMPLES / "liveoptics-masked-83-vms.xlsx")
    c, said = report(design)
    agrees(c, said)
    assert c.failure is not None and not c.failure.survives
    assert said["What to do"].startswith("Add hosts where the policy needs them")
