"""An imported estate for the measured-demand and growth tests: a generated RVTools export of
8 hosts and 114 running VMs (seed 3), every VM measured with its own CPU share."""

from __future__ import annotations

from pathlib import Path

from models.document.design import Design


def imported(folder: Path) -> Design:
    """The estate imported (its baseline solved), written to ``folder``."""
    from models.io.importers.rvtools import import_rvtools  # noqa: PLC0415
    from tests.estates import estate, write_xlsx  # noqa: PLC0415

    design, _ = import_rvtools(write_xlsx(folder / "e.xlsx", estate(8, 116, seed=3).sheets))
    return design
