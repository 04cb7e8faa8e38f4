"""Analyses over the engine: goal seek, host-failure what-if (N+1), sensitivity (tornado).

Every analysis takes an optional ``evaluate`` callable (compiled design -> prediction; by
default :func:`models.engine.evaluation.run`) so that its search can be tested with a stand-in
model.
"""

from __future__ import annotations

from models.analysis.common import (
    SLIDER_TICKS,
    VMS_PER_HOST_CAP,
    Breach,
    Evaluate,
    policy_breaches,
    rebuild,
    storage_p95_breaches,
)
from models.analysis.failure import FailureReport, FailureResult, FtImpact, fail_host, host_failure
from models.analysis.seek import GOALS, SeekResult, Trial, largest_ok, seek, smallest_ok
from models.analysis.sensitivity import (
    BANDS,
    OUTPUTS,
    KnobSwing,
    Sensitivity,
    _Column,
    band_settings,
    has_output,
    outputs_of,
    sensitivity,
)

__all__ = [
    "BANDS",
    "GOALS",
    "OUTPUTS",
    "SLIDER_TICKS",
    "VMS_PER_HOST_CAP",
    "Breach",
    "Evaluate",
    "FailureReport",
    "FailureResult",
    "FtImpact",
    "KnobSwing",
    "SeekResult",
    "Sensitivity",
    "Trial",
    "_Column",
    "band_settings",
    "fail_host",
    "has_output",
    "host_failure",
    "largest_ok",
    "outputs_of",
    "policy_breaches",
    "rebuild",
    "seek",
    "sensitivity",
    "smallest_ok",
    "storage_p95_breaches",
]
