"""The report being drawn: its content (what it says, Qt-free), the version and the time it was
made (every page's footer)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from models.core.prediction import Prediction
from models.document.design import Design
from models.report.content import Content


@dataclass
class Report:
    content: Content
    version: str
    when: datetime = field(default_factory=lambda: datetime.now(UTC))

    @property
    def design(self) -> Design:
        return self.content.design

    @property
    def scenario(self) -> str:
        return self.content.scenario

    @property
    def prediction(self) -> Prediction:
        return self.content.prediction

    @property
    def title(self) -> str:
        """What the report leads with: its title (the customer or the project) when the
        design has one, else the design's name."""
        return self.design.report_title.strip() or self.design.name

    @property
    def footer(self) -> str:
        scen = "base design" if self.scenario == "base" else f"scenario ‘{self.scenario}’"
        named = self.title if self.title == self.design.name else \
            f"{self.title} · {self.design.name}"
        return f"Headroom {self.version} · {named} · {scen} · {self.when:%Y-%m-%d %H:%M} UTC"
