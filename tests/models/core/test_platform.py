"""A host's compute columns: cores, core-equivalents and per-core speed, read by every model."""

from __future__ import annotations

import numpy as np
import pytest

from models.core.compiled import compile_design
from models.core.platform import HT_THROUGHPUT, REF_GHZ, compute, speed_of
from models.document.design import Component, Design, Override


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
