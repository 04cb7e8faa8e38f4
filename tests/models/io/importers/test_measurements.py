"""How a calibration from measured data reports itself (the data's matching: test_perfdata.py)."""

from __future__ import annotations

from models.io.importers.measurements import ApplyReport


def test_the_report_counts_in_words_singular_for_one() -> None:
    one = ApplyReport("esxtop batch esx01.csv", vms_matched=1, vms_in_design=1, hosts_matched=1,
                      nics_matched=1, unmatched_vms=["ghost99"], unmatched_hosts=["esx09"],
                      switched_profiles=["sql01"])
    assert one.lines() == [
        "calibrated from esxtop batch esx01.csv: 1 of 1 VM matched, 1 host, 1 NIC",
        "  1 VM in the file is not in the design: ghost99",
        "  1 host in the file is not in the design: esx09",
        "  1 VM ran an assumed profile and now runs what was measured: sql01"]
    many = ApplyReport("Aria view.csv", vms_matched=1200, vms_in_design=1500, hosts_matched=0,
                       nics_matched=2, unmatched_vms=[f"vm{i}" for i in range(25)])
    lines = many.lines(limit=3)
    assert lines[0] == "calibrated from Aria view.csv: 1,200 of 1,500 VMs matched, 0 hosts, 2 NICs"
    assert lines[1] == "  25 VMs in the file are not in the design: vm0, vm1, vm2 ..."
