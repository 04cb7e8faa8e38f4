"""The report's vSAN content: a row per vSAN cluster in words, where its raw goes, the
clusters in every scenario, and the vSAN capacity the licence entitles."""

from __future__ import annotations

import pytest

from models.engine.evaluation import evaluate
from models.examples import bundled as examples
from models.report.compare import compare
from models.report.vsan import has_vsan, licensing_text, reserve_text, rows, scenario_rows


def test_a_row_says_the_clusters_datastore_and_what_sets_its_hosts() -> None:
    design = examples.load("vsan-esa")
    p = evaluate(design)
    [row] = rows(design, p)
    assert (row.name, row.layout, row.hosts) == ("Production", "ESA RAID 5 FTT 1", "6")
    assert (row.raw, row.reserved, row.usable) == ("126 TiB", "33.5 TiB", "65.2 TiB")
    assert (row.data, row.free, row.minimum) == ("48.4 TiB", "16.8 TiB", "3 (4 recommended)")
    assert row.needed == "6 (vSAN storage)" and not row.short
    assert row.used == pytest.approx(48.39 / 65.22, rel=1e-3)
    reserved, data, free = row.split  # the raw: reserved, the data's share, free
    assert reserved + data + free == pytest.approx(1.0) and 0 < free < data
    assert "vSAN storage capacity sets 6 hosts, and it has 6." in row.sentence
    assert "the host rebuild reserve (the largest host's raw) and an operations reserve of" \
        " 10 % of raw" in row.sentence


def test_a_short_cluster_reads_short() -> None:
    design = examples.load("vsan-esa")
    [row] = rows(design, evaluate(design, "one host fewer"))
    assert row.short and row.free.startswith("short ") and row.used > 1
    assert row.split[2] < 0 and "TiB short" in row.split_text
    assert row.sentence.endswith("it has 5: 1 host short.")


def test_the_scenarios_and_the_licence() -> None:
    design = examples.load("vsan-esa")
    found = scenario_rows(compare(design), design)
    by = {cells[0]: (cells, short) for cells, short in found}
    assert found[0][0][0] == "base design" and len(found) == 1 + len(design.scenarios)
    assert by["RAID 1"][1] and by["RAID 1"][0][7] == "7 (vSAN storage)"
    assert by["compression 1.5"][0][7] == "5 (memory)"
    assert by["base design"][0][8] == "none"
    assert by["vSphere Foundation licence"][0][8] == "29.7 TiB"  # 0.25 TiB a core
    vvf = licensing_text(evaluate(design, "vSphere Foundation licence"))
    assert "entitle 96 TiB of vSAN raw capacity (0.25 TiB a core) against 126 TiB" in vvf
    assert vvf.endswith("29.7 TiB to license as the vSAN add-on.")
    assert licensing_text(evaluate(design)).endswith("no add-on needed.")


def test_no_vsan_no_rows() -> None:
    design = examples.load("vaio-scaling")
    p = evaluate(design)
    assert not has_vsan(p) and rows(design, p) == []
    assert scenario_rows(compare(design), design) == []


def test_a_stretched_cluster_keeps_slack() -> None:
    """Where reserved capacity cannot apply (hosts at two sites) the page says the 30 %."""
    from models.core.sections import VsanCluster  # noqa: PLC0415

    v = VsanCluster("c", "c", "esa", "raid1", 1, 4, 10.0, 3.1, 1.0, 3.0, 2.1, 3, 3, None,
                    None, reserve_rule="slack")
    assert reserve_text(examples.load("vsan-esa"), v).startswith(
        "30 % of raw kept free (hosts at two sites")


def test_the_summary_says_where_vsan_sets_the_hosts() -> None:
    """What binds names the cluster whose vSAN storage sets its hosts, and What to do the room
    its free space leaves, where it said only 'room for 109 VMs' by host CPU; where memory
    sets the hosts again (compression 1.5) neither sentence is there."""
    from models.report.content import build  # noqa: PLC0415

    design = examples.load("vsan-esa")
    said = dict(build(design, "base", checks=False).summary.paragraphs())
    assert "In cluster Production, vSAN storage capacity sets the hosts: 48.4 TiB of data in" \
        " 65.2 TiB usable (74.2 %), 16.8 TiB free." in said["What binds"]
    assert said["What to do"] == ("Nothing needs to change: by vSAN storage capacity, cluster"
                                  " Production has 16.8 TiB free, room for 86 VMs of its"
                                  " average size.")
    squeezed = dict(build(design, "compression 1.5", checks=False).summary.paragraphs())
    assert "vSAN" not in squeezed["What binds"] + squeezed["What to do"]
    short = dict(build(design, "RAID 1", checks=False).summary.paragraphs())
    assert "7.63 TiB short" in short["What binds"]
    assert short["What to do"].startswith("Add 1 host to cluster Production")
