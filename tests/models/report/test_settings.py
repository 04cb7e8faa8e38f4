"""The knob table: only knobs away from their defaults or changed by a scenario."""

from __future__ import annotations

from models.examples import bundled as examples
from models.report.settings import knob_rows, scenario_text, setting_text


def test_only_knobs_that_differ_by_label() -> None:
    rows = {r.knob.label: r for r in knob_rows(examples.load("vaio-scaling"))}
    assert "Virtual SCSI adapter" not in rows  # PVSCSI is the default, and no scenario moves it
    oio = rows["Outstanding I/Os"]
    assert setting_text(oio.knob, oio.base) == "128 I/Os"
    assert scenario_text(oio) == ("0 I/Os on 15 VMs in ‘1 VM’ and ‘1 VM, iofilter’;"
                                       " 32 I/Os in ‘oio 32’ and ‘oio 32, iofilter’")
    vaio = rows["VAIO I/O filter"]  # at its default in the base design, set by scenarios
    assert setting_text(vaio.knob, vaio.base) == "none" and vaio.scenarios
    assert setting_text(rows["Drives"].knob, rows["Drives"].base) == "1 drive"


def test_mixed_values_are_counted() -> None:
    rows = {r.knob.label: r for r in knob_rows(examples.load("content-library"))}
    net = rows["Library network"]
    assert setting_text(net.knob, net.base) == ("10 Gbit/s on 6 libraries, 1 Gbit/s on 4"
                                                     " libraries")
