"""The open design and its edits, without Qt: what the desktop app's document wraps.

A :class:`Session` is an :class:`~models.session.editor.Editor` (the design, the active
scenario, edits built, checked and applied with their inverses) with an
:class:`~models.session.evaluator.Evaluator` listening to it (the engines, patched in place or
compiled again as the edits require).
"""

from __future__ import annotations

from models.core.prediction import Prediction
from models.document.design import Design
from models.session.editor import Editor
from models.session.evaluator import Evaluator


class Session(Editor):
    """A design being edited, and its evaluation."""

    def __init__(self, design: Design | None = None):
        super().__init__(design)
        self.evaluator = Evaluator(self)

    def evaluate(self) -> tuple[Prediction, Prediction]:
        """The active scenario's prediction and the base design's (the same object on
        'base')."""
        return self.evaluator.evaluate()

    def drop_engines(self) -> None:
        """Compile again at the next evaluation (after the engine raised)."""
        self.evaluator.drop()
