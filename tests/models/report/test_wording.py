"""Plain words: names for ids, labels for paths, no case ids."""

from __future__ import annotations

from models.document.design import Override
from models.document.studies import FT4
from models.examples import bundled as examples
from models.report.wording import (
    case_ids,
    changes_text,
    component_name,
    in_sentence,
    plain,
    study_title,
    target_text,
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
    out = plain(text, d)
    assert "h1" not in out and "ft4-logging-bandwidth-formula" not in out
    assert out.startswith(f"host {component_name(d, 'h1')}:")
    assert out.endswith("((reads x 8 + rx) x 1.2)")
    ft = examples.load("file-transfer-10g")
    out = plain("vm v2 uses DirectPath NIC n2: near-native", ft)
    assert out == (f"VM {component_name(ft, 'v2')} uses DirectPath NIC"
                   f" {component_name(ft, 'n2')}: near-native")


def test_a_link_named_by_its_ends_reads_as_both_names() -> None:
    d = examples.load("vdi-pcoip")
    assert component_name(d, "dc-branch") == "datacenter – branch office"
    # plain words that are also ids ('branch') are left alone in prose
    assert plain("the branch office", d) == "the branch office"
    assert plain("wan dc-branch: 9 Mbit/s", d) == "WAN link datacenter – branch office: 9 Mbit/s"


def test_overrides_in_words() -> None:
    d = examples.load("vaio-scaling")
    assert target_text(d, "vm") == "every VM"
    assert target_text(d, "tag:other-vms") == "the 15 VMs tagged other-vms"
    text = changes_text(d, [Override("vm", "workload.io_oio", 32),
                                 Override("vm", "vaio_filter", "null"),
                                 Override("design", "policy.cpu_util_max", 0.8)])
    assert text == ("on every VM: outstanding I/Os → 32 I/Os, VAIO I/O filter → null filter"
                    " (pass-through); the policy: CPU utilisation ceiling → 80 %")
    assert in_sentence("NetQueue / VMDq") == "NetQueue / VMDq"
    assert in_sentence("Outstanding I/Os") == "outstanding I/Os"


def test_ids_and_case_ids_leave_the_sentences() -> None:
    names = {"h1": "esx-01", "a1": "array-1", "export": "Export to admins"}
    text = plain("host h1: FT logging NIC below 10 Gbit/s (ft6-network-10gbps-ms-latency)",
                     names)
    assert text == "host esx-01: FT logging NIC below 10 Gbit/s"
    assert plain("h1: VMs demand 7.6 of 18.4 core-equivalents", names) == \
        "esx-01: VMs demand 7.6 of 18.4 core-equivalents"
    # a library called "export" leaves the word export alone
    assert plain("100% busy during the export (streaming)", names) == \
        "100% busy during the export (streaming)"
    assert plain("vm v2 uses DirectPath NIC n2", {"v2": "bbcp"}) == \
        "VM bbcp uses DirectPath NIC n2"
    assert "ft6-network-10gbps-ms-latency" in case_ids()
