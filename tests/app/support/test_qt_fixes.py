"""The PySide6 workaround makes True, False and None immortal, once however often installed."""

from __future__ import annotations

import sys

import pytest

from app.support import qt_fixes


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="immortal already on Python 3.12+")
def test_install_reserves_references_once() -> None:
    qt_fixes.install()  # the conftest installed it already: a second time adds nothing
    counts = [sys.getrefcount(o) for o in (True, False, None)]
    assert all(c > 1 << 59 for c in counts)
    qt_fixes.install()
    assert all(abs(sys.getrefcount(o) - c) < 1 << 20
               for o, c in zip((True, False, None), counts, strict=True))
