"""Lessons walked by touch in the real app under Xvfb with the player's own moves taken
from the action menu, and one lesson with "Play it" (and "Show me") throughout (every
lesson both ways in the long run: ``COMPANION_FAULTS=long``, docs/testing.md).
Clicks are ``xdotool`` events at the places the ``COMPANION_UI_MAP`` hook reports (the
fixtures in ``tests/kiosk/conftest.py``); dice are rolled in software.

Every step is photographed from the X server (``COMPANION_LESSON_SHOTS=<dir>`` keeps
the pictures to look at; otherwise they go to the test's temporary folder), and each
photographed step must show its goal in the lesson's heading. The end summary must
count only the steps the player did: none with "Play it", at least one with their own
moves.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from companion.games import get_rules
from kiosk.teaching.lessons import LessonStep, lesson_for
from tests.faults.scale import is_long
from tests.helpers.xvfb_app import NEEDS_XVFB, App, brief, grab

# Each walk is a real app under Xvfb: handed out first (tests/conftest.py), not last.
pytestmark = [pytest.mark.slow, NEEDS_XVFB]

GAMES = ("kolossus", "beast_master", "colossi", "colossus_solo", "builders")
#: Clicks a lesson may take (rolls, pauses, the table's fix and the steps themselves).
MAX_CLICKS = 160
#: Buttons the walk clicks to keep the game going, before anything else.
GOING_ON = ("Got it", "Roll in software", "Done", "All done")


def _start_lesson(app: App, game: str) -> None:
    """Home's "Learn it" beside the game, then every guided-setup step "Done"."""
    title = get_rules(game).title
    app.wait("Home", lambda ui: ui["screen"] == "home")
    app.wait(title, lambda _ui: app.find(title + "\n") is not None)
    row = app.find(title + "\n")  # its name, then its player counts
    assert row is not None
    learn = [
        b for b in app.buttons() if b["text"].startswith("Learn") and abs(b["y"] - row["y"]) <= 12
    ]
    assert len(learn) == 1, f"no Learn beside {title}: {brief(app.ui())}"
    app.click_button(learn[0])
    ui = app.wait("the guided setup", lambda ui: ui["screen"] == "guided_setup")
    for _ in range(40):
        if ui["screen"] != "guided_setup":
            break
        last = app.find("Done: start playing", exact=True)
        app.click_button(last if last is not None else _button(app, "Done"))
        ui = app.ui()
    app.wait("the lesson", lambda ui: ui["screen"] == "play")


def _button(app: App, text: str) -> dict[str, Any]:
    found = app.find(text, exact=True)
    assert found is not None, f"no {text!r}: {brief(app.ui())}"
    return found


def _heading(ui: dict[str, Any]) -> str:
    return next((t for t in ui["texts"] if t.startswith(("Lesson · step", "Learn "))), "")


def _own_move(app: App, game: str, step: LessonStep, tried: set[str]) -> bool:
    """Click an action of the step's kind from the action menu (a group first when the
    menu shows groups: its heading is the family's title), one not tried in this step
    yet; False when none is there."""
    rules = get_rules(game)
    labels = [rules.family_title(kind) for kind in step.types]
    for button in app.buttons():
        text = button["text"]
        if text in tried or not text.startswith(tuple(labels)):
            continue
        tried.add(text)
        app.click_button(button)
        return True
    return False


#: The walks: in the suite, the two card games' lessons by the player's own moves and
#: one with "Play it" throughout (what the summary counts does not depend on the game;
#: every lesson's steps are walked by touch offscreen in tests/kiosk/test_widgets_lesson.py);
#: in the long run every lesson both ways (the board games' walks take 15-36 s each).
SUITE_WALKS = ("builders", "colossus_solo")
WALKS = [
    pytest.param(game, True, id=f"{game}-own-moves")
    for game in (GAMES if is_long() else SUITE_WALKS)
] + [
    pytest.param(game, False, id=f"{game}-play-it")
    for game in (GAMES if is_long() else ("colossus_solo",))
]


@pytest.mark.parametrize(("game", "own"), WALKS)
def test_the_lesson_walked_by_touch(app: App, tmp_path: Path, game: str, own: bool) -> None:
    lesson = lesson_for(game)
    assert lesson is not None
    shots = Path(os.environ.get("COMPANION_LESSON_SHOTS", tmp_path / "shots"))
    shots.mkdir(parents=True, exist_ok=True)
    mode = "own" if own else "play-it"
    _start_lesson(app, game)
    photographed: set[str] = set()
    tried: dict[int, set[str]] = {}
    clicked: list[str] = []  # what was clicked under which heading, for a failure's message
    for _click in range(MAX_CLICKS):
        ui = app.ui()
        heading = _heading(ui)
        clicked.append(f"{heading[:22]}: {sorted(b['text'][:14] for b in ui['buttons'])}")
        if heading and heading not in photographed:
            photographed.add(heading)
            number = len(photographed)
            grab(app.display, shots / f"{game}-{mode}-{number:02d}.png")
            if heading.startswith("Lesson · step"):
                index = int(heading.split("step ")[1].split(" of ")[0]) - 1
                assert heading.endswith(lesson.steps[index].goal), heading
        if app.find("Keep playing", exact=True) is not None:
            break
        going = next((app.find(t, exact=True) for t in GOING_ON if app.find(t, exact=True)), None)
        if going is not None:
            app.click_button(going)
            continue
        if not heading:  # the panel comes back a frame after the dice or the fix: wait
            app.wait("the lesson panel", lambda ui: bool(_heading(ui)), timeout=4)
            continue
        if own and heading.startswith("Lesson · step"):
            index = int(heading.split("step ")[1].split(" of ")[0]) - 1
            step = lesson.steps[index]
            if step.kind == "try" and _own_move(app, game, step, tried.setdefault(index, set())):
                continue
        for text in ("Play it", "Show me", "Skip\nstep"):
            found = app.find(text, exact=True)
            if found is not None:
                app.click_button(found)
                break
        else:
            raise AssertionError(f"no way forward: {brief(ui)}")
    else:
        raise AssertionError(f"the lesson never ended: {brief(app.ui())}")
    ui = app.ui()
    grab(app.display, shots / f"{game}-{mode}-done.png")
    summary = next(t for t in ui["texts"] if t.startswith("You did "))
    done = int(summary.removeprefix("You did ").split(" of ")[0])
    assert (done >= 1) if own else (done == 0), summary
    shown = sorted(photographed)
    assert len(photographed) > len(lesson.steps), (shown, clicked)  # every step, and the end
