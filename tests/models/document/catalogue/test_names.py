"""Processor names: SPEC's spellings and the CPUID brand strings hosts report give one key."""

from __future__ import annotations

import pytest

from models.document.catalogue.names import canonical, key


@pytest.mark.parametrize(("text", "expected"), [
    ("Intel Xeon E5-2665", ("xeon", "E5-2665")),
    ("Intel(R) Xeon(R) CPU E5-2665 0 @ 2.40GHz", ("xeon", "E5-2665")),
    ("Intel Xeon E3-1220V2", ("xeon", "E3-1220 V2")),
    ("Intel Xeon E3-1220LV2", ("xeon", "E3-1220L V2")),
    ("Intel Xeon E3-1220L v2", ("xeon", "E3-1220L V2")),
    ("Intel Xeon E7- 8870", ("xeon", "E7-8870")),
    ("Intel(R) Xeon(R) CPU E7- 4870  @ 2.40GHz", ("xeon", "E7-4870")),
    ("Intel Xeon Gold  6534", ("xeon", "GOLD 6534")),
    ("Intel Xeon platinum 8468", ("xeon", "PLATINUM 8468")),
    ("Intel Xeon Platinum 8461V", ("xeon", "PLATINUM 8461V")),
    ("Intel(R) Xeon(R) Platinum 8480+", ("xeon", "PLATINUM 8480+")),
    ("AMD Opteron 2212 HE", ("opteron", "2212 HE")),
    ("Quad-Core AMD Opteron(tm) Processor 2376 HE", ("opteron", "2376 HE")),
    ("Intel Xeon 5148 LV", ("xeon", "5148 LV")),
    ("AMD EPYC 9354 32-Core Processor", ("epyc", "9354")),
    ("AMD EPYC 72F3", ("epyc", "72F3")),
    ("Intel(R) Xeon(R) Silver 4110 CPU @ 2.10GHz 2.10 GHz", ("xeon", "SILVER 4110")),
    ("Intel(R) Xeon(R) CPU Max 9480", ("xeon", "MAX 9480")),
    ("Intel(R) Xeon(R) 6787P", ("xeon", "6787P")),
])
def test_spellings_reduce_to_one_key(text: str, expected: tuple[str, str]) -> None:
    assert key(text) == expected


@pytest.mark.parametrize("text", [
    "", "Intel Xeon", "Intel(R) Core(TM) i7-9700K CPU @ 3.60GHz",
    "Intel(R) Pentium(R) Gold G5400 CPU @ 3.70GHz", "AMD Ryzen 7 PRO 5850U with Radeon Graphics",
    "ARM Neoverse-N1", "Intel(R) Xeon(R) CPU @ 2.20GHz",
])
def test_strings_naming_no_server_processor_have_no_key(text: str) -> None:
    assert key(text) is None


@pytest.mark.parametrize(("family", "model", "name"), [
    ("xeon", "GOLD 6140", "Intel Xeon Gold 6140"),
    ("xeon", "E5-2650 V4", "Intel Xeon E5-2650 v4"),
    ("xeon", "W9-3495X", "Intel Xeon w9-3495X"),
    ("epyc", "9354", "AMD EPYC 9354"),
    ("opteron", "2212 HE", "AMD Opteron 2212 HE"),
])
def test_canonical_names(family: str, model: str, name: str) -> None:
    assert canonical(family, model) == name
    assert key(name) == (family, model)
