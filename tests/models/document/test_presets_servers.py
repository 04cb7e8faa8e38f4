"""A catalogue server as a palette preset: its processor (the default, or one of its
options), cores, clock, hyperthreading and memory, as the host's per-core speed reads them."""

from __future__ import annotations

import pytest

from models.core.compiled import compile_design
from models.core.platform import compute, reference_specrate
from models.document.catalogue import processors, servers
from models.document.design import Design
from models.document.presets import preset, server_preset_id


def test_a_pick_fills_the_host_from_the_catalogue() -> None:
    pre = preset("server:dell-r760:Intel Xeon Gold 6548Y+")
    assert pre.kind == "host" and pre.label == "Dell PowerEdge R760 (Gold 6548Y+)"
    assert pre.props == {"sockets": 2, "esxi_version": "8.0",
                         "cpu_model": "Intel Xeon Gold 6548Y+", "cores_per_socket": 32,
                         "ghz": 2.5, "hyperthreading": True, "memory_gb": 1024.0}
    # the host's per-core speed is the processor's SPECrate per core over the reference's
    d = Design(components=[pre.component("h1")])
    speed = compute(compile_design(d)).speed[0]
    proc = processors.find("Intel Xeon Gold 6548Y+")
    assert proc is not None
    assert speed == pytest.approx(proc.specrate_per_core / reference_specrate())


def test_the_default_processor_is_the_fastest_per_core_with_16_cores_or_more() -> None:
    r760 = servers.find("dell-r760")
    assert r760 is not None
    fastest = r760.processor_options[0]
    assert fastest.cores is not None and fastest.cores < 16  # an 8-core part leads
    chosen = servers.default_processor(r760)
    assert chosen is not None and chosen.cores is not None and chosen.cores >= 16
    assert all(p.specrate_per_core <= chosen.specrate_per_core
               for p in r760.processor_options if (p.cores or 0) >= 16)
    assert preset(server_preset_id("dell-r760")).props["cpu_model"] == chosen.model
    # memory: the configuration most of its SPEC results ran with
    best = max(r760.memory_configs, key=lambda m: m.results)
    assert servers.default_memory_gb(r760) == best.total_gb


def test_an_unknown_server_or_processor_is_no_preset() -> None:
    with pytest.raises(KeyError):
        preset("server:no-such-server")
    with pytest.raises(KeyError):
        preset("server:dell-r760:Intel Xeon E5-2665")  # not an option of the R760
    r760 = servers.find("dell-r760")
    assert r760 is not None
    with pytest.raises(ValueError, match="its processors: Gold 6434"):
        servers.processor_option(r760, "E5-2665")
    assert servers.processor_option(r760, "Gold 6548Y+").model == "Intel Xeon Gold 6548Y+"
