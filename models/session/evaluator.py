"""The evaluator: the engines of an editor's design, following its changes.

An :class:`Evaluator` listens to an :class:`~models.session.editor.Editor`.  A value written
to the active scenario patches the compiled design in place (milliseconds at 2,000 VMs);
anything that changes the structure, or a write it cannot follow exactly, drops the engine,
and the next :meth:`Evaluator.evaluate` compiles it again.  A named scenario is evaluated with
the base design beside it, for the deltas the app shows.
"""

from __future__ import annotations

import numpy as np

from models.core.prediction import Prediction
from models.document.edits import Change
from models.engine.evaluation import Engine
from models.session.editor import Editor


class Evaluator:
    """The compiled design of the editor's active scenario (and of its base design)."""

    def __init__(self, editor: Editor):
        self.editor = editor
        self.engine: Engine | None = None
        """The active scenario's engine, once evaluated."""
        self.base_engine: Engine | None = None
        """The base design's, while a named scenario is active."""
        editor.listeners.append(self.follow)
        editor.column = self.column

    def follow(self, change: Change) -> None:
        """Keep the engines in step with an applied edit: patch them, or drop them."""
        if change.structure:
            self.drop()
            return
        written = change.written
        if written is None:
            return
        active = self.editor.scenario
        if written == "base" and active != "base":
            self.drop()  # the scenario's engine holds base values under its overrides
        elif written == active:
            if change.patches is None:
                self.engine = None
            elif self.engine is not None:
                for ov in change.patches:
                    self.engine.patch(ov)

    def evaluate(self) -> tuple[Prediction, Prediction]:
        """The active scenario's prediction and the base design's (the same object on
        'base').  Raises what the engine raises; :meth:`drop` after a failure."""
        editor = self.editor
        if self.engine is None or self.engine.scenario != editor.scenario:
            self.engine = Engine(editor.design, editor.scenario)
        prediction = self.engine.evaluate()
        if editor.scenario == "base":
            self.base_engine = None
            return prediction, prediction
        if self.base_engine is None:
            self.base_engine = Engine(editor.design)
        return prediction, self.base_engine.evaluate()

    def drop(self) -> None:
        """Compile again at the next evaluation."""
        self.engine = None
        self.base_engine = None

    def column(self, kind: str, prop: str) -> np.ndarray | None:
        """The active scenario's compiled column of ``prop`` on ``kind`` (None when nothing
        is compiled, or the column is not one)."""
        engine = self.engine
        if engine is None or engine.scenario != self.editor.scenario:
            return None
        table = engine.compiled.tables.get(kind)
        return dict.get(table.cols, prop) if table is not None else None  # not a model's read
