"""Processor families: a processor the catalogue lacks counts as a named catalogue processor
of its vendor and core; one no family knows is left to its clock."""

from __future__ import annotations

import statistics

import pytest

from models.core.platform import counted_as
from models.document.catalogue import families as fam
from models.document.catalogue import processors as cat

UNKNOWN = {
    # AMD desktop and laptop parts, by series and (from 2023) by the core's digit
    "AMD Ryzen 7 PRO 5850U with Radeon Graphics      1.90 GHz": "Zen 3",  # Live Optics
    "AMD Ryzen 9 5950X 16-Core Processor": "Zen 3",
    "AMD Ryzen 5 5500U with Radeon Graphics": "Zen 2",  # Lucienne: a Ryzen 5000 of Zen 2
    "AMD Ryzen 7 7840U w/ Radeon 780M Graphics": "Zen 4",
    "AMD Ryzen 9 7950X 16-Core Processor": "Zen 4",
    "AMD Ryzen 5 7520U with Radeon Graphics": "Zen 2",  # 7x20: Mendocino
    "AMD Ryzen 7 7735HS with Radeon Graphics": "Zen 3",  # 7x35: Rembrandt-R
    "AMD Ryzen 9 9950X 16-Core Processor": "Zen 5",
    "AMD Ryzen AI 9 HX 370 w/ Radeon 890M": "Zen 5",
    "AMD Ryzen 5 3600 6-Core Processor": "Zen 2",
    "AMD Ryzen 5 3400G with Radeon Vega Graphics": "Zen,",  # Picasso: Zen+
    "AMD Ryzen 7 1700X Eight-Core Processor": "Zen,",
    "AMD Ryzen Threadripper PRO 5995WX 64-Cores": "Zen 3",
    "AMD Ryzen Threadripper 3990X 64-Core Processor": "Zen 2",
    "Hygon C86 7185 32-core Processor": "Zen,",
    # EPYC numbers SPEC has no result for, by their last digit
    "AMD EPYC 7B12 64-Core Processor": "Zen 2",
    "AMD EPYC 7B13 64-Core Processor": "Zen 3",
    "AMD EPYC 9B14 96-Core Processor": "Zen 4",
    "AMD EPYC 9354X 32-Core Processor": "Zen 4",
    "AMD EPYC 9B45 128-Core Processor": "Zen 5",
    "AMD EPYC 7251X 8-Core Processor": "Zen,",
    # Opteron by family
    "AMD Opteron(tm) Processor 6399": "Piledriver",
    "AMD Opteron(tm) Processor 6299": "Bulldozer",
    "Six-Core AMD Opteron(tm) Processor 2499": "K10",
    "Dual-Core AMD Opteron(tm) Processor 2299": "K8",
    # Xeon E3/E5/E7 by version
    "Intel(R) Xeon(R) CPU E5-2699X v4 @ 2.20GHz": "Broadwell",
    "Intel(R) Xeon(R) CPU E5-2698X v3 @ 2.30GHz": "Haswell-EP",
    "Intel(R) Xeon(R) CPU E5-2699X v2 @ 2.70GHz": "Ivy Bridge-EP",
    "Intel(R) Xeon(R) CPU E5-2699X 0 @ 2.70GHz": "Sandy Bridge-EP",
    "Intel(R) Xeon(R) CPU E7-8899 @ 2.40GHz": "Westmere",
    "Intel(R) Xeon(R) CPU E3-1299 v3 @ 3.30GHz": "Haswell,",
    "Intel(R) Xeon(R) CPU E3-1299 v6 @ 3.30GHz": "Skylake,",
    "Intel(R) Xeon(R) CPU X5699 @ 3.00GHz": "Westmere",
    "Intel(R) Xeon(R) CPU X5599 @ 3.00GHz": "Nehalem",
    # Xeon Scalable by its second digit, Xeon 6 by its letter
    "Intel(R) Xeon(R) Gold 6199 CPU @ 2.30GHz": "Skylake-SP",
    "Intel(R) Xeon(R) Gold 6140X CPU": "Skylake-SP",
    "Intel(R) Xeon(R) Silver 6140 CPU": "Skylake-SP",
    "Intel(R) Xeon(R) Gold 6299 CPU @ 2.30GHz": "Cascade Lake",
    "Intel(R) Xeon(R) Platinum 8399HL CPU": "Cascade Lake",  # Cooper Lake: Cascade Lake's core
    "Intel(R) Xeon(R) Gold 6399 CPU @ 2.30GHz": "Ice Lake-SP",
    "Intel(R) Xeon(R) Gold 6499Y+": "Sapphire Rapids",
    "INTEL(R) XEON(R) GOLD 6599": "Emerald Rapids",
    "Intel(R) Xeon(R) 6999P": "Granite Rapids",
    "Intel(R) Xeon(R) 6999E": "Sierra Forest",
    "Intel(R) Xeon(R) W-2199 CPU @ 3.00GHz": "Skylake-SP",
    "Intel(R) Xeon(R) D-2799NT": "Ice Lake-SP",
    "Intel(R) Xeon(R) E-2299G CPU @ 3.70GHz": "Skylake,",
    # Core i3-i9 by generation: the Xeon of that core
    "Intel(R) Core(TM) i7-9700K CPU @ 3.60GHz": "Skylake,",
    "Intel(R) Core(TM) i7-10700 CPU @ 2.90GHz": "Skylake,",
    "Intel(R) Core(TM) i7-1065G7 CPU @ 1.30GHz": "Rocket Lake",  # Ice Lake laptop
    "11th Gen Intel(R) Core(TM) i7-1185G7 @ 3.00GHz": "Rocket Lake",
    "12th Gen Intel(R) Core(TM) i7-12700": "Raptor Lake",
    "13th Gen Intel(R) Core(TM) i9-13900K": "Raptor Lake",
    "Intel(R) Core(TM) i7-4790 CPU @ 3.60GHz": "Haswell,",
    "Intel(R) Core(TM) i7-2600 CPU @ 3.40GHz": "Sandy Bridge,",
    "Intel(R) Core(TM) i7 CPU         920  @ 2.67GHz": "Nehalem",
    "Intel(R) Core(TM) i7-980X CPU @ 3.33GHz": "Nehalem",
    "Intel(R) Core(TM) Ultra 7 155H": "Granite Rapids",
}
"""Strings the catalogue lacks, and the start of the family they count as ("" none)."""

NO_FAMILY = [
    "Acme Quantum 9000",
    "Neoverse-N1",
    "Intel(R) Xeon(R) CPU @ 2.20GHz",  # a cloud VM's masked model
    "Intel(R) Pentium(R) Gold G5400 CPU @ 3.70GHz",  # "Gold", but no Xeon
    "Intel(R) Xeon(R) CPU E5-2680 v5 @ 2.40GHz",  # no such version
    "Intel(R) Xeon(R) Gold 61400 CPU @ 2.30GHz",
    "AMD 6128",
    "AMD EPYC 9999 Processor",  # no generation digit 9
    "",
]


@pytest.mark.parametrize(("text", "family"), UNKNOWN.items())
def test_each_rule_maps_a_string_to_its_family_and_a_stand_in_of_it(text: str,
                                                                     family: str) -> None:
    assert cat.match(text) is None  # only what the catalogue lacks needs a family
    found = fam.stand_in(text)
    if not family:
        assert found is None
        return
    assert found is not None, text
    assert found.family.name.startswith(family), (text, found.family.name)
    assert found.processor in fam.members(found.family)
    assert found.family.holds(fam.subject(found.processor.model))
    assert found.family.vendor == found.processor.vendor
    assert counted_as(text) == (found.processor, found)


@pytest.mark.parametrize("text", NO_FAMILY)
def test_an_unknown_vendor_or_number_has_no_family(text: str) -> None:
    assert fam.family_of(text) is None and fam.stand_in(text) is None
    assert counted_as(text) is None  # its host runs at its clock alone


def test_a_string_the_catalogue_has_is_its_own_processor() -> None:
    gold = cat.match("Intel(R) Xeon(R) Gold 6140 CPU @ 2.30GHz")
    assert gold is not None
    assert counted_as("Intel(R) Xeon(R) Gold 6140 CPU @ 2.30GHz") == (gold, None)


def test_every_catalogue_processor_is_in_exactly_one_family() -> None:
    for p in cat.processors():
        holders = [f.name for f in fam.FAMILIES if f.holds(fam.subject(p.model))]
        assert len(holders) == 1, (p.model, holders)


def test_every_family_has_a_stand_in_of_its_own_with_results() -> None:
    for f in fam.FAMILIES:
        s = fam.stand_in_of(f)
        assert s is not None and s.ghz, f.name
        assert s.submissions >= fam.MIN_SUBMISSIONS, f.name
        measured = [p for p in fam.members(f) if not p.estimate
                    and p.submissions >= fam.MIN_SUBMISSIONS]
        assert s.estimate is not bool(measured), f.name  # SPEC's own results where any


def test_a_stand_in_says_what_its_familys_processors_do_better_than_the_clock() -> None:
    """Each catalogue processor predicted from its family's stand-in (scaled by its own base
    clock) against its figure: a median error of a few per cent over the catalogue, where
    the clock alone (a 2012 core at that clock) is some 40 % off."""
    ref = cat.find("Intel Xeon E5-2665")
    assert ref is not None and ref.ghz
    by_family, by_clock = [], []
    for f in fam.FAMILIES:
        s = fam.stand_in_of(f)
        assert s is not None and s.ghz
        errors = []
        for p in fam.members(f):
            assert p.ghz
            errors.append(abs(s.specrate_per_core * p.ghz / s.ghz / p.specrate_per_core - 1))
            by_clock.append(abs(ref.specrate_per_core * p.ghz / ref.ghz
                                / p.specrate_per_core - 1))
        assert statistics.median(errors) < 0.2, f.name
        by_family += errors
    assert statistics.median(by_family) < 0.1
    assert statistics.median(by_clock) > 3 * statistics.median(by_family)
