"""VDI: PCoIP bandwidth per desktop from its settings, and the WAN the desktops share."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from models.calibration.vdi import branch, wan_mbps
from models.core.compiled import compile_design
from models.document.knobs import knob
from models.document.studies import PCOIP
from models.engine.evaluation import evaluate
from models.subsystems import vdi

SETTINGS = settings(max_examples=25, deadline=None)
B = np.array


def test_view4_settings_send_the_base_rate_and_each_setting_saves() -> None:
    base = vdi.factor(B([False]), B([False]), B([True]))[0]
    assert base == 1.0
    for f in (vdi.factor(B([True]), B([False]), B([True])),
              vdi.factor(B([False]), B([True]), B([True])),
              vdi.factor(B([False]), B([False]), B([False]))):
        assert 0.5 < f[0] < 1.0


def test_codec_and_cache_combine_multiplicatively() -> None:
    codec = vdi.factor(B([True]), B([False]), B([True]))[0]
    cache = vdi.factor(B([False]), B([True]), B([True]))[0]
    both = vdi.factor(B([True]), B([True]), B([True]))[0]
    assert abs(both - codec * cache) < 1e-12


def test_desktops_load_the_wan_of_their_site() -> None:
    pred = evaluate(branch(desktops=10))
    link = pred.sections.to_json()["vdi"]["wan"]["dc-branch"]
    assert link["desktops"] == 10 and abs(link["mbps"] - 10 * 0.25) < 1e-9
    assert link["max_desktops"] == 400
    res = [r for r in pred.resources if r.resource == "wan" and r.component == "dc-branch"]
    assert len(res) == 1 and abs(res[0].util - 0.025) < 1e-9


def test_an_overloaded_wan_warns_and_names_the_remedies() -> None:
    pred = evaluate(branch(desktops=500))
    assert any("PCoIP needs" in w and "client cache" in w for w in pred.warnings)


def test_pcoip_goes_into_the_vms_transmit() -> None:
    c = compile_design(branch(codec="view5", cache=True, desktops=3))
    t, hit = vdi.TEXT_SHARE.value, vdi.CACHE_HIT.value
    assert np.allclose(vdi.desktop_mbps(c), 0.25 * (t / vdi.FONT_GAIN + 1.0 - t) * (1.0 - hit))


def test_a_desktop_without_a_site_loads_no_wan() -> None:
    d = branch(desktops=2)
    d.links = [lk for lk in d.links if lk.kind != "located_at"]
    pred = evaluate(d)
    assert pred.sections.to_json()["vdi"]["wan"] == {}
    assert not any(r.resource == "wan" for r in pred.resources)


def test_idle_desktops_use_no_cpu_for_pcoip() -> None:
    pred = evaluate(branch(codec="view5", cache=True, cpu_pct=0.0, desktops=5))
    assert float(pred.vms.cpu_util.max()) < 0.01


@SETTINGS
@given(st.integers(1, 60), st.integers(0, 40))
def test_more_desktops_never_lower_wan_use(n: int, more: int) -> None:
    assert wan_mbps(desktops=n + more) >= wan_mbps(desktops=n)


def test_pcoip_settings_are_knobs_citing_the_study() -> None:
    for path in ("vm.workload.pcoip_codec", "vm.workload.pcoip_client_cache",
                 "vm.workload.pcoip_build_to_lossless", "vm.workload.pcoip_kbps"):
        k = knob(path)
        assert k is not None and k.source == PCOIP.title
