"""The Analysis dock: goal seek, sensitivity (tornado), host failure (N+1) and a hardware
refresh on the open design, one module per tab (:mod:`.goal_seek`, :mod:`.sensitivity`,
:mod:`.host_failure`, :mod:`.refresh`), the dock in :mod:`.panel` and what they share in
:mod:`.common`."""

from app.panels.analysis.panel import AnalysisPanel

__all__ = ["AnalysisPanel"]
