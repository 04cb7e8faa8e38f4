"""Plain words: names for ids, labels for paths, no case ids, units per magnitude, plurals."""

from __future__ import annotations

from app.support import format as fmt
from models.document.design import Override
from models.document.studies import FT4
from models.examples import bundled as examples
from models.report.wording import (
    changes_text,
    component_name,
    in_sentence,
    plain,
    quantity,
    study_title,
    target_text,
    value_text,
)


def test_a_study_reads_by_its_one_title() -> None:
    """A case id, a list of them or any of the case file's names give the study's title."""
    assert study_title("ft4-logging-bandwidth-formula") == FT4.title  # "(VMware white paper…"
    assert study_title("ft4-netperf-rx-logging-bandwidth; ft6-max-vm-size") == FT4.title
    assert study_title(f"{FT4.title} (white paper excerpt)") == FT4.title
    assert study_title("Headroom's own arithmetic") == "Headroom's own arithmetic"


def test_model_texts_name_components_and_drop_case_ids() -> None:
    d = examples.load("ft-netperf")
    text = ("host h1: FT logging NICs (0.94 Gbit/s) are below the sizing rule's 1.13 Gbit/s"
            " ((reads x 8 + rx) x 1.2, ft4-logging-bandwidth-formula)")
    out = plain(d, text)
    assert "h1" not in out and "ft4-logging-bandwidth-formula" not in out
    assert out.startswith(f"host {component_name(d, 'h1')}:")
    assert out.endswith("((reads x 8 + rx) x 1.2)")
    ft = examples.load("file-transfer-10g")
    out = plain(ft, "vm v2 uses DirectPath NIC n2: near-native")
    assert out == (f"VM {component_name(ft, 'v2')} uses DirectPath NIC"
                   f" {component_name(ft, 'n2')}: near-native")


def test_a_link_named_by_its_ends_reads_as_both_names() -> None:
    d = examples.load("vdi-pcoip")
    assert component_name(d, "dc-branch") == "datacenter – branch office"
    # plain words that are also ids ('branch') are left alone in prose
    assert plain(d, "the branch office") == "the branch office"
    assert plain(d, "wan dc-branch: 9 Mbit/s") == "WAN link datacenter – branch office: 9 Mbit/s"


def test_units_per_magnitude_and_plurals() -> None:
    assert quantity(fmt, 0.025, "Gbit/s") == "25 Mbit/s"
    assert quantity(fmt, 1500.0, "ms") == "1.5 s"
    assert quantity(fmt, 0.173, "ms") == "173 µs"
    assert quantity(fmt, 300.0, "min") == "5 h"
    assert quantity(fmt, 1.0, "vCPUs") == "1 vCPU" and quantity(fmt, 2.0, "vCPUs") == "2 vCPUs"
    assert quantity(fmt, 1.0, "requests/s") == "1 request/s"
    assert value_text(fmt, "nic", "pcie_gen", 2) == "Gen2"
    assert value_text(fmt, "vm", "vscsi", "lsi_sas") == "LSI Logic SAS"
    assert value_text(fmt, "design", "policy.cpu_util_max", 0.8) == "80 %"


def test_overrides_in_words() -> None:
    d = examples.load("vaio-scaling")
    assert target_text(d, "vm") == "every VM"
    assert target_text(d, "tag:other-vms") == "the 15 VMs tagged other-vms"
    text = changes_text(d, fmt, [Override("vm", "workload.io_oio", 32),
                                 Override("vm", "vaio_filter", "null"),
                                 Override("design", "policy.cpu_util_max", 0.8)])
    assert text == ("on every VM: outstanding I/Os → 32 I/Os, VAIO I/O filter → null filter"
                    " (pass-through); the policy: CPU utilisation ceiling → 80 %")
    assert in_sentence("NetQueue / VMDq") == "NetQueue / VMDq"
    assert in_sentence("Outstanding I/Os") == "outstanding I/Os"
