"""The typed sections of a prediction write the JSON's ``extras`` as the contract has them."""

from __future__ import annotations

import numpy as np

from models.core.sections import (
    ArrayCapacity,
    Cabling,
    LibraryJob,
    Sections,
    Stretched,
    to_json,
)
from models.engine.evaluation import evaluate
from models.examples import bundled as examples


def test_a_key_written_only_with_a_value_is_left_out_when_none() -> None:
    row = ArrayCapacity("a1", "gold", 1.0, 2.0, 1.2, None, True)
    assert "needed_util" not in to_json(row) and to_json(row)["capacity_gb"] is None
    assert to_json(Cabling("twinax", 400.0, 3.0)) == {"cabling": "twinax", "usd": 400.0,
                                                      "watts": 3.0}


def test_a_job_names_its_throughput_in_megabytes_and_flattens_its_counts() -> None:
    job = LibraryJob("pub", "gold", "publish", "none", 0, 0, 0, None, 0.0, "",
                     {"subscribers": 4})
    out = to_json(job)
    assert out["throughput_MBps"] == 0.0 and out["subscribers"] == 4 and "detail" not in out
    assert not job.moves_items


def test_stretched_links_are_keys_of_their_own() -> None:
    s = Sections(stretched=Stretched({"a-w": 2.0}, {"a-b": 3.0}), storage_mva_iterations=7)
    assert s.to_json() == {"witness_required_mbps a-w": 2.0, "wan_required_mbps a-b": 3.0,
                           "storage_mva_iterations": 7}


def test_numpy_scalars_become_python_numbers() -> None:
    assert to_json({"x": np.float64(1.5), "n": np.int64(2), "b": np.bool_(True)}) == {
        "x": 1.5, "n": 2, "b": True}
    assert type(to_json(np.float64(1.5))) is float


def test_every_example_writes_the_sections_it_has() -> None:
    keys = {name: set(evaluate(examples.load(name)).to_dict()["extras"])
            for name in ("vdi-pcoip", "multicast-receivers", "stretched-vsan", "ft-netperf")}
    assert {"vdi", "capacity", "cpu_virtualization"} <= keys["vdi-pcoip"]
    assert "multicast" in keys["multicast-receivers"]
    assert any(k.startswith("wan_required_mbps ") for k in keys["stretched-vsan"])
    assert "ft" in keys["ft-netperf"] and "vdi" not in keys["ft-netperf"]
