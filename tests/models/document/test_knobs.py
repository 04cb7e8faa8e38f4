"""The knob registry reads its words from the schema: one label per property, a knob's own only
where the knob panel, which lists every kind's knobs together, needs the kind to tell two
properties apart."""

from __future__ import annotations

from models.document.knobs import KNOBS, knob
from models.document.schema import PROP_LABELS, prop_label

OVERRIDES = {
    "host.memory_gb": "Host memory", "vm.memory_gb": "VM memory", "nic.speed_gbps": "NIC speed",
    "ft_secondary_on.rtt_ms": "FT link round trip", "wan.rtt_ms": "Inter-site latency",
    "wan.gbps": "Inter-site bandwidth", "content_library.operation": "Library operation",
    "content_library.backing": "Library backing", "content_library.network_gbps":
    "Library network",
}
"""The short, explicit list of knobs whose label is their own (adding one is a decision)."""


def test_a_knob_reads_its_propertys_label_unless_it_must_differ() -> None:
    overridden = {k.path: k.override for k in KNOBS if k.override}
    assert overridden == OVERRIDES
    for k in KNOBS:
        if k.override:  # an override that says what the property says is a second label
            assert k.override != prop_label(k.kind, k.prop), k.path
        else:
            assert k.label == prop_label(k.kind, k.prop), k.path


def test_properties_that_contradicted_their_knobs_read_the_better_words() -> None:
    assert prop_label("content_library", "rhttpproxy") == "Reverse HTTP proxy"
    assert prop_label("content_library", "max_concurrent_transfers") == \
        "Maximum concurrent transfers"
    assert prop_label("cluster", "failover_hosts") == "Host failures the cluster tolerates"
    assert prop_label("cluster", "ha_enabled") == "vSphere HA"
    assert prop_label("cluster", "admission_control") == "HA admission control"
    k = knob("content_library.rhttpproxy")
    assert k is not None and k.label == "Reverse HTTP proxy"
    assert k.to_dict()["label"] == k.label  # headroom knobs --json: the effective label


def test_every_property_has_its_own_label() -> None:
    """No property reads as its name turned into words ("Io block kb"): each has a label."""
    from models.document.schema import DESIGN_PROPS, KINDS, LINKS  # noqa: PLC0415

    props = [(k, p) for k, spec in KINDS.items() for p in spec.props] + \
        [(k, p) for k, spec in LINKS.items() for p in spec.props] + \
        [("design", p) for p in DESIGN_PROPS]
    missing = [f"{k}.{p}" for k, p in props if f"{k}.{p}" not in PROP_LABELS
               and p not in PROP_LABELS]
    assert not missing, missing
