"""The licensing rules as data: their sources, the per-CPU minimum and the order minimum."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from models.document import licensing
from models.document.schema import DESIGN_PROPS, choice_label


def _doc() -> dict[str, Any]:
    return json.loads(licensing.PATH.read_text(encoding="utf-8"))


def test_the_bundled_rules_are_broadcoms_per_core_subscription_with_their_sources() -> None:
    r = licensing.rules()
    assert r.min_cores_per_cpu == 16 and r.since == "2024"
    assert "hyperthreads" in r.metric and "do not count" in r.metric
    assert next(s.url for s in r.cited()).startswith("https://knowledge.broadcom.com/")
    # the disputed minimum per order is there, and off by default
    assert r.order_minimum.cores == 72 and r.order_minimum.status == "disputed"
    assert r.order_minimum.default is False
    assert DESIGN_PROPS["policy.licence_order_minimum"].default is False
    assert all(r.cited(e.sources) for e in r.editions)


def test_broadcoms_own_example_licenses_80_cores() -> None:
    # KB 313548: host A 2 CPUs x 8 cores, host B 2 x 24: 80 cores to license
    cores = licensing.licensed_cores(np.array([2, 2]), np.array([8, 24]))
    assert cores.tolist() == [32.0, 48.0] and cores.sum() == 80
    assert licensing.licensed_cores(np.array([1]), np.array([8]), per_cpu=8).tolist() == [8.0]


def test_the_order_minimum_raises_a_small_total_only_when_on() -> None:
    assert licensing.with_order_minimum(32, False) == 32
    assert licensing.with_order_minimum(32, True) == 72
    assert licensing.with_order_minimum(96, True) == 96
    assert licensing.with_order_minimum(0, True) == 0  # nothing ordered


def test_the_editions_are_the_choices_of_the_policy_in_words() -> None:
    spec = DESIGN_PROPS["policy.licence_edition"]
    assert spec.choices == licensing.edition_ids() and spec.default == "vcf"
    assert choice_label("vvf") == "VVF"
    assert licensing.rules().edition("unknown").id == "vcf"


def test_rules_citing_an_unknown_source_are_refused() -> None:
    doc = _doc()
    doc["editions"][0]["sources"] = ["nowhere"]
    with pytest.raises(ValueError, match="nowhere"):
        licensing.parse(doc)
    with pytest.raises(ValueError, match="headroom-licensing"):
        licensing.parse({"format": "other"})


def test_a_changed_rule_is_read_from_the_data() -> None:
    doc = _doc()
    doc["min_cores_per_cpu"] = 8
    doc["editions"][1]["min_cores_per_cpu"] = 24
    r = licensing.parse(doc)
    assert r.per_cpu("vcf") == 8 and r.per_cpu("vvf") == 24
