"""One unit of work for every VM: a CPU share entered "of its vCPUs on its host" is pinned to
that host's processor when a design is read, so that it reads as before there and takes
SPEC's per-core ratio on another processor (a knob, a move, a refresh)."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.core.platform import REF_GHZ, pin_work, processor_speed
from models.document.catalogue import processors
from models.document.codec import design_to_json
from models.document.design import Component, Design, Link, Override
from models.engine.evaluation import Engine, evaluate
from models.examples import bundled
from models.io.files import load_design


def two_hosts() -> Design:
    d = Design(name="two processors")
    for hid, cpu in (("old", "Intel Xeon E5-2665"), ("new", "AMD EPYC 9354")):
        d.components.append(Component(hid, "host", hid, props={
            "sockets": 2, "cores_per_socket": 8, "ghz": 2.4 if hid == "old" else 3.25,
            "cpu_model": cpu, "memory_gb": 512.0}))
    d.components.append(Component("vm", "vm", "vm", props={
        "vcpus": 4, "memory_gb": 8.0, "workload.profile": "cpu_bound"}))
    d.components.append(Component("busy", "vm", "busy", props={
        "vcpus": 4, "memory_gb": 8.0, "workload.profile": "idle", "workload.cpu_pct": 50.0}))
    d.links.append(Link("vm", "old", "runs_on"))
    return d


def test_a_file_without_the_clock_reads_as_before_on_its_own_host(tmp_path: Path) -> None:
    d = two_hosts()
    f = tmp_path / "d.json"
    f.write_text(design_to_json(d), encoding="utf-8")
    loaded = load_design(f)
    vm = next(c for c in loaded.components if c.id == "vm")
    assert vm.get("workload.cpu_ghz") == pytest.approx(REF_GHZ)  # the E5-2665 at 2.4 GHz
    assert list(evaluate(loaded).hosts.cpu_util) == pytest.approx(
        list(evaluate(d).hosts.cpu_util))
    assert pin_work(loaded) is loaded  # pinned once: nothing more to do


def test_moving_a_vm_to_a_faster_processor_takes_spec_s_ratio() -> None:
    d = pin_work(two_hosts())
    before = evaluate(d)
    d.links = [Link("vm", "new", "runs_on")]
    after = evaluate(d)
    ratio = processor_speed("AMD EPYC 9354") / processor_speed("Intel Xeon E5-2665")
    vm = before.vms.ids.index("vm")
    assert after.vms.cpu_util[vm] == pytest.approx(before.vms.cpu_util[vm] / ratio, rel=1e-6)


def test_a_processor_knob_moves_the_guest_work_too() -> None:
    """The VAIO testbed: host CPU 30.1 % on its E5-2665; the same host with a Gold 6130 or an
    EPYC 9354 at its 2.4 GHz takes 30.1 % over their per-core speed there (the guest's work
    included: it moved only the hypervisor's share before, 26.9 % and 24.7 %)."""
    d = bundled.load("vaio-scaling")
    engine = Engine(d)
    base = float(engine.evaluate().hosts.cpu_util[0])
    for cpu in ("Intel Xeon Gold 6130", "AMD EPYC 9354"):
        engine.patch(Override("host", "cpu_model", cpu))
        found = processors.match(cpu)
        assert found is not None and found.ghz
        speed = processor_speed(cpu) * REF_GHZ / found.ghz  # at the host's 2.4 GHz
        assert float(engine.evaluate().hosts.cpu_util[0]) == pytest.approx(base / speed,
                                                                          rel=0.01)
