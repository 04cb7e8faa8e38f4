"""What the editor derives from the design (the id index, selector targets, counts, effective
values), each kept while the revision it was computed at stands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class Memo:
    """Values derived from the design, each valid while the revision it was computed at
    stands: a write bumps the revision and every older entry is simply not found."""

    def __init__(self) -> None:
        self._entries: dict[str, tuple[int, Any]] = {}

    def get(self, name: str, revision: int, compute: Callable[[], T]) -> T:
        entry = self._entries.get(name)
        if entry is None or entry[0] != revision:
            entry = self._entries[name] = (revision, compute())
        value: T = entry[1]
        return value
