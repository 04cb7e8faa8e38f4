"""One format per quantity: units per magnitude, counts with their plural, changes below the
models' resolution as "no change", and ids and case ids out of the sentences."""

from __future__ import annotations

import pytest

from app.support import format as fmt
from models.engine.evaluation import evaluate
from models.engine.kpis import KPIS
from models.examples import bundled as examples


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


def test_changes_below_the_resolution_read_no_change() -> None:
    assert fmt.delta(74_983.0 - 2.28, 74_983.0, "IOPS") == fmt.NO_CHANGE
    assert fmt.delta(30.0, 30.0 * (1 + 0.9 * fmt.RESOLUTION), "ms") == fmt.NO_CHANGE
    assert fmt.delta(30.0 * (1 + 2 * fmt.RESOLUTION), 30.0, "ms").startswith("+0.06 ms")
    assert fmt.delta(0.0091, 0.0191, "Gbit/s") == "−10 Mbit/s (−52 %)"  # unit of the change
    assert fmt.delta(None, 1.0) == fmt.NONE


def test_every_kpi_of_every_example_reads_in_one_format() -> None:
    """The same figure reads the same in a tile, a table and a range: no '75k' beside
    '7,263', no '0.0091 Gbit/s'."""
    for name in examples.names():
        p = evaluate(examples.load(name))
        for kpi in KPIS:
            text = fmt.kpi_text(kpi, p)
            assert "k " not in text and not text.startswith("0.00"), (name, kpi.key, text)


def test_choices_read_as_words() -> None:
    assert fmt.value("raid5") == "RAID 5"
    assert fmt.value("lsi_sas") == "LSI Logic SAS"
    assert fmt.choice("vaio_filter", "null") == "null filter (pass-through)"


def test_ids_and_case_ids_leave_the_sentences() -> None:
    names = {"h1": "esx-01", "a1": "array-1", "export": "Export to admins"}
    text = fmt.plain("host h1: FT logging NIC below 10 Gbit/s (ft6-network-10gbps-ms-latency)",
                     names, fmt.case_ids())
    assert text == "host esx-01: FT logging NIC below 10 Gbit/s"
    assert fmt.plain("h1: VMs demand 7.6 of 18.4 core-equivalents", names) == \
        "esx-01: VMs demand 7.6 of 18.4 core-equivalents"
    # a library called "export" leaves the word export alone
    assert fmt.plain("100% busy during the export (streaming)", names) == \
        "100% busy during the export (streaming)"
    assert fmt.plain("vm v2 uses DirectPath NIC n2", {"v2": "bbcp"}) == \
        "VM bbcp uses DirectPath NIC n2"
    assert "ft6-network-10gbps-ms-latency" in fmt.case_ids()


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
