"""Leaving a game saves its position: Home, another game or closing the app makes the
position on the table the journal's latest, the one versioned replay goes on from when
an update changed the rules."""

from __future__ import annotations

from pathlib import Path

from companion.bot import RandomBot
from companion.journal import Journal
from kiosk.storage import JOURNAL_FILE
from tests.kiosk.ui import close_kiosk, open_kiosk, tap_button


def test_home_and_closing_the_app_save_the_games_position(tmp_path: Path) -> None:
    kiosk = open_kiosk(tmp_path)
    try:
        tap_button(kiosk, "Colossus\n")
        tap_button(kiosk, "Start game")
        play = kiosk.play
        assert play is not None and play.session.game_id is not None
        session, game_id = play.session, play.session.game_id
        bot = RandomBot(1)
        session.submit(bot.choose(session.rules, session.state))
        kiosk.go_home()
        saved = kiosk.journal.snapshot(game_id)
        assert saved is not None and saved.seq == 1
        assert saved.position == session.rules.dump_position(session.state)
        assert kiosk.resume(game_id) and kiosk.play is not None
        resumed = kiosk.play.session
        resumed.submit(bot.choose(resumed.rules, resumed.state))
    finally:
        close_kiosk(kiosk)
    with Journal(tmp_path / JOURNAL_FILE) as journal:
        saved = journal.snapshot(game_id)
        assert saved is not None and saved.seq == 2  # written by the app's close
