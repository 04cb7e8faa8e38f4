"""The background job runner: results, progress and failures reach the GUI thread, cancel
is cooperative, the newest job wins, a lane runs at most N at once, and no thread outlives
its work."""

from __future__ import annotations

import gc
import threading

from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.support import jobs
from app.support.jobs import Cancelled, Lane, Runner, Task

WAIT_MS = 5000


def worker_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("headroom-")]


def test_a_job_runs_in_a_worker_and_its_result_arrives_in_the_gui_thread(
        qtbot: QtBot) -> None:
    runner = Runner()
    ran_in: list[threading.Thread] = []
    got_in: list[threading.Thread] = []
    runner.finished.connect(lambda _r: got_in.append(threading.current_thread()))

    def work(_task: Task) -> int:
        ran_in.append(threading.current_thread())
        return 42

    with qtbot.waitSignal(runner.finished, timeout=WAIT_MS) as blocker:
        runner.submit(work)
        assert runner.busy
    assert blocker.args == [42] and not runner.busy
    assert ran_in[0] is not threading.main_thread()
    assert ran_in[0].name == "headroom-jobs"
    assert got_in == [threading.main_thread()]


def test_progress_reports_arrive_in_order_in_the_gui_thread(qtbot: QtBot) -> None:
    runner = Runner()
    seen: list[tuple[int, int, str, bool]] = []
    runner.progressed.connect(lambda d, t, w: seen.append(
        (d, t, w, threading.current_thread() is threading.main_thread())))

    def work(task: Task) -> str:
        for i in range(3):
            task.progress(i + 1, 3, "step")
        return "done"

    with qtbot.waitSignal(runner.finished, timeout=WAIT_MS):
        runner.submit(work)
    assert seen == [(1, 3, "step", True), (2, 3, "step", True), (3, 3, "step", True)]


def test_a_failing_job_is_reported_as_text_never_raised(qtbot: QtBot) -> None:
    runner = Runner()

    def broken(_task: Task) -> object:
        raise ValueError("no such knob")

    with qtbot.waitSignal(runner.failed, timeout=WAIT_MS) as blocker:
        runner.submit(broken)
    assert blocker.args == ["ValueError: no such knob"] and not runner.busy
    custom = Runner(describe=lambda err: f"could not: {err}")
    with qtbot.waitSignal(custom.failed, timeout=WAIT_MS) as blocker:
        custom.submit(broken)
    assert blocker.args == ["could not: no such knob"]


def test_cancel_stops_the_job_at_its_next_check_and_nothing_arrives(qtbot: QtBot) -> None:
    runner = Runner()
    started, release = threading.Event(), threading.Event()
    steps: list[int] = []
    arrived: list[object] = []
    runner.finished.connect(arrived.append)
    runner.failed.connect(arrived.append)

    def work(task: Task) -> str:
        started.set()
        release.wait(5)
        for i in range(1000):
            task.check()
            steps.append(i)
        return "finished anyway"

    task = runner.submit(work)
    assert started.wait(5)
    runner.cancel()
    assert task.cancelled() and not runner.busy
    release.set()
    assert jobs.wait_idle()
    QApplication.processEvents()
    assert steps == [] and arrived == []


def test_the_newest_job_wins_and_a_superseded_job_never_starts(qtbot: QtBot) -> None:
    lane = Lane("test-one", workers=1)
    runner, other = Runner(lane=lane), Runner(lane=lane)
    release = threading.Event()
    ran: list[str] = []

    def blocker(_task: Task) -> str:  # holds the lane's only thread
        release.wait(5)
        return "blocker"

    def named(name: str) -> jobs.Work:
        def work(_task: Task) -> str:
            ran.append(name)
            return name
        return work

    other.submit(blocker)
    runner.submit(named("old"))  # queued behind the blocker
    got: list[object] = []
    runner.finished.connect(got.append)
    with qtbot.waitSignal(runner.finished, timeout=WAIT_MS):
        runner.submit(named("new"))  # supersedes "old" before it starts
        release.set()
    assert got == ["new"] and ran == ["new"]


def test_a_result_that_comes_after_a_newer_submit_is_dropped(qtbot: QtBot) -> None:
    runner = Runner(lane=Lane("test-two", workers=2))
    release = threading.Event()

    def slow(_task: Task) -> str:  # never checks: finishes although superseded
        release.wait(5)
        return "old"

    got: list[object] = []
    runner.finished.connect(got.append)
    runner.submit(slow)
    with qtbot.waitSignal(runner.finished, timeout=WAIT_MS):
        runner.submit(lambda _t: "new")
    release.set()
    assert jobs.wait_idle()
    QApplication.processEvents()
    assert got == ["new"]


def test_a_lane_runs_at_most_its_workers_at_once(qtbot: QtBot) -> None:
    lane = Lane("test-two-at-once", workers=2)
    runners = [Runner(lane=lane) for _ in range(5)]
    lock = threading.Lock()
    running, most = [0], [0]
    gate = threading.Semaphore(0)

    def work(_task: Task) -> None:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        gate.acquire(timeout=5)
        with lock:
            running[0] -= 1

    for r in runners:
        r.submit(work)
    qtbot.waitUntil(lambda: running[0] == 2, timeout=WAIT_MS)  # two in, three waiting
    for _ in runners:
        gate.release()
    qtbot.waitUntil(lambda: not any(r.busy for r in runners), timeout=WAIT_MS)
    assert most[0] == 2


def test_wait_idle_cancels_every_job_and_leaves_no_thread(qtbot: QtBot) -> None:
    runners = [Runner(lane=Lane(f"test-idle-{i}")) for i in range(3)]
    started = threading.Semaphore(0)

    def until_cancelled(task: Task) -> None:
        started.release()
        while True:
            task.check()
            threading.Event().wait(0.001)

    for r in runners:
        r.submit(until_cancelled)
    for _ in runners:
        assert started.acquire(timeout=5)
    assert len(worker_threads()) >= 3 and not jobs.idle()
    assert jobs.wait_idle()
    assert worker_threads() == [] and jobs.idle()
    QApplication.processEvents()
    assert not any(r.busy for r in runners)  # cancelled from outside: idle, nothing reported


def test_wait_idle_reports_a_job_that_does_not_stop_in_time(qtbot: QtBot) -> None:
    runner = Runner(lane=Lane("test-stuck"))
    started, release = threading.Event(), threading.Event()

    def stuck(_task: Task) -> None:  # never checks
        started.set()
        release.wait(5)

    runner.submit(stuck)
    assert started.wait(5)
    assert not jobs.wait_idle(timeout_s=0.05)
    release.set()
    assert jobs.wait_idle()


def test_a_runner_gone_before_its_job_ends_receives_nothing(qtbot: QtBot) -> None:
    release = threading.Event()
    runner = Runner()
    runner.submit(lambda _t: release.wait(5))
    del runner
    gc.collect()  # the job holds its runner weakly: it is gone now, in this thread
    release.set()
    assert jobs.wait_idle()
    QApplication.processEvents()  # the report finds no runner: dropped without error


def test_a_job_that_gives_up_by_itself_is_reported(qtbot: QtBot) -> None:
    runner = Runner()

    def gives_up(_task: Task) -> None:
        raise Cancelled

    with qtbot.waitSignal(runner.failed, timeout=WAIT_MS) as blocker:
        runner.submit(gives_up)
    assert blocker.args == ["Cancelled"] and not runner.busy


def test_the_first_runner_moves_garbage_collection_to_the_gui_thread(qtbot: QtBot) -> None:
    Runner()
    assert not gc.isenabled()  # app/support/gc_guard.py: a worker never collects
