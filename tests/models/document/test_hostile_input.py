"""Hostile and damaged design text, generated: every class is refused naming its place, or
(for text that is not valid Unicode) repaired with a warning; never a traceback.

Hypothesis picks the place (any numeric field: a property, x/y, the policy, a scenario value,
a link property; any string: names, ids, tags, notes, scenario names, string properties) and
the damage (integers of 17 to 400 digits, NaN and infinities, lone UTF-16 surrogates,
scenarios that select an id or tag nobody has), in a JSON document and inside a ``.headroom``
file's stored JSON.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.document.codec import design_to_dict, loads
from models.document.design import DesignError
from models.engine.evaluation import evaluate
from models.examples import bundled as examples
from models.io import store

BASE = design_to_dict(examples.load("ft-netperf"))


def numeric_places(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Paths to every number in the document, with the name a message must give."""
    out: list[tuple[Any, ...]] = []

    def walk(node: Any, path: tuple[Any, ...], where: str, field: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, (*path, k), where, f"{field}.{k}" if field else k)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, (*path, i), where, field)
        elif isinstance(node, (int, float)) and not isinstance(node, bool):
            out.append((path, where, field))

    for i, comp in enumerate(doc["components"]):
        for key in ("x", "y"):
            out.append((("components", i, key), f"component '{comp['id']}'", key))
        walk(comp.get("props", {}), ("components", i, "props"), f"component '{comp['id']}'",
             "")
    walk(doc.get("policy", {}), ("policy",), "policy", "policy")
    for i, sc in enumerate(doc["scenarios"]):
        for j, item in enumerate(sc["set"]):
            if isinstance(item["value"], (int, float)) and not isinstance(item["value"], bool):
                out.append((("scenarios", i, "set", j, "value"), f"scenario '{sc['name']}'",
                            item["prop"]))
    for i, lk in enumerate(doc["links"]):
        walk(lk.get("props", {}), ("links", i, "props"), f"link '{lk['kind']}'", "")
    return out


def string_places(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = [(("name",),), (("notes",),)]
    for i, comp in enumerate(doc["components"]):
        out += [(("components", i, "name"),), (("components", i, "id"),)]
        out += [(("components", i, "tags", j),) for j in range(len(comp.get("tags", [])))]
    out += [(("scenarios", i, "name"),) for i in range(len(doc["scenarios"]))]
    return out


NUMERIC = numeric_places(BASE)
STRINGS = string_places(BASE)


def put(doc: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    node: Any = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


def fresh() -> dict[str, Any]:
    return json.loads(json.dumps(BASE))


huge_ints = st.integers(min_value=17, max_value=400).flatmap(
    lambda n: st.sampled_from([int("9" * n), -int("1" + "0" * (n - 1)), int("7" * n)]))


@settings(max_examples=80)
@given(place=st.sampled_from(NUMERIC), value=huge_ints)
def test_huge_integers_are_refused_naming_the_place(place: tuple[Any, ...], value: int
                                                   ) -> None:
    path, where, field = place
    text = json.dumps(put(fresh(), path, value))
    with pytest.raises(DesignError) as info:
        loads(text)
    issue = info.value.issues[0]
    assert issue.where.startswith(where)
    assert field in str(issue) and "digit number" in str(issue)


@settings(max_examples=60)
@given(place=st.sampled_from(NUMERIC), constant=st.sampled_from(["NaN", "Infinity",
                                                                 "-Infinity", "1e999"]))
def test_nan_and_infinity_are_refused_naming_the_place(place: tuple[Any, ...],
                                                       constant: str) -> None:
    path, where, field = place
    marker = 123456.789
    text = json.dumps(put(fresh(), path, marker)).replace(str(marker), constant)
    with pytest.raises(DesignError) as info:
        loads(text)
    issue = info.value.issues[0]
    assert issue.where.startswith(where) and field in str(issue) and "finite" in str(issue)


surrogates = st.integers(min_value=0xD800, max_value=0xDFFF).map(chr)


@settings(max_examples=60)
@given(place=st.sampled_from(STRINGS), bad=surrogates, prefix=st.text(max_size=5))
def test_lone_surrogates_are_repaired_with_a_warning(place: tuple[Any, ...], bad: str,
                                                     prefix: str, tmp_path_factory:
                                                     pytest.TempPathFactory) -> None:
    (path,) = place
    doc = fresh()
    node: Any = doc
    for key in path:
        node = node[key]
    new = f"{prefix}{bad}{node}"
    if path[-1] == "id":  # the links and scenarios naming the component carry the same text
        for lk in doc["links"]:
            for end in ("from", "to"):
                if lk[end] == node:
                    lk[end] = new
        for sc in doc["scenarios"]:
            for item in sc["set"]:
                if item["select"] == f"id:{node}":
                    item["select"] = f"id:{new}"
    text = json.dumps(put(doc, path, new))  # ensure_ascii: the surrogate as a \\u escape
    design = loads(text)
    assert design.repairs and "lone UTF-16 surrogate" in design.repairs[0].message
    saved = json.dumps(design_to_dict(design), ensure_ascii=False).encode("utf-8")
    assert b"\xef\xbf\xbd" in saved  # U+FFFD in UTF-8
    out = tmp_path_factory.mktemp("s") / "d.headroom"
    store.save(design, out)
    assert store.load(out).name == design.name
    json.dumps(evaluate(design).to_dict(), ensure_ascii=False).encode("utf-8")


@pytest.mark.parametrize(("select", "named"), [("id:ghost", "'ghost'"),
                                               ("tag:nobody", "'nobody'")])
def test_a_scenario_selecting_nothing_names_what_it_selected(select: str, named: str) -> None:
    doc = fresh()
    doc["scenarios"][0]["set"][0]["select"] = select
    with pytest.raises(DesignError, match=named):
        loads(json.dumps(doc))


@pytest.fixture
def stored(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    good = tmp_path / "good.headroom"
    store.save(examples.load("ft-netperf"), good)
    yield good, tmp_path / "bad.headroom"


def _with_text(good: Path, bad: Path, text: str) -> Path:
    bad.write_bytes(good.read_bytes())
    conn = sqlite3.connect(bad)
    conn.execute("UPDATE document SET value = ? WHERE key = 'design'", (text,))
    conn.commit()
    conn.close()
    return bad


@settings(max_examples=25)
@given(place=st.sampled_from(NUMERIC), value=huge_ints)
def test_huge_integers_inside_a_headroom_file(place: tuple[Any, ...], value: int,
                                              tmp_path_factory: pytest.TempPathFactory
                                              ) -> None:
    folder = tmp_path_factory.mktemp("h")
    good = folder / "good.headroom"
    store.save(examples.load("ft-netperf"), good)
    bad = _with_text(good, folder / "bad.headroom", json.dumps(put(fresh(), place[0], value)))
    with pytest.raises(DesignError, match="digit number"):
        store.load(bad)


def test_a_surrogate_inside_a_headroom_file_is_repaired(stored: tuple[Path, Path]) -> None:
    good, bad = stored
    doc = fresh()
    doc["components"][0]["name"] = "x \ud800 y"
    design = store.load(_with_text(good, bad, json.dumps(doc)))
    assert design.components[0].name == "x \ufffd y" and design.repairs
    assert design.repairs[0].where == f"component '{doc['components'][0]['id']}'"


def test_a_design_built_in_memory_with_bad_text_is_not_saved(tmp_path: Path) -> None:
    design = examples.load("ft-netperf")
    design.components[0].name = "x \udcff y"
    folder = tmp_path / "out"
    folder.mkdir()
    out = folder / "d.headroom"
    with pytest.raises(DesignError, match="lone UTF-16 surrogate"):
        store.save(design, out)
    assert list(folder.iterdir()) == []


def test_an_integer_past_pythons_digit_limit_is_named_too() -> None:
    doc = fresh()
    text = json.dumps(doc).replace('"x": ', '"x": ' + "9" * 5000 + ", \"_x\": ", 1)
    with pytest.raises(DesignError) as info:
        loads(text)
    assert any("'x' must be a number, got a 5000-digit number" in str(i)
               for i in info.value.issues)
