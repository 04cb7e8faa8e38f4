"""Where the bundled resources live (``resources/`` beside ``models/``; PyInstaller keeps the
same layout)."""

from pathlib import Path

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
