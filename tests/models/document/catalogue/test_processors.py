"""The processor catalogue: the table's figures and the matching of hosts' CPU strings."""

from __future__ import annotations

import pytest

from models.document.catalogue import processors as cat
from models.document.catalogue.processors import match

SAMPLE_STRINGS = {
    # /work/shared/samples: RVTools vHost "CPU Model", Live Optics "CPU Description"
    "Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz": "Intel Xeon E5-2680",
    "Intel(R) Xeon(R) CPU E5-2667 v3 @ 3.20GHz": "Intel Xeon E5-2667 v3",
    "Intel(R) Xeon(R) CPU           X5675  @ 3.07GHz": "Intel Xeon X5675",
    "Intel(R) Xeon(R) CPU           X5690  @ 3.47GHz": "Intel Xeon X5690",
    "Intel(R) Xeon(R) Gold 5218 CPU @ 2.30GHz": "Intel Xeon Gold 5218",
    "Intel(R) Xeon(R) Silver 4110 CPU @ 2.10GHz 2.10 GHz": "Intel Xeon Silver 4110",
    "Intel(R) Xeon(R) Silver 4208 CPU @ 2.10GHz 2.10 GHz": "Intel Xeon Silver 4208",
}

HOST_STRINGS = {
    "Intel(R) Xeon(R) CPU E5-2665 0 @ 2.40GHz": "Intel Xeon E5-2665",
    "Intel(R) Xeon(R) Gold 6140 CPU @ 2.30GHz": "Intel Xeon Gold 6140",
    "AMD EPYC 9354 32-Core Processor": "AMD EPYC 9354",
    "Intel(R) Xeon(R) CPU X5690 @ 3.47GHz": "Intel Xeon X5690",
    "Intel(R) Xeon(R) CPU E5-2650 v4 @ 2.20GHz": "Intel Xeon E5-2650 v4",
    "Intel(R) Xeon(R) Gold 6346 CPU @ 3.10GHz": "Intel Xeon Gold 6346",
    "Intel(R) Xeon(R) Silver 4110 CPU @ 2.10GHz": "Intel Xeon Silver 4110",
    "Intel(R) Xeon(R) CPU E5-2680 v2 @ 2.80GHz": "Intel Xeon E5-2680 v2",
    "Intel(R) Xeon(R) CPU E5-2680 v3 @ 2.50GHz": "Intel Xeon E5-2680 v3",
    "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz": "Intel Xeon E5-2680 v4",
    "Intel(R) Xeon(R) CPU E5-2699A v4 @ 2.40GHz": "Intel Xeon E5-2699A v4",
    "Intel(R) Xeon(R) CPU E7- 4870  @ 2.40GHz": "Intel Xeon E7-4870",
    "Intel(R) Xeon(R) CPU E3-1230 V2 @ 3.30GHz": "Intel Xeon E3-1230 v2",
    "Intel(R) Xeon(R) CPU E3-1220 v3 @ 3.10GHz": "Intel Xeon E3-1220 v3",
    "Intel(R) Xeon(R) CPU           L5640  @ 2.27GHz": "Intel Xeon L5640",
    "Intel(R) Xeon(R) CPU           E5440  @ 2.83GHz": "Intel Xeon E5440",
    "Intel(R) Xeon(R) CPU           X5570  @ 2.93GHz": "Intel Xeon X5570",
    "Intel(R) Xeon(R) Gold 6140M CPU @ 2.30GHz": "Intel Xeon Gold 6140M",
    "Intel(R) Xeon(R) Gold 6338N CPU @ 2.20GHz": "Intel Xeon Gold 6338N",
    "Intel(R) Xeon(R) Gold 6526Y": "Intel Xeon Gold 6526Y",
    "INTEL(R) XEON(R) GOLD 6530": "Intel Xeon Gold 6530",
    "Intel(R) Xeon(R) Platinum 8480+": "Intel Xeon Platinum 8480+",
    "Intel(R) Xeon(R) Platinum 8260 CPU @ 2.40GHz": "Intel Xeon Platinum 8260",
    "Intel(R) Xeon(R) W-2295 CPU @ 3.00GHz": "Intel Xeon W-2295",
    "Intel(R) Xeon(R) CPU Max 9480": "Intel Xeon Max 9480",
    "Intel(R) Xeon(R) 6787P": "Intel Xeon 6787P",
    "AMD EPYC 7763 64-Core Processor": "AMD EPYC 7763",
    "AMD EPYC 9354P 32-Core Processor": "AMD EPYC 9354P",
    "AMD EPYC 7F72 24-Core Processor": "AMD EPYC 7F72",
    "AMD EPYC 7H12 64-Core Processor": "AMD EPYC 7H12",
    "AMD Opteron(tm) Processor 6174": "AMD Opteron 6174",
    "Six-Core AMD Opteron(tm) Processor 2435": "AMD Opteron 2435",
    "Quad-Core AMD Opteron(tm) Processor 2376 HE": "AMD Opteron 2376 HE",
    "Intel Xeon Gold 6140": "Intel Xeon Gold 6140",
    "Intel Xeon 6140": "Intel Xeon Gold 6140",
}

NO_MATCH = [
    # a laptop in the Live Optics sample
    "AMD Ryzen 7 PRO 5850U with Radeon Graphics      1.90 GHz",
    "Intel(R) Core(TM) i7-9700K CPU @ 3.60GHz",
    "Intel(R) Pentium(R) Gold G5400 CPU @ 3.70GHz",  # "Gold", but no Xeon
    "Intel(R) Xeon(R) CPU E5-2680 v5 @ 2.40GHz",  # no such version
    "Intel(R) Xeon(R) Gold 61400 CPU @ 2.30GHz",
    "Intel(R) Xeon(R) CPU E5-26650 @ 2.40GHz",
    "Intel(R) Xeon(R) Silver 6140 CPU",  # the number is a Gold's
    "Intel(R) Xeon(R) Gold 6140X CPU",
    "AMD EPYC 7B12 64-Core Processor",  # a cloud part SPEC has no result for
    "AMD EPYC 9354X 32-Core Processor",
    "AMD 6128",  # Opteron or Xeon Gold: neither family named
    "Intel(R) Xeon(R) CPU @ 2.20GHz",  # a cloud VM's masked model
    "",
    "Neoverse-N1",
]


@pytest.mark.parametrize(("text", "model"), [*SAMPLE_STRINGS.items(), *HOST_STRINGS.items()])
def test_host_strings_match_their_processor(text: str, model: str) -> None:
    found = match(text)
    assert found is not None and found.model == model


@pytest.mark.parametrize("text", NO_MATCH)
def test_unknown_or_wrong_strings_match_nothing(text: str) -> None:
    assert match(text) is None


def test_versions_and_letters_are_different_processors() -> None:
    names = [match(t) for t in ("Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz",
                                "Intel(R) Xeon(R) CPU E5-2680 v2 @ 2.80GHz",
                                "Intel(R) Xeon(R) CPU E5-2680 v3 @ 2.50GHz",
                                "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz")]
    assert len({p.model for p in names if p}) == 4
    assert match("Intel Xeon Gold 6140M") != match("Intel Xeon Gold 6140")
    assert match("AMD Opteron 6128") != match("Intel Xeon Gold 6128")
    assert match("AMD EPYC 9354P") != match("AMD EPYC 9354")


@pytest.mark.parametrize(("model", "per_core", "estimate"), [
    # SPEC's README's examples: CPU2017 medians directly, CPU2006 ones times the bridge
    ("Intel Xeon Silver 4110", 4.57, False),
    ("Intel Xeon Gold 6130", 4.99, False),
    ("Intel Xeon Gold 6140", 5.14, False),
    ("Intel Xeon Platinum 8260", 5.88, False),
    ("Intel Xeon Gold 6526Y", 10.6, False),
    ("AMD EPYC 7763", 6.40, False),
    ("AMD EPYC 9354", 11.6, False),
])
def test_measured_figures_are_specs_medians(model: str, per_core: float,
                                            estimate: bool) -> None:
    p = cat.find(model)
    assert p is not None and p.model == model
    assert p.specrate_per_core == pytest.approx(per_core, rel=0.005)  # to the README's digits
    assert p.estimate is estimate and p.p10 <= p.specrate_per_core <= p.p90


@pytest.mark.parametrize(("model", "cpu2006"), [
    ("Intel Xeon X5570", 29.6), ("Intel Xeon X5680", 29.5), ("Intel Xeon E7-4870", 25.8),
    ("Intel Xeon E5-2665", 36.7), ("Intel Xeon E5-2690", 41.6), ("Intel Xeon E5-2680 v2", 41.2),
])
def test_older_processors_are_bridged_estimates(model: str, cpu2006: float) -> None:
    p = cat.find(model)
    bridge = cat.catalogue().bridge
    assert p is not None and p.estimate and p.cpu2006_per_core is not None
    assert p.cpu2006_per_core == pytest.approx(cpu2006, abs=0.06)
    assert p.specrate_per_core == pytest.approx(p.cpu2006_per_core * bridge.factor, abs=0.001)
    assert "estimate" in p.source and str(bridge.factor) in p.source


def test_the_bridge_and_its_spread() -> None:
    bridge = cat.catalogue().bridge
    assert 0.100 < bridge.factor < 0.108
    assert bridge.low <= bridge.p10 <= bridge.factor <= bridge.p90 <= bridge.high
    assert "Intel Xeon Gold 6130" in bridge.measured_on
    assert len(bridge.measured_on) >= 7


def test_the_table_is_whole() -> None:
    every = cat.processors()
    assert len(every) > 1000
    assert len({p.model for p in every}) == len(every)
    assert "SPEC\u00ae" in cat.catalogue().attribution
    for p in every:
        assert p.vendor in ("Intel", "AMD")
        assert p.specrate_per_core > 0 and p.submissions >= 1 and p.cores
        assert p.estimate == p.source.startswith("estimate")
        assert match(p.model) == p, p.model  # every name finds itself
    e5 = cat.find("Intel Xeon E5-2650 v4")
    assert e5 is not None and (e5.cores, e5.year, e5.ghz) == (12, 2016, 2.2)
    gold = cat.find("Intel Xeon Gold 6140")
    assert gold is not None and (gold.cores, gold.threads_per_core, gold.year) == (18, 2, 2017)
    assert gold.socket_specrate == pytest.approx(18 * gold.specrate_per_core)


def test_search() -> None:
    found = cat.search("gold 614")
    assert {p.model for p in found} >= {"Intel Xeon Gold 6140", "Intel Xeon Gold 6140M"}
    assert all("gold 614" in p.model.lower() for p in found)
    assert cat.search("epyc 9354") and not cat.search("nothing like this")
    assert len(cat.search("")) == len(cat.processors())
