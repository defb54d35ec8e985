"""The face of the companion: the Kivy touchscreen app, the shop demo, and the CLI.

This package is the composition root: it reads configuration and files, creates the
journal, the hardware drivers and the session, and wires them together. Kivy is only
imported by the app modules, so the CLI's headless commands run without a display.
"""
