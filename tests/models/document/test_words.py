"""Undo texts and link refusals read as words: names, labels and counts, never ids, property
paths or link kinds."""

from __future__ import annotations

import re

import pytest

from models.document.design import Component, Design, DesignError, Link
from models.document.schema import DESIGN_PROPS, KINDS, LINKS, prop_label
from models.document.words import (
    common_suffix,
    component_summary,
    host_affixes,
    no_link_text,
    short_name,
)
from models.examples import bundled as examples
from models.session.session import Session

RAW = re.compile(r"\b(?:[a-z]+_[a-z_]+|workload\.\w+|[hvna]\d+)\b")
"""A property path, a link kind or an id."""


@pytest.fixture
def session() -> Session:
    return Session(examples.load("vaio-scaling"))


def test_setting_a_knob_names_the_knob_and_what_it_reaches(session: Session) -> None:
    n = len(session.design.of_kind("vm"))
    name = session.name_of("v1")
    assert session.set_values(["vm"], "workload.io_oio", 16).label == \
        f"Set Outstanding I/Os on {n} VMs"
    assert session.set_values(["id:v1"], "workload.io_oio", 16).label == \
        f"Set Outstanding I/Os on {name}"
    assert session.set_values(["id:v1", "id:v2"], "vcpus", 4).label == "Set vCPUs on 2 VMs"
    assert session.set_values(["design"], "policy.cpu_util_max", 0.8).label == \
        "Set CPU utilisation ceiling"
    assert session.set_values(["id:h1"], "memory_gb", 512.0).label == \
        f"Set Host memory on {session.name_of('h1')}"


def test_links_read_as_what_they_do(session: Session) -> None:
    vm, host, array = (session.name_of(c) for c in ("v1", "h1", "a1"))
    disk = next(lk for lk in session.design.links if lk.kind == "disk_on" and
                lk.source == "v1")
    removal = session.remove_link(disk)
    assert removal is not None and removal.label == f"Unlink {vm}'s disk from {array}"
    session.apply(removal)
    assert session.add_link(Link("v1", "a1", "disk_on")).label == f"Put {vm}'s disk on {array}"
    with pytest.raises(DesignError) as refused:
        session.add_link(Link("v1", "h1", "ft_secondary_on"))
    message = refused.value.issues[0].message
    assert message == f"{vm}'s FT secondary must run on another host than the one {vm} runs" \
        f" on ({host})"
    assert not RAW.search(message)


def test_a_pair_no_link_joins_is_refused_with_what_each_kind_links_to() -> None:
    text = no_link_text("vm", "site")
    assert text.startswith("A VM cannot be linked to a site: a VM runs on a host")
    assert "keeps its disk on a storage array" in text
    for a in KINDS:
        for b in KINDS:
            assert not RAW.search(no_link_text(a, b).replace("content library", "")), (a, b)


def test_every_property_has_words() -> None:
    props = [(k, p) for k, spec in KINDS.items() for p in spec.props] + \
        [(k, p) for k, spec in LINKS.items() for p in spec.props] + \
        [("design", p) for p in DESIGN_PROPS]
    for kind, prop in props:
        label = prop_label(kind, prop)
        assert "_" not in label and not re.search(r"[a-z]\.[a-z]", label), label
        assert label[0].isupper() or label[:2] in ("vC", "vS", "sp", "p9"), label
    assert prop_label("vm", "vcpus") == "vCPUs"
    assert prop_label("host", "memory_gb") == "Memory"
    assert prop_label("vm", "new_thing_x") == "New thing x"  # a new property still reads


def test_an_empty_design_counts_nothing() -> None:
    s = Session(Design())
    assert s.set_values(["design"], "policy.p95_ms_max", 50.0).label == \
        "Set p95 response-time ceiling"


@pytest.mark.parametrize(("names", "suffix"), [
    (["esx01.corp.local", "esx02.corp.local"], ".corp.local"),
    (["a.dc1.corp", "b.dc2.corp"], ".corp"),
    (["esx01.corp.local", "esx02"], ".corp.local"),  # a bare name has nothing to drop
    (["10.144.66.242", "10.17.135.71"], ""),  # an address is told apart by its last part
    (["vmsp-01", "vmprod3-06"], ""),
    (["esx01.corp.local", "esx02.lab.example"], ""),
    ([], ""),
])
def test_hosts_lose_the_domain_they_all_share(names: list[str], suffix: str) -> None:
    assert common_suffix(names) == suffix
    shown = [short_name(n, suffix) for n in names]
    assert len(set(shown)) == len(set(names))  # still told apart
    assert all(n.startswith(s) for n, s in zip(names, shown, strict=True))


@pytest.mark.parametrize(("names", "prefix", "shown"), [
    (["bru-esx-prod1-01.infra.example.org", "bru-esx-dev3-11.infra.example.org"], "bru-esx-",
     ["prod1-01", "dev3-11"]),
    (["bru-esx-dmz1-01", "bru-esx-dev2-01"], "bru-esx-", ["dmz1-01", "dev2-01"]),  # not "bru-esx-d"
    (["bru-esx-01", "bru-esx-02"], "bru-", ["esx-01", "esx-02"]),  # never a bare number
    (["esx-01", "esx-02"], "", ["esx-01", "esx-02"]),
    (["Server 1", "Server 2"], "", ["Server 1", "Server 2"]),
    (["esx001.corp.local", "esx002.corp.local"], "", ["esx001", "esx002"]),
    (["vmsp-01", "vmprod3-06", "bovmdmz7-01"], "", ["vmsp-01", "vmprod3-06", "bovmdmz7-01"]),
    (["10.1.2.3", "10.1.2.4"], "", ["10.1.2.3", "10.1.2.4"]),
    (["esx-01"], "", ["esx-01"]),
])
def test_hosts_lose_the_start_and_domain_they_all_share(names: list[str], prefix: str,
                                                          shown: list[str]) -> None:
    """Each host reads by the part of its name that tells it apart, cut the same way for
    all: the shared domain, then the shared start up to a separator."""
    got_prefix, suffix = host_affixes(names)
    assert got_prefix == prefix
    assert [short_name(n, suffix, got_prefix) for n in names] == shown
    assert len(set(shown)) == len(set(names))


def test_a_vsan_cluster_says_its_vsan_on_its_line() -> None:
    """The canvas's cluster box and the report's listing read a vSAN cluster's architecture
    and default policy beside its HA and DRS; a cluster without vSAN reads as before."""
    plain = Component("c1", "cluster", props={"failover_hosts": 1})
    assert component_summary(plain) == "HA N+1 · DRS on"
    esa = Component("c2", "cluster", props={"vsan.architecture": "esa", "vsan.policy": "raid5"})
    assert component_summary(esa) == "HA N+1 · DRS on · vSAN ESA RAID 5"
    osa = Component("c3", "cluster", props={"vsan.architecture": "osa"})
    assert component_summary(osa).endswith("· vSAN OSA RAID 1")  # the default policy
