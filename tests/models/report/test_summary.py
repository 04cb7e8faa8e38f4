"""The executive summary says in sentences what the design achieves, what binds, what to do
and what the scenarios change, with the engine's own figures and the components' names."""

from __future__ import annotations

import re

import pytest

from models.calibration import cases
from models.document.design import Design, Override, Scenario, apply_scenario
from models.engine.evaluation import evaluate
from models.examples import bundled as examples
from models.report.compare import compare
from models.report.failure import run as fail_hosts
from models.report.levers import relieve
from models.report.summary import Summary, summarise


def _summary(name: str, scenario: str = "base", design: Design | None = None) -> Summary:
    """The summary as the report makes it, with its one host-failure run."""
    d = design or examples.load(name)
    eff = apply_scenario(d, scenario)
    p = evaluate(eff)
    return summarise(d, scenario, p, compare(d, {scenario: p}), relieve(eff, p),
                     fail_hosts(eff, p))


def test_storage_testbed() -> None:
    s = _summary("vaio-scaling")
    assert s.achieves.startswith("The 16 VMs on 1 host deliver 75,000 IOPS at a mean storage"
                                 " latency of 27.3 ms")
    assert "need 1 host" in s.achieves
    assert s.binds.startswith("The storage array Intel S3700 400GB SATA SSD is saturated")
    assert "2 drives instead of 1 drive" in s.action
    assert re.search(r"to 1[45]\d,\d{3} IOPS \(\+100 %\)", s.action)
    assert "‘1 VM’ costs most: 41,665 IOPS (−44 %)" in s.scenarios


def test_one_vm_is_bound_by_its_vcpu_and_a_second_one_helps() -> None:
    s = _summary("vaio-scaling", "1 VM")
    assert s.achieves.startswith("In the scenario ‘1 VM’, the 16 VMs")
    assert "vCPU I/O issue path of VM ioanalyzer1" in s.binds
    assert "2 vCPUs instead of 1 vCPU" in s.action and "75,000 IOPS" in s.action


def test_web_farm_breaks_its_policy_and_dense_mode_helps() -> None:
    s = _summary("dense-web-farm")
    assert "470 VMs on 1 host answer web requests within 100 ms" in s.achieves
    assert "need 2 hosts, 1 more than it has, limited by host CPU" in s.achieves
    assert "It breaks its policy: the CPU of host HP DL580 G7 at 91 %, over the 90 %" \
        " ceiling" in s.binds
    assert re.match(r"Headroom computes that turning on dense mode on host HP DL580 G7 would"
                    r" lower the p95 web response from 100 ms to 9\d\.\d ms", s.action)
    assert "‘dense mode’ improves the p95 web response most" in s.scenarios


def test_a_design_with_room_needs_nothing_but_says_its_one_host_has_no_failover() -> None:
    """Its one host: `headroom failure` says it does not survive a host failure, so the
    summary no longer reads "Nothing needs to change" alone."""
    s = _summary("docker-cloudstone")
    assert s.binds.startswith("Nothing is near its limit")
    assert s.failure == "It has one host: if it fails, its 4 VMs stay down until it is back."
    assert s.action.startswith("Add a second host if its VMs must restart when this one"
                               " fails. Otherwise the load needs no change: by host CPU a host"
                               " holds at most 4")
    assert "Nothing needs to change" not in s.action
    assert "‘16-vCPU VMs (over-committed)’ cannot run" in s.scenarios


def test_one_vm_reads_in_the_singular_and_ft_is_named() -> None:
    s = _summary("ft-netperf")
    assert re.match(r"The VM on 2 hosts moves \d+ Mbit/s", s.achieves)
    assert "the VM needs 2 hosts, limited by the FT secondary" in s.achieves
    assert "Fault Tolerance protects 1 VM" in s.achieves
    assert "The FT logging network of host Dell PowerEdge 2950 (primary)" in s.binds
    assert "from 1 Gbit/s to 10 Gbit/s" in s.action


def test_a_wan_lever_moves_until_it_helps() -> None:
    s = _summary("stretched-vsan", "1 Gbit/s site link")
    assert "The WAN link Preferred site – Secondary site is saturated" in s.binds
    # the first step (2 Gbit/s) leaves it saturated, so the lever moves again
    assert "inter-site bandwidth on every WAN link from 1 Gbit/s to 4 Gbit/s" in s.action


def test_when_nothing_helps_it_says_what_was_tried() -> None:
    s = _summary("content-library")
    assert "The slowest of 8 Content Library jobs, the sync of Branch 1 library 1, takes" \
        " 91.7 min" in s.achieves
    assert s.action.startswith("None of the changes Headroom tries on the ESXi host copy")


@pytest.mark.parametrize("name", examples.names())
def test_no_ids_paths_or_case_ids(name: str) -> None:
    d = examples.load(name)
    names = " ".join(c.name for c in d.components)
    ids = [c.id for c in d.components if c.name and c.name != c.id and c.id not in names
           and re.search(r"[\d_A-Z-]", c.id)]
    for scenario in ["base", *(s.name for s in d.scenarios)]:
        text = " ".join(t for _, t in _summary(name, scenario, d).paragraphs())
        assert text and "  " not in text
        for cid in ids:
            assert not re.search(rf"(?<![\w-]){re.escape(cid)}(?![\w-])", text), (cid, text)
        assert not any(case in text for case in cases()), text
        assert not re.search(r"\b(vm|host|nic|wan|design|storage_array)\.[a-z_]+", text), text
        assert "_" not in text.replace("ds2-", ""), text


def test_nothing_to_change_names_the_room_goal_seek_finds() -> None:
    """The room is goal seek's most VMs per host (headroom seek --goal vms, Analysis > Goal
    seek): the 805-VM estate's report said 'by host memory, the host that runs most VMs
    has room for 88 VMs of the average size' beside a goal seek of 36 a host."""
    from models.analysis.seek import seek  # noqa: PLC0415
    from models.document.design import Component, Link  # noqa: PLC0415
    from models.report.summary import action  # noqa: PLC0415

    host = Component("h1", "host", "esx01", props={"memory_gb": 256, "sockets": 2,
                                                    "cores_per_socket": 16})
    vms = [Component(f"v{i}", "vm", f"vm{i}", props={"memory_gb": 32, "vcpus": 1,
                                                      "workload.profile": "idle"})
           for i in range(3)]
    design = Design(components=[host, *vms],
                    links=[Link(v.id, "h1", "runs_on") for v in vms])
    p = evaluate(design)
    assert p.consolidation.binding == "memory"
    found = seek(design, "vms")
    assert found.value is not None and found.binding == "memory"
    assert action(design, p, None) == (
        f"Nothing needs to change: every host can run up to {found.value:,} VMs of the"
        " design's mix within the policy, against 3 a host now (goal seek: host memory binds"
        " first).")


def test_a_ceiling_goal_seek_does_not_count_is_said_beside_it() -> None:
    """Latency-sensitive VMs take a physical core per vCPU: the dashboard's VMs per host
    says at most 4 by CPU, where goal seek, which counts the utilisation ceilings alone,
    finds 29; What to do says both, each for what it counts, rather than one against the
    other."""
    s = _summary("docker-cloudstone")
    p = evaluate(examples.load("docker-cloudstone"))
    assert p.consolidation.max_vms_per_host_by_cpu == 4
    assert s.action.endswith("Otherwise the load needs no change: by host CPU a host holds at"
                             " most 4 VMs of the design's mix, against 4 a host now (VMs per"
                             " host on the dashboard: a physical core for each"
                             " latency-sensitive vCPU; goal seek, which counts the policy's"
                             " utilisation ceilings alone, finds 29).")


def _refreshed(overrides: list[Override], memory_gb: float | None = None,
               hosts: int | None = None, vm_gb: float | None = None) -> Design:
    """tests.refresh_estate's estate (its prod VMs of ``vm_gb`` where given) with a refresh
    to the R760 kept as the scenario ‘R760’, with ``overrides`` on top."""
    from models.analysis.refresh import refresh, target  # noqa: PLC0415
    from tests.refresh_estate import estate  # noqa: PLC0415

    d = estate()
    if vm_gb is not None:
        for vm in d.of_kind("vm"):
            if vm.id.startswith("prod"):
                vm.props["memory_gb"] = vm_gb
    r = refresh(d, target("dell-r760", "Gold 6548Y+", memory_gb), hosts=hosts)
    d.scenarios.append(Scenario("R760", overrides, r.rebuild))
    return d


def test_a_refresh_that_breaks_its_policy_never_reads_that_it_meets_it() -> None:
    """The refresh's hosts are as many as its policy needs, but one VM of 900 GB
    over-commits its host: the summary said both 'It breaks its policy: the memory of host
    prod PowerEdge R760 01 over-committed (102 %)' and that the new hosts have what (meet
    what) the policy needs."""
    d = _refreshed([Override("id:prod-v0", "memory_gb", 900.0)], 1024.0, hosts=4)
    for scenario in ("R760", "base"):
        s = _summary("", scenario, d)
        assert "it has what its policy needs" not in s.refresh
        assert "meet the policy" not in s.refresh
        assert "The new hosts are as many as the policy needs, but it breaks all the same:" \
            " the memory of host prod PowerEdge R760 01 over-committed (102 %)." in s.refresh
    assert "It breaks its policy" in _summary("", "R760", d).binds


def test_a_refresh_of_a_design_that_breaks_its_policy_says_what_the_new_hosts_do() -> None:
    """The base design breaks its policy, the refresh meets it: the sentence names the new
    hosts, never 'it has what its policy needs' of a design that breaks it."""
    d = _refreshed([], vm_gb=28.16)  # prod's hosts hold 110 % of their memory
    s = _summary("", "base", d)
    assert "It breaks its policy: host memory on 4 hosts over-committed (up to 110 %)" \
        in s.binds
    assert "it has what its policy needs" not in s.refresh
    assert "The new hosts meet the policy" in s.refresh
