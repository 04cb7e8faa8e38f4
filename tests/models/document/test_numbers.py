"""One format per quantity: units per magnitude, counts with their plural, fractions as
percentages, and changes below the models' resolution as "no change"."""

from __future__ import annotations

import pytest

from models.document import numbers as fmt


@pytest.mark.parametrize(("x", "unit", "text"), [
    (0.0091, "Gbit/s", "9.1 Mbit/s"),  # the PCoIP branch
    (1130.0, "Mbit/s", "1.13 Gbit/s"),
    (250.0, "kbit/s", "250 kbit/s"),
    (6.42, "Gbit/s", "6.42 Gbit/s"),
    (16384.0, "bytes", "16 KB"),
    (4096.0, "KB", "4 MB"),
    (0.5, "GB", "512 MB"),
    (10_000.0, "ms", "10 s"),  # a saturated response
    (27.3, "ms", "27.3 ms"),
    (0.0046, "ms", "4.6 µs"),
    (89.9, "min", "89.9 min"),
    (0.5, "min", "30 s"),
    (1500.0, "MB/s", "1.5 GB/s"),
    (74_983.2, "IOPS", "74,983 IOPS"),
    (7_263.0, "IOPS", "7,263 IOPS"),
    (0.0, "Gbit/s", "0 Gbit/s"),
])
def test_the_unit_follows_the_magnitude(x: float, unit: str, text: str) -> None:
    assert fmt.with_unit(x, unit) == text


def test_counts_are_singular_for_one() -> None:
    assert fmt.with_unit(1.0, "drives") == "1 drive"
    assert fmt.with_unit(8.0, "drives") == "8 drives"
    assert fmt.with_unit(1.0, "I/Os") == "1 I/O"
    assert fmt.value(1, "vCPUs") == "1 vCPU"
    assert fmt.count(1, "FT-protected VM") == "1 FT-protected VM"
    assert fmt.count(3, "FT-protected VM") == "3 FT-protected VMs"
    assert fmt.count(2, "library", "libraries") == "2 libraries"
    assert fmt.value(1, "round trips") == "1 round trip"


def test_every_counted_unit_of_the_schema_has_a_singular() -> None:
    """A property counted in a plural noun (drives, round trips, users) reads singular for
    one: rates (/s), times (ms, us) and IOPS are not nouns to count."""
    from models.document import schema  # noqa: PLC0415

    units = {p.unit for spec in [*schema.KINDS.values(), *schema.LINKS.values()]
             for p in getattr(spec, "props", {}).values() if p.unit}
    counted = {u for u in units if u.endswith("s") and "/" not in u
               and u not in ("ms", "us", "IOPS")}
    assert counted and counted <= set(fmt.SINGULAR)


def test_one_scaling_rule_for_the_report_too() -> None:
    """The report reads figures as the dashboard does (it had a second rule that read
    1,500 ms as 1.5 s while a tile read it 1,500 ms)."""
    assert fmt.with_unit(1500.0, "ms") == "1,500 ms"
    assert fmt.with_unit(15_000.0, "ms") == "15 s"
    assert fmt.with_unit(0.173, "ms") == "0.173 ms"
    assert fmt.with_unit(300.0, "min") == "5 h"
    assert fmt.with_unit(1.0, "vCPUs") == "1 vCPU" and fmt.with_unit(2.0, "vCPUs") == "2 vCPUs"
    assert fmt.with_unit(1.0, "requests/s") == "1 request/s"


def test_a_property_value_reads_in_its_words() -> None:
    assert fmt.prop_value("nic", "pcie_gen", 2) == "Gen2"  # not "2 generation"
    assert fmt.value(2, "generation") == "Gen2"
    assert fmt.field_unit("generation") == "" and fmt.field_unit("GB") == "GB"  # inspector
    assert fmt.prop_value("vm", "vscsi", "lsi_sas") == "LSI Logic SAS"
    assert fmt.prop_value("design", "policy.cpu_util_max", 0.8) == "80 %"  # not "0.8"
    assert fmt.prop_value("design", "policy.cpu_util_max", 0.9) == "90 %"
    assert fmt.prop_value("vm", "workload.io_iops", None) == "auto"
    assert fmt.prop_value("content_library", "compression_ratio", 2.78) == "2.78x"
    assert fmt.prop_value("host", "memory_gb", 766.658) == "767 GB"  # not "766.658 GB"


def test_changes_below_the_resolution_read_no_change() -> None:
    assert fmt.delta(74_983.0 - 2.28, 74_983.0, "IOPS") == fmt.NO_CHANGE
    assert fmt.delta(30.0, 30.0 * (1 + 0.9 * fmt.RESOLUTION), "ms") == fmt.NO_CHANGE
    assert fmt.delta(30.0 * (1 + 2 * fmt.RESOLUTION), 30.0, "ms").startswith("+0.06 ms")
    assert fmt.delta(0.0091, 0.0191, "Gbit/s") == "−10 Mbit/s (−52 %)"  # unit of the change
    assert fmt.delta(None, 1.0) == fmt.NONE


def test_choices_read_as_words() -> None:
    assert fmt.value("raid5") == "RAID 5"
    assert fmt.value("lsi_sas") == "LSI Logic SAS"
    assert fmt.choice("vaio_filter", "null") == "null filter (pass-through)"


def test_relative_errors_read_in_two_digits_and_rounding_as_zero() -> None:
    assert fmt.signed_percent(-0.042) == "−4.2 %"
    assert fmt.signed_percent(0.14) == "+14 %"
    assert fmt.signed_percent(1.5e-16) == "0 %"
    assert fmt.signed_percent(-5.9e-16) == "0 %"


def test_percentages_keep_to_two_decimals() -> None:
    assert fmt.percent(0.873) == "87.3 %"
    assert fmt.percent(0.000242) == "0.02 %"
    assert fmt.percent(0.00005) == "< 0.01 %"
    assert fmt.percent(0.0) == "0 %"
    assert fmt.percent(1.0) == "100 %"
