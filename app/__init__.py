"""Headroom's Qt side: the desktop app, report rendering and the command line."""

import ctypes
import sys

if sys.version_info < (3, 12):
    # PySide6 6.12.0 on Python 3.11: SignalInstance.emit() returns True without a new
    # reference, so every emit from Python (ours and pyqtgraph's) drops one reference to True
    # until the interpreter aborts ("Fatal Python error: bool_dealloc").  Likewise every
    # void-returning method (QPainter.setPen, QRectF.setWidth, QObject.setObjectName, ...)
    # returns None without a new reference: a report of a few pages exhausts None's count
    # ("none_dealloc").  Python 3.12 made these immortal; do the same here by giving them a
    # reference count no session exhausts.
    for _obj in (True, False, None):
        ctypes.c_ssize_t.from_address(id(_obj)).value += 1 << 40
