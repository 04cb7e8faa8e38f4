"""The servers' memory: channels, DIMMs per channel and module sizes from cited documents, and
the balanced DIMM populations they allow."""

from __future__ import annotations

import dataclasses
import re

import pytest

from models.document.catalogue import servers
from models.document.catalogue.servers import Population, Server, memory_populations

FAMILY_CHANNELS = (
    (re.compile(r"Intel Xeon 69\d\d[PE]"), 12),  # Xeon 6900P/E (Granite Rapids-AP)
    (re.compile(r"Intel Xeon 6[1-8]\d\d[PE]"), 8),  # Xeon 6700P/6500P/6700E
    (re.compile(r"Intel Xeon (Bronze|Silver|Gold|Platinum) \d[12]\d\d"), 6),  # Skylake, Cascade
    (re.compile(r"Intel Xeon (Bronze|Silver|Gold|Platinum) \d[345]\d\d"), 8),  # Ice Lake to EMR
    (re.compile(r"AMD EPYC 9\d\d\d"), 12),  # EPYC 9004, 9005
    (re.compile(r"AMD EPYC 7\w\w\w"), 8),  # EPYC 7001 to 7003
)
"""Memory channels per socket by processor family."""


def family_channels(model: str) -> int | None:
    return next((n for pattern, n in FAMILY_CHANNELS if pattern.match(model)), None)


def test_every_server_has_the_channels_of_its_processors() -> None:
    for s in servers.servers():
        families = {family_channels(p.model) for p in s.processor_options} - {None}
        assert families, f"{s.id}: no processor of a known family"
        assert s.channels_per_socket is not None, s.id
        assert families == {s.channels_per_socket}, f"{s.id}: {families}"


def test_every_memory_figure_names_its_source() -> None:
    cited = servers.sources()
    for s in servers.servers():
        figures = (s.channels_per_socket, s.dimms_per_channel, s.dimm_slots, s.max_memory_gb,
                   s.memory_type, s.module_gb or None)
        if any(f is not None for f in figures):
            assert s.sources["memory"], f"{s.id}: a memory figure without its source"
        assert set(s.sources["memory"]) <= set(cited), s.id
        assert s.dimms_per_channel in (None, 1, 2), s.id
        assert list(s.module_gb) == sorted(set(s.module_gb)), s.id
        assert all(size in (8, 16, 24, 32, 48, 64, 96, 128, 256) for size in s.module_gb), s.id
        if s.module_gb:
            assert s.memory_type, f"{s.id}: module sizes without the DDR generation"
        ch, dpc, slots = s.channels_per_socket, s.dimms_per_channel, s.dimm_slots
        if ch is not None and dpc is not None and slots is not None:
            assert slots == ch * dpc * s.sockets, s.id
        if s.max_memory_gb is not None and s.module_gb and s.dimm_slots is not None:
            assert s.max_memory_gb <= s.dimm_slots * s.module_gb[-1], s.id


@pytest.mark.parametrize("server", servers.servers(), ids=lambda s: s.id)
def test_populations_are_balanced_sorted_and_within_the_maximum(server: Server) -> None:
    found = memory_populations(server)
    if not server.channels_per_socket:
        assert found == ()
        return
    assert found, server.id
    channels = server.channels_per_socket * server.sockets
    own = bool(server.module_gb)
    for p in found:
        assert p.total_gb == p.dimms * p.dimm_gb
        assert p.dimms % channels == 0
        per = p.dimms // channels
        assert per in range(1, (server.dimms_per_channel or 1) + 1)
        assert p.dimm_gb in (server.module_gb if own else servers.platform_sizes(server))
        assert server.max_memory_gb is None or p.total_gb <= server.max_memory_gb
        assert p.kind == (server.memory_type or p.kind)
        if own:
            assert p.source in server.sources["memory"] and p.source in servers.sources()
        else:
            assert p.source == servers.PLATFORM
    keys = [(p.total_gb, p.dimms) for p in found]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_populations_of_a_two_dimm_per_channel_server() -> None:
    s = servers.find("lenovo-sr630-v3")
    assert s is not None and (s.channels_per_socket, s.dimms_per_channel) == (8, 2)
    texts = [p.text for p in memory_populations(s)]
    assert texts[:3] == ["256 GB (16 x 16 GB DDR5)", "512 GB (16 x 32 GB DDR5)",
                         "512 GB (32 x 16 GB DDR5)"]  # of equal totals, fewer DIMMs first
    assert texts[-1] == "8 TB (32 x 256 GB DDR5)" and len(texts) == 10
    assert s.to_dict()["memory_populations"] == texts


def test_populations_follow_the_figures() -> None:
    s = servers.find("dell-r6615")
    assert s is not None
    one = [p.total_gb for p in memory_populations(s)]
    assert one == [192, 384, 768, 1536, 3072]  # one socket, 12 channels, one DIMM each
    capped = dataclasses.replace(s, max_memory_gb=1000)
    assert [p.total_gb for p in memory_populations(capped)] == [192, 384, 768]
    two_dpc = dataclasses.replace(s, dimms_per_channel=2, max_memory_gb=None)
    assert [(p.total_gb, p.dimms) for p in memory_populations(two_dpc)][:3] == [
        (192, 12), (384, 12), (384, 24)]
    unknown = dataclasses.replace(s, dimms_per_channel=None)  # one DIMM a channel is safe
    assert memory_populations(unknown) == memory_populations(s)
    # without its own list, its platform's sizes (12-channel DDR5)
    platform = memory_populations(dataclasses.replace(s, module_gb=()))
    assert {p.source for p in platform} == {servers.PLATFORM}
    assert [p.dimm_gb for p in platform] == list(servers.platform_sizes(s))
    assert 16 in servers.platform_sizes(s) and 96 in servers.platform_sizes(s)
    assert memory_populations(dataclasses.replace(s, channels_per_socket=None)) == ()
    p = memory_populations(s)[0]
    assert p == Population(192, 12, 16, "DDR5", "dell-r6615-manual")


def test_the_newest_generation_has_its_channels() -> None:
    expected = {"dell-r670": 8, "dell-r770": 8, "dell-r6725": 12, "dell-r7725": 12,
                "hpe-dl360-gen12": 8, "hpe-dl380-gen12": 8, "hpe-dl325-gen12": 12,
                "lenovo-sr630-v4": 8, "lenovo-sr650-v4": 8, "cisco-c220-m8": 8,
                "cisco-c240-m8": 8, "cisco-c245-m8": 12}
    for sid, channels in expected.items():
        s = servers.find(sid)
        assert s is not None and s.channels_per_socket == channels, sid
        assert s.memory_type == "DDR5", sid
    r770 = servers.find("dell-r770")
    assert r770 is not None and (r770.dimms_per_channel, r770.dimm_slots) == (2, 32)


def test_to_dict_adds_the_memory_keys() -> None:
    s = servers.find("lenovo-sr645-v3")
    assert s is not None
    doc = s.to_dict()
    assert {"id", "dimm_slots", "max_memory_gb", "memory_type", "memory_configs",
            "sources"} <= set(doc)
    assert (doc["channels_per_socket"], doc["dimms_per_channel"], doc["module_gb"]) == (
        12, 1, [16, 32, 64])
    assert doc["memory_populations"] == ["384 GB (24 x 16 GB DDR5)", "768 GB (24 x 32 GB DDR5)",
                                         "1.5 TB (24 x 64 GB DDR5)"]
    bare = servers.find("hpe-dl360-gen12")
    assert bare is not None  # no document lists its sizes: its platform's, said so
    assert bare.to_dict()["module_gb"] == []
    assert bare.to_dict()["memory_populations"] == [
        p.text for p in memory_populations(bare)] and memory_populations(bare)
    assert {p.source for p in memory_populations(bare)} == {servers.PLATFORM}
