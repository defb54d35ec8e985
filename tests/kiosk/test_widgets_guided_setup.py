"""Guided setup on the real screens, offscreen at 800×480: the setup screen's option,
each game's steps with the board lit as the LEDs are, Back / Done / Skip by touch, the
same step after the app is closed and the game resumed, and ``Kiosk.start_lesson``. Saves
screen-guided-setup-<game>.png to look at."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.highlights import Highlight
from firmware_bridge.buttons import ButtonPressed
from firmware_bridge.dice.messages import DieResult
from kiosk.app import Kiosk
from tests.helpers.kiosk_widgets import cut_texts, shoot
from tests.helpers.teaching import GAMES
from tests.kiosk.ui import (
    buttons,
    close_kiosk,
    find_button,
    frames,
    open_kiosk,
    tap,
    tap_button,
)

#: The step each game's screenshot shows: one that lights something where it can.
SHOWN_STEP = {
    "kolossus": "Blue warband: Ann",
    "beast_master": "Bob's Colossus",
    "colossi": "The centre",
    "colossus_solo": "The trackers",
    "builders": "Bob's Runes and cards",
}


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Kiosk]:
    k = open_kiosk(tmp_path, seed=12)
    yield k
    close_kiosk(k)


def _released(button: object) -> None:
    """Let the last tap's button come back up (Kivy keeps it down for a moment) so the
    screenshot shows the screen as a player sees it between taps."""
    for _ in range(200):
        if getattr(button, "state", "normal") == "normal":
            return
        frames(1)
        time.sleep(0.005)


def _start_guided(kiosk: Kiosk, game: str, names: list[str]) -> list[tuple[Highlight, ...]]:
    """Setup, "Guided setup" switched on by touch, "Start game"; returns the LED feed."""
    fed: list[tuple[Highlight, ...]] = []
    kiosk.on_highlights = fed.append
    kiosk.open_setup(game)
    assert kiosk.setup is not None
    kiosk.setup.names[:] = names
    kiosk.setup_screen.refresh()
    tap(next(b for b in buttons(kiosk) if b.text.startswith("Guided setup: off")))
    assert kiosk.setup.guided
    tap_button(kiosk, "Start game")
    return fed


@pytest.mark.parametrize("game", GAMES)
def test_guided_setup_walks_every_step_by_touch_then_plays_0_2_1(kiosk: Kiosk, game: str) -> None:
    names = ["Ann"] if game == "colossus_solo" else ["Ann", "Bob", "Cleo"]
    fed = _start_guided(kiosk, game, names)
    assert kiosk.manager.current == "guided_setup"
    guided = kiosk.guided
    assert guided is not None
    screen = kiosk.guided_screen
    count = len(guided.steps)
    assert find_button(kiosk, "Back").disabled
    for number in range(1, count + 1):
        step = guided.steps[number - 1]
        assert screen.ids.progress.text == f"Step {number} of {count}"
        assert screen.ids.step_title.text == step.title
        if step.ruling:  # a plain step (shuffling the decks) rests on no ruling
            assert screen.ids.ruling.text.startswith(f"The rule: {step.ruling} · ")
        else:
            assert screen.ids.ruling.text == ""
        assert fed[-1] == step.highlights  # the LEDs light this step
        board = guided.board_view()
        if board is None:
            assert screen.board is None or screen.board.parent is None
        else:  # the on-screen board shows what the LEDs show
            assert screen.board is not None and screen.board.parent is not None
            assert set(board.looks) == {light.cell for light in step.highlights}
        if step.title == SHOWN_STEP[game]:
            _released(find_button(kiosk, "Done"))
            shoot(kiosk, f"guided-setup-{game}")
        if number == 2:
            tap_button(kiosk, "Back")
            assert screen.ids.progress.text == f"Step 1 of {count}"
            tap_button(kiosk, "Done")
        tap_button(kiosk, "Done: start playing" if number == count else "Done", exact=True)
    assert kiosk.manager.current == "play" and kiosk.guided is None
    assert kiosk.play is not None and fed[-1] == kiosk.play.highlights()


def test_a_closed_app_resumes_guided_setup_at_the_same_step_then_skip_plays_0_2_1(
    tmp_path: Path,
) -> None:
    kiosk = open_kiosk(tmp_path, seed=12)
    try:
        _start_guided(kiosk, "kolossus", ["Ann", "Bob"])
        for _ in range(6):
            tap_button(kiosk, "Done", exact=True)
        assert kiosk.guided_screen.ids.step_title.text == "Blue warband: Ann"
        assert kiosk.play is not None and kiosk.play.session.game_id is not None
        game_id = kiosk.play.session.game_id
    finally:
        close_kiosk(kiosk)  # the power goes mid-setup
    kiosk = open_kiosk(tmp_path, seed=12)
    try:
        fed: list[tuple[Highlight, ...]] = []
        kiosk.on_highlights = fed.append
        assert kiosk.resume(game_id)
        assert kiosk.manager.current == "guided_setup"
        screen = kiosk.guided_screen
        assert screen.ids.step_title.text == "Blue warband: Ann"
        assert screen.ids.progress.text == "Step 7 of 11"
        assert {light.cell for light in fed[-1]} == {
            "0,0",
            "0,1",
            "0,2",
            "1,0",
            "1,1",
            "1,2",
            "2,0",
            "2,1",
        }  # K-R02: the NW start zone, lit again
        tap_button(kiosk, "Skip setup")
        assert kiosk.manager.current == "play"
    finally:
        close_kiosk(kiosk)
    kiosk = open_kiosk(tmp_path, seed=12)
    try:
        assert kiosk.resume(game_id)
        assert kiosk.manager.current == "play"  # skipped is skipped, after a restart too
    finally:
        close_kiosk(kiosk)


def test_home_leaves_the_setup_and_resume_brings_it_back(kiosk: Kiosk) -> None:
    _start_guided(kiosk, "beast_master", ["Ann", "Bob"])
    tap_button(kiosk, "Done", exact=True)
    tap_button(kiosk, "Home")
    assert kiosk.manager.current == "home" and kiosk.guided is None
    assert kiosk.play is not None and kiosk.play.session.game_id is not None
    assert kiosk.resume(kiosk.play.session.game_id)
    assert kiosk.guided_screen.ids.progress.text.startswith("Step 2 of ")


def test_the_table_buttons_step_through_the_setup_too(kiosk: Kiosk) -> None:
    """Confirm is Done, undo is Back (the buttons beside the board, hardware.md)."""
    _start_guided(kiosk, "builders", ["Ann", "Bob"])
    progress = kiosk.guided_screen.ids.progress
    kiosk.on_button(ButtonPressed(button="confirm", action="confirm"))
    assert progress.text.startswith("Step 2 of ")
    kiosk.on_button(ButtonPressed(button="undo", action="undo"))
    assert progress.text.startswith("Step 1 of ")
    kiosk.on_button(ButtonPressed(button="end_turn", action="end_turn"))  # nothing to end
    assert progress.text.startswith("Step 1 of ") and kiosk.manager.current == "guided_setup"


def test_learn_starts_guided_setup_then_teach_mode(kiosk: Kiosk) -> None:
    """``Kiosk.start_lesson``: the one call behind "Learn <game> in 10 minutes"."""
    kiosk.start_lesson("builders")
    assert kiosk.manager.current == "guided_setup"
    tap_button(kiosk, "Skip setup")
    assert kiosk.manager.current == "play"
    assert kiosk.play is not None and kiosk.play.teacher.progress is not None


def test_a_die_rolled_during_the_setup_is_not_played_and_says_so(kiosk: Kiosk) -> None:
    """The table's dice reach the setup on screen, not the game behind it (K-R07: a roll
    is an action of the game, asked for by it): the game gets no roll, the screen says
    why, and the next step forgets the note."""
    _start_guided(kiosk, "colossi", ["Ann", "Bob"])
    assert kiosk.manager.current == "guided_setup" and kiosk.play is not None
    session = kiosk.play.session
    played = len(session.actions)
    kiosk.hub.post(DieResult(device="tray", die_id=1, face=3, faces=6, seq=1))
    kiosk.pump()
    frames(2)
    assert len(session.actions) == played
    assert kiosk.guided_screen.ids.next.text.startswith("A die showed 3: not used.")
    assert cut_texts(kiosk, "guided setup, a die's note") == []
    tap_button(kiosk, "Done", exact=True)
    assert kiosk.guided_screen.ids.next.text.startswith("Next: ")


def test_guided_setup_is_off_unless_chosen(kiosk: Kiosk) -> None:
    kiosk.open_setup("kolossus")
    tap_button(kiosk, "Start game")
    assert kiosk.manager.current == "play" and kiosk.guided is None
