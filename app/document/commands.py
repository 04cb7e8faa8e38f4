"""The undo command: every user edit of a design is one of these on the document's QUndoStack.

A command holds one edit built by the session (:mod:`models.document.edits`); ``redo`` applies
it through the document and keeps the inverse the session returns, ``undo`` applies that
inverse.  One gesture is one command: a drag pushes one move on release, and the steps of a
slider drag share a ``merge_key`` so they merge into one (``id()``/``mergeWith()``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand

from models.document.edits import Edit, SetValues

Apply = Callable[[Edit], Edit]
"""Carries an edit out and returns its inverse (:meth:`DesignDocument.apply`)."""

MERGING_ID = 1001


class EditCommand(QUndoCommand):
    """Apply one session edit; undo applies its inverse."""

    def __init__(self, apply: Apply, edit: Edit, merge_key: str | None = None):
        super().__init__(edit.label)
        self.apply = apply
        self.edit = edit
        self.inverse: Edit | None = None
        self.merge_key = merge_key

    def redo(self) -> None:
        self.inverse = self.apply(self.edit)

    def undo(self) -> None:
        assert self.inverse is not None
        self.apply(self.inverse)

    def id(self) -> int:
        return MERGING_ID if self.merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt override)
        """The next step of the same slider drag: keep this command's inverse (the values
        before the drag) and take the step's value."""
        if not (isinstance(other, EditCommand) and other.merge_key == self.merge_key
                and isinstance(self.edit, SetValues) and isinstance(other.edit, SetValues)):
            return False
        mine, theirs = self.edit, other.edit
        if (mine.scenario, mine.selects, mine.prop) != (theirs.scenario, theirs.selects,
                                                        theirs.prop):
            return False
        self.edit = theirs
        return True
