"""The canvas in a refresh kept as a scenario: it shows the scenario's hosts
(:meth:`~app.document.design_document.DesignDocument.shown_design`), which the base design
does not hold, so it can be looked at (selected, hovered, inspected) but not edited: a move,
a delete, a link, a drop or a paste would edit a design other than the one shown.  What the
note on the canvas says, and why a gesture is refused."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.document.design_document import DesignDocument


def read_only(doc: DesignDocument) -> str:
    """Why the canvas takes no edit now ("" when it does): the words after "Not moved: "."""
    if doc.rebuild() is None:
        return ""
    return f"the canvas shows the refresh ‘{doc.scenario}’; switch to the base design to edit it"


def note(doc: DesignDocument) -> str:
    """What the note on the canvas says in a refresh ("" outside one)."""
    rb = doc.rebuild()
    if rb is None:
        return ""
    return (f"‘{doc.scenario}’: {rb.label}. The canvas shows the scenario's hosts; switch to"
            " the base design to edit them.")
