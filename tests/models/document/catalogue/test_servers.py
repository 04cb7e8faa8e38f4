"""The server catalogue: curated servers, the options SPEC's results derive, their sources."""

from __future__ import annotations

import re

import pytest

from models.document.catalogue import servers

NEWEST = {"dell-r670": "PowerEdge R670", "dell-r770": "PowerEdge R770",
          "dell-r6725": "PowerEdge R6725", "dell-r7725": "PowerEdge R7725",
          "dell-r6715": "PowerEdge R6715", "dell-r7715": "PowerEdge R7715",
          "hpe-dl360-gen12": "ProLiant Compute DL360 Gen12",
          "hpe-dl380-gen12": "ProLiant Compute DL380 Gen12",
          "hpe-dl325-gen12": "ProLiant Compute DL325 Gen12",
          "lenovo-sr630-v4": "ThinkSystem SR630 V4", "lenovo-sr650-v4": "ThinkSystem SR650 V4",
          "cisco-c220-m8": "UCS C220 M8", "cisco-c240-m8": "UCS C240 M8",
          "cisco-c225-m8": "UCS C225 M8", "cisco-c245-m8": "UCS C245 M8"}
"""The 2024-2026 generation: Xeon 6 (Granite Rapids, Sierra Forest) and EPYC 9005 (Turin)."""
CURRENT = ["PowerEdge R660", "PowerEdge R760", "PowerEdge R6625", "PowerEdge R7625",
           "ProLiant DL360 Gen11", "ProLiant DL380 Gen11", "ProLiant DL325 Gen11",
           "ProLiant DL385 Gen11", "ThinkSystem SR630 V3", "ThinkSystem SR650 V3",
           "ThinkSystem SR665 V3", "UCS C220 M7", "UCS C240 M7"]
EARLIER = ["PowerEdge R640", "PowerEdge R740", "PowerEdge R650", "PowerEdge R750",
           "PowerEdge R6525", "PowerEdge R7525", "ProLiant DL360 Gen10", "ProLiant DL380 Gen10",
           "ProLiant DL360 Gen10 Plus", "ProLiant DL380 Gen10 Plus", "ThinkSystem SR630",
           "ThinkSystem SR650", "ThinkSystem SR630 V2", "ThinkSystem SR650 V2", "UCS C220 M5",
           "UCS C240 M5", "UCS C220 M6", "UCS C240 M6"]


@pytest.mark.parametrize("name", list(NEWEST.values()) + CURRENT + EARLIER)
def test_each_generation_is_there_with_spec_options(name: str) -> None:
    s = servers.find(name)
    assert s is not None, name
    assert s.processor_options, f"{name}: no processor SPEC ran it with"
    assert s.memory_configs and all(m.total_gb == m.dimms * m.dimm_gb for m in s.memory_configs)
    assert s.spec_sockets is not None and s.spec_sockets <= s.sockets
    assert s.form_factor in ("1U", "2U") and s.sockets in (1, 2)


def test_the_table_is_consistent() -> None:
    every = servers.servers()
    assert len({s.id for s in every}) == len(every) >= 40
    cited = servers.sources()
    for s in every:
        for ids in s.sources.values():
            assert set(ids) <= set(cited), s.id
        if s.dimm_slots is not None or s.max_memory_gb is not None:
            assert s.sources["memory"], f"{s.id}: a memory figure without its source"
        if s.nic_options:
            assert s.sources["nics"], f"{s.id}: NIC options without their source"
        if s.max_memory_gb is not None and s.dimm_slots is not None:
            assert s.max_memory_gb % s.dimm_slots == 0
        assert s.memory_type in (None, "DDR4", "DDR5")
        kinds = {m.kind for m in s.memory_configs}
        assert s.memory_type is None or kinds <= {s.memory_type}, s.id
    for source in cited.values():
        assert source["title"] and source["url"].startswith("http")
    assert "not_sourced" in servers.provenance()


def test_processor_options_are_catalogue_processors_fastest_first() -> None:
    r660 = servers.find("dell-r660")
    assert r660 is not None
    options = r660.processor_options
    assert "Intel Xeon Gold 6526Y" in {p.model for p in options}
    assert all(not p.model.startswith("AMD") for p in options)
    per_core = [p.specrate_per_core for p in options]
    assert per_core == sorted(per_core, reverse=True)
    r7625 = servers.find("PowerEdge R7625")
    assert r7625 is not None
    assert "AMD EPYC 9354" in {p.model for p in r7625.processor_options}
    one_socket = servers.find("Dell PowerEdge R6615")
    assert one_socket is not None and one_socket.sockets == one_socket.spec_sockets == 1


def test_search_and_find() -> None:
    assert {s.vendor for s in servers.search("dell")} == {"Dell"}
    assert [s.name for s in servers.search("dl380 gen11")] == ["ProLiant DL380 Gen11"]
    assert len(servers.search("")) == len(servers.servers())
    assert servers.find("no such server") is None
    s = servers.find("lenovo-sr630-v3")
    assert s is not None and s.dimm_slots == 32 and s.max_memory_gb == 8192
    doc = s.to_dict()
    assert doc["processors"] and doc["memory_configs"] and doc["sources"]["memory"]


@pytest.mark.parametrize(("sid", "name"), NEWEST.items())
def test_the_newest_generation_runs_xeon_6_or_epyc_9005(sid: str, name: str) -> None:
    s = servers.find(sid)
    assert s is not None and s.name == name and servers.find(name) is s
    assert servers.find(s.title.upper()) is s
    models = {p.model for p in s.processor_options}
    xeon_6 = {m for m in models if re.fullmatch(r"Intel Xeon 6\d{3}[PE]", m)}
    epyc_9005 = {m for m in models if re.fullmatch(r"AMD EPYC 9\d\d5[A-Z]?", m)}
    assert xeon_6 or epyc_9005, f"{sid}: {sorted(models)[:5]}"
    assert not (xeon_6 and epyc_9005)
    assert s.spec_hw_avail_from is not None and s.spec_hw_avail_from[-4:] >= "2024"
    default = servers.default_processor(s)
    assert default is not None and default.model in models and (default.cores or 0) >= 16


def test_the_newest_generation_leads_each_vendor() -> None:
    every = servers.servers()
    first: dict[str, str] = {}
    for s in every:
        first.setdefault(s.vendor, s.id)
    assert first == {"Dell": "dell-r670", "HPE": "hpe-dl360-gen12",
                     "Lenovo": "lenovo-sr630-v4", "Cisco": "cisco-c220-m8"}
    assert [s.id for s in servers.search("gen12")] == [
        "hpe-dl360-gen12", "hpe-dl380-gen12", "hpe-dl325-gen12"]
