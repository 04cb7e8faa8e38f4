"""Content Library: the design kind validates precisely, and the pipeline model behaves like
its mechanism (bottleneck, processor sharing, queueing, fan-out, mirror, throttle scope)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from models.calibration.content_library import (
    HTTP,
    ITEM,
    mirror_design,
    one_library,
    sync_design,
    transfer,
)
from models.core import events
from models.document.codec import parse_design
from models.document.design import DesignError, Override
from models.engine.evaluation import Engine, evaluate
from models.examples import bundled as examples
from models.subsystems import content_library
from models.subsystems.content_library import Stage, run_pipeline


def _doc(components: list[dict[str, Any]], links: list[dict[str, Any]] | None = None
         ) -> dict[str, Any]:
    return {"format": "headroom-design", "version": 1, "name": "t", "components": components,
            "links": links or []}


def _row(props: dict[str, Any]) -> dict[str, Any]:
    return transfer(evaluate(one_library(props)), "lib")


def test_minimal_library_is_valid_and_has_defaults() -> None:
    d = parse_design(_doc([{"id": "cl", "kind": "content_library"}]))
    lib = d.components[0]
    assert lib.get("max_concurrent_transfers") == 20
    assert lib.get("max_concurrent_sync_items") == 5
    assert lib.get("max_bandwidth_mbps") == 0.0
    assert lib.get("https") is True and lib.get("rhttpproxy") is True


@pytest.mark.parametrize(("prop", "value", "expected"), [
    ("backing", "vsan", "one of 'datastore', 'nfs'"),
    ("operation", "clone", "one of 'sync', 'deploy', 'import', 'export'"),
    ("network_gbps", 2.5, "one of 1, 10, 25, 40, 100"),
    ("max_concurrent_transfers", 0, "a whole number from 1 to 1000"),
    ("max_bandwidth_mbps", -1, "Mbit/s"),
    ("deploy_path", "teleport", "'vaai', 'same_host', 'cross_host'"),
])
def test_bad_property_names_component_property_and_expectation(
        prop: str, value: object, expected: str) -> None:
    with pytest.raises(DesignError) as err:
        parse_design(_doc([{"id": "cl", "kind": "content_library", "props": {prop: value}}]))
    text = str(err.value)
    assert "component 'cl'" in text and f"'{prop}'" in text and expected in text


def test_subscribes_to_must_join_two_libraries() -> None:
    with pytest.raises(DesignError, match="a subscribes_to link goes from a content_library to a"
                       " content_library; 'h' is a host"):
        parse_design(_doc([{"id": "cl", "kind": "content_library"}, {"id": "h", "kind": "host"}],
                          [{"from": "cl", "to": "h", "kind": "subscribes_to"}]))


def test_a_library_subscribes_to_at_most_one_publisher() -> None:
    comps = [{"id": i, "kind": "content_library"} for i in ("a", "b", "c")]
    with pytest.raises(DesignError, match="has 2 subscribes_to links"):
        parse_design(_doc(comps, [{"from": "a", "to": "b", "kind": "subscribes_to"},
                                  {"from": "a", "to": "c", "kind": "subscribes_to"}]))


def test_bottleneck_is_the_slowest_stage() -> None:
    stages = [Stage("a", "fast", 100.0, 100.0), Stage("b", "slow", 100.0, 10.0)]
    t, batch, k, utils, bound = run_pipeline(stages, 1, 20)
    assert (t, batch, k, bound) == (pytest.approx(10.0), pytest.approx(10.0), 1, 1)
    assert utils == [pytest.approx(0.1), pytest.approx(1.0)]


def test_transfers_share_an_aggregate_and_queue_in_batches() -> None:
    stages = [Stage("net", "link", 100.0, per_transfer=50.0, aggregate=100.0)]
    one = run_pipeline(stages, 1, 4)[0]
    two = run_pipeline(stages, 2, 4)[0]
    four = run_pipeline(stages, 4, 4)[0]
    eight = run_pipeline(stages, 8, 4)[0]
    assert two == pytest.approx(one)  # per-transfer cap: the second rides free
    assert four == pytest.approx(2 * one)  # shared aggregate
    assert eight == pytest.approx(2 * four)  # queued: a second batch


def test_raising_concurrency_helps_aggregate_only_when_network_is_underused() -> None:
    """cl-concurrency-improves-aggregate-only: the per-operation rate never improves."""
    base = {"backing": "nfs", "operation": "export", "items": 10, **HTTP}
    low = _row(dict(base, max_concurrent_transfers=1, network_gbps=10.0))
    high = _row(dict(base, max_concurrent_transfers=10, network_gbps=10.0))
    assert high["throughput_MBps"] > 2 * low["throughput_MBps"]
    per_op_low = low["throughput_MBps"] / low["active"]
    per_op_high = high["throughput_MBps"] / high["active"]
    assert per_op_high <= per_op_low + 1e-9
    saturated = [_row(dict(base, network_gbps=1.0, max_concurrent_transfers=n))
                 for n in (5, 10)]
    assert saturated[1]["throughput_MBps"] == pytest.approx(saturated[0]["throughput_MBps"])


def test_direct_copy_beats_streaming_and_10gbe_helps_except_compression_bound() -> None:
    """cl-deploy-direct-vs-streaming, cl-sync-recommendations."""
    ds = {"backing": "datastore"}
    elm = dict(ds, enhanced_linked_mode=True)

    def secs(pub: dict[str, Any], sub: dict[str, Any], g: float) -> float:
        row = transfer(evaluate(sync_design(pub, sub, {"network_gbps": g})), "sub")
        return float(row["completion_s"])

    for g in (1.0, 10.0):
        assert secs(ds, elm, g) < secs(ds, ds, g)
    for pub, sub in ((ds, elm), ({"backing": "nfs"}, {"backing": "nfs"}),
                     ({"backing": "nfs"}, ds)):
        assert secs(pub, sub, 10.0) < secs(pub, sub, 1.0)
    assert secs(ds, ds, 10.0) == pytest.approx(secs(ds, ds, 1.0), rel=0.02)


def test_datastore_export_is_compression_bound() -> None:
    """cl-export-exp5-datastore-compression-bound: 10GbE or rhttpproxy off barely helps."""
    base = {"backing": "datastore", "operation": "export", "network_gbps": 1.0}
    slow = _row(base)
    assert slow["bound_by"] == "vCenter compression"
    for change in ({"network_gbps": 10.0}, HTTP):
        assert _row(dict(base, **change))["completion_s"] == pytest.approx(
            slow["completion_s"], rel=0.05)


def test_throttle_limits_streaming_only() -> None:
    capped = _row({"backing": "nfs", "operation": "export", "max_bandwidth_mbps": 80.0, **HTTP})
    assert capped["throughput_MBps"] == pytest.approx(10.0)
    assert capped["bound_by"] == "Maximum Bandwidth Consumption"
    vaai = _row({"operation": "deploy", "deploy_path": "vaai"})
    vaai_capped = _row({"operation": "deploy", "deploy_path": "vaai", "max_bandwidth_mbps": 8.0})
    assert vaai_capped["completion_s"] == pytest.approx(vaai["completion_s"])


def test_mirror_servers_cut_wan_copies_and_time() -> None:
    off, on = evaluate(mirror_design(False)), evaluate(mirror_design(True))
    assert transfer(off, "pub")["wan_copies_per_item"] == 6
    assert transfer(on, "pub")["wan_copies_per_item"] == 2
    assert transfer(on, "sub11")["completion_s"] < transfer(off, "sub11")["completion_s"]
    assert any(r.resource == "WAN" for r in off.resources)


def test_fanout_beyond_the_limit_waits_and_warns() -> None:
    d = mirror_design(False, remote_sites=1, per_site=3)
    e = Engine(d)
    before = transfer(e.evaluate(), "sub11")["completion_s"]
    e.patch(Override("content_library", "max_concurrent_transfers", 5))
    p = e.evaluate()
    assert transfer(p, "sub11")["subscriber_rounds"] == 3
    assert transfer(p, "sub11")["completion_s"] > before
    assert any("at most 1 sync at once" in w for w in p.warnings)


def test_queued_transfers_warn() -> None:
    p = evaluate(one_library({"operation": "deploy", "items": 25}))
    assert transfer(p, "lib")["queued"] == 5
    assert any("5 of 25 deploy transfers queue" in w for w in p.warnings)


def test_bottleneck_resources_name_the_stage() -> None:
    p = evaluate(one_library({"backing": "nfs", "operation": "export", "items": 10}))
    top = p.bottlenecks(1)[0]
    assert (top.component, top.resource) == ("lib", "vCenter rhttpproxy")
    assert "rhttpproxy" in top.explanation and top.util == pytest.approx(1.0)


def test_sync_without_publisher_is_a_publisher_row_and_json_is_finite() -> None:
    p = evaluate(one_library({}))
    row = transfer(p, "lib")
    assert row["operation"] == "publish" and row["completion_s"] is None
    doc = json.loads(json.dumps(p.to_dict(), allow_nan=False))
    assert doc["extras"]["content_library"][0]["id"] == "lib"


@pytest.mark.parametrize("op", ["sync", "deploy", "import", "export"])
@pytest.mark.parametrize("backing", ["datastore", "nfs"])
def test_every_operation_gives_a_finite_positive_time(op: str, backing: str) -> None:
    p = evaluate(sync_design({"backing": backing}, {"backing": backing, "operation": op}))
    row = transfer(p, "sub")
    assert math.isfinite(row["completion_s"]) and row["completion_s"] > 0
    assert row["throughput_MBps"] > 0


def test_knob_patch_changes_the_answer() -> None:
    e = Engine(sync_design({"backing": "nfs"}, {"backing": "nfs"}, {"network_gbps": 1.0}))
    slow = transfer(e.evaluate(), "sub")["completion_s"]
    e.patch(Override("content_library", "network_gbps", 10.0))
    assert transfer(e.evaluate(), "sub")["completion_s"] < slow


def test_prediction_summarises_the_library_jobs() -> None:
    """Publishers and idle libraries are not jobs; the slowest, mean and MB/s are theirs."""
    p = evaluate(examples.load("content-library"))
    jobs = p.library_transfers
    rows = p.sections.to_json()["content_library"]
    assert {j.id for j in jobs} == {r["id"] for r in rows if r["operation"] != "publish"}
    times = [j.completion_s or 0.0 for j in jobs]
    assert p.library_slowest_s == max(times) and p.library_mean_s == pytest.approx(
        sum(times) / len(times))
    assert p.library_mb_per_s == pytest.approx(sum(j.throughput_mbps or 0.0 for j in jobs))
    empty = evaluate(sync_design({"backing": "nfs"}, {"backing": "nfs", "items": 0}))
    assert empty.library_transfers == [] and empty.library_slowest_s == 0.0


def test_describe_says_time_rate_and_limit_in_words() -> None:
    p = evaluate(examples.load("content-library"))
    jobs = p.sections.content_library or []
    deploy = content_library.describe(jobs, "deploy")
    assert deploy[0].startswith("deploy of 4 items: 4.9 min at 294 MB/s")
    assert deploy[-1] == "bound by ESXi host copy (NFC)"
    assert content_library.describe(jobs, "sub-elm")[0].startswith("sync of 1 item: 63 s")
    assert content_library.describe(jobs, "pub-ds") == ["publishes to 1 subscribed library"]
    assert content_library.describe(jobs, "pub-nfs")[1].endswith("GB over WAN links per sync")
    assert content_library.describe(jobs, "nope") == []


@pytest.mark.parametrize(("seconds", "text"), [(5, "5 s"), (89, "89 s"), (90, "1.5 min"),
                                                (5399, "90.0 min"), (5400, "1.5 h")])
def test_duration(seconds: float, text: str) -> None:
    assert content_library.duration(seconds) == text


def test_an_nfs_library_moves_every_byte_through_vcenter() -> None:
    """An NFS library is mounted on vCenter: its reads (export, deploy) and writes (import,
    sync into it) cross vCenter's network; a datastore library's do not."""
    def nfs_util(props: dict[str, object]) -> float:
        p = evaluate(one_library(props))
        return max((r.util for r in p.resources if r.resource == "vCenter NFS mount"),
                   default=0.0)

    for op in ("export", "deploy", "import"):
        assert nfs_util({"backing": "nfs", "operation": op}) > 0.0
        assert nfs_util({"backing": "datastore", "operation": op}) == 0.0
    # ten concurrent exports without rhttpproxy on 1GbE fill vCenter's link both ways
    p = evaluate(one_library({"backing": "nfs", "operation": "export", "items": 10,
                         "network_gbps": 1.0, "rhttpproxy": False, "https": False}))
    assert nfs_util({"backing": "nfs", "operation": "export", "items": 10, "network_gbps": 1.0,
                     "rhttpproxy": False, "https": False}) == 1.0
    assert transfer(p, "lib")["throughput_MBps"] == pytest.approx(125.0 * events.TCP_GOODPUT)


def test_vcenter_processor_sets_the_cpu_stages_pace() -> None:
    """Compression is work per byte on vCenter's cores: a compression-bound export runs at the
    speed of the processor vCenter sits on, over the studies' Xeon E7530."""
    base = {"backing": "datastore", "operation": "export", "network_gbps": 10.0}
    old = _row(dict(base, vcenter_cpu_model="Intel Xeon E7530"))
    new = _row(dict(base, vcenter_cpu_model="Intel(R) Xeon(R) Gold 6526Y"))
    assert old["bound_by"] == new["bound_by"] == "vCenter compression"
    ratio = (content_library.vcenter_speed("Intel Xeon Gold 6526Y") or 0.0) / (
        content_library.vcenter_speed("Intel Xeon E7530") or 1.0)
    assert ratio > 3.0
    assert new["throughput_MBps"] / old["throughput_MBps"] == pytest.approx(ratio, rel=1e-6)


def test_an_unknown_vcenter_processor_is_named_and_counted_at_the_reference_core() -> None:
    p = evaluate(one_library({"vcenter_cpu_model": "Acme Turbo 9000", "operation": "export",
                              "backing": "nfs"}))
    assert any("'Acme Turbo 9000' is not in the processor catalogue" in w for w in p.warnings)
    assert transfer(p, "lib")["completion_s"] == pytest.approx(
        _row({"operation": "export", "backing": "nfs", "vcenter_cpu_model": ""})["completion_s"])


def test_tls_costs_the_published_cipher_and_mac_cycles() -> None:
    """Turning HTTPS off through rhttpproxy removes exactly the cipher and MAC: AES-128-CBC
    and HMAC-SHA1 at the cycles the ssh model charges, not an assumed share."""
    export = {"backing": "nfs", "operation": "export", "network_gbps": 10.0, "items": 1,
              "vcenter_cpu_model": "Intel Xeon E7530"}
    speed = content_library.vcenter_speed("Intel Xeon E7530") or 1.0

    def proxy_mbps(https: bool) -> float:
        lib = {**dict(ITEM, **export), "https": https, "rhttpproxy": True,
               "vcenter_speed": speed, "vcenter_vcpus": 16, "vcenter_aes_ni": False}
        (stage,) = content_library._proxy(1.0, lib, 1, "")
        return stage.per_transfer

    assert 1000.0 / proxy_mbps(True) - 1000.0 / proxy_mbps(False) == pytest.approx(
        content_library.tls_ns() / speed, rel=1e-9)
    assert _row(export)["bound_by"] == "vCenter rhttpproxy (HTTPS)"
    # 18 cycles of a Nehalem core for AES-128-CBC plus HMAC-SHA1's 6 reference cycles
    assert content_library.tls_ns() == pytest.approx(
        events.aes128_cbc_ns() + 6.0 / 2.4, rel=1e-9)


def test_a_vcenter_with_aes_ni_ciphers_tls_on_it() -> None:
    """With AES-NI the Transfer Service's TLS is AES-GCM on those instructions: a fraction of
    the software AES-CBC and HMAC-SHA1 the studies' Xeon E7530 paid."""
    assert content_library.tls_ns(aes_ni=True) < content_library.tls_ns(aes_ni=False) / 5
    export = {"backing": "nfs", "operation": "export", "network_gbps": 10.0}
    assert _row(dict(export, vcenter_aes_ni=True))["completion_s"] < _row(
        dict(export, vcenter_aes_ni=False))["completion_s"]


def test_a_job_bound_by_vcenter_work_says_what_its_cores_are_worth() -> None:
    p = evaluate(one_library({"operation": "export", "backing": "nfs"}))
    (text,) = [t for t in content_library.describe(p.sections.content_library or [], "lib")
               if t.startswith("bound by")]
    assert text == ("bound by vCenter rhttpproxy (HTTPS), on vCenter cores worth 0.518 x the"
                    " reference core")
    deploy = evaluate(one_library({"operation": "deploy", "deploy_path": "vaai"}))
    assert not any("vCenter cores" in t for t in content_library.describe(
        deploy.sections.content_library or [], "lib"))
