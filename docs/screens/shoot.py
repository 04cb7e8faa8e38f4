"""Screenshots of every bundled example in light and dark, for docs/screens/.

Run from the repository root: ``QT_QPA_PLATFORM=offscreen .venv/bin/python
docs/screens/shoot.py [WIDTH HEIGHT]`` (1366x768 by default).  Each shot is saved as a palette
PNG of its 256 most common colours (a screenshot of flat panels loses nothing to it and
shrinks to about a third).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def shoot(theme: str, width: int, height: int) -> None:
    """Every example in one scheme (a process per scheme: the palette is chosen at start)."""
    os.environ["HEADROOM_THEME"] = theme
    sys.path.insert(0, str(ROOT))
    import numpy as np  # noqa: PLC0415
    from PySide6.QtCore import QEventLoop, Qt, QTimer  # noqa: PLC0415
    from PySide6.QtGui import QImage  # noqa: PLC0415
    from PySide6.QtWidgets import QApplication  # noqa: PLC0415

    from app.support import qt_fixes  # noqa: PLC0415

    qt_fixes.install()
    app = QApplication([])
    app.setApplicationName("HeadroomScreens")
    from app.document.design_document import DesignDocument  # noqa: PLC0415
    from app.support.theme import apply_theme  # noqa: PLC0415
    from app.window.main_window import MainWindow  # noqa: PLC0415
    from models.examples import bundled as examples  # noqa: PLC0415

    apply_theme(app)
    shots = [(name, "base", width, height, HERE / f"{name}-{theme}.png")
             for name in examples.names()]
    if theme == "light":  # the README's two large pictures
        shots += [(name, scenario, 1600, 1000, HERE.parent / file)
                  for name, scenario, file in HEROES]
    for name, scenario, w, h, out in shots:
        doc = DesignDocument(examples.load(name))
        doc.set_scenario(scenario)
        window = MainWindow(doc, remember_layout=False)
        window.resize(w, h)
        window.show()
        loop = QEventLoop()
        QTimer.singleShot(1500, loop.quit)  # the evaluation, the curve and its band
        loop.exec()
        image = window.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
        pixels = np.frombuffer(image.constBits(), dtype=np.uint32,
                               count=image.width() * image.height()).astype(np.int64)
        image.convertToFormat(QImage.Format.Format_Indexed8, palette(np, pixels),
                              Qt.ImageConversionFlag.ThresholdDither).save(
            str(out), "PNG", 0)
        doc.undo_stack.setClean()
        window.close()
        window.deleteLater()
        QApplication.processEvents()


HEROES = (("vaio-scaling", "iofilter", "main-window.png"),
          ("dense-web-farm", "dense mode", "web-farm.png"))
"""(example, scenario, file in docs/): the pictures at the top of the README, 1600x1000."""


def palette(np: Any, pixels: Any) -> list[int]:
    """256 colours for ``pixels`` (0xAARRGGBB): the most used of its colours at 5 bits a
    channel, each the mean of the pixels it stands for (anti-aliased shades of one colour
    share a bin, so a small yellow marker keeps its own entry beside the large panels)."""
    channels = [(pixels >> shift) & 0xFF for shift in (16, 8, 0)]
    bins = sum((c >> 3) << (10 - 5 * i) for i, c in enumerate(channels))
    ids, inverse, counts = np.unique(bins, return_inverse=True, return_counts=True)
    top = np.argsort(counts)[::-1][:256]
    means = [np.bincount(inverse, weights=c, minlength=len(ids)) / counts for c in channels]
    return [int(0xFF000000 | (int(means[0][i]) << 16) | (int(means[1][i]) << 8)
                | int(means[2][i])) for i in top]


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] in ("light", "dark"):
        width, height = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) > 3 \
            else (1366, 768)
        shoot(sys.argv[1], width, height)
        return
    size = sys.argv[1:3] if len(sys.argv) > 2 else ["1366", "768"]
    for theme in ("light", "dark"):
        subprocess.run([sys.executable, __file__, theme, *size], check=True)


if __name__ == "__main__":
    main()
