"""The knob registry reads its words from the schema: one label per property, a knob's own only
where the knob panel, which lists every kind's knobs together, needs the kind to tell two
properties apart."""

from __future__ import annotations

from models.document.design import Component, Design, Link, Override, Scenario
from models.document.knobs import KNOBS, knob, knobs_for, workloads
from models.document.schema import PROP_LABELS, Value, prop_label

OVERRIDES = {
    "host.memory_gb": "Host memory", "vm.memory_gb": "VM memory", "nic.speed_gbps": "NIC speed",
    "ft_secondary_on.rtt_ms": "FT link round trip", "wan.rtt_ms": "Inter-site latency",
    "wan.gbps": "Inter-site bandwidth", "content_library.operation": "Library operation",
    "content_library.backing": "Library backing", "content_library.network_gbps":
    "Library network",
}
"""The short, explicit list of knobs whose label is their own (adding one is a decision)."""


def test_a_knob_reads_its_propertys_label_unless_it_must_differ() -> None:
    overridden = {k.path: k.override for k in KNOBS if k.override}
    assert overridden == OVERRIDES
    for k in KNOBS:
        if k.override:  # an override that says what the property says is a second label
            assert k.override != prop_label(k.kind, k.prop), k.path
        else:
            assert k.label == prop_label(k.kind, k.prop), k.path


def test_properties_that_contradicted_their_knobs_read_the_better_words() -> None:
    assert prop_label("content_library", "rhttpproxy") == "Reverse HTTP proxy"
    assert prop_label("content_library", "max_concurrent_transfers") == \
        "Maximum concurrent transfers"
    assert prop_label("cluster", "failover_hosts") == "Host failures the cluster tolerates"
    assert prop_label("cluster", "ha_enabled") == "vSphere HA"
    assert prop_label("cluster", "admission_control") == "HA admission control"
    k = knob("content_library.rhttpproxy")
    assert k is not None and k.label == "Reverse HTTP proxy"
    assert k.to_dict()["label"] == k.label  # headroom knobs --json: the effective label


def test_every_property_has_its_own_label() -> None:
    """No property reads as its name turned into words ("Io block kb"): each has a label."""
    from models.document.schema import DESIGN_PROPS, KINDS, LINKS  # noqa: PLC0415

    props = [(k, p) for k, spec in KINDS.items() for p in spec.props] + \
        [(k, p) for k, spec in LINKS.items() for p in spec.props] + \
        [("design", p) for p in DESIGN_PROPS]
    missing = [f"{k}.{p}" for k, p in props if f"{k}.{p}" not in PROP_LABELS
               and p not in PROP_LABELS]
    assert not missing, missing


def estate(n_vms: int = 4, profile: str = "measured", props: dict[str, Value] | None = None
           ) -> Design:
    """Two hosts in a cluster running ``profile`` VMs (an import's: measured, no I/O)."""
    comps = [Component("k1", "cluster"), Component("h1", "host"), Component("h2", "host"),
             Component("n1", "nic"), Component("a1", "storage_array")]
    links = [Link("h1", "k1", "in_cluster"), Link("h2", "k1", "in_cluster"),
             Link("n1", "h1", "installed_in"), Link("h1", "a1", "storage")]
    for v in range(n_vms):
        comps.append(Component(f"v{v}", "vm",
                               props={"workload.profile": profile, **(props or {})}))
        links += [Link(f"v{v}", f"h{v % 2 + 1}", "runs_on"), Link(f"v{v}", "a1", "disk_on")]
    return Design(components=comps, links=links)


def paths(design: Design) -> set[str]:
    return {k.path for k in knobs_for(design)}


CAPACITY_KNOBS = {"host.cores_per_socket", "host.ghz", "host.memory_gb",
                  "design.demand.cpu_pct", "design.demand.memory_pct",
                  "design.policy.cpu_util_max", "design.policy.memory_util_max",
                  "cluster.failover_hosts", "cluster.admission_control"}
IMPORTED = {"vm.memory_gb", "vm.vcpus", "vm.workload.cpu_pct", "vm.workload.io_block_kb",
            "vm.workload.io_read_pct"}
"""The knobs that would set an imported VM's own figures to one value."""
GROWTH_KNOBS = {"design.growth.cpu_pct", "design.growth.memory_pct",
                "design.growth.storage_pct", "design.growth.iops_pct",
                "design.growth.vms_pct", "design.growth.year"}
WEB_KNOBS = {"host.dense_mode", "vm.workload.req_per_s", "vm.latency_sensitivity"}
IO_KNOBS = {"design.demand.iops_pct", "vm.vscsi", "storage_array.disks",
            "storage_array.raid"}


def test_an_estate_sees_the_knobs_that_move_it_and_no_testbed_ones() -> None:
    got = paths(estate())
    assert got >= CAPACITY_KNOBS
    assert not got & (WEB_KNOBS | IO_KNOBS)  # no web VM, no measured I/O
    assert not got & {"nic.speed_gbps", "vm.workload.net_msg_bytes", "host.platform",
                      "vm.ft", "vm.containers", "vm.workload.app_users"}
    # the ESXi release is every design's: no Fault Tolerance group without FT
    assert "Fault Tolerance" not in {k.group for k in knobs_for(estate())}
    assert "host.esxi_version" in got and got >= GROWTH_KNOBS
    assert not got & IMPORTED  # each VM's own figures: moved by a factor, never set to one
    with_io = paths(estate(props={"workload.io_iops": 120.0}))  # measured I/O came
    assert with_io >= IO_KNOBS and "design.policy.p95_ms_max" in with_io
    assert "vm.workload.io_oio" not in with_io  # a measured rate: outstanding I/Os move nothing


def test_web_and_testbed_knobs_come_with_their_vms() -> None:
    design = estate()
    design.components.append(Component("w1", "vm", props={"workload.profile": "web"}))
    assert paths(design) >= WEB_KNOBS
    assert "vm.workload.io_oio" in paths(estate(profile="iometer"))  # a closed loop
    assert {"host.platform", "vm.ft"} <= paths(estate(profile="oltp"))  # a study's testbed


def test_a_knob_a_scenario_sets_stays_whatever_the_vms() -> None:
    design = estate()
    design.scenarios.append(Scenario("dense", [Override("host", "dense_mode", True)]))
    assert "host.dense_mode" in paths(design) and "vm.workload.req_per_s" not in paths(design)
    assert knob("host.dense_mode").applies_to(design)  # type: ignore[union-attr]
    assert workloads(design) == {"guest_cpu", "measured"}


VSAN_KNOBS = {"cluster.vsan.policy", "cluster.vsan.ftt", "cluster.vsan.compression",
              "host.vsan.devices", "host.vsan.device_tb"}


def test_vsan_knobs_come_with_a_vsan_cluster() -> None:
    """The vSAN policy, compression and devices move a vSAN cluster's capacity and nothing
    else: offered where a cluster runs vSAN (or a scenario turns it on, as a refresh to vSAN
    does), citing the vSAN planning guide; not on a cluster without it."""
    from models.document.studies import VSAN_PLANNING  # noqa: PLC0415

    design = estate()
    assert not paths(design) & VSAN_KNOBS and "vsan" not in workloads(design)
    cluster = design.component("k1")
    assert cluster is not None
    cluster.props["vsan.architecture"] = "esa"
    assert paths(design) >= VSAN_KNOBS and "vsan" in workloads(design)
    assert all(k.source == VSAN_PLANNING.title and k.group == "vSAN"
               for k in KNOBS if k.path in VSAN_KNOBS)
    del cluster.props["vsan.architecture"]
    design.scenarios.append(Scenario("to vSAN", [Override("id:k1", "vsan.architecture",
                                                          "osa")]))
    assert paths(design) >= VSAN_KNOBS
    policy = knob("cluster.vsan.policy")
    assert policy is not None and policy.label == "vSAN storage policy"
    assert policy.choices == ("raid1", "raid5", "raid6")


def test_a_selection_of_measured_vms_is_offered_no_knob_that_sets_their_figures() -> None:
    """Selected imported VMs: no imported knob (the Inspector sets one VM's figure); a VM
    drawn by hand on the same estate: its guest CPU demand and sizes, as on a testbed."""
    from models.document.knobs import knobs_for_selection  # noqa: PLC0415

    design = estate()
    new = Component("new", "vm", props={"workload.profile": "oltp"})
    design.components.append(new)
    measured = design.of_kind("vm")[0]
    chosen = {k.path for k in knobs_for_selection(design, [measured])}
    assert not chosen & IMPORTED and "vm.vscsi" in chosen  # the oltp VM does I/O
    drawn = {k.path for k in knobs_for_selection(design, [new])}
    assert drawn >= {"vm.workload.cpu_pct", "vm.vcpus", "vm.memory_gb"}
    assert not {k.path for k in knobs_for_selection(design, [measured, new])} & IMPORTED
    plain = estate(profile="oltp")  # a testbed: nothing imported, the knobs as they were
    assert {k.path for k in knobs_for_selection(plain, plain.of_kind("vm")[:1])} >= IMPORTED


def test_a_measured_demand_knob_reads_as_a_change_and_says_where_its_figures_came_from(
        ) -> None:
    from models.document.knobs import MEASURED, measured_sources  # noqa: PLC0415

    cpu = knob("design.demand.cpu_pct")
    assert cpu is not None and cpu.relative and cpu.label == "Measured CPU demand"
    assert cpu.text(20.0) == "+20 %" and cpu.text(-10.0) == "−10 %"
    assert cpu.text(0.0) == "as it is"
    assert knob("vm.workload.cpu_pct").text(19.0) == "19 %"  # type: ignore[union-attr]
    assert all(k.path in MEASURED for k in KNOBS if k.relative)
    design = estate(n_vms=5)
    for i, v in enumerate(design.of_kind("vm")):
        v.props["provenance.cpu"] = ("measured: RVTools vInfo CPU usage MHz at its host's"
                                     f" peak: {30 + i}% of each VM's own peak" if i < 3 else
                                     f"solved: share by vCPUs of host esx{i}'s recorded CPU"
                                     " usage 36% not explained by its measured VMs")
    assert measured_sources(design, cpu) == ("3 VMs measured: RVTools vInfo CPU usage MHz;"
                                             " 2 VMs solved: share by vCPUs")
    storage = knob("design.demand.storage_pct")
    assert storage is not None and measured_sources(design, storage) == ""
    design.of_kind("vm")[0].props["disk.used_gb"] = 40.0
    assert measured_sources(design, storage) == "disk space in use of 1 VM as imported"
    assert "design.demand.storage_pct" in paths(design)  # space in use on an estate
