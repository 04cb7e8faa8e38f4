"""Screenshots of every bundled example and of imported estates in light and dark, for
docs/screens/.

Run from the repository root: ``QT_QPA_PLATFORM=offscreen .venv/bin/python
docs/screens/shoot.py [WIDTH HEIGHT]`` (1366x768 by default); ``--estates`` takes the
estates only, ``--examples`` the examples only.  The estates are the real samples in
``../shared/samples/`` imported through the importers (each skipped, and said so, when
absent; never copied here) and two generated RVTools exports (``tests/estates.py``): one of
571 VMs on 23 hosts in 3 clusters with 36 datastores, local and shared, its hosts named as a
site names them, and the 10,000-VM one ``make bench`` imports (seed 42): imported once, in a
scratch folder, then shot in each scheme.  Each shot is saved as a palette PNG of its 256
most common colours (a screenshot of flat panels loses nothing to it and shrinks to about a
third).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SAMPLES = ROOT.parent / "shared" / "samples"
ESTATES = (("estate-rvtools-805-vms", "rvtools-anonymised-805-vms.xlsx"),
           ("estate-liveoptics-83-vms", "liveoptics-masked-83-vms.xlsx"),
           ("estate-generated-571-vms", ""),
           ("estate-generated-10000-vms", ""))
"""(screenshot name, sample file; "" for a generated estate, :data:`GENERATED`)."""
GENERATED: dict[str, dict[str, Any]] = {
    "estate-generated-571-vms": {"n_hosts": 23, "n_vms": 571, "seed": 7,
                                 "local_datastores": True, "host_names": "site"},
    "estate-generated-10000-vms": {"n_hosts": 250, "n_vms": 10000, "seed": 42}}
"""The generated estates' arguments to ``tests.estates.estate``."""
SETTLE_MS = 1500
"""A bundled example's evaluation, curve and band."""
ESTATE_MS = 30000
"""At most this long for an estate's curve, swept in the background for a large design."""


def shoot(theme: str, width: int, height: int, which: set[str], estates: Path | None,
          only: set[str] | None = None, out_dir: Path = HERE) -> None:
    """Every example and estate (of ``only``, where given) in one scheme, into ``out_dir``
    (a process per scheme: the palette is chosen at start)."""
    os.environ["HEADROOM_THEME"] = theme
    sys.path.insert(0, str(ROOT))
    import numpy as np  # noqa: PLC0415
    from PySide6.QtCore import QElapsedTimer, QEventLoop, Qt, QTimer  # noqa: PLC0415
    from PySide6.QtGui import QImage  # noqa: PLC0415
    from PySide6.QtWidgets import QApplication  # noqa: PLC0415

    from app.support import qt_fixes  # noqa: PLC0415

    qt_fixes.install()
    app = QApplication([])
    app.setApplicationName("HeadroomScreens")
    from app.document.design_document import DesignDocument  # noqa: PLC0415
    from app.support.theme import apply_theme  # noqa: PLC0415
    from app.window.main_window import MainWindow  # noqa: PLC0415
    from models.document.design import Design  # noqa: PLC0415
    from models.examples import bundled as examples  # noqa: PLC0415
    from models.io.files import load_design  # noqa: PLC0415

    apply_theme(app)
    shots: list[tuple[Design, str, int, int, Path, bool]] = []
    if "examples" in which:
        shots += [(examples.load(name), "base", width, height, out_dir / f"{name}-{theme}.png",
                   False) for name in examples.names() if only is None or name in only]
        if theme == "light" and only is None:  # the README's two large pictures
            shots += [(examples.load(name), scenario, 1600, 1000, HERE.parent / file, False)
                      for name, scenario, file in HEROES]
    if "estates" in which and estates is not None:
        shots += [(load_design(estates / f"{name}.headroom"), "base", width, height,
                   out_dir / f"{name}-{theme}.png", True)
                  for name, _ in ESTATES if (estates / f"{name}.headroom").exists()]
    for design, scenario, w, h, out, estate in shots:
        doc = DesignDocument(design)
        doc.set_scenario(scenario)
        window = MainWindow(doc, remember_layout=False)
        window.resize(w, h)
        window.show()
        loop = QEventLoop()
        QTimer.singleShot(SETTLE_MS, loop.quit)
        loop.exec()
        if estate:  # the curve of a large design is swept in the background: wait for it
            clock = QElapsedTimer()
            clock.start()
            while window.knob_curve.sweeps == 0 and clock.elapsed() < ESTATE_MS:
                QApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 100)
            QTimer.singleShot(SETTLE_MS, loop.quit)
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


def import_estates(folder: Path, only: set[str] | None = None) -> None:
    """Each estate of :data:`ESTATES` (of ``only``, where given) imported into ``folder`` as
    a ``.headroom`` file."""
    sys.path.insert(0, str(ROOT))
    from models.io.files import save_design  # noqa: PLC0415
    from models.io.importers.liveoptics import import_liveoptics  # noqa: PLC0415
    from models.io.importers.rvtools import import_rvtools  # noqa: PLC0415
    from tests.estates import estate, write_xlsx  # noqa: PLC0415

    for name, sample in ESTATES:
        if only is not None and name not in only:
            continue
        if not sample:
            path = write_xlsx(folder / f"{name}.xlsx", estate(**GENERATED[name]).sheets)
            design, _ = import_rvtools(path)
        elif not (SAMPLES / sample).exists():
            print(f"{name}: {SAMPLES / sample} is absent, not shot")
            continue
        elif sample.startswith("liveoptics"):
            design, _ = import_liveoptics(SAMPLES / sample)
        else:
            design, _ = import_rvtools(SAMPLES / sample)
        save_design(design, folder / f"{name}.headroom")


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
    args = sys.argv[1:]
    only: set[str] | None = None
    out_dir = HERE
    for arg in [a for a in args if a.startswith(("--only=", "--out="))]:
        args.remove(arg)
        if arg.startswith("--only="):
            only = set(arg.removeprefix("--only=").split(","))
        else:
            out_dir = Path(arg.removeprefix("--out=")).resolve()
            out_dir.mkdir(parents=True, exist_ok=True)
    which = {"examples", "estates"}
    for flag in ("--examples", "--estates"):
        if flag in args:
            args.remove(flag)
            which = {flag.removeprefix("--")}
    if args and args[0] in ("light", "dark"):  # a child: one scheme
        width, height = int(args[1]), int(args[2])
        estates = Path(args[3]) if len(args) > 3 else None
        shoot(args[0], width, height, which, estates, only, out_dir)
        return
    size = args[:2] if len(args) > 1 else ["1366", "768"]
    flags = [f"--{w}" for w in which] if len(which) == 1 else []
    flags += [f"--out={out_dir}"] + ([f"--only={','.join(sorted(only))}"] if only else [])
    with tempfile.TemporaryDirectory() as tmp:
        if "estates" in which:
            import_estates(Path(tmp), only)
        for theme in ("light", "dark"):
            subprocess.run([sys.executable, __file__, *flags, theme, *size, tmp], check=True)


if __name__ == "__main__":
    main()
