from __future__ import annotations

import json
import math

import numpy as np
import pytest

from models.core import uncertainty
from models.core.uncertainty import BANDS, Bands
from models.document.design import Override
from models.engine.evaluation import Engine, evaluate_bands
from models.examples import bundled as examples


def _bands(scenario: str | None = None, example: str = "vaio-scaling") -> tuple[Engine, Bands]:
    engine = Engine(examples.load(example), scenario)
    return engine, evaluate_bands(engine)


def _width(b: tuple[float, float] | None) -> float:
    assert b is not None
    return b[1] - b[0]


def test_every_band_brackets_its_nominal_and_cites_a_case() -> None:
    for band in BANDS.values():
        assert band.low <= band.nominal <= band.high, band.name
        assert band.case_id and band.source and band.quote and band.unit
        with uncertainty.case("low"):
            cheap = uncertainty.value(band.name)
        with uncertainty.case("high"):
            dear = uncertainty.value(band.name)
        assert {cheap, dear} <= {band.low, band.high}
        assert (dear >= cheap) == (band.costlier == "high") or band.low == band.high


def test_vaio_band_is_zero_without_a_filter_and_wide_with_one() -> None:
    _, off = _bands()
    assert off.sources == []
    for key, (lo, hi) in off.summary.items():
        assert lo == hi, key
    assert np.array_equal(off.vm_cpu_cost_per_kiops[0], off.vm_cpu_cost_per_kiops[1])

    _, on = _bands("iofilter")
    assert [b.case_id for b in on.sources] == ["storage-vaio-cpu-per-kiops-overhead"]
    cheap, dear = on.vm_cpu_cost_per_kiops
    # 10-20% more CPU per 1K IOPS than without the filter: the band spans that range
    base = off.vm_cpu_cost_per_kiops[0][0]
    assert cheap[0] == pytest.approx(base * 1.10)
    assert dear[0] == pytest.approx(base * 1.20)
    assert (on.host_cpu_util[1] > on.host_cpu_util[0]).all()  # host CPU carries the band
    # the filter's extra CPU is off the I/O path: IOPS carry no band
    assert _width(on.get("total_iops")) == 0


def test_nominal_lies_within_every_band() -> None:
    for example, scenario in (("vaio-scaling", "iofilter"), ("ft-netperf", None),
                              ("dense-web-farm", None)):
        engine, bands = _bands(scenario, example)
        nominal = engine.evaluate()
        flat = uncertainty._flat(nominal.summary_dict())
        for key, (lo, hi) in bands.summary.items():
            assert lo <= flat[key.removeprefix("summary.")] <= hi, (example, key)
        for arr, (low, high) in ((nominal.vms.latency_ms, bands.vm_latency_ms),
                                 (nominal.vms.iops, bands.vm_iops),
                                 (nominal.hosts.cpu_util, bands.host_cpu_util)):
            ok = ~np.isnan(arr)
            assert np.all(low[ok] <= arr[ok]) and np.all(arr[ok] <= high[ok]), example


def test_ft_and_dense_mode_designs_get_their_bands() -> None:
    _, ft = _bands("10GbE FT link", "ft-netperf")  # on 1GbE the logging NIC caps the traffic
    assert [b.name for b in ft.sources] == ["ft.log_overhead"]  # netperf VMs do no disk I/O
    assert _width(ft.get("ft_logging_mbps")) > 0
    lo, hi = ft.summary["summary.ft_logging_mbps"]
    assert hi / lo == pytest.approx(1.2 / (950.0 / 890.0), rel=1e-3)  # measured .. sizing rule
    _, default = _bands(example="dense-web-farm")
    assert default.sources == []
    _, dense = _bands("dense mode", "dense-web-farm")
    assert [b.name for b in dense.sources] == ["consolidation.dense_saving"]
    by_cpu = dense.get("consolidation.max_vms_per_host_by_cpu")
    assert by_cpu is not None and by_cpu[0] < by_cpu[1]


def test_band_evaluation_leaves_the_nominal_prediction_unchanged() -> None:
    engine = Engine(examples.load("vaio-scaling"), "iofilter")
    before = engine.evaluate().to_dict()
    evaluate_bands(engine)
    assert engine.evaluate().to_dict() == before
    # a knob patched afterwards re-evaluates exactly as without the band run (memo and warm
    # starts were restored)
    ov = Override("vm", "workload.io_oio", 16)
    engine.patch(ov)
    untouched = Engine(examples.load("vaio-scaling"), "iofilter")
    untouched.evaluate()
    untouched.patch(ov)
    assert engine.evaluate().to_dict() == untouched.evaluate().to_dict()


def test_an_engine_evaluated_inside_a_case_does_not_reuse_nominal_results() -> None:
    engine = Engine(examples.load("vaio-scaling"), "iofilter")
    nominal = engine.evaluate()
    with uncertainty.case("high"):
        high = engine.evaluate()
    assert high.vms.cpu_cost_per_kiops[0] > nominal.vms.cpu_cost_per_kiops[0]


def test_case_resets_on_exception_and_rejects_unknown_cases() -> None:
    with pytest.raises(RuntimeError), uncertainty.case("high"):
        assert uncertainty.current() == "high"
        raise RuntimeError("boom")
    assert uncertainty.current() == "nominal"
    assert uncertainty.value("storage.vaio_cpu_extra") == BANDS["storage.vaio_cpu_extra"].nominal
    with pytest.raises(ValueError, match="uncertainty case"), \
            uncertainty.case("worst"):  # type: ignore[arg-type]
        pass


def test_bands_json_is_finite() -> None:
    engine = Engine(examples.load("vaio-scaling"), "iofilter")
    p = engine.evaluate()
    assert "bands" not in p.to_dict()
    doc = p.to_dict()
    doc["bands"] = evaluate_bands(engine, p).to_dict()
    doc = json.loads(json.dumps(doc, allow_nan=False))
    bands = doc["bands"]
    lo, hi = bands["summary.total_iops"]
    assert 0 <= lo <= hi and math.isfinite(hi)
    assert set(bands["vms"]) == {vm["id"] for vm in doc["vms"]}
    assert bands["sources"][0]["case_id"] == "storage-vaio-cpu-per-kiops-overhead"


def test_multicast_and_pcoip_bands_follow_their_studies() -> None:
    from models.calibration.multicast import receivers  # noqa: PLC0415
    from models.calibration.vdi import branch  # noqa: PLC0415
    mc = evaluate_bands(Engine(receivers(10, kpps=10)))
    assert [b.case_id for b in mc.sources] == ["mcast-receiver-cpu-per-pps"]
    lo, hi = mc.host_cpu_util
    assert hi[0] > lo[0]
    view5 = evaluate_bands(Engine(branch(codec="view5", desktops=10)))
    assert [b.case_id for b in view5.sources] == ["vdi-pcoip-lossless-codec"]
    lo, hi = view5.vm_net_gbps
    # the codec saves 30% .. 40% of the View 4 rate
    assert hi.max() / 0.00025 == pytest.approx(0.70) and lo.max() / 0.00025 == pytest.approx(0.60)
    view4 = evaluate_bands(Engine(branch(desktops=10)))
    assert view4.sources == []
