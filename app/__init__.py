"""Headroom's Qt side: the desktop app, report rendering and the command line."""
