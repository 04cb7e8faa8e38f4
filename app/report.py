"""PDF/PNG reports. (stub until the report issue lands)"""

from __future__ import annotations

from pathlib import Path

from models.design import Design, DesignError, Issue
from models.prediction import Prediction


def export_report(design: Design, scenario: str, path: Path, prediction: Prediction) -> None:
    raise DesignError([Issue(str(path), "reports are not available yet")])
