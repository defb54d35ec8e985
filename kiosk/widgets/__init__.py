"""Kivy widgets: buttons and labels in the kiosk's style, the board, charts, LED mirror."""
