"""A breach names its component and reads with as many digits as tell its figure from its
limit."""

from __future__ import annotations

import pytest

from models.analysis.common import Breach


@pytest.mark.parametrize(("breach", "text"), [
    (Breach("v1", "p95", 100.0004, 100.0, name="web-01"),
     "VM web-01: p95 100.0004 ms, over the 100 ms ceiling"),
    (Breach("v1", "p95", 130.0, 100.0, name="web-01"),
     "VM web-01: p95 130 ms, over the 100 ms ceiling"),
    (Breach("h1", "cpu", 0.90004, 0.9, name="esx-01"),
     "host CPU esx-01: 90.004 %, over 90 %"),
    (Breach("h1", "cpu", 1.25, 0.9), "host CPU h1: 125 %, over 90 %"),
    (Breach("a1", "array", 1.0000001, 1.0), "array a1: 100.00001 %, over 100 %"),
])
def test_a_breach_never_reads_as_two_equal_numbers(breach: Breach, text: str) -> None:
    assert breach.describe() == text
