"""The scripted first game of each game (``<game>.toml``; see ``kiosk.teaching.lessons``)."""
