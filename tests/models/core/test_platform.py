"""A host's compute columns: cores, core-equivalents and per-core speed, read by every model."""

from __future__ import annotations

import numpy as np
import pytest

from models.core.compiled import compile_design
from models.core.platform import (
    HT_THROUGHPUT,
    REF_GHZ,
    compute,
    processor_text,
    reference_specrate,
    speed_of,
)
from models.document import numbers
from models.document.catalogue.families import stand_in
from models.document.design import Component, Design, Override
from models.engine.evaluation import evaluate


def two_hosts() -> Design:
    return Design(components=[
        Component("h1", "host", props={"sockets": 2, "cores_per_socket": 8, "ghz": REF_GHZ,
                                       "hyperthreading": True}),
        Component("h2", "host", props={"sockets": 1, "cores_per_socket": 4, "ghz": 3.6,
                                       "hyperthreading": False})])


def test_cores_capacity_and_speed() -> None:
    hc = compute(compile_design(two_hosts()))
    assert hc.cores.tolist() == [16.0, 4.0]
    assert hc.capacity.tolist() == pytest.approx([16 * HT_THROUGHPUT, 4.0])
    assert hc.speed.tolist() == pytest.approx([1.0, 1.5])
    assert hc.clock_ghz.tolist() == pytest.approx([REF_GHZ, 3.6])


def test_a_patched_clock_moves_the_speed() -> None:
    c = compile_design(two_hosts())
    c.reuse = True
    first = compute(c)
    assert compute(c) is first  # kept while no column it reads moves
    c.patch(Override("host", "ghz", 3.0))
    assert compute(c).speed.tolist() == pytest.approx([1.25, 1.25])


def test_a_vm_on_no_host_runs_at_the_reference_speed() -> None:
    c = compile_design(two_hosts())
    assert speed_of(c, np.array([1, -1, 0])).tolist() == pytest.approx([1.5, 1.0, 1.0])


def test_a_processor_sets_the_speed_and_its_clock_scales_it() -> None:
    d = two_hosts()
    h1 = d.component("h1")
    assert h1 is not None
    h1.props.update(cpu_model="Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz", ghz=2.1)
    hc = compute(compile_design(d))
    gold = 4.99  # SPECrate2017_int_base per core of the Gold 6130 (the catalogue's median)
    assert hc.known.tolist() == [True, False]
    assert hc.speed[0] == pytest.approx(gold / reference_specrate(), rel=0.01)
    h1.props["ghz"] = 4.2  # a clock what-if on the same processor: twice as fast
    assert compute(compile_design(d)).speed[0] == pytest.approx(2 * hc.speed[0])


def test_the_reference_core_runs_at_one() -> None:
    d = two_hosts()
    h1 = d.component("h1")
    assert h1 is not None
    h1.props["cpu_model"] = "Intel(R) Xeon(R) CPU E5-2665 0 @ 2.40GHz"
    assert compute(compile_design(d)).speed[0] == pytest.approx(1.0)


def test_a_stated_figure_wins_and_an_unknown_processor_falls_back_to_its_clock() -> None:
    d = two_hosts()
    h1, h2 = d.component("h1"), d.component("h2")
    assert h1 is not None and h2 is not None
    h1.props.update(cpu_model="Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz",
                    specrate_per_core=2 * reference_specrate())
    h2.props["cpu_model"] = "Acme Quantum 9000"
    hc = compute(compile_design(d))
    assert hc.speed.tolist() == pytest.approx([2.0, 1.5])
    assert hc.unknown_models == ("Acme Quantum 9000",) and hc.stand_ins == ()
    warnings = evaluate(d).warnings
    assert any("'Acme Quantum 9000' is not in the processor catalogue" in w
               and "clock alone" in w for w in warnings)
    assert "from its 3.6 GHz clock alone" in processor_text(h2.props | {"ghz": 3.6})


RYZEN = "AMD Ryzen 7 PRO 5850U with Radeon Graphics      1.90 GHz"  # the Live Optics sample's


def test_an_unknown_processor_counts_as_its_familys_stand_in_scaled_by_its_clock() -> None:
    """A laptop's Ryzen 5000 the catalogue lacks is a Zen 3 core: the EPYC that stands in for
    Milan, at the host's clock over that EPYC's base clock; the warning and the Inspector's
    text name it."""
    d = two_hosts()
    h1 = d.component("h1")
    assert h1 is not None
    h1.props.update(cpu_model=RYZEN, ghz=1.9)
    found = stand_in(RYZEN)
    assert found is not None and found.family.name.startswith("Zen 3")
    epyc = found.processor
    assert epyc.model.startswith("AMD EPYC 7") and epyc.model.endswith("3") and epyc.ghz
    hc = compute(compile_design(d))
    assert hc.known.tolist() == [True, False] and hc.unknown_models == ()
    assert hc.stand_ins == ((RYZEN, found),)
    expected = epyc.specrate_per_core / reference_specrate() * 1.9 / epyc.ghz
    assert hc.speed[0] == pytest.approx(expected)
    assert hc.speed[0] > 1.5 * 1.9 / REF_GHZ  # more than a 2012 core at that clock
    warning = next(w for w in evaluate(d).warnings if RYZEN in w)
    assert f"counted as its family's {epyc.model} (Zen 3" in warning
    assert "clock alone" not in warning
    text = processor_text(h1.props)
    assert text.startswith(f"{numbers.number(expected)} x the reference core per core:")
    assert f"{RYZEN}: not in the catalogue; counted as its family's {epyc.model}" in text
    assert "SPECrate2017_int_base" in text and "scaled to its 1.9 GHz clock" in text


def test_a_stated_figure_wins_over_a_stand_in() -> None:
    d = two_hosts()
    h1 = d.component("h1")
    assert h1 is not None
    h1.props.update(cpu_model=RYZEN, specrate_per_core=reference_specrate())
    hc = compute(compile_design(d))
    assert hc.speed[0] == pytest.approx(1.0) and hc.stand_ins == ()
    assert not any(RYZEN in w for w in evaluate(d).warnings)
