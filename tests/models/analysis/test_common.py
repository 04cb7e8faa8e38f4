"""A breach reads with as many digits as tell its figure from its limit."""

from __future__ import annotations

from models.analysis.common import Breach


def test_a_breach_never_reads_as_its_own_limit() -> None:
    assert Breach("v1", "p95", 100.04, 100.0).describe() == "vm v1: p95 100.04 ms > 100 ms"
    assert Breach("h1", "cpu", 0.90004, 0.9).describe() == "host CPU h1: 90.004% > 90%"
    assert Breach("h1", "cpu", 0.913, 0.9).describe() == "host CPU h1: 91.3% > 90%"
    assert Breach("v1", "p95", 250.0, 100.0).describe() == "vm v1: p95 250 ms > 100 ms"
