"""The PySide6 desktop app: a thin layer over simdup_gui.core."""
