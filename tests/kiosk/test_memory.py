"""Memory the kiosk hands back: Kivy's settings that keep the GL driver small, the
setup screen's widgets dropped on leaving it, and freed cycles collected and trimmed.

Figures are the bench's (bench/bench_kiosk.py); these tests check the mechanisms.
"""

from __future__ import annotations

import gc
import itertools
import os
import subprocess
import sys
import time
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.app import RELEASE_MEMORY_AFTER_S, Kiosk
from kiosk.kivy_env import APP_ENVIRONMENT, QUIET_ENVIRONMENT, kivy_environment
from kiosk.memory import release_freed_memory
from tests.kiosk.helpers import ROOT
from tests.kiosk.ui import close_kiosk, frames, open_kiosk, tap_button


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Kiosk]:
    k = open_kiosk(tmp_path)
    yield k
    close_kiosk(k)


def test_kivy_environment_fills_only_what_is_missing(tmp_path: Path) -> None:
    added = kivy_environment(
        {"KCFG_GRAPHICS_MAXFPS": "0", "DISPLAY": ":9"},
        quiet=True,
        kivy_home=tmp_path,
        headless=True,
    )
    assert "KCFG_GRAPHICS_MAXFPS" not in added  # the caller's value wins
    assert added["LP_NUM_THREADS"] == "0" and added["KCFG_GRAPHICS_MULTISAMPLES"] == "0"
    assert added["KIVY_HOME"] == str(tmp_path)
    assert QUIET_ENVIRONMENT.items() <= added.items()
    assert "SDL_VIDEODRIVER" not in added  # there is a display
    assert kivy_environment({}, headless=True)["SDL_VIDEODRIVER"] == "offscreen"
    assert kivy_environment({}).keys() == APP_ENVIRONMENT.keys()


def test_the_app_module_sets_its_environment_before_kivy_loads() -> None:
    """``companion app`` imports kiosk.app first: Kivy must then see the kiosk's settings
    (no MSAA window, llvmpipe on the main thread), not its own defaults."""
    code = (
        "import os, kiosk.app\n"
        "from kivy.config import Config\n"
        "print(Config.getint('graphics', 'multisamples'), Config.getint('graphics', 'maxfps'),"
        " os.environ['LP_NUM_THREADS'], os.environ['KIVY_IMAGE'])\n"
    )
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("KCFG_", "LP_", "KIVY_IMAGE"))
    }
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr[-1000:]
    assert result.stdout.split() == ["0", "30", "0", "sdl2,tex,dds"]


def test_the_app_loads_neither_the_fleet_nor_the_sensing_board_it_does_not_use() -> None:
    """A table without ``[fleet]`` or ``[board]`` does not pay
    for paho-mqtt, the fleet's payload models or the sensing board's inference; and no
    game's rules load before that game is played (Home lists them from summaries; the
    card tiles ask the game's own ``action_cells``)."""
    code = (
        "import sys, kiosk.app\n"
        "print(sorted(m for m in sys.modules if m.startswith("
        "('paho', 'kiosk.fleet', 'kiosk.board_sensing', 'kiosk.presenters.sensing',"
        " 'companion.games.'))))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr[-1000:]
    assert result.stdout.strip() == "[]"


def test_release_frees_unreachable_cycles() -> None:
    class Node:
        other: object = None

    first, second = Node(), Node()
    first.other, second.other = second, first  # a cycle: reference counting can't free it
    gone = weakref.ref(first)
    gc.disable()  # so only the release itself can collect it
    try:
        del first, second
        assert gone() is not None
        trimmed = release_freed_memory()
    finally:
        gc.enable()
    assert gone() is None
    assert trimmed is sys.platform.startswith("linux")  # glibc's malloc_trim here


def test_leaving_setup_drops_its_widgets_and_they_are_freed(kiosk: Kiosk) -> None:
    tap_button(kiosk, "Kolossus")
    body = kiosk.setup_screen.ids.body
    assert len(body.children) > 5
    some_row = weakref.ref(body.children[0])
    tap_button(kiosk, "Start game")
    frames(3)
    assert kiosk.manager.current == "play"
    assert body.children == []
    # The kiosk's own release runs once the window is still; call it now.
    release_freed_memory()
    assert some_row() is None, "the setup rows are still alive after leaving the screen"
    # Coming back builds them again.
    kiosk.go_home()
    tap_button(kiosk, "Kolossus")
    assert len(body.children) > 5


def test_a_closed_kiosk_is_freed_though_its_name_field_was_typed_in(tmp_path: Path) -> None:
    """Kivy's TextInput keeps the last field whose cursor moved (its ``@triggered``
    ``_adjust_viewport`` holds its last arguments) for the whole run; through it a
    closed kiosk stayed alive, and every full collection walked it again."""
    from kivy.uix.textinput import TextInput

    kiosk = open_kiosk(tmp_path)
    tap_button(kiosk, "Builders")
    field = next(w for w in kiosk.setup_screen.walk(restrict=True) if isinstance(w, TextInput))
    field.insert_text("Ann")  # moves the cursor: Kivy's trigger now holds the field
    frames(2)
    close_kiosk(kiosk)
    gone = weakref.ref(kiosk)
    del kiosk, field
    gc.collect()
    assert gone() is None, "the closed kiosk is still alive"


def test_memory_goes_back_once_the_window_is_still(
    kiosk: Kiosk, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each frame allocates afresh: the release waits for RELEASE_MEMORY_AFTER_S without
    a frame, and runs again only after something new was drawn.

    Flips and releases are stamped with Kivy's own frame clock (``Clock.get_time``, what
    its timeouts count against), not the wall clock: on a loaded machine a frame drawn
    late in its tick would otherwise look closer to the release than it was.
    """
    from kivy.clock import Clock
    from kivy.core.window import Window

    import kiosk.navigation as kiosk_navigation

    releases: list[float] = []
    flips: list[float] = []

    def counted() -> bool:
        releases.append(Clock.get_time())
        return True

    def flipped(*_: object) -> None:
        flips.append(Clock.get_time())

    monkeypatch.setattr(kiosk_navigation, "release_freed_memory", counted)
    Window.bind(on_flip=flipped)
    try:
        tap_button(kiosk, "Kolossus")
        tap_button(kiosk, "Start game")
        for _ in range(2):  # draw, then let the window be still for a while, twice
            Window.canvas.ask_update()
            frames(2)
            drawn = len(releases)
            deadline = time.monotonic() + 2 * RELEASE_MEMORY_AFTER_S + 0.5
            while time.monotonic() < deadline:
                time.sleep(0.1)
                frames(1)
            assert len(releases) > drawn, "no release after the window went still"
    finally:
        Window.unbind(on_flip=flipped)
    # A release before the first frame seen here was armed by the fixture's last frame,
    # which was drawn before ``flipped`` listened: on a loaded machine the first tap can
    # come more than RELEASE_MEMORY_AFTER_S after it. There is no frame to check it by.
    releases = [released for released in releases if released > flips[0]]
    for released in releases:
        before = [f for f in flips if f < released]
        # Kivy's clock compares its own times: a release fired 10 µs short of the second
        # was seen once. Mid-drawing would be a frame (33 ms) short, or more.
        assert released - before[-1] >= RELEASE_MEMORY_AFTER_S - 1e-3, "released mid-drawing"
    # In one EventLoop.idle() the clock's events (the release) run before the window is
    # drawn, so a frame stamped with a release's own time was drawn after that release (a
    # loaded machine puts both in one tick).
    for earlier, later in itertools.pairwise(releases):
        assert any(earlier <= f < later for f in flips), "released twice without a new frame"


def test_the_frame_after_a_move_saves_the_games_due_snapshot(kiosk: Kiosk) -> None:
    """A move's commit does not wait for the position dumped every
    SNAPSHOT_EVERY entries; the kiosk writes it in the frame after the one showing the
    move (its LEDs and screen never wait for it)."""
    from companion.bot import RandomBot
    from companion.session import SNAPSHOT_EVERY

    tap_button(kiosk, "Kolossus")
    tap_button(kiosk, "Start game")
    play = kiosk.play
    assert play is not None
    session = play.session
    bot = RandomBot(5)
    while len(session.actions) < SNAPSHOT_EVERY:
        action = bot.choose(session.rules, session.state)
        assert action is not None, (session.rules.name, len(session.actions), session.outcome)
        assert play.submit(action)
    journal, game_id = session.journal, session.game_id
    assert journal is not None and game_id is not None
    assert journal.snapshot(game_id) is None  # the 25th move was acknowledged without it
    frames(2)
    saved = journal.snapshot(game_id)
    assert saved is not None and saved.seq == SNAPSHOT_EVERY
