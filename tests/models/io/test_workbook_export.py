"""The Excel workbook, opened with openpyxl and read against the command line's answers: a
refresh kept as a scenario (the refresh test estate) against ``evaluate --json`` of either side
and ``refresh --json``; the vSAN test design with growth against ``evaluate --json``'s vsan
list and ``grow``; a price list's totals by hand; the sheets' form (frozen headers, filters,
numbers stored as numbers, widths that fit)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from app.cli.main import main
from models.analysis.growth import grow
from models.document.codec import design_to_json
from models.document.design import Component, Design, Link
from models.io.workbook_export import contents
from tests.models.subsystems.test_vsan import cluster
from tests.refresh_estate import estate

SHEETS = ["Summary", "Clusters", "Hosts", "VMs", "Bill of materials", "Licences",
          "Assumptions"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main(list(args))
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def table(ws: Any) -> list[dict[str, Any]]:
    """The sheet's table: a dict per row, keyed by the header, up to the first blank row."""
    it = ws.iter_rows(values_only=True)
    headers = list(next(it))
    out = []
    for row in it:
        if all(v is None for v in row):
            break
        out.append(dict(zip(headers, row, strict=True)))
    return out


def figures(ws: Any) -> dict[str, dict[str, Any]]:
    """A figure-per-row sheet (Summary, Licences) by figure."""
    return {r["Figure"]: r for r in table(ws)}


@pytest.fixture(scope="module")
def refreshed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The refresh test estate refreshed to R760s and kept as scenario R760, with what
    refresh, evaluate (base and scenario) and export say of it."""
    tmp = tmp_path_factory.mktemp("refresh")
    old, new, xlsx = tmp / "old.json", tmp / "new.json", tmp / "w.xlsx"
    old.write_text(design_to_json(estate()), encoding="utf-8")
    def call(*args: str) -> str:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main(list(args)) == 0, args
        return buf.getvalue()

    refresh = json.loads(call("refresh", str(old), "--to", "dell-r760", "--scenario", "R760",
                              "-o", str(new), "--json"))
    base = json.loads(call("evaluate", str(new), "--json"))
    after = json.loads(call("evaluate", str(new), "--scenario", "R760", "--json"))
    said = call("export", str(new), "-o", str(xlsx), "--scenario", "R760")
    return {"refresh": refresh, "base": base, "after": after, "said": said,
            "wb": load_workbook(xlsx), "path": new}


def test_the_sheets_and_their_form(refreshed: dict[str, Any]) -> None:
    wb = refreshed["wb"]
    assert wb.sheetnames == SHEETS  # no vSAN and no growth in this estate
    assert "7 sheets" in refreshed["said"]
    for ws in wb.worksheets:
        assert ws.freeze_panes == "B2", ws.title
        assert ws.auto_filter.ref.startswith("A1:"), ws.title
        assert all(c.font.bold for c in ws[1] if c.value is not None)
        for cell in ws[1]:  # wide enough for its header
            width = ws.column_dimensions[cell.column_letter].width
            assert width >= min(len(str(cell.value)), 78), (ws.title, cell.value)
    host = table(wb["Hosts"])[0]
    assert isinstance(host["Host CPU (%)"], float) and isinstance(host["Sockets"], int)
    assert isinstance(host["Memory (GB)"], (int, float))


def test_summary_and_licences_are_evaluate_and_refresh_side_by_side(
        refreshed: dict[str, Any]) -> None:
    s = figures(refreshed["wb"]["Summary"])
    base, after, r = refreshed["base"], refreshed["after"], refreshed["refresh"]
    assert s["Hosts"]["base"] == len(base["hosts"]) == r["before"]["hosts"] == 6
    assert s["Hosts"]["R760"] == len(after["hosts"]) == r["after"]["hosts"] == 4
    assert s["Hosts"]["Change"] == -2
    for side, doc, ref in (("base", base, r["before"]), ("R760", after, r["after"])):
        assert s["Licensed cores"][side] == doc["summary"]["licensed_cores"] \
            == ref["licensed_cores"]
        assert s["Hosts needed"][side] == doc["summary"]["consolidation"]["hosts_needed"] \
            == ref["hosts_needed"]
        assert s["Host CPU, mean (%)"][side] == pytest.approx(100 * ref["cpu_util_mean"])
        assert s["Host memory, mean (%)"][side] == pytest.approx(100 * ref["memory_util_mean"])
        assert s["Host CPU, busiest (%)"][side] == pytest.approx(
            100 * max(h["cpu_util"] for h in doc["hosts"]))
    lic = figures(refreshed["wb"]["Licences"])
    assert lic["Licensed cores"]["base"] == 192 and lic["Licensed cores"]["R760"] == 128
    assert lic["Licensed cores, cluster prod"]["R760"] == next(
        c["licensed_cores"] for c in r["after"]["clusters"] if c["id"] == "prod")


def test_clusters_hosts_and_vms_are_evaluates_figures(refreshed: dict[str, Any]) -> None:
    wb, r = refreshed["wb"], refreshed["refresh"]
    for row in table(wb["Clusters"]):
        for side, doc in (("base", refreshed["base"]), ("R760", refreshed["after"])):
            c = next(x for x in doc["extras"]["capacity"]["clusters"] if x["id"] == row["ID"])
            assert row[f"Hosts, {side}"] == c["hosts"]
            assert row[f"Hosts needed, {side}"] == c["hosts_needed"]
            assert row[f"Memory held (GB), {side}"] == pytest.approx(c["memory_gb"])
        ref = next(c for c in r["after"]["clusters"] if c["id"] == row["ID"])
        assert row["Host CPU, mean (%), R760"] == pytest.approx(100 * ref["cpu_util_mean"])
        assert row["Licensed cores, R760"] == ref["licensed_cores"]
    hosts = table(wb["Hosts"])
    assert [h["Side"] for h in hosts] == ["base"] * 6 + ["R760"] * 4
    for side, doc in (("base", refreshed["base"]), ("R760", refreshed["after"])):
        by_id = {h["id"]: h for h in doc["hosts"]}
        for h in (x for x in hosts if x["Side"] == side):
            assert h["Host CPU (%)"] == pytest.approx(100 * by_id[h["ID"]]["cpu_util"])
            assert h["Host memory (%)"] == pytest.approx(100 * by_id[h["ID"]]["memory_util"])
            assert h["VMs"] == by_id[h["ID"]]["vms"]
        vm_doc = {v["id"]: v for v in doc["vms"]}
        names = {h["id"]: h["name"] for h in doc["hosts"]}
        vms = [v for v in table(wb["VMs"]) if v["Side"] == side]
        assert len(vms) == len(doc["vms"]) == 48
        for v in vms:
            assert v["VM CPU (%)"] == pytest.approx(100 * vm_doc[v["ID"]]["cpu_util"])
            assert v["Host"] == names[vm_doc[v["ID"]]["host"]]


def test_the_bill_is_the_refreshs_and_the_assumptions_name_the_population(
        refreshed: dict[str, Any]) -> None:
    wb, r = refreshed["wb"], refreshed["refresh"]
    bom = table(wb["Bill of materials"])
    assert [(x["Item"], x["Quantity"]) for x in bom] == \
        [(x["item"], x["quantity"]) for x in r["after"]["bom"]]
    server = next(x for x in bom if x["Category"] == "Servers")
    assert server["Quantity"] == r["after"]["hosts"] and server["Unit"] == "server"
    memory = next(x for x in bom if x["Category"] == "Memory")
    assert memory["Quantity"] == r["target"]["memory"]["dimms"] * r["after"]["hosts"]
    rows = {(a["Assumption"], a["Applies to"].split(":")[0]): a
            for a in table(wb["Assumptions"])}
    pop = rows[("Memory population of a refresh's new hosts", "4 hosts")]
    assert pop["Value"] == f"{r['target']['memory']['population']} a host"
    assert "inferred" in pop["Source"]
    assert rows[("Hyperthreading", "6 hosts")]["Value"] == "on"
    assert ("Licence edition", "the design") in rows


def test_a_vsan_design_with_growth(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = cluster()
    d.policy["growth.memory_pct"] = 20.0
    f, xlsx = tmp_path / "vsan.json", tmp_path / "vsan.xlsx"
    f.write_text(design_to_json(d), encoding="utf-8")
    doc = json.loads(run(capsys, "evaluate", str(f), "--json"))
    run(capsys, "export", str(f), "-o", str(xlsx))
    wb = load_workbook(xlsx)
    assert wb.sheetnames == ["Summary", "Clusters", "Hosts", "VMs", "vSAN", "Growth",
                             "Bill of materials", "Licences", "Assumptions"]
    (v,) = table(wb["vSAN"])
    (ref,) = doc["vsan"]
    assert v["Cluster"] == ref["name"] and v["Policy"] == ref["policy"]
    for key, header in (("raw_tib", "Raw (TiB)"), ("usable_tib", "Usable (TiB)"),
                        ("free_tib", "Free (TiB)"), ("reserve_tib", "Reserve (TiB)")):
        assert v[header] == pytest.approx(ref[key])
    assert v["Hosts needed"] == ref["hosts_needed"] == 4
    s = figures(wb["Summary"])
    assert s["vSAN raw (TiB)"]["base"] == pytest.approx(ref["raw_tib"])
    grown = grow(d, 3)
    years = [g for g in table(wb["Growth"]) if g["Cluster"] == "(all)"]
    assert [g["Year"] for g in years] == [0, 1, 2, 3]
    for g, y in zip(years, grown.years, strict=True):
        assert g["Hosts needed"] == y.hosts_needed
        assert g["Host memory, mean (%)"] == pytest.approx(100 * (y.memory_util_mean or 0))
    assert years[0]["Host memory, mean (%)"] == pytest.approx(s["Host memory, mean (%)"]["base"])
    said = {a["Assumption"]: a for a in table(wb["Assumptions"])}
    assert said["vSAN compression (data reduction)"]["Value"] == "1 : 1"
    assert said["vSAN operations reserve"]["Value"] == "10 % of raw"
    assert "KB 394410" in said["vSAN ESA file system overhead"]["Source"]
    assert said["Growth rates"]["Value"].startswith("memory 20 % a year")
    bom = {x["Item"]: x for x in table(wb["Bill of materials"])}
    assert bom["vSAN capacity device 3.84 TB"]["Quantity"] == 30


PRICES = ("item,unit_price,currency\nDell PowerEdge R760,12000,EUR\n64 GB DDR5 RDIMM,400,EUR\n"
          "VMware Cloud Foundation subscription (per core),350,EUR\n")


def test_a_price_list_in_the_workbook_by_hand(refreshed: dict[str, Any], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    prices, xlsx = tmp_path / "prices.csv", tmp_path / "priced.xlsx"
    prices.write_text(PRICES, encoding="utf-8")
    run(capsys, "export", str(refreshed["path"]), "-o", str(xlsx), "--scenario", "R760",
        "--prices", str(prices))
    ws = load_workbook(xlsx)["Bill of materials"]
    bom = {x["Item"]: x for x in table(ws)}
    assert bom["Dell PowerEdge R760"]["Cost"] == 4 * 12000
    assert bom["64 GB DDR5 RDIMM"]["Cost"] == 64 * 400
    cores = bom["VMware Cloud Foundation subscription (per core)"]
    assert cores["Cost per year"] == 128 * 350 and cores["Priced per year"] is True
    totals = {r[0]: r for r in ws.iter_rows(min_row=len(bom) + 3, values_only=True) if r[0]}
    assert totals["Hardware, once (EUR)"][10] == 4 * 12000 + 64 * 400
    assert totals["Subscriptions, a year (EUR)"][9] == 128 * 350
    assert totals["Over the horizon, years: 1 (EUR)"][10] == 4 * 12000 + 64 * 400 + 128 * 350
    assert any(str(k).startswith("No price for: Intel Xeon Gold") for k in totals)


def test_the_assumptions_name_each_default_a_figure_rests_on() -> None:
    """An array no import gave drives, a processor the catalogue counts as its family's
    stand-in, one it does not know, hyperthreading unstated, the licence edition."""
    d = Design(name="mixed")
    d.components += [
        Component("c", "cluster", "prod", props={"ha_enabled": True, "failover_hosts": 1,
                                                 "admission_control": "failover_hosts"}),
        Component("h1", "host", "esx1", props={"cpu_model": "Intel(R) Xeon(R) Gold 6199 CPU"
                                               " @ 2.60GHz", "ghz": 2.6,
                                               "hyperthreading": False}),
        Component("h2", "host", "esx2", props={"cpu_model": "Acme Turbo 9000"}),
        Component("a1", "storage_array", "san-a", props={"capacity_gb": 10000.0}),
        Component("a2", "storage_array", "san-b", props={"disks": 24, "media": "hdd10k"}),
        Component("v1", "vm", "db")]
    d.links += [Link("h1", "c", "in_cluster"), Link("h2", "c", "in_cluster"),
                Link("v1", "h1", "runs_on"), Link("v1", "a1", "disk_on")]
    rows = {(r[0], r[1]): r for r in contents(d).table("Assumptions").rows}
    drives = rows[("Drives of an array no import stated", "1 array: san-a")]
    assert drives[2] == "8 drives of SSD" and "schema" in drives[3]
    stand_in = rows[("Processor counted as its family's stand-in", "1 host: esx1")]
    assert "counted as its family's Intel Xeon Silver 4116" in stand_in[2]
    assert "clock alone" in rows[("Processor the catalogue does not know", "1 host: esx2")][2]
    assert rows[("Hyperthreading", "1 host: esx2")][2] == "on"
    assert ("Licence edition", "the design") in rows
    assert not any(k[0].startswith("HA settings") for k in rows)  # the cluster states them
