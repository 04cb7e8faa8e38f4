"""What the analysis tabs share: the design they analyse, where their jobs run, and how a
job is stopped between evaluations."""

from __future__ import annotations

from app.canvas.layout import arrange_vms
from app.document.design_document import DesignDocument
from app.support.jobs import Lane, Task
from models.analysis import Evaluate
from models.core.compiled import Compiled
from models.core.prediction import Prediction
from models.document.design import Component, Design, Link, apply_scenario
from models.engine.evaluation import run
from models.report import wording

LANE = Lane("analysis", workers=4)
"""Goal seek, the tornado, host failure and the refresh run here: one thread per tab, so each
tab's job starts at once (a job cancelled or superseded stops within one evaluation)."""


def stoppable(task: Task) -> Evaluate:
    """The analyses' ``evaluate``, checking before each evaluation whether ``task`` was
    cancelled (an analysis then stops within one evaluation)."""

    def evaluate(c: Compiled) -> Prediction:
        task.check()
        return run(c)

    return evaluate


def analysis_copy(doc: DesignDocument) -> Design:
    """The active scenario of ``doc`` as a design of its own (components and links copied
    one level deep: the analyses may patch props; the document may change meanwhile)."""
    d = apply_scenario(doc.design, doc.scenario)
    return Design(d.name, d.notes, dict(d.policy),
                  [Component(c.id, c.kind, c.name, c.x, c.y, list(c.tags), dict(c.props))
                   for c in d.components],
                  [Link(lk.source, lk.target, lk.kind, dict(lk.props)) for lk in d.links], [])


def place_rebuilt(old: Design, new: Design) -> None:
    """Positions for a rebuilt design: host copies start on their original (``h~2`` on
    ``h``), then every host's VMs go in a grid under it and hosts whose grids would collide
    are spread in a row (:func:`app.canvas.layout.arrange_vms`)."""
    pos = {c.id: (c.x, c.y) for c in old.components}
    for c in new.components:
        if c.kind == "host":
            c.x, c.y = pos.get(c.id.partition("~")[0], (c.x, c.y))
    by_id = {c.id: c for c in new.components}
    for cid, (x, y) in arrange_vms(new).items():
        by_id[cid].x, by_id[cid].y = x, y


def plain(doc: DesignDocument, text: str) -> str:
    """A model's text about ``doc``'s components with their names for their ids."""
    return wording.plain(text, doc.design)
