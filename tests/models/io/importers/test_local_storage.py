"""Local storage is local (issue 36): a VMFS datastore that exactly one host mounts (its boot or
local disks) is imported as that host's local storage, not as a shared array; the NICs whose
link is down are said in one counted line, not one line each."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from models.document.codec import design_to_json, loads
from models.document.design import Design
from models.document.words import component_summary
from models.io.importers import DatastoreRecord
from models.io.importers.arrays import group_datastores, is_local
from models.io.importers.liveoptics import import_liveoptics
from models.io.importers.rvtools import import_rvtools
from models.io.placement import array_groups, group_count, group_title
from tests.estates import estate, write_xlsx

SAMPLES = Path(__file__).resolve().parents[4].parent / "shared" / "samples"


def _reach(design: Design) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for lk in design.links:
        if lk.kind == "storage":
            out.setdefault(lk.target, set()).add(lk.source)
    return out


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    e = estate(24, 500, seed=11, local_datastores=True, down_nics=2)
    path = write_xlsx(tmp_path_factory.mktemp("local") / "e.xlsx", e.sheets)
    design, report = import_rvtools(path)
    return e, design, report


def test_a_datastore_one_host_mounts_is_that_hosts_local_storage(imported) -> None:  # type: ignore[no-untyped-def]
    e, design, report = imported
    assert len(e.truth.local) == 24
    reach = _reach(design)
    by_name = {a.name: a for a in design.of_kind("storage_array")}
    host_id = {h.name: h.id for h in design.of_kind("host")}
    for name, host in e.truth.local.items():
        a = by_name[name]
        assert a.props["local"] is True
        assert a.props["protocol"] != "fc" and a.props["protocol"] == "sas"
        assert reach[a.id] == {host_id[host]}  # linked to its host alone
        assert a.props["capacity_gb"] > 0
        assert component_summary(a).startswith("local · ")
    # the VMs on a host's local disks run on that host
    runs_on = {lk.source: lk.target for lk in design.links if lk.kind == "runs_on"}
    local_ids = {by_name[n].id: host_id[h] for n, h in e.truth.local.items()}
    on_local = [(lk.source, lk.target) for lk in design.links
                if lk.kind == "disk_on" and lk.target in local_ids]
    assert on_local and all(runs_on[v] == local_ids[a] for v, a in on_local)
    assert report.counts["local_storage"] == 24
    # the design round-trips through the validating parser
    assert sum(1 for c in loads(design_to_json(design)).components
               if c.kind == "storage_array" and c.props.get("local")) == 24


def test_shared_datastores_stay_shared_arrays(imported) -> None:  # type: ignore[no-untyped-def]
    e, design, report = imported
    reach = _reach(design)
    shared = [a for a in design.of_kind("storage_array") if not a.props.get("local")]
    assert shared and report.counts["storage_arrays"] == len(shared)
    assert all(len(reach[a.id]) > 1 for a in shared)
    # every shared datastore of the export is in one of them (LUNs of an array grouped)
    assert len(set(e.truth.arrays.values())) == len(shared)
    assert not any(n in e.truth.local for a in shared for n in (a.name,))


def test_the_report_says_how_many_in_one_line_and_lists_each(imported) -> None:  # type: ignore[no-untyped-def]
    _, _, report = imported
    lines = report.lines()
    said = [ln for ln in lines if "local datastores" in ln and "not shared arrays" in ln]
    assert len(said) == 1
    assert "24 local datastores (one host each: boot and local disks) kept as each host's" \
           " local storage, not shared arrays" in said[0]
    assert "24 hosts' local disks" in lines[0] and "storage arrays" in lines[0]
    folded = next(f for f in report.to_dict()["folded"] if "local datastores" in f["line"])
    assert len(folded["items"]) == 24
    assert any("datastore1 (1)" in item for item in folded["items"])
    detail = report.lines(limit=10_000, dialog=True)  # the import dialog's detail listing
    assert sum(1 for ln in detail if ln.startswith("    vDatastore row")) == 24


def test_nics_link_down_fold_into_one_counted_line(imported) -> None:  # type: ignore[no-untyped-def]
    _, _, report = imported
    down = [s for s in report.skipped if "link down" in s.reason]
    assert len(down) == 48  # vmnic2 and vmnic3 on each of 24 hosts: all kept for --json
    lines = report.lines()
    link = [ln for ln in lines if "link down" in ln]
    assert len(link) == 2  # the tally of skipped rows, and the one counted line
    assert "48 NICs link down or speed unknown (not imported): vmnic2 on 24 hosts, vmnic3 on" \
           " 24 hosts" in link[1]
    # coverage stays the second line, the baseline check is not buried
    assert lines[1].lstrip().startswith("coverage:")
    data = report.to_dict()
    assert sum("link down" in s["reason"] for s in data["skipped"]) == 48
    json.dumps(data)
    assert sum("vmnic" in ln for ln in report.lines(limit=10_000, dialog=True)) >= 48


def test_local_arrays_are_drawn_apart_from_the_shared_ones(imported) -> None:  # type: ignore[no-untyped-def]
    _, design, _ = imported
    local = {a.id for a in design.of_kind("storage_array") if a.props.get("local")}
    groups = array_groups(design)
    names = {c.id: c.name for c in design.components}
    assert groups
    for g in groups:
        assert set(g.arrays) <= local if g.local else not set(g.arrays) & local
    local_groups = [g for g in groups if g.local]
    assert local_groups  # each cluster's hosts' local disks: titled by it, counted as such
    assert all(group_title(g, names.__getitem__) in names.values() for g in local_groups)
    assert all(group_count(g) == f"{len(g.arrays)} hosts' local disks" for g in local_groups)
    assert all(group_count(g).endswith("storage arrays") for g in groups if not g.local)


def _ds(name: str, hosts: list[str], **kw) -> DatastoreRecord:  # type: ignore[no-untyped-def]
    return DatastoreRecord(name=name, where="t", type=kw.pop("type", "VMFS"), hosts=hosts, **kw)


def test_what_makes_a_datastore_local() -> None:
    assert is_local(_ds("datastore1 (12)", ["esx12"]))
    assert is_local(_ds("esx01_local", [], host_count=1))  # "# Hosts" 1, no names
    assert not is_local(_ds("gold", ["esx01", "esx02"]))
    assert not is_local(_ds("gold", ["esx01"], host_count=4))  # the count says four mount it
    assert not is_local(_ds("nfs1", ["esx01"], type="NFS", address="nas:/vol/a"))
    assert not is_local(_ds("vsan", ["esx01"], type="vsan"))
    assert not is_local(_ds("lun", ["esx01"], address="naa.624a9370" + "0" * 24))  # Pure
    assert not is_local(_ds("lun", ["esx01"], type="fc"))
    assert not is_local(_ds("d", ["esx01"], local=False))  # the source says shared
    assert is_local(_ds("d", ["esx01", "esx02"], local=True))  # the source says local
    # a LUN of a SAN array others mount, presented to one host: on the array
    naa = "naa.6d09466000000001"
    groups = group_datastores([_ds("a", ["esx01", "esx02"], address=naa + "1" * 16),
                               _ds("b", ["esx03"], address=naa + "2" * 16)])
    assert len(groups) == 1 and not groups[0].local
    # two hosts' local disks never share an array, however alike their controllers
    groups = group_datastores([_ds("datastore1", ["esx01"], address=naa + "1" * 16),
                               _ds("datastore1 (1)", ["esx02"], address=naa + "2" * 16),
                               _ds("esx01_ssd", ["esx01"], address=naa + "3" * 16)])
    assert [(g.local, g.host, len(g.datastores)) for g in groups] == [
        (True, "esx01", 2), (True, "esx02", 1)]


def test_a_name_two_hosts_local_datastores_share_is_each_hosts_own(tmp_path: Path) -> None:
    """``datastore1`` on a host of each of two datacenters: two local datastores, each its
    host's, each VM's disk on its own host's."""
    e = estate(6, 120, seed=2, local_datastores=True)
    vds, vinfo = e.sheets["vDatastore"], e.sheets["vInfo"]
    name, path_col = vds[0].index("Name"), vinfo[0].index("Path")
    twins = sorted(e.truth.local)[:2]
    for r in vds[1:]:
        if r[name] in twins:
            r[name] = "datastore1"
    for r in vinfo[1:]:
        for old in twins:
            r[path_col] = str(r[path_col]).replace(f"[{old}]", "[datastore1]")
    design, report = import_rvtools(write_xlsx(tmp_path / "e.xlsx", e.sheets))
    arrays = [a for a in design.of_kind("storage_array") if a.name == "datastore1"]
    assert len(arrays) == 2 and all(a.props["local"] for a in arrays)
    reach = _reach(design)
    assert {h for a in arrays for h in reach[a.id]} == {
        "h-" + e.truth.local[t].replace(".", "-") for t in twins}
    assert all(len(reach[a.id]) == 1 for a in arrays)
    runs_on = {lk.source: lk.target for lk in design.links if lk.kind == "runs_on"}
    on = [(lk.source, lk.target) for lk in design.links
          if lk.kind == "disk_on" and lk.target in {a.id for a in arrays}]
    assert on and all(reach[a] == {runs_on[v]} for v, a in on)
    assert not any("duplicate datastore" in s.reason for s in report.skipped)


def test_a_vm_whose_host_is_unknown_runs_where_its_local_disk_is(tmp_path: Path) -> None:
    e = estate(6, 60, seed=4, local_datastores=True)
    vinfo = e.sheets["vInfo"]
    host_col, path_col = vinfo[0].index("Host"), vinfo[0].index("Path")
    row = next(r for r in vinfo[1:] if any(f"[{n}]" in str(r[path_col]) for n in e.truth.local)
               and r[vinfo[0].index("Powerstate")] == "poweredOn")
    ds = next(n for n in e.truth.local if f"[{n}]" in str(row[path_col]))
    row[host_col] = "renamed-by-the-anonymiser"
    design, report = import_rvtools(write_xlsx(tmp_path / "e.xlsx", e.sheets))
    vid = f"vm-{row[0]}"
    runs_on = {lk.source: lk.target for lk in design.links if lk.kind == "runs_on"}
    assert runs_on[vid] == "h-" + e.truth.local[ds].replace(".", "-")
    vm = design.component(vid)
    assert vm is not None and "placed-by-datastore" in vm.tags
    placed = {s.name: s.reason for s in report.placement}
    assert f"whose local datastore '{ds}' holds its disk" in placed[row[0]]


def test_without_local_datastores_nothing_changes(tmp_path: Path) -> None:
    """An estate whose datastores every host mounts: no array is local, none is grouped apart."""
    design, report = import_rvtools(write_xlsx(tmp_path / "e.xlsx",
                                               estate(12, 200, seed=5).sheets))
    assert not any(a.props.get("local") for a in design.of_kind("storage_array"))
    assert "local_storage" not in report.counts and "local disks" not in report.lines()[0]
    assert not any(g.local for g in array_groups(design))
    assert not any("local datastore" in ln for ln in report.lines())


LIVEOPTICS = SAMPLES / "liveoptics-masked-83-vms.xlsx"
RVTOOLS_805 = SAMPLES / "rvtools-anonymised-805-vms.xlsx"


@pytest.mark.skipif(not LIVEOPTICS.exists(), reason="the real Live Optics sample is not here")
def test_the_real_live_optics_workbooks_local_devices() -> None:
    """Its Host Devices say which devices are Local: the three that hold VMs are their hosts'
    local storage (an NVMe disk and a PERC's two virtual disks), the Cluster ones shared."""
    design, report = import_liveoptics(LIVEOPTICS)
    arrays = design.of_kind("storage_array")
    local = [a for a in arrays if a.props.get("local")]
    reach = _reach(design)
    assert len(local) == 3 and all(len(reach[a.id]) == 1 for a in local)
    assert {a.props["protocol"] for a in local} == {"sas"}
    assert Counter(next(iter(reach[a.id])) for a in local) == {"h-server-1": 1,
                                                                "h-server-6": 2}
    assert len(arrays) - len(local) == report.counts["storage_arrays"] == 17
    assert any("3 local datastores" in ln for ln in report.lines())


@pytest.mark.skipif(not RVTOOLS_805.exists(), reason="the real RVTools sample is not here")
def test_the_real_rvtools_export_has_no_datastore_sheet() -> None:
    """Trimmed by its owner to four sheets: no vDatastore, so no arrays of either kind."""
    design, report = import_rvtools(RVTOOLS_805)
    assert not design.of_kind("storage_array")
    assert report.counts["storage_arrays"] == 0 and "local_storage" not in report.counts
