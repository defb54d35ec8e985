"""App lifecycle: a kill mid-game loses nothing; ``companion`` starts and stops the app.

These run Kivy in child processes: after an ``App.run()`` a process's later screenshots
come out blank, and a SIGKILL must hit a real, separate process. The file name sorts
last so the in-process widget tests run before anything here.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.session import Session
from kiosk.app import Kiosk
from kiosk.presenters.home import HomePresenter
from kiosk.storage import JOURNAL_FILE
from tests.kiosk.ui import close_kiosk, open_kiosk, tap_button

ROOT = Path(__file__).resolve().parents[2]


def child_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    home = tmp_path / "kivy-home"
    home.mkdir(exist_ok=True)
    env.update(
        KIVY_NO_ARGS="1",
        KIVY_NO_CONSOLELOG="1",
        KIVY_NO_FILELOG="1",
        KIVY_LOG_MODE="PYTHON",
        KIVY_HOME=str(home),
        KCFG_GRAPHICS_WIDTH="800",
        KCFG_GRAPHICS_HEIGHT="480",
        PYTHONPATH=str(ROOT),
    )
    if not env.get("DISPLAY"):
        env["SDL_VIDEODRIVER"] = "offscreen"
    return env


def run_child(code: str, tmp_path: Path, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=ROOT,
        env=child_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


KILLED_MID_GAME = """
    import json, os, signal, sys
    from pathlib import Path
    from kivy.base import EventLoop
    from kivy.core.window import Window
    from companion.bot import RandomBot
    from kiosk.app import Kiosk
    EventLoop.ensure_window()
    kiosk = Kiosk(Path(sys.argv[1] if len(sys.argv) > 1 else {data_dir!r}), seed=lambda: 99)
    Window.add_widget(kiosk.manager)
    kiosk.open_setup("builders")
    kiosk.start_game()
    play = kiosk.play
    bot = RandomBot(3)
    for _ in range(12):
        play.submit(bot.choose(play.rules, play.state))
    play.undo()
    print(json.dumps({{"game_id": play.session.game_id,
                       "state": play.rules.dump_position(play.state),
                       "can_redo": play.session.can_redo}}), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.fixture
def kiosk_after_kill(tmp_path: Path) -> Iterator[tuple[Kiosk, dict[str, object]]]:
    data_dir = tmp_path / "data"
    result = run_child(KILLED_MID_GAME.format(data_dir=str(data_dir)), tmp_path)
    assert result.returncode == -signal.SIGKILL, result.stderr[-2000:]
    before = json.loads(result.stdout.strip().splitlines()[-1])
    kiosk = open_kiosk(data_dir)
    yield kiosk, before
    close_kiosk(kiosk)


def test_a_game_killed_mid_turn_resumes_from_home(
    kiosk_after_kill: tuple[Kiosk, dict[str, object]],
) -> None:
    kiosk, before = kiosk_after_kill
    resumable = HomePresenter(kiosk.journal).view().resumable
    assert [r.game_id for r in resumable] == [before["game_id"]]
    tap_button(kiosk, "Builders of the Colossus — Player 1, Player 2")
    assert kiosk.manager.current == "play"
    play = kiosk.play
    assert play is not None
    assert play.rules.dump_position(play.state) == before["state"]
    assert play.session.can_redo == before["can_redo"] is True  # undo history survives
    tap_button(kiosk, "Redo", exact=True)
    assert play.session.can_undo


def test_journal_survives_without_the_app(tmp_path: Path) -> None:
    """The same kill, read back with the journal alone (what `companion games` sees)."""
    data_dir = tmp_path / "data"
    result = run_child(KILLED_MID_GAME.format(data_dir=str(data_dir)), tmp_path)
    assert result.returncode == -signal.SIGKILL
    before = json.loads(result.stdout.strip().splitlines()[-1])
    with Journal(data_dir / JOURNAL_FILE) as journal:
        session, damage = Session.resume(journal, int(str(before["game_id"])))
        assert damage is None
        assert session.rules.dump_position(session.state) == before["state"]


def test_companion_command_starts_the_app_and_it_stops_cleanly(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    result = run_child(
        f"""
        import sys
        from kivy.clock import Clock
        from kivy.app import App
        import kiosk.app
        from kiosk.cli import main

        seen = []

        def check(_dt):
            app = App.get_running_app()
            seen.append(app.root.current)
            seen.append(tuple(app.root.size))
            app.stop()

        def on_start(self):
            Clock.schedule_once(check, 0.3)
        kiosk.app.CompanionApp.on_start = on_start
        status = main(["--data-dir", {str(data_dir)!r}])
        print("status", status, seen, flush=True)
        sys.exit(status)
        """,
        tmp_path,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "status 0 ['home', (800, 480)]" in result.stdout
    assert (data_dir / JOURNAL_FILE).exists()


def test_a_damaged_journal_row_is_reported_and_play_goes_on(
    kiosk_after_kill: tuple[Kiosk, dict[str, object]],
) -> None:
    import sqlite3

    kiosk, before = kiosk_after_kill
    game_id = int(str(before["game_id"]))
    db = sqlite3.connect(kiosk.data_dir / JOURNAL_FILE)
    with db:  # a torn write: the 5th entry's text no longer matches its checksum
        db.execute(
            "UPDATE entries SET payload = substr(payload, 1, 5) WHERE game_id = ? AND seq = 5",
            (game_id,),
        )
    db.close()
    tap_button(kiosk, "Builders of the Colossus — Player 1, Player 2")
    play = kiosk.play
    assert play is not None and len(play.session.actions) == 4
    banner = kiosk.play_screen.ids.banner
    assert banner.opacity == 1 and "damaged at move 5" in banner.text
    shown = play.view().banner
    assert shown is not None and shown.code == "journal_error"
