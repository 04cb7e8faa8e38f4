"""Garbage collection happens on the GUI thread only, so Qt objects in reference cycles are
never destroyed in a worker (which deadlocked a test run: app/support/gc_guard.py)."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest
from PySide6.QtWidgets import QApplication

from app.support import gc_guard


class Node:
    """An object in a reference cycle: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_install_is_idempotent_and_switches_automatic_collection_off(
        qapp: QApplication) -> None:
    guard = gc_guard.install()
    assert guard is not None and gc_guard.install() is guard
    assert not gc.isenabled()
    assert guard.timer.isActive() and guard.parent() is qapp


def test_install_off_the_gui_thread_changes_nothing(qapp: QApplication) -> None:
    out: list[object] = []
    t = threading.Thread(target=lambda: out.append(gc_guard.install()))
    t.start()
    t.join()
    assert out == [None]


def test_cycles_made_garbage_in_a_worker_are_collected_on_the_gui_thread(
        qapp: QApplication) -> None:
    guard = gc_guard.install()
    assert guard is not None
    gc.collect()
    freed_in: list[int] = []
    node = Node()
    weakref.finalize(node, lambda: freed_in.append(threading.get_ident()))
    del node  # garbage now, but only a collection can free it

    def allocate() -> None:  # far past every generation's threshold, in a worker
        for _ in range(20):
            junk = [Node() for _ in range(5 * guard.thresholds[0])]
            del junk

    t = threading.Thread(target=allocate)
    t.start()
    t.join()
    assert freed_in == []  # the worker's allocations collected nothing
    before = guard.collections
    for _ in range(3):
        guard.check()
    assert guard.collections > before
    gc.collect()  # whatever generation the node reached
    assert freed_in == [threading.get_ident()]  # freed here, on the GUI thread


def test_a_large_design_is_settled_and_a_small_one_is_not(
        qtbot: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """A large design's objects move to the permanent generation once it is loaded (a full
    collection over them was a slider step's worst case); a small design changes nothing."""
    frozen: list[bool] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(True))
    assert not gc_guard.settle(gc_guard.LARGE)
    assert frozen == []
    assert gc_guard.settle(gc_guard.LARGE + 1)
    assert frozen == [True]


def test_nothing_is_collected_before_the_first_window_has_painted(qapp: QApplication) -> None:
    """Opening a large design, a collection before the first paint walked the whole design
    just read (it is settled after that paint instead)."""
    from app.support import first_paint  # noqa: PLC0415

    guard = gc_guard.install()
    assert guard is not None
    junk = [Node() for _ in range(5 * guard.thresholds[0])]
    del junk
    first_paint.expect()
    try:
        before = guard.collections
        guard.check()
        assert guard.collections == before
    finally:
        first_paint.flush()
    guard.check()
    assert guard.collections == before + 1


def test_a_large_designs_copy_for_a_worker_is_kept_out_of_collections(
        qapp: QApplication, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy of a large design made for a background job goes into the permanent
    generation (after a collection, so no garbage goes with it); a small one is just made."""
    calls: list[str] = []

    def called(what: str) -> str:
        calls.append(what)
        return what

    monkeypatch.setattr(gc, "freeze", lambda: called("freeze"))
    monkeypatch.setattr(gc, "collect", lambda *_: len(called("collect")))
    assert gc_guard.aside(lambda: "copy", gc_guard.LARGE) == "copy"
    assert calls == []
    assert gc_guard.aside(lambda: called("make"), gc_guard.LARGE + 1) == "make"
    assert calls == ["collect", "make", "freeze"]


def test_collections_wait_while_edits_come_unless_the_garbage_piles_up(
        qapp: QApplication) -> None:
    """A slider drag's steps are not held up by a collection: after an edit the guard waits
    until the edits pause, except when the youngest generation holds many times its
    threshold."""
    guard = gc_guard.install()
    assert guard is not None
    gc.collect()
    # past the threshold, not far past
    junk: list[list[int]] = [[] for _ in range(2 * guard.thresholds[0])]
    gc_guard.hold()
    before = guard.collections
    guard.check()
    assert guard.collections == before  # held: an edit was just made
    guard.quiet_at = 0.0  # the edits paused
    guard.check()
    assert guard.collections == before + 1
    gc_guard.hold()
    junk += [[] for _ in range(gc_guard.HELD_MAX * guard.thresholds[0])]
    guard.check()
    assert guard.collections == before + 2  # piled up: collected even while held
    guard.quiet_at = 0.0
    del junk
