"""Shop mode on the offscreen 800×480 window: the demo, boot, lock-down, the admin PIN.

The shop's clock is a fake one (``kiosk.shop.clock``) and time-driven work is run with
``kiosk.shop.tick(now)``, so a 3-minute idle timeout takes no time. Touches are real
``UnitTestTouch`` events through the window, which is where the shop listens.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from kivy.config import Config
from kivy.core.window import Window
from kivy.tests.common import UnitTestTouch
from kivy.uix.button import Button

from companion.bot import RandomBot
from companion.journal import Journal
from companion.session import Session
from firmware_bridge.buttons import ButtonPressed
from firmware_bridge.dice.messages import DieResult
from kiosk.admin import PinStore
from kiosk.app import Kiosk
from kiosk.presenters.demo import DemoPlayPresenter
from kiosk.settings import KioskConfig
from kiosk.shop import TICK_S
from kiosk.shop_demo import DEMO_BANNER
from kiosk.shop_window import apply_window_mode, title_widget
from kiosk.storage import JOURNAL_FILE
from kiosk.theme import HEIGHT, TOUCH_MIN, WIDTH
from tests.helpers.kiosk_shop import Shop
from tests.helpers.kiosk_widgets import scheduled_by
from tests.kiosk.helpers import screenshot_dir
from tests.kiosk.ui import find_button, frames, tap, tap_button

IMAGES = screenshot_dir()
ALL_GAMES = ("kolossus", "beast_master", "colossi", "colossus_solo", "builders")


def journal_footprint(data_dir: Path) -> tuple[int, int, int, int]:
    """(games, entries, damaged, bytes on disk incl. the WAL) of the real journal."""
    path = data_dir / JOURNAL_FILE
    with sqlite3.connect(path) as db:
        rows = [
            db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
            for table in ("games", "entries", "damaged_entries")
        ]
    size = sum(p.stat().st_size for p in data_dir.glob(JOURNAL_FILE + "*"))
    return rows[0], rows[1], rows[2], size


def visible_buttons(kiosk: Kiosk) -> list[Any]:
    """Buttons a finger can press on the current screen (shown, enabled, in the window)."""
    found = []
    for widget in kiosk.manager.current_screen.walk(restrict=True):
        if not isinstance(widget, Button) or widget.disabled:
            continue
        if widget.width < 1 or widget.height < 1 or not _shown(widget):
            continue
        x, y = widget.to_window(*widget.center)
        if 0 <= x <= WIDTH and 0 <= y <= HEIGHT:
            found.append(widget)
    return found


def _shown(widget: Any) -> bool:
    node = widget
    while node is not None and node.parent is not node:
        if node.opacity <= 0:
            return False
        node = node.parent
    return True


# --- attract mode --------------------------------------------------------------------------


def test_idle_starts_the_demo_on_the_play_screen_and_a_touch_returns_home(
    make_shop: Callable[..., Shop],
) -> None:
    shop = make_shop(idle_timeout_s=60, demo_step_s=1.0, demo_games=["kolossus"])
    kiosk = shop.kiosk
    kiosk.shop.arm()
    kolossus = find_button(kiosk, "Kolossus")
    where = kolossus.to_window(*kolossus.center)
    shop.advance(59)
    assert shop.current == "home" and not kiosk.shop.attract.active
    shop.advance(1)
    assert shop.current == "play"
    assert isinstance(kiosk.play, DemoPlayPresenter)
    banner = kiosk.shop.overlay.banner
    assert banner.get_root_window() is not None and banner.text.startswith(DEMO_BANNER)
    shop.advance(40)
    session = kiosk.play.session
    assert len(session.actions) >= 10
    assert kiosk.play_screen.ids.player.text.split()[0] in ("Ada", "Bram", "Cleo", "Dev", "Game")
    assert any(shop.leds)  # the LEDs follow the demo
    shop.touch(*where)  # where Home's Kolossus button will be
    assert shop.current == "home"  # ... and the touch did not press it
    assert kiosk.setup is None and kiosk.play is None
    assert banner.parent is None
    assert shop.leds[-1] == ()  # back Home: the board goes dark
    assert kiosk.journal.games(include_demo=True) == []
    shop.advance(59)
    assert shop.current == "home"  # the idle time counts from the touch
    shop.advance(1)
    assert shop.current == "play"


def test_input_resets_the_idle_clock(make_shop: Callable[..., Shop]) -> None:
    shop = make_shop(idle_timeout_s=30)
    shop.kiosk.shop.arm()
    shop.advance(25)
    shop.touch(5, 5)
    shop.advance(25)
    Window.dispatch("on_keyboard", 97, 4, "a", [])
    shop.advance(25)
    assert shop.current == "home"
    shop.advance(5)
    assert shop.current == "play"


def test_the_interrupted_game_is_intact_and_resumable_after_the_demo(
    make_shop: Callable[..., Shop], tmp_path: Path
) -> None:
    shop = make_shop(
        idle_timeout_s=30,
        demo_step_s=0.5,
        demo_outcome_s=1.0,
        demo_games=["builders", "colossus_solo"],  # short games: the rotation is seen
    )
    kiosk = shop.kiosk
    kiosk.shop.arm()
    tap_button(kiosk, "Builders of the Colossus")
    tap_button(kiosk, "Start game")
    play = kiosk.play
    assert play is not None and play.session.game_id is not None
    bot = RandomBot(3)
    for _ in range(5):
        play.submit(bot.choose(play.rules, play.state))
    play.undo()
    formable = [g.key for g in play.view().groups if play.action_menu.open_form(g.key)]
    assert formable and play.forms.form is not None  # a half-filled form is on screen
    game_id = play.session.game_id
    before_state = play.rules.dump_position(play.state)
    play.session.save_position()  # as the demo takes over: the game is left, its position saved
    before_journal = journal_footprint(tmp_path)
    shop.advance(30)
    assert isinstance(kiosk.play, DemoPlayPresenter)
    demo = kiosk.shop.attract.driver
    assert demo is not None
    while demo.games_started < 2:
        shop.advance(5, step=0.5)
        assert demo.turns < 1000
    assert demo.games_finished >= 1
    shop.touch()
    assert shop.current == "home"
    assert journal_footprint(tmp_path) == before_journal  # no demo turn was stored
    resume = find_button(kiosk, "Builders of the Colossus —")
    assert "5 moves" in resume.text or "6 moves" in resume.text
    tap(resume)
    assert shop.current == "play" and kiosk.play is not None
    assert kiosk.play.session.game_id == game_id
    assert kiosk.play.rules.dump_position(kiosk.play.state) == before_state
    assert kiosk.play.session.can_redo and kiosk.play.forms.form is None


def test_a_table_button_or_a_die_ends_the_demo_and_does_nothing_else(
    make_shop: Callable[..., Shop],
) -> None:
    shop = make_shop(idle_timeout_s=10, demo_games=["kolossus"])
    kiosk = shop.kiosk
    kiosk.shop.arm()
    shop.advance(10)
    assert shop.current == "play"
    kiosk.hub.post(ButtonPressed(button="menu", action="admin", held=True))
    kiosk.pump()
    assert shop.current == "home"  # the demo ended; the press did nothing else
    kiosk.hub.post(ButtonPressed(button="menu", action="admin", held=True))
    kiosk.pump()
    assert shop.current in ("pin", "admin")  # no demo: the press does what it does
    kiosk.shop.leave_admin()
    shop.advance(10)
    assert shop.current == "play"
    demo = kiosk.play
    assert isinstance(demo, DemoPlayPresenter)
    moves = len(demo.session.actions)
    kiosk.hub.post(DieResult(device="tray", die_id=1, face=3, faces=4, seq=1))
    kiosk.pump()
    frames(1)
    assert shop.current == "home"
    assert len(demo.session.actions) == moves


@pytest.mark.parametrize("on_boot", ["resume", "demo", "home"])
def test_boot_shows_what_on_boot_asks_for(
    on_boot: str, make_shop: Callable[..., Shop], tmp_path: Path
) -> None:
    journal = Journal(tmp_path / JOURNAL_FILE)
    waiting = Session.new("colossus_solo", ("Kim",), seed=4, journal=journal)
    journal.close()
    shop = make_shop(on_boot=on_boot)
    shop.kiosk.shop.boot()
    frames(2)
    play = shop.kiosk.play
    if on_boot == "resume":
        assert shop.current == "play" and play is not None
        assert play.session.game_id == waiting.game_id
    elif on_boot == "demo":
        assert shop.current == "play" and isinstance(play, DemoPlayPresenter)
        assert shop.kiosk.shop.overlay.banner.get_root_window() is not None
    else:
        assert shop.current == "home" and play is None


def test_boot_does_not_take_over_a_game_another_program_plays(
    make_shop: Callable[..., Shop], tmp_path: Path
) -> None:
    """A second kiosk's ``on_boot = "resume"`` once took over the
    game another program was playing; now it stays on Home and says who has it."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from companion.journal import Journal\n"
            "from companion.session import Session\n"
            "j = Journal(sys.argv[1])\n"
            "Session.new('colossus_solo', ('Kim',), seed=4, journal=j)\n"
            "print('playing', flush=True)\n"
            "time.sleep(60)\n",
            str(tmp_path / JOURNAL_FILE),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "playing"
        shop = make_shop(on_boot="resume")
        shop.kiosk.shop.boot()
        frames(2)
        assert shop.current == "home" and shop.kiosk.play is None
        banner = shop.kiosk.home_banner.text
        assert f"open in another program (process {holder.pid}" in banner
    finally:
        holder.kill()
        holder.wait(timeout=30)
    shop.kiosk.shop.boot()  # the holder is gone (killed): its lock went with it
    frames(2)
    assert shop.current == "play" and shop.kiosk.play is not None


def test_unknown_demo_games_are_listed_on_home(make_shop: Callable[..., Shop]) -> None:
    """(A misspelt ``[kiosk]`` key is refused by the config loader: tests/bridge.)"""
    shop = make_shop(demo_games=["kolossus", "chess"])
    problems = shop.kiosk.problems
    assert "[kiosk] demo_games: there is no game 'chess'" in problems
    assert shop.kiosk.shop.games == ("kolossus",)


# --- lock-down -----------------------------------------------------------------------------


def test_locked_kiosk_swallows_escape_and_refuses_to_close(make_shop: Callable[..., Shop]) -> None:
    escape_before = Config.get("kivy", "exit_on_escape")
    reached: list[str] = []

    def safety_net(*_args: Any, **_kwargs: Any) -> bool:
        reached.append("not swallowed")
        return True  # keep the test window alive if the shop lets a key through

    Window.bind(on_keyboard=safety_net, on_request_close=safety_net)
    try:
        shop = make_shop(locked=True)
        shop.kiosk.shop.arm()
        assert Config.get("kivy", "exit_on_escape") == "0"
        assert Window.dispatch("on_keyboard", 27, 41, None, []) is True
        assert Window.dispatch("on_request_close") is True
        assert reached == []
        shop.kiosk.shop.exiting = True  # the admin page's Exit may close the window
        Window.dispatch("on_request_close")
        assert reached == ["not swallowed"]
        shop.close()
        assert Config.get("kivy", "exit_on_escape") == escape_before
    finally:
        Window.unbind(on_keyboard=safety_net, on_request_close=safety_net)


def test_unlocked_kiosk_leaves_escape_to_kivy(make_shop: Callable[..., Shop]) -> None:
    reached: list[str] = []

    def kivy_itself(*_args: Any, **_kwargs: Any) -> bool:
        reached.append("passed on")
        return True  # keep the test window alive

    Window.bind(on_keyboard=kivy_itself, on_request_close=kivy_itself)
    try:
        shop = make_shop(locked=False)
        shop.kiosk.shop.arm()
        Window.dispatch("on_keyboard", 27, 41, None, [])
        Window.dispatch("on_request_close")
        assert reached == ["passed on", "passed on"]
    finally:
        Window.unbind(on_keyboard=kivy_itself, on_request_close=kivy_itself)


def test_f1_opens_no_kivy_settings_panel(tmp_path: Path) -> None:
    """Kivy's own settings (F1) could switch Escape back on: the app has none."""
    from kivy.uix.settings import Settings

    from kiosk.app import CompanionApp

    app = CompanionApp(tmp_path)
    assert app.open_settings() is False  # what Kivy's F1 key calls: nothing opens ...
    frames(1)
    assert not [w for w in Window.children if isinstance(w, Settings)]  # ... nor is shown


def test_locked_window_is_borderless_fullscreen_without_cursor() -> None:
    class FakeWindow:
        borderless = False
        fullscreen: object = False
        show_cursor = True

    locked = FakeWindow()
    apply_window_mode(locked, KioskConfig(locked=True))
    assert (locked.borderless, locked.fullscreen, locked.show_cursor) == (True, "auto", False)
    plain = FakeWindow()
    apply_window_mode(plain, KioskConfig())
    assert (plain.borderless, plain.fullscreen, plain.show_cursor) == (False, False, True)


def _screens_to_walk(shop: Shop) -> list[tuple[str, Callable[[], None]]]:
    kiosk = shop.kiosk

    def home() -> None:
        kiosk.go_home()

    def setup(game: str) -> Callable[[], None]:
        return lambda: kiosk.open_setup(game)

    def play(game: str, players: tuple[str, ...]) -> Callable[[], None]:
        def enter() -> None:
            kiosk.show_game(Session.new(game, players, seed=7, journal=kiosk.journal))

        return enter

    def scores() -> None:
        kiosk.show_game(Session.new("builders", ("A", "B"), seed=7, journal=kiosk.journal))
        kiosk.open_scores()

    states = [("home", home)]
    states += [("setup", setup(game)) for game in ALL_GAMES]
    players = {"colossus_solo": ("Kim",), "kolossus": ("A", "B", "C", "D")}
    states += [("play", play(g, players.get(g, ("A", "B", "C")))) for g in ALL_GAMES]
    states.append(("scores", scores))
    return states


@pytest.mark.slow
def test_locked_no_button_on_any_screen_leads_to_admin_or_exit(
    make_shop: Callable[..., Shop], tmp_path: Path
) -> None:
    """Press every button (each distinct label once per screen) of every screen,
    re-entering a screen a press left, and check that none opens the PIN pad, the admin
    page or exits."""
    journal = Journal(tmp_path / JOURNAL_FILE)
    # An earlier visitor's game: not listed on a locked kiosk's Home (this visit's only).
    Session.new("builders", ("Kim", "Lou"), seed=1, journal=journal)
    journal.close()
    shop = make_shop(locked=True)
    kiosk = shop.kiosk
    kiosk.shop.arm()
    assert not [b for b in visible_buttons(kiosk) if b.text == "Admin"]
    pressed: list[tuple[str, str]] = []
    for state, (name, enter) in enumerate(_screens_to_walk(shop)):
        enter()
        frames(1)
        assert shop.current == name, f"{name} {state}: {shop.current} after {pressed[-3:]}"
        done: set[str] = set()
        while todo := [b for b in visible_buttons(kiosk) if b.text not in done]:
            button = todo[0]
            done.add(button.text)
            pressed.append((name, button.text))
            tap(button)
            if button.text == "Export":  # the PIN pad for the export only, never admin
                assert shop.current == "pin" and kiosk.shop.unlocking_for_action
                kiosk.shop.pin_cancelled()
                frames(1)
            assert shop.current not in ("pin", "admin"), f"{button.text!r} on {name} {state}"
            assert not shop.exits and not kiosk.shop.exiting
            if shop.current != name:
                enter()
                frames(1)
    screens = {name for name, _ in pressed}
    assert screens == {"home", "setup", "play", "scores"}
    assert len(pressed) > 100, len(pressed)
    # The admin page's own actions do nothing without an admin session.
    kiosk.shop.exit_app()
    kiosk.shop.change_pin()
    kiosk.shop.start_demo()
    assert not shop.exits and shop.current not in ("pin", "admin")
    assert not kiosk.shop.attract.active


def test_locked_without_a_pin_the_admin_page_stays_closed(make_shop: Callable[..., Shop]) -> None:
    shop = make_shop(locked=True)
    kiosk = shop.kiosk
    kiosk.shop.arm()
    shop.long_press(title_widget(kiosk.home_screen))
    assert shop.current == "pin"
    screen = kiosk.shop.pin_screen
    assert screen.ids.title.text == "No admin PIN set"
    assert "companion admin-pin" in screen.ids.prompt.text
    assert [b.text for b in visible_buttons(kiosk)] == ["Cancel"]
    tap_button(kiosk, "Cancel", exact=True)
    assert shop.current == "home"
    kiosk.open_admin()  # the table's menu button, held: the same pad
    assert shop.current == "pin"


def test_admin_page_opens_after_a_long_press_and_the_pin(make_shop: Callable[..., Shop]) -> None:
    shop = make_shop(locked=True)
    kiosk = shop.kiosk
    PinStore(kiosk.data_dir).set_pin("2468")
    kiosk.shop.arm()
    title = title_widget(kiosk.home_screen)
    assert title is not None
    x, y = title.to_window(*title.center)
    short = UnitTestTouch(x, y)
    short.touch_down()
    shop.advance(1.5, step=0.25)
    short.touch_up()
    shop.advance(3, step=0.25)
    assert shop.current == "home"  # a short press is a tap
    shop.long_press(title)
    assert shop.current == "pin"

    def enter(pin: str) -> None:
        for digit in pin:
            tap_button(kiosk, digit, exact=True)
        tap_button(kiosk, "OK", exact=True)

    enter("1357")
    assert shop.current == "pin"
    assert "Wrong PIN" in kiosk.shop.pin_screen.ids.message.text
    enter("2468")
    assert shop.current == "admin"
    shoot(shop, "shop-admin")
    assert "[ok] LEDs: 121 LEDs are simulated." in [
        w.text for w in kiosk.shop.admin_screen.ids.findings.children
    ]
    tap_button(kiosk, "Exit app", exact=True)
    assert shop.exits == []  # one tap only arms it
    tap_button(kiosk, "Tap again to exit", exact=True)
    assert shop.exits == ["exit"] and kiosk.shop.exiting
    tap_button(kiosk, "Back", exact=True)
    assert shop.current == "home"
    shop.long_press(title)
    assert shop.current == "pin"  # leaving the admin page locks it again


def test_admin_changes_the_pin_on_the_pad(make_shop: Callable[..., Shop]) -> None:
    shop = make_shop(locked=True)
    kiosk = shop.kiosk
    store = PinStore(kiosk.data_dir)
    store.set_pin("2468")
    kiosk.shop.arm()
    kiosk.open_setup("builders")
    tap_button(kiosk, "Start game")
    shop.long_press(kiosk.play_screen.ids.player)  # the play screen's header works too
    assert shop.current == "pin"
    for digit in "2468":
        tap_button(kiosk, digit, exact=True)
    shoot(shop, "shop-pin")
    tap_button(kiosk, "OK", exact=True)
    tap_button(kiosk, "Change PIN", exact=True)
    assert kiosk.shop.pin_screen.ids.title.text == "Change the admin PIN"
    for digit in "2468":  # the current PIN first
        tap_button(kiosk, digit, exact=True)
    tap_button(kiosk, "OK", exact=True)
    for _ in range(2):
        for digit in "97531":
            tap_button(kiosk, digit, exact=True)
        tap_button(kiosk, "OK", exact=True)
    assert shop.current == "admin"
    assert kiosk.shop.admin_screen.ids.notice.text == "The admin PIN was changed."
    assert store.verify("97531").ok
    tap_button(kiosk, "Start demo", exact=True)
    assert shop.current == "play" and kiosk.shop.attract.active
    shop.advance(10)
    shoot(shop, "shop-demo")


def test_unlocked_home_has_an_admin_button_without_a_pin(make_shop: Callable[..., Shop]) -> None:
    shop = make_shop(locked=False)
    kiosk = shop.kiosk
    kiosk.shop.arm()
    tap_button(kiosk, "Admin", exact=True)
    assert shop.current == "admin"
    tap_button(kiosk, "Exit app", exact=True)
    tap_button(kiosk, "Tap again to exit", exact=True)
    assert shop.exits == ["exit"]


def test_idle_closes_an_open_admin_page(make_shop: Callable[..., Shop]) -> None:
    shop = make_shop(locked=False, idle_timeout_s=20)
    kiosk = shop.kiosk
    kiosk.shop.arm()
    tap_button(kiosk, "Admin", exact=True)
    shop.advance(20)
    assert shop.current == "play" and kiosk.shop.admin is None
    shop.touch()
    assert shop.current == "home"


@pytest.mark.parametrize("locked", [True, False])
def test_the_admin_page_locks_itself_after_a_minute_idle_without_a_demo(
    make_shop: Callable[..., Shop], locked: bool
) -> None:
    """idle_timeout_s = 0 (no demo, the installer's default without --demo): the admin
    page still closes after a minute without a touch, and needs the PIN again."""
    shop = make_shop(locked=locked, idle_timeout_s=0)
    kiosk = shop.kiosk
    PinStore(kiosk.data_dir).set_pin("2468")
    kiosk.shop.arm()
    kiosk.shop.request_admin()
    if locked:
        for digit in "2468":
            tap_button(kiosk, digit, exact=True)
        tap_button(kiosk, "OK", exact=True)
    assert shop.current == "admin"
    shop.advance(50)
    assert shop.current == "admin"
    shop.advance(11)
    assert shop.current == "home" and kiosk.shop.admin is None
    kiosk.shop.request_admin()
    assert shop.current == ("pin" if locked else "admin")


def test_an_idle_pin_pad_closes_too(make_shop: Callable[..., Shop]) -> None:
    shop = make_shop(locked=True, idle_timeout_s=0)
    kiosk = shop.kiosk
    PinStore(kiosk.data_dir).set_pin("2468")
    kiosk.shop.arm()
    kiosk.shop.request_admin()
    tap_button(kiosk, "2", exact=True)
    shop.advance(61)
    assert shop.current == "home" and kiosk.shop.pad is None


# --- no network, screenshots --------------------------------------------------------------


def _socket_inodes() -> set[str]:
    inodes = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    return inodes


def _listening(inodes: set[str]) -> list[str]:
    """Our sockets that listen (TCP LISTEN, bound UDP, listening Unix sockets)."""
    found = []
    for table in ("tcp", "tcp6", "udp", "udp6"):
        path = Path(f"/proc/self/net/{table}")
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            state, inode = fields[3], fields[9]
            bound = state == "0A" if table.startswith("tcp") else state == "07"
            if inode in inodes and bound:
                found.append(f"{table} {fields[1]}")
    unix = Path("/proc/self/net/unix")
    if unix.exists():
        for line in unix.read_text().splitlines()[1:]:
            fields = line.split()
            flags, inode = int(fields[3], 16), fields[6]
            if inode in inodes and flags & 0x10000:  # __SO_ACCEPTCON: listen() was called
                found.append(f"unix {' '.join(fields[7:])}")
    return found


@pytest.mark.skipif(not Path("/proc/self/net/tcp").exists(), reason="needs Linux /proc")
def test_the_app_opens_no_listening_socket(make_shop: Callable[..., Shop]) -> None:
    """No network service is ever started: nothing of ours listens, demo and admin included."""
    shop = make_shop(locked=False, idle_timeout_s=5)
    kiosk = shop.kiosk
    kiosk.shop.boot()
    tap_button(kiosk, "Admin", exact=True)
    tap_button(kiosk, "Home", exact=True)
    shop.advance(30)
    assert kiosk.shop.attract.active
    assert _listening(_socket_inodes()) == []
    with socket.socket() as probe:  # the check itself sees a listening socket
        probe.bind(("127.0.0.1", 0))
        probe.listen()
        assert len(_listening(_socket_inodes())) == 1


def shoot(shop: Shop, name: str) -> None:
    """Check the layout (48 px targets inside the window) and save the screen."""
    frames(3)
    for button in visible_buttons(shop.kiosk):
        assert button.width >= TOUCH_MIN and button.height >= TOUCH_MIN, button.text
        x, y = button.to_window(button.x, button.y)
        assert x >= 0 and y >= 0 and x + button.width <= WIDTH + 1, button.text
        assert y + button.height <= HEIGHT + 1, button.text
    path = IMAGES / f"screen-{name}.png"
    shop.kiosk.manager.export_to_png(str(path))
    assert path.stat().st_size > 5000, "blank screenshot"


def test_a_still_shop_kiosk_sleeps_until_the_demo_is_due(make_shop: Callable[..., Shop]) -> None:
    """Idle means idle: an armed shop kiosk with nothing running on time
    schedules one tick, when the idle clock expires, not one every TICK_S; while the demo
    runs it ticks every TICK_S; the touch that ends the demo plans the next expiry."""
    shop = make_shop(idle_timeout_s=60)
    mode = shop.kiosk.shop
    mode.arm()
    frames(1)

    def wakes() -> list[tuple[float, bool]]:
        """When the shop's next tick is due (seconds, to the millisecond), and whether it
        repeats."""
        return [(round(event.timeout, 3), event.loop) for event in scheduled_by(mode)]

    assert wakes() == [(60.0, False)]  # once, when the demo is due
    mode.start_demo(force=True)
    frames(2)
    assert wakes() == [(round(TICK_S, 3), False)]
    shop.clock.now += 5.0
    shop.touch()  # ends the demo; the idle clock starts again from this touch
    frames(1)
    assert not mode.attract.active
    assert wakes() == [(60.0, False)]
