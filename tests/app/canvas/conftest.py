"""Canvas fixtures: the 10,000-VM estate, made once (tests open copies of it)."""

from __future__ import annotations

import pytest

from models.document.design import Design
from models.examples.synth import large_design
from models.io.arrange import arrange_in_place


@pytest.fixture(scope="session")
def estate_design() -> Design:
    """250 hosts of 40 VMs, laid out; open ``estate_design.copy()``."""
    return arrange_in_place(large_design(10000, 250))
