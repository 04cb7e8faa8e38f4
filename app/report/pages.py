"""The pages of a Headroom report, each drawn on a :class:`~app.report.draw.Sheet`.

:func:`build_pages` returns one drawing function per page: the executive summary, the
scenarios compared (then each refresh kept as a scenario, per cluster), the knob settings,
the design, where it is limited (then what a host failure breaks, each vSAN cluster's
capacity, growth over years and the bill of materials, where the design has them), its
figures per VM and host, and the evidence appendix (the studies its figures rest on).  A
page that would hold little is left out: no knob page where every knob is at its default, no
bill of materials for a testbed, no growth page without rates.  Long tables flow over as many
pages as they need (:mod:`app.report.tables`); the whole report keeps to
:data:`MAX_PAGES`.  Every page starts with a heading from :data:`HEADINGS` (tests look for
them).  What the pages say is :mod:`models.report`'s; how it is laid out is here.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor

from app.report.baseline import baseline_page, has_baseline
from app.report.bom import HEADING as BOM_HEADING
from app.report.bom import bom_blocks, has_bom_page
from app.report.bom import subtitle as bom_subtitle
from app.report.charts import (
    chart_height,
    figure_chart,
    per_vm_figures,
    utilisation_chart,
    utilisation_groups,
)
from app.report.diagram import draw_diagram, mode_of
from app.report.document import Report
from app.report.draw import (
    ACCENT,
    BAD,
    GOOD,
    MARGIN,
    MUTED,
    PAGE_H,
    PANEL,
    RULE,
    Column,
    Sheet,
    util_color,
    wrapped_height,
)
from app.report.estate import estate_blocks, estate_subtitle
from app.report.failure import HEADING as FAILURE_HEADING
from app.report.failure import failure_page, has_failure_page
from app.report.growth import HEADING as GROWTH_HEADING
from app.report.growth import growth_page, has_growth_page
from app.report.refresh import HEADING as REFRESH_HEADING
from app.report.refresh import SUBTITLE as REFRESH_SUBTITLE
from app.report.refresh import has_refresh_page, rebuild_blocks, refresh_blocks
from app.report.tables import (
    CHANGE_COLORS,
    Block,
    changes_blocks,
    comparison_blocks,
    evidence_blocks,
    knob_blocks,
    paginate,
    text_block,
)
from app.report.vsan import HEADING as VSAN_HEADING
from app.report.vsan import has_vsan_page, vsan_page
from models.core.prediction import Prediction
from models.document import numbers as fmt
from models.document.design import Design
from models.document.words import kind_count
from models.engine.kpis import KPI_BY_KEY, KPIS, limit_text
from models.report.content import Content
from models.report.evidence import Evidence
from models.report.growth import values_of, year_line
from models.report.inventory import array_io, disks_on, inventory, listed
from models.report.levers import headline
from models.report.summary import cell_text
from models.report.wording import (
    component_name,
    explanation,
    in_sentence,
    plain,
    resource_label,
    resource_name,
)

RIGHT = Qt.AlignmentFlag.AlignRight
Page = Callable[[Sheet, int, int], None]
"""Draws one page, given its number and the report's page count."""

HEADINGS = ("Headroom design report", "Scenarios compared", "Knob settings", "The design",
            "Where the design is limited", "Figures per VM and host",
            "Evidence: the studies behind these figures", FAILURE_HEADING, VSAN_HEADING,
            GROWTH_HEADING, REFRESH_HEADING, BOM_HEADING)
"""The heading of each kind of page, in order (tables continue over several pages) but the
host-failure page's, the vSAN page's, the growth page's and the bill of materials', which
follow the limits, and the refresh page's, which follows the scenarios compared: last here."""

MAX_PAGES = 12
"""The most pages a report has; the appendix gives way (its last line says how many checks
it leaves out)."""
DESIGN_PAGES = 3
"""The most pages an estate's listing of clusters and hosts takes (it lists the busiest
hosts of each cluster where they do not fit)."""
REFRESH_PAGES = 2
"""The most pages the refreshes kept as scenarios take."""
BOM_PAGES = 2
"""The most pages the bills of materials take."""
APPENDIX_PAGES = 2
"""The most pages the evidence appendix takes (set tighter, else its last line says how
many checks it leaves out: ``headroom validate`` lists them all)."""
ROWS_PER_PAGE = 30
"""Host rows a listing page holds with its clusters' titles and the arrays (about)."""

BODY_TOP = MARGIN + 34 + 24 + 20
"""Where a page's content starts, below the heading and its subtitle."""
BODY_BOTTOM = PAGE_H - MARGIN - 14
"""Where it ends, above the footer."""


def build_pages(r: Report) -> list[Page]:
    """Every page of the report, in order, within :data:`MAX_PAGES`: the pages of one page
    each are counted first, and what the budget leaves goes to the parts that flow - the
    refreshes, the bill of materials, an estate's listing and the appendix, in that order,
    each at least a page (so a design with every kind of page and scenarios that fill two
    pages may pass the budget by a page or two rather than lose one)."""
    c = r.content
    compared: list[Page] = []
    if c.comparison.columns[1:]:
        compared = _flowed(r, HEADINGS[1], "The base design and every scenario: changes"
                           " against the base in green (better) or red (worse), “no change”"
                           " below 0.1 %", lambda tight: [*comparison_blocks(c, tight),
                                                          Block(14, lambda s, y: None),
                                                          *changes_blocks(c, tight),
                                                          *rebuild_blocks(c, tight)])
    knobs: list[Page] = []
    if c.knobs:  # every knob at its default: nothing to list, no page
        knobs = _flowed(r, HEADINGS[2], f"The {fmt.count(len(c.knobs), 'knob')} set away"
                        " from their defaults or changed by a scenario; every other knob is"
                        " at its default", lambda tight: knob_blocks(c, tight))
    baseline = has_baseline(r.design)
    failure = has_failure_page(r)
    vsan = has_vsan_page(r)
    growth = has_growth_page(r)
    ev = c.evidence
    # no appendix where no study's figure is used (an estate measured for CPU and memory)
    appendix = bool(ev.checks or ev.error)
    bom_page = has_bom_page(c)
    left = MAX_PAGES - (1 + len(compared) + len(knobs) + 1 + failure + vsan + growth + 1
                        + baseline)  # summary, limits and details among them
    refresh: list[Page] = []
    if has_refresh_page(c):  # each refresh per cluster, and what set each count
        refresh = _flowed(r, REFRESH_HEADING, REFRESH_SUBTITLE,
                          lambda tight: refresh_blocks(c, tight),
                          max(1, min(REFRESH_PAGES, left - bom_page - 1 - appendix)),
                          lambda n: f"… and {fmt.count(n, 'more row')}: headroom refresh"
                          " and Compare give every cluster.")
        left -= len(refresh)
    bom: list[Page] = []
    if bom_page:  # what each refresh buys, or what the design is made of
        bom = _flowed(r, BOM_HEADING, bom_subtitle(c), lambda tight: bom_blocks(c, tight),
                      max(1, min(BOM_PAGES, left - 1 - appendix)),
                      lambda n: f"… and {fmt.count(n, 'more row')}: headroom bom lists every"
                      " line.")
        left -= len(bom)
    pages: list[Page] = [partial(summary_page, r=r), *compared, *refresh, *knobs]
    if listed(r.design):  # an estate: its clusters and hosts listed, over up to 3 pages
        room = max(1, min(DESIGN_PAGES, left - appendix))
        inv_sub = estate_subtitle(inventory(c.effective, r.prediction))
        listing = _flowed(r, HEADINGS[3], inv_sub,
                          lambda tight: estate_blocks(r, tight, room * ROWS_PER_PAGE), room,
                          lambda n: f"… and {fmt.count(n, 'more row')} of hosts and"
                          " arrays: the design lists them all (File > Open, or headroom"
                          " evaluate --json).")
        pages += listing
        left -= len(listing)
    else:
        pages.append(partial(design_page, r=r))
        left -= 1
    pages.append(partial(limits_page, r=r))
    if failure:  # what a host failure breaks, as the summary says it
        pages.append(partial(failure_page, r=r))
    if vsan:  # each vSAN cluster's datastore, and the vSAN capacity the licence entitles
        pages.append(partial(vsan_page, r=r))
    if growth:  # the design year by year, and when each cluster runs out
        pages.append(partial(growth_page, r=r))
    pages += bom
    pages.append(partial(details_page, r=r))
    if baseline:
        pages.append(partial(baseline_page, r=r))
    if not appendix:
        return pages
    names = [in_sentence(t) for t in ev.titles]
    titles = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] \
        if names else ""
    sub = (f"{fmt.count(len(ev.checks), 'published figure')} behind the {titles} models, each"
           f" beside the model's value; {sum(ch.ok for ch in ev.checks)} within tolerance"
           + _predicted(ev) if ev.checks else
           "The published figures the models were fitted to and checked against")
    return pages + _flowed(r, HEADINGS[6], sub, lambda tight: evidence_blocks(c, tight),
                           max(1, min(APPENDIX_PAGES, left)))


def _predicted(ev: Evidence) -> str:
    """What leaving each study out says of these figures (the accuracy quoted)."""
    n, median = ev.predicted()
    if not n or median is None:
        return "; no other study predicts any of them"
    return (f"; with each study left out, the others predict {n} of them at a median"
            f" |error| of {fmt.percent(median)}")


AVAIL = BODY_BOTTOM - BODY_TOP
"""The height a page's blocks have."""

SHORT = 0.3
"""A last page filled less than this is worth setting the blocks tighter for."""


def _more_checks(left: int) -> str:
    return f"… and {fmt.count(left, 'more row')}: `headroom validate` lists every check."


def _flowed(r: Report, title: str, subtitle: str, make: Callable[[bool], list[Block]],
            room: int = MAX_PAGES, more: Callable[[int], str] = _more_checks) -> list[Page]:
    """Pages of ``make(tight)``'s blocks: tight when that saves a page whose last would be
    nearly empty; at most ``room`` pages (the last line, ``more(rows left out)``, then says
    how much was left out)."""
    blocks = make(False)
    flowed = paginate(blocks, AVAIL)
    if (len(flowed) > 1 and sum(b.height for b in flowed[-1]) < AVAIL * SHORT) \
            or len(flowed) > room:
        tight = make(True)
        again = paginate(tight, AVAIL)
        if len(again) < len(flowed):
            blocks, flowed = tight, again
    if len(flowed) > room:
        flowed = flowed[:room]
        placed = {id(b) for page in flowed for b in page[:-1]}
        left = sum(1 for b in blocks if id(b) not in placed)
        flowed[-1] = [*flowed[-1][:-1], text_block(more(left), 11, MUTED)]
    return [partial(_blocks_page, r=r, title=title + (" (continued)" if i else ""),
                    subtitle=subtitle, blocks=page) for i, page in enumerate(flowed)]


def _blocks_page(s: Sheet, number: int, total: int, r: Report, title: str, subtitle: str,
                 blocks: list[Block]) -> None:
    y = s.heading(title, subtitle)
    for b in blocks:
        b.draw(s, y)
        y += b.height
    s.footer(r.footer, number, total)


# --------------------------------------------------------------------------- summary

HEADLINE = ("total_iops", "mean_latency_ms", "p95_response_ms", "network_gbps", "wan_pct",
            "library_min", "ft_logging_mbps", "vsan_free_tib")
"""Figures the summary page may lead with, in order: the first three the design has
(storage figures for a storage design, response time and network for a web farm, vSAN free
for a vSAN cluster sized by capacity, ...)."""


def kpi_tiles(p: Prediction, design: Design) -> list[tuple[str, str, str]]:
    """Four headline (label, value, note) tiles: up to three of :data:`HEADLINE` that the
    design measures, hosts needed and the busiest resource filling in, then consolidation.
    A tile's note is the dashboard's (:meth:`models.engine.kpis.Kpi.note`) with the
    components named."""
    keys = [k for k in HEADLINE if KPI_BY_KEY[k].value(p) is not None][:3]
    if len(keys) < 3:
        keys.append("hosts_needed")

    def name(cid: str) -> str:
        return component_name(design, cid)

    tiles = [(kpi.title, kpi.figure(p), plain(kpi.note(p, name), design))
             for kpi in (KPI_BY_KEY[k] for k in keys)]
    busy = p.bottlenecks(1)
    if len(tiles) < 3 and busy:
        r = busy[0]
        tiles.append(("Busiest resource", fmt.percent(r.util, 3),
                      resource_label(design, r.component, r.resource)))
    c = p.consolidation
    return [*tiles, ("Consolidation", fmt.with_unit(c.vms_per_host, "VMs per host"),
                     f"binding limit: {limit_text(c.binding)}")]


NOTES_MAX_H = 96.0
"""The most height the title page gives the report's notes (about five lines)."""


def summary_page(s: Sheet, number: int, total: int, r: Report) -> None:
    w = s.width - 2 * MARGIN
    titled = r.title != r.design.name
    notes = r.design.report_notes.strip()
    notes_h = min(wrapped_height(w, notes, 14), NOTES_MAX_H) + 14 if notes else 0.0
    band = 212 + (30 if titled else 0) + notes_h
    s.box(QRectF(0, 0, s.width, band), PANEL)
    s.text(QRectF(MARGIN, 34, w, 26), HEADINGS[0], 17, color=ACCENT, bold=True)
    s.text(QRectF(MARGIN, 66, w, 56), r.title, 40, True, shrink=0.6)
    y = 130.0
    if titled:  # the customer or project leads; the design it is about under it
        s.text(QRectF(MARGIN, y, w, 26), r.design.name, 18, True)
        y += 30
    scen = "the base design" if r.scenario == "base" else f"scenario ‘{r.scenario}’"
    s.text(QRectF(MARGIN, y, w, 26), f"Reported: {scen} · {r.when:%d %B %Y, %H:%M} UTC"
           f" · Headroom {r.version}", 15, color=MUTED)
    year = year_line(values_of(r.content.effective))  # which year, as the dashboard says
    s.text(QRectF(MARGIN, y + 30, w, 26), counts_text(r.design) + (f" · {year}" if year
                                                                    else ""), 15, color=MUTED)
    if notes:
        s.wrapped(MARGIN, y + 66, w, notes, 14, max_h=NOTES_MAX_H)
    y = band + 24
    tw = (w - 3 * 16) / 4
    for i, (label, value, note) in enumerate(kpi_tiles(r.prediction, r.content.effective)):
        x = MARGIN + i * (tw + 16)
        s.box(QRectF(x, y, tw, 104), PANEL, RULE)
        s.text(QRectF(x + 14, y + 8, tw - 28, 22), label, 13.5, color=MUTED)
        s.text(QRectF(x + 14, y + 32, tw - 28, 40), value, 28, True)
        s.text(QRectF(x + 14, y + 74, tw - 28, 22), note, 11.5, color=MUTED, shrink=0.7)
    y += 130
    s.text(QRectF(MARGIN, y, w, 30), "Executive summary", 20, True)
    y += 38
    head_w = 210.0
    for heading, text in r.content.summary.paragraphs():
        s.text(QRectF(MARGIN, y, head_w - 12, 22), heading, 14.5, True, ACCENT)
        y += s.wrapped(MARGIN + head_w, y + 1, w - head_w, text, 14.5) + 16
    n = len(r.content.comparison.columns)
    room = BODY_BOTTOM - y - 10
    if n > 1 and room > 30 + 16 * n:
        h = min(room, 34 + 24 * n)
        scenario_strip(s, QRectF(MARGIN, BODY_BOTTOM - h, w * 0.75, h), r)
    s.footer(r.footer, number, total)


def counts_text(design: Design) -> str:
    counts = [kind_count(k, n) for k in ("host", "vm", "storage_array", "nic", "site", "cluster",
                                         "content_library")
              if (n := len(design.of_kind(k)))]
    return ", ".join(counts) or "no components"


# --------------------------------------------------------------------------- design


def design_page(s: Sheet, number: int, total: int, r: Report) -> None:
    rebuilds = any(sc.name == r.scenario and sc.rebuild is not None
                   for sc in r.design.scenarios)
    d = r.content.effective if rebuilds else r.design  # a refresh's own hosts
    vms = len(d.of_kind("vm"))
    sub = (f"{fmt.count(len(d.components), 'component')} and {fmt.count(len(d.links), 'link')}"
           " at their canvas positions; outlines show predicted utilisation")
    if mode_of(d) != "full":
        sub = (f"{fmt.count(len(d.components), 'component')} at their canvas positions, the"
               f" {fmt.count(vms, 'VM')} and the NICs counted on their hosts; outlines show"
               " predicted utilisation")
    y = s.heading(HEADINGS[3], sub)
    w = s.width - 2 * MARGIN
    if d.notes:
        h = min(wrapped_height(w, d.notes, 12.5), 150)
        y += s.wrapped(MARGIN, y, w, d.notes, 12.5, max_h=h) + 14
    draw_diagram(s, QRectF(MARGIN, y, w, BODY_BOTTOM - y), d, r.prediction)
    s.footer(r.footer, number, total)


# --------------------------------------------------------------------------- limits


def limits_page(s: Sheet, number: int, total: int, r: Report) -> None:
    p = r.prediction
    design = r.content.effective
    y = s.heading(HEADINGS[4], "The busiest resources (alike ones as one bar), why they are"
                               " busy, and the study behind each model")
    w = s.width - 2 * MARGIN
    half = (w - 40) / 2
    utilisation_chart(s, QRectF(MARGIN, y, half, BODY_BOTTOM - y), p, design)
    x = MARGIN + half + 40
    yy = y
    groups = utilisation_groups(p, 4)
    if not groups:
        s.text(QRectF(x, yy, half, 24), "No resource is reported as busy.", 14, color=MUTED)
    for res, count in groups:
        if yy > BODY_BOTTOM - 110:
            break
        more = f" (and {count - 1} more alike)" if count > 1 else ""
        name = f"{component_name(design, res.component)}{more}"
        s.text(QRectF(x, yy, half * 0.72, 24), name, 14, True)
        s.text(QRectF(x + half * 0.72, yy, half * 0.28, 24), fmt.percent(res.util, 3), 14,
               True, util_color(res.util), RIGHT)
        yy += 24
        label = f"{_resource_word(res.resource)}: " + (
            explanation(design, res.component, res.explanation) or "no explanation")
        yy += s.wrapped(x + 12, yy, half - 12, label, 12) + 2
        if res.source:
            yy += s.wrapped(x + 12, yy, half - 12, f"Study: {plain(res.source, design)}", 10.5,
                            MUTED)
        yy += 14
    warnings = [plain(t, design) for t in p.warnings]
    if warnings and yy < BODY_BOTTOM - 60:
        s.text(QRectF(x, yy, half, 22), "Warnings", 15, True)
        yy += 28
        for i, text in enumerate(warnings):
            h = wrapped_height(half, "• " + text, 11.5)
            if yy + h > BODY_BOTTOM - 20:
                s.text(QRectF(x, yy, half, 20), f"… and {len(warnings) - i} more", 11, color=MUTED)
                break
            yy += s.wrapped(x, yy, half, "• " + text, 11.5,
                            BAD if text.startswith("error") else MUTED) + 4
    s.footer(r.footer, number, total)


def _resource_word(resource: str) -> str:
    word = resource_name(resource)
    return word[0].upper() + word[1:]


# --------------------------------------------------------------------------- details

HOST_ROWS = 10
ARRAY_ROWS = 6


def details_page(s: Sheet, number: int, total: int, r: Report) -> None:
    p = r.prediction
    y = s.heading(HEADINGS[5], "Per-VM figures (identical VMs as one bar, a histogram when"
                               " they differ widely), the hosts and the arrays")
    w = s.width - 2 * MARGIN
    half = (w - 40) / 2
    f = per_vm_figures(p)
    room = (BODY_BOTTOM - y - 30) / 2
    h1 = chart_height(f.names, f.upper, None, f.item, room)
    figure_chart(s, QRectF(MARGIN, y, half, h1), f.upper_title, f.names, f.upper,
                 f.upper_label, ACCENT, item=f.item)
    h2 = chart_height(f.names, f.lower, f.marks, f.item, room)
    figure_chart(s, QRectF(MARGIN, y + h1 + 30, half, h2), f.lower_title, f.names, f.lower,
                 f.lower_label, GOOD, f.marks, item=f.item)
    x = MARGIN + half + 40
    yy = _figures_table(s, x, y, half, r)
    yy = _hosts_table(s, x, yy + 16, half, r)
    _arrays_table(s, x, yy + 16, half, r)
    s.footer(r.footer, number, total)


def figure_rows(c: Content) -> list[list[str]]:
    """(figure, value, range) of each KPI the reported scenario measures; the range is the
    band the studies' published ranges give (empty when they give none)."""
    p, bands = c.prediction, c.bands
    rows = []
    for kpi in KPIS:
        v = kpi.value(p)
        if v is None:
            continue
        span = bands.span(kpi.value) if bands is not None else None
        lo, hi = (kpi.text(span[0]), kpi.text(span[1])) \
            if span is not None else ("", "")
        rng = f"{lo} – {hi}" if lo != hi else ""  # equal as printed: no range to show
        rows.append([kpi.title, kpi.text(v), rng])
    return rows


def _figures_table(s: Sheet, x: float, y: float, w: float, r: Report) -> float:
    cols = [Column("Figure", 0.38), Column("Value", 0.27, RIGHT),
            Column("Range from the studies", 0.35, RIGHT)]
    return s.wrapped_table(x, y, w, cols, figure_rows(r.content), 11.5, 21)


def measured_percent(util: float) -> str:
    """A host's utilisation as the report prints it: "not measured" where nothing measured
    it (NaN), never 0."""
    return fmt.percent(util, 3) if math.isfinite(util) else fmt.NOT_MEASURED


def _hosts_table(s: Sheet, x: float, y: float, w: float, r: Report) -> float:
    h = r.prediction.hosts
    if not len(h.ids):
        return y
    order = np.argsort(-np.nan_to_num(h.cpu_util, nan=-1.0), kind="stable")
    rows = [[h.names[i] or h.ids[i], measured_percent(float(h.cpu_util[i])),
             measured_percent(float(h.memory_util[i])), f"{int(h.vms[i]):,}"]
            for i in order[:HOST_ROWS].tolist()]
    if len(h.ids) > HOST_ROWS:
        rest = order[HOST_ROWS:]
        top = measured_percent(float(np.nanmax(h.cpu_util[rest], initial=-np.inf)))
        rows.append([f"… {len(rest)} more hosts", f"up to {top}", "",
                     f"{int(h.vms[rest].sum()):,}"])
    cols = [Column("Host", 0.46), Column("CPU", 0.18, RIGHT), Column("Memory", 0.2, RIGHT),
            Column("VMs", 0.16, RIGHT)]
    return s.wrapped_table(x, y, w, cols, rows, 11.5, 21)


def _arrays_table(s: Sheet, x: float, y: float, w: float, r: Report) -> float:
    a = r.prediction.arrays
    if not len(a.ids):
        return y
    disks = disks_on(r.content.effective)

    def row(i: int) -> list[str]:
        name = a.names[i] or a.ids[i]
        io, why = array_io(r.prediction, i, disks.get(a.ids[i], 0))
        if io is None:  # nothing measured there: said so, not 0 IOPS, 0 ms, 0 %
            return [name, why, "", ""]
        return [name, fmt.si(float(a.iops[i])),
                KPI_BY_KEY["mean_latency_ms"].text(float(a.latency_ms[i])),
                fmt.percent(float(a.util[i]), 3)]

    rows = [row(i) for i in range(min(len(a.ids), ARRAY_ROWS))]
    cols = [Column("Storage array", 0.4), Column("IOPS", 0.18, RIGHT),
            Column("Latency", 0.22, RIGHT), Column("Busy", 0.2, RIGHT)]
    return s.wrapped_table(x, y, w, cols, rows, 11.5, 21)


def scenario_strip(s: Sheet, rect: QRectF, r: Report) -> None:
    """The headline figure of the base design and every scenario, changes coloured."""
    cmp = r.content.comparison
    base = cmp.columns[0].prediction
    kpi = headline(base) if base is not None else None
    row = cmp.row(kpi.key) if kpi is not None else None
    if kpi is None or row is None:
        return
    s.text(QRectF(rect.x(), rect.y(), rect.width(), 22), f"{kpi.title} by scenario", 15, True)
    vals = [c.value for c in row.cells if c.value is not None]
    top = max([*vals, 1e-12])
    n = len(cmp.columns)
    h = min(24.0, (rect.height() - 30) / n)
    y = rect.y() + 30
    lw = rect.width() * 0.36
    bw = rect.width() - lw - 170
    for col, cell in zip(cmp.columns, row.cells, strict=True):
        name = "base design" if col.name == "base" else col.name
        s.text(QRectF(rect.x(), y, lw - 8, h - 2), name, 11, bold=col.name == r.scenario)
        color = ACCENT if col.name == "base" else CHANGE_COLORS.get(cell.change, ACCENT)
        if cell.change == "same" and col.name != "base":
            color = QColor("#b7bec7")
        if cell.value is not None:
            s.box(QRectF(rect.x() + lw, y + 3, max(bw * cell.value / top, 0.5), h - 8),
                  color, None, 2)
        text = kpi.text(cell.value)
        change = cell_text(kpi, cell) if col.name != "base" else ""
        s.text(QRectF(rect.right() - 166, y, 86, h - 2), text, 11,
               align=RIGHT)
        s.text(QRectF(rect.right() - 76, y, 76, h - 2), change, 10.5,
               color=GOOD if cell.change == "better" else BAD if cell.change == "worse"
               else MUTED, align=RIGHT)
        y += h
