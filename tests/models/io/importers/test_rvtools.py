"""RVTools import: synthetic exports with real RVTools header sets (3.x "MB", 4.x "MiB")."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook

from models.document.codec import design_to_json, loads
from models.document.design import DesignError
from models.io.importers import nearest_esxi
from models.io.importers.rvtools import import_rvtools

# Column sets as RVTools writes them (abridged to the columns around the ones we read, in
# RVTools' order).  4.x spells sizes MiB; 3.x spells them MB and has a single "OS" column.
VINFO_4 = ["VM", "Powerstate", "Template", "SRM Placeholder", "Config status", "DNS Name",
           "Connection state", "Guest state", "Heartbeat", "CPUs", "Memory", "NICs", "Disks",
           "Total disk capacity MiB", "Latency Sensitivity", "Resource pool", "Folder",
           "FT State", "FT Role", "FT Latency", "FT Bandwidth", "Provisioned MiB",
           "In Use MiB", "Unshared MiB", "Path", "Annotation", "Datacenter", "Cluster", "Host",
           "OS according to the configuration file", "OS according to the VMware Tools",
           "VM ID", "VM UUID", "VI SDK Server"]
VINFO_3 = ["VM", "Powerstate", "Template", "Config status", "DNS Name", "Connection state",
           "Guest state", "Heartbeat", "CPUs", "Memory", "NICs", "Disks", "Resource pool",
           "FT State", "FT Role", "Provisioned MB", "In Use MB", "Unshared MB", "Path",
           "Datacenter", "Cluster", "Host", "OS", "VI SDK Server"]
VHOST = ["Host", "Datacenter", "Cluster", "Config status", "CPU Model", "Speed", "HT Available",
         "HT Active", "# CPU", "Cores per CPU", "# Cores", "CPU usage %", "# Memory",
         "Memory usage %", "Console", "# NICs", "# HBAs", "# VMs", "ESX Version", "Boot time"]
VDATASTORE_4 = ["Name", "Config status", "Address", "Accessible", "Type", "# VMs",
                "Capacity MiB", "Provisioned MiB", "In Use MiB", "Free MiB", "Free %",
                "SIOC enabled", "SIOC Threshold", "# Hosts", "Hosts", "Cluster name"]
VNIC = ["Host", "Datacenter", "Cluster", "Network Device", "Driver", "Speed", "Duplex", "MAC",
        "Switch", "Uplink port", "PCI", "WakeOn"]
VNETWORK = ["VM", "Powerstate", "Template", "NIC label", "Adapter", "Network", "Switch",
            "Connected", "Starts Connected", "Mac Address", "Type", "IPv4 Address",
            "Datacenter", "Cluster", "Host"]


def _row(header: list[str], values: dict[str, Any]) -> list[Any]:
    norm = {k.replace("MiB", "MB"): v for k, v in values.items()}
    return [values.get(h, norm.get(h.replace("MiB", "MB"), "")) for h in header]


def estate_rows(n_vms: int, n_hosts: int, *, old: bool = False) -> dict[str, list[list[Any]]]:
    """Rows of a synthetic estate: 2 datacenters, clusters of 8 hosts, VMs spread round-robin;
    every 10th VM powered off, every 25th a template, VM 3 FT-protected with its secondary."""
    vinfo_h = VINFO_3 if old else VINFO_4
    hosts = []
    for i in range(n_hosts):
        hosts.append(_row(VHOST, {
            "Host": f"esx{i:03d}.lab.local", "Datacenter": f"DC{i % 2}",
            "Cluster": f"CL{i // 8}", "CPU Model": "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz",
            "Speed": 2500, "HT Available": "True", "HT Active": "True", "# CPU": 2,
            "Cores per CPU": 20, "# Cores": 40, "# Memory": 786432, "# NICs": 2,
            "ESX Version": "VMware ESXi 7.0.3 build-20328353" if i % 3 else
            "VMware ESXi 6.7.0 build-17700523"}))
    vms = []
    for i in range(n_vms):
        h = i % n_hosts
        vms.append(_row(vinfo_h, {
            "VM": f"vm{i:05d}", "Powerstate": "poweredOff" if i % 10 == 9 else "poweredOn",
            "Template": "True" if i % 25 == 24 else "False", "CPUs": 2 + i % 3 * 2,
            "Memory": 8192, "Disks": 1, "Provisioned MiB": 106496, "In Use MiB": 40960,
            "FT State": "running" if i == 3 else "notConfigured", "FT Role": 1 if i == 3 else "",
            "Path": f"[ds{h % 4}] vm{i:05d}/vm{i:05d}.vmx", "Datacenter": f"DC{h % 2}",
            "Cluster": f"CL{h // 8}", "Host": f"esx{h:03d}.lab.local",
            "OS": "Microsoft Windows Server 2019 (64-bit)" if i % 2 else
            "Red Hat Enterprise Linux 8 (64-bit)",
            "OS according to the configuration file":
                "Microsoft Windows Server 2019 (64-bit)" if i % 2 else
                "Red Hat Enterprise Linux 8 (64-bit)"}))
    vms.append(_row(vinfo_h, {
        "VM": "vm00003", "Powerstate": "poweredOn", "Template": "False", "CPUs": 4,
        "Memory": 8192, "FT State": "running", "FT Role": 2, "Datacenter": "DC0",
        "Cluster": "CL0", "Host": "esx001.lab.local" if n_hosts > 1 else "esx000.lab.local"}))
    ds = [_row(VDATASTORE_4, {"Name": f"ds{j}", "Type": "NFS" if j == 3 else "VMFS",
                              "Capacity MiB": 4194304, "SIOC enabled": "True" if j == 0
                              else "False",
                              "Hosts": ", ".join(f"esx{i:03d}.lab.local"
                                                 for i in range(n_hosts) if i % 4 == j)})
          for j in range(4)]
    nics = [_row(VNIC, {"Host": f"esx{i:03d}.lab.local", "Network Device": f"vmnic{k}",
                        "Speed": 25000 if k < 2 else 0})
            for i in range(n_hosts) for k in range(3)]
    net = [_row(VNETWORK, {"VM": f"vm{i:05d}", "Adapter": "E1000E" if i == 0 else "Vmxnet3"})
           for i in range(n_vms)]
    return {"vInfo": [vinfo_h, *vms], "vHost": [VHOST, *hosts],
            "vDatastore": [VDATASTORE_4, *ds], "vNIC": [VNIC, *nics],
            "vNetwork": [VNETWORK, *net]}


def write_xlsx(path: Path, sheets: dict[str, list[list[Any]]]) -> Path:
    wb = Workbook(write_only=True)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for r in rows:
            ws.append(r)
    wb.save(path)
    return path


def write_csv_folder(folder: Path, sheets: dict[str, list[list[Any]]]) -> Path:
    folder.mkdir()
    for name, rows in sheets.items():
        with (folder / f"RVTools_tab{name}.csv").open("w", newline="", encoding="utf-8-sig") as f:
            csv.writer(f).writerows(rows)
    return folder


def test_xlsx_4x_maps_hosts_vms_arrays_nics(tmp_path: Path) -> None:
    design, report = import_rvtools(write_xlsx(tmp_path / "e.xlsx", estate_rows(100, 16)))
    hosts = design.of_kind("host")
    assert len(hosts) == 16
    h = design.component("h-esx001-lab-local")
    assert h is not None
    assert h.props["sockets"] == 2 and h.props["cores_per_socket"] == 20
    assert h.props["ghz"] == 2.5 and h.props["hyperthreading"] is True
    assert h.props["memory_gb"] == 768 and h.props["esxi_version"] == "7.0"
    assert "cluster-cl0" in h.tags
    # 100 rows: 10 powered off (i % 10 == 9), 4 templates (i % 25 == 24, two of them off)
    assert report.counts["templates"] == 4
    assert report.counts["powered_off_skipped"] == 8
    assert report.counts["vms"] == 100 - 4 - 8 == len(design.of_kind("vm"))
    assert any("template" in s.reason and s.where.startswith("vInfo row") for s in report.skipped)
    vm = design.component("vm-vm00001")
    assert vm is not None
    assert {k: vm.props[k] for k in ("vcpus", "memory_gb", "guest_os", "vnic")} == {
        "vcpus": 4, "memory_gb": 8.0, "guest_os": "windows", "vnic": "vmxnet3"}
    # nothing measured in this export: nothing invented either
    assert vm.props["workload.profile"] == "measured"
    assert vm.props["provenance.io"] == "not measured"
    assert vm.props["provenance.cpu"] == "not measured (counted as idle)"
    assert vm.props["workload.cpu_pct"] == 0.0 and "workload.io_iops" not in vm.props
    assert vm.props["disk.provisioned_gb"] == 104.0 and vm.props["disk.used_gb"] == 40.0
    assert design.component("vm-vm00000").props["vnic"] == "e1000"  # type: ignore[union-attr]
    ft = design.component("vm-vm00003")
    assert ft is not None and ft.props["ft"] is True
    kinds = {(lk.kind, lk.source) for lk in design.links}
    assert ("ft_secondary_on", "vm-vm00003") in kinds
    assert report.counts["ft_secondaries"] == 1
    assert len(design.of_kind("storage_array")) == 4
    nfs = design.component("ds-ds3")
    assert nfs is not None and nfs.props["protocol"] == "nfs"
    assert design.component("ds-ds0").props["sioc"] is True  # type: ignore[union-attr]
    assert len(design.of_kind("nic")) == 32  # vmnic2 is link down on every host
    assert sum("link down" in s.reason for s in report.skipped) == 16
    link = [ln for ln in report.lines() if "link down" in ln]  # one counted line, not 16
    assert link[1].endswith("16 NICs link down or speed unknown (not imported): vmnic2 on 16"
                            " hosts (--json lists each)") and len(link) == 2
    assert {c.name for c in design.of_kind("site")} == {"DC0", "DC1"}
    assert any("6.7" in n and "6.7" in n.split("mapped to")[1] for n in report.notes)
    # the design round-trips through the validating parser
    assert len(loads(design_to_json(design)).components) == len(design.components)


def test_old_mb_headers_and_csv_folder_match_xlsx(tmp_path: Path) -> None:
    rows = estate_rows(60, 8, old=True)
    d1, r1 = import_rvtools(write_xlsx(tmp_path / "old.xlsx", rows))
    d2, r2 = import_rvtools(write_csv_folder(tmp_path / "csv", rows))
    assert r1.counts == r2.counts
    assert design_to_json(d1).replace("old", "csv").count('"vm"') == \
        design_to_json(d2).count('"vm"')
    assert d2.component("vm-vm00002").props["guest_os"] == "linux"  # type: ignore[union-attr]


def test_include_powered_off_imports_them_idle_and_tagged(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "e.xlsx", estate_rows(50, 8))
    design, report = import_rvtools(path, include_powered_off=True)
    off = [c for c in design.of_kind("vm") if "powered-off" in c.tags]
    assert len(off) == report.counts["powered_off_imported"] == 4
    assert all(c.props["workload.profile"] == "idle" for c in off)


def test_site_by_cluster(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "e.xlsx", estate_rows(40, 24))
    design, report = import_rvtools(path, site_by="cluster")
    assert {c.name for c in design.of_kind("site")} == {"CL0", "CL1", "CL2"}
    assert report.counts["clusters"] == 3


def test_garbage_cells_skip_rows_with_reasons(tmp_path: Path) -> None:
    rows = estate_rows(20, 4)
    vinfo = rows["vInfo"]
    cpus = VINFO_4.index("CPUs")
    host = VINFO_4.index("Host")
    vinfo[2][cpus] = "lots"
    vinfo[3][host] = "ghost.lab.local"
    vinfo[6][host] = ""
    vinfo[5][cpus] = 1000
    rows["vHost"][1][VHOST.index("Speed")] = "fast"
    every = ", ".join(f"esx{i:03d}.lab.local" for i in range(4))
    for ds in rows["vDatastore"][1:]:  # shared: a VM's disk does not say which host it is on
        ds[VDATASTORE_4.index("Hosts")] = every
    design, report = import_rvtools(write_xlsx(tmp_path / "e.xlsx", rows))
    reasons = {s.name: s.reason for s in report.skipped}
    assert "'lots' is not a number" in reasons["vm00001"]
    assert "out of range" in reasons["vm00004"]
    # a host missing from vHost, or none at all: placed in the VM's cluster, and named
    placed = {s.name: s.reason for s in report.placement}
    assert "'ghost.lab.local' is not in the inventory" in placed["vm00002"]
    assert placed["vm00005"].startswith("no host") and "cluster CL0" in placed["vm00005"]
    assert "placed-by-cluster" in design.component("vm-vm00002").tags  # type: ignore[union-attr]
    assert report.coverage.by_cluster == 2 and report.coverage.dropped == 2
    assert any("Speed" in n and "fast" in n for n in report.notes)
    assert design.component("h-esx000-lab-local").props.get("ghz") is None  # type: ignore[union-attr]
    text = "\n".join(report.lines())
    assert "vInfo row 3 'vm00001'" in text
    json.dumps(report.to_dict())


@pytest.mark.parametrize("case", ["no_vinfo", "wrong_headers", "not_xlsx", "xls", "empty_dir",
                                  "missing", "empty_sheet", "binary_csv"])
def test_hostile_input_is_a_clear_design_error(tmp_path: Path, case: str) -> None:
    rows = estate_rows(5, 2)
    if case == "no_vinfo":
        del rows["vInfo"]
        path = write_xlsx(tmp_path / "e.xlsx", rows)
        expect = "vInfo"
    elif case == "wrong_headers":
        rows["vInfo"][0] = ["Name", "State", "Cores", "RAM", "Server"] * 3
        path = write_xlsx(tmp_path / "e.xlsx", rows)
        expect = "missing column"
    elif case == "not_xlsx":
        path = tmp_path / "e.xlsx"
        path.write_bytes(b"\x00\x01garbage" * 100)
        expect = "not an Excel"
    elif case == "xls":
        path = tmp_path / "e.xls"
        path.write_bytes(b"\xd0\xcf\x11\xe0" + b"\x00" * 100)
        expect = ".xls"
    elif case == "empty_dir":
        path = tmp_path / "empty"
        path.mkdir()
        expect = "RVTools_tab"
    elif case == "missing":
        path = tmp_path / "nope.xlsx"
        expect = "no such file"
    elif case == "empty_sheet":
        rows["vHost"] = []
        path = write_xlsx(tmp_path / "e.xlsx", rows)
        expect = "vHost"
    else:
        path = write_csv_folder(tmp_path / "csv", rows)
        (path / "RVTools_tabvInfo.csv").write_bytes(b"\x00\xff\x00" * 50)
        expect = "vInfo"
    with pytest.raises(DesignError) as info:
        import_rvtools(path)
    assert expect in str(info.value)


def test_3000_vm_workbook_imports_with_its_report(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "big.xlsx", estate_rows(3000, 160))
    design, report = import_rvtools(path)
    assert report.counts["hosts"] == 160
    assert report.counts["vms"] == len(design.of_kind("vm")) == 3000 - 120 - 240
    assert report.counts["templates"] == 120
    assert len(report.skipped) >= 120 + 240
    assert report.seconds > 0


def test_esxi_versions_map_to_nearest_supported() -> None:
    assert nearest_esxi("VMware ESXi 7.0.3 build-20328353") == "7.0"
    assert nearest_esxi("VMware ESXi 6.7.0") == "6.7"
    assert nearest_esxi("VMware ESX 3.5.0") == "4.0"
    assert nearest_esxi("VMware ESXi 9.0.0") == "8.0"
    assert nearest_esxi("unknown") is None


def test_cli_import_rvtools_prints_report_and_writes_design(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli.main import main  # noqa: PLC0415

    src = write_xlsx(tmp_path / "e.xlsx", estate_rows(30, 8))
    out = tmp_path / "estate.headroom"
    assert main(["import-rvtools", str(src), "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "imported RVTools e.xlsx" in text and "template" in text and "wrote" in text
    assert out.exists()
    assert main(["import-rvtools", str(src), "-o", str(tmp_path / "e.json"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["counts"]["hosts"] == 8
    bad = tmp_path / "bad.xlsx"
    bad.write_text("hello")
    assert main(["import-rvtools", str(bad), "-o", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not an Excel" in err and "Traceback" not in err
    assert not (tmp_path / "x.json").exists()


def test_fast_row_reader_matches_openpyxl(tmp_path: Path) -> None:
    from openpyxl import load_workbook  # noqa: PLC0415

    from models.io.importers.rvtools import fast_rows  # noqa: PLC0415

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "vInfo"
    ws.append(["VM", "CPUs", "Memory", "Template", "Note"])
    ws.append(["a", 2, 4096.5, True, "x"])
    ws.append(["b", None, 1e20, False])
    ws["A6"] = "after a gap"
    ws["E6"] = "=1+1"  # never calculated: openpyxl reads None, the fast reader its text
    ws.append([])
    path = tmp_path / "types.xlsx"
    wb.save(path)
    ro = load_workbook(path, read_only=True, data_only=True)
    try:
        def trim(r: tuple[Any, ...]) -> tuple[Any, ...]:
            out = list(r)
            while out and out[-1] is None:
                out.pop()
            return tuple(out)

        ref = [trim(r) for r in ro["vInfo"].iter_rows(values_only=True)]
        fast = [trim(r) for r in fast_rows(ro["vInfo"])]
    finally:
        ro.close()
    assert fast[5] == ("after a gap", None, None, None, "=1+1")
    fast[5] = ("after a gap",)
    assert fast == ref[:len(fast)] and all(r == () for r in ref[len(fast):])
