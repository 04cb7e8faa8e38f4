"""The words a figure, a caption or an empty cell reads in where a bare ratio, a symbol or a
dash would not: declared once, as the schema declares labels, and read wherever the figure
shows (the dashboard, the canvas, the charts, the panels, the command line, the report).

Issue 39 quoted what a client could not read; each entry says what it was.  ``tests/
test_words.py`` checks that the quoted wordings are gone from where they showed and that
these words are there instead.  No Qt.
"""

from __future__ import annotations

from dataclasses import dataclass

NOT_MEASURED = "not measured"
"""A figure the design's data does not give (an estate imported without its datastores'
capacity, a host's background nothing recorded): never 0, which would claim a result, nor
"-" or "–", which read as zero or as an error (it read "background CPU -").  The one formatter
(:mod:`models.document.numbers`) reads it from here."""


@dataclass(frozen=True)
class Figure:
    """How a headline figure reads: its title, its unit and the words after it ("Memory
    allocated", 34.5, "%", "of installed": "34.5 % of installed"; the KPI table reads
    them, :mod:`models.engine.kpis`)."""

    title: str
    unit: str
    after: str = ""
    """Words after the figure and its unit, that say what it is a share or rate of."""


MEMORY_ALLOCATED = Figure("Memory allocated", "%", "of installed")
"""VM memory configured over the memory installed in the hosts: "memory 30 % allocated of
installed" (it read "Memory overcommit 0.301")."""
CPU_PER_KIOPS = Figure("CPU per 1,000 IOPS", "%", "of a core")
"""Host CPU the I/O path costs: "2.7 % of a core per 1,000 IOPS" (it read "CPU per 1K IOPS
2.7 % core")."""
VCPUS_PER_CORE = Figure("vCPUs per core", "")
"""vCPUs of the placed VMs per physical core (it read "vCPU:core")."""

OFF: dict[str, str] = {
    "design.policy.vcpu_per_core_max": "no vCPU:core ceiling",
    "design.policy.memory_overcommit_max": "no memory ceiling",
    "design.policy.licence_price_per_core": "no price",
    "content_library.max_bandwidth_mbps": "unlimited",
    "vm.workload.app_users": "not an application",
}
"""A property at the value that turns it off, in words (it read "vCPU:core ceiling 0 vCPUs
per core"), by ``kind.prop``."""
OFF_DEFAULT = "off"


def off_text(kind: str, prop: str) -> str:
    """The words for ``prop`` of ``kind`` at its off value
    (:attr:`models.document.schema.PropSpec.off`)."""
    return OFF.get(f"{kind}.{prop}", OFF_DEFAULT)


VMS_OWN_CPU = "VMs' own CPU"
"""A host card's strip of its VMs' grades is of each VM's CPU over its vCPUs, not the host's:
its caption says so (a red host at 91 % carried "CPU < 70 %: 470")."""
HOST_CPU = "host CPU"


def vm_grades(classes: list[tuple[str, int]], host_class: str = "") -> str:
    """The caption of a card's VM strip: ``VMs' own CPU < 70 %: 412 · 70-90 %: 58``, led by
    the host's own class where it is hotter than all of its VMs' (``host CPU ≥ 90 % · ...``):
    the caption then says why the card is red while its VMs are green."""
    own = f"{VMS_OWN_CPU} " + " · ".join(f"{name}: {n:,}" for name, n in classes)
    return f"{HOST_CPU} {host_class} · {own}" if host_class else own


TYPICAL_ERROR = "typical error"
"""The median of a model's absolute errors against published figures (it read "median
|error|")."""
UNSEEN = "on checks its fit did not see"
"""...counted on the published figures kept out of the fit, as checks (it read "on held-out
checks")."""
LEFT_OUT = "with each study left out of the fit"
"""...counted with each study's figures predicted by a fit to the other studies alone (it
read "cross-validated")."""
LEFT_OUT_ONE = "when its study is left out of the fit"
"""...one figure's (it read "cross-validated +62 %")."""
LEFT_OUT_ERROR, LEFT_OUT_TYPICAL, LEFT_OUT_LARGEST = ("Error, study left out",
                                                      "Typical, left out",
                                                      "Largest, left out")
"""The Evidence tables' columns of those errors (they read "CV error", "CV median", "CV
max")."""
NONE_PREDICTED = "none predicted"
"""A study none of whose figures a fit to the others can predict (it read "-")."""


def unseen_error(typical: str) -> str:
    """``typical error 4.2 % on checks its fit did not see``."""
    return f"{TYPICAL_ERROR} {typical} {UNSEEN}"


def left_out_error(typical: str, figures: str) -> str:
    """``typical error 62 % with each study left out of the fit, over 31 figures it can
    predict``."""
    return f"{TYPICAL_ERROR} {typical} {LEFT_OUT}, over {figures} it can predict"


SATURATES_FROM = "Saturated (no steady response time) from {x}"
SATURATES_BELOW = "Saturated (no steady response time) below {x}"
"""Where a curve has no steady figure: from a value up (a request rate past the hosts'
capacity), or below one (too few cores: it read "from 1 core" where it saturated below 11)."""
