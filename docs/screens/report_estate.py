"""Every page of an estate's report, for docs/screens/report-estate-*.png.

Run from the repository root: ``QT_QPA_PLATFORM=offscreen .venv/bin/python
docs/screens/report_estate.py`` (needs ``pdftoppm`` from poppler-utils, which ``make``
installs).  The estate is generated, as the importer tests generate theirs
(``tests/estates.py``): an RVTools export of 23 hosts in four clusters and about 570 VMs,
imported with its baseline; a scenario gives every host 1 TB of memory.  The report is made
by the command line, with ``--title`` and ``--notes``, and its pages are turned into PNGs at
80 dpi (A4 landscape at 935 x 661 px: the listing's names read as printed).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
STEM = "report-estate"
TITLE = "Contoso Ltd: the 2027 host refresh"
NOTES = ("Prepared for the infrastructure board. The figures are the estate as its RVTools"
         " export recorded it (CPU and memory; no storage I/O was collected), and what the"
         " scenario of 1 TB hosts would change. Cluster CL02 stays as it is.")


def main() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT))
    from models.document.design import Override, Scenario  # noqa: PLC0415
    from models.io.files import save_design  # noqa: PLC0415
    from models.io.importers.rvtools import import_rvtools  # noqa: PLC0415
    from tests.estates import estate, write_xlsx  # noqa: PLC0415

    for old in HERE.glob(f"{STEM}-*.png"):
        old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        export = write_xlsx(Path(tmp) / "RVTools_export_contoso.xlsx",
                            estate(23, 571, seed=25).sheets)
        design, _ = import_rvtools(export)
        design.scenarios.append(Scenario("1 TB hosts",
                                         [Override("host", "memory_gb", 1024.0)]))
        src = Path(tmp) / "contoso.headroom"
        save_design(design, src)
        pdf = Path(tmp) / "contoso.pdf"
        subprocess.run([sys.executable, "-m", "app", "report", str(src), "-o", str(pdf),
                        "--title", TITLE, "--notes", NOTES], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run(["pdftoppm", "-png", "-r", "80", str(pdf), str(HERE / STEM)],
                       check=True)
    pages = sorted(HERE.glob(f"{STEM}-*.png"))
    for page in pages:  # pdftoppm pads: report-estate-01.png
        stem = page.stem.removeprefix(f"{STEM}-")
        target = HERE / f"{STEM}-{int(stem)}.png"
        page.rename(target)
    print(len(pages), "pages")


if __name__ == "__main__":
    main()
