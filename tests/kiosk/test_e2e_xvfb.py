"""End to end under Xvfb: the real ``companion`` app, real clicks, a die on a pty.

The test starts ``.venv/bin/companion --config <toml> --data-dir <dir>`` (the README's
way) on a private Xvfb display. ``[dice] source = "serial"`` points the app's real
serial reader at a pty whose device end the *test* owns through
``firmware_bridge.dice.sim_tray``: every die face is chosen and sent by the test, in the
tray's wire protocol. The LEDs are the simulated strip. Clicks are ``xdotool`` mouse
events at the window coordinates the app's ``COMPANION_UI_MAP`` test hook reports.

It plays Kolossus from setup through the four Great Quake rolls (each on the pty die),
the Die of Destiny, a class choice, the movement roll and a move, pulls the tray's
cable once on the way, and then checks:

* the journal on disk holds the actions, and every roll in it has exactly the faces
  the tray sent, marked electronic, from the tray;
* the header badge showed connected, reconnecting and the tray's battery;
* the LED mirror on screen shows a frame the simulated strip really shipped (same
  sequence number, same CRC-32, from ``COMPANION_SIM_LEDS``), lighting only cells the
  referee highlights, and the mirror is visibly drawn in an X screenshot;
* SIGTERM (``systemctl stop``) ends the app with status 0 and the strip's last frame
  is dark.
"""

from __future__ import annotations

import json
import re
import signal
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

from companion.games import get_rules
from companion.journal import Journal
from companion.session import Session
from firmware_bridge.dice.sim_tray import SimDiceTray
from firmware_bridge.layout import kolossus_layout
from kiosk.presenters.why import TABLE_HEADING
from kiosk.teaching import load_teaching
from tests.helpers.xvfb_app import (
    NEEDS_XVFB,
    TRAY_BATTERY,
    App,
    brief,
    grab,
    leds_of_cells,
    strip_lit,
    wait_for_strip,
)

FACES = [3, 1, 4, 2, 2, 1, 3, 4]  # what the test's die shows, roll after roll
SIDEBAR = {"Undo", "Redo", "Table", "Board", "LEDs", "Scores", "Home"}
DARK_RING = (23, 26, 31)  # an unlit LED in the mirror: Color(0.09, 0.10, 0.12)
#: Every teaching text's title: what teach mode's pause shows as its heading.
TITLES = {text.title for file in load_teaching().files.values() for text in file.texts.values()}

pytestmark = [pytest.mark.slow, NEEDS_XVFB]


def roll_on_tray(app: App, tray: SimDiceTray, face: int) -> None:
    """Roll the test's die and wait until the journal has the game's roll."""
    rolls_before = sum(a["type"] == "roll" for a in app.actions())
    started = time.monotonic()
    tray.roll(1 + rolls_before % 3, face)
    deadline = started + 8
    while sum(a["type"] == "roll" for a in app.actions()) == rolls_before:
        assert time.monotonic() < deadline, f"the roll never reached the journal: {brief(app.ui())}"
        time.sleep(0.005)
    app.timings.setdefault("pty roll → journal commit", []).append(time.monotonic() - started)
    app.wait(
        "the dice panel to go",
        lambda ui: not any(b["text"] == "Roll in software" for b in ui["buttons"]),
    )
    app.timings.setdefault("pty roll → screen updated", []).append(time.monotonic() - started)


def action_rows(app: App) -> list[dict[str, Any]]:
    """The rows of the menu's open list (each action in the game's words): the buttons
    after the last group tab ("Move (12)") and before Undo."""
    shown = app.buttons()
    texts = [" ".join(b["text"].split()) for b in shown]
    tabs = [i for i, text in enumerate(texts) if re.fullmatch(r".+ \(\d+\)", text)]
    end = texts.index("Undo") if "Undo" in texts else len(texts)
    return shown[tabs[-1] + 1 : end] if tabs else []


def play_until_a_move(app: App, tray: SimDiceTray, sent: list[int]) -> None:
    """Play Kolossus by clicks and pty rolls until the first miniature has moved."""
    title = get_rules("kolossus").family_title
    for _step in range(80):
        if any(a["type"] == "move" for a in app.actions()) and app.find("Done") is None:
            return
        rows = action_rows(app)
        if app.find("Done", exact=True) is not None:  # fix the table, step by step
            app.click("Done", exact=True)
        elif app.find("Roll in software") is not None:  # the game wants a die: the tray rolls
            face = FACES[len(sent) % len(FACES)]
            sent.append(face)
            roll_on_tray(app, tray, face)
            if len(sent) == 1:
                pull_the_cable(app, tray)
        elif app.find(title("ready"), exact=True) is not None:
            app.click(title("ready"), exact=True)
        elif rows:  # the open list (a quake, a class, a move): a Warrior rolls 1d4
            app.click_button(next((b for b in rows if "Warrior" in b["text"]), rows[0]))
        elif app.find(f"{title('choose_class')} (") is not None:
            app.click(f"{title('choose_class')} (")
        elif app.find(f"{title('move')} (") is not None:
            app.click(f"{title('move')} (")
        else:
            raise AssertionError(f"no way forward: {brief(app.ui())}")
    raise AssertionError(f"no move after 80 steps: {app.actions()} {brief(app.ui())}")


def pull_the_cable(app: App, tray: SimDiceTray) -> None:
    """Unplug the tray (the badge says reconnecting…) and plug it back in."""
    tray.unplug()
    app.wait("reconnecting", lambda ui: ui["devices"] == f"Dice reconnecting… {TRAY_BATTERY}%")
    tray.replug()
    app.wait("reconnected", lambda ui: ui["devices"] == f"Dice on {TRAY_BATTERY}%")


def test_kolossus_by_clicks_and_pty_dice_with_leds_mirrored(
    app: App, tray: SimDiceTray, tmp_path: Path
) -> None:
    home = app.wait("Home", lambda ui: ui["screen"] == "home")
    assert home["home_banner"] == ""  # a valid configuration, every device opened
    app.click("Kolossus")
    app.wait("Setup", lambda ui: ui["screen"] == "setup")
    app.click("Start game", exact=True)
    app.wait("the game", lambda ui: ui["screen"] == "play")
    app.wait("the tray's badge", lambda ui: ui["devices"] == f"Dice on {TRAY_BATTERY}%")

    sent: list[int] = []
    play_until_a_move(app, tray, sent)

    # The journal: the actions played, each roll with exactly the faces the tray sent.
    actions = app.actions()
    kinds = [a["type"] for a in actions]
    assert kinds[0] == "ready" and kinds.count("quake_move") == 4 and "move" in kinds
    rolls = [a for a in actions if a["type"] == "roll"]
    assert [tuple(r["values"]) for r in rolls] == [(face,) for face in sent]
    assert len(rolls) >= 6  # four Great Quakes, the Die of Destiny, the movement die
    assert all(r["source"] == "electronic" and r["device"] == "test-tray" for r in rolls)
    assert not tray.unacked  # every result was acked by the app's reader

    # The LEDs: switch the left area to the LED mirror and compare with the strip.
    app.click("Table", exact=True)
    app.click("LEDs", exact=True)
    ui = app.wait(
        "a lit mirror frame",
        lambda ui: ui["mirror"]["visible"] and any(map(any, ui["mirror"]["frame"])),
    )
    mirror = ui["mirror"]
    strip = json.loads(app.strip_file.read_text())
    assert strip["seq"] >= mirror["seq"]
    assert strip["recent"][str(mirror["seq"])] == zlib.crc32(
        bytes(channel for pixel in mirror["frame"] for channel in pixel)
    ), "the mirror shows a frame the strip never shipped"
    screenshot = grab(app.display, tmp_path / "screen.png")
    left, top, width, height = mirror["rect"]
    rings = sum(
        1
        for x in range(left, left + width, 2)
        for y in range(top, top + height, 2)
        if all(
            abs(a - b) <= 4 for a, b in zip(screenshot.getpixel((x, y)), DARK_RING, strict=False)
        )
    )
    assert rings > 200, "the LED mirror is not drawn on screen"

    # Stop as systemd does (SIGTERM): a clean exit, the strip left dark.
    app.process.send_signal(signal.SIGTERM)
    assert app.process.wait(15) == 0
    final = json.loads(app.strip_file.read_text())
    assert not any(map(any, final["frame"]))

    # The referee, replaying the journal, lights the cells the mirror showed.
    layout = kolossus_layout()
    with Journal(app.journal) as journal:
        [info] = journal.games()
        session, damage = Session.resume(journal, info.game_id)
    assert damage is None
    assert [session.rules.dump_action(a)["type"] for a in session.actions] == kinds
    allowed = {
        i for h in session.rules.highlights(session.state, None) for i in layout.leds_of(h.cell)
    }
    lit = {i for i, pixel in enumerate(mirror["frame"]) if any(pixel)}
    assert lit and lit <= allowed
    for name, values in app.timings.items():
        print(
            f"{name}: median {1000 * sorted(values)[len(values) // 2]:.0f} ms, "
            f"max {1000 * max(values):.0f} ms over {len(values)} rolls"
        )


def test_learn_kolossus_setup_lit_as_the_screen_says_then_a_rolled_die_explained(
    app: App, tray: SimDiceTray
) -> None:
    """A new user taps Learn beside Kolossus on Home, follows the guided setup
    with the strip lit as the screen's board is at every step (K-R01, K-R02, K-R15),
    plays the lesson's first steps, rolls the tray's die for the Great Quake (K-R05) and
    gets teach mode's explanation, the LED frame again matching the screen."""
    app.wait("Home", lambda ui: ui["screen"] == "home")
    app.wait("Kolossus on Home", lambda _ui: app.find("Kolossus") is not None)
    game = app.find("Kolossus")
    assert game is not None
    learn = [
        b for b in app.buttons() if b["text"].startswith("Learn") and abs(b["y"] - game["y"]) <= 12
    ]
    assert len(learn) == 1, f"no Learn button beside Kolossus: {brief(app.ui())}"
    app.click_button(learn[0])

    # Guided setup: every step lit on the strip exactly as on the screen's board.
    ui = app.wait("the guided setup", lambda ui: ui["screen"] == "guided_setup")
    lit_steps = 0
    for _step in range(30):
        progress = next(t for t in ui["texts"] if t.startswith("Step "))
        ui = wait_for_strip(app, f"the strip at {progress}")
        lit_steps += bool(ui["board_lit"])
        number, count = (int(n) for n in progress.removeprefix("Step ").split(" of "))
        if number == count:
            app.click("Done: start playing", exact=True)
            break
        app.click("Done", exact=True)
        following = f"Step {number + 1} of {count}"

        def moved_on(ui: dict[str, Any], following: str = following) -> bool:
            return ui["screen"] != "guided_setup" or following in ui["texts"]

        ui = app.wait(f"the step after {progress}", moved_on)
    else:
        raise AssertionError(f"the setup never ended: {brief(ui)}")
    assert lit_steps >= 5  # the landscapes, the Citadel and each warband's corner
    app.wait("the lesson", lambda ui: ui["screen"] == "play")

    # The lesson in teach mode: each pause explains a rule with the strip showing what
    # the screen's board shows, until the game wants the Great Quake's die, which is
    # rolled on the tray.
    sent: list[int] = []
    taught = 0
    for _step in range(40):
        if sent:
            break
        if app.find("Got it", exact=True) is not None:  # teach mode's pause
            ui = wait_for_strip(app, "the strip under teach mode's pause")
            assert any(text in TITLES for text in ui["texts"])  # a ruling's title, no ID
            taught += 1
            app.click("Got it", exact=True)
        elif app.find("Roll in software") is not None:
            sent.append(FACES[0])
            roll_on_tray(app, tray, FACES[0])
        elif app.find("Play it") is not None:  # the lesson's suggestion
            app.click("Play it")
        elif app.find("Ready", exact=True) is not None:
            app.click("Ready", exact=True)
        else:
            raise AssertionError(f"no way forward in the lesson: {brief(app.ui())}")
    assert sent, "the lesson never asked for a die"
    assert taught >= 3  # the warbands, the Die of Destiny's quake, the lines that may move
    [roll] = [a for a in app.actions() if a["type"] == "roll"]
    assert roll["values"] == [FACES[0]] and roll["source"] == "electronic"

    # After the roll the strip shows what the screen's board shows: the lesson's
    # suggested line. "Why?" then explains the position by its rulings; the panel takes
    # the board's place on screen while the strip keeps the table lit; closed, the board
    # and the strip agree again. (The wait must see the panel itself: before it opens,
    # the lesson panel is on screen, and the board still shows.)
    lit = wait_for_strip(app, "the strip after the roll")["board_lit"]
    assert lit
    app.click("Why?", exact=True)
    ui = app.wait("the explanation", lambda ui: TABLE_HEADING in ui["texts"])
    explained = " ".join(ui["texts"])
    assert "K-R" in explained and "K-R28" not in explained  # the line is no weapon's target
    assert not ui["board_lit"] and strip_lit(app) == leds_of_cells(lit)
    app.click("Close", exact=True)
    ui = wait_for_strip(app, "the strip once the explanation is closed")
    assert ui["board_lit"] == lit
