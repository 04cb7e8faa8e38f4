"""MVA against independently computed references: Buzen's convolution (single class),
brute-force product-form state enumeration (multi-class) and the textbook balanced network."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from models.subsystems import mva


def _buzen_throughput(demand: list[float], n: int) -> float:
    """Buzen (1973): G(n) by convolution over load-independent stations; X(n) = G(n-1)/G(n)."""
    g = [1.0] + [0.0] * n
    for d in demand:
        for j in range(1, n + 1):
            g[j] = g[j] + d * g[j - 1]
    return g[n - 1] / g[n]


def _normaliser(demand: np.ndarray, pops: tuple[int, ...], delay: np.ndarray) -> float:
    """G(N) by enumerating every state of a multi-class network of processor-sharing
    (single server) and infinite-server stations (BCMP product form)."""
    k_n, m_n = demand.shape
    total = 0.0
    # distribute each class's customers over the stations
    per_class = [list(_compositions(p, m_n)) for p in pops]
    for combo in itertools.product(*per_class):
        n_km = np.array(combo, dtype=float)  # [k, m]
        term = 1.0
        for m in range(m_n):
            col = n_km[:, m]
            prod = float(np.prod([demand[k, m] ** col[k] / math.factorial(int(col[k]))
                                  for k in range(k_n)]))
            if not delay[m]:
                prod *= math.factorial(int(col.sum()))
            term *= prod
        total += term
    return total


def _compositions(n: int, parts: int) -> list[tuple[int, ...]]:
    if parts == 1:
        return [(n,)]
    out: list[tuple[int, ...]] = []
    for first in range(n + 1):
        out.extend((first, *rest) for rest in _compositions(n - first, parts - 1))
    return out


def test_exact_single_class_matches_buzen() -> None:
    demand = [0.05, 0.03, 0.12, 0.01]
    res = mva.exact_single(np.array(demand), 12)
    for n in range(1, 13):
        assert res.throughput[n - 1] == pytest.approx(_buzen_throughput(demand, n), abs=1e-9)


def test_balanced_network_textbook_value() -> None:
    # Lazowska et al. 1984, sec. 5.4: M balanced stations of demand D, N customers:
    # X(N) = N / (D (N + M - 1)).
    res = mva.exact_single(np.full(3, 0.2), 5)
    assert res.throughput[-1] == pytest.approx(5 / (0.2 * 7), abs=1e-9)
    assert res.response[0] == pytest.approx(0.6, abs=1e-12)


def test_exact_single_class_with_think_and_delay() -> None:
    demand = np.array([0.04, 0.02, 0.5])
    delay = np.array([False, False, True])
    res = mva.exact_single(demand, 6, think=1.0, delay=delay)
    # think time is a delay station: fold it into the enumeration reference
    d2 = np.array([[0.04, 0.02, 1.5]])
    x_ref = _normaliser(d2, (5,), delay) / _normaliser(d2, (6,), delay)
    assert res.throughput[-1] == pytest.approx(x_ref, abs=1e-9)


def test_exact_multi_class_matches_state_enumeration() -> None:
    demand = np.array([[0.10, 0.04, 0.30], [0.02, 0.09, 0.10]])
    delay = np.array([False, False, True])
    pops = (3, 2)
    res = mva.exact_multi(demand, np.array(pops), delay=delay)
    g = _normaliser(demand, pops, delay)
    for k in range(2):
        less = list(pops)
        less[k] -= 1
        x_ref = _normaliser(demand, tuple(less), delay) / g
        assert res.throughput[k] == pytest.approx(x_ref, abs=1e-9)


def test_exact_multi_reduces_to_single_class() -> None:
    demand = np.array([[0.05, 0.03, 0.12]])
    multi = mva.exact_multi(demand, np.array([7]))
    single = mva.exact_single(demand[0], 7)
    assert multi.throughput[0] == pytest.approx(single.throughput[-1], abs=1e-12)


def test_schweitzer_is_close_to_exact() -> None:
    demand = np.array([[0.10, 0.04, 0.30], [0.02, 0.09, 0.10]])
    delay = np.array([False, False, True])
    pops = np.array([6, 4])
    exact = mva.exact_multi(demand, pops, delay=delay)
    approx = mva.schweitzer(demand, pops, delay=delay)
    assert np.allclose(approx.throughput, exact.throughput, rtol=0.08)


def test_schweitzer_sparse_equals_dense() -> None:
    demand = np.array([[0.10, 0.0, 0.30], [0.02, 0.09, 0.0]])
    dense = mva.schweitzer(demand, np.array([5, 3]))
    station = np.array([[0, 2, -1], [0, 1, -1]])
    sparse = mva.schweitzer_sparse(station, np.array([[0.10, 0.30, 0.0], [0.02, 0.09, 0.0]]),
                                   np.array([5.0, 3.0]), np.zeros(2), 3, np.zeros(3, bool),
                                   tol=1e-12, max_iter=10000)
    assert np.allclose(sparse.throughput, dense.throughput, rtol=1e-9)


def test_seidmann_splits_demand() -> None:
    q, d = mva.seidmann(np.array([4.0, 1.0]), np.array([4, 1]))
    assert q.tolist() == [1.0, 1.0]
    assert d.tolist() == [3.0, 0.0]


def test_zero_population_class_has_no_throughput() -> None:
    res = mva.schweitzer(np.array([[0.1, 0.2], [0.3, 0.1]]), np.array([0, 4]))
    assert res.throughput[0] == 0.0
    assert res.throughput[1] > 0.0


def test_schweitzer_split_equals_sparse() -> None:
    # class 0: private station 0, shared A; class 1: private station 1, shared A and B
    private = np.array([[0.03], [0.05]])
    shared_station = np.array([[0, -1], [0, 1]])
    shared = np.array([[0.02, 0.0], [0.04, 0.01]])
    pops = np.array([6.0, 3.0])
    think = np.array([0.1, 0.0])
    split = mva.schweitzer_split(private, shared_station, shared, pops, think, 2, tol=1e-13)
    station = np.array([[0, 2, -1, 4], [1, 2, 3, 4]])
    demand = np.array([[0.03, 0.02, 0.0, 0.1], [0.05, 0.04, 0.01, 0.0]])
    delay = np.array([False, False, False, False, True])
    sparse = mva.schweitzer_sparse(station, demand, pops, np.zeros(2), 5, delay, tol=1e-13,
                                   max_iter=100000)
    assert np.allclose(split.throughput, sparse.throughput, rtol=1e-9)
    warm = mva.schweitzer_split(private, shared_station, shared, pops, think, 2,
                                q0=split.queue, tol=1e-13)
    assert warm.iterations <= 2


@pytest.mark.parametrize("n", [1.0, 7.0, 64.0, 5000.0, 123.5])
def test_single_class_schweitzer_is_the_iterations_fixed_point(n: float) -> None:
    """One class: Schweitzer's equations solved by bisection agree with the iteration, and
    with exact MVA where the approximation is exact (one customer)."""
    d = np.array([0.002, 0.0005, 0.0, 0.001, 0.004, 0.003])
    one = mva.schweitzer_single(d, n, delay=np.arange(6) == 5)
    net = mva.SplitNetwork(d[None, :3], np.array([[0, 1]]), d[None, 3:5], d[None, 5:6].ravel(),
                           2)
    it = net.solve(np.array([n]), tol=1e-14, max_iter=200000)
    assert one.throughput[0] == pytest.approx(it.throughput[0], rel=1e-7)
    assert one.throughput[0] <= 1.0 / d[:5].max() * (1 + 1e-12)
    if n == 1.0:
        assert one.throughput[0] == pytest.approx(1.0 / d.sum(), rel=1e-12)


@pytest.mark.parametrize("scale", [0.01, 0.3, 3.0, 50.0])
def test_a_warm_start_and_a_cold_one_agree_on_the_queues(scale: float) -> None:
    """The solve stops when neither the throughputs nor the queues move: started from far
    off queues (an earlier knob position) it lands where a cold start lands (stopping on
    throughput alone left queues of this network 1e-6 apart)."""
    rng = np.random.default_rng(7)
    k, s = int(rng.integers(5, 200)), int(rng.integers(1, 6))
    private = rng.uniform(0.0001, 0.02, (k, 1))
    shared_station = rng.integers(0, s, (k, 2))
    shared = rng.uniform(0.001, 0.05, (k, 2)) * rng.uniform(0, 1, (k, 2)) ** 3
    pops = rng.integers(1, 256, k).astype(float)
    think = rng.uniform(0, 0.01, k) * (rng.uniform(0, 1, k) < 0.3)
    tol = 2e-8
    cold = mva.schweitzer_split(private, shared_station, shared, pops, think, s, tol=tol)
    warm = mva.schweitzer_split(private, shared_station, shared, pops, think, s,
                                q0=cold.queue * scale, tol=tol)
    np.testing.assert_allclose(warm.queue, cold.queue, rtol=2e-7, atol=1e-12)
    np.testing.assert_allclose(warm.response, cold.response, rtol=1e-7)


def test_classes_alike_are_solved_once_each_with_the_same_fixed_point() -> None:
    """A design's identical VMs (the same demands and stations) are one class solved once,
    standing for its number in the shared stations: the same throughputs, responses and
    queues as solving every class, and different populations solve them all."""
    rng = np.random.default_rng(3)
    kinds = rng.random((6, 6)) * 0.01
    pick = rng.integers(0, 6, 300)  # 300 classes of 6 kinds over 3 HBAs and 2 arrays
    d = kinds[pick]
    stations = np.stack([pick % 3, 3 + pick % 2], axis=1)
    net = mva.SplitNetwork(d[:, :3], stations, d[:, 3:5], d[:, 5], 5)
    assert net.alike is not None and net.alike[2].k_n == 6
    every = mva.SplitNetwork(d[:, :3], stations, d[:, 3:5], d[:, 5], 5)
    every.alike = None
    for pops in (np.full(300, 4.0), 1.0 + pick.astype(float)):
        one, whole = net.solve(pops, tol=1e-12), every.solve(pops, tol=1e-12)
        assert np.allclose(one.throughput, whole.throughput, rtol=1e-9)
        assert np.allclose(one.response, whole.response, rtol=1e-9)
        assert np.allclose(one.queue, whole.queue, rtol=1e-8, atol=1e-12)
    varied = np.arange(300, dtype=float) % 7 + 1.0  # not alike within a kind: all solved
    assert np.allclose(net.solve(varied, tol=1e-12).throughput,
                       every.solve(varied, tol=1e-12).throughput, rtol=1e-9)
