"""Live vCenter import against govmomi's simulator on loopback (built by tests/vcsim)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from models.document.design import DesignError
from models.io.files import load_design, save_design
from models.io.importers.vcenter import Connection, import_vcenter, parse_server
from tests import vcsim

PASSWORD = "s3cret-Pa55word"


@pytest.fixture(scope="module")
def estate() -> Iterator[tuple[str, int]]:
    """4 clusters x 8 hosts, 80 VMs per cluster (10 per host on average), 3 datastores."""
    with vcsim.serve("-cluster", "4", "-host", "8", "-vm", "80", "-ds", "3") as (host, port,
                                                                                 _, _):
        yield host, port


def test_imports_4_clusters_of_8_hosts_with_10_vms_each(estate: tuple[str, int],
                                                          tmp_path: Path) -> None:
    host, port = estate
    # vcsim accepts any user name and password; these must never reach the design file
    conn = Connection(host, "administrator@vsphere.local", PASSWORD, port, insecure=True)
    design, report = import_vcenter(conn)
    assert report.counts["hosts"] == 32 and report.counts["clusters"] == 4
    assert report.counts["vms"] == 320 == len(design.of_kind("vm"))
    assert report.counts["storage_arrays"] == 3
    assert report.counts["nics"] >= 32
    h = design.of_kind("host")[0]
    assert {"sockets", "cores_per_socket", "ghz", "memory_gb", "esxi_version"} <= set(h.props)
    runs_on = {lk.source: lk.target for lk in design.links if lk.kind == "runs_on"}
    assert set(runs_on) == {v.id for v in design.of_kind("vm")}
    assert all(lk.kind != "disk_on" or lk.target.startswith("ds-") for lk in design.links)
    assert {t for c in design.of_kind("host") for t in c.tags} == {
        "cluster-dc0_c0", "cluster-dc0_c1", "cluster-dc0_c2", "cluster-dc0_c3"}
    for ext in (".json", ".headroom"):
        out = tmp_path / f"estate{ext}"
        save_design(design, out)
        data = out.read_bytes()
        assert PASSWORD.encode() not in data and b"administrator" not in data
        assert len(load_design(out).of_kind("vm")) == 320
    assert PASSWORD not in repr(conn) and PASSWORD not in str(report.to_dict())


def test_wrong_port_is_a_clear_error(estate: tuple[str, int]) -> None:
    host, _ = estate
    with pytest.raises(DesignError, match="cannot"):
        import_vcenter(Connection(host, "u", "p", 1, insecure=True))


def test_untrusted_certificate_needs_insecure(estate: tuple[str, int]) -> None:
    host, port = estate
    with pytest.raises(DesignError, match="certificate"):
        import_vcenter(Connection(host, "u", "p", port, insecure=False))


def test_parse_server_refuses_credentials_in_the_address() -> None:
    assert parse_server("vc.lab") == ("vc.lab", 443)
    assert parse_server("https://vc.lab:8443/sdk") == ("vc.lab", 8443)
    with pytest.raises(DesignError, match="credentials"):
        parse_server("https://root:pw@vc.lab/sdk")


def test_cli_import_vcenter_takes_the_password_from_the_environment(
        estate: tuple[str, int], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from app.cli.main import main  # noqa: PLC0415

    host, port = estate
    out = tmp_path / "vc.json"
    monkeypatch.setenv("HEADROOM_VCENTER_PASSWORD", PASSWORD)
    code = main(["import-vcenter", f"{host}:{port}", "--user", "admin", "--insecure",
                 "-o", str(out), "--site-by", "cluster"])
    assert code == 0, capsys.readouterr().err
    assert "32 hosts in 4 clusters at 4 sites" in capsys.readouterr().out
    assert PASSWORD not in out.read_text()
    monkeypatch.delenv("HEADROOM_VCENTER_PASSWORD")
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert main(["import-vcenter", host, "--user", "admin", "-o", str(tmp_path / "b.json")]) == 2
    assert "HEADROOM_VCENTER_PASSWORD" in capsys.readouterr().err


def test_perf_history_sets_each_vms_demand_from_the_counters(estate: tuple[str, int]) -> None:
    """vcsim serves PerformanceManager's counters (the wrapper gives it virtual-disk samples):
    a week of history at 30-minute samples, reduced to p95 or the mean."""
    host, port = estate
    conn = Connection(host, "administrator@vsphere.local", PASSWORD, port, insecure=True)
    design, report = import_vcenter(conn, perf_days=7, stat="p95")
    _, mean_report = import_vcenter(conn, perf_days=7, stat="mean")
    vms = design.of_kind("vm")
    assert report.coverage.measured_cpu == report.coverage.measured_io == len(vms) == 320
    vm = vms[0]
    for key in ("measured.cpu_mhz", "measured.memory_consumed_gb", "measured.iops",
                "measured.latency_ms", "measured.net_mbps"):
        value = vm.props[key]
        assert isinstance(value, float) and value > 0, key
    # the simulator's samples for numberRead/WriteAveraged are 90-200 and 40-100 per second
    assert 130.0 < float(str(vm.props["measured.iops"])) < 450.0
    assert 50.0 < float(str(vm.props["measured.read_pct"])) < 80.0
    assert str(vm.props["provenance.cpu"]).startswith(
        "measured: vCenter cpu.usagemhz.average p95 over 7 days (30-minute samples")
    assert vm.props["workload.io_iops"] == vm.props["measured.iops"]
    assert any("p95 over 7 days" in line for line in report.provenance)
    assert any("mean over 7 days" in line for line in mean_report.provenance)
    host_rec = design.of_kind("host")[0]
    assert isinstance(host_rec.props.get("measured.cpu_pct"), float)
    # clusters come with the simulator's HA/DRS configuration
    assert len(design.of_kind("cluster")) == 4


def test_cli_import_vcenter_perf(estate: tuple[str, int], tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from app.cli.main import main  # noqa: PLC0415

    host, port = estate
    monkeypatch.setenv("HEADROOM_VCENTER_PASSWORD", PASSWORD)
    out = tmp_path / "perf.json"
    code = main(["import-vcenter", f"{host}:{port}", "--user", "admin", "--insecure",
                 "-o", str(out), "--perf", "1", "--stat", "max"])
    text = capsys.readouterr().out
    assert code == 0 and "max over 1 days (5-minute samples" in text
    assert "storage I/O 320 of 320" in text, text
    assert main(["import-vcenter", f"{host}:{port}", "--user", "admin", "--insecure",
                 "-o", str(tmp_path / "x.json"), "--perf", "0"]) == 2
    assert "--perf" in capsys.readouterr().err
