"""Every word once: each message that counts something or shows a unit reads right for one and
for two, names components by their names and says no internal name.

Two halves.  The source half reads every f-string of ``app/`` and ``models/``: a count put
before its noun (``f"{n} hosts"``) or a raw figure before its unit (``f"{x} GB"``, ``f"{x:g}
ms"``) bypasses the one counting function (:func:`models.document.numbers.counted`) and the one
formatter (:func:`~models.document.numbers.with_unit`), and fails here with where it is.  The
rendering half renders the templates with counts of 1 and 2: every unit of the schema and the
KPIs, every kind's noun, undo texts, the KPI lines, the command line's prediction, the import
report and the report's summary on designs with one and with two of everything.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from models.document import numbers as fmt
from models.document.design import Component, Design, Link
from models.document.numbers import SINGULAR
from models.document.schema import DESIGN_PROPS, KINDS, LINKS
from models.document.words import KIND_WORDS, kind_count, set_text
from models.engine.evaluation import evaluate
from models.engine.kpis import KPIS, SUMMARY_FIGURES

ROOT = Path(__file__).resolve().parents[1]

# --------------------------------------------------------------------------- the source

COUNTED = sorted({*SINGULAR, *(many for _, many in KIND_WORDS.values()), "components", "links",
                  "knobs", "scenarios", "checks", "warnings", "rows", "cases", "jobs",
                  "libraries", "secondaries", "values", "refusals", "samples", "breaches",
                  "arrays", "errors", "files"} - {"bytes", "points"}, key=len, reverse=True)
"""Nouns a message counts (a count before one of them must go through ``counted``)."""
UNITS = sorted({"ms", "us", "µs", "s", "min", "GB", "MB", "KB", "TB", "MiB", "GiB", "TiB",
                "bytes", "MB/s", "GB/s", "Gbit/s", "Mbit/s", "kbit/s", "GHz", "MHz", "IOPS",
                "%"}, key=len, reverse=True)
"""Units a raw figure may not stand before."""
_NOUN = re.compile(r"^ (" + "|".join(map(re.escape, COUNTED)) + r")(?![\w-])")
_UNIT = re.compile(r"^ ?(" + "|".join(map(re.escape, UNITS)) + r")(?![\w/])")
WHOLE = {"", ",", "d", ",d", "g", ".0f", ",.0f"}
"""Format specs that can print a count of exactly 1 (a decimal one, ``.1f``, cannot)."""
RAW = {"", "g"}
"""Format specs that print a figure as it is stored (``766.658``), not as a person reads it."""

NOT_A_COUNT = {
    ("app/panels/knob_panel.py", "k.group or 'Other'"),  # "Storage knobs": a group's name
    ("models/calibration/file_transfer.py", "tool"),  # "scp Gbit/s": the figure a check names
    ("models/io/importers/aria.py", "what"),  # "CPU demand MHz": the column a file names
    ("models/io/importers/liveoptics.py", "word"),  # "Peak IOPS": the column a sheet names
    ("models/io/importers/liveoptics_sheets.py", "word"),
    ("models/io/importers/liveoptics_sheets.py", "cpu_w"),
    # the prediction JSON's admission_control ("25% CPU, 25% memory reserved": a contract)
    ("models/subsystems/capacity.py", "ccols['cpu_failover_pct'][j]"),
    ("models/subsystems/capacity.py", "ccols['memory_failover_pct'][j]"),
    # the catalogue's memory configurations as SPEC's results state them: keys of data
    ("models/document/catalogue/build.py", "mem[0]"),
    ("models/document/catalogue/build.py", "mem[2]"),
}
"""f-string parts the source half flags although they hold a name, not a figure."""


ARITHMETIC = {"len", "int", "float", "sum", "round", "max", "min", "abs"}
"""Calls that give a raw figure (any other call is taken to format one)."""


def _formatted(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Call) and not (isinstance(expr.func, ast.Name)
                                               and expr.func.id in ARITHMETIC)


def findings(source: str, path: str = "") -> list[str]:
    """Where ``source`` puts a count before its noun, or a raw figure before its unit,
    without going through ``counted`` or ``with_unit``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.JoinedStr):
            continue
        for value, after in zip(node.values, node.values[1:], strict=False):
            if not (isinstance(value, ast.FormattedValue) and isinstance(after, ast.Constant)
                    and isinstance(after.value, str)) or _formatted(value.value):
                continue
            spec = ast.unparse(value.format_spec)[2:-1] if value.format_spec else ""
            expr = ast.unparse(value.value)
            if (path, expr) in NOT_A_COUNT:
                continue
            if (spec in WHOLE and _NOUN.match(after.value)) or (spec in RAW and \
                    _UNIT.match(after.value)):
                out.append(f"{path}:{value.lineno}: {{{expr}}}{after.value[:30]!r}")
    return out


def test_the_source_half_finds_a_count_or_a_figure_that_bypasses_the_formatter() -> None:
    assert findings('f"{n} hosts"') and findings('f"{len(x):,} VMs on it"')
    assert findings('f"{x} GB"') and findings('f"round trip {rtt:g} ms"')
    assert not findings('f"{counted(n, \'host\')}"') and not findings('f"{x:.1f} GB"')
    assert not findings('f"{with_unit(x, \'GB\')} of memory"')


def test_every_count_and_figure_goes_through_the_one_formatter() -> None:
    found = [hit for package in ("app", "models")
             for path in sorted((ROOT / package).rglob("*.py"))
             for hit in findings(path.read_text(encoding="utf-8"),
                                 path.relative_to(ROOT).as_posix())]
    assert not found, "\n".join(found)


# --------------------------------------------------------------------------- units and nouns


def units() -> set[str]:
    specs = [*DESIGN_PROPS.values(), *(p for k in KINDS.values() for p in k.props.values()),
             *(p for lk in LINKS.values() for p in lk.props.values())]
    return ({p.unit for p in specs} | {k.unit for k in KPIS}
            | {u for _, u in SUMMARY_FIGURES.values()} | {"hosts", "I/Os", "VMs per host"}) \
        - {""}


NOT_NOUNS = {"ms", "us", "IOPS", "Gbit/s", "Mbit/s", "kbit/s", "MB/s", "GB/s", "KB/s"}


@pytest.mark.parametrize("unit", sorted(units()))
def test_every_unit_of_the_schema_and_the_kpis_reads_for_one_and_two(unit: str) -> None:
    one, two = fmt.with_unit(1.0, unit), fmt.with_unit(2.0, unit)
    assert "1" in one and "2" in two, (one, two)
    if unit.endswith("s") and unit not in NOT_NOUNS:  # a counted noun: singular for one
        assert unit in SINGULAR, f"{unit}: add its singular to numbers.SINGULAR"
        assert one == f"1 {SINGULAR[unit]}" and two == f"2 {unit}"
    assert "generation" not in one and not one.endswith("fraction")


@pytest.mark.parametrize("kind", sorted({*KINDS, *KIND_WORDS} - {"design"}))
def test_every_kind_counts_in_its_own_noun(kind: str) -> None:
    one, two = kind_count(kind, 1), kind_count(kind, 2)
    assert "_" not in one + two
    assert two != one.replace("1", "2", 1), (one, two)  # the plural differs
    assert not re.search(r"\b1 \w+s$", one), one


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_undo_texts_count_what_they_set(kind: str) -> None:
    prop = next(iter(KINDS[kind].props), None)
    if prop is None:
        return
    one, two = set_text(kind, prop, 1), set_text(kind, prop, 2)
    assert one.endswith(f"on {kind_count(kind, 1)}") and two.endswith(f"on {kind_count(kind, 2)}")


# --------------------------------------------------------------------------- whole messages

IDS = re.compile(r"\b(?:h|v|n|a|c|s|lib)[1-9]\b")
"""The ids of :func:`estate_of` (every component there has a name of its own)."""
INTERNAL = re.compile(r"\b(?:runs_on|installed_in|located_at|in_cluster|disk_on|storage_array"
                      r"|ft_secondary_on|library_at|subscribes_to|passthrough|workload\.\w+"
                      r"|policy\.\w+)\b|binding limit: (?:ft|cpu)\b|--[a-z]")
ONE_MANY = re.compile(r"(?<![\d.,])1 (?:" + "|".join(map(re.escape, COUNTED)) + r")(?![\w-])")
TWO_ONE = re.compile(r"(?<![\d.,])2 (?:host|VM|site|cluster|NIC|storage array|library|drive"
                     r"|vCPU|component|link)(?![\w-])")


def estate_of(n: int) -> Design:
    """``n`` of everything: sites, clusters, hosts (a NIC each), arrays, VMs (placed, disks on
    the arrays; with two, one FT-protected with its secondary on the other host), libraries.
    Every component has a name that differs from its id."""
    d = Design(name=f"{n} of each")
    for i in range(1, n + 1):
        d.components += [
            Component(f"s{i}", "site", f"Site {chr(64 + i)}"),
            Component(f"c{i}", "cluster", f"Cluster {chr(64 + i)}"),
            Component(f"h{i}", "host", f"esx-{chr(96 + i)}", props={"memory_gb": 64.0}),
            Component(f"n{i}", "nic", f"uplink {chr(96 + i)}"),
            Component(f"a{i}", "storage_array", f"Array {chr(64 + i)}"),
            Component(f"v{i}", "vm", f"db-{chr(96 + i)}",
                      props={"ft": n == 2 and i == 1, "memory_gb": 16.0}),
            Component(f"lib{i}", "content_library", f"Library {chr(64 + i)}"),
        ]
        d.links += [Link(f"h{i}", f"s{i}", "located_at"), Link(f"h{i}", f"c{i}", "in_cluster"),
                    Link(f"n{i}", f"h{i}", "installed_in"), Link(f"h{i}", f"a{i}", "storage"),
                    Link(f"v{i}", f"h{i}", "runs_on"), Link(f"v{i}", f"a{i}", "disk_on"),
                    Link(f"lib{i}", f"s{i}", "library_at")]
    if n == 2:
        d.links += [Link("v1", "h2", "ft_secondary_on"), Link("s1", "s2", "wan"),
                    Link("lib2", "lib1", "subscribes_to")]
    return d


def messages(design: Design) -> list[str]:
    """What the command line, the KPI table and the report say about ``design``."""
    from app.cli.design import prediction_lines  # noqa: PLC0415
    from models.report.content import build  # noqa: PLC0415
    from models.report.settings import setting_text  # noqa: PLC0415

    p = evaluate(design)
    names = {c.id: c.name for c in design.components}

    def name(cid: str) -> str:
        return names.get(cid, cid)

    content = build(design, "base", p, checks=False)
    return [*prediction_lines(design, p, p.to_dict()),
            *(f"{k.title}: {k.figure(p)} ({k.note(p, name)})" for k in KPIS),
            *(text for _, text in content.summary.paragraphs()),
            *(setting_text(r.knob, r.base) for r in content.knobs)]


@pytest.mark.parametrize("n", [1, 2])
def test_what_a_design_says_counts_right_and_names_by_name(n: int) -> None:
    said = "\n".join(messages(estate_of(n)))
    assert not ONE_MANY.search(said), ONE_MANY.findall(said)
    assert not TWO_ONE.search(said), TWO_ONE.findall(said)
    assert not IDS.search(said), IDS.findall(said)
    assert not INTERNAL.search(said), INTERNAL.findall(said)
    assert ("FT secondaries included" in said) == (n == 2)  # said only where there are some


@pytest.mark.parametrize("n", [1, 2])
def test_the_report_tiles_count_right(n: int) -> None:
    from app.report.pages import counts_text, kpi_tiles  # noqa: PLC0415

    design = estate_of(n)
    tiles = " | ".join(" ".join(t) for t in kpi_tiles(evaluate(design), design))
    text = tiles + " | " + counts_text(design)
    assert not ONE_MANY.search(text) and not TWO_ONE.search(text), text
    assert "VMs/host" not in text and not INTERNAL.search(text), text


@pytest.mark.parametrize("n", [1, 2])
def test_an_import_report_counts_right_and_the_dialog_names_no_flag(n: int) -> None:
    from models.io.importers import ImportReport  # noqa: PLC0415

    report = ImportReport("export.xlsx", counts={k: n for k in (
        "vms", "hosts", "clusters", "sites", "storage_arrays", "nics", "powered_off_skipped",
        "powered_off_imported", "templates", "ft_secondaries")})
    report.coverage.runnable = report.coverage.on_their_host = n
    report.skip("vInfo row 2", "vm-1", "powered off: not imported")
    cli, dialog = "\n".join(report.lines()), "\n".join(report.lines(dialog=True))
    for text in (cli, dialog):
        assert not ONE_MANY.search(text) and not TWO_ONE.search(text), text
        assert "ft_secondary_on" not in text
    assert "--include-powered-off" in cli and "--" not in dialog


def test_not_measured_is_said_in_one_place() -> None:
    """"not measured" is one label (models.document.glossary.NOT_MEASURED, which
    models.document.numbers reads): a module that writes the words alone as its own string
    would drift from it."""
    own = []
    for path in sorted((*ROOT.glob("app/**/*.py"), *ROOT.glob("models/**/*.py"))):
        if path.name == "glossary.py" and path.parent.name == "document":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value == fmt.NOT_MEASURED:
                own.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert own == []


QUOTED = ("Memory overcommit", "CPU per 1K IOPS", "% core", "median |error|", "held-out",
          "cross-validated", '"CPU " + ', "CV median", "CV error")
"""What issue 39 quoted a client could not read, as the views' sources wrote it."""
VIEWS = ("app/panels", "app/canvas", "app/charts", "app/window", "models/engine")
"""Where those wordings showed (the report is drawn from the same KPI table and words)."""


def test_the_glossary_words_stand_where_the_issue_quoted_the_old_ones() -> None:
    """Ratios as words and units ("memory 30 % allocated of installed", "2.7 % of a core per
    1,000 IOPS", "no vCPU:core ceiling"), captions true to the colour they sit on, "not
    measured" for what nothing measured, accuracy in a client's words: declared once in
    models.document.glossary and read where the old wordings showed."""
    from models.document import glossary  # noqa: PLC0415
    from models.document.knobs import knob  # noqa: PLC0415
    from models.engine.kpis import KPI_BY_KEY  # noqa: PLC0415

    memory, cpu = KPI_BY_KEY["memory_overcommit"], KPI_BY_KEY["cpu_per_kiops"]
    assert (memory.title, memory.text(30.1)) == ("Memory allocated", "30.1 % of installed")
    assert (cpu.title, cpu.text(2.7)) == ("CPU per 1,000 IOPS", "2.7 % of a core")
    assert KPI_BY_KEY["vcpu_per_core"].title == "vCPUs per core"
    ceiling = knob("design.policy.vcpu_per_core_max")
    assert ceiling is not None and ceiling.text(0.0) == "no vCPU:core ceiling"
    assert fmt.prop_value("design", "policy.vcpu_per_core_max", 0.0) == "no vCPU:core ceiling"
    assert fmt.prop_value("design", "policy.vcpu_per_core_max", 4.0) == "4 vCPUs per core"
    assert glossary.vm_grades([("< 70 %", 470)], "≥ 90 %") \
        == "host CPU ≥ 90 % · VMs' own CPU < 70 %: 470"
    assert glossary.unseen_error("4.2 %") == "typical error 4.2 % on checks its fit did not see"
    assert fmt.NOT_MEASURED is glossary.NOT_MEASURED
    found = []
    for folder in VIEWS:
        for path in sorted(ROOT.glob(f"{folder}/**/*.py")):
            text = path.read_text(encoding="utf-8")
            found += [f"{path.relative_to(ROOT)}: {q}" for q in QUOTED if q in text]
    assert found == []
