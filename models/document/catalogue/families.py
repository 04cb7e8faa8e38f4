"""Processor families: what a processor the catalogue lacks counts as.

A host's processor string that :func:`~models.document.catalogue.processors.match` does not
know ("AMD Ryzen 7 PRO 5850U with Radeon Graphics", "Intel(R) Xeon(R) Gold 6199", "AMD EPYC
7B13") is matched here to its *family*: the processors of one vendor that share its core
(microarchitecture) and platform.  Each family names the catalogue's processors of that core
(``members``) and, where a desktop or laptop part shares the core with server ones, the
strings of those parts (``clients``: Core i7, Ryzen).  The family's *stand-in* is one of its
catalogue members: the one whose SPECrate2017_int_base per core over its base clock is the
median of the family's (SPEC CPU2017 results where the family has any, else the CPU2006
estimates; processors with at least :data:`MIN_SUBMISSIONS` results where there are such), so
that the unknown processor counts as a named, typical core of its generation, scaled by its own
clock over the stand-in's base clock (:func:`models.core.platform.host_speed`).

The table is :data:`FAMILIES`, oldest first; a string takes the first family whose members or
clients match it (so the exceptions in a vendor's numbering come before the rule: Ryzen 5 5500U
is Zen 2 although Ryzen 5000 is Zen 3).  Patterns are read against :func:`subject`: a Xeon,
EPYC or Opteron as its catalogue key ("XEON GOLD 6199", "XEON E5-2680 V4", "EPYC 7B13",
"OPTERON 2376 HE"), anything else in upper case without its trademark marks ("AMD RYZEN 7 PRO
5850U WITH RADEON GRAPHICS 1.90 GHZ", "12TH GEN INTEL CORE I7-12700").

Sources of the generations (which model numbers are which core):

* Intel: the processor-number guides of Intel ARK ("Intel Processor Names, Numbers and
  Generation List", intel.com/content/www/us/en/processors/processor-numbers.html) and ARK's
  product families by code name (Sandy Bridge EP ... Granite Rapids, ark.intel.com): Xeon E3/E5/
  E7 "v2" Ivy Bridge, "v3" Haswell, "v4" Broadwell, E3 "v5"/"v6" Skylake/Kaby Lake; Xeon
  Scalable's second digit is its generation (x1xx Skylake-SP, x2xx Cascade Lake, x3xx Ice Lake
  and, with an H, Cooper Lake, x4xx Sapphire Rapids, x5xx Emerald Rapids); Xeon 6 "P" Granite
  Rapids, "E" Sierra Forest; Core i3-i9's number starts with its generation (i7-8700 8th,
  i7-12700 12th).
* AMD: EPYC's last digit of the model number is its generation (7xx1 Naples Zen, 7xx2 Rome Zen
  2, 7xx3 Milan Zen 3, 9xx4/8xx4/4xx4 Zen 4, 9xx5/4xx5 Zen 5; AMD's EPYC product pages);
  Ryzen's first digit is its series (1000/2000 Zen and Zen+, 3000 desktop Zen 2 but its G, U
  and H parts Zen+, 4000 Zen 2, 5000 Zen 3 but 5300U/5500U/5700U Zen 2, 6000 Zen 3+, 7000
  desktop Zen 4, 8000 Zen 4, 9000 Zen 5), and from the 2023 laptops the third digit is the
  core ("AMD's new mobile processor naming", AMD, Sep 2022: 7x20 Zen 2, 7x30 Zen 3, 7x35 Zen
  3+, 7x40/7x45 Zen 4); Opteron's thousands digit is its socket class and its hundreds digit
  the family (22xx K8, 23xx/24xx and 41xx/61xx K10, 42xx/62xx Bulldozer, 43xx/63xx
  Piledriver; AMD's Opteron model-number methodology); Hygon's Dhyana is AMD's Zen under
  licence.

Zen+ (12 nm Zen) and Zen 3+ have no EPYC: they count as Zen and Zen 3.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from models.document.catalogue import processors as catalogue
from models.document.catalogue.names import key, plain
from models.document.catalogue.processors import Processor

MIN_SUBMISSIONS = 3
"""Fewest SPEC results a processor needs to stand in for its family, where the family has
such processors (one result is one machine's tuning)."""

_SCALABLE = r"^XEON (?:BRONZE|SILVER|GOLD|PLATINUM) \d"
_E3 = r"^XEON E3-1[235]\d\d[A-Z]*"
_CORE = r"\bCORE I[3579]-"
_RYZEN = r"\bRYZEN (?:THREADRIPPER |[3579] )?(?:PRO )?"
_EPYC = r"^EPYC \d[0-9A-Z]{2}"
_OPTERON = r"^OPTERON "


@dataclass(frozen=True)
class Family:
    """Processors of one core and platform: the catalogue's (``members``) and the desktop or
    laptop strings counted as them (``clients``)."""

    name: str
    """How it reads: "Zen 3 (EPYC 7003 Milan)", "Broadwell (Xeon E5/E7 v4)"."""
    vendor: str
    members: tuple[str, ...]
    """Patterns of its server processors: they pick its catalogue processors (the stand-in
    among them) and match host strings of processors the catalogue lacks."""
    clients: tuple[str, ...] = ()
    """Patterns of other processors of the same core (desktop, laptop) counted as them."""

    def holds(self, subject_text: str) -> bool:
        """Whether a :func:`subject` is one of this family's members."""
        return any(re.search(p, subject_text) for p in self.members)

    def knows(self, subject_text: str) -> bool:
        """Whether a :func:`subject` is one of its members or clients."""
        return self.holds(subject_text) or any(re.search(p, subject_text)
                                               for p in self.clients)


def _f(name: str, vendor: str, members: tuple[str, ...] | str,
       clients: tuple[str, ...] | str = ()) -> Family:
    def many(p: tuple[str, ...] | str) -> tuple[str, ...]:
        return (p,) if isinstance(p, str) else p
    return Family(name, vendor, many(members), many(clients))


FAMILIES: tuple[Family, ...] = (
    # ---------------------------------------------------------------- Intel, oldest first
    _f("NetBurst, Xeon 5000/7000", "Intel", r"^XEON (?:50|70|71)\d\d(?!\d)"),
    _f("Core 65 nm, Xeon 5100/5300", "Intel",
       r"^XEON [EXL]?(?:30|32|51|53|72|73)\d\d(?!\d)"),
    _f("Penryn, Xeon 5200/5400", "Intel", r"^XEON [EXL]?(?:31|33|52|54|74)\d\d(?!\d)"),
    _f("Nehalem, Xeon 5500", "Intel", r"^XEON [EXLW](?:34|35|55|65|75)\d\d(?!\d)",
       (_CORE + r"\d{3}(?!\d)", r"\bCORE I[3579] CPU \d{3}(?!\d)")),  # 1st gen Core i7 920
    _f("Westmere, Xeon 5600 and E7", "Intel",
       (r"^XEON [EXLW](?:36|56)\d\d(?!\d)", r"^XEON E7-[248]8\d\d[A-Z]*$")),
    _f("Sandy Bridge, Xeon E3-1200", "Intel", _E3 + "$", _CORE + r"2\d{3}"),
    _f("Sandy Bridge-EP, Xeon E5", "Intel", r"^XEON E5-\d{4}[A-Z]*$"),
    _f("Ivy Bridge, Xeon E3 v2", "Intel", _E3 + " V2$", _CORE + r"3\d{3}"),
    _f("Ivy Bridge-EP, Xeon E5/E7 v2", "Intel", r"^XEON E[57]-\d{4}[A-Z]* V2$"),
    _f("Haswell, Xeon E3 v3", "Intel", _E3 + " V3$", _CORE + r"4\d{3}"),
    _f("Haswell-EP, Xeon E5/E7 v3", "Intel", r"^XEON E[57]-\d{4}[A-Z]* V3$"),
    _f("Broadwell, Xeon E5/E7 v4", "Intel",
       (r"^XEON E[357]-\d{4}[A-Z]* V4$", r"^XEON D-15\d\d"), _CORE + r"5\d{3}"),
    _f("Skylake, Xeon E3 v5/v6 and E-2100/E-2200", "Intel",
       (_E3 + " V[56]$", r"^XEON E-2[12]\d\d", r"^XEON W-12\d\d"),
       (_CORE + r"[6-9]\d{3}", _CORE + r"10\d{3}")),  # 6th-10th gen: Skylake to Comet Lake
    _f("Rocket Lake, Xeon E-2300", "Intel", (r"^XEON E-23\d\d", r"^XEON W-13\d\d"),
       (_CORE + r"11\d\d", _CORE + r"10\d\dG\d")),  # 11th gen, and 10th gen Ice Lake laptops
    _f("Raptor Lake, Xeon E-2400", "Intel", r"^XEON E-24\d\d",
       (_CORE + r"1[234]\d\d", r"\bCORE [3579] [12]\d\d")),  # 12th-14th gen, Core 7 150U
    _f("Skylake-SP, Xeon Scalable 1st gen", "Intel",
       (_SCALABLE + r"1\d\d[A-Z]*$", r"^XEON W-[23]1\d\d", r"^XEON D-21\d\d")),
    _f("Cascade Lake, Xeon Scalable 2nd gen", "Intel",
       (_SCALABLE + r"2\d\d[A-Z]*$", _SCALABLE + r"3\d\dHL?$", r"^XEON W-[23]2\d\d")),
    _f("Ice Lake-SP, Xeon Scalable 3rd gen", "Intel",
       (_SCALABLE + r"3\d\d(?!HL?$)[A-Z]*$", r"^XEON D-[12][78]\d\d", r"^XEON W-33\d\d")),
    _f("Sapphire Rapids, Xeon Scalable 4th gen", "Intel",
       (_SCALABLE + r"4\d\d[A-Z+]*$", r"^XEON MAX 94\d\d", r"^XEON W[3579]-[23][45]\d\d")),
    _f("Emerald Rapids, Xeon Scalable 5th gen", "Intel", _SCALABLE + r"5\d\d[A-Z+]*$"),
    _f("Sierra Forest, Xeon 6 E-core", "Intel", r"^XEON 6\d{3}E"),
    _f("Granite Rapids, Xeon 6 P-core", "Intel", r"^XEON 6\d{3}P",
       r"\bCORE ULTRA [579] \d{3}"),  # Meteor Lake's Redwood Cove, Granite Rapids' core
    # ---------------------------------------------------------------- AMD, oldest first
    _f("K8, Opteron 200/2200", "AMD", r"^OPTERON (?:[128]\d\d|[128]2\d\d)(?!\d)"),
    _f("K10, Opteron 2300/2400/6100", "AMD",
       r"^OPTERON (?:[128]3\d\d|[28]4\d\d|[46]1\d\d)(?!\d)"),
    _f("Bulldozer, Opteron 6200", "AMD", r"^OPTERON [346]2\d\d(?!\d)"),
    _f("Piledriver, Opteron 6300", "AMD", r"^OPTERON [346]3\d\d(?!\d)"),
    _f("Zen, EPYC 7001 Naples", "AMD", _EPYC + "1",
       (_RYZEN + r"[12]\d{3}", _RYZEN + r"3\d{3}(?:G|GE|U|H|E|C)\b", r"\bHYGON\b")),
    _f("Zen 2, EPYC 7002 Rome", "AMD", _EPYC + "2",
       (_RYZEN + r"[34]\d{3}", _RYZEN + r"5[357]00U\b", _RYZEN + r"7\d2[05]")),
    _f("Zen 3, EPYC 7003 Milan", "AMD", _EPYC + "3",
       (_RYZEN + r"[56]\d{3}", _RYZEN + r"7\d3[05]")),
    _f("Zen 4, EPYC 9004 Genoa", "AMD", _EPYC + "4",
       (_RYZEN + r"[78]\d{3}", r"\bRYZEN Z1\b")),
    _f("Zen 5, EPYC 9005 Turin", "AMD", _EPYC + "5", (_RYZEN + r"9\d{3}", r"\bRYZEN AI\b")),
)
"""The families, oldest first within each vendor (a string takes the first that knows it)."""


def subject(text: str) -> str:
    """What the patterns read: a Xeon, EPYC or Opteron as its catalogue key ("XEON E5-2680
    V4"), any other string in upper case without trademark marks."""
    k = key(text)
    return f"{k[0].upper()} {k[1]}" if k is not None else plain(text)


def family_of(text: str) -> Family | None:
    """The family of a processor string, or None when no rule knows it."""
    s = subject(text)
    if not s:
        return None
    return next((f for f in FAMILIES if f.knows(s)), None)


@cache
def members(family: Family) -> tuple[Processor, ...]:
    """The catalogue's processors of a family (with a base clock: a stand-in is scaled by
    it)."""
    return tuple(p for p in catalogue.processors() if p.ghz and family.holds(subject(p.model)))


def _per_ghz(p: Processor) -> float:
    return p.specrate_per_core / float(p.ghz or 1.0)


@cache
def stand_in_of(family: Family) -> Processor | None:
    """The processor that stands in for the family's unknown ones: the median of the family's
    SPEC results in SPECrate per core per GHz of base clock, each processor counted as often
    as SPEC has results of it (so a common part, not a rare one, stands in).  Only processors
    with :data:`MIN_SUBMISSIONS` results where the family has any, and of those the SPEC
    CPU2017 results where any (else the CPU2006 estimates).  None when the catalogue has
    none of it."""
    pool = list(members(family))
    pool = [p for p in pool if p.submissions >= MIN_SUBMISSIONS] or pool
    pool = [p for p in pool if not p.estimate] or pool
    if not pool:
        return None
    pool.sort(key=lambda p: (_per_ghz(p), -p.submissions, p.model))
    half = sum(p.submissions for p in pool) / 2
    counted = 0
    for p in pool:
        counted += p.submissions
        if counted >= half:
            return p
    return pool[-1]  # not reached: the counts add up to the whole


@dataclass(frozen=True)
class StandIn:
    """A processor the catalogue lacks and what it counts as."""

    family: Family
    processor: Processor
    """The family's stand-in (a catalogue processor)."""


@cache
def stand_in(text: str) -> StandIn | None:
    """What a processor string the catalogue lacks counts as: its family's stand-in; None
    when no family knows it (or the catalogue has none of the family).  A string the catalogue
    has is its own processor: ask :func:`~models.document.catalogue.processors.match`
    first."""
    family = family_of(text)
    proc = None if family is None else stand_in_of(family)
    return None if family is None or proc is None else StandIn(family, proc)
