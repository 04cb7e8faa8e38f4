"""Headroom's Qt side: the desktop app, report rendering and the command line.

Importing it applies nothing: the command line runs without Qt, and whatever starts Qt
installs :mod:`app.support.qt_fixes` first.
"""
