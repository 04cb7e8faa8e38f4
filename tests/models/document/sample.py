"""A small design document the document-layer tests start from."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from models.document.codec import parse_design
from models.document.design import DesignError

BASE: dict[str, Any] = {
    "format": "headroom-design", "version": 1, "name": "t",
    "components": [
        {"id": "h1", "kind": "host"}, {"id": "h2", "kind": "host"},
        {"id": "v1", "kind": "vm", "tags": ["web"], "props": {"workload": {"io_oio": 4}}},
        {"id": "a1", "kind": "storage_array"},
        {"id": "s1", "kind": "site"}, {"id": "s2", "kind": "site"},
    ],
    "links": [{"from": "v1", "to": "h1", "kind": "runs_on"},
              {"from": "v1", "to": "a1", "kind": "disk_on"},
              {"from": "s1", "to": "s2", "kind": "wan", "props": {"rtt_ms": 5}}],
}


def doc(**changes: Any) -> dict[str, Any]:
    d = copy.deepcopy(BASE)
    d.update(changes)
    return d


def errors(d: Any) -> list[str]:
    with pytest.raises(DesignError) as info:
        parse_design(d)
    return [str(i) for i in info.value.issues]
