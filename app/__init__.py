"""Headroom's Qt side: the desktop app, report rendering and the command line."""

from app import pyside_fix

pyside_fix.make_immortal()  # before any Qt call: see the module's docstring
