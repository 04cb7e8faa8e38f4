"""A host's compute: how many cores it has, what they are worth, and how fast each one is.

Every subsystem that turns work into host CPU reads these columns, computed once per compile
(and again only when a knob moves a column they read):

* ``cores``: physical cores, ``sockets x cores_per_socket``;
* ``capacity``: core-equivalents, the cores times :data:`HT_THROUGHPUT` when hyperthreading is
  on (a second thread adds about 15% throughput to a busy core);
* ``speed``: what one core does per second, relative to the reference core (1.0): the core
  at :data:`REF_GHZ`.  Work per event is written in reference-core time; on a host it takes
  that time over ``speed``.  Today the speed follows the clock alone; a host's processor
  will set it (SPEC's published per-core results).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.core.compiled import Compiled

REF_GHZ = 2.4
"""The clock of the reference core: per-core ``speed`` 1.0."""

HT_THROUGHPUT = 1.15
"""A hyperthreaded core's throughput over a plain core: "an application running on one logical
processor of a busy core can expect slightly more than half of the throughput" (vSphere
Resource Management Guide, Hyperthreading) -> 2 x ~0.575.  Not fitted to a case here: the
dense-mode testbed's utilisation is over its 40 cores (case notes), so it is modelled with
hyperthreading off."""


@dataclass(frozen=True)
class Compute:
    """Per-host compute columns (indexed like ``c.host``)."""

    cores: np.ndarray
    """Physical cores."""
    capacity: np.ndarray
    """Core-equivalents the host's CPUs deliver (hyperthreads counted)."""
    speed: np.ndarray
    """Per-core speed relative to the reference core."""

    @property
    def clock_ghz(self) -> np.ndarray:
        """The clock a reference core would need to match a core of the host: where a cost
        is counted in cycles (ciphers), cycles over this is time."""
        return self.speed * REF_GHZ


def compute(c: Compiled) -> Compute:
    """The hosts' compute columns (memoised: recomputed only when a column they read is
    patched)."""
    return c.memo("platform.compute", lambda: _compute(c))


def _compute(c: Compiled) -> Compute:
    host = c.host.cols
    cores = (host["sockets"] * host["cores_per_socket"]).astype(np.float64)
    capacity = cores * np.where(host["hyperthreading"], HT_THROUGHPUT, 1.0)
    return Compute(cores=cores, capacity=capacity, speed=host["ghz"] / REF_GHZ)


def speed_of(c: Compiled, host: np.ndarray) -> np.ndarray:
    """Per-core speed of the hosts ``host`` (indices, -1 for none: the reference core)."""
    speed = compute(c).speed
    if not len(speed):
        return np.ones(len(host))
    return np.where(host >= 0, speed[np.maximum(host, 0)], 1.0)
