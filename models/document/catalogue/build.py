"""Build the processor catalogue (and the servers' processor options) from SPEC's dumps.

``python -m models.document.catalogue.build [SPEC_FOLDER]`` reads the three dumps
(default ``../shared/reference/spec/`` beside the project) and writes
``resources/catalogue/processors.json`` and, for the curated ``servers.json``,
``resources/catalogue/server_options.json``.
Standard library only.

The figure of a processor is SPECrate2017_int_base per core: the median over its
submissions of base result / system cores.  A processor older than CPU2017 (first available
before June 2017) that has CPU2006 results gets an estimate instead: the median CPU2006 base
result per core times :data:`bridge <measure_bridge>`, the ratio of the two suites per core
measured on Xeon Scalable gen 1, which has many results in both.  CPU2006 results published
after January 2014 are in the peak-only file: their base is the peak times the base/peak ratio
measured on the CPU2006 file's own rows (the processor's own where it has enough, else its
family's newest).
"""

from __future__ import annotations

import json
import re
import statistics
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from models.document.catalogue import spec
from models.document.catalogue.names import VENDORS, canonical, key
from models.document.catalogue.spec import Month, Result, month_text

ROOT = Path(__file__).resolve().parents[3]
DEFAULT_SPEC = ROOT.parent / "shared" / "reference" / "spec"
OUT = ROOT / "resources" / "catalogue"

CPU2017_RELEASED: Month = (2017, 6)
"""SPEC CPU2017's release: a processor first available before it is "older than CPU2017"."""

BRIDGE_SET = re.compile(r"(BRONZE|SILVER|GOLD|PLATINUM) [3-8]1\d\d[A-Z]?")
"""Xeon Scalable gen 1 (Skylake-SP, 2017): the processors the bridge is measured on."""
BRIDGE_MIN_RESULTS = 10
"""Results a processor needs in each suite to take part in the bridge."""

RATIO_MIN_ROWS = 3
"""CPU2006 rows with both base and peak a processor needs for a base/peak ratio of its own."""
RATIO_SINCE = {"xeon": 2013, "opteron": 2011, "epyc": 2013}
"""A family's base/peak ratio is measured on its rows of hardware available from this year on
(the newest generations the CPU2006 file has: Ivy Bridge and Haswell, Bulldozer and
Piledriver); it converts the peak-only results of the processors without a ratio of their
own (Haswell, Broadwell, Skylake and later)."""

EXCLUDED = re.compile(r"PHI\b")
"""Xeon Phi: a many-core accelerator, no vSphere host."""

ATTRIBUTION = ("SPEC\u00ae, SPECrate\u00ae and SPEC CPU\u00ae are registered trademarks of the "
               "Standard Performance Evaluation Corporation; results from www.spec.org as of "
               "{cpu2017} (CPU2017) and {cpu2006} (CPU2006). Figures marked estimate are "
               "derived from CPU2006 results and are not SPEC results.")

ORIGINS = {
    spec.CPU2017: "fjacquet/spec-search mcp_server/src/spec_search_mcp/data/"
                  "cpu2017-results.csv.gz @ 9810b16",
    spec.CPU2006: "Derek-Jones/ESEUR-code-data benchmark/cpu2006-results-20140206.csv.xz "
                  "@ 1a49d10",
    spec.PEAK: "Derek-Jones/ESEUR-code-data ecosystems/SPEC-memory.csv.xz @ 1a49d10",
}


def quantile(values: Sequence[float], q: float) -> float:
    """The q-quantile (inclusive method: min and max at 0 and 1) of ``values``."""
    xs = sorted(values)
    if len(xs) == 1:
        return xs[0]
    pos = q * (len(xs) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def base_peak_ratios(results: list[Result]) -> tuple[dict[str, float], dict[tuple[str, str],
                                                                           float], dict[str, int]]:
    """Base/peak of the CPU2006 file's rows that have both: per family (its newest
    generations, :data:`RATIO_SINCE`) and per processor (with :data:`RATIO_MIN_ROWS` rows)."""
    by_family: dict[str, list[float]] = defaultdict(list)
    by_model: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in results:
        if r.peak or r.peak_value is None:
            continue
        ratio = r.value / r.peak_value
        by_model[(r.family, r.model)].append(ratio)
        if r.hw_avail and r.hw_avail[0] >= RATIO_SINCE[r.family]:
            by_family[r.family].append(ratio)
    family = {f: statistics.median(v) for f, v in by_family.items()}
    model = {k: statistics.median(v) for k, v in by_model.items() if len(v) >= RATIO_MIN_ROWS}
    return family, model, {f: len(v) for f, v in by_family.items()}


class Cpu2006:
    """CPU2006 base per core of each processor: base results as published, peak-only results
    times a base/peak ratio."""

    def __init__(self, results: list[Result]) -> None:
        self.family_ratio, self.model_ratio, self.ratio_rows = base_peak_ratios(results)
        self.by_model: dict[tuple[str, str], list[Result]] = defaultdict(list)
        for r in results:
            self.by_model[(r.family, r.model)].append(r)

    def ratio(self, k: tuple[str, str]) -> float:
        return self.model_ratio.get(k, self.family_ratio.get(k[0], 1.0))

    def per_core(self, k: tuple[str, str]) -> list[float]:
        ratio = self.ratio(k)
        return [r.per_core * ratio if r.peak else r.per_core for r in self.by_model.get(k, [])]


def measure_bridge(cpu2017: dict[tuple[str, str], list[Result]],
                   cpu2006: Cpu2006) -> dict[str, Any]:
    """CPU2017 base per core / CPU2006 base per core, each a median over a processor's
    results, on every Xeon Scalable gen 1 processor with enough results in both; the bridge is
    the median over those processors."""
    rows: list[dict[str, Any]] = []
    ratios: list[float] = []
    for k in sorted(cpu2017):
        if k[0] != "xeon" or not BRIDGE_SET.fullmatch(k[1]):
            continue
        old = cpu2006.per_core(k)
        if len(cpu2017[k]) < BRIDGE_MIN_RESULTS or len(old) < BRIDGE_MIN_RESULTS:
            continue
        new = statistics.median(r.per_core for r in cpu2017[k])
        ratios.append(round(new / statistics.median(old), 4))
        rows.append({"model": canonical(*k), "cpu2017_per_core": round(new, 3),
                     "cpu2017_results": len(cpu2017[k]),
                     "cpu2006_per_core": round(statistics.median(old), 2),
                     "cpu2006_results": len(old),
                     "ratio": ratios[-1]})
    return {"factor": round(statistics.median(ratios), 4),
            "p10": round(quantile(ratios, 0.1), 4), "p90": round(quantile(ratios, 0.9), 4),
            "min": min(ratios), "max": max(ratios), "processors": rows}


def _mode(values: list[int]) -> int | None:
    if not values:
        return None
    counts = Counter(values).most_common()
    top = counts[0][1]
    return max(v for v, n in counts if n == top)


def first_available(results: list[Result]) -> Month | None:
    """When a processor was first available: the 5th percentile of its submissions' hardware
    availability, and never the earliest of two or more (one early-access system among 80
    says Dec-2016 for Xeon Gold 6130, launched Jul-2017; a Supermicro board's own date says
    Aug-2019 for EPYC 7313, launched Mar-2021)."""
    hw = sorted(r.hw_avail for r in results if r.hw_avail)
    return hw[max(int(0.05 * (len(hw) - 1)), min(1, len(hw) - 1))] if hw else None


def _describe(k: tuple[str, str], results: list[Result]) -> dict[str, Any]:
    """What the results say of a processor besides its figure: cores per socket, threads per
    core and base clock (the most common over its submissions), first availability."""
    clocks = [r.mhz for r in results if r.mhz]
    first = first_available(results)
    return {"model": canonical(*k), "vendor": VENDORS[k[0]],
            "cores": _mode([r.cores // r.chips for r in results]),
            "threads_per_core": _mode([r.threads_per_core for r in results
                                       if r.threads_per_core]),
            "ghz": round(statistics.median(clocks) / 1000, 2) if clocks else None,
            "year": first[0] if first else None}


def _spread(values: list[float], scale: float = 1.0) -> dict[str, float]:
    return {"p10": round(quantile(values, 0.1) * scale, 3),
            "p90": round(quantile(values, 0.9) * scale, 3)}


def processor_rows(cpu2017: dict[tuple[str, str], list[Result]], cpu2006: Cpu2006,
                   bridge: float) -> list[dict[str, Any]]:
    """One row per processor, sorted by vendor and model."""
    rows = []
    for k in sorted(set(cpu2017) | set(cpu2006.by_model)):
        if EXCLUDED.match(k[1]):
            continue
        new, old = cpu2017.get(k, []), cpu2006.by_model.get(k, [])
        row = _describe(k, new + old)
        first = first_available(new + old)
        older = first is not None and first < CPU2017_RELEASED
        if new and not (old and older):
            per_core = [r.per_core for r in new]
            row.update(specrate_per_core=round(statistics.median(per_core), 3),
                       **_spread(per_core), submissions=len(new), estimate=False,
                       source=f"SPECrate2017_int_base, median of {len(new)} results")
        else:
            per_core = cpu2006.per_core(k)
            base = statistics.median(per_core)
            peaks = sum(r.peak for r in old)
            how = (f"CPU2006 base per core {base:.2f} (median of {len(old)} results"
                   + (f", {peaks} of them peak x {cpu2006.ratio(k):.3f}" if peaks else "")
                   + f") x bridge {bridge}")
            row.update(specrate_per_core=round(base * bridge, 3),
                       **_spread(per_core, bridge), submissions=len(old), estimate=True,
                       source=f"estimate: {how}", cpu2006_per_core=round(base, 2))
            if new:
                row["cpu2017_direct"] = round(statistics.median(r.per_core for r in new), 3)
                row["cpu2017_submissions"] = len(new)
        rows.append(row)
    return sorted(rows, key=lambda r: (r["vendor"], r["model"]))


def _span(results: list[Result]) -> dict[str, str]:
    months = [r.published for r in results if r.published]
    return {"published_from": month_text(min(months)), "published_to": month_text(max(months))}


def build(folder: Path) -> dict[str, Any]:
    """The processor catalogue's document from the dumps in ``folder``."""
    new_results = spec.read_cpu2017(folder)
    old_results = spec.read_cpu2006(folder)
    cpu2017: dict[tuple[str, str], list[Result]] = defaultdict(list)
    for r in new_results:
        cpu2017[(r.family, r.model)].append(r)
    cpu2006 = Cpu2006(old_results)
    bridge = measure_bridge(cpu2017, cpu2006)
    rows = processor_rows(cpu2017, cpu2006, bridge["factor"])
    for b in bridge["processors"]:  # the bridge's own processors are measured, not bridged
        assert not next(r for r in rows if r["model"] == b["model"])["estimate"], b
    old_base = [r for r in old_results if not r.peak]
    old_peak = [r for r in old_results if r.peak]
    dates = {"cpu2017": _span(new_results)["published_to"],
             "cpu2006": _span(old_results)["published_to"]}
    checks = [{"model": r["model"], "bridged": r["specrate_per_core"],
               "cpu2017_direct": r["cpu2017_direct"],
               "cpu2017_results": r["cpu2017_submissions"],
               "ratio": round(r["cpu2017_direct"] / r["cpu2006_per_core"], 4)}
              for r in rows if "cpu2017_direct" in r]
    return {
        "format": "headroom-processors", "version": 1,
        "metric": "SPECrate2017_int_base per core (base result / total cores of the system)",
        "attribution": ATTRIBUTION.format(**dates),
        "provenance": {
            "built_by": "python -m models.document.catalogue.build",
            "sources": [
                {"file": spec.CPU2017, "origin": ORIGINS[spec.CPU2017],
                 "benchmark": "CINT2017rate", "column": "Base Result",
                 "results": len(new_results), **_span(new_results)},
                {"file": spec.CPU2006, "origin": ORIGINS[spec.CPU2006],
                 "benchmark": "CINT2006rate", "column": "Baseline",
                 "results": len(old_base), **_span(old_base)},
                {"file": spec.PEAK, "origin": ORIGINS[spec.PEAK],
                 "benchmark": "CINT2006rate", "column": "Result (peak; rows published after "
                 "the CPU2006 file's last month only)",
                 "results": len(old_peak), **_span(old_peak)},
            ],
            "rules": [
                "processors: Intel Xeon (not Phi), AMD EPYC and AMD Opteron, one per model "
                "number with its letters and version (Gold 6140 and Gold 6140M, E5-2680 and "
                "E5-2680 v2 are different processors)",
                "specrate_per_core: median over submissions of base result / system cores; "
                "p10 and p90 of the same",
                "a processor first available before Jun-2017 with CPU2006 results: the "
                "median CPU2006 base per core x the bridge, marked estimate",
                "cores: per socket; threads_per_core and ghz (base clock): most common and "
                "median over the submissions (none where only the peak-only file, which has "
                "no such columns, holds the processor); year: first hardware availability",
            ],
            "base_over_peak": {
                "families": {f: round(v, 4) for f, v in sorted(cpu2006.family_ratio.items())},
                "rows": cpu2006.ratio_rows, "since": RATIO_SINCE,
                "note": "CPU2006 rows with both base and peak, hardware available from the "
                        "year given on; a processor with at least "
                        f"{RATIO_MIN_ROWS} such rows uses its own median",
            },
            "bridge": {**bridge,
                       "note": "SPECrate2017_int_base per core / SPECint_rate_base2006 per "
                               "core on Xeon Scalable gen 1 (CPU2006 base from peak x the "
                               "Xeon base/peak ratio). Applied to older processors it is a "
                               "chained estimate: the two suites weigh caches, memory and "
                               "compilers differently, so the ratio drifts with the "
                               "microarchitecture; before Sandy Bridge (Xeon 5500/5600/7500, "
                               "E7 v1, Opteron) it crosses several generations unchecked. "
                               "The checks compare it with the few CPU2017 results of "
                               "bridged processors.",
                       "checks": checks},
        },
        "processors": rows,
    }


SERVER_VENDOR_WORDS = ("dell", "hpe", "lenovo", "cisco")


def system_name(system: str) -> str:
    """A SPEC ``System`` reduced to the server's name: "PowerEdge R640 (Intel Xeon Gold 6140,
    2.30 GHz)" and "ThinkSystem SR635 2.00 GHz, AMD EPYC 7662" give "poweredge r640" and
    "thinksystem sr635"."""
    s = re.split(r"[(,]", system)[0]
    s = re.split(r"\s\d+(?:\.\d+)?\s*GHz|\s(?:AMD|Intel)\s", s, flags=re.IGNORECASE)[0]
    words = [w for w in s.lower().split() if ")" not in w]
    while words and words[0] in SERVER_VENDOR_WORDS:
        words.pop(0)
    return " ".join(words)


MEMORY = re.compile(r"\(\s*(\d+)\s*x\s*(\d+)\s*GB[^,)]*?\bPC(\d)", re.IGNORECASE)
"""SPEC's ``Memory``: "768 GB (24 x 32 GB 2Rx4 PC4-2933Y-R)"."""


def memory_config(text: str) -> tuple[int, int, int, str] | None:
    """(GB in DIMMs, DIMMs, GB per DIMM, "DDR4"/"DDR5") of a SPEC ``Memory`` text, or None.
    The total counts the DIMMs only (a Xeon Max system adds its HBM to the stated total)."""
    m = MEMORY.search(text)
    if not m:
        return None
    dimms, size = int(m.group(1)), int(m.group(2))
    return dimms * size, dimms, size, f"DDR{m.group(3)}"


def server_options(folder: Path, servers: list[dict[str, Any]]) -> dict[str, Any]:
    """For each server of the curated list, what SPEC's CPU2017 results ran it with (its
    ``spec_systems`` names against each result's ``System``): the processors, the most
    sockets, and the memory configurations, each with its count of results."""
    wanted: dict[str, list[str]] = defaultdict(list)
    for s in servers:
        for name in s.get("spec_systems", []):
            wanted[name.lower()].append(s["id"])
    processors: dict[str, Counter[str]] = defaultdict(Counter)
    memory: dict[str, Counter[str]] = defaultdict(Counter)
    sockets: dict[str, int] = defaultdict(int)
    published: dict[str, list[Month]] = defaultdict(list)
    count = 0
    for d in spec.rows(folder / spec.CPU2017):
        if d.get("Benchmark") != "CINT2017rate":
            continue
        count += 1
        ids = wanted.get(system_name(d.get("System", "")), [])
        k = key(d.get("Processor", ""))
        if k is None:
            continue
        for sid in ids:
            processors[sid][canonical(*k)] += 1
            sockets[sid] = max(sockets[sid], int(d.get("# Chips", "0").strip() or 0))
            mem = memory_config(d.get("Memory", ""))
            if mem:
                memory[sid][f"{mem[0]} GB ({mem[1]} x {mem[2]} GB {mem[3]})"] += 1
            if (avail := spec.month(d.get("HW Avail", ""))) is not None:
                published[sid].append(avail)
    out = {}
    for sid in sorted({s["id"] for s in servers}):
        months = sorted(published[sid])
        first = months[min(1, len(months) - 1)] if months else None
        out[sid] = {"results": sum(processors[sid].values()),
                    "spec_hw_avail_from": month_text(first) or None,
                    "sockets": sockets[sid] or None,
                    "processors": dict(sorted(processors[sid].items())),
                    "memory": dict(sorted(memory[sid].items(),
                                          key=lambda kv: (int(kv[0].split()[0]), kv[0])))}
    return {"format": "headroom-server-options", "version": 1,
            "source": f"{spec.CPU2017}: the {count} CINT2017rate results, their System, "
                      "# Chips, Processor, Memory and HW Avail columns (spec_hw_avail_from: the "
                      "second earliest HW Avail of its results)",
            "servers": out}


def dump(doc: Any, indent: str = "") -> str:
    """JSON for the committed tables: objects one key a line, a list of objects one object a
    line (reviewable diffs, a few hundred kilobytes)."""
    inner = indent + " "
    if isinstance(doc, dict) and doc:
        items = [f"{inner}{json.dumps(k)}: {dump(v, inner)}" for k, v in doc.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    if isinstance(doc, list) and doc and all(isinstance(v, dict) for v in doc):
        items = [inner + json.dumps(v, ensure_ascii=False) for v in doc]
        return "[\n" + ",\n".join(items) + f"\n{indent}]"
    return json.dumps(doc, ensure_ascii=False)


def write(folder: Path, out: Path = OUT) -> list[Path]:
    """Build both tables from ``folder`` into ``out``; the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    processors = out / "processors.json"
    processors.write_text(dump(build(folder)) + "\n", encoding="utf-8")
    curated = out / "servers.json"
    if not curated.is_file():
        return [processors]
    servers = json.loads(curated.read_text(encoding="utf-8"))["servers"]
    options = out / "server_options.json"
    options.write_text(dump(server_options(folder, servers)) + "\n", encoding="utf-8")
    return [processors, options]


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    folder = Path(args[0]) if args else DEFAULT_SPEC
    if not (folder / spec.CPU2017).is_file():
        sys.stderr.write(f"build: no SPEC dumps in {folder}\n")
        return 2
    for path in write(folder):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
