"""How every figure, unit, count and change reads, wherever it is shown: the app's tiles and
tables, the command line, the report and the models' own messages.

One place decides how a figure reads, so a tile, a table cell, a report sentence, a status line
and a test that compares a tile's text with the prediction all agree:

- one format per quantity: about three significant digits with thousands separators, whole
  numbers shown whole (``74,983 IOPS``, ``27.3 ms``), never ``75k`` beside ``7,263``;
- the unit chosen per magnitude (``9.1 Mbit/s`` rather than ``0.0091 Gbit/s``, ``16 KB``
  rather than ``16,384 bytes``, ``10 s`` rather than ``10,000 ms``); a fraction as a
  percentage (a CPU ceiling of ``0.9`` reads ``90 %``);
- counts and count units singular for one (``1 drive``, ``1 FT-protected VM``): every count
  goes through :func:`counted`, every figure with a unit through :func:`with_unit`;
- a change below the models' resolution reads ``no change`` (:data:`RESOLUTION`);
- a property's value with its choices in words (:func:`prop_value`).

No Qt: the models, the command line and the report use it as the app does.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from models.document import glossary
from models.document.schema import Value, choice_label, prop_spec

MIXED = "mixed"
"""Shown where the selected components disagree on a value."""
NONE = "–"
"""Shown where a figure is not modelled (NaN) or not defined."""
NO_CHANGE = "no change"
"""A change smaller than :data:`RESOLUTION`."""
SATURATED = "saturated"
"""An unbounded time (a queue past its capacity: the KPI table gives it as infinity)."""
NOT_MEASURED = glossary.NOT_MEASURED
"""A figure the design's data does not give (an estate imported without its datastores'
capacity): never 0, which would claim a result (:mod:`models.document.glossary`)."""

Names = Callable[[str], str]
"""Component id -> the name the user knows it by."""


def number(x: float | None, digits: int = 3) -> str:
    """``x`` with about ``digits`` significant digits and thousands separators.

    >>> number(123456.7)
    '123,457'
    >>> number(0.01234)
    '0.0123'
    >>> number(4.0)
    '4'
    """
    if x is None or not math.isfinite(x):
        return NONE
    if x == 0:
        return "0"
    mag = math.floor(math.log10(abs(x)))
    decimals = max(0, digits - 1 - mag)
    text = f"{x:,.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "−0") else text


def si(x: float | None, digits: int = 3) -> str:
    """Large counts shortened with k/M (``123.5k``); small ones as :func:`number`.  For axis
    ticks and tight report cells only: a figure on screen reads as :func:`with_unit`."""
    if x is None or not math.isfinite(x):
        return NONE
    for factor, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= 10 * factor:
            return number(x / factor, digits) + suffix
    return number(x, digits)


# --------------------------------------------------------------------------- counts

SINGULAR = {"drives": "drive", "hosts": "host", "devices": "device",
            "disk groups": "disk group", "failures": "failure", "years": "year", "ports": "port",
            "sockets": "socket",
            "cores": "core", "lanes": "lane", "I/Os": "I/O", "items": "item",
            "transfers": "transfer", "containers": "container", "streams": "stream",
            "vCPUs": "vCPU", "shares": "share", "VMs": "VM", "bytes": "byte",
            "desktops": "desktop", "receivers": "receiver", "round trips": "round trip",
            "users": "user", "datastores": "datastore", "VMs per host": "VM per host",
            "requests/s": "request/s", "packets/s": "packet/s", "points": "point",
            "core-equivalents": "core-equivalent"}
"""Count units (plural, as the schema and the KPI table give them) and their singular."""

_PLURAL = {"VM per host": "VMs per host"}
"""Nouns whose plural is not the noun with an s (nor a -y turned -ies)."""


def plural(noun: str) -> str:
    """``noun`` in the plural: an s, -ies for a -y after a consonant (``libraries``), or
    :data:`_PLURAL`'s word."""
    if noun in _PLURAL:
        return _PLURAL[noun]
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "o", "u", ""):
        return noun[:-1] + "ies"
    return noun + "s"


def counted(n: int, noun: str, many: str = "") -> str:
    """``1 VM``, ``9,203 VMs``, ``2 libraries``: a count and its noun, plural unless it is one
    (or minus one: ``-1 host`` short; ``many``, else :func:`plural`).  Every message that
    counts something goes through it."""
    return f"{n:,} {noun}" if abs(n) == 1 else f"{n:,} {many or plural(noun)}"


count = counted
"""The name the app's views call :func:`counted` by."""


# --------------------------------------------------------------------------- units

_FAMILIES: tuple[tuple[tuple[str, float], ...], ...] = (
    (("bit/s", 1.0), ("kbit/s", 1e3), ("Mbit/s", 1e6), ("Gbit/s", 1e9), ("Tbit/s", 1e12)),
    (("bytes", 1.0), ("KB", 1024.0), ("MB", 1024.0 ** 2), ("GB", 1024.0 ** 3),
     ("TB", 1024.0 ** 4)),
    (("KB/s", 1e3), ("MB/s", 1e6), ("GB/s", 1e9)),
    (("µs", 1e-3), ("ms", 1.0), ("s", 1e3), ("min", 6e4), ("h", 3.6e6)),
)
"""Units that step to the next one as a figure grows, with their size in the first unit."""
_STEP_UP = {"ms": 10_000.0, "s": 120.0, "min": 120.0}
"""How much of a unit it takes to step up to the next (default: one of the next): a
response of 10,000 ms reads 10 s, but 90 min stays 90 min."""
_STEP_DOWN = {"ms": 0.01}
"""Below how much of a unit it steps down to the next smaller one (default: 1)."""
_ALIASES = {"us": "µs"}
_PREFIX = {"generation": "Gen"}
"""Units written before the figure, without a space (PCIe ``Gen3``, not ``3 generation``)."""
_SUFFIX = {"x": "x"}
"""Units written right after the figure (a ratio: ``2.78x``)."""


def field_unit(unit: str) -> str:
    """The unit beside a field that holds a value as stored (the inspector's): none for a
    unit written into the figure (PCIe ``generation``: the field reads 3, not "3
    generation")."""
    return "" if unit in _PREFIX else unit


def scaled(x: float, unit: str) -> tuple[float, str]:
    """``x`` in the unit of its family that suits its magnitude: ``(0.0091, "Gbit/s")`` is
    ``(9.1, "Mbit/s")``; a unit of no family (``%``, ``IOPS``) is kept."""
    unit = _ALIASES.get(unit, unit)
    family = next((f for f in _FAMILIES if unit in dict(f)), None)
    if family is None or x == 0 or not math.isfinite(x):
        return x, unit
    names = [name for name, _ in family]
    sizes = dict(family)
    i = names.index(unit)
    size = abs(x) * sizes[unit]  # in the family's first unit
    while i + 1 < len(names) and size >= sizes[names[i + 1]] \
            and size / sizes[names[i]] >= _STEP_UP.get(names[i], 0.0):
        i += 1
    while i > 0 and size / sizes[names[i]] < _STEP_DOWN.get(names[i], 1.0):
        i -= 1
    return math.copysign(size / sizes[names[i]], x), names[i]


def with_unit(x: float | None, unit: str, digits: int = 3) -> str:
    """A figure and its unit as shown everywhere: the unit per magnitude (:func:`scaled`),
    singular for one (``1 drive``), a fraction as a percentage, none for unitless figures."""
    if x is None or not math.isfinite(x):
        return NONE
    if unit == "fraction":
        return percent(x, digits)
    if not unit:
        return number(x, digits)
    x, unit = scaled(x, unit)
    text = number(x, digits)
    if unit in _PREFIX:
        return f"{_PREFIX[unit]}{text}"
    if unit in _SUFFIX:
        return f"{text}{_SUFFIX[unit]}"
    if text in ("1", "-1", "−1"):
        unit = SINGULAR.get(unit, unit)
    return f"{text} {unit}"


def span(lo: float, hi: float, unit: str, digits: int = 3) -> str:
    """``30.1–32.2 ms``: a range with one unit, the one that suits its upper end."""
    if unit == "fraction":
        return f"{number(lo * 100.0, digits)}–{number(hi * 100.0, digits)} %"
    top, name = scaled(hi, unit) if unit else (hi, "")
    factor = top / hi if hi else 1.0
    text = f"{number(lo * factor, digits)}–{number(top, digits)}"
    return f"{text} {name}" if name else text


def percent(fraction: float | None, digits: int = 3) -> str:
    """A fraction as a percentage (``0.873`` -> ``87.3 %``)."""
    if fraction is None or not math.isfinite(fraction):
        return NONE
    v = fraction * 100.0
    if v != 0 and abs(v) < 0.01:
        return "< 0.01 %" if v > 0 else "> −0.01 %"
    if abs(v) < 1:  # at most two decimals: 0.02 %, not 0.0242 %
        return f"{v:.2f}".rstrip("0").rstrip(".") + " %"
    return number(v, digits) + " %"


def signed_percent(error: float | None) -> str:
    """A relative error or change as a signed percentage (``-0.042`` -> ``−4.2 %``)."""
    if error is None or not math.isfinite(error):
        return NONE
    if abs(error) < 5e-5:  # below 0.005 %: rounding in the model, not an error
        return "0 %"
    sign = "+" if error > 0 else "−"
    return f"{sign}{number(abs(error) * 100.0, 2)} %"


def unbroken(figure: str) -> str:
    """A figure and its unit kept on one line where a narrow tile wraps ("100 %", not "100"
    above "%")."""
    return figure.replace(" ", "\u00a0")


# --------------------------------------------------------------------------- values


def value(v: Value, unit: str = "") -> str:
    """A value as the knob panel shows it: on/off, a choice in words, a figure with its unit
    (``None`` reads as mixed)."""
    if v is None:
        return MIXED
    if isinstance(v, bool):
        return "on" if v else "off"
    if isinstance(v, str):
        return choice_label(v)
    return with_unit(float(v), unit)


def choice(prop: str, v: Value, unit: str = "") -> str:
    """A knob or property value as shown: a named choice in words (``raid5`` reads
    ``RAID 5``, the VAIO ``null`` filter ``null filter (pass-through)``)."""
    del prop  # the words of a choice are the same for every property that offers it
    return value(v, unit)


def prop_value(kind: str, prop: str, v: Value, unset: str = "auto") -> str:
    """The value of ``prop`` of ``kind`` as a report or a message shows it: ``32 I/Os``,
    ``on``, ``RAID 5``, ``Gen3``, ``90 %``; ``unset`` for a null (a nullable property's
    default); at the value that turns it off, the glossary's words for that."""
    if v is None:
        return unset
    spec = prop_spec(kind, prop)
    if spec is not None and spec.off is not None and isinstance(v, (int, float)) \
            and not isinstance(v, bool) and float(v) == spec.off:
        return glossary.off_text(kind, prop)  # "no vCPU:core ceiling", not "0 vCPUs per core"
    return value(v, spec.unit if spec is not None else "")


# --------------------------------------------------------------------------- changes

RESOLUTION = 1e-3
"""Changes smaller than this share of the figure are below what the models resolve (their
coefficients carry two or three significant digits from the studies, and the fixed-point
solvers stop at a relative tolerance): they read :data:`NO_CHANGE`, not ``−2.28 IOPS
(−0.003 %)``."""


def unchanged(new: float, base: float) -> bool:
    """Whether ``new`` and ``base`` differ by less than :data:`RESOLUTION` of the figure."""
    return abs(new - base) <= RESOLUTION * max(abs(new), abs(base))


def change_unit(unit: str) -> str:
    """The unit a change of a figure reads in: points for a percentage (41.5 % to 43.2 % is
    +1.7 points)."""
    return "points" if unit in ("%", "fraction") else unit


def delta(new: float | None, base: float | None, unit: str = "", digits: int = 3) -> str:
    """The change from ``base`` to ``new``: ``+12.5 ms (+8.1 %)``, ``+1.65 points (+4 %)`` for
    a percentage; ``no change`` below the models' resolution."""
    if new is None or base is None or not (math.isfinite(new) and math.isfinite(base)):
        return NONE
    if unchanged(new, base):
        return NO_CHANGE
    d = new - base
    sign = "+" if d > 0 else "−"
    # a change of a percentage is in points (41.5 % -> 43.2 % is +1.7 points, +4 %)
    size = abs(d) * (100.0 if unit == "fraction" else 1.0)
    text = sign + with_unit(size, change_unit(unit), digits)
    if base != 0:
        text += f" ({sign}{number(abs(d) / abs(base) * 100.0, 2)} %)"
    return text
