"""Queueing helpers: the largest count meeting a monotone test is found whatever the start."""

from __future__ import annotations

import pytest

from models.subsystems.queueing import _MAX_COUNT, largest_meeting, p95_exact


@pytest.mark.parametrize("threshold", [0, 1, 2, 17, 22_613, 112_323, 2**31 - 2])
@pytest.mark.parametrize("start", [0, 1, 5, 43_331, 10**9])
def test_the_answer_does_not_depend_on_the_start(threshold: int, start: int) -> None:
    calls: list[int] = []

    def meets(k: int) -> bool:
        calls.append(k)
        return k <= threshold

    assert largest_meeting(meets, start) == threshold
    assert len(calls) < 130  # galloping and bisection, never a walk


def test_a_warm_start_costs_two_tests() -> None:
    calls: list[int] = []

    def meets(k: int) -> bool:
        calls.append(k)
        return k <= 40

    assert largest_meeting(meets, 40) == 40
    assert calls == [40, 41]


def test_a_count_that_never_fails_is_capped() -> None:
    assert largest_meeting(lambda k: True, 3) == _MAX_COUNT


def test_p95_grows_with_utilisation() -> None:
    values = [p95_exact(8, rho, 2.0) for rho in (0.0, 0.3, 0.6, 0.9, 0.99)]
    assert values == sorted(values) and values[0] == pytest.approx(2.0 * 2.995732, rel=1e-5)
