"""Fitted model coefficients: declared beside the model that uses them, valued by one table.

A model declares each coefficient it fits once, at module level, with :func:`declare`: its
name (``network.t_msg_ns``), unit, a-priori value and what it means.  The value the engine
uses comes from the generated table ``resources/fitted/fitted.json``, which the fitting
routines of :mod:`models.calibration.fit` write from the calibration cases (``python -m
models.calibration.fit``; a test re-runs the fit and compares).  Nobody types a fitted value
in: the table says, beside each value, the case ids it was fitted to.

The a-priori value (``prior``) is what the engine would use if no published figure pinned the
coefficient: the fitting routines start from it, and a cross-validation fold that leaves out
the only case a coefficient is fitted to falls back to it (the figures that then depend on it
are marked "reproduced only": no independent check of them is possible).

:func:`using` overrides values for the duration of a block (the fitting routines try values;
the cross-validation refits without a case).  A :class:`~contextvars.ContextVar` holds the
overrides, so a fit in one thread never changes what another thread's evaluation sees.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import Any

from models.document.resources import RESOURCES

TABLE_PATH = RESOURCES / "fitted" / "fitted.json"
FORMAT = "headroom-fitted-coefficients"


@dataclass(frozen=True)
class Coefficient:
    """A model coefficient whose value is fitted to published figures."""

    name: str
    """``<subsystem>.<what>``, the key in the table."""
    unit: str
    prior: float
    """The a-priori value (a datasheet figure, a textbook value, or the mechanism's natural
    default), used before fitting and where no case pins the coefficient."""
    doc: str

    @property
    def value(self) -> float:
        """The value in effect now (an override, else the table's)."""
        return value(self.name)


DECLARED: dict[str, Coefficient] = {}
"""Every declared coefficient by name (filled as the model modules are imported)."""

_override: ContextVar[Mapping[str, float] | None] = ContextVar("headroom_coefficients",
                                                               default=None)


def declare(name: str, unit: str, prior: float, doc: str) -> Coefficient:
    """Declare a fitted coefficient (once per name, at a model module's top level)."""
    coef = Coefficient(name, unit, float(prior), doc)
    known = DECLARED.get(name)
    if known is not None and known != coef:
        raise ValueError(f"coefficient {name} declared twice, differently")
    DECLARED[name] = coef
    return coef


@cache
def table() -> dict[str, dict[str, Any]]:
    """The generated table's rows by coefficient name (empty when the file is missing)."""
    if not TABLE_PATH.exists():
        return {}
    doc = json.loads(TABLE_PATH.read_text(encoding="utf-8"))
    if doc.get("format") != FORMAT:
        raise ValueError(f"{TABLE_PATH}: not a {FORMAT} document")
    return {row["name"]: row for row in doc["coefficients"]}


def free() -> int:
    """How many coefficients of the table the published figures set (its rows not left at
    their priors)."""
    return sum(not str(row["method"]).startswith("prior") for row in table().values())


def value(name: str) -> float:
    """The value of coefficient ``name``: an override in effect, else the table's, else (a
    coefficient not fitted yet) its prior."""
    over = _override.get()
    if over is not None and name in over:
        return over[name]
    row = table().get(name)
    if row is not None:
        return float(row["value"])
    coef = DECLARED.get(name)
    if coef is None:
        raise KeyError(f"unknown coefficient {name}")
    return coef.prior


def overridden() -> bool:
    """Whether some coefficient is overridden in this context (memoised results computed with
    the table's values must not be reused)."""
    return _override.get() is not None


@contextmanager
def using(values: Mapping[str, float]) -> Iterator[None]:
    """Run the block with ``values`` in place of the table's (on top of any outer override)."""
    outer = _override.get()
    merged = dict(outer or {})
    merged.update(values)
    token = _override.set(merged)
    try:
        yield
    finally:
        _override.reset(token)
