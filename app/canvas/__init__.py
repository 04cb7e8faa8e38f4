"""The design canvas: a scene that mirrors the document, its items, the view, and one module
per interaction (drop from the palette, linking, moving, clipboard, delete, rubber band)."""
