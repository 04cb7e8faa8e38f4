"""The one way the app runs work off the GUI thread.

A *job* is a plain Python callable ``work(task) -> result`` run in a worker thread.  It sees
its :class:`Task`: ``task.cancelled()`` / ``task.check()`` (raises :class:`Cancelled`) to stop
cooperatively between steps, ``task.progress(done, total, what)`` to report how far it got.
Its caller holds a :class:`Runner` (a QObject in the GUI thread) that submits jobs and hears
``progressed``, ``finished`` (the result) or ``failed`` (the error as text: a failing job is
reported, never raised), always in the GUI thread.  A runner runs one job at a time as far as
its caller can tell: a new ``submit`` supersedes the job before it (asked to stop; a job not
started yet never starts), and only the newest job's reports arrive (latest wins).

Jobs run in a :class:`Lane`: at most ``workers`` threads at once, jobs in the order given;
a lane's threads end when it has nothing left to do, so an idle app has no worker threads.
:func:`wait_idle` stops every job and waits for every lane (tests after each test, the app
before its window goes).

Workers touch no Qt object but one relay owned by the application, through which every report
travels as a queued signal; a job hands over its Task (plain Python, holding its runner only
by a weak reference), so no QObject is ever created, kept alive or destroyed by a worker.
The first runner installs :mod:`app.support.gc_guard`: a garbage collection in a worker could
destroy
a Qt object there and deadlock the GUI thread (see that module).  Hence the rule for callers:
``work`` must close over plain data (a ``design.copy()``, ids, numbers), never over widgets,
documents or other QObjects.
"""

from __future__ import annotations

import contextlib
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from typing import Literal

from PySide6.QtCore import QCoreApplication, QObject, Qt, QThread, Signal

from app.support import gc_guard

Outcome = Literal["progress", "result", "error", "cancelled"]


class Cancelled(Exception):  # noqa: N818 (a signal between a job and its runner, not an error)
    """Raised inside a job that noticed it was cancelled (:meth:`Task.check`)."""


def describe_error(err: Exception) -> str:
    """``"ValueError: no such knob"``: how a failed job is reported by default."""
    return f"{type(err).__name__}: {err}"


class Task:
    """One submitted job as the job itself sees it; every method is safe from any thread."""

    def __init__(self, runner: Runner, describe: Callable[[Exception], str]):
        self._stop = threading.Event()
        self._runner = weakref.ref(runner)
        """Read only in the GUI thread (a worker must never hold a QObject alive)."""
        self.describe = describe

    def cancel(self) -> None:
        """Ask the job to stop at its next check (its reports are dropped from now on)."""
        self._stop.set()

    def cancelled(self) -> bool:
        return self._stop.is_set()

    def check(self) -> None:
        """Raise :class:`Cancelled` if the job was cancelled (call it between steps)."""
        if self._stop.is_set():
            raise Cancelled

    def progress(self, done: int, total: int, what: str = "") -> None:
        """Report progress (``total`` 0: unknown); raises :class:`Cancelled` when cancelled,
        so a progress report is also a cancellation point."""
        self.check()
        _post(self, "progress", (done, total, what))

    def runner(self) -> Runner | None:
        return self._runner()


Work = Callable[[Task], object]
"""A job: called in a worker thread with its :class:`Task`; returns the result."""


class Lane:
    """Worker threads shared by the runners that use it: at most ``workers`` jobs at once,
    started in the order submitted; a thread ends as soon as the lane has nothing queued."""

    def __init__(self, name: str, workers: int = 1):
        self.name = name
        self.workers = workers
        self._queue: deque[tuple[Task, Work]] = deque()
        self._threads: set[threading.Thread] = set()
        self._lock = threading.Lock()
        _LANES.append(self)

    def put(self, task: Task, work: Work) -> None:
        with self._lock:
            self._queue.append((task, work))
            with _LIVE_LOCK:
                _LIVE.add(task)
            if len(self._threads) < self.workers:
                thread = threading.Thread(target=self._serve, name=f"headroom-{self.name}",
                                          daemon=True)
                self._threads.add(thread)
                thread.start()

    @property
    def idle(self) -> bool:
        with self._lock:
            return not self._threads

    def join(self, timeout_s: float) -> bool:
        """Wait until this lane's threads have ended (False on timeout); cancels nothing."""
        deadline = time.monotonic() + timeout_s
        while True:
            with self._lock:
                threads = list(self._threads)
            if not threads:
                return True
            for thread in threads:
                thread.join(max(0.0, deadline - time.monotonic()))
                if thread.is_alive():
                    return False

    def _serve(self) -> None:
        me = threading.current_thread()
        try:
            while True:
                with self._lock:
                    if not self._queue:  # idle and gone in one step: put() never counts
                        self._threads.discard(me)  # on a thread that is on its way out
                        return
                    task, work = self._queue.popleft()
                try:
                    _run(task, work)
                finally:
                    with _LIVE_LOCK:
                        _LIVE.discard(task)
                del task, work  # nothing of a finished job stays alive in the worker
        finally:  # a job that raised past Exception (KeyboardInterrupt) ends its thread
            with self._lock:
                self._threads.discard(me)


_LANES: list[Lane] = []
_LIVE: set[Task] = set()
"""Tasks queued or running (:func:`wait_idle` cancels them)."""
_LIVE_LOCK = threading.Lock()

DEFAULT = Lane("jobs", workers=2)
"""For runners that name no lane of their own."""


def _run(task: Task, work: Work) -> None:
    if task.cancelled():
        return  # superseded before it started
    outcome: Outcome
    try:
        payload: object = work(task)
        outcome = "result"
    except Cancelled:
        payload, outcome = None, "cancelled"
    except Exception as err:  # reported to the runner as text, never raised in the worker
        payload, outcome = task.describe(err), "error"
    if not task.cancelled():
        _post(task, outcome, payload)


class _Relay(QObject):
    """Carries every report from the workers to the GUI thread (queued), then to the runner."""

    posted = Signal(object, str, object)

    def __init__(self, app: QCoreApplication):
        super().__init__(app)
        self.posted.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    def _deliver(self, task: Task, outcome: str, payload: object) -> None:
        runner = task.runner()
        if runner is not None:
            with contextlib.suppress(RuntimeError):  # its C++ side went with its parent
                runner._receive(task, outcome, payload)


_relay: _Relay | None = None


def _post(task: Task, outcome: Outcome, payload: object) -> None:
    relay = _relay
    if relay is not None:
        with contextlib.suppress(RuntimeError):  # the application (and its relay) is gone
            relay.posted.emit(task, outcome, payload)


def _start() -> None:
    """The relay of this application, and the GC guard (once per application)."""
    global _relay  # noqa: PLW0603 (one relay per application)
    app = QCoreApplication.instance()
    if app is None:
        raise RuntimeError("background jobs need a Qt application")
    if QThread.currentThread() != app.thread():
        raise RuntimeError("runners are created in the GUI thread")
    try:
        current = _relay is not None and _relay.parent() == app
    except RuntimeError:  # the relay went with an earlier application
        current = False
    if not current:
        gc_guard.install()  # a collection in a worker could destroy widgets there
        _relay = _Relay(app)


class Runner(QObject):
    """Runs its caller's jobs in ``lane``, the newest one winning; reports in the GUI thread.

    ``describe`` turns a job's exception into the ``failed`` text.
    """

    progressed = Signal(int, int, str)
    """(done, total, what) of the current job (total 0: unknown)."""
    finished = Signal(object)
    """The current job's result."""
    failed = Signal(str)
    """The current job's error, as text (also "Cancelled" when it gave up by itself)."""

    def __init__(self, parent: QObject | None = None, *, lane: Lane | None = None,
                 describe: Callable[[Exception], str] = describe_error):
        super().__init__(parent)
        _start()
        self.lane = lane or DEFAULT
        self.describe = describe
        self.dropped = 0
        """Outcomes that arrived after a newer submit or a cancel (tests read it)."""
        self._task: Task | None = None

    @property
    def busy(self) -> bool:
        """Whether the latest job is under way (not yet reported, not cancelled)."""
        return self._task is not None and not self._task.cancelled()

    def submit(self, work: Work) -> Task:
        """Run ``work`` in the background, superseding the job before it."""
        self.cancel()
        task = Task(self, self.describe)
        self._task = task
        self.lane.put(task, work)
        return task

    def cancel(self) -> None:
        """Stop the current job (cooperatively) and forget it: nothing of it arrives."""
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def _receive(self, task: Task, outcome: str, payload: object) -> None:
        if task is not self._task or task.cancelled():
            if outcome != "progress":
                self.dropped += 1
            return
        if outcome == "progress":
            done, total, what = payload if isinstance(payload, tuple) else (0, 0, "")
            self.progressed.emit(done, total, what)
            return
        self._task = None
        if outcome == "result":
            self.finished.emit(payload)
        else:
            self.failed.emit(str(payload) if outcome == "error" else "Cancelled")


def idle() -> bool:
    """Whether no job runs or waits in any lane."""
    return all(lane.idle for lane in list(_LANES))


def wait_idle(timeout_s: float = 10.0) -> bool:
    """Cancel every job, then wait until every lane's threads have ended (False on timeout).

    For an orderly end (no result arrives once the window is gone) and between tests; never
    on a user's path: it blocks the GUI thread while the jobs reach their next check."""
    with _LIVE_LOCK:
        live = list(_LIVE)
    for task in live:
        task.cancel()
    deadline = time.monotonic() + timeout_s
    return all(lane.join(max(0.0, deadline - time.monotonic())) for lane in list(_LANES))
