"""Palette presets: named components from the studies (``resources/presets.json``) and the
servers of the server catalogue (:mod:`models.document.catalogue.servers`).

A preset is a kind plus explicit property values (``Dell R720`` is a host with 2 x 8 cores at
2.4 GHz and 128 GB).  Every preset is validated against :mod:`models.document.schema` when loaded,
so a bad preset file fails loudly naming the preset and the property.  A catalogue server is
the preset ``server:<id>`` (its default processor and memory) or
``server:<id>:<processor model>`` (:func:`server_preset`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from models.document.catalogue import servers
from models.document.design import Component, DesignError, Issue, check_value, normalise
from models.document.resources import RESOURCES
from models.document.schema import KINDS, Value

PRESETS_PATH = RESOURCES / "presets.json"


@dataclass(frozen=True)
class Preset:
    id: str
    label: str
    kind: str
    props: dict[str, Value] = field(default_factory=dict)
    source: str = ""
    group: str = ""
    """The heading it is listed under within its kind ("Servers from the studies"); empty:
    directly under the kind."""

    def component(self, cid: str, x: float = 0.0, y: float = 0.0) -> Component:
        """A new component of this preset (its name is the preset's label unless generic)."""
        name = "" if self.id == self.kind else self.label
        return Component(cid, self.kind, name, x, y, [], dict(self.props))


def parse_presets(obj: Any) -> list[Preset]:
    """Presets from a decoded ``headroom-presets`` document; DesignError on any problem."""
    issues: list[Issue] = []
    if not isinstance(obj, dict) or not isinstance(obj.get("presets"), list):
        raise DesignError([Issue("presets", "expected an object with a 'presets' list")])
    out: list[Preset] = []
    for i, raw in enumerate(obj["presets"]):
        where = f"presets[{i}]"
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
            issues.append(Issue(where, "expected an object with 'id', 'label', 'kind'"))
            continue
        kind = raw.get("kind")
        where = f"preset '{raw['id']}'"
        if kind not in KINDS:
            issues.append(Issue(where, f"unknown kind {kind!r}"))
            continue
        props: dict[str, Value] = {}
        for name, value in (raw.get("props") or {}).items():
            spec = KINDS[kind].props.get(name)
            problem = "unknown property" if spec is None else check_value(spec, value)
            if problem or spec is None:
                issues.append(Issue(where, problem or "unknown property", name))
                continue
            props[name] = normalise(spec, value)
        out.append(Preset(raw["id"], str(raw.get("label", raw["id"])), kind, props,
                          str(raw.get("source", "")), str(raw.get("group", ""))))
    if issues:
        raise DesignError(issues)
    return out


@cache
def presets() -> tuple[Preset, ...]:
    """The bundled presets, in palette order."""
    return tuple(parse_presets(json.loads(PRESETS_PATH.read_text(encoding="utf-8"))))


SERVER = "server:"
"""The prefix of a catalogue server's preset id."""


def server_preset_id(server_id: str, processor: str = "") -> str:
    """The preset id of a catalogue server (with a processor of its options, or its default)."""
    return f"{SERVER}{server_id}" + (f":{processor}" if processor else "")


def server_preset(pid: str) -> Preset:
    """The host a catalogue server's preset id stands for: sockets, cores, clock, processor
    and memory from the catalogue (KeyError for an unknown server or processor)."""
    server_id, _, processor = pid.removeprefix(SERVER).partition(":")
    server = servers.find(server_id)
    if server is None:
        raise KeyError(pid)
    try:
        proc = servers.processor_option(server, processor) if processor else None
    except ValueError as err:
        raise KeyError(pid) from err
    props = servers.host_props(server, proc)
    model = str(props.get("cpu_model", ""))
    label = f"{server.title} ({model.removeprefix('Intel Xeon ')})" if model else server.title
    return Preset(pid, label, "host", props,
                  f"Server catalogue: {server.title}, {server.generation}, as SPEC CPU2017"
                  " results ran it")


def preset(pid: str) -> Preset:
    """The preset of an id: a bundled one, or a catalogue server's (:func:`server_preset`)."""
    if pid.startswith(SERVER):
        return server_preset(pid)
    for p in presets():
        if p.id == pid:
            return p
    raise KeyError(pid)
