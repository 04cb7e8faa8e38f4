"""The bundled example designs (``resources/examples/*.json``)."""

from __future__ import annotations

from pathlib import Path

from models.core.platform import pin_work
from models.document.codec import load_json
from models.document.design import Design
from models.document.resources import RESOURCES

EXAMPLES_DIR = RESOURCES / "examples"
DEFAULT_EXAMPLE = "vaio-scaling"


def names() -> list[str]:
    return sorted(p.stem for p in EXAMPLES_DIR.glob("*.json"))


def path(name: str) -> Path:
    p = EXAMPLES_DIR / f"{name}.json"
    if not p.exists():
        raise KeyError(name)
    return p


def load(name: str) -> Design:
    """Example ``name``, its VMs' CPU shares pinned to the processors they ran on
    (:func:`~models.core.platform.pin_work`)."""
    return pin_work(load_json(path(name)))
