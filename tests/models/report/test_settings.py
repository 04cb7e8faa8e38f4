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


def test_values_measured_one_by_one_read_as_a_range() -> None:
    from models.document.design import Component, Design  # noqa: PLC0415
    from models.document.knobs import knobs_for  # noqa: PLC0415
    from models.report.settings import setting, values  # noqa: PLC0415

    d = Design(name="estate")
    d.components += [Component(f"v{i}", "vm", f"vm{i}", props={"workload.cpu_pct": p})
                     for i, p in enumerate([2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 90.0,
                                            90.0])]
    k = next(k for k in knobs_for(d) if k.prop == "workload.cpu_pct")
    assert setting_text(k, setting(values(d, k))) == (
        "10 values on 11 VMs, from 2 % to 90 % (median 7 %)")
    few = Design(name="few", components=d.components[:3])
    assert setting_text(k, setting(values(few, k))) == "2 % on 1 VM, 3 % on 1 VM, 4 % on 1 VM"
