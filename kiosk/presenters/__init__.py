"""Screen logic without Kivy: state + events → view models, user intents → actions.

Everything the touchscreen shows is computed here as plain frozen dataclasses, so the
logic is tested without a display. The Kivy screens only copy view-model fields into
widgets and call one presenter method per tap. Nothing in this package imports Kivy.
"""
