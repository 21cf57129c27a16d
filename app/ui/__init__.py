"""The Qt GUI: the only package that imports PySide6 and qasync (entry point: `app.ui.main.run_gui`)."""
