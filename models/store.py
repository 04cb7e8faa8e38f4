"""`.headroom` files (SQLite application files). (stub until the file issue lands)"""

from __future__ import annotations

from pathlib import Path

from models.design import Design, DesignError, Issue


def load(path: Path) -> Design:
    raise DesignError([Issue(str(path), ".headroom files are not supported yet; use .json")])


def save(design: Design, path: Path) -> None:
    raise DesignError([Issue(str(path), ".headroom files are not supported yet; use .json")])
