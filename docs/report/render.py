"""The pages of every bundled example's report, for docs/report/.

Run from the repository root: ``.venv/bin/python docs/report/render.py`` (needs ``pdftoppm``
from poppler-utils, which ``make`` installs).  Each report is written as a PDF, turned into
PNG pages at 50 dpi, and its 2000 px PNG summary is kept beside them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def main() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT))
    from models.examples import bundled as examples  # noqa: PLC0415

    for old in HERE.glob("*.png"):
        old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        for name in examples.names():
            src = examples.path(name)
            pdf = Path(tmp) / f"{name}.pdf"
            for out in (pdf, HERE / f"{name}-summary.png"):
                subprocess.run([sys.executable, "-m", "app", "report", str(src), "-o",
                                str(out)], cwd=ROOT, env=env, check=True,
                               stdout=subprocess.DEVNULL)
            subprocess.run(["pdftoppm", "-png", "-r", "50", str(pdf), str(HERE / name)],
                           check=True)
            for page in HERE.glob(f"{name}-*.png"):  # pdftoppm pads: name-01.png
                stem = page.stem.removeprefix(f"{name}-")
                if stem.isdigit():
                    page.rename(HERE / f"{name}-{int(stem)}.png")
            shrink(HERE / f"{name}-summary.png")
            print(name, len(list(HERE.glob(f"{name}-[0-9]*.png"))), "pages")


def shrink(path: Path) -> None:
    """The 2000 px summary at 1000 px in 256 colours (a tenth of the bytes, still legible)."""
    from PySide6.QtCore import Qt  # noqa: PLC0415
    from PySide6.QtGui import QGuiApplication, QImage  # noqa: PLC0415

    if QGuiApplication.instance() is None:
        QGuiApplication(["render"])
    image = QImage(str(path)).scaledToWidth(1000, Qt.TransformationMode.SmoothTransformation)
    image.convertToFormat(QImage.Format.Format_Indexed8).save(str(path), "PNG", 0)


if __name__ == "__main__":
    main()
