"""How a report (and every message that quotes the models) names things: components by their
names, resources and properties by their labels, and the models' own texts with their ids and
case ids put in plain words (:func:`plain`, the one such function: the dashboard, the command
line and the report all call it).

Figures, units and counts are :mod:`models.document.numbers`'; property labels the schema's;
kind nouns :data:`models.document.words.KIND_WORDS`; resources
:data:`models.core.prediction.RESOURCE_WORDS`.  This module decides sentences, never digits.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache

from models.calibration import cases
from models.core.prediction import resource_words
from models.document.design import Design, Override, every_component
from models.document.numbers import prop_value
from models.document.schema import KINDS, LINKS
from models.document.studies import named
from models.document.words import kind_text, prop_text

# --------------------------------------------------------------------------- components

def component_name(design: Design, cid: str) -> str:
    """How the user knows a component: its name, else its id.  A link named by its two
    ends (``siteA-siteB``, as the WAN models name them) reads ``Site A – Site B``."""
    c = design.component(cid)
    if c is not None:
        return c.name or c.id
    for i in range(1, len(cid)):  # ids may hold hyphens: try every split
        if cid[i] == "-":
            a, b = design.component(cid[:i]), design.component(cid[i + 1:])
            if a is not None and b is not None:
                return f"{a.name or a.id} – {b.name or b.id}"
    return cid


# --------------------------------------------------------------------------- resources

def resource_name(resource: str) -> str:
    """``host CPU``: a resource type on its own (:data:`~models.core.prediction.RESOURCE_WORDS`)."""
    return resource_words(resource).name


def resource_label(design: Design, component: str, resource: str) -> str:
    """``storage array · Intel S3700``: the resource first, so that a label cut short in a
    narrow column still says what is busy."""
    return f"{resource_name(resource)} · {component_name(design, component)}"


def resource_phrase(design: Design, component: str, resource: str) -> str:
    """The resource as a sentence names it: ``the CPU of host Dell R720``."""
    return resource_words(resource).phrase.format(component_name(design, component))


# --------------------------------------------------------------------------- properties

def in_sentence(label: str) -> str:
    """A label inside a sentence: its first letter small unless its first word is a name or
    an acronym (``Outstanding I/Os`` -> ``outstanding I/Os``; ``NetQueue / VMDq`` stays)."""
    first = label.split(" ", 1)[0]
    if first[:1].isupper() and not any(ch.isupper() for ch in first[1:]):
        return label[0].lower() + label[1:]
    return label


def target_text(design: Design, select: str) -> str:
    """Which components an override touches, in words: ``every VM``, ``VM ioanalyzer1``,
    ``the 8 VMs tagged small``, ``the policy``."""
    if select == "design":
        return "the policy"
    if select in KINDS or select in LINKS:
        return f"every {kind_text(select)}"
    if select.startswith("id:"):
        c = design.component(select[3:])
        return f"{kind_text(c.kind)} {c.name or c.id}" if c is not None else select[3:]
    if select.startswith("tag:"):
        tag = select[4:]
        tagged = [c for c in design.components if tag in c.tags]
        kinds = {c.kind for c in tagged}
        what = kind_text(kinds.pop(), len(tagged)) if len(kinds) == 1 else \
            ("component" if len(tagged) == 1 else "components")
        return f"the {len(tagged)} {what} tagged {tag}" if len(tagged) != 1 else \
            f"the {what} tagged {tag}"
    return select


def override_text(design: Design, ov: Override) -> str:
    """``Outstanding I/Os set to 32 I/Os on every VM``: one override of a scenario in words."""
    kind = "design" if ov.select == "design" else _kind_of(design, ov.select)
    prop = f"policy.{ov.prop.removeprefix('policy.')}" if kind == "design" else ov.prop
    where = "" if kind == "design" else f" on {target_text(design, ov.select)}"
    return f"{prop_text(kind, prop)} set to {prop_value(kind, prop, ov.value)}{where}"


def changes_text(design: Design, overrides: list[Override]) -> str:
    """A scenario's overrides in words, grouped by what they touch: ``on VM ioanalyzer1:
    outstanding I/Os → 32 I/Os, VAIO I/O filter → caching filter; the policy: CPU utilisation
    ceiling → 80 %``."""
    groups: dict[str, list[str]] = {}
    for ov in overrides:
        kind = "design" if ov.select == "design" else _kind_of(design, ov.select)
        prop = f"policy.{ov.prop.removeprefix('policy.')}" if kind == "design" else ov.prop
        label = in_sentence(prop_text(kind, prop))
        where = "the policy" if kind == "design" else f"on {target_text(design, ov.select)}"
        groups.setdefault(where, []).append(
            f"{label} → {prop_value(kind, prop, ov.value)}")
    return "; ".join(f"{where}: {', '.join(parts)}" for where, parts in groups.items())


def _kind_of(design: Design, select: str) -> str:
    if select in KINDS or select in LINKS:
        return select
    if select.startswith("id:"):
        c = design.component(select[3:])
        return c.kind if c is not None else ""
    for c in design.components:
        if select.startswith("tag:") and select[4:] in c.tags:
            return c.kind
    return ""


# --------------------------------------------------------------------------- model texts


@cache
def case_ids() -> tuple[str, ...]:
    """The calibration case ids, longest first (a text that cites one leaves it out)."""
    return tuple(sorted(cases(), key=len, reverse=True))


def names_of(design: Design) -> dict[str, str]:
    """Component id -> name, for the components whose name differs from their id."""
    return {c.id: c.name for c in every_component(design) if c.name and c.name != c.id}


_KIND_CODES = ((re.compile(r"\bvm\b"), "VM"), (re.compile(r"\bnic\b"), "NIC"),
               (re.compile(r"\bwan\b"), "WAN link"), (re.compile(r"\bhba\b"), "HBA"))
"""Kind codes a model's text may hold, as words."""

_KIND_WORDS = r"(?:host|hosts|vm|VM|VMs|nic|NIC|NICs|array|storage array|storage_array|site" \
              r"|wan|WAN|WAN link|library|content library|link|cluster)"
"""Words that lead a component's id in a model's text (``host h1``)."""


def _readable_id(cid: str) -> bool:
    """Whether an id is safe to replace wherever it stands in prose: one with a digit,
    an upper-case letter, a hyphen or an underscore (``h1``, ``siteA``, ``esx01-nic``);
    a plain word (``branch``, ``export``) would also match the prose around it."""
    return any(ch.isdigit() or ch.isupper() or ch in "-_" for ch in cid)


def _drop_case_ids(text: str, ids: Iterable[str]) -> str:
    for cid in ids:
        if cid in text:
            text = re.sub(rf"[,;]?\s*\b{re.escape(cid)}\b", "", text)
    text = re.sub(r"\(\s*[,;]?\s*\)", "", text)  # parentheses left empty
    return re.sub(r"\(\s*[,;]\s*", "(", text)


def plain(text: str, names: Mapping[str, str] | Design,
          ids: Iterable[str] | None = None) -> str:
    """A model's explanation or warning in plain words: component ids given by name (``host
    h1`` reads ``host Dell R720``; a link named by its ends, ``siteA-siteB``, by both names),
    kind codes as words (``vm`` reads ``VM``) and the calibration case ids it cites left out
    (the study is named elsewhere).  ``names`` maps ids to names (or is the design); ``ids``
    are the case ids (default: the case file's).

    An id is replaced where a kind word leads it, where it opens the text (``h1: VMs
    demand ...``), or anywhere when it cannot be a word of prose (:func:`_readable_id`); so a
    library called ``export`` leaves the word "export" alone."""
    if not text:
        return text
    text = _drop_case_ids(text, case_ids() if ids is None else ids)
    words = set(re.findall(r"[\w~.-]+", text))  # only the ids the text holds are looked up
    words |= {w.rstrip(".-~") for w in words}  # "h1." at the end of a sentence
    # the names of those words only (and of a link's two ends, "siteA-siteB"), not of every
    # component of a 50,000-VM design
    asked = words | {part for w in words if "-" in w for part in w.split("-")}
    every = names_of(names) if isinstance(names, Design) else names
    by_id = {k: v for k in asked if (v := every.get(k)) and v != k}
    if any("-" in w for w in words):
        pairs = re.compile(r"(?<![\w-])([\w.]+)-([\w.]+)(?![\w-])")
        text = pairs.sub(lambda m: f"{by_id[m[1]]} – {by_id[m[2]]}"
                         if m[1] in by_id and m[2] in by_id and m[0] not in by_id else m[0],
                         text)
    for cid in sorted((w for w in words if w in by_id), key=len, reverse=True):
        name = by_id[cid].replace("\\", r"\\")
        word = re.escape(cid)
        text = re.sub(rf"(\b{_KIND_WORDS} )'?{word}'?(?![\w~-])", rf"\g<1>{name}", text)
        text = re.sub(rf"^{word}(?=:)", name, text)
        if _readable_id(cid):
            text = re.sub(rf"(?<![\w~'-]){word}(?![\w~-])", name, text)
    for pattern, word in _KIND_CODES:
        text = pattern.sub(word, text)
    return re.sub(r"\s{2,}", " ", text).replace(" .", ".").replace(" ,", ",").strip()


def explanation(design: Design, component: str, text: str) -> str:
    """A resource's explanation to follow its name in a sentence: in plain words, without
    the component's name it starts with, first letter small unless a name or acronym."""
    text = plain(text, design).rstrip(".")
    name = component_name(design, component)
    if text.startswith(f"{name}: "):
        text = text[len(name) + 2:]
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        text = text[0].lower() + text[1:]
    return text


def study_title(case_or_study: str) -> str:
    """A study's title (:mod:`models.document.studies`) from a case id (or a ``;``-joined
    list of them) or from any name the case file gives it; other text as it is."""
    known = cases()
    first = case_or_study.split(";", maxsplit=1)[0].strip()
    name = str(known[first]["study"]) if first in known else case_or_study
    try:
        return named(name).title
    except KeyError:
        return case_or_study
