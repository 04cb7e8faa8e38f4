"""Processor names: one key for a processor however it is written.

SPEC's results write "Intel Xeon E3-1220V2", "Intel Xeon E7- 8870" or "Intel Xeon Gold  6534";
vCenter, RVTools and Live Optics print the CPUID brand string, "Intel(R) Xeon(R) CPU E5-2665 0
@ 2.40GHz" or "AMD EPYC 9354 32-Core Processor".  :func:`key` reduces both to the same
``(family, model)`` pair, ``("xeon", "E5-2665")``; :func:`canonical` writes a key the way the
catalogue shows it, "Intel Xeon E5-2665".

The model is what tells processors apart: its number with every letter after it ("Gold 6140"
is not "Gold 6140M", "EPYC 9354" is not "EPYC 9354P"), a version ("E5-2680" is not
"E5-2680 v2") and the words AMD put after Opteron numbers ("2212 HE").
"""

from __future__ import annotations

import re

FAMILIES = {"xeon": "Intel Xeon", "epyc": "AMD EPYC", "opteron": "AMD Opteron"}
"""The processor families the catalogue holds (x86 server processors vSphere runs on), by
the word that names them in a brand string."""

VENDORS = {"xeon": "Intel", "epyc": "AMD", "opteron": "AMD"}

BRANDS = {"BRONZE": "Bronze", "SILVER": "Silver", "GOLD": "Gold", "PLATINUM": "Platinum",
          "MAX": "Max", "PHI": "Phi"}
"""Xeon's brand words before the number (Xeon Scalable's metals, Max, Phi)."""

SUFFIX_WORDS = frozenset({"HE", "SE", "EE", "LV"})
"""Words after a number that name a different part (Opteron 2212 HE, Xeon 5148 LV)."""

_MARKS = re.compile(r"\((?:R|TM|C)\)|[®™]", re.IGNORECASE)
_CLOCK = re.compile(r"@.*$|\b\d+(?:\.\d+)?\s*[GM]HZ\b")
_NOISE = re.compile(r"\b(?:\d+|DUAL|QUAD|SIX|EIGHT|TWELVE|SIXTEEN)-CORE\b|\bPROCESSOR\b|\bCPU\b")
_E_SPACE = re.compile(r"\b(E[357])-\s+(?=\d)")
_VERSION = re.compile(r"^(.*\d[A-Z]?)V([1-9])$")


def plain(text: str) -> str:
    """A processor string in upper case without its trademark marks and with single spaces:
    "Intel(R) Core(TM) i7-8700" reads "INTEL CORE I7-8700"."""
    return " ".join(_MARKS.sub(" ", text).upper().split())


def _family_and_rest(text: str) -> tuple[str, str] | None:
    s = _CLOCK.sub(" ", plain(text))
    s = _NOISE.sub(" ", s)
    for word in FAMILIES:
        at = re.search(rf"\b{word.upper()}\b", s)
        if at:
            return word, s[at.end():]
    return None


def key(text: str) -> tuple[str, str] | None:
    """``(family, model)`` of a processor string (upper case, single spaces), or None when it
    names no Xeon, EPYC or Opteron model.

    >>> key("Intel(R) Xeon(R) CPU E5-2650 v4 @ 2.20GHz")
    ('xeon', 'E5-2650 V4')
    >>> key("AMD EPYC 9354 32-Core Processor")
    ('epyc', '9354')
    """
    found = _family_and_rest(text)
    if found is None:
        return None
    family, rest = found
    rest = _E_SPACE.sub(r"\1-", rest)
    tokens = [t for t in rest.replace(",", " ").split() if t != "0"]
    parts: list[str] = []
    if tokens and tokens[0] in BRANDS:
        parts.append(tokens.pop(0))
    if not tokens or sum(c.isdigit() for c in tokens[0]) < 3:  # EPYC 72F3 has three
        return None
    number = tokens.pop(0)
    version = ""
    m = _VERSION.match(number) if family == "xeon" else None
    if m:  # "E3-1220V2", "E3-1220LV2"
        number, version = m.group(1), f"V{m.group(2)}"
    parts.append(number)
    suffix: list[str] = []
    for t in tokens:
        if re.fullmatch(r"V[1-9]", t) and not version:
            version = t
        elif t in SUFFIX_WORDS and not version:
            suffix.append(t)
        else:
            break
    parts.extend(suffix)
    if version:
        parts.append(version)
    return family, " ".join(parts)


def canonical(family: str, model: str) -> str:
    """How the catalogue writes a processor: "Intel Xeon Gold 6140", "Intel Xeon E5-2650 v4",
    "AMD EPYC 9354", "AMD Opteron 2212 HE"."""
    words = []
    for w in model.split():
        if w in BRANDS:
            words.append(BRANDS[w])
        elif re.fullmatch(r"V[1-9]", w):
            words.append(w.lower())
        elif re.fullmatch(r"W\d-\S+", w):  # Xeon w9-3495X
            words.append("w" + w[1:])
        else:
            words.append(w)
    return f"{FAMILIES[family]} {' '.join(words)}"


def model_key(text: str) -> str | None:
    """One string for a processor's key (``"xeon:E5-2650 V4"``), or None."""
    k = key(text)
    return None if k is None else f"{k[0]}:{k[1]}"
